#!/usr/bin/env python3
"""Call overhead of an almost empty program (Y[0] = X[0] + 1 on one-element arrays):
  - libdace from Python (keyword and positional calls, and a return-array variant),
  - libdace from C (runs the bench_call_overhead executable when found or given),
  - DaCe 1.0.x's compiled program from Python (via .venv-dace/bin/python, skipped with a
    reason when DaCe is unavailable or cannot compile here).
Usage: call_overhead.py [--calls N] [--c-bench PATH] [--dace-python PATH]"""

import argparse
import glob
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

DACE_SCRIPT = r"""
import sys, time, numpy as np, dace
calls = int(sys.argv[1])
sdfg = dace.SDFG("tiny")
sdfg.add_array("X", [1], dace.float64)
sdfg.add_array("Y", [1], dace.float64)
st = sdfg.add_state()
t = st.add_tasklet("inc", {"x"}, {"y"}, "y = x + 1")
st.add_edge(st.add_read("X"), None, t, "x", dace.Memlet("X[0]"))
st.add_edge(t, "y", st.add_write("Y"), None, dace.Memlet("Y[0]"))
prog = sdfg.compile()
x = np.ones(1); y = np.zeros(1)
for _ in range(1000): prog(X=x, Y=y)
t0 = time.perf_counter()
for _ in range(calls): prog(X=x, Y=y)
dt = (time.perf_counter() - t0) / calls
assert y[0] == 2.0
print(f"{dt * 1e6:.2f}")
"""


def best_of(fn, calls, repeats=5):
    """Best per-call time in seconds over `repeats` runs (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def python_numbers(calls):
    sys.path.insert(0, os.path.join(REPO, "bindings", "python"))
    import numpy as np

    import libdace

    sdfg = libdace.SDFG("tiny")
    sdfg.add_array("X", [1], libdace.float64)
    sdfg.add_array("Y", [1], libdace.float64)
    st = sdfg.add_state()
    t = st.add_tasklet("inc", {"x"}, {"y"}, "y = x + 1")
    st.add_edge(st.add_read("X"), None, t, "x", "X[0]")
    st.add_edge(t, "y", st.add_write("Y"), None, "Y[0]")
    ret = libdace.SDFG("tiny_ret")
    ret.add_array("X", [1], libdace.float64)
    ret.add_array("__return", [1], libdace.float64)
    st = ret.add_state()
    t = st.add_tasklet("inc", {"x"}, {"y"}, "y = x + 1")
    st.add_edge(st.add_read("X"), None, t, "x", "X[0]")
    st.add_edge(t, "y", st.add_write("__return"), None, "__return[0]")
    x, y = np.ones(1), np.zeros(1)
    with sdfg.compile() as prog, ret.compile() as prog_ret:
        results = {
            "keywords  prog(X=x, Y=y)": best_of(lambda: prog(X=x, Y=y), calls),
            "positional prog(x, y)": best_of(lambda: prog(x, y), calls),
            "returning r = prog(X=x)": best_of(lambda: prog_ret(X=x), calls),
        }
    assert y[0] == 2.0
    return results


def find_c_bench(given):
    if given:
        return given
    for path in sorted(glob.glob(os.path.join(REPO, "build*", "bench", "bench_call_overhead"))):
        if os.access(path, os.X_OK):
            return path
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--c-bench")
    parser.add_argument("--dace-python", default=os.path.join(REPO, ".venv-dace", "bin", "python"))
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}, {args.calls} calls per measurement (best of 5)")
    for name, sec in python_numbers(args.calls).items():
        print(f"libdace from Python, {name}: {sec * 1e6:.2f} us per call")

    c_bench = find_c_bench(args.c_bench)
    if c_bench:
        out = subprocess.run([c_bench, str(max(args.calls * 10, 100000))], capture_output=True, text=True)
        print(out.stdout.strip() or f"C bench failed: {out.stderr.strip()}")
    else:
        print("libdace from C: skipped (bench_call_overhead not built; pass --c-bench PATH)")

    if not os.path.exists(args.dace_python):
        print(f"DaCe from Python: skipped ({args.dace_python} not found)")
        return 0
    out = subprocess.run([args.dace_python, "-c", DACE_SCRIPT, str(args.calls)], capture_output=True, text=True,
                         cwd=os.environ.get("TMPDIR", "/tmp"))
    if out.returncode == 0:
        print(f"DaCe {os.path.basename(args.dace_python)} CompiledSDFG from Python, keywords: "
              f"{out.stdout.strip().splitlines()[-1]} us per call")
    else:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"DaCe from Python: skipped (DaCe could not compile here: {last})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
