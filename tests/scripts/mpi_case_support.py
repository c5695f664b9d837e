"""What the mpirun case scripts share (mpi_distr_matmul_cases.py, mpi_isend_irecv_cases.py,
mpi_ranks_cases.py, mpi_redistribute_cases.py): writing a distributed case for
`dace run --case` (docs/mpi.md "Host side"), the environment mpirun needs here, and one run of
`mpirun -np P dace run PROG.sdfg --case case.json` under a time limit.
"""
import json
import os
import shutil
import subprocess

import numpy as np


def write_case(out_dir, P, symbols, inputs, expected, rtol=1e-12, atol=None):
    """Writes out_dir/case.json and its .npy files: `inputs` / `expected` are per-rank dicts of
    arrays (rank r binds in/rank<r>/NAME.npy and compares out/rank<r>/NAME.npy). Returns out_dir."""
    os.makedirs(out_dir)
    case = {"ranks": P, "symbols": symbols, "rtol": rtol, "atol": rtol if atol is None else atol,
            "inputs": {}, "expected_outputs": {}}
    for r in range(P):
        for kind, key, arrays in (("in", "inputs", inputs[r]), ("out", "expected_outputs", expected[r])):
            case[key][str(r)] = {}
            os.makedirs(os.path.join(out_dir, kind, f"rank{r}"))
            for k, v in arrays.items():
                rel = os.path.join(kind, f"rank{r}", f"{k}.npy")
                np.save(os.path.join(out_dir, rel), np.ascontiguousarray(v))
                case[key][str(r)][k] = rel
    with open(os.path.join(out_dir, "case.json"), "w") as f:
        json.dump(case, f, indent=1)
    return out_dir


def mpirun_missing():
    """The reason to skip (exit 77) when mpirun is not installed, else None."""
    return None if shutil.which("mpirun") else "SKIP: mpirun is not installed"


def mpirun_env(watchdog_s=None):
    """The environment for mpirun here: root allowed (containers run as root), no CMA single
    copy (not permitted in containers), and DACE_MPI_TIMEOUT when a watchdog is asked for."""
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    if watchdog_s is not None:
        env["DACE_MPI_TIMEOUT"] = str(watchdog_s)
    return env


def run_case(cli, sdfg, P, case_dir, env, extra=(), limit_s=120):
    """`mpirun -np P --oversubscribe dace run SDFG [EXTRA] --case case_dir/case.json` under
    `timeout limit_s` (exit 124 when it ran out); the CompletedProcess, output captured."""
    cmd = ["timeout", str(limit_s), "mpirun", "-np", str(P), "--oversubscribe", cli, "run", sdfg, *extra,
           "--case", os.path.join(case_dir, "case.json")]
    return subprocess.run(cmd, capture_output=True, text=True, env=env)


def matched_outputs(p):
    """How many outputs `dace run --case` reported as matching (one "NAME: ok" line each)."""
    return p.stdout.count(": ok\n")
