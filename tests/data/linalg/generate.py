"""Writes DaCe-written SDFGs of small NumPy linear-algebra programs (np.linalg.solve, inv,
cholesky): DaCe's Solve / Inv / Cholesky library nodes in the raw and simplified SDFGs, and the
LAPACKE C++ tasklets of their OpenBLAS expansions in the auto-optimized ones.

Run with DaCe 1.0.2 (scripts/setup.sh puts it in .venv-dace):
    .venv-dace/bin/python tests/data/linalg/generate.py [NAME ...]
The folders have the layout of tests/data/frontend (written by its `write`), and the same
runner checks them: tests/scripts/frontend_cases.sh DACE_CLI tests/data/linalg. Expected
outputs come from NumPy, never from libdace.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'frontend'))
import generate as frontend  # noqa: E402  (tests/data/frontend/generate.py: write())

import dace  # noqa: E402

N = dace.symbol('N')
M = dace.symbol('M')
CASES = []


def case(symbols, make_inputs, reference, rtol=1e-9, atol=1e-10):
    def register(program):
        CASES.append(dict(program=program, symbols=symbols, make_inputs=make_inputs, reference=reference,
                          rtol=rtol, atol=atol))
        return program

    return register


def well_conditioned(rng, n, dtype=np.float64):
    """A random matrix with a dominant diagonal (nonsingular, modest condition number)."""
    a = rng.uniform(-1, 1, (n, n)) + n * np.eye(n)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.uniform(-1, 1, (n, n))
    return a.astype(dtype)


def spd(rng, n, dtype=np.float64):
    """A symmetric positive definite matrix."""
    q = rng.uniform(-1, 1, (n, n))
    return (q @ q.T + n * np.eye(n)).astype(dtype)


# Solve with a matrix right-hand side (Solve: _ain, _bin -> _bout).
@case({'N': 7, 'M': 3}, lambda r: dict(A=well_conditioned(r, 7), B=r.uniform(-1, 1, (7, 3)), X=np.zeros((7, 3))),
      lambda i: dict(X=np.linalg.solve(i['A'], i['B'])))
@dace.program
def linalg_solve(A: dace.float64[N, N], B: dace.float64[N, M], X: dace.float64[N, M]):
    X[:] = np.linalg.solve(A, B)


# Solve in float32; A is read through a transpose (a strided view for the raw SDFG).
@case({'N': 6, 'M': 2},
      lambda r: dict(A=well_conditioned(r, 6, np.float32), B=r.uniform(-1, 1, (6, 2)).astype(np.float32),
                     X=np.zeros((6, 2), np.float32)),
      lambda i: dict(X=np.linalg.solve(i['A'], i['B'])), rtol=1e-4, atol=1e-5)
@dace.program
def linalg_solve_f32(A: dace.float32[N, N], B: dace.float32[N, M], X: dace.float32[N, M]):
    X[:] = np.linalg.solve(A, B)


# Solve in complex128 (as NPBench's coninteg).
@case({'N': 5, 'M': 2},
      lambda r: dict(A=well_conditioned(r, 5, np.complex128),
                     B=(r.uniform(-1, 1, (5, 2)) + 1j * r.uniform(-1, 1, (5, 2))), X=np.zeros((5, 2), np.complex128)),
      lambda i: dict(X=np.linalg.solve(i['A'], i['B'])))
@dace.program
def linalg_solve_c128(A: dace.complex128[N, N], B: dace.complex128[N, M], X: dace.complex128[N, M]):
    X[:] = np.linalg.solve(A, B)


# Inverse (Inv: _ain -> _aout).
@case({'N': 6}, lambda r: dict(A=well_conditioned(r, 6), B=np.zeros((6, 6))), lambda i: dict(B=np.linalg.inv(i['A'])))
@dace.program
def linalg_inv(A: dace.float64[N, N], B: dace.float64[N, N]):
    B[:] = np.linalg.inv(A)


# Cholesky factor, lower (Cholesky: _a -> _b), followed by a use of it.
@case({'N': 8}, lambda r: dict(A=spd(r, 8), L=np.zeros((8, 8)), S=np.zeros((8, ))),
      lambda i: dict(L=np.linalg.cholesky(i['A']), S=np.linalg.cholesky(i['A']).sum(axis=1)))
@dace.program
def linalg_cholesky(A: dace.float64[N, N], L: dace.float64[N, N], S: dace.float64[N]):
    L[:] = np.linalg.cholesky(A)
    S[:] = np.sum(L, axis=1)


# Cholesky in float32.
@case({'N': 5}, lambda r: dict(A=spd(r, 5, np.float32), L=np.zeros((5, 5), np.float32)),
      lambda i: dict(L=np.linalg.cholesky(i['A'])), rtol=1e-4, atol=1e-5)
@dace.program
def linalg_cholesky_f32(A: dace.float32[N, N], L: dace.float32[N, N]):
    L[:] = np.linalg.cholesky(A)


if __name__ == '__main__':
    only = set(sys.argv[1:])
    for entry in CASES:
        if not only or entry['program'].name in only:
            frontend.write(entry, HERE)
