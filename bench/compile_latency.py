#!/usr/bin/python3
"""Cold-compile latency of every corpus SDFG: libdace per phase next to DaCe 1.0.2's build.

For each kernel K of ../shared/sdfg-corpus it compiles K.raw, K.simp, K.opt and K.raw after
`dace optimize --auto cpu` (libdace's auto_optimize):
  - libdace: `dace compile --json FILE` in a fresh process, no cache dir (cold: the process's
    plugin discovery and LLVM set-up count too, as a new user sees them), --reps times,
    medians per field: validate / lower / LLVM optimize / codegen / link, `total_ms` (time
    until the program is callable) and `optimized_ms` (until the optimized tier is in), the
    LLVM IR instruction counts of the lowered module and after optimization;
  - DaCe 1.0.2 (the venv .venv-dace): `SDFG.from_file(FILE).compile()` into a fresh build
    folder (code generation + CMake + g++), one process for all files, measured in the same
    run.
Extra flags after `--` go to every `dace compile` (e.g. `-- --no-tiers` for the single-tier
compile). `--baseline=FLAGS` also compiles every file with FLAGS (`--baseline=--no-tiers`: the
single-tier compile, libdace's behaviour before tiers), interleaved with the measured runs,
and adds its time until callable as a column: a before/after table from one run. Prints a markdown table, the medians, the
largest SDFG (by lowered instructions) on its own line and the issue's targets.

  /usr/bin/python3 bench/compile_latency.py [--dace-cli build/bin/dace] [--kernels gemm,atax]
      [--variants raw,simp,opt,auto] [--reps 3] [--no-dace] [--baseline=FLAGS] [--baseline-cli BIN] [--json OUT]
      [--quiet|--progress] [-- FLAGS...]
Progress ("[k/N] compiling K.V") on stderr when it is a terminal (bench/progress.py).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import progress as progress_args  # bench/progress.py: "[k/N]" lines on a terminal, as the CLI shows

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "sdfg-corpus")
DACE_PYTHON = os.path.join(ROOT, ".venv-dace", "bin", "python")
PHASES = ["validate_ms", "lower_ms", "optimize_ms", "codegen_ms", "link_ms", "total_ms", "optimized_ms"]
COUNTS = ["lowered_instructions", "optimized_ir_instructions"]

DACE_WORKER = r"""
import json, os, sys, tempfile, time
sys.path.insert(0, %(here)r)
from run_corpus_bench import patch_networkx_for_dace
patch_networkx_for_dace()
import dace
for path in json.loads(sys.argv[1]):
    build = tempfile.mkdtemp(prefix="dace-build-", dir=sys.argv[2])
    dace.Config.set("default_build_folder", value=build)
    try:
        sdfg = dace.SDFG.from_file(path)
        t0 = time.perf_counter()
        sdfg.compile()
        ms = (time.perf_counter() - t0) * 1e3
        print(json.dumps({"file": path, "ms": ms}), flush=True)
    except Exception as e:  # one failing SDFG must not stop the others
        print(json.dumps({"file": path, "error": type(e).__name__ + ": " + str(e)[:200]}), flush=True)
