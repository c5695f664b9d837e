"""DaCe runs what we transform: every corpus raw SDFG goes through `dace optimize` (our
optimizer) in a few variants (VARIANTS), every corpus *.simp.sdfg (DaCe's own simplify output)
through `--simplify` (variant "simp.simplify"), and every registered pattern transformation
once, `--apply NAME` at its first match in the first corpus SDFG where it has one (kernels in
order, the *.simp.sdfg before the *.raw.sdfg), or else in the first of the DaCe-written cases
of tests/data/transform_cases (programs written for the transformations the corpus never
matches; variant "apply:NAME"), with TEST_PROPERTIES where its defaults match nothing. A
transformation that matches nowhere, or whose result DaCe cannot run on this machine
(NOT_RUNNABLE_HERE), is printed as not run with its reason. DaCe 1.0.2 then loads and validates
each result, compiles it with
its own code generator and CMake build, runs it on the corpus inputs and the outputs are
compared with the corpus's NumPy outputs (the case's rtol/atol). A negative control corrupts
one tasklet of an optimized SDFG and must be reported as a mismatch, so a check that cannot
fail does not pass silently.

Builds are cached under WORK/cache by DaCe's own hash_sdfg() of the SDFG (which leaves out the
history, the original and guids): a rerun compiles only SDFGs whose content changed, and
variants that give the same SDFG share one build. Entries not used by a run are deleted.

usage: dace_runs_transformed.py DACE_CLI CORPUS WORK [--jobs N] [--kernels k1,k2] [--variants v1,v2]
       (--variants also takes simp.simplify, apply:NAME, and apply:* for every transformation)
Exit 0 when every result matches and the control is caught, 1 otherwise."""
import argparse
import concurrent.futures as cf
import fcntl
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Each variant: the `dace optimize` flags after IN -o OUT.
REPEATED = ["MapFusion", "TrivialMapElimination", "MapCollapse", "RedundantArray"]
VARIANTS = {
    "simplify": ["--simplify"],
    "repeated": ["--simplify"] + [f for name in REPEATED for f in ("--apply-repeated", name)] + ["--simplify"] +
                [f for name in REPEATED for f in ("--apply-repeated", name)],
    # libdace's auto_optimize (`dace optimize --auto cpu`): what the benchmarks run.
    "auto": ["--auto", "cpu"],
}
CONTROL_KERNEL = "gemm"

# Failures that are DaCe 1.0.2's, not ours: (kernel, variant) -> text that must occur in DaCe's
# error. Such a run is reported as KNOWN and does not fail the check; any other outcome (another
# error, a mismatch) still fails, and a run that starts passing is reported so the entry can go.
# crc16 auto: auto_optimize lifts crc16's bit loop into a LoopRegion whose body branches
# (`if (crc & 1) ^ (b & 1)` as two states joining again). DaCe 1.0.2's region code generator
# (codegen/control_flow.py, _structured_control_flow_traversal_with_regions) walks a region's
# blocks depth first; the join, a block without out-edges, is reached while the other branch is
# still on the stack, so it is not marked last and gets `goto __state_exit_<cfg_id>` — a label
# that only an SDFG's frame defines (framecode.py), never a loop region: g++ fails with
# "label '__state_exit_2' used but not defined". Raising the branch into a ConditionalBlock
# does not help: 1.0.2's analysis passes fail on it ("'NoneType' object has no attribute
# 'cfg_id'"). Every loop region whose body branches is affected, whoever lifted it: LoopLifting
# alone on crc16's simp SDFG lifts the same loop and meets the same error ('__state_exit_1').
KNOWN_DACE_BUGS = {("crc16", "auto"): "used but not defined",
                   ("crc16", "apply:LoopLifting"): "used but not defined"}

# Pattern transformations whose result DaCe cannot run on a CPU-only machine without MPI: not a
# DaCe bug, so not in KNOWN_DACE_BUGS, but never dropped silently either (each run prints them).
NOT_RUNNABLE_HERE = {
    "GPUTransformSDFG": "its result runs on a GPU (GPU_Device maps, GPU_Global data): DaCe compiles it "
                        "with nvcc and needs a CUDA device; the CPU check cannot run it",
    "MPITransformMap": "its result is an MPI program (DaCe's MPI library nodes): it needs mpi4py, an MPI "
                       "compiler and mpirun",
    "ExpandGemmPBLAS": "expands to ScaLAPACK/PBLAS calls on a process grid: it needs MPI and ScaLAPACK",
}


