"""Writes DaCe-written SDFGs of small NumPy programs, one folder per frontend feature family.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/frontend/generate.py
Each folder gets <name>.raw.sdfgz (frontend output), <name>.simp.sdfgz (DaCe's simplify) and
<name>.opt.sdfgz (DaCe's auto_optimize for CPU), inputs in in/, NumPy's outputs in out/ and a
case.json in the corpus format that `dace run --case` checks. Expected outputs come from NumPy
running the same computation, never from libdace.
"""
import json
import os
import sys

import numpy as np

import dace
from dace.transformation.auto.auto_optimize import auto_optimize

HERE = os.path.dirname(os.path.abspath(__file__))
N = dace.symbol('N')
CASES = []


def case(symbols, make_inputs, reference, rtol=1e-12, atol=1e-12):
    """Registers a program with its symbol values, input maker and NumPy reference."""

    def register(program):
        CASES.append(dict(program=program, symbols=symbols, make_inputs=make_inputs, reference=reference,
                          rtol=rtol, atol=atol))
        return program

    return register


# Python operators with Python semantics, on ints and floats; zero divisors and MIN // -1
# follow NumPy (0, and wrap-around) instead of trapping.
def pyops_inputs(rng):
    a = rng.integers(-20, 20, 12).astype(np.int64)
    b = (rng.integers(1, 7, 12) * rng.choice([-1, 1], 12)).astype(np.int64)
    b[3] = 0
    a[5], b[5] = np.iinfo(np.int64).min, -1
    f = rng.uniform(-3, 3, 12)
    z = np.zeros(12, np.int64)
    return dict(A=a, B=b, F=f, O1=z.copy(), O2=z.copy(), O3=np.zeros(12), O4=np.zeros(12), O5=z.copy())


