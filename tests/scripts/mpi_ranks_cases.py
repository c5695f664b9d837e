#!/usr/bin/env python3
"""Programs of ../shared/sdfg-corpus-mpi on 1, 2 and 3 ranks (the corpus has 4), against NumPy.

For each program whose SDFG allows another rank count, the script writes a distributed case
(case.json with "ranks", per-rank inputs drawn from a seeded generator, per-rank expected
outputs computed here with NumPy from the program's description in the corpus README) and runs
`mpirun -np P dace run PROG.simp.sdfg --case case.json`, which compares every rank's outputs.
The NumPy models are first checked against the corpus's own 4-rank inputs and DaCe's outputs,
so a wrong model fails loudly instead of testing nothing.

usage: mpi_ranks_cases.py DACE_CLI CORPUS_DIR WORK_DIR [RANKS ...]   (default ranks: 1 2 3)
Exit 77 (skip) without mpirun or NumPy.
"""
import json
import os
import shutil
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not available to this Python")
    sys.exit(77)

from mpi_case_support import matched_outputs, mpirun_env, mpirun_missing, run_case, write_case


# --- NumPy models: inputs per rank -> expected outputs per rank ------------------------------

def allreduce_mean(inp, sym, P):
    total = sum(inp[r]["x"] ** 2 for r in range(P))
    return {r: {"__return": total / sym["P"]} for r in range(P)}


def bcast_scale(inp, sym, P):
    a0 = inp[0]["A"]
    return {r: {"A": a0, "__return": a0 * (int(inp[r]["rank"]) + 1) + 0.5} for r in range(P)}


def scatter_gather(inp, sym, P):
    L = sym["L"]
    a0 = inp[0]["A"]
    b = np.concatenate([a0[r * L:(r + 1) * L] ** 2 + r for r in range(P)])
    return {r: ({"B": b} if r == 0 else {}) for r in range(P)}


def jacobi1d_halo(inp, sym, P):
    # The ranks' pieces form one periodic array smoothed T times with (0.25, 0.5, 0.25).
    u = np.concatenate([inp[r]["u"] for r in range(P)])
    for _ in range(sym["T"]):
        u = 0.25 * np.roll(u, 1) + 0.5 * u + 0.25 * np.roll(u, -1)
    L = sym["L"]
    return {r: {"u": u[r * L:(r + 1) * L]} for r in range(P)}


def reduce_matvec(inp, sym, P):
    y = sum(inp[r]["Al"] @ inp[r]["xl"] for r in range(P))
    return {r: ({"y": y} if r == 0 else {}) for r in range(P)}


def block_matvec2d(inp, sym, P):
    return {r: ({"y": inp[0]["A"] @ inp[0]["x"]} if r == 0 else {}) for r in range(P)}


