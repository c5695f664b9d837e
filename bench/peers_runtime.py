#!/usr/bin/env python3
"""Run time of libdace next to its peers, per corpus kernel, at the corpus case's sizes or an NPBench size.

Contenders (each in its own process, on the same case.json inputs, --threads T threads, default 1):
  libdace(a)  `dace run <k>.opt.sdfg --case case.json --repeat K --threads T --json`
              (DaCe's auto-optimized SDFG run by libdace)
  libdace(b)  `dace optimize <k>.raw.sdfg --auto cpu` (libdace's own auto_optimize), then
              `dace run` of the result as above
  NumPy       NPBench's `<kernel>_numpy.py`, imported at run time from the NPBench checkout
  Numba       every NPBench `<kernel>_numba_*.py` variant; the fastest median is reported
  DaCe        DaCe 1.0.2: `dace.SDFG.from_file(<k>.opt.sdfg).compile()`, called with the inputs

Times are min/median of K calls after one warm-up call, more for short kernels: each contender
times at least --min-ms of calls (default 200 ms), so a µs-scale kernel is not the median of ten
scheduler hiccups (Numba's JIT and DaCe's compile are not timed; libdace's `--repeat K` also
excludes its first call). With --rounds R every contender is timed R times, alternated (round r
runs each contender once, in the table's order in even rounds and the reverse in odd ones), and
the tables give the median of its R round medians: the VM's speed drifts by a third within minutes, which a single sequential pass charges
to whichever contender ran in the slow stretch. In-place kernels get fresh
copies of the inputs before every call, outside the timing. Outputs of the warm-up call are
compared with the case's expected outputs (rtol/atol of case.json), by the same Python check for
every contender (libdace's through `dace run -o`); mandelbrot1's Z gets a per-point allowance
for its escape-time chaos (npbench_kernels.ERROR_BOUNDS), its counts must match as they are.

OpenBLAS picks its kernels from the CPU model; one older than the CPU falls back to generic
SSE3 kernels (Prescott), ~5x slower for dgemm. `--openblas-coretype auto` (default) then sets
OPENBLAS_CORETYPE for every contender to the kernel set the CPU's flags allow, and says so.

With --size S|M|L the sizes are NPBench's (bench_info/<kernel>.json "parameters"; the names map to
the SDFG's symbols as in run_corpus_bench.py): inputs from npbench_kernels.generate(), expected
outputs from npbench_kernels' NumPy references, written to a temporary case folder in the corpus
layout (case.json + in/ + out/), on which every contender then runs as on the corpus case. A
contender whose first (warm-up) call takes longer than --call-limit seconds is not timed further.

  peers_runtime.py [--kernels gemm,atax] [--reps 10] [--min-ms 200] [--size S|M|L|S,M] [--threads 1|1,2] [--compile-reps 5]
                   [--call-limit 60] [--rounds 1]
                   [--dace-cli build/bin/dace] [--npbench DIR] [--corpus DIR] [--json OUT]

Needs NumPy, Numba and DaCe in one interpreter (default: .venv-dace/bin/python).
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.normpath(os.path.join(ROOT, "..", "shared", "sdfg-corpus"))
NPBENCH = os.path.normpath(os.path.join(ROOT, "..", "shared", "npbench"))
PYTHON = os.path.join(ROOT, ".venv-dace", "bin", "python")
KERNELS = ["atax", "crc16", "doitgen", "gemm", "go_fast", "heat_3d", "jacobi_2d", "mandelbrot1", "softmax", "syrk"]
SINGLE_THREAD = {"OMP_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
                 "MKL_NUM_THREADS": "1"}


# ----------------------------------------------------------------------------- helpers

def load_case(cdir):
    with open(os.path.join(cdir, "case.json")) as f:
        return json.load(f)


def load_inputs(cdir, case):
    import numpy as np
    return {n: np.load(os.path.join(cdir, f)) for n, f in case["inputs"].items()}


def make_case(a, kernel, size, tmp):
    """Case folder (corpus layout) for `kernel` at NPBench size `size`; returns its path."""
    import numpy as np
    sys.path.insert(0, HERE)
    import npbench_kernels as nk
    case = load_case(os.path.join(a.corpus, kernel))
    sizes = bench_info(a.npbench, kernel)["parameters"][size]
    cdir = os.path.join(tmp, "case-%s-%s" % (kernel, size))
    os.makedirs(os.path.join(cdir, "in"), exist_ok=True)
    os.makedirs(os.path.join(cdir, "out"), exist_ok=True)
    inputs = nk.generate(kernel, sizes)
    missing = [n for n in case["inputs"] if n not in inputs]
    if missing:
        raise KeyError("generate(%s) lacks inputs %s" % (kernel, missing))
    new = dict(case)
    new["inputs"], new["expected_outputs"] = {}, {}
    for n in case["inputs"]:
        np.save(os.path.join(cdir, "in", n + ".npy"), np.asarray(inputs[n]))
        new["inputs"][n] = "in/%s.npy" % n
    # same mapping as run_corpus_bench.py: the SDFG's symbols take the NPBench parameter of that name
    new["symbols"] = {n: sizes[n] for n in case.get("symbols", {}) if n in sizes}
    args = nk.scalarize({n: np.asarray(v).copy() for n, v in inputs.items()})
    outs = nk.KERNELS[kernel](**args)
    for n in case["expected_outputs"]:
        np.save(os.path.join(cdir, "out", n + ".npy"), np.asarray(outs[n]))
        new["expected_outputs"][n] = "out/%s.npy" % n
    new["size"] = size
    with open(os.path.join(cdir, "case.json"), "w") as f:
        json.dump(new, f, indent=1)
    return cdir


def bench_info(npbench, kernel):
    with open(os.path.join(npbench, "bench_info", kernel + ".json")) as f:
        return json.load(f)["benchmark"]


def import_npbench(npbench, info, suffix):
    """NPBench's <module>_<suffix>.py from its folder, imported by path (read at run time)."""
    import importlib.util
    path = os.path.join(npbench, "benchmarks", info["relative_path"], "%s_%s.py" % (info["module_name"], suffix))
    spec = importlib.util.spec_from_file_location("npb_%s_%s" % (info["module_name"], suffix), path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # Numba's object mode (forceobj) resolves globals through sys.modules
    spec.loader.exec_module(mod)
    return getattr(mod, info["func_name"])


def stats(times):
    times = sorted(times)
    n = len(times)
    median = times[n // 2] if n % 2 else 0.5 * (times[n // 2 - 1] + times[n // 2])
    return {"min_ms": times[0], "median_ms": median, "runs": n}


def check(got, case, cdir):
    """'ok' or 'MISMATCH name (error/tol)' against the case's expected outputs, the same test for
    every contender: rtol/atol of case.json, plus npbench_kernels.ERROR_BOUNDS's per-element
    slack for ill-conditioned outputs (mandelbrot1's Z), computed from the case's inputs."""
    import numpy as np
    sys.path.insert(0, HERE)
    from npbench_kernels import compare, ERROR_BOUNDS, scalarize
    slack = {}
    if case.get("kernel") in ERROR_BOUNDS:
        inputs = scalarize(load_inputs(cdir, case))
        inputs.update(case.get("symbols", {}))
        slack = ERROR_BOUNDS[case["kernel"]](**inputs)
    bad = []
    for n, f in case["expected_outputs"].items():
        if n not in got:
            bad.append("%s missing" % n)
            continue
        ok, ratio = compare(np.asarray(got[n]), np.load(os.path.join(cdir, f)), case["rtol"], case["atol"],
                            slack.get(n))
        if not ok:
            bad.append("%s %.3g x tol" % (n, ratio))
    return "ok" if not bad else "MISMATCH " + ", ".join(bad)


def collect_outputs(outputs, args, result):
    """The case's outputs of one call: `__return*` names from the call's result (a tuple for
    several, in name order), the others from the (in-place updated) arguments."""
    returns = sorted(n for n in outputs if n.startswith("__return"))
    got = {}
    if returns:
        vals = result if isinstance(result, tuple) else (result,)
        got.update(zip(returns, vals))
    for n in outputs:
        if n not in got and n in args:
            got[n] = args[n]
    return got


def fresh(pristine):
    return {k: (v[()] if v.ndim == 0 else v.copy()) for k, v in pristine.items()}


# ----------------------------------------------------------------------------- workers

def python_worker(a):
    """NumPy / Numba (NPBench function) or DaCe (compiled opt SDFG); prints one JSON line."""
    cdir = a.case_dir or os.path.join(a.corpus, a.kernel)
    case = load_case(cdir)
    pristine = load_inputs(cdir, case)
    outputs = list(case["expected_outputs"])

    if a.worker == "dace":
        sys.path.insert(0, HERE)
        from run_corpus_bench import patch_networkx_for_dace
        patch_networkx_for_dace()
        import dace
        dace.Config.set("default_build_folder", value=a.build_root)
        sdfg = dace.SDFG.from_file(os.path.join(a.corpus, a.kernel, a.kernel + ".opt.sdfg"))
        t0 = time.perf_counter()
        csdfg = sdfg.compile()
        compile_ms = (time.perf_counter() - t0) * 1e3
        symbols = {k: int(v) for k, v in case.get("symbols", {}).items()}

        def call(args):
            kw = dict(args)
            kw.update(symbols)
            return csdfg(**kw)
    else:
        info = bench_info(a.npbench, a.kernel)
        fn = import_npbench(a.npbench, info, a.variant)
        compile_ms = None
        order = info["input_args"]
        symbols = case.get("symbols", {})

        def call(args):
            pos = [args[n] if n in args else symbols[n] for n in order]
            return fn(*pos)

    def collect(args, result):
        return collect_outputs(outputs, args, result)

    args = fresh(pristine)
    t0 = time.perf_counter()
    result = call(args)  # warm-up: Numba JIT / first DaCe call; not timed in the stats
    warm_ms = (time.perf_counter() - t0) * 1e3
    status = check(collect(args, result), case, cdir)
    times = []
    if warm_ms > a.call_limit * 1e3:
        print(json.dumps({"error": "skipped: warm-up call took %.0f s > %d s" % (warm_ms / 1e3, a.call_limit),
                          "check": status, "warmup_ms": warm_ms, "compile_ms": compile_ms}), flush=True)
        return 0
    while len(times) < a.reps or (sum(times) < a.min_ms and len(times) < MAX_CALLS):
        args = fresh(pristine)
        t0 = time.perf_counter()
        call(args)
        times.append((time.perf_counter() - t0) * 1e3)
    out = stats(times)
    out.update({"check": status, "warmup_ms": warm_ms, "first_ms": warm_ms, "compile_ms": compile_ms})
    print(json.dumps(out), flush=True)
    return 0


# ----------------------------------------------------------------------------- OpenBLAS kernels

def openblas_cores(python):
    """The kernel set ("Core: X") each OpenBLAS the contenders load picks on this CPU: Debian's
    (libdace, DaCe) and NumPy's bundled one (NumPy; Numba's products go through SciPy's)."""
    probes = {"system": ["/usr/bin/python3", "-c", "import ctypes; ctypes.CDLL('libopenblas.so.0')"],
              "numpy": [python, "-c", "import numpy"]}
    cores = {}
    for name, cmd in probes.items():
        env = dict(os.environ, OPENBLAS_VERBOSE="2")
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
        except (OSError, subprocess.TimeoutExpired):
            continue
        for line in (out.stdout + out.stderr).splitlines():
            if line.startswith("Core: "):
                cores[name] = line[len("Core: "):].strip()
    return cores


def openblas_coretype(choice, python):
    """The OPENBLAS_CORETYPE every contender gets, or None. An OpenBLAS older than the CPU
    falls back to its generic Prescott (SSE3) kernels: Debian's 0.3.21 and NumPy's 0.3.23 do
    on Xeon family 6 model 207, where their dgemm is ~5x slower than with the AVX-512 kernels
    the CPU can run. `auto` then names the newest kernel set the CPU's flags allow, for all
    contenders alike, so each runs its BLAS at its best."""
    if choice == "none" or "OPENBLAS_CORETYPE" in os.environ:
        return None
    if choice != "auto":
        return choice
    if "Prescott" not in openblas_cores(python).values():
        return None
    try:
        with open("/proc/cpuinfo") as f:
            flags = set(next((l for l in f if l.startswith("flags")), "").split())
    except OSError:
        return None
    if "avx512f" in flags:
        return "SkylakeX"
    if "avx2" in flags:
        return "Haswell"
    return None


# ----------------------------------------------------------------------------- driver

MAX_CALLS = 100000  # --min-ms never times more calls than this
THREADS = 1  # --threads: every contender's thread count (OpenMP, Numba, BLAS, `dace run --threads`)


def env1():
    env = dict(os.environ)
    env.update({k: str(THREADS) for k in SINGLE_THREAD})
    return env


def run_json(cmd, timeout):
    """(last JSON object printed, error text or None)."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env1())
    except subprocess.TimeoutExpired:
        return None, "timeout after %ds" % timeout
    text = p.stdout.strip()
    obj = None
    for line in reversed(text.splitlines()):  # workers: one JSON line, last
        if line.strip().startswith("{") and line.strip().endswith("}"):
            try:
                obj = json.loads(line)
                break
            except ValueError:
                pass
    if obj is None and "{" in text:  # `dace run --json`: one indented object
        try:
            obj = json.loads(text[text.index("{"):])
        except ValueError:
            pass
    if obj is None or (p.returncode not in (0, 1)):
        tail = " / ".join((p.stderr or p.stdout or "").strip().splitlines()[-3:])
        return obj, "exit %d: %s" % (p.returncode, tail[:300])
    return obj, None


def libdace(a, sdfg, cdir):
    # The first call's outputs go to a folder and are checked here, as the peers' are (check());
    # the folder goes away on every return, errors and timeouts included.
    with tempfile.TemporaryDirectory(prefix="libdace-out-") as outdir:
        return _libdace_in(a, sdfg, cdir, outdir)


def _libdace_in(a, sdfg, cdir, outdir):
    import numpy as np
    case = os.path.join(cdir, "case.json")
    cmd = [a.dace_cli, "run", sdfg, "--case", case, "--threads", str(THREADS), "--json", "-o", outdir]
    obj, err = run_json(cmd + ["--repeat", str(a.reps)], a.timeout)
    # --min-ms as the peers apply it: too short a total, run again with enough calls.
    if obj and "median_ms" in obj and obj["median_ms"] * a.reps < a.min_ms:
        calls = min(MAX_CALLS, int(math.ceil(a.min_ms / max(obj["median_ms"], 1e-6))))
        again, err2 = run_json(cmd + ["--repeat", str(calls)], a.timeout)
        if again and "median_ms" in again:
            obj, err = again, err2
    if err and err.startswith("timeout"):
        return {"error": "skipped: %s (%d calls)" % (err, a.reps + 1)}
    if err and obj is None:
        return {"error": err}
    if "median_ms" not in obj:
        return {"error": err or "no timing"}
    c = load_case(cdir)
    got = {n: np.load(os.path.join(outdir, n + ".npy")) for n in c["expected_outputs"]
           if os.path.exists(os.path.join(outdir, n + ".npy"))}
    return {"min_ms": obj["min_ms"], "median_ms": obj["median_ms"], "runs": obj.get("runs"),
            "compile_ms": obj.get("compile_ms"), "first_ms": obj.get("first_run_ms"),
            "check": check(got, c, cdir)}


def peer(a, kernel, worker, variant, tmp, cdir):
    cmd = [a.python, os.path.abspath(__file__), "--worker", worker, "--kernel", kernel, "--reps", str(a.reps),
           "--min-ms", str(a.min_ms),
           "--corpus", a.corpus, "--npbench", a.npbench, "--build-root", tmp, "--case-dir", cdir,
           "--call-limit", str(a.call_limit)]
    if variant:
        cmd += ["--variant", variant]
    obj, err = run_json(cmd, a.timeout)
    if obj is None or (err and "median_ms" not in obj and "error" not in obj):
        return {"error": err or "no output"}
    return obj


def optimize_and_compile(a, kernel):
    """libdace's auto_optimize + cold compile of the raw SDFG: `dace compile RAW --optimize auto_optimize
    --json`, each run a fresh process without a cache (the process's first compile, so LLVM's start-up is
    included); median and min of --compile-reps runs of total_ms, and the median of transform_ms."""
    raw = os.path.join(a.corpus, kernel, kernel + ".raw.sdfg")
    totals, transforms = [], []
    for _ in range(a.compile_reps):
        obj, err = run_json([a.dace_cli, "compile", raw, "--optimize", "auto_optimize", "--json"], a.timeout)
        if obj is None or "total_ms" not in obj:
            return {"error": err or "no output"}
        if obj.get("cache_hit"):
            return {"error": "compile hit a cache: not a cold compile"}
        totals.append(obj["total_ms"])
        transforms.append(obj.get("transform_ms", 0.0))
    out = stats(totals)
    out["transform_ms"] = stats(transforms)["median_ms"]
    return out


def bench_kernel(a, kernel, tmp, size, compiled):
    row = {"kernel": kernel, "size": size, "threads": THREADS}
    cdir = os.path.join(tmp, "case-%s-%s" % (kernel, size))
    if not size:
        cdir = os.path.join(a.corpus, kernel)
    elif not os.path.exists(os.path.join(cdir, "case.json")):
        cdir = make_case(a, kernel, size, tmp)
    if kernel not in compiled:
        compiled[kernel] = optimize_and_compile(a, kernel)
    row["libdace_compile"] = compiled[kernel]
    case = load_case(cdir)
    sizes = dict(case.get("symbols", {}))
    import numpy as np
    for n, f in case["inputs"].items():
        v = np.load(os.path.join(cdir, f), mmap_mode="r")
        sizes[n] = v.item() if v.ndim == 0 else "x".join(map(str, v.shape))
    row["sizes"] = sizes

    opt = os.path.join(tmp, kernel + ".libdace-opt.sdfg")
    p = subprocess.run([a.dace_cli, "optimize", os.path.join(a.corpus, kernel, kernel + ".raw.sdfg"), "-o", opt,
                        "--auto", "cpu"], capture_output=True, text=True,
                       timeout=a.timeout, env=env1())
    optimize_error = None
    if p.returncode != 0:
        optimize_error = {"error": "optimize exit %d: %s" % (p.returncode, " / ".join(
            (p.stderr or p.stdout).strip().splitlines()[-2:])[:300])}
    info = bench_info(a.npbench, kernel)
    folder = os.path.join(a.npbench, "benchmarks", info["relative_path"])
    variants = sorted(os.path.basename(f)[len(info["module_name"]) + 1:-3]
                      for f in glob.glob(os.path.join(folder, info["module_name"] + "_numba_*.py")))
    build = os.path.join(tmp, "dace-" + kernel)
    os.makedirs(build, exist_ok=True)
    # --rounds: every contender once per round, so a drift of the machine's speed over the
    # minutes a kernel takes reaches all contenders alike instead of whichever ran in the slow
    # stretch (on the shared VM one dgemm moved from 38 to 50 ms within a minute). Odd rounds run
    # the contenders in the reverse order: a contender's place (after a cache-flushing peer, or
    # first after a pause) then favours none over the rounds.
    contenders = [("libdace_a", lambda: libdace(a, os.path.join(a.corpus, kernel, kernel + ".opt.sdfg"), cdir)),
                  ("libdace_b", lambda: optimize_error or libdace(a, opt, cdir)),
                  ("numpy", lambda: peer(a, kernel, "numpy", "numpy", tmp, cdir))]
    contenders += [("numba:" + v, lambda v=v: peer(a, kernel, "numba", v, tmp, cdir)) for v in variants]
    contenders.append(("dace", lambda: peer(a, kernel, "dace", None, build, cdir)))
    rounds = []
    for r in range(max(1, getattr(a, "rounds", 1))):
        order = contenders if r % 2 == 0 else contenders[::-1]
        rounds.append({key: run() for key, run in order})
    merged = {key: merge_rounds([r[key] for r in rounds]) for key in rounds[0]}
    row["libdace_a"], row["libdace_b"] = merged["libdace_a"], merged["libdace_b"]
    row["numpy"], row["dace"] = merged["numpy"], merged["dace"]
    row["numba_all"] = {v: merged["numba:" + v] for v in variants}
    good = {v: r for v, r in row["numba_all"].items() if "median_ms" in r and r.get("check") == "ok"}
    if not good:  # nothing correct: still report the fastest that ran
        good = {v: r for v, r in row["numba_all"].items() if "median_ms" in r}
    if good:
        best = min(good, key=lambda v: good[v]["median_ms"])
        row["numba"] = dict(good[best], variant=best)
    else:
        row["numba"] = {"error": "no variant ran"}
    return row


def merge_rounds(results):
    """One contender's results over the rounds, as one result: the median of the rounds' medians
    (each round's median in `round_medians_ms`), the least min, the calls of all rounds; the check
    is "ok" only when every round that ran said so, else the first other verdict. First-call and
    compile times are those of the first round that ran (later rounds find caches warm). Rounds that failed are
    counted in `rounds_failed`; when none ran, the first round's error stands."""
    ran = [r for r in results if "median_ms" in r]
    if not ran:
        return dict(results[0])
    out = dict(ran[0])
    medians = [r["median_ms"] for r in ran]
    out["median_ms"] = stats(medians)["median_ms"]
    out["min_ms"] = min(r["min_ms"] for r in ran)
    if all(r.get("runs") is not None for r in ran):
        out["runs"] = sum(r["runs"] for r in ran)
    if any("check" in r for r in ran):
        out["check"] = next((r["check"] for r in ran if r.get("check", "ok") != "ok"), "ok")
    if len(results) > 1:
        out["round_medians_ms"] = medians
    if len(ran) < len(results):
        out["rounds_failed"] = len(results) - len(ran)
    return out


def fmt(v):
    if v is None:
        return "—"
    if v >= 100:
        return "%.0f" % v
    if v >= 1:
        return "%.2f" % v
    if v >= 0.01:
        return "%.3f" % v
    return "%.4f" % v


def med(r):
    return r.get("median_ms") if isinstance(r, dict) else None


def ratio(peer_ms, lib_ms):
    if peer_ms is None or lib_ms is None or lib_ms <= 0:
        return None
    return peer_ms / lib_ms


def gmean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def render(rows, a):
    out = []
    out.append("| kernel | sizes | libdace (a) opt | libdace (b) raw+auto | NumPy | Numba (best) | DaCe opt | "
               "NumPy/(a) | Numba/(a) | DaCe/(a) | NumPy/(b) | Numba/(b) | DaCe/(b) | notes |")
    out.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    cols = {k: [] for k in ("na", "ba", "da", "nb", "bb", "db")}
    for r in rows:
        la, lb = med(r["libdace_a"]), med(r["libdace_b"])
        n, b, d = med(r["numpy"]), med(r["numba"]), med(r["dace"])
        rs = {"na": ratio(n, la), "ba": ratio(b, la), "da": ratio(d, la),
              "nb": ratio(n, lb), "bb": ratio(b, lb), "db": ratio(d, lb)}
        for k, v in rs.items():
            cols[k].append(v)
        notes = []
        for name, key in (("(a)", "libdace_a"), ("(b)", "libdace_b"), ("NumPy", "numpy"), ("Numba", "numba"),
                          ("DaCe", "dace")):
            x = r[key]
            if "error" in x:
                notes.append("%s failed: %s" % (name, x["error"]))
            elif x.get("check", "ok") != "ok":
                notes.append("%s %s" % (name, x["check"]))
            if x.get("rounds_failed"):  # its time is the median of the rounds that ran
                notes.append("%s failed in %d of %d rounds" % (name, x["rounds_failed"], getattr(a, "rounds", 1)))
        for v, x in r["numba_all"].items():
            if v != r["numba"].get("variant") and x.get("check", "ok") != "ok":
                notes.append("numba %s %s" % (v, x.get("check") or x.get("error")))
        if "variant" in r["numba"]:
            notes.insert(0, "Numba: %s" % r["numba"]["variant"])
        sizes = ", ".join("%s=%s" % kv for kv in sorted(r["sizes"].items()))
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], sizes, fmt(la), fmt(lb), fmt(n), fmt(b), fmt(d),
            *[fmt(rs[k]) for k in ("na", "ba", "da", "nb", "bb", "db")], "; ".join(notes)))
    out.append("| **geomean** | | | | | | | %s | %s | %s | %s | %s | %s | |" % tuple(
        fmt(gmean(cols[k])) for k in ("na", "ba", "da", "nb", "bb", "db")))
    out.append("")
    out.append("First call (ms; not in the medians above) and compile times:")
    out.append("")
    out.append("| kernel | libdace (b) first call | NumPy first call | Numba first call (JIT) | DaCe first call | "
               "libdace (b) auto_optimize ms | libdace (b) auto_optimize + cold compile ms (median / min) | "
               "DaCe compile of opt ms |")
    out.append("|---|--:|--:|--:|--:|--:|--:|--:|")
    comp = []
    for r in rows:
        c = r.get("libdace_compile", {})
        comp.append(c.get("median_ms"))
        first = [fmt(r[k].get("first_ms")) if isinstance(r[k], dict) else "—" for k in ("libdace_b", "numpy", "numba", "dace")]
        both = "%s / %s" % (fmt(c.get("median_ms")), fmt(c.get("min_ms"))) if "median_ms" in c else c.get("error", "—")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (r["kernel"], *first, fmt(c.get("transform_ms")), both,
                                                               fmt(r["dace"].get("compile_ms"))))
    good = sorted(x for x in comp if x is not None)
    if good:
        n = len(good)
        medc = good[n // 2] if n % 2 else 0.5 * (good[n // 2 - 1] + good[n // 2])
        out.append("")
        out.append("auto_optimize + cold compile over the kernels: median %s ms, max %s ms (%d runs each, a fresh "
                   "process per run; target: median <= 100 ms)." % (fmt(medc), fmt(good[-1]), a.compile_reps))
    out.append("")
    sizes = ("NPBench size %s (bench_info parameters; inputs from npbench_kernels.generate, expected outputs from "
             "its NumPy references)" % a.size) if a.size else "the corpus case.json inputs"
    rounds = max(1, getattr(a, "rounds", 1))
    if rounds > 1:
        out.append("Every time in the tables above is the median of %d rounds' medians (first calls: the first "
                   "round's): every contender ran once per round, in the table's order in even rounds and the reverse "
                   "in odd ones, rounds one after the other."
                   % rounds)
    out.append("Median ms of at least %d calls (and of at least %g ms of calls) after a warm-up call, %d thread(s) (OMP_NUM_THREADS, NUMBA_NUM_THREADS, "
               "OPENBLAS_NUM_THREADS and `dace run --threads` set to it); ratios are peer / libdace (> 1: libdace "
               "faster); geomeans over the kernels where both sides ran. Sizes: %s. libdace times are taken inside "
               "`dace run` (C call), peers' from Python (`time.perf_counter` around the call), so call overhead "
               "(~µs) is in the peers' numbers." % (a.reps, a.min_ms, THREADS, sizes))
    return "\n".join(out)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--rounds", type=int, default=1,
                   help="time every contender this many times, alternated (one round = each contender once); "
                        "tables give the median of the rounds' medians")
    p.add_argument("--min-ms", type=float, default=200.0,
                   help="time at least this many ms of calls per contender (more than --reps for short kernels)")
    p.add_argument("--dace-cli", default=os.path.join(ROOT, "build", "bin", "dace"))
    p.add_argument("--python", default=PYTHON)
    p.add_argument("--corpus", default=CORPUS)
    p.add_argument("--npbench", default=NPBENCH)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--json")
    p.add_argument("--threads", default="1", help="threads of every contender; a list (1,2) gives one table each")
    p.add_argument("--size", help="NPBench size(s) instead of the corpus case's: S, M, L or a list (S,M)")
    p.add_argument("--compile-reps", type=int, default=5,
                   help="runs of libdace's auto_optimize + cold compile per kernel (median reported)")
    p.add_argument("--openblas-coretype", default="auto",
                   help="OPENBLAS_CORETYPE for every contender: auto (set only where an OpenBLAS falls back to "
                        "its generic Prescott kernels on this CPU), none, or a kernel set's name")
    p.add_argument("--call-limit", type=int, default=60,
                   help="seconds: a contender whose warm-up call takes longer is not timed further")
    p.add_argument("--case-dir", help=argparse.SUPPRESS)
    p.add_argument("--worker", choices=["numpy", "numba", "dace"], help=argparse.SUPPRESS)
    p.add_argument("--kernel", help=argparse.SUPPRESS)
    p.add_argument("--variant", help=argparse.SUPPRESS)
    p.add_argument("--build-root", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        return python_worker(a)
    global THREADS
    sizes = a.size.split(",") if a.size else [None]
    for size in sizes:
        if size not in (None, "S", "M", "L"):
            p.error("--size: S, M or L, not %r" % size)
    threads = [max(1, int(t)) for t in a.threads.split(",")]
    inherited = os.environ.get("OPENBLAS_CORETYPE")
    coretype = openblas_coretype(a.openblas_coretype, a.python)
    if coretype:
        os.environ["OPENBLAS_CORETYPE"] = coretype
        print("OPENBLAS_CORETYPE=%s for every contender (an OpenBLAS here fell back to its generic "
              "Prescott kernels on this CPU; --openblas-coretype none keeps them)" % coretype, flush=True)
    # Every table depends on these kernels (dgemm differs ~2x between AVX2 and AVX-512 ones,
    # ~5x to the generic ones): say which each OpenBLAS runs, whoever chose them.
    origin = ("from the environment" if inherited else "set above" if coretype else "unset: chosen from the CPU model")
    cores = openblas_cores(a.python)
    print("OpenBLAS kernels: %s (OPENBLAS_CORETYPE %s)\n" %
          (", ".join("%s %s" % kv for kv in sorted(cores.items())) or "unknown", origin), flush=True)
    t0 = time.time()
    everything = []
    compiled = {}  # kernel -> auto_optimize + compile times (they depend on neither size nor threads)
    with tempfile.TemporaryDirectory(prefix="peers_runtime_") as tmp:
        for size in sizes:
            for t in threads:
                THREADS = t
                os.environ.update(env1())
                a.size = size
                rows = []
                for k in a.kernels.split(","):
                    t1 = time.time()
                    try:
                        rows.append(bench_kernel(a, k, tmp, size, compiled))
                    except Exception as e:  # e.g. no generator for this kernel/size: skip it, say why
                        print("# %s skipped: %s: %s" % (k, type(e).__name__, e), file=sys.stderr, flush=True)
                        continue
                    print("# %s %s %d thread(s) done in %.1f s" % (k, size or "case", t, time.time() - t1),
                          file=sys.stderr, flush=True)
                print("\n## size %s, %d thread(s)\n" % (size or "case.json", t))
                print(render(rows, a), flush=True)
                everything.extend(rows)
    print("\nTotal %.0f s. Python: %s. libdace: %s." % (time.time() - t0, a.python, a.dace_cli))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(everything, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