def pyops_reference(i):
    with np.errstate(all='ignore'):
        return dict(O1=i['A'] % i['B'], O2=i['A'] // i['B'], O3=i['F'] % 0.7, O4=i['F'] // 0.3, O5=i['B']**2)


@case({'N': 12}, pyops_inputs, pyops_reference)
@dace.program
def pyops(A: dace.int64[N], B: dace.int64[N], F: dace.float64[N], O1: dace.int64[N], O2: dace.int64[N],
          O3: dace.float64[N], O4: dace.float64[N], O5: dace.int64[N]):
    O1[:] = A % B
    O2[:] = A // B
    O3[:] = F % 0.7
    O4[:] = F // 0.3
    O5[:] = B**2


# Transposes: 2-D (Transpose node; cblas_domatcopy tasklet after auto_optimize) and N-D
# (TensorTranspose with a permutation).
@case({'N': 9}, lambda r: dict(A=r.random((9, 7)), B=np.zeros((7, 9))), lambda i: dict(B=i['A'].T))
@dace.program
def transpose2d(A: dace.float64[N, 7], B: dace.float64[7, N]):
    B[:] = A.T


@case({}, lambda r: dict(A=r.random((4, 5, 6)), B=np.zeros((6, 4, 5))),
      lambda i: dict(B=np.transpose(i['A'], (2, 0, 1))))
@dace.program
def transpose3d(A: dace.float64[4, 5, 6], B: dace.float64[6, 4, 5]):
    B[:] = np.transpose(A, (2, 0, 1))


@case({'N': 3}, lambda r: dict(A=r.random((3, 1, 5, 2)), B=np.zeros((2, 3, 5, 1))),
      lambda i: dict(B=np.transpose(i['A'], (3, 0, 2, 1))))
@dace.program
def transpose_unit_axis(A: dace.float64[N, 1, 5, 2], B: dace.float64[2, N, 5, 1]):
    B[:] = np.transpose(A, (3, 0, 2, 1))


# einsum (the frontend turns it into maps and reductions).
@case({'N': 8}, lambda r: dict(A=r.random((8, 5)), B=r.random((5, 6)), C=np.zeros((8, 6))),
      lambda i: dict(C=np.einsum('ik,kj->ij', i['A'], i['B'])))
@dace.program
def einsum_matmul(A: dace.float64[N, 5], B: dace.float64[5, 6], C: dace.float64[N, 6]):
    C[:] = np.einsum('ik,kj->ij', A, B)


# Indirect accesses and data-dependent loop bounds.
@case({'N': 10}, lambda r: dict(A=r.random(10), idx=r.integers(0, 10, 10), B=np.zeros(10)),
      lambda i: dict(B=i['A'][i['idx']]))
@dace.program
def indirect_read(A: dace.float64[N], idx: dace.int64[N], B: dace.float64[N]):
    for i in range(N):
        B[i] = A[idx[i]]


@case({'N': 10}, lambda r: dict(A=r.random(10), lens=r.integers(0, 10, 10), B=np.zeros(10)),
      lambda i: dict(B=np.array([i['A'][:n].sum() for n in i['lens']])))
@dace.program
def data_dependent_range(A: dace.float64[N], lens: dace.int64[N], B: dace.float64[N]):
    for i in range(N):
        s = 0.0
        for j in range(lens[i]):
            s = s + A[j]
        B[i] = s


# Reshapes (views with other shapes) and writes through a view.
@case({'N': 8}, lambda r: dict(A=r.random((8, 6)), B=np.zeros((8, 6))), lambda i: dict(B=i['A'] * 2.0))
@dace.program
def reshape_roundtrip(A: dace.float64[N, 6], B: dace.float64[N, 6]):
    t = np.reshape(A, (N, 2, 3))
    B[:] = np.reshape(t * 2.0, (N, 6))


def view_write_reference(i):
    a = i['A'].copy()
    a[1:, :] += 1.0
    return dict(A=a)


@case({'N': 7}, lambda r: dict(A=r.random((7, 7))), view_write_reference)
@dace.program
def view_write(A: dace.float64[N, N]):
    v = A[1:, :]
    v[:] = v + 1.0


def write(entry, root):
    program = entry['program']
    name = program.name
    folder = os.path.join(root, name)
    os.makedirs(os.path.join(folder, 'in'), exist_ok=True)
    os.makedirs(os.path.join(folder, 'out'), exist_ok=True)
    rng = np.random.default_rng(20261125)
    inputs = entry['make_inputs'](rng)
    expected = entry['reference']({k: v.copy() for k, v in inputs.items()})
    raw = program.to_sdfg(simplify=False)
    raw.save(os.path.join(folder, name + '.raw.sdfgz'), compress=True)
    simp = program.to_sdfg(simplify=True)
    simp.save(os.path.join(folder, name + '.simp.sdfgz'), compress=True)
    opt = program.to_sdfg(simplify=True)
    auto_optimize(opt, dace.DeviceType.CPU)
    opt.save(os.path.join(folder, name + '.opt.sdfgz'), compress=True)
    for k, v in inputs.items():
        np.save(os.path.join(folder, 'in', k + '.npy'), v)
    for k, v in expected.items():
        np.save(os.path.join(folder, 'out', k + '.npy'), v)
    meta = {
        'kernel': name,
        'dace_version': dace.__version__,
        'symbols': entry['symbols'],
        'inputs': {k: 'in/' + k + '.npy' for k in sorted(inputs)},
        'expected_outputs': {k: 'out/' + k + '.npy' for k in sorted(expected)},
        'rtol': entry['rtol'],
        'atol': entry['atol'],
    }
    with open(os.path.join(folder, 'case.json'), 'w') as fh:
        json.dump(meta, fh, indent=1, sort_keys=True)
        fh.write('\n')
    print('wrote', folder)


if __name__ == '__main__':
    only = set(sys.argv[1:])
    for entry in CASES:
        if not only or entry['program'].name in only:
            write(entry, HERE)