# Properties for transformations that match nothing with their defaults (as
# tests/unit/transform_corpus_test.cpp's kTestProperties): AccumulateTransient needs the WCR's
# identity, 0 for the sums it meets.
TEST_PROPERTIES = {"AccumulateTransient": {"identity": "0"}}

# Runs in a child process with libdace's Python binding (bindings/python): for every registered
# pattern transformation (passes excluded), the first of the inputs (argv[2:]) where it has a
# legal match with the properties in argv[1] (JSON), or None. One process loads each input
# once, instead of one `dace optimize` per pair.
FIRST_MATCHES = r"""
import json, sys
import libdace.sdfg as s
props = json.loads(sys.argv[1])
names = [n for n in s.transformations() if not s.is_pass(n)]
first = dict.fromkeys(names)
for path in sys.argv[2:]:
    sdfg = s.SDFG.from_file(path)
    for n in names:
        if first[n] is None and sdfg.match_transformation(n, **props.get(n, {})):
            first[n] = path
print(json.dumps(first))
"""


def first_matches(dace_cli, inputs):
    """{pattern transformation: first input where it matches, or None}, in name order, from the
    libdace next to DACE_CLI; in a child process so that libdace and its OpenMP runtime stay
    out of this one (its workers load DaCe)."""
    lib = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(dace_cli)), "..", "lib", "libdace.so"))
    env = dict(os.environ, LIBDACE_LIBRARY=lib, PYTHONPATH=os.path.join(ROOT, "bindings", "python"))
    r = subprocess.run([sys.executable, "-c", FIRST_MATCHES, json.dumps(TEST_PROPERTIES)] + inputs,
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"matching libdace's transformations through {lib} failed: {r.stderr.strip()}")
    return dict(sorted(json.loads(r.stdout).items()))


def patch_networkx_for_dace():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from run_corpus_bench import patch_networkx_for_dace as patch
    patch()


def corrupt_one_tasklet(src, dst):
    """Adds 1 to the result of the first one-line Python tasklet of the SDFG in `src`."""
    d = json.load(open(src))

    def visit(obj):
        if isinstance(obj, dict):
            if obj.get("type") == "Tasklet":
                code = obj["attributes"]["code"]
                text = code.get("string_data", "")
                if code.get("language") == "Python" and "\n" not in text.strip() and "=" in text:
                    code["string_data"] = text.strip() + " + 1"
                    return True
            # Not the stored original (orig_sdfg): it is not what runs.
            return any(visit(v) for k, v in obj.items() if k != "orig_sdfg")
        if isinstance(obj, list):
            return any(visit(v) for v in obj)
        return False

    if not visit(d):
        raise RuntimeError(f"{src}: no one-line Python tasklet to corrupt")
    json.dump(d, open(dst, "w"))


