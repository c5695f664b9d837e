#!/usr/bin/env python3
"""Writes the Redistribute test programs of tests/mpi/sdfgs with DaCe's Python frontend.

Run with DaCe 1.0.2 (`.venv-dace/bin/python tests/mpi/make_redistribute_sdfgs.py`); the SDFGs
are committed, so the tests need neither DaCe nor mpi4py. Each program redistributes a global
L x L (or L) array between two block distributions (dace.comm.Subarray over process grids);
tests/scripts/mpi_redistribute_cases.py computes the expected blocks with NumPy.
"""
import os

import dace
import numpy as np

P = dace.symbol('P')
Q = dace.symbol('Q')
L = dace.symbol('L')


@dace.program
def redistribute_rows_cols(A: dace.float64[L, L // P]):
    # Column blocks on a 1 x P grid -> row blocks on a P x 1 grid.
    a_grid = dace.comm.Cart_create([1, P])
    b_grid = dace.comm.Cart_create([P, 1])
    B = np.empty((L // P, L), dtype=np.float64)
    a_arr = dace.comm.Subarray((L, L), A, process_grid=a_grid)
    b_arr = dace.comm.Subarray((L, L), B, process_grid=b_grid)
    dace.comm.Redistribute(A, a_arr, B, b_arr)
    return B


@dace.program
def redistribute_1d(A: dace.int32[L // P]):
    # Blocks of L / P on P ranks -> blocks of L / Q on the first Q ranks (unaligned overlaps).
    a_grid = dace.comm.Cart_create([P])
    b_grid = dace.comm.Cart_create([Q])
    B = np.empty((L // Q, ), dtype=np.int32)
    a_arr = dace.comm.Subarray((L, ), A, process_grid=a_grid)
    b_arr = dace.comm.Subarray((L, ), B, process_grid=b_grid)
    dace.comm.Redistribute(A, a_arr, B, b_arr)
    return B


@dace.program
def redistribute_grid_2d(A: dace.float32[L // 2, 2 * L // P]):
    # 2 x P/2 blocks -> column blocks on a P x 1 grid whose dimension 0 tiles the array's
    # columns (correspondence (1, 0)).
    a_grid = dace.comm.Cart_create([2, P // 2])
    b_grid = dace.comm.Cart_create([P, 1])
    B = np.empty((L, L // P), dtype=np.float32)
    a_arr = dace.comm.Subarray((L, L), A, process_grid=a_grid)
    b_arr = dace.comm.Subarray((L, L), B, process_grid=b_grid, correspondence=(1, 0))
    dace.comm.Redistribute(A, a_arr, B, b_arr)
    return B


@dace.program
def redistribute_subgrids(A: dace.float64[2 * L // P]):
    # Between two sub-grids of a 2 x P/2 grid (even P): blocks of 2L/P on the second row
    # (the row of rank P - 1) -> blocks of L/2 on the first column (the column of rank 0).
    parent = dace.comm.Cart_create([2, P // 2])
    row = dace.comm.Cart_sub(parent, [False, True], exact_grid=P - 1)
    col = dace.comm.Cart_sub(parent, [True, False], exact_grid=0)
    B = np.empty((L // 2, ), dtype=np.float64)
    a_arr = dace.comm.Subarray((L, ), A, process_grid=row)
    b_arr = dace.comm.Subarray((L, ), B, process_grid=col)
    dace.comm.Redistribute(A, a_arr, B, b_arr)
    return B


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sdfgs')
    os.makedirs(out, exist_ok=True)
    for prog in (redistribute_rows_cols, redistribute_1d, redistribute_grid_2d, redistribute_subgrids):
        sdfg = prog.to_sdfg(simplify=True)
        sdfg.save(os.path.join(out, f'{prog.name}.sdfg'))


if __name__ == '__main__':
    main()
