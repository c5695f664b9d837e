#!/usr/bin/env python3
"""DaCe's Redistribute library node under mpirun on 1-4 ranks, against NumPy.

The SDFGs in tests/mpi/sdfgs were written by DaCe 1.0.2 (tests/mpi/make_redistribute_sdfgs.py).
For each program and rank count the script draws a global array with a seeded generator, cuts
it into the input blocks of the source distribution (each rank's argument), computes with
NumPy the block of the target distribution each rank must return, writes a distributed case
(case.json) and runs `mpirun -np P dace run PROG.sdfg --case case.json`, which compares every
rank's outputs exactly.

usage: mpi_redistribute_cases.py DACE_CLI SDFG_DIR WORK_DIR [RANKS ...]   (default ranks: 1 2 3 4)
Exit 77 (skip) without mpirun or NumPy.
"""
import os
import shutil
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not available to this Python")
    sys.exit(77)

from mpi_case_support import matched_outputs, mpirun_env, mpirun_missing, run_case, write_case

L = 12  # divisible by every block count used below


def rows_cols(P, g):
    # Column blocks on a 1 x P grid (rank r = coordinates (0, r)) -> row blocks on P x 1.
    w = L // P
    inputs = {r: {"A": g[:, r * w:(r + 1) * w]} for r in range(P)}
    outputs = {r: {"__return": g[r * w:(r + 1) * w, :]} for r in range(P)}
    return {"L": L, "P": P}, inputs, outputs


def one_d(P, g):
    # Blocks of L / P on P ranks -> blocks of L / Q on ranks 0..Q-1 (Q = P - 1 from 3 ranks
    # on, so that blocks overlap unaligned: 4 vs 6, 3 vs 4); the other ranks receive nothing.
    Q = max(1, P - 1)
    a, b = L // P, L // Q
    inputs = {r: {"A": g[r * a:(r + 1) * a]} for r in range(P)}
    outputs = {r: ({"__return": g[r * b:(r + 1) * b]} if r < Q else {}) for r in range(P)}
    return {"L": L, "P": P, "Q": Q}, inputs, outputs


def grid_2d(P, g):
    # 2 x P/2 grid (rank r = (r // (P/2), r % (P/2))) of L/2 x 2L/P blocks -> P x 1 grid
    # whose dimension 0 tiles the columns: rank r holds columns r*L/P ... of every row.
    if P % 2:
        return None
    h, w, c = L // 2, 2 * L // P, L // P
    inputs = {}
    for r in range(P):
        i, j = r // (P // 2), r % (P // 2)
        inputs[r] = {"A": g[i * h:(i + 1) * h, j * w:(j + 1) * w]}
    outputs = {r: {"__return": g[:, r * c:(r + 1) * c]} for r in range(P)}
    return {"L": L, "P": P}, inputs, outputs


def subgrids(P, g):
    # Sub-grids of a 2 x P/2 grid: the second row (ranks P/2 ... P-1, the row of rank P - 1)
    # holds blocks of 2L/P -> the first column (ranks 0 and P/2, the column of rank 0) blocks
    # of L/2. Ranks of the first row pass data that must not travel; ranks outside the column
    # receive nothing.
    if P % 2:
        return None
    h, w = P // 2, 2 * L // P
    junk = np.full(w, -1.0)
    inputs = {r: {"A": g[(r - h) * w:(r - h + 1) * w] if r >= h else junk} for r in range(P)}
    outputs = {r: {} for r in range(P)}
    outputs[0] = {"__return": g[:L // 2]}
    outputs[h] = {"__return": g[L // 2:]}
    return {"L": L, "P": P}, inputs, outputs


# program -> (model, global shape, element type)
PROGRAMS = {
    "redistribute_rows_cols": (rows_cols, (L, L), np.float64),
    "redistribute_1d": (one_d, (L, ), np.int32),
    "redistribute_grid_2d": (grid_2d, (L, L), np.float32),
    "redistribute_subgrids": (subgrids, (L, ), np.float64),
}


def make_case(name, P, work):
    model, shape, dtype = PROGRAMS[name]
    rng = np.random.default_rng(7 * P + len(name))
    g = (rng.integers(-1000, 1000, size=shape)).astype(dtype)
    made = model(P, g)
    if made is None:
        return None
    symbols, inputs, outputs = made
    out_dir = write_case(os.path.join(work, f"{name}.np{P}"), P, symbols, inputs, outputs, rtol=0.0)
    # `dace run --case` prints one "NAME: ok" line per expected output of each rank.
    return out_dir, sum(len(outputs[r]) for r in range(P))


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, sdfgs, work = sys.argv[1:4]
    ranks = [int(x) for x in sys.argv[4:]] or [1, 2, 3, 4]
    if mpirun_missing():
        print(mpirun_missing())
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = mpirun_env(watchdog_s=60)
    status = 0
    for name in PROGRAMS:
        for P in ranks:
            made = make_case(name, P, work)
            if made is None:
                print(f"n/a  {name} on {P} ranks (the program needs an even rank count)")
                continue
            case_dir, expected = made
            p = run_case(cli, os.path.join(sdfgs, f"{name}.sdfg"), P, case_dir, env)
            matched = matched_outputs(p)
            if p.returncode == 0 and matched == expected:
                print(f"ok   {name} on {P} ranks ({matched} outputs matched NumPy)")
            else:
                print(f"FAIL {name} on {P} ranks (exit {p.returncode}, {matched} of {expected} outputs matched):\n"
                      f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
