#!/usr/bin/python3
"""Per-kernel benchmark of the SDFG corpus: libdace (bench_corpus) next to NumPy and DaCe.

For each kernel of the corpus and each NPBench size (S, M by default) it generates inputs
(bench/npbench_kernels.py, closed forms of the indices), then in separate processes:
  - bench_corpus on <kernel>.simp.sdfg: cold compile, cached load, run time;
  - the NumPy version of the kernel (npbench_kernels.py --time);
  - DaCe 1.0.2 when installed: SDFG.from_file(simp).compile() and calls of the result.
At size S libdace's (and DaCe's) outputs are compared with NumPy's within the case's
rtol/atol. Prints a markdown table and writes it to --out.

  /usr/bin/python3 bench/run_corpus_bench.py --out corpus_bench.md [--kernels gemm,atax]
      [--sizes S,M] [--no-dace] [--raw] [--reps K] [--budget-ms B] [--quiet|--progress] [--no-tiers]
Progress ("[k/N] kernel") on stderr when it is a terminal (bench/progress.py).
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import progress as progress_args  # bench/progress.py: "[k/N]" lines on a terminal, as the CLI shows

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "sdfg-corpus")
KERNELS = ["atax", "crc16", "doitgen", "gemm", "go_fast", "heat_3d", "jacobi_2d", "mandelbrot1", "softmax", "syrk"]
NUMPY_PYTHON = "/usr/bin/python3"  # Debian's python3 has NumPy; the first on PATH may not
DACE_PYTHON = os.path.join(ROOT, ".venv-dace", "bin", "python")


# ----------------------------------------------------------------------------- processes

def run_lines(cmd, timeout, cwd=None):
    """Runs cmd in its own process group; returns (JSON objects printed, error text or None).
    On timeout the whole group (DaCe's cmake/g++ children too) is killed."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                         start_new_session=True)
    error = None
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        error = "timeout after %ds" % timeout
    events = []
    for line in (out or "").splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                events.append(json.loads(line))
            except ValueError:
                pass
    if error is None and p.returncode != 0:
        msgs = [e.get("message", "") for e in events if e.get("event") == "error"]
        tail = (err or "").strip().splitlines()[-3:]
        error = "exit %d: %s" % (p.returncode, "; ".join(msgs) or " / ".join(tail))
    return events, error


def by_event(events):
    return {e.get("event"): e for e in events}


# ----------------------------------------------------------------------------- DaCe worker
# Runs under DaCe's own interpreter: one process per (kernel, size), since a CompiledSDFG
# initializes its transients for the first call's symbol values and never again.

def patch_networkx_for_dace():
    """networkx >= 3.5 leaves the start node out of immediate_dominators(); DaCe 1.0.2's CFG
    analysis looks it up (KeyError in blockorder_topological_sort). Put it back. Call before
    importing dace (also used by peers_runtime.py's DaCe worker)."""
    import networkx as nx
    original_idom = nx.immediate_dominators

    def immediate_dominators(graph, start, *args, **kwargs):
        idom = original_idom(graph, start, *args, **kwargs)
        idom.setdefault(start, start)
        return idom

    nx.immediate_dominators = immediate_dominators
    nx.dominance.immediate_dominators = immediate_dominators


def dace_worker(a):
    import numpy as np

    patch_networkx_for_dace()
    import dace
    from dace.sdfg.utils import load_precompiled_sdfg

    dace.Config.set("default_build_folder", value=a.build_root)
    case = json.load(open(a.case))
    if a.compile:
        sdfg = dace.SDFG.from_file(a.sdfg)
        t0 = time.perf_counter()
        csdfg = sdfg.compile()
        ms = (time.perf_counter() - t0) * 1e3
        print(json.dumps({"event": "compile", "ms": ms, "folder": sdfg.build_folder}), flush=True)
        folder = sdfg.build_folder
    else:
        folder = a.folder
        csdfg = load_precompiled_sdfg(folder)
    with open(os.path.join(a.build_root, "folder.txt"), "w") as f:
        f.write(folder)

    pristine = {f[:-4]: np.load(os.path.join(a.inputs, f)) for f in os.listdir(a.inputs) if f.endswith(".npy")}
    symbols = {k: int(v) for k, v in json.loads(a.symbols).items()}
    outputs = list(case["expected_outputs"])
    returns = sorted(n for n in outputs if n.startswith("__return"))
    times = []
    spent = 0.0
    for r in range(a.reps):
        if r and spent >= a.budget_ms:
            break
        args = {k: (v[()] if v.ndim == 0 else v.copy()) for k, v in pristine.items()}
        kwargs = dict(args)
        kwargs.update(symbols)
        t0 = time.perf_counter()
        result = csdfg(**kwargs)
        ms = (time.perf_counter() - t0) * 1e3
        times.append(ms)
        spent += ms
        if r == 0 and a.out_dir:
            got = {}
            if returns:
                vals = result if isinstance(result, tuple) else (result,)
                got.update(zip(returns, vals))
            for n in outputs:
                if n not in got:
                    got[n] = args[n]
            for n, v in got.items():
                np.save(os.path.join(a.out_dir, n + ".npy"), np.array(v))
    times.sort()
    n = len(times)
    median = times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2])
    print(json.dumps({"event": "run", "run_min_ms": times[0], "run_median_ms": median, "run_n": n}), flush=True)
    return 0


