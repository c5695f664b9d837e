#!/usr/bin/env python3
"""GPU side by side on the corpus kernels at an NPBench size: libdace's CUDA plugin next to CuPy
(NPBench's own *_cupy.py, read at run time from --npbench) and, when --dace-gpu names a folder made by
dace_gpu_build.py, DaCe 1.0.2's GPU build of its auto-optimized GPU SDFG. Needs a CUDA GPU and CuPy.

Contenders (each checked against NumPy outputs computed by npbench_kernels.py for the same inputs):
  libdace gpu.sdfg   DaCe's auto_optimize(GPU) SDFG (corpus *.gpu.sdfg), compiled and run by libdace
  libdace auto gpu   the raw SDFG after `dace optimize --auto gpu`, run by libdace
  libdace dev        the gpu.sdfg through libdace's Python binding with CuPy arrays (no copies)
  cupy               NPBench's CuPy version
  dace gpu           DaCe 1.0.2's own build of the corpus *.gpu.sdfg (nvcc), called through its C ABI

Timings are medians of --reps calls. `dace run` hands libdace host arrays, so a libdace call includes
the copies host->device and back ("e2e"); CuPy is timed both ways (e2e: asarray + call + asnumpy,
"dev": arrays already on the device); DaCe's GPU build takes device pointers, so it is "dev" only, and
so is "libdace dev" (CuPy arrays through __cuda_array_interface__).
Ratios are peer time / libdace time (>1: libdace faster), e2e against e2e.

  python3 gpu_peers.py --dace-cli BUILD/bin/dace --corpus CORPUS --npbench NPBENCH --size M [--json OUT]
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
import peers_runtime as pr  # noqa: E402  (make_case, bench_info, import_npbench, stats, check)

KERNELS = ["atax", "crc16", "doitgen", "gemm", "go_fast", "heat_3d", "jacobi_2d", "mandelbrot1", "softmax", "syrk"]


def run_json(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout after %ds" % timeout
    text = p.stdout
    obj = None
    if "{" in text:
        try:
            obj = json.loads(text[text.index("{"):])
        except ValueError:
            obj = None
    if p.returncode != 0:
        tail = " / ".join((p.stderr or p.stdout or "").strip().splitlines()[-3:])
        return obj, "exit %d: %s" % (p.returncode, tail[:300])
    return obj, None


def libdace(a, sdfg, cdir):
    flags = ["--max-streams", str(a.max_streams)] if a.max_streams else []
    flags += ["--fast-math"] if a.fast_math else []
    obj, err = run_json([a.dace_cli, "run", sdfg, "--case", os.path.join(cdir, "case.json"), "--repeat",
                         str(a.reps), "--json"] + flags, a.timeout)
    if obj is None or "median_ms" not in obj:
        return {"error": err or "no timing"}
    bad = [n for n, o in obj.get("outputs", {}).items() if not o.get("ok")]
    return {"median_ms": obj["median_ms"], "min_ms": obj["min_ms"], "compile_ms": obj.get("compile_ms"),
            "check": "ok" if obj.get("ok") and not bad else "MISMATCH " + ", ".join(bad)}


def cupy_peer(a, kernel, cdir):
    import cupy as cp
    import numpy as np
    case = pr.load_case(cdir)
    info = pr.bench_info(a.npbench, kernel)
    fn = pr.import_npbench(a.npbench, info, "cupy")
    host = pr.load_inputs(cdir, case)
    symbols = case.get("symbols", {})
    outputs = list(case["expected_outputs"])

    def to_dev(h):
        return {k: (cp.asarray(v) if v.ndim else v[()]) for k, v in h.items()}

    def call(args):
        return fn(*[args[n] if n in args else symbols[n] for n in info["input_args"]])

    def collect(args, result):
        got = pr.collect_outputs(outputs, args, result)
        return {k: cp.asnumpy(v) if isinstance(v, cp.ndarray) else np.asarray(v) for k, v in got.items()}

    args = to_dev(host)
    status = pr.check(collect(args, call(args)), case, cdir)
    dev, e2e = [], []
    for _ in range(a.reps):
        args = to_dev(host)
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        call(args)
        cp.cuda.Device().synchronize()
        dev.append((time.perf_counter() - t0) * 1e3)
    for _ in range(a.reps):
        t0 = time.perf_counter()
        args = to_dev(host)
        collect(args, call(args))
        e2e.append((time.perf_counter() - t0) * 1e3)
    return {"dev_ms": pr.stats(dev)["median_ms"], "median_ms": pr.stats(e2e)["median_ms"], "check": status}


CTYPES = {"double": ctypes.c_double, "float": ctypes.c_float, "int": ctypes.c_int, "long long": ctypes.c_longlong,
          "int64_t": ctypes.c_int64, "int32_t": ctypes.c_int32, "bool": ctypes.c_bool, "long": ctypes.c_long,
          "unsigned int": ctypes.c_uint, "uint32_t": ctypes.c_uint32, "uint16_t": ctypes.c_uint16,
          "uint8_t": ctypes.c_uint8, "int8_t": ctypes.c_int8, "short": ctypes.c_short}


def dace_gpu_peer(a, kernel, cdir):
    """DaCe's GPU build: manifest entry {lib, name, program:[[ctype,name,is_ptr]], init:[...]}; arrays are
    device pointers (CuPy), scalars and symbols by value."""
    import cupy as cp
    import numpy as np
    with open(os.path.join(a.dace_gpu, "manifest.json")) as f:
        entry = json.load(f).get(kernel)
    if entry is None or "error" in entry:
        return {"error": (entry or {}).get("error", "not built")}
    case = pr.load_case(cdir)
    host = pr.load_inputs(cdir, case)
    symbols = {k: int(v) for k, v in case.get("symbols", {}).items()}
    expected = {n: np.load(os.path.join(cdir, f)) for n, f in case["expected_outputs"].items()}
    lib = ctypes.CDLL(os.path.join(a.dace_gpu, entry["lib"]))
    init = getattr(lib, "__dace_init_" + entry["name"])
    init.restype = ctypes.c_void_p
    prog = getattr(lib, "__program_" + entry["name"])
    fini = getattr(lib, "__dace_exit_" + entry["name"])

    def fresh():
        return {k: (cp.asarray(v) if v.ndim else v[()]) for k, v in host.items()}

    def scalar(ctype, name, args):
        v = args[name] if name in args else symbols[name]
        return CTYPES[ctype](v.item() if hasattr(v, "item") else v)

    def build(params, args):
        out = []
        for ctype, name, is_ptr in params:
            if is_ptr:
                if name not in args:  # an output the call returns (__return): allocate it on the device
                    e = expected[name]
                    args[name] = cp.zeros(e.shape, e.dtype)
                out.append(ctypes.c_void_p(args[name].data.ptr))
            else:
                out.append(scalar(ctype, name, args))
        return out

    args = fresh()
    handle = init(*build(entry["init"], args))
    if not handle:
        return {"error": "__dace_init returned NULL"}
    try:
        prog(ctypes.c_void_p(handle), *build(entry["program"], args))
        cp.cuda.Device().synchronize()
        got = {n: cp.asnumpy(args[n]) for n in expected if n in args}
        status = pr.check(got, case, cdir)
        dev = []
        for _ in range(a.reps):
            args = fresh()
            params = build(entry["program"], args)
            cp.cuda.Device().synchronize()
            t0 = time.perf_counter()
            prog(ctypes.c_void_p(handle), *params)
            cp.cuda.Device().synchronize()
            dev.append((time.perf_counter() - t0) * 1e3)
    finally:
        fini(ctypes.c_void_p(handle))
    return {"dev_ms": pr.stats(dev)["median_ms"], "check": status}


def libdace_dev_peer(a, sdfg_path, cdir):
    """libdace through its Python binding with CuPy arrays as the GPU_Global arguments (used in place
    through __cuda_array_interface__): the device-resident time, comparable with DaCe's GPU build."""
    import cupy as cp
    import numpy as np
    sys.path.insert(0, os.path.join(os.path.dirname(BENCH), "bindings", "python"))
    import libdace
    case = pr.load_case(cdir)
    host = pr.load_inputs(cdir, case)
    symbols = {k: int(v) for k, v in case.get("symbols", {}).items()}
    expected = {n: np.load(os.path.join(cdir, f)) for n, f in case["expected_outputs"].items()}
    prog = libdace.SDFG.from_file(sdfg_path).compile(max_concurrent_streams=a.max_streams, fast_math=a.fast_math)
    names = {arg.name for arg in prog.arguments}

    def fresh():
        d = {k: (cp.asarray(v) if v.ndim else v[()]) for k, v in host.items() if k in names}
        for n, e in expected.items():
            if n not in d and n in names:
                d[n] = cp.zeros(e.shape, e.dtype)
        d.update({k: v for k, v in symbols.items() if k in names})
        return d

    args = fresh()
    res = prog(**args)
    cp.cuda.Device().synchronize()
    got = {n: cp.asnumpy(args[n]) for n in expected if n in args}
    returns = sorted(n for n in expected if n not in got)
    if returns:
        vals = res if isinstance(res, tuple) else (res,)
        got.update({n: cp.asnumpy(v) if isinstance(v, cp.ndarray) else np.asarray(v) for n, v in zip(returns, vals)})
    status = pr.check(got, case, cdir)
    dev = []
    for _ in range(a.reps):
        args = fresh()
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        prog(**args)
        cp.cuda.Device().synchronize()
        dev.append((time.perf_counter() - t0) * 1e3)
    return {"dev_ms": pr.stats(dev)["median_ms"], "check": status}