def pblas_gemm(inp, sym, P):
    # Rank r holds block (r // Py, r % Py) of A (LMx x LKy blocks), of B (LKx x LNy) and returns
    # that block of C = A @ B (DaCe's row-major Px x Py Cartesian order, docs/mpi.md).
    px, py = sym["Px"], sym["Py"]
    a = np.block([[inp[i * py + j]["lA"] for j in range(py)] for i in range(px)])
    b = np.block([[inp[i * py + j]["lB"] for j in range(py)] for i in range(px)])
    c = a @ b
    lm, ln = sym["LMx"], sym["LNy"]
    return {r: {"__return": c[(r // py) * lm:(r // py + 1) * lm, (r % py) * ln:(r % py + 1) * ln]} for r in range(P)}


# pblas_gemm's grid for P ranks: 1 x 1, 1 x 2 and 3 x 1 (both orientations); K = 12 over either.
PBLAS_GRIDS = {1: (1, 1), 2: (1, 2), 3: (3, 1), 4: (2, 2)}


def pblas_gemm_symbols(P):
    px, py = PBLAS_GRIDS[P]
    return {"K": 12, "LKx": 12 // px, "LKy": 12 // py, "LMx": 4, "LNy": 5, "Px": px, "Py": py}


# name -> (model, symbols for P ranks (None: not runnable), argument shapes from the symbols)
MODELS = {
    "allreduce_mean": (allreduce_mean, lambda P: {"N": 20, "P": P}, lambda s: {"x": (s["N"],)}),
    "bcast_scale": (bcast_scale, lambda P: {"N": 24}, lambda s: {"A": (s["N"],)}),
    "scatter_gather": (scatter_gather, lambda P: {"L": 8, "P": P},
                       lambda s: {"A": (s["L"] * s["P"],), "B": (s["L"] * s["P"],)}),
    "jacobi1d_halo": (jacobi1d_halo, lambda P: {"L": 10, "P": P, "T": 5}, lambda s: {"u": (s["L"],)}),
    "reduce_matvec": (reduce_matvec, lambda P: {"L": 6, "M": 12},
                      lambda s: {"Al": (s["M"], s["L"]), "xl": (s["L"],), "y": (s["M"],)}),
    # A 2 x P/2 process grid: even rank counts only.
    "block_matvec2d": (block_matvec2d, lambda P: {"M": 12, "N": 16, "P": P} if P % 2 == 0 else None,
                       lambda s: {"A": (s["M"], s["N"]), "x": (s["N"],), "y": (s["M"],)}),
    "pblas_gemm": (pblas_gemm, pblas_gemm_symbols,
                   lambda s: {"lA": (s["LMx"], s["LKy"]), "lB": (s["LKx"], s["LNy"])}),
}


def corpus_inputs(folder, case):
    return {int(r): {k: np.load(os.path.join(folder, v)) for k, v in m.items()} for r, m in case["inputs"].items()}


def check_model(corpus, name):
    folder = os.path.join(corpus, name)
    with open(os.path.join(folder, "case.json")) as f:
        case = json.load(f)
    model = MODELS[name][0]
    got = model(corpus_inputs(folder, case), case["symbols"], case["ranks"])
    for r, outs in case["expected_outputs"].items():
        for k, v in outs.items():
            np.testing.assert_allclose(got[int(r)][k], np.load(os.path.join(folder, v)), rtol=1e-10, atol=1e-12,
                                       err_msg=f"NumPy model of {name}, rank {r}, {k}")


def make_case(corpus, name, P, work):
    folder = os.path.join(corpus, name)
    with open(os.path.join(folder, "case.json")) as f:
        case = json.load(f)
    model, symbols_of, shapes_of = MODELS[name]
    sym = symbols_of(P)
    if sym is None:
        return None
    rng = np.random.default_rng(1000 + 10 * P + len(name))
    template = corpus_inputs(folder, case)[0]
    inp = {}
    for r in range(P):
        inp[r] = {}
        for k, v in template.items():
            if k == "rank":
                inp[r][k] = np.array(r, dtype=v.dtype)
                continue
            inp[r][k] = rng.uniform(-1.0, 1.0, size=shapes_of(sym)[k]).astype(v.dtype)
    expected = model(inp, sym, P)
    return write_case(os.path.join(work, f"{name}.np{P}"), P, sym, [inp[r] for r in range(P)],
                      [expected[r] for r in range(P)], rtol=case["rtol"], atol=case["atol"])


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, corpus, work = sys.argv[1:4]
    ranks = [int(x) for x in sys.argv[4:]] or [1, 2, 3]
    if mpirun_missing():
        print(mpirun_missing())
        return 77
    if not os.path.isdir(corpus):
        print(f"SKIP: {corpus} not found")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = mpirun_env()
    status = 0
    for name in MODELS:
        check_model(corpus, name)
        for P in ranks:
            case_dir = make_case(corpus, name, P, work)
            if case_dir is None:
                print(f"n/a  {name} on {P} ranks (the program needs another rank count)")
                continue
            sdfg = os.path.join(corpus, name, f"{name}.simp.sdfg")
            p = run_case(cli, sdfg, P, case_dir, env)
            matched = matched_outputs(p)
            if p.returncode == 0:
                print(f"ok   {name} on {P} ranks ({matched} outputs matched NumPy)")
            else:
                print(f"FAIL {name} on {P} ranks (exit {p.returncode}):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