# ----------------------------------------------------------------------------- driver

def find_bench_exe():
    for cand in (os.path.join(ROOT, "build-lead", "bin", "bench_corpus"), os.path.join(ROOT, "build", "bin", "bench_corpus"),
                 "/tmp/bench/bench_corpus"):
        if os.access(cand, os.X_OK):
            return cand
    return None


def cpu_pressure():
    try:
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        with open("/proc/pressure/cpu") as f:
            some = f.readline().strip()
        return "loadavg %s; cpu pressure %s" % (load, some)
    except OSError:
        return "load unknown"


def fmt(v, digits=None):
    if v is None:
        return "—"
    if isinstance(v, str):
        return v
    if digits is None:
        digits = 3 if v < 1 else 2 if v < 10 else 1 if v < 1000 else 0
    elif 0 < v < 0.1:
        return "%.2g" % v  # small ratios keep two significant digits
    return "%.*f" % (digits, v)


def ratio(a, b):
    if a is None or b is None or b <= 0:
        return None
    return a / b


def check_outputs(got_dir, ref_dir, case, slack=None):
    """'ok', 'MISMATCH name (error/tolerance x)' or None when nothing was produced. `slack`:
    per-output per-element allowances (npbench_kernels.ERROR_BOUNDS: mandelbrot1's Z), as
    peers_runtime.py checks every contender."""
    import numpy as np
    import npbench_kernels as nk
    if not got_dir or not os.path.isdir(got_dir) or not os.listdir(got_dir):
        return None
    bad = []
    for n in case["expected_outputs"]:
        g, r = os.path.join(got_dir, n + ".npy"), os.path.join(ref_dir, n + ".npy")
        if not os.path.exists(g) or not os.path.exists(r):
            bad.append("%s missing" % n)
            continue
        ok, err = nk.compare(np.load(g), np.load(r), case["rtol"], case["atol"], (slack or {}).get(n))
        if not ok:
            bad.append("%s %.3g×tol" % (n, err))
    return "ok" if not bad else "MISMATCH " + ", ".join(bad)


