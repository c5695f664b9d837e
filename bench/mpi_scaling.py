#!/usr/bin/env python3
"""Weak and strong scaling of distributed SDFGs on 1-4 ranks: libdace next to DaCe 1.0.2 running
the same SDFG (the corpus's DaCe-written `simp` SDFG) under mpirun, in the same run.

Kernels (../shared/sdfg-corpus-mpi):
  jacobi1d_halo  3-point Jacobi on a periodic ring, T steps, ghost cells exchanged every step
                 (Isend/Irecv/Waitall); strong: 3 * 2^16 points split over P ranks; weak: 2^16
                 points per rank; T = 10.
  pblas_gemm     C = A @ B through the PBLAS Pgemm node (ScaLAPACK pdgemm) on a Px x Py grid
                 (1x1, 2x1, 3x1, 2x2); strong: M = N = K fixed; weak: fixed local blocks
                 (global M and N grow with the grid).
  distr_matmul   the whole distributed A @ B as DaCe 1.0.2 writes it (tests/mpi/sdfgs/
                 distr_matmul_f64.sdfg: BCScatter of rank 0's A and B, distr.MatMult -> Pgemm,
                 BCGather to rank 0, Bcast of C), same grids and sizes as pblas_gemm. DaCe 1.0.2
                 cannot run it (BCScatter / BCGather have MKL implementations only): libdace alone.

For every (kernel, mode, P) the script writes a distributed case (case.json with "ranks", per-rank
inputs from a seeded generator, per-rank expected outputs computed with NumPy), then runs
  libdace: mpirun -np P dace run K.simp.sdfg --case case.json --repeat R --threads 1 --json
  DaCe:    mpirun -np P .venv-dace/bin/python bench/mpi_dace_runner.py K.simp.sdfg case.json R DIR
Both check the first call's outputs against the case and time R more calls per rank; the table
reports, per contender, the median call time of the slowest rank, and the speedup over its own
1-rank time (strong: ideal P; weak: ideal 1). Compile time is not timed.

On a shared 2-core machine 3 and 4 ranks are oversubscribed: the numbers show that the
distributed programs run and how their costs move, not parallel speedup ("functional scaling").

  mpi_scaling.py [--ranks 1,2,3,4] [--repeat 5] [--kernels jacobi1d_halo,pblas_gemm,distr_matmul]
                 [--dace-cli build/bin/dace] [--python .venv-dace/bin/python] [--json OUT]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "sdfg-corpus-mpi"))
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
           DACE_compiler_use_cache="1")
GRIDS = {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (2, 2)}


# ---- cases: (symbols, per-rank inputs, per-rank expected outputs) --------------------------------

def jacobi_case(P, mode, rng):
    L = (3 << 16) // P if mode == "strong" else 1 << 16
    sym = {"L": L, "P": P, "T": 10}
    u = [rng.uniform(-1, 1, L) for _ in range(P)]
    g = np.concatenate(u)
    for _ in range(sym["T"]):
        g = 0.25 * np.roll(g, 1) + 0.5 * g + 0.25 * np.roll(g, -1)
    inputs = {r: {"u": u[r], "rank": np.array(r, dtype=np.int32)} for r in range(P)}
    outputs = {r: {"u": g[r * L:(r + 1) * L]} for r in range(P)}
    return sym, inputs, outputs


def gemm_case(P, mode, rng):
    px, py = GRIDS[P]
    if mode == "strong":
        M = N = K = 384
        lm, ln = M // px, N // py
    else:
        lm, ln, K = 192, 192, 384
        M, N = px * lm, py * ln
    sym = {"K": K, "LKx": K // px, "LKy": K // py, "LMx": lm, "LNy": ln, "Px": px, "Py": py}
    A, B = rng.uniform(-1, 1, (M, K)), rng.uniform(-1, 1, (K, N))
    C = A @ B
    inputs, outputs = {}, {}
    for r in range(P):
        i, j = r // py, r % py  # row-major Cartesian rank order
        inputs[r] = {"lA": A[i * lm:(i + 1) * lm, j * (K // py):(j + 1) * (K // py)].copy(),
                     "lB": B[i * (K // px):(i + 1) * (K // px), j * ln:(j + 1) * ln].copy()}
        outputs[r] = {"__return": C[i * lm:(i + 1) * lm, j * ln:(j + 1) * ln]}
    return sym, inputs, outputs


def gemm_sizes(P, mode):
    px, py = GRIDS[P]
    if mode == "strong":
        return px, py, 384, 384, 384
    return px, py, px * 192, py * 192, 384


def distr_matmul_case(P, mode, rng):
    px, py, M, N, K = gemm_sizes(P, mode)
    sym = {"M": M, "N": N, "K": K, "Px": px, "Py": py}
    A, B = rng.uniform(-1, 1, (M, K)), rng.uniform(-1, 1, (K, N))
    C = A @ B
    # Rank 0's A and B are the operands (BCScatter reads grid process (0, 0)); C on every rank.
    inputs = {r: {"A": A, "B": B, "C": np.zeros((M, N))} for r in range(P)}
    outputs = {r: {"C": C} for r in range(P)}
    return sym, inputs, outputs


CASES = {"jacobi1d_halo": jacobi_case, "pblas_gemm": gemm_case, "distr_matmul": distr_matmul_case}
# Kernels outside the corpus: their SDFG, tolerances, and whether DaCe 1.0.2 can run it.
EXTRA = {"distr_matmul": (os.path.join(ROOT, "tests", "mpi", "sdfgs", "distr_matmul_f64.sdfg"), 1e-9, 1e-9, False)}


def write_case(folder, P, sym, inputs, outputs, rtol, atol):
    case = {"ranks": P, "symbols": sym, "rtol": rtol, "atol": atol, "inputs": {}, "expected_outputs": {}}
    for r in range(P):
        for kind, data, key in (("in", inputs[r], "inputs"), ("out", outputs[r], "expected_outputs")):
            os.makedirs(os.path.join(folder, kind, f"rank{r}"), exist_ok=True)
            case[key][str(r)] = {}
            for name, value in data.items():
                rel = os.path.join(kind, f"rank{r}", f"{name}.npy")
                np.save(os.path.join(folder, rel), np.asarray(value))
                case[key][str(r)][name] = rel
    path = os.path.join(folder, "case.json")
    with open(path, "w") as f:
        json.dump(case, f)
    return path


# ---- contenders ------------------------------------------------------------------------------------

def json_objects(text):
    decoder, i, out = json.JSONDecoder(), 0, []
    while True:
        j = text.find("{", i)
        if j < 0:
            return out
        obj, i = decoder.raw_decode(text, j)
        out.append(obj)


def run(cmd, limit=600):
    # --tag-output prefixes every line with "[job,rank]<stdout>:": the ranks' JSON objects are
    # put back together per rank (they interleave line by line).
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=limit)
    per_rank = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\[\d+,(\d+)\]<stdout>:(.*)$", line)
        if m:
            per_rank.setdefault(int(m.group(1)), []).append(m.group(2))
    objs = [o for r in sorted(per_rank) for o in json_objects("\n".join(per_rank[r]))] if p.returncode == 0 else []
    if p.returncode != 0:
        sys.stderr.write(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stdout[-1500:]}{p.stderr[-1500:]}\n")
    return objs


def summarize(objs, P):
    if len(objs) != P:
        return None
    return {"median_ms": max(o["median_ms"] for o in objs), "ok": all(o.get("ok", False) for o in objs)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", default="1,2,3,4")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--kernels", default="jacobi1d_halo,pblas_gemm,distr_matmul")
    ap.add_argument("--modes", default="strong,weak")
    ap.add_argument("--dace-cli", default=os.path.join(ROOT, "build", "bin", "dace"))
    ap.add_argument("--python", default=os.path.join(ROOT, ".venv-dace", "bin", "python"))
    ap.add_argument("--json")
    a = ap.parse_args()
    if shutil.which("mpirun") is None:
        print("mpirun is not installed")
        return 1
    dace_ok = subprocess.run([a.python, "-c", "import dace, mpi4py"], capture_output=True).returncode == 0
    if not dace_ok:
        print(f"note: {a.python} cannot import dace and mpi4py: DaCe is left out")
    work = tempfile.mkdtemp(prefix="mpi_scaling_")
    rows = []
    try:
        for kernel in a.kernels.split(","):
            if kernel in EXTRA:
                sdfg, rtol, atol, dace_runs = EXTRA[kernel]
            else:
                sdfg = os.path.join(CORPUS, kernel, f"{kernel}.simp.sdfg")
                corpus_case = json.load(open(os.path.join(CORPUS, kernel, "case.json")))
                rtol, atol, dace_runs = max(corpus_case["rtol"], 1e-9), max(corpus_case["atol"], 1e-9), True
            cache, build = os.path.join(work, f"{kernel}.cache"), os.path.join(work, f"{kernel}.dacecache")
            for mode in a.modes.split(","):
                for P in [int(x) for x in a.ranks.split(",")]:
                    rng = np.random.default_rng(7 * P + len(kernel))
                    folder = os.path.join(work, f"{kernel}.{mode}.np{P}")
                    sym, inputs, outputs = CASES[kernel](P, mode, rng)
                    case = write_case(folder, P, sym, inputs, outputs, rtol, atol)
                    mp = ["timeout", "600", "mpirun", "-np", str(P), "--oversubscribe", "--tag-output"]
                    lib = summarize(run(mp + [a.dace_cli, "run", sdfg, "--case", case, "--repeat", str(a.repeat),
                                              "--threads", "1", "--cache-dir", cache, "--json"]), P)
                    dc = None
                    if dace_ok and dace_runs:
                        dc = summarize(run(mp + [a.python, os.path.join(HERE, "mpi_dace_runner.py"), sdfg, case,
                                                 str(a.repeat), build]), P)
                    row = {"kernel": kernel, "mode": mode, "ranks": P, "symbols": sym, "libdace": lib, "dace": dc,
                           "dace_runs": dace_runs}
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def cell(r, who):
        v = r[who]
        if who == "dace" and not (dace_ok and r["dace_runs"]):
            return "n/a" if dace_ok else "n/a (no DaCe)"
        return "failed" if v is None else f"{v['median_ms']:.2f}{'' if v['ok'] else ' (WRONG)'}"

    def speedup(r, who):
        base = next((b for b in rows if b["kernel"] == r["kernel"] and b["mode"] == r["mode"] and b["ranks"] == 1), None)
        if not base or not base[who] or not r[who]:
            return "-"
        return f"{base[who]['median_ms'] / r[who]['median_ms']:.2f}"

    print("\n| kernel | scaling | ranks | libdace ms | x vs 1 rank | DaCe 1.0.2 ms | x vs 1 rank | DaCe / libdace |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        ratio = "-"
        if r["libdace"] and r["dace"]:
            ratio = f"{r['dace']['median_ms'] / r['libdace']['median_ms']:.2f}"
        print(f"| {r['kernel']} | {r['mode']} | {r['ranks']} | {cell(r, 'libdace')} | {speedup(r, 'libdace')} | "
              f"{cell(r, 'dace')} | {speedup(r, 'dace')} | {ratio} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0 if all(r["libdace"] and r["libdace"]["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
