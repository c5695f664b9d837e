#!/usr/bin/env python3
"""One rank of DaCe 1.0.2 running a distributed case (the corpus layout: case.json with "ranks",
in/rank<r>/*.npy, out/rank<r>/*.npy), for bench/mpi_scaling.py. Run under mpirun with the DaCe
venv's Python (needs mpi4py):

  mpirun -np P .venv-dace/bin/python bench/mpi_dace_runner.py PROG.sdfg case.json REPEAT BUILD_DIR

Rank 0 compiles (dace.sdfg.utils.distributed_compile; the other ranks load its library), every
rank calls the program once (checked against the case's expected outputs) and REPEAT more times
(timed, each on fresh copies of its inputs, copies outside the timing). Each rank prints one
JSON line: rank, compile_ms, min_ms, median_ms, ok.
"""
import json
import os
import statistics
import sys
import time

import numpy as np
from mpi4py import MPI


def main():
    sdfg_path, case_path, repeat, build_dir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    import dace
    from dace.sdfg.utils import distributed_compile
    dace.config.Config.set("default_build_folder", value=build_dir)
    comm = MPI.COMM_WORLD
    rank = comm.Get_rank()
    folder = os.path.dirname(os.path.abspath(case_path))
    with open(case_path) as f:
        case = json.load(f)
    inputs = {k: np.load(os.path.join(folder, v)) for k, v in case["inputs"][str(rank)].items()}
    expected = {k: np.load(os.path.join(folder, v)) for k, v in case["expected_outputs"][str(rank)].items()}
    sdfg = dace.SDFG.from_file(sdfg_path)
    t0 = time.perf_counter()
    program = distributed_compile(sdfg, comm)
    compile_ms = (time.perf_counter() - t0) * 1e3

    def call():
        args = {k: (v.copy() if v.ndim > 0 else v[()]) for k, v in inputs.items()}
        start = time.perf_counter()
        ret = program(**args, **case["symbols"])
        return (time.perf_counter() - start) * 1e3, args, ret

    _, args, ret = call()
    ok = True
    for name, want in expected.items():
        got = ret if name == "__return" else args[name]
        if isinstance(got, (tuple, list)):
            got = got[0]
        ok = ok and np.allclose(np.asarray(got), want, rtol=case["rtol"], atol=case["atol"])
    times = [call()[0] for _ in range(repeat)]
    print(json.dumps({"rank": rank, "compile_ms": compile_ms, "min_ms": min(times),
                      "median_ms": statistics.median(times), "ok": bool(ok)}), flush=True)


if __name__ == "__main__":
    main()