"""


def kernels():
    return sorted(k for k in os.listdir(CORPUS)
                  if os.path.isfile(os.path.join(CORPUS, k, k + ".raw.sdfg")))


def auto_optimized(cli, kernel, tmp):
    out = os.path.join(tmp, kernel + ".auto.sdfg")
    p = subprocess.run([cli, "optimize", os.path.join(CORPUS, kernel, kernel + ".raw.sdfg"), "-o", out,
                        "--auto", "cpu"], capture_output=True, text=True)
    return out if p.returncode == 0 else None


def compile_once(cli, path, flags):
    p = subprocess.run([cli, "compile", "--json", path] + flags, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]}
    return json.loads(p.stdout)


def libdace_compile(cli, path, reps, extra, baseline, baseline_cli=None):
    runs, base = [], []
    for _ in range(reps):  # interleaved, so that both see the same load
        r = compile_once(cli, path, extra)
        if "error" in r:
            return r
        runs.append(r)
        if baseline is not None:
            b = compile_once(baseline_cli or cli, path, baseline)
            if "error" not in b:
                base.append(b["total_ms"])
    out = {"baseline_ms": statistics.median(base)} if base else {}
    for key in PHASES + COUNTS:
        values = [r[key] for r in runs if key in r]
        if values:
            out[key] = statistics.median(values)
    if "optimized_ir_instructions" not in out and "ir_instructions" in runs[0]:  # older CLI
        out["optimized_ir_instructions"] = statistics.median(r["ir_instructions"] for r in runs)
    if "optimized_ms" not in out and "total_ms" in out:
        out["optimized_ms"] = out["total_ms"]  # a single-tier compile is optimized when callable
    if "codegen_ms" not in out and "jit_ms" in runs[0]:  # older CLI: codegen and link together
        out["codegen_ms"] = statistics.median(r["jit_ms"] for r in runs)
    return out


def dace_builds(files, tmp):
    if not os.path.exists(DACE_PYTHON):
        print("DaCe venv not found at %s: no DaCe column" % DACE_PYTHON, file=sys.stderr)
        return {}
    script = DACE_WORKER % {"here": HERE}
    p = subprocess.run([DACE_PYTHON, "-c", script, json.dumps(files), tmp], capture_output=True, text=True,
                       cwd=tmp)
    result = {}
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            e = json.loads(line)
            result[e["file"]] = e
    if p.returncode != 0 and not result:
        print("DaCe worker failed: %s" % p.stderr.strip()[-400:], file=sys.stderr)
    return result


def fmt(x, digits=1):
    return "-" if x is None else ("%.*f" % (digits, x))


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dace-cli", default=os.path.join(ROOT, "build", "bin", "dace"))
    ap.add_argument("--kernels", default="")
    ap.add_argument("--variants", default="raw,simp,opt,auto")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--no-dace", action="store_true")
    ap.add_argument("--json", default="")
    ap.add_argument("--baseline", default=None, help="flags of a second compile per file, e.g. \"--no-tiers\"")
    ap.add_argument("--baseline-cli", default=None, help="the `dace` binary of the baseline compile (default: --dace-cli), "
                    "e.g. an older build for a before/after table from one run")
    progress_args.add_arguments(ap)
    a = ap.parse_args(argv)
    ks = a.kernels.split(",") if a.kernels else kernels()
    variants = a.variants.split(",")
    t_start = time.time()
    with tempfile.TemporaryDirectory(prefix="compile-latency-") as tmp:
        files = []
        for k in ks:
            for v in variants:
                path = auto_optimized(a.dace_cli, k, tmp) if v == "auto" else os.path.join(CORPUS, k, "%s.%s.sdfg" % (k, v))
                if path and os.path.exists(path):
                    files.append((k, v, path))
        rows = []
        progress = progress_args.Progress(len(files) + (0 if a.no_dace else 1), a)
        for k, v, path in files:
            progress.step("compiling %s.%s (%d times)" % (k, v, a.reps))
            rows.append({"kernel": k, "variant": v, "file": path, **libdace_compile(a.dace_cli, path, a.reps, extra,
                                                                               a.baseline.split() if a.baseline is not None else None,
                                                                               a.baseline_cli)})
        if not a.no_dace:
            progress.step("DaCe 1.0.2 builds of %d SDFGs" % len(files))
        dace = {} if a.no_dace else dace_builds([f[2] for f in files], tmp)
        progress.finish()
        for r in rows:
            d = dace.get(r["file"], {})
            r["dace_ms"] = d.get("ms")
            if "error" in d:
                r["dace_error"] = d["error"]

    # "other": time until callable outside the phases (plugin discovery, LLVM and JIT set-up of
    # the process's first compile, argument plans).
    for r in rows:
        if "error" not in r:
            r["other_ms"] = r["total_ms"] - sum(r.get(p, 0) for p in PHASES[:5])
    head = ["SDFG", "validate", "lower", "LLVM opt", "codegen", "link", "other", "first call ms", "optimized ms",
            "DaCe build ms", "first/DaCe", "IR lowered", "IR optimized"]
    if a.baseline is not None:
        head += ["baseline first call ms", "baseline/first"]
    print("| " + " | ".join(head) + " |")
    print("|---" + "|--:" * (len(head) - 1) + "|")
    for r in rows:
        name = "%s.%s" % (r["kernel"], r["variant"])
        if "error" in r:
            print("| %s | error: %s |" % (name, r["error"]))
            continue
        ratio = r["total_ms"] / r["dace_ms"] if r.get("dace_ms") else None
        cells = [name] + [fmt(r.get(p)) for p in PHASES[:5] + ["other_ms"] + PHASES[5:]] + [fmt(r.get("dace_ms"), 0), fmt(ratio, 3)] + \
            [str(int(r.get(c, 0))) for c in COUNTS]
        if a.baseline is not None:
            b = r.get("baseline_ms")
            cells += [fmt(b), fmt(b / r["total_ms"] if b else None, 2)]
        print("| " + " | ".join(cells) + " |")
    ok = [r for r in rows if "error" not in r]
    if not ok:
        return 1
    med = lambda key: statistics.median([r[key] for r in ok if r.get(key) is not None] or [0])
    print("| **median** | " + " | ".join(fmt(med(p)) for p in PHASES[:5] + ["other_ms"] + PHASES[5:]) + " | %s | | %d | %d |" %
          (fmt(med("dace_ms"), 0), med("lowered_instructions"), med("optimized_ir_instructions")) +
          (" %s | |" % fmt(med("baseline_ms")) if a.baseline is not None else ""))
    big = max(ok, key=lambda r: (r.get("lowered_instructions", 0), r.get("optimized_ir_instructions", 0)))
    print("\nlargest SDFG: %s.%s (%d lowered instructions): first call %.1f ms, optimized %.1f ms, DaCe %s ms" %
          (big["kernel"], big["variant"], big.get("lowered_instructions", 0), big["total_ms"],
           big.get("optimized_ms", 0), fmt(big.get("dace_ms"), 0)))
    first = [r["total_ms"] for r in ok]
    within_dace = [r for r in ok if r.get("dace_ms") and r["total_ms"] <= 0.1 * r["dace_ms"]]
    with_dace = [r for r in ok if r.get("dace_ms")]
    print("targets: first call <= 300 ms: %d/%d; <= 10%% of DaCe: %d/%d; median first call %.1f ms (<= 50); "
          "optimized <= 1 s: %d/%d; max first call %.1f ms, max optimized %.1f ms" %
          (sum(x <= 300 for x in first), len(ok), len(within_dace), len(with_dace), statistics.median(first),
           sum(r.get("optimized_ms", 0) <= 1000 for r in ok), len(ok), max(first),
           max(r.get("optimized_ms", 0) for r in ok)))
    errors = [r for r in rows if "error" in r] + [r for r in rows if "dace_error" in r]
    for r in errors:
        print("note: %s.%s: %s" % (r["kernel"], r["variant"], r.get("error") or "DaCe: " + r["dace_error"]))
    with open("/proc/pressure/cpu") as f:
        print("CPU pressure at the end: %s; %.0f s" % (f.readline().strip(), time.time() - t_start))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