def child(a, kernel, cdir, what):
    """A contender in a child process: a crash there must not end the bench."""
    obj, err = run_json([sys.executable, os.path.abspath(__file__), "--dace-cli", a.dace_cli, "--worker", kernel,
                         "--worker-kind", what, "--case-dir", cdir, "--dace-gpu", a.dace_gpu or "", "--reps",
                         str(a.reps), "--npbench", a.npbench, "--corpus", a.corpus, "--max-streams", str(a.max_streams)]
                        + (["--fast-math"] if a.fast_math else []),
                        a.timeout)
    return obj if obj is not None and err is None else {"error": err or "no output"}


def fmt(r, key="median_ms"):
    if "error" in r:
        return "error"
    s = "%.3f" % r[key]
    return s if r.get("check") == "ok" else s + " (" + r.get("check", "?") + ")"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dace-cli", required=True)
    p.add_argument("--corpus", default=pr.CORPUS)
    p.add_argument("--npbench", default=pr.NPBENCH)
    p.add_argument("--size", default="M")
    p.add_argument("--kernels", default=",".join(KERNELS))
    p.add_argument("--reps", type=int, default=10)
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--dace-gpu", help="folder with manifest.json and DaCe's GPU builds (dace_gpu_build.py)")
    p.add_argument("--json")
    p.add_argument("--fast-math", action="store_true",
                   help="compile libdace's programs with fast math (contraction into fma, as nvcc's default "
                        "and DaCe's --use_fast_math build)")
    p.add_argument("--max-streams", type=int, default=0,
                   help="CUDA streams per state for libdace (0: the plugin's default; 1: everything on one stream)")
    p.add_argument("--peers", default="libdace,libdace_dev,cupy,dace", help="contenders to run (default: all)")
    p.add_argument("--worker-kind", help=argparse.SUPPRESS)
    p.add_argument("--worker", help=argparse.SUPPRESS)
    p.add_argument("--case-dir", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.worker:
        try:
            if a.worker_kind == "libdace_dev":
                gpu_sdfg = os.path.join(a.corpus, a.worker, a.worker + ".gpu.sdfg")
                print(json.dumps(libdace_dev_peer(a, gpu_sdfg, a.case_dir)))
            else:
                print(json.dumps(dace_gpu_peer(a, a.worker, a.case_dir)))
        except Exception as e:
            print(json.dumps({"error": "%s: %s" % (type(e).__name__, str(e)[:200])}))
        return 0
    tmp = tempfile.mkdtemp(prefix="gpu_peers_")
    rows = []
    peers = a.peers.split(",")
    for k in a.kernels.split(","):
        cdir = pr.make_case(a, k, a.size, tmp)
        row = {"kernel": k, "size": a.size}
        if "libdace" in peers:
            row["libdace_gpu_sdfg"] = libdace(a, os.path.join(a.corpus, k, k + ".gpu.sdfg"), cdir)
            auto = os.path.join(tmp, k + ".auto_gpu.sdfg")
            raw = os.path.join(a.corpus, k, k + ".raw.sdfg")
            _, err = run_json([a.dace_cli, "optimize", raw, "-o", auto, "--auto", "gpu"], a.timeout)
            row["libdace_auto_gpu"] = {"error": err} if err else libdace(a, auto, cdir)
        if "cupy" in peers:
            try:
                row["cupy"] = cupy_peer(a, k, cdir)
            except Exception as e:  # a peer that fails is reported, not fatal
                row["cupy"] = {"error": "%s: %s" % (type(e).__name__, str(e)[:200])}
        if "libdace_dev" in peers:
            row["libdace_dev"] = child(a, k, cdir, "libdace_dev")
        if a.dace_gpu and "dace" in peers:
            row["dace_gpu"] = child(a, k, cdir, "dace_gpu")
        rows.append(row)
        print(json.dumps(row), flush=True)
    print("\n| kernel (%s) | libdace gpu.sdfg e2e ms | libdace auto gpu e2e ms | CuPy e2e ms | CuPy e2e / libdace best |"
          " libdace gpu.sdfg dev ms | CuPy dev ms | DaCe GPU dev ms | CuPy dev / libdace dev | DaCe dev / libdace dev |"
          % a.size)
    print("|---|---|---|---|---|---|---|---|---|---|")
    none = {"error": "not run"}
    for r in rows:
        for key in ("libdace_gpu_sdfg", "libdace_auto_gpu", "cupy", "libdace_dev", "dace_gpu"):
            r.setdefault(key, none)
        lib = [x["median_ms"] for x in (r["libdace_gpu_sdfg"], r["libdace_auto_gpu"])
               if "error" not in x and x.get("check") == "ok"]
        c = r["cupy"]
        ratio = "%.2f" % (c["median_ms"] / min(lib)) if lib and "error" not in c and c.get("check") == "ok" else "-"
        ld, dg = r["libdace_dev"], r["dace_gpu"]

        def dev_ratio(peer):
            good = all("error" not in x and x.get("check") == "ok" for x in (peer, ld))
            return "%.2f" % (peer["dev_ms"] / ld["dev_ms"]) if good else "-"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], fmt(r["libdace_gpu_sdfg"]), fmt(r["libdace_auto_gpu"]), fmt(c), ratio, fmt(ld, "dev_ms"),
            fmt(c, "dev_ms"), fmt(dg, "dev_ms"), dev_ratio(c), dev_ratio(dg)))
    for r in rows:
        for key in ("libdace_gpu_sdfg", "libdace_auto_gpu", "cupy", "libdace_dev", "dace_gpu"):
            if key in r and "error" in r[key] and r[key]["error"] != "not run":
                print("%s %s: %s" % (r["kernel"], key, r[key]["error"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
