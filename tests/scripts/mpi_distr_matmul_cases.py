#!/usr/bin/env python3
"""DaCe's distributed matrix product (BCScatter -> distr.MatMult -> BCGather) under mpirun, against NumPy.

The SDFGs in tests/mpi/sdfgs were written by DaCe 1.0.2 (tests/mpi/make_distr_matmul_sdfgs.py).
For every rank count and every Px x Py BLACS grid of that many ranks, each rank passes its own
seeded A and B (only rank 0's are the program's operands: BCScatter distributes the matrix of
grid process (0, 0)) and must hold NumPy's A0 @ B0 in C afterwards (BCGather to rank 0, then a
Bcast). The script writes a distributed case (case.json) per run and calls
`mpirun -np P dace run PROG.sdfg --case case.json`, which compares every rank's C.

usage: mpi_distr_matmul_cases.py DACE_CLI SDFG_DIR WORK_DIR [RANKS ...]   (default ranks: 1 2 4)
Exit 77 (skip) without mpirun or NumPy.
"""
import json
import os
import shutil
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not available to this Python")
    sys.exit(77)

M, K, N = 8, 12, 16  # divisible by every grid extent used (1, 2, 4); A is not square

PROGRAMS = {"distr_matmul_f64": np.float64, "distr_matmul_c128": np.complex128}


def draw(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if dtype == np.complex128:
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def grids(P):
    return [(px, P // px) for px in range(1, P + 1) if P % px == 0]


def make_case(name, P, px, py, work):
    dtype = PROGRAMS[name]
    rng = np.random.default_rng(100 * P + 10 * px + len(name))
    per_rank = [(draw(rng, (M, K), dtype), draw(rng, (K, N), dtype)) for _ in range(P)]
    expected = per_rank[0][0] @ per_rank[0][1]
    out_dir = os.path.join(work, f"{name}.np{P}.{px}x{py}")
    os.makedirs(out_dir)
    case = {"ranks": P, "symbols": {"M": M, "N": N, "K": K, "Px": px, "Py": py}, "rtol": 1e-12, "atol": 1e-12,
            "inputs": {}, "expected_outputs": {}}
    for r in range(P):
        a, b = per_rank[r]
        files = {"in": {"A": a, "B": b, "C": np.zeros((M, N), dtype)}, "out": {"C": expected}}
        for kind, key in (("in", "inputs"), ("out", "expected_outputs")):
            case[key][str(r)] = {}
            os.makedirs(os.path.join(out_dir, kind, f"rank{r}"))
            for k, v in files[kind].items():
                rel = os.path.join(kind, f"rank{r}", f"{k}.npy")
                np.save(os.path.join(out_dir, rel), np.ascontiguousarray(v))
                case[key][str(r)][k] = rel
    with open(os.path.join(out_dir, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
    return out_dir


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, sdfgs, work = sys.argv[1:4]
    ranks = [int(x) for x in sys.argv[4:]] or [1, 2, 4]
    if shutil.which("mpirun") is None:
        print("SKIP: mpirun is not installed")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    status = 0
    for name in PROGRAMS:
        for P in ranks:
            for px, py in grids(P):
                case_dir = make_case(name, P, px, py, work)
                cmd = ["timeout", "120", "mpirun", "-np", str(P), "--oversubscribe", cli, "run",
                       os.path.join(sdfgs, f"{name}.sdfg"), "--case", os.path.join(case_dir, "case.json")]
                p = subprocess.run(cmd, capture_output=True, text=True, env=env)
                matched = p.stdout.count(": ok\n")
                if p.returncode == 0 and matched == P:
                    print(f"ok   {name} on {P} ranks, grid Px x Py = {px} x {py} (C matched NumPy on {matched} ranks)")
                else:
                    print(f"FAIL {name} on {P} ranks, grid {px} x {py} (exit {p.returncode}, {matched} matched):\n"
                          f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
                    status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