def run_case(job):
    """In a worker process: load, validate, compile (or reuse the cached build), run, compare.
    Returns (label, 'ok' | 'MISMATCH ...' | 'ERROR ...', seconds, cached)."""
    label, sdfg_path, case_dir, cache_root = job
    t0 = time.perf_counter()
    import warnings
    warnings.filterwarnings("ignore")
    import numpy as np
    patch_networkx_for_dace()
    import dace
    from dace.sdfg.utils import load_precompiled_sdfg
    # Fewer optimizations than DaCe's default (-O3 -march=native): the check is about
    # correctness, and compiling dominates its time.
    dace.Config.set("compiler", "cpu", "args", value="-std=c++14 -fPIC -O1 -w")
    dace.Config.set("compiler", "build_type", value="None")
    try:
        sdfg = dace.SDFG.from_file(sdfg_path)
        sdfg.validate()
        key = sdfg.hash_sdfg()[:24]
        folder = os.path.join(cache_root, key, sdfg.name)
        # Variants that give the same SDFG share one build: the second waits for the first.
        with open(os.path.join(cache_root, key + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            cached = os.path.exists(os.path.join(folder, "done"))
            if cached:
                csdfg = load_precompiled_sdfg(folder)
            else:
                shutil.rmtree(os.path.join(cache_root, key), ignore_errors=True)
                dace.Config.set("default_build_folder", value=os.path.join(cache_root, key))
                csdfg = sdfg.compile()
                if os.path.abspath(sdfg.build_folder) != os.path.abspath(folder):
                    raise RuntimeError(f"DaCe built in {sdfg.build_folder}, not {folder}")
                open(os.path.join(folder, "done"), "w").close()
        case = json.load(open(os.path.join(case_dir, "case.json")))
        args = {}
        for name, rel in case["inputs"].items():
            v = np.load(os.path.join(case_dir, rel))
            args[name] = v[()] if v.ndim == 0 else v.copy()
        kwargs = dict(args)
        kwargs.update({k: int(v) for k, v in case.get("symbols", {}).items()})
        result = csdfg(**kwargs)
        returns = sorted(n for n in case["expected_outputs"] if n.startswith("__return"))
        got = {}
        if returns:
            values = result if isinstance(result, tuple) else (result,)
            got.update(zip(returns, values))
        bad = []
        for name, rel in case["expected_outputs"].items():
            want = np.load(os.path.join(case_dir, rel))
            have = np.asarray(got[name] if name in got else args[name])
            if have.shape != want.shape and have.size == want.size:
                have = have.reshape(want.shape)
            if have.shape != want.shape or not np.allclose(have, want, rtol=case["rtol"], atol=case["atol"],
                                                           equal_nan=True):
                err = float(np.max(np.abs(have - want))) if have.shape == want.shape else float("nan")
                bad.append(f"{name} (shape {have.shape} vs {want.shape}, max abs error {err:.3g})")
        status = "ok" if not bad else "MISMATCH " + ", ".join(bad)
        return label, status, time.perf_counter() - t0, cached, key
    except Exception as ex:  # noqa: BLE001 - reported as the job's result
        kernel, _, variant = label.partition(" ")
        known = KNOWN_DACE_BUGS.get((kernel, variant))
        if known and known in str(ex):
            return label, f"KNOWN DaCe 1.0.2 bug ({known}, see KNOWN_DACE_BUGS)", time.perf_counter() - t0, False, None
        return label, f"ERROR {type(ex).__name__}: {str(ex).splitlines()[0] if str(ex) else ''}", \
            time.perf_counter() - t0, False, None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dace_cli")
    p.add_argument("corpus")
    p.add_argument("work")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--kernels", default="")
    p.add_argument("--variants", default="", help="comma-separated subset of " + ",".join(VARIANTS))
    a = p.parse_args()
    start = time.perf_counter()
    out_dir = os.path.join(a.work, "sdfg")
    cache = os.path.join(a.work, "cache")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    os.makedirs(cache, exist_ok=True)
    kernels = sorted(k for k in os.listdir(a.corpus) if os.path.exists(os.path.join(a.corpus, k, f"{k}.raw.sdfg")))
    if a.kernels:
        kernels = [k for k in kernels if k in a.kernels.split(",")]
    if not kernels:
        print(f"no corpus raw SDFGs in {a.corpus}")
        return 1

    wanted = a.variants.split(",") if a.variants else []
    jobs, failures = [], []
    for k in kernels:
        raw = os.path.join(a.corpus, k, f"{k}.raw.sdfg")
        for variant, flags in VARIANTS.items():
            if a.variants and variant not in a.variants.split(","):
                continue
            out = os.path.join(out_dir, f"{k}.{variant}.sdfg")
            r = subprocess.run([a.dace_cli, "optimize", raw, "-o", out] + flags, capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"{k} {variant}: dace optimize exit {r.returncode}: {r.stderr.strip()}")
                continue
            jobs.append((f"{k} {variant}", out, os.path.join(a.corpus, k), cache))
        simp = os.path.join(a.corpus, k, f"{k}.simp.sdfg")
        if os.path.exists(simp) and (not wanted or "simp.simplify" in wanted):
            out = os.path.join(out_dir, f"{k}.simp.simplify.sdfg")
            r = subprocess.run([a.dace_cli, "optimize", simp, "-o", out, "--simplify"], capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"{k} simp.simplify: dace optimize exit {r.returncode}: {r.stderr.strip()}")
            else:
                jobs.append((f"{k} simp.simplify", out, os.path.join(a.corpus, k), cache))

    # One run per pattern transformation, on the first corpus SDFG where it matches.
    inputs = [os.path.join(a.corpus, k, f"{k}.{kind}.sdfg") for k in kernels for kind in ("simp", "raw")]
    inputs = [p for p in inputs if os.path.exists(p)]
    cases = os.path.join(ROOT, "tests", "data", "transform_cases")
    case_names = [k for k in sorted(os.listdir(cases)) if os.path.exists(os.path.join(cases, k, "case.json"))]
    if a.kernels:
        case_names = [k for k in case_names if k in a.kernels.split(",")]
    inputs += [p for k in case_names for kind in ("simp", "raw")
               if os.path.exists(p := os.path.join(cases, k, f"{k}.{kind}.sdfgz"))]
    applied = 0
    for name, where in first_matches(a.dace_cli, inputs).items():
        variant = f"apply:{name}"
        if wanted and variant not in wanted and "apply:*" not in wanted:
            continue
        if name in NOT_RUNNABLE_HERE:
            print(f"not run {variant}: {NOT_RUNNABLE_HERE[name]}", flush=True)
            continue
        if where is None:
            print(f"not run {variant}: no match in any of the {len(inputs)} corpus and case SDFGs", flush=True)
            continue
        out = os.path.join(out_dir, f"{name}.apply.sdfg")
        apply = name + (":" + json.dumps(TEST_PROPERTIES[name]) if name in TEST_PROPERTIES else "")
        r = subprocess.run([a.dace_cli, "optimize", where, "-o", out, "--apply", apply, "--json"],
                           capture_output=True, text=True)
        if r.returncode != 0 or not json.loads(r.stdout)["applied"]:
            failures.append(f"{os.path.basename(where)} {variant}: it matches, but dace optimize --apply "
                            f"exits {r.returncode} having applied nothing: {r.stderr.strip()}")
            continue
        kernel = os.path.basename(where).split(".")[0]
        print(f"{variant}: applies to {os.path.basename(where)}", flush=True)
        jobs.append((f"{kernel} {variant}", out, os.path.dirname(where), cache))
        applied += 1
    control = None
    if CONTROL_KERNEL in kernels and (not a.variants or "simplify" in a.variants.split(",")):
        control = os.path.join(out_dir, f"{CONTROL_KERNEL}.corrupted.sdfg")
        corrupt_one_tasklet(os.path.join(out_dir, f"{CONTROL_KERNEL}.simplify.sdfg"), control)
        jobs.append((f"{CONTROL_KERNEL} corrupted (control)", control, os.path.join(a.corpus, CONTROL_KERNEL), cache))

    used = set()
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=max(1, a.jobs), mp_context=ctx) as pool:
        for label, status, secs, cached, key in pool.map(run_case, jobs):
            used.add(key)
            is_control = label.endswith("(control)")
            kernel, _, variant = label.partition(" ")
            if status.startswith("KNOWN"):
                print(f"KNOWN {label}: {status} ({secs:.1f} s)", flush=True)
                continue
            if status == "ok" and (kernel, variant) in KNOWN_DACE_BUGS:
                print(f"note {label}: passes now; remove it from KNOWN_DACE_BUGS", flush=True)
            print(f"{'ok  ' if (status == 'ok') != is_control else 'FAIL'} {label}: {status} "
                  f"({secs:.1f} s{', cached build' if cached else ''})", flush=True)
            if is_control and not status.startswith("MISMATCH"):
                failures.append(f"{label}: the corrupted SDFG was not reported as a mismatch ({status})")
            elif not is_control and status != "ok":
                failures.append(f"{label}: {status}")
    for entry in os.listdir(cache) if not (a.kernels or a.variants) else []:  # a partial run keeps the others
        if entry.split(".")[0] not in used:
            shutil.rmtree(os.path.join(cache, entry), ignore_errors=True)
    print(f"dace_runs_transformed: {len(jobs)} runs ({len(kernels)} kernels x {len(VARIANTS)} variants on the raw "
          f"SDFG + simplify on the *.simp.sdfg, {applied} pattern transformations at a first match"
          f"{', control' if control else ''}), {len(failures)} failures, {time.perf_counter() - start:.0f} s")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
