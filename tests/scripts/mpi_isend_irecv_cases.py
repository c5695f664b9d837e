#!/usr/bin/env python3
"""DaCe's Isend / Irecv / Waitall (and Wait) per element type under mpirun on 1-4 ranks, against NumPy.

The SDFGs in tests/mpi/sdfgs were written by DaCe 1.0.2 (tests/mpi/make_isend_irecv_sdfgs.py):
rank r sends x to rank r+1 into y (whole arrays) and x[0:L:2] to rank r-1 into z[1:L:2] (strided),
on a ring. Every rank draws its own seeded x; the script computes with NumPy what y and z must
hold on every rank (z's even elements keep their sentinel), writes a distributed case and runs
`mpirun -np P dace run PROG.sdfg --case case.json`, which compares exactly. isend_irecv_wait_f64
awaits each request with its own Wait (DaCe's single-request node): y must be the previous
rank's x and the receive's status (source, tag) that rank and 5.

usage: mpi_isend_irecv_cases.py DACE_CLI SDFG_DIR WORK_DIR [RANKS ...]   (default ranks: 1 2 3 4)
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

L = 10
PROGRAMS = {
    "isend_irecv_int32": np.int32,
    "isend_irecv_int64": np.int64,
    "isend_irecv_float32": np.float32,
    "isend_irecv_complex128": np.complex128,
}


def draw(rng, dtype):
    if dtype in (np.int32, np.int64):
        # int64 beyond 32 bits, so a 4-byte transfer would show
        hi = 2**40 if dtype == np.int64 else 2**30
        return rng.integers(-hi, hi, size=L).astype(dtype)
    x = rng.standard_normal(L) * 1e3
    if dtype == np.complex128:
        x = x + 1j * rng.standard_normal(L)
    return x.astype(dtype)


def make_case(name, P, work):
    dtype = PROGRAMS[name]
    rng = np.random.default_rng(31 * P + len(name))
    xs = [draw(rng, dtype) for _ in range(P)]
    sentinel = np.full(L, -7, dtype=dtype)
    inputs, outputs = [], []
    for r in range(P):
        z = sentinel.copy()
        z[1::2] = xs[(r + 1) % P][0::2]
        inputs.append({"x": xs[r], "y": sentinel, "z": sentinel, "rank": np.array(r, np.int32),
                       "size": np.array(P, np.int32)})
        outputs.append({"x": xs[r], "y": xs[(r - 1) % P], "z": z})
    return write_case(os.path.join(work, f"{name}.np{P}"), P, {"L": L}, inputs, outputs, rtol=0.0)


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
            case_dir = make_case(name, P, work)
            p = run_case(cli, os.path.join(sdfgs, f"{name}.sdfg"), P, case_dir, env)
            matched = matched_outputs(p)
            if p.returncode == 0 and matched == 3 * P:
                print(f"ok   {name} on {P} ranks ({matched} outputs matched NumPy)")
            else:
                print(f"FAIL {name} on {P} ranks (exit {p.returncode}, {matched} matched):\n"
                      f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
                status = 1
    # One Wait per request (DaCe's single-request node): y is the previous rank's x, and the
    # receive's status (stat) names that rank and tag 5.
    for P in ranks:
        rng = np.random.default_rng(7 * P)
        xs = [rng.standard_normal(L) for _ in range(P)]
        inputs = [{"x": xs[r], "y": np.full(L, -7.0), "rank": np.array(r, np.int32), "size": np.array(P, np.int32),
                   "stat": np.full(2, -1, np.int32)} for r in range(P)]
        outputs = [{"x": xs[r], "y": xs[(r - 1) % P], "stat": np.array([(r - 1) % P, 5], np.int32)} for r in range(P)]
        case_dir = write_case(os.path.join(work, f"isend_irecv_wait_f64.np{P}"), P, {"L": L}, inputs, outputs, rtol=0.0)
        p = run_case(cli, os.path.join(sdfgs, "isend_irecv_wait_f64.sdfg"), P, case_dir, env)
        matched = matched_outputs(p)
        if p.returncode == 0 and matched == 3 * P:
            print(f"ok   isend_irecv_wait_f64 on {P} ranks (y and the Wait's source and tag match on every rank)")
        else:
            print(f"FAIL isend_irecv_wait_f64 on {P} ranks (exit {p.returncode}, {matched} matched):\n"
                  f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
