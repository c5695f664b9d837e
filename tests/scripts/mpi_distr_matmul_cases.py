#!/usr/bin/env python3
"""DaCe's distributed matrix product (BCScatter -> distr.MatMult -> BCGather) under mpirun, against NumPy.

The SDFGs in tests/mpi/sdfgs were written by DaCe 1.0.2 (tests/mpi/make_distr_matmul_sdfgs.py).
For every rank count and every Px x Py BLACS grid of that many ranks, each rank passes its own
seeded A and B (only rank 0's are the program's operands: BCScatter distributes the matrix of
grid process (0, 0)) and must hold NumPy's A0 @ B0 in C afterwards (BCGather to rank 0, then a
Bcast). The script writes a distributed case (case.json) per run and calls
`mpirun -np P dace run PROG.sdfg --case case.json`, which compares every rank's C.

Gemm's PBLAS implementation (ExpandGemmPBLAS): gemm_pblas_f64 / gemm_pblas_c64 (a Gemm node) and
matmul_pblas_c128 (a MatMul node), written by DaCe 1.0.2 with implementation "PBLAS", run as
they are (the compile pipeline expands them; gemm_pblas_f64 also after `dace optimize
--apply-repeated ExpandGemmPBLAS`, matmul_pblas_c128 also with `dace run --optimize
ExpandLibraryNodes`) on the same grids: rank 0's C must equal
NumPy's A0 @ B0 (BCGather writes it there only) and every other rank's C must be its own input
C, untouched. Without the expansion (the node run as a local gemm on every rank) every other
rank's C would be its own A @ B, which the seeded per-rank inputs tell apart. The same Gemm with
beta 1 (which the expansion refuses, as DaCe's raises) must fail on both of 2 ranks naming the node.
matmul_pblas_map1_f64 (the MatMul inside `for i in dace.map[0:1]`) and matmul_pblas_nested_f64
(inside a called program's nested SDFG) run like the others (the pipeline removes the map of one
iteration, or inlines the nested SDFG, first; the nested one, not simplified, copies the product
through a transient into C on every rank, so only rank 0's C is defined and compared).
matmul_pblas_map3_f64 (`for i in dace.map[0:3]: C[i] = A[i] @ B[i]` on 3-D arrays) runs a
distributed product per iteration (the pipeline makes the map sequential): rank 0's C[i] must be
NumPy's A0[i] @ B0[i] for every i; with its map scheduled MPI it must fail on both of 2 ranks
naming the node and the map. matmul_pblas_nested_f64 also runs with its nested SDFG marked
no_inline: the pipeline then declares Px and Py down to it and expands the product there.

Vectors (bc_vector_f64, DaCe's 1-D BCScatter / BCGather): x of 14 elements in blocks of 2 (7
blocks: uneven over 2 and 4 process rows) scattered over the Py process rows (process column 0,
ranks 0..Py-1), doubled in place, gathered into y on rank 0. Every rank's lx must hold twice the
elements of rank 0's x whose block lands on its process row, in order (NumPy, from the
block-cyclic definition), its other elements twice its input; ranks outside process column 0
only their input doubled; y on rank 0 twice x, elsewhere untouched. A local array one element
too small is refused on every rank with the counts.

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

from mpi_case_support import matched_outputs, mpirun_env, mpirun_missing, run_case, write_case

M, K, N = 8, 12, 16  # divisible by every grid extent used (1, 2, 4); A is not square

PROGRAMS = {"distr_matmul_f64": np.float64, "distr_matmul_c128": np.complex128}
# Gemm / MatMul nodes with implementation "PBLAS", expanded by libdace's ExpandGemmPBLAS.
# matmul_pblas_map1_f64: the MatMul inside a map of one iteration, which the pipeline removes first;
# matmul_pblas_nested_f64: inside a nested SDFG (a called program), which the pipeline inlines first;
# matmul_pblas_map1_nested_f64: the map of one iteration without simplify, its body a nested SDFG of
# several states (the pipeline removes the map, then inlines).
PBLAS_PRODUCTS = {"gemm_pblas_f64": np.float64, "gemm_pblas_c64": np.complex64, "matmul_pblas_c128": np.complex128,
                  "matmul_pblas_map1_f64": np.float64, "matmul_pblas_nested_f64": np.float64,
                  "matmul_pblas_map1_nested_f64": np.float64, "matmul_pblas_map3_f64": np.float64}
# matmul_pblas_map3_f64: `for i in dace.map[0:3]: C[i] = A[i] @ B[i]`, a distributed product per
# iteration (the pipeline makes the map sequential and expands inside it); A, B, C hold 3 matrices.
BATCHED = {"matmul_pblas_map3_f64": 3}
# Without simplify the product goes to a transient that is then copied into C on every rank; the
# gather writes that transient on rank 0 only (DaCe's BCGather), so only rank 0's C is defined.
ROOT_ONLY_DEFINED = {"matmul_pblas_nested_f64", "matmul_pblas_map1_nested_f64"}

# distr_matmul_blocks_f64: explicit blocks MB x KB (A), KB x NB (B), MB x NB (C) smaller than a
# process's share, so every process holds several blocks (the cyclic wrap: block i of A's rows
# on process row i mod Px). Px * MB divides M (and so on) on every grid used, so the local
# arrays M/Px x K/Py etc. are exactly numroc's counts.
BLOCKED = {"M": 16, "K": 12, "N": 16, "MB": 2, "KB": 3, "NB": 2}
# 10 rows in blocks of 2 over Px processes: process row 0 holds 3 blocks (6 rows) on 2
# processes, 2 blocks (4 rows) on 4, but lA has M // Px rows (5, 2): BCScatter of A must fail
# on every rank, naming rank 0, before copying anything.
TOO_SMALL = {"M": 10, "K": 12, "N": 16, "MB": 2, "KB": 3, "NB": 2}


def set_beta(node_tree, beta):
    """Sets `beta` of every library node with implementation PBLAS in an SDFG's JSON."""
    if isinstance(node_tree, dict):
        attrs = node_tree.get("attributes")
        if node_tree.get("type") == "LibraryNode" and isinstance(attrs, dict) and attrs.get("implementation") == "PBLAS":
            attrs["beta"] = beta
        for v in node_tree.values():
            set_beta(v, beta)
    elif isinstance(node_tree, list):
        for v in node_tree:
            set_beta(v, beta)


