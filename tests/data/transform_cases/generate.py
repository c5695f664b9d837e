"""Writes small DaCe-written SDFGs that the pattern transformations no corpus SDFG matches do
match, one folder per program, in the corpus case format (tests/unit/corpus_case.h).

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/transform_cases/generate.py [program...]
Each folder gets <name>.raw.sdfgz (frontend output) and <name>.simp.sdfgz (DaCe's simplify),
inputs in in/, NumPy's outputs in out/ and a case.json. Expected outputs come from NumPy
running the same computation, never from libdace. Which transformation each program is for is
noted above it; CorpusOptimize (transform_corpus_test.cpp) applies every pattern
transformation at every match of these files as it does for the corpus, and
tests/scripts/dace_runs_transformed.py has DaCe run what libdace makes of them.
"""
import json
import os
import sys
import warnings

import numpy as np

import dace

HERE = os.path.dirname(os.path.abspath(__file__))
N = dace.symbol('N')
M = dace.symbol('M')
K = dace.symbol('K')
CASES = []


def case(symbols, make_inputs, reference, rtol=1e-12, atol=1e-12):
    """Registers a program with its symbol values, input maker and NumPy reference."""

    def register(program):
        CASES.append(dict(program=program, symbols=symbols, make_inputs=make_inputs, reference=reference,
                          rtol=rtol, atol=atol))
        return program

    return register


# Two perfectly nested maps, the inner one passing A in and C out between the scopes:
# MapCollapse, MapInterchange, InLocalStorage (entries) and OutLocalStorage (exits).
@case({'N': 5, 'M': 7}, lambda r: dict(A=r.random((5, 7)), C=np.zeros((5, 7))),
      lambda i: dict(C=i['A'] * 2 + 1))
@dace.program
def nested_maps(A: dace.float64[N, M], C: dace.float64[N, M]):
    for i in dace.map[0:N]:
        for j in dace.map[0:M]:
            C[i, j] = A[i, j] * 2 + 1


# A row sum written with an explicit WCR memlet, which DaCe propagates onto the edge between
# the two map exits: AccumulateTransient.
@case({'N': 5, 'M': 7}, lambda r: dict(A=r.random((5, 7)), R=r.random(5)),
      lambda i: dict(R=i['R'] + i['A'].sum(axis=1)))
@dace.program
def wcr_rows(A: dace.float64[N, M], R: dace.float64[N]):
    for i in dace.map[0:N]:
        for j in dace.map[0:M]:
            with dace.tasklet:
                a << A[i, j]
                r >> R(1, lambda x, y: x + y)[i]
                r = a


def loops_reference(i):
    B, C, X = i['B'].copy(), i['C'].copy(), i['X'].copy()
    B[:] = B * 2 + i['A'][:, 0]
    for k in range(4):
        C[k] = C[k] + k
    for _ in range(3):
        X[:] = X * 0.5 + i['Y']
    return dict(B=B, C=C, X=X)


# Loops as LoopRegions (DaCe's frontend with use_experimental_cfg_blocks, as DaCe 1.x writes
# them by default from 2.0 on): independent iterations (LoopToMap), a constant trip count
# (LoopUnroll), a loop around one map whose iterations touch their own elements only
# (MoveLoopIntoMap).
@case({'N': 5, 'M': 7},
      lambda r: dict(A=r.random((5, 7)), B=r.random(5), C=r.random(4), X=r.random(7), Y=r.random(7)),
      loops_reference)
@dace.program(use_experimental_cfg_blocks=True)
def loops(A: dace.float64[N, M], B: dace.float64[N], C: dace.float64[4], X: dace.float64[M],
          Y: dace.float64[M]):
    for i in range(N):
        B[i] = B[i] * 2 + A[i, 0]
    for k in range(4):
        C[k] = C[k] + k
    for t in range(3):
        for j in dace.map[0:M]:
            X[j] = X[j] * 0.5 + Y[j]


@dace.program
def add_one_middle(A: dace.float64[N], B: dace.float64[N]):
    B[2:5] = A[2:5] + 1


# A call of another program: a nested SDFG that reads and writes one fixed block of whole
# arrays (RefineNestedAccess) and, where it has one state, can be inlined (InlineSDFG).
@case({'N': 8}, lambda r: dict(A=r.random(8), B=r.random(8)),
      lambda i: dict(B=np.concatenate([i['B'][:2], i['A'][2:5] + 1, i['B'][5:]])))
@dace.program
def nested_call(A: dace.float64[N], B: dace.float64[N]):
    add_one_middle(A, B)


# A temporary only copied into an inner block of the output (the frontend's `B[1:-1] = expr`):
# RedundantArray. DaCe's simplify removes such temporaries itself, except with experimental
# control-flow blocks, where it skips ArrayElimination but still fuses the states.
@case({'N': 8}, lambda r: dict(A=r.random(8), B=r.random(8)),
      lambda i: dict(B=np.concatenate([i['B'][:1], i['A'][1:-1] + i['A'][:-2], i['B'][-1:]])))
@dace.program(use_experimental_cfg_blocks=True)
def inner_block(A: dace.float64[N], B: dace.float64[N]):
    B[1:-1] = A[1:-1] + A[:-2]


# A matrix product read only by a map computing alpha * P + beta * C into C:
# FoldScalingIntoGemm (libdace's own).
@case({'N': 4, 'M': 5, 'K': 6},
      lambda r: dict(alpha=np.float64(1.5), beta=np.float64(-0.5), A=r.random((4, 6)), B=r.random((6, 5)),
                     C=r.random((4, 5))),
      lambda i: dict(C=i['alpha'] * (i['A'] @ i['B']) + i['beta'] * i['C']), rtol=1e-10)
@dace.program
def scaled_product(alpha: dace.float64, beta: dace.float64, A: dace.float64[N, K], B: dace.float64[K, M],
                   C: dace.float64[N, M]):
    P = A @ B
    for i, j in dace.map[0:N, 0:M]:
        C[i, j] = alpha * P[i, j] + beta * C[i, j]


def write(entry, root):
    program = entry['program']
    name = program.name
    folder = os.path.join(root, name)
    os.makedirs(os.path.join(folder, 'in'), exist_ok=True)
    os.makedirs(os.path.join(folder, 'out'), exist_ok=True)
    rng = np.random.default_rng(20261126)
    inputs = entry['make_inputs'](rng)
    expected = entry['reference']({k: v.copy() for k, v in inputs.items()})
    for variant, simplify in (('raw', False), ('simp', True)):
        sdfg = program.to_sdfg(simplify=simplify)
        sdfg.validate()
        sdfg.save(os.path.join(folder, name + '.' + variant + '.sdfgz'), compress=True)
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
        'variants': ['raw', 'simp'],
        'rtol': entry['rtol'],
        'atol': entry['atol'],
    }
    with open(os.path.join(folder, 'case.json'), 'w') as fh:
        json.dump(meta, fh, indent=1, sort_keys=True)
        fh.write('\n')
    print('wrote', folder)


if __name__ == '__main__':
    # DaCe warns about each simplify pass it skips on experimental control-flow blocks.
    warnings.filterwarnings('ignore', message='.*experimental control flow blocks')
    only = set(sys.argv[1:])
    for entry in CASES:
        if not only or entry['program'].name in only:
            write(entry, HERE)
