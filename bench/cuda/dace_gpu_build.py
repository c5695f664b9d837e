#!/usr/bin/env python3
"""Builds DaCe 1.0.2's own GPU libraries of the corpus *.gpu.sdfg (nvcc, no GPU needed) for
gpu_peers.py --dace-gpu DIR: DIR/lib<kernel>.so plus DIR/manifest.json, which records each library's
program name and the C parameter lists of __dace_init_<name> and __program_<name> as DaCe generated
them (read from the generated source), so the GPU machine needs neither DaCe nor nvcc.

  .venv-dace/bin/python dace_gpu_build.py --out DIR [--corpus CORPUS] [--arch 90] [--kernels a,b]
"""
import argparse
import glob
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import peers_runtime as pr  # noqa: E402

EXPORT = re.compile(r"DACE_EXPORTED\s+[\w\s\*]*?\b(__program_|__dace_init_)(\w+)\s*\(([^)]*)\)\s*\{", re.S)


def parse_params(text, skip_state):
    params = []
    for raw in [p.strip() for p in text.split(",") if p.strip()]:
        is_ptr = "*" in raw
        name = re.findall(r"(\w+)\s*$", raw)[0]
        ctype = re.sub(r"\b(const|__restrict__)\b|\*", " ", raw[:raw.rfind(name)])
        ctype = " ".join(ctype.split())
        params.append([ctype, name, is_ptr])
    return params[1:] if skip_state else params


def build(kernel, corpus, out, arch):
    import dace
    sdfg = dace.SDFG.from_file(os.path.join(corpus, kernel, kernel + ".gpu.sdfg"))
    dace.Config.set("compiler", "cuda", "cuda_arch", value=arch)
    dace.Config.set("compiler", "build_type", value="Release")
    # CUDA 13's headers need C++17 (DaCe 1.0.2 asks for C++14); the library runs on another machine,
    # so no -march=native. DaCe's other flags (-O3, fast math) stay: DaCe at its defaults.
    for section in ("cpu", "cuda"):
        flags = dace.Config.get("compiler", section, "args").replace("c++14", "c++17")
        flags = flags.replace("-Xcompiler -march=native", "").replace("-march=native", "")
        dace.Config.set("compiler", section, "args", value=" ".join(flags.split()))
    # DaCe's CMakeLists pins C++14 after our flags, and DaCe 1.0.2's runtime headers use three CUB names
    # that CUDA 13's CUB dropped. A compiler launcher lifts the standard to C++17 and, for .cu
    # sources, force-includes a header giving those names back (the same operations under their new
    # names); nothing else changes.
    compat = os.path.join(out, "cub_compat.cuh")
    with open(compat, "w") as f:
        f.write("#pragma once\n#include <cub/cub.cuh>\n#include <thrust/iterator/counting_iterator.h>\n"
                "#include <thrust/iterator/transform_iterator.h>\n"
                "#ifndef CTA_SYNC\n#define CTA_SYNC() __syncthreads()\n#endif\n"
                "namespace cub { template <typename T> using CountingInputIterator = thrust::counting_iterator<T>;\n"
                "template <typename V, typename Op, typename It>\n"
                "using TransformInputIterator = thrust::transform_iterator<Op, It, V>; }\n")
    launcher = os.path.join(out, "std17.sh")
    with open(launcher, "w") as f:
        f.write('#!/bin/sh\nc="$1"; shift; inc=""\n'
                'for x; do shift; [ "$x" = -std=c++14 ] && x=-std=c++17; case "$x" in *.cu) inc=1;; esac; '
                'set -- "$@" "$x"; done\n'
                '[ -n "$inc" ] && set -- -include %s "$@"\nexec "$c" "$@"\n' % compat)
    os.chmod(launcher, 0o755)
    dace.Config.set("compiler", "extra_cmake_args",
                    value="-DCMAKE_CUDA_COMPILER_LAUNCHER=%s -DCMAKE_CXX_COMPILER_LAUNCHER=%s" % (launcher, launcher))
    folder = os.path.join(out, "build", kernel)
    sdfg.build_folder = folder
    sdfg.compile()
    libs = glob.glob(os.path.join(folder, "build", "lib%s.so" % sdfg.name))  # not libdacestub_*.so
    if not libs:
        raise RuntimeError("no library lib%s.so in %s" % (sdfg.name, folder))
    src = open(os.path.join(folder, "src", "cpu", sdfg.name + ".cpp")).read()
    found = {m.group(1): m.group(3) for m in EXPORT.finditer(src) if m.group(2) == sdfg.name}
    if set(found) != {"__program_", "__dace_init_"}:
        raise RuntimeError("exported entry points not found in the generated source")
    lib = "lib%s.so" % kernel
    shutil.copy(libs[0], os.path.join(out, lib))
    return {"lib": lib, "name": sdfg.name, "program": parse_params(found["__program_"], True),
            "init": parse_params(found["__dace_init_"], False)}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True)
    p.add_argument("--corpus", default=pr.CORPUS)
    p.add_argument("--arch", default="90")
    p.add_argument("--kernels", default="atax,crc16,doitgen,gemm,go_fast,heat_3d,jacobi_2d,mandelbrot1,softmax,syrk")
    a = p.parse_args(argv)
    sys.path.insert(0, os.path.dirname(HERE))
    from run_corpus_bench import patch_networkx_for_dace
    patch_networkx_for_dace()
    os.makedirs(a.out, exist_ok=True)
    manifest = {}
    for k in a.kernels.split(","):
        try:
            manifest[k] = build(k, a.corpus, a.out, a.arch)
            print("built", k, flush=True)
        except Exception as e:  # reported in the manifest; the bench prints it
            manifest[k] = {"error": "%s: %s" % (type(e).__name__, str(e)[:300])}
            print("failed", k, manifest[k]["error"], flush=True)
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