def bench_kernel(k, a, tmp, bench_exe, dace_ok, log):
    import npbench_kernels as nk
    case = nk.load_case(a.corpus, k)
    simp = os.path.join(a.corpus, k, k + ".simp.sdfg")
    raw = os.path.join(a.corpus, k, k + ".raw.sdfg")
    outputs = list(case["expected_outputs"])
    in_place = [n for n in outputs if n in case["inputs"]]
    rows, raw_row = [], None
    dace_folder = None
    dace_root = os.path.join(tmp, k, "dacecache")
    os.makedirs(dace_root, exist_ok=True)
    for si, size in enumerate(a.sizes):
        sizes = case["npbench_sizes"][size]
        d = os.path.join(tmp, k, size)
        dirs = {n: os.path.join(d, n) for n in ("in", "numpy", "libdace", "dace", "raw")}
        for p in dirs.values():
            os.makedirs(p, exist_ok=True)
        inputs = nk.generate(k, sizes)
        for n, v in inputs.items():
            nk.np.save(os.path.join(dirs["in"], n + ".npy"), nk.np.asarray(v))
        symbols = {n: sizes[n] for n in case["symbols"] if n in sizes}
        slack = nk.ERROR_BOUNDS[k](**{**nk.scalarize(inputs), **symbols}) if k in nk.ERROR_BOUNDS and si == 0 else None
        del inputs
        row = {"kernel": k, "size": size}

        # libdace
        if bench_exe:
            cmd = [bench_exe, "--sdfg", simp, "--inputs", dirs["in"], "--reps", str(a.reps), "--budget-ms",
                   str(a.budget_ms), "--compile-reps", str(a.compile_reps if si == 0 else 1), "--restore",
                   ",".join(in_place) or "none", "--save", ",".join(outputs), "--out-dir", dirs["libdace"]]
            for n, v in symbols.items():
                cmd += ["--sym", "%s=%s" % (n, v)]
            if a.no_tiers:
                cmd.append("--no-tiers")
            ev, err = run_lines(cmd, a.timeout)
            log.append({"kernel": k, "size": size, "who": "libdace", "events": ev, "error": err})
            e = by_event(ev)
            row["libdace_error"] = err
            if si == 0:
                row["compile"] = e.get("compile_cold")
                row["cached"] = e.get("compile_cached")
            row["libdace_run"] = e.get("run", {}).get("run_median_ms")
            row["libdace_run_min"] = e.get("run", {}).get("run_min_ms")
            if si == 0 and a.raw and os.path.exists(raw):
                cmd[2] = raw
                cmd[cmd.index("--out-dir") + 1] = dirs["raw"]
                ev, err = run_lines(cmd, a.timeout)
                log.append({"kernel": k, "size": size, "who": "libdace-raw", "events": ev, "error": err})
                e = by_event(ev)
                raw_row = {"kernel": k, "error": err, "compile": e.get("compile_cold"), "cached": e.get("compile_cached"),
                           "run": e.get("run", {}).get("run_median_ms"), "out": dirs["raw"]}

        # NumPy
        ev, err = run_lines([NUMPY_PYTHON, os.path.join(HERE, "npbench_kernels.py"), "--time", k, "--inputs", dirs["in"],
                             "--reps", str(a.reps), "--budget-ms", str(a.budget_ms), "--out-dir", dirs["numpy"]],
                            a.timeout)
        log.append({"kernel": k, "size": size, "who": "numpy", "events": ev, "error": err})
        row["numpy_run"] = by_event(ev).get("run", {}).get("run_median_ms")
        row["numpy_error"] = err

        # DaCe: compile once (first size), load the built library for the others. Its pure
        # (loop) MatMul can take a minute at S; a larger size would then blow the time budget.
        prev = rows[-1].get("dace_run") if rows else None
        if dace_ok and prev is not None and prev > a.skip_after_ms:
            row["dace_error"] = "skipped: %.0f s at %s" % (prev / 1e3, rows[-1]["size"])
        elif dace_ok:
            cmd = [a.dace_python, os.path.abspath(__file__), "--dace-worker", "--sdfg", simp, "--case",
                   os.path.join(a.corpus, k, "case.json"), "--inputs", dirs["in"], "--symbols", json.dumps(symbols),
                   "--build-root", dace_root, "--reps", str(a.reps), "--budget-ms", str(a.budget_ms), "--out-dir",
                   dirs["dace"]]
            cmd += ["--folder", dace_folder] if dace_folder else ["--compile"]
            ev, err = run_lines(cmd, a.dace_timeout, cwd=dace_root)  # DaCe writes _dacegraphs/ into cwd
            log.append({"kernel": k, "size": size, "who": "dace", "events": ev, "error": err})
            e = by_event(ev)
            if "compile" in e:
                row["dace_compile"] = e["compile"]["ms"]
                dace_folder = e["compile"].get("folder")
            row["dace_run"] = e.get("run", {}).get("run_median_ms")
            row["dace_error"] = err

        if si == 0:
            row["check"] = check_outputs(dirs["libdace"], dirs["numpy"], case, slack)
            row["dace_check"] = check_outputs(dirs["dace"], dirs["numpy"], case, slack) if dace_ok else None
            if raw_row:
                raw_row["check"] = check_outputs(dirs["raw"], dirs["numpy"], case, slack)
        rows.append(row)
        shutil.rmtree(dirs["in"], ignore_errors=True)  # large at M (atax: 1 GB)
        print("  %s %s: libdace %s ms, numpy %s ms, dace %s ms%s" % (
            k, size, fmt(row.get("libdace_run")), fmt(row.get("numpy_run")), fmt(row.get("dace_run")),
            "".join(" [%s: %s]" % (w, row[w + "_error"]) for w in ("libdace", "numpy", "dace")
                    if row.get(w + "_error"))), file=sys.stderr, flush=True)
    shutil.rmtree(os.path.join(tmp, k), ignore_errors=True)
    return rows, raw_row