def set_no_inline(node_tree):
    """Marks every nested SDFG node of an SDFG's JSON no_inline; returns how many."""
    count = 0
    if isinstance(node_tree, dict):
        if node_tree.get("type") == "NestedSDFG":
            node_tree["attributes"]["no_inline"] = True
            count += 1
        for v in node_tree.values():
            count += set_no_inline(v)
    elif isinstance(node_tree, list):
        for v in node_tree:
            count += set_no_inline(v)
    return count


def set_map_schedule(node_tree, schedule):
    """Sets the schedule of every map in an SDFG's JSON."""
    if isinstance(node_tree, dict):
        if node_tree.get("type") in ("MapEntry", "MapExit"):
            node_tree["attributes"]["schedule"] = schedule
        for v in node_tree.values():
            set_map_schedule(v, schedule)
    elif isinstance(node_tree, list):
        for v in node_tree:
            set_map_schedule(v, schedule)


def draw(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def grids(P):
    return [(px, P // px) for px in range(1, P + 1) if P % px == 0]


def make_case(name, P, px, py, work, sizes=None, dtype=None, root_only=False, others_undefined=False, batch=None):
    """root_only: C is the product on rank 0 only; other ranks pass a random C that must stay
    (others_undefined: other ranks' C is not compared). batch: A, B and C hold that many
    matrices (leading dimension), C[i] = A[i] @ B[i]."""
    sizes = sizes or {"M": M, "K": K, "N": N}
    m, k, n = sizes["M"], sizes["K"], sizes["N"]
    dtype = dtype or PROGRAMS[name]
    lead = (batch, ) if batch else ()
    rng = np.random.default_rng(100 * P + 10 * px + len(name))
    per_rank = [(draw(rng, lead + (m, k), dtype), draw(rng, lead + (k, n), dtype), draw(rng, lead + (m, n), dtype))
                for _ in range(P)]
    # The reference in double precision (NumPy's matmul of each matrix), then rounded to the element type.
    wide = np.complex128 if np.issubdtype(dtype, np.complexfloating) else np.float64
    expected = (per_rank[0][0].astype(wide) @ per_rank[0][1].astype(wide)).astype(dtype)
    out_dir = os.path.join(work, f"{name}.M{m}.np{P}.{px}x{py}")
    tol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-12
    inputs, outputs = [], []
    for r in range(P):
        a, b, c = per_rank[r]
        c_in = c if root_only else np.zeros(lead + (m, n), dtype)
        c_out = expected if r == 0 or not root_only else c
        inputs.append({"A": a, "B": b, "C": c_in})
        outputs.append({} if others_undefined and r > 0 else {"C": c_out})
    write_case(out_dir, P, dict(sizes, Px=px, Py=py), inputs, outputs, tol)
    return out_dir


def vector_case(P, px, py, work, n=14, nb=2, ln=None):
    """bc_vector_f64 on a Py x Px grid: the elements of x on process row p are those whose block
    index i // nb is p modulo Py; rank r is process (r % Py, r // Py) (BLACS "C" order)."""
    rows_of = [[i for i in range(n) if (i // nb) % py == p] for p in range(py)]
    ln = ln or max(len(r) for r in rows_of)
    rng = np.random.default_rng(1000 * P + 10 * px + py)
    ins = [{"x": rng.standard_normal(n), "lx": rng.standard_normal(ln), "y": rng.standard_normal(n),
            "grid": np.zeros(2, np.int32)} for _ in range(P)]
    outs = []
    for r in range(P):
        lx = 2 * ins[r]["lx"]
        if r < py:  # process column 0 holds the vector's blocks
            mine = rows_of[r][:ln]  # (a local array too small: refused, never compared)
            lx[:len(mine)] = 2 * ins[0]["x"][mine]
        y = 2 * ins[0]["x"] if r == 0 else ins[r]["y"]
        outs.append({"lx": lx, "y": y, "grid": np.array([px, py], np.int32)})
    d = os.path.join(work, f"bc_vector_f64.np{P}.{px}x{py}.ln{ln}")
    return write_case(d, P, {"N": n, "NB": nb, "LN": ln, "Px": px, "Py": py}, ins, outs)


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    cli, sdfgs, work = sys.argv[1:4]
    ranks = [int(x) for x in sys.argv[4:]] or [1, 2, 4]
    if mpirun_missing():
        print(mpirun_missing())
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = mpirun_env()
    status = 0

    def run(name, P, case_dir, sdfg=None, extra=()):
        return run_case(cli, sdfg or os.path.join(sdfgs, f"{name}.sdfg"), P, case_dir, env, extra)

    cases = [(name, None) for name in PROGRAMS] + [("distr_matmul_blocks_f64", BLOCKED)]
    for name, sizes in cases:
        for P in ranks:
            for px, py in grids(P):
                case_dir = make_case(name, P, px, py, work, sizes, np.float64 if sizes else None)
                p = run(name, P, case_dir)
                matched = matched_outputs(p)
                what = f"{name} on {P} ranks, grid Px x Py = {px} x {py}" + (f", {sizes}" if sizes else "")
                if p.returncode == 0 and matched == P:
                    print(f"ok   {what} (C matched NumPy on {matched} ranks)")
                else:
                    print(f"FAIL {what} (exit {p.returncode}, {matched} matched):\n"
                          f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
                    status = 1
    # Gemm / MatMul nodes with implementation "PBLAS": the compile pipeline expands them by
    # itself (DaCe expands library nodes by their implementation when it generates code).
    for name, dtype in PBLAS_PRODUCTS.items():
        variants = [("compiled as DaCe wrote it", None, ())]
        if name == "gemm_pblas_f64":  # the optimizer's expansion, written out, runs the same
            expanded = os.path.join(work, f"{name}.expanded.sdfg")
            p = subprocess.run([cli, "optimize", os.path.join(sdfgs, f"{name}.sdfg"), "-o", expanded,
                                "--apply-repeated", "ExpandGemmPBLAS", "--json"], capture_output=True, text=True)
            if p.returncode != 0 or p.stdout.count('"transformation":"ExpandGemmPBLAS"') != 1:
                print(f"FAIL {name}: dace optimize --apply-repeated ExpandGemmPBLAS (exit {p.returncode}):\n"
                      f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
                status = 1
            else:
                variants.append(("ExpandGemmPBLAS applied by dace optimize", expanded, ()))
        if name == "matmul_pblas_c128":
            variants.append(("ExpandLibraryNodes run by dace run --optimize", None, ("--optimize", "ExpandLibraryNodes")))
        if name == "matmul_pblas_nested_f64":  # not inlined: Px and Py declared down to the nested SDFG
            with open(os.path.join(sdfgs, f"{name}.sdfg")) as f:
                sdfg_json = json.load(f)
            if set_no_inline(sdfg_json) != 1:
                print(f"FAIL {name}: expected one nested SDFG node to mark no_inline")
                status = 1
            no_inline = os.path.join(work, f"{name}.no_inline.sdfg")
            with open(no_inline, "w") as f:
                json.dump(sdfg_json, f)
            variants.append(("its nested SDFG marked no_inline, expanded there", no_inline, ()))
        for how, sdfg, extra in variants:
            for P in ranks:
                for px, py in grids(P):
                    root_only_defined = name in ROOT_ONLY_DEFINED
                    case_dir = make_case(name, P, px, py, work, None, dtype, root_only=True,
                                         others_undefined=root_only_defined, batch=BATCHED.get(name))
                    p = run(name, P, case_dir, sdfg, extra)
                    matched = matched_outputs(p)
                    what = f"{name} ({how}) on {P} ranks, grid Px x Py = {px} x {py}"
                    if p.returncode == 0 and matched == (1 if root_only_defined else P):
                        others = "other ranks' C not compared" if root_only_defined else "other ranks' C untouched"
                        print(f"ok   {what} (C on rank 0 = NumPy's A @ B, {others})")
                    else:
                        print(f"FAIL {what} (exit {p.returncode}, {matched} matched):\n"
                              f"{p.stdout[-2000:]}{p.stderr[-2000:]}")
                        status = 1
                    shutil.rmtree(case_dir)
    # A PBLAS Gemm the expansion refuses (beta 1: DaCe's expansion raises NotImplementedError)
    # is not compiled, on any rank, rather than run as a local gemm on every rank.
    if 2 in ranks:
        with open(os.path.join(sdfgs, "gemm_pblas_f64.sdfg")) as f:
            sdfg_json = json.load(f)
        set_beta(sdfg_json, 1.0)
        beta_sdfg = os.path.join(work, "gemm_pblas_f64.beta1.sdfg")
        with open(beta_sdfg, "w") as f:
            json.dump(sdfg_json, f)
        case_dir = make_case("gemm_pblas_f64", 2, 1, 2, work, None, np.float64, root_only=True)
        p = run("gemm_pblas_f64", 2, case_dir, beta_sdfg)
        text = p.stdout + p.stderr
        needle = '("_MatMult_gemm") has beta 1.0 (DaCe\'s PBLAS expansion: beta 0 only)'
        if p.returncode not in (0, 124) and text.count(needle) == 2 and "unsupported" in text and ": ok\n" not in text:
            print("ok   gemm_pblas_f64 with beta 1: refused when compiled on both ranks, naming the node")
        else:
            print(f"FAIL gemm_pblas_f64 with beta 1 (exit {p.returncode}):\n{text[-3000:]}")
            status = 1
    # The product per iteration of a map scheduled MPI (its iterations split over the ranks, which
    # would call the collective different numbers of times) is refused when compiled, on every
    # rank, naming the node and the map.
    if 2 in ranks:
        with open(os.path.join(sdfgs, "matmul_pblas_map3_f64.sdfg")) as f:
            sdfg_json = json.load(f)
        set_map_schedule(sdfg_json, "MPI")
        mpi_map_sdfg = os.path.join(work, "matmul_pblas_map3_mpi_f64.sdfg")
        with open(mpi_map_sdfg, "w") as f:
            json.dump(sdfg_json, f)
        case_dir = make_case("matmul_pblas_map3_f64", 2, 1, 2, work, None, np.float64, root_only=True, batch=3)
        p = run("matmul_pblas_map3_f64", 2, case_dir, mpi_map_sdfg)
        text = p.stdout + p.stderr
        needle = '("_MatMult_") is inside node '
        if (p.returncode not in (0, 124) and text.count(needle) == 2 and "a map scheduled MPI" in text
                and "unsupported" in text and ": ok\n" not in text):
            print("ok   matmul_pblas_map3_f64 with its map scheduled MPI: refused when compiled on both ranks, naming "
                  "the node and the map")
        else:
            print(f"FAIL matmul_pblas_map3_f64 with its map scheduled MPI (exit {p.returncode}):\n{text[-3000:]}")
            status = 1
    # Vectors: block-cyclic over the process rows, each rank's local blocks against NumPy.
    for P in ranks:
        for px, py in grids(P):
            p = run("bc_vector_f64", P, vector_case(P, px, py, work))
            matched = matched_outputs(p)
            what = f"bc_vector_f64 on {P} ranks, grid Px x Py = {px} x {py}"
            if p.returncode == 0 and matched == 3 * P:  # lx, y and grid on every rank
                print(f"ok   {what} (every rank's lx, y and grid match NumPy)")
            else:
                print(f"FAIL {what} (exit {p.returncode}, {matched} matched):\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
                status = 1
    # Px and Py that nothing but the PBLAS nodes needs (bc_vector_f64 without its `grid` output's
    # uses) are no program arguments, as in DaCe 1.0.2's generated signature (whose ScaLAPACK
    # init code then names undeclared Px, Py): compiling fails saying so, before anything runs.
    if 1 in ranks:
        with open(os.path.join(sdfgs, "bc_vector_f64.sdfg")) as f:
            text = f.read()
        unused = text.replace('"__out = Px"', '"__out = 1"').replace('"__out = Py"', '"__out = 1"')
        unused_sdfg = os.path.join(work, "bc_vector_f64.unused_grid.sdfg")
        with open(unused_sdfg, "w") as f:
            f.write(unused)
        info = subprocess.run([cli, "info", unused_sdfg], capture_output=True, text=True)
        p = run("bc_vector_f64", 1, vector_case(1, 1, 1, os.path.join(work, "unused_grid")), unused_sdfg)
        text = p.stdout + p.stderr
        args = [line for line in info.stdout.splitlines() if line.startswith("arguments:")]
        if (args and " Px(" not in args[0] and " Py(" not in args[0] and p.returncode not in (0, 124) and "PBLAS nodes need the symbols Px and Py" in text
                and "invalid SDFG" in text):
            print("ok   bc_vector_f64 with Px, Py unused: no arguments (as DaCe), compile refused saying so")
        else:
            print(f"FAIL bc_vector_f64 with Px, Py unused (exit {p.returncode}):\n{info.stdout}{text[-3000:]}")
            status = 1
    if 2 in ranks:  # 7 blocks of 2 over 2 process rows: rank 0 holds 4 blocks, its lx only 7
        p = run("bc_vector_f64", 2, vector_case(2, 1, 2, work, ln=7))
        text = p.stdout + p.stderr
        needle = ("BlockCyclicScatter: the blocks of 2 elements of the vector of 14 elements that rank 0 holds "
                  "need 8 elements of _outbuffer, which has 7 (nothing was copied)")
        reported = sum(1 for r in range(2) if f"rank {r}: {needle}" in text)
        if p.returncode not in (0, 124) and reported == 2 and ": ok\n" not in p.stdout:
            print("ok   bc_vector_f64 with lx one element short: refused on every rank")
        else:
            print(f"FAIL bc_vector_f64 with lx one element short (exit {p.returncode}, {reported} of 2 reported):\n"
                  f"{text[-3000:]}")
            status = 1
    # Local arrays too small for the blocks of process row 0: every rank reports BCScatter's
    # refusal (the rank and both counts: 6 or 4 rows of 12 needed, 5 or 2 rows held), none
    # crashes or hangs (timeout's exit is 124), and no rank claims a matching C.
    name = "distr_matmul_blocks_f64"
    for P in (r for r in ranks if r > 1):
        rows_needed = 6 if P == 2 else 4 if P == 4 else None
        if rows_needed is None:
            continue
        case_dir = make_case(name, P, P, 1, work, TOO_SMALL, np.float64)
        p = run(name, P, case_dir)
        needle_head = (f"the blocks of {TOO_SMALL['MB']} x {TOO_SMALL['KB']} of the {TOO_SMALL['M']} x "
                       f"{TOO_SMALL['K']} matrix")
        needle = (f"rank 0 holds need {rows_needed * TOO_SMALL['K']} elements of _outbuffer, which has "
                  f"{(TOO_SMALL['M'] // P) * TOO_SMALL['K']} (nothing was copied)")
        text = p.stdout + p.stderr
        reported = sum(1 for r in range(P) if f"rank {r}: BlockCyclicScatter: {needle_head}" in text and needle in text)
        what = f"{name} on {P} ranks, grid {P} x 1, {TOO_SMALL} (local arrays too small)"
        if p.returncode not in (0, 124) and reported == P and ": ok\n" not in p.stdout:
            print(f"ok   {what}: refused on every rank ({reported} reports)")
        else:
            print(f"FAIL {what} (exit {p.returncode}, {reported} of {P} ranks reported the refusal):\n"
                  f"{p.stdout[-3000:]}{p.stderr[-3000:]}")
            status = 1
    # An integer matrix: ScaLAPACK's p?geadd has no integer form, so BCScatter is refused
    # when the program is compiled (naming the node and the type), before anything runs.
    if 1 in ranks:
        with open(os.path.join(sdfgs, f"{name}.sdfg")) as f:
            text = f.read()
        int_sdfg = os.path.join(work, "distr_matmul_blocks_int32.sdfg")
        with open(int_sdfg, "w") as f:
            f.write(text.replace('"float64"', '"int32"'))
        case_dir = make_case(name, 1, 1, 1, work, dict(BLOCKED, M=18), np.float64)
        p = run_case(cli, int_sdfg, 1, case_dir, env)
        text = p.stdout + p.stderr
        if (p.returncode not in (0, 124) and '(LibraryNode "_BCScatter_"): element type int32 of "A"' in text
                and "unsupported" in text):
            print("ok   distr_matmul_blocks with int32 matrices: BCScatter refused at compile time")
        else:
            print(f"FAIL distr_matmul_blocks with int32 matrices (exit {p.returncode}):\n{text[-3000:]}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