def render(rows, raw_rows, header_notes):
    out = []
    out.append("| kernel | size | libdace cold compile ms | cached load ms | libdace run ms | NumPy run ms | "
               "DaCe run ms | DaCe compile ms | NumPy/libdace | DaCe/libdace | check |")
    out.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for r in rows:
        c, ch = r.get("compile") or {}, r.get("cached") or {}
        err = "; ".join("%s: %s" % (w, r[w + "_error"]) for w in ("libdace", "numpy", "dace") if r.get(w + "_error"))
        check = r.get("check") or ""
        if r.get("dace_check") and r.get("dace_check") != "ok":
            check += " (DaCe: %s)" % r["dace_check"]
        if err:
            check += " [" + err + "]"
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["size"], fmt(c.get("cold_median_ms")), fmt(ch.get("cached_median_ms")),
            fmt(r.get("libdace_run")), fmt(r.get("numpy_run")), fmt(r.get("dace_run")), fmt(r.get("dace_compile")),
            fmt(ratio(r.get("numpy_run"), r.get("libdace_run")), 2), fmt(ratio(r.get("dace_run"), r.get("libdace_run")), 2),
            check.strip()))
    out.append("")
    out.append("Compile breakdown (simp, medians of fresh contexts; `first` = the process's first compile, which "
               "also loads the CPU plugin and initializes LLVM; phases from dace_program_compile_stats of the last "
               "cold and last cached compile):")
    out.append("")
    out.append("| kernel | first ms | cold min ms | cold median ms | validate | lower | optimize | jit | IR instrs | "
               "object KiB | cache fill ms | cached min ms | cached median ms | cached jit ms | hits |")
    out.append("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    for r in rows:
        c, ch = r.get("compile"), r.get("cached")
        if not c:
            continue
        ch = ch or {}
        hits = "%d/%d" % (ch.get("cached_n", 0) - ch.get("misses", 0), ch.get("cached_n", 0)) if ch else "—"
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], fmt(c.get("first_ms")), fmt(c.get("cold_min_ms")), fmt(c.get("cold_median_ms")),
            fmt(c.get("validate_ms")), fmt(c.get("lower_ms")), fmt(c.get("optimize_ms")), fmt(c.get("jit_ms")),
            c.get("ir_instructions", "—"), fmt(c.get("object_bytes", 0) / 1024.0, 1), fmt(ch.get("fill_ms")),
            fmt(ch.get("cached_min_ms")), fmt(ch.get("cached_median_ms")), fmt(ch.get("jit_ms")), hits))
    if raw_rows:
        out.append("")
        out.append("Raw SDFGs (DaCe's frontend output before simplify), size S:")
        out.append("")
        out.append("| kernel | cold compile ms | cached load ms | run ms (S) | check |")
        out.append("|---|--:|--:|--:|---|")
        for r in raw_rows:
            c, ch = r.get("compile") or {}, r.get("cached") or {}
            out.append("| %s | %s | %s | %s | %s |" % (r["kernel"], fmt(c.get("cold_median_ms")),
                                                     fmt(ch.get("cached_median_ms")), fmt(r.get("run")),
                                                     (r.get("check") or "") + (" [%s]" % r["error"] if r.get("error") else "")))
    out.append("")
    out.extend(header_notes)
    return "\n".join(out) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="markdown file for the table")
    p.add_argument("--json", help="also write every raw measurement here")
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--sizes", default="S,M")
    p.add_argument("--corpus", default=CORPUS)
    p.add_argument("--bench-exe", default=None)
    p.add_argument("--dace-python", default=DACE_PYTHON)
    p.add_argument("--no-dace", action="store_true")
    p.add_argument("--raw", action="store_true", help="also time the *.raw.sdfg files (compile + run at the first size)")
    p.add_argument("--no-tiers", action="store_true",
                   help="libdace compiles once at O3 (tiered = 0) instead of tiers; the run times then compare "
                        "the single-tier code with the tiered compile's optimized code")
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--compile-reps", type=int, default=5)
    p.add_argument("--budget-ms", type=float, default=2000.0, help="stop repeating a phase after this much time")
    p.add_argument("--timeout", type=int, default=240, help="seconds per libdace / NumPy process")
    p.add_argument("--dace-timeout", type=int, default=300, help="seconds per DaCe process (compile included)")
    p.add_argument("--omp-wait-policy", default="",
                   help="OMP_WAIT_POLICY for every contender ('' = inherit, i.e. the OpenMP runtimes' "
                        "defaults, which spin briefly between parallel regions). On shared, oversubscribed "
                        "cores PASSIVE avoids spinning against other jobs, but every parallel region then "
                        "wakes sleeping threads (tens of us): heat_3d at S 3.3 ms -> 79 ms")
    p.add_argument("--skip-after-ms", type=float, default=5000.0,
                   help="skip DaCe at the next size when one call at this size took longer")
    p.add_argument("--tmp", default=None, help="work folder (default: a new one under $TMPDIR, removed after)")
    progress_args.add_arguments(p)
    # DaCe worker mode (internal)
    p.add_argument("--dace-worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--sdfg", help=argparse.SUPPRESS)
    p.add_argument("--case", help=argparse.SUPPRESS)
    p.add_argument("--inputs", help=argparse.SUPPRESS)
    p.add_argument("--symbols", default="{}", help=argparse.SUPPRESS)
    p.add_argument("--build-root", help=argparse.SUPPRESS)
    p.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--folder", help=argparse.SUPPRESS)
    p.add_argument("--out-dir", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.dace_worker:
        return dace_worker(a)

    sys.path.insert(0, HERE)
    if a.omp_wait_policy:
        os.environ["OMP_WAIT_POLICY"] = a.omp_wait_policy  # inherited by every child process
    a.corpus = os.path.abspath(a.corpus)
    a.sizes = [s for s in a.sizes.split(",") if s]
    kernels = [k for k in a.kernels.split(",") if k]
    bench_exe = a.bench_exe or find_bench_exe()
    dace_ok = not a.no_dace and os.access(a.dace_python, os.X_OK)
    notes = []
    if not bench_exe:
        notes.append("libdace: bench_corpus not found (build it, or pass --bench-exe): libdace columns are empty.")
    if not dace_ok:
        notes.append("DaCe: not run (%s)." % ("--no-dace" if a.no_dace else a.dace_python + " not found"))
    tmp = os.path.abspath(a.tmp or tempfile.mkdtemp(prefix="corpus_bench_"))
    os.makedirs(tmp, exist_ok=True)
    started = time.time()
    load_before = cpu_pressure()
    rows, raw_rows, log = [], [], []
    progress = progress_args.Progress(len(kernels), a)
    try:
        for k in kernels:
            progress.step("%s at %s: libdace, NumPy%s" % (k, ",".join(a.sizes), ", DaCe" if dace_ok else ""))
            r, raw_row = bench_kernel(k, a, tmp, bench_exe, dace_ok, log)
            rows.extend(r)
            if raw_row:
                raw_rows.append(raw_row)
            if a.json:  # after every kernel, so an interrupted run keeps what it measured
                with open(a.json, "w") as f:
                    json.dump({"rows": rows, "raw": raw_rows, "log": log}, f, indent=1, default=str)
    finally:
        progress.finish()
        if not a.tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    notes.append("Run times are medians of up to %d calls (each phase stops repeating after %.0f ms; in-place "
                 "kernels get fresh inputs before every call, outside the timing; a program's first call, which "
                 "initializes it, counts). NumPy/libdace and DaCe/libdace > 1 mean libdace is faster." %
                 (a.reps, a.budget_ms))
    notes.append("OMP_WAIT_POLICY=%s for all contenders; DaCe builds with its defaults (-O3 -march=native "
                 "-ffast-math, pure MatMul/Gemm expansion since simp SDFGs name no BLAS); libdace compiles at "
                 "opt_level 3 without fast-math." % (os.environ.get("OMP_WAIT_POLICY", "(unset)")))
    notes.append("Machine: %d cores shared with other jobs; before: %s; after: %s. Total %.0f s." % (
        os.cpu_count() or 0, load_before, cpu_pressure(), time.time() - started))
    notes.append("libdace: %s. DaCe: %s (SDFG.from_file(simp).compile(), CMake + g++, cold build folder)." % (
        bench_exe or "—", a.dace_python if dace_ok else "—"))
    text = render(rows, raw_rows, notes)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
