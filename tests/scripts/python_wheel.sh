#!/usr/bin/env bash
# `pip install` of the wheel that carries libdace.so (pyproject.toml at the repository root,
# scikit-build-core): build the wheel, install it into a fresh virtual environment, and from
# another folder, with no LIBDACE_* or PYTHONPATH variable, import libdace and run corpus
# kernels against their stored NumPy outputs. The package must load the library it carries
# (site-packages/libdace/_lib), not the build tree's, and find the CPU plugin next to it (and,
# with Graphviz, the renderer module: SDFG.render()).
# Usage: python_wheel.sh <repo> <scratch dir> <corpus dir>. Exit 77 (skip) without
# python3-venv / NumPy or when scikit-build-core cannot be had from PyPI.
set -euo pipefail
repo="$1"; tmp="$2"; corpus="$3"
py=/usr/bin/python3
if ! "$py" -c 'import numpy, venv' 2>/dev/null; then
  echo "skipped: $py lacks numpy or venv (scripts/setup.sh installs python3-numpy, python3-venv)"
  exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp"
"$py" -m venv "$tmp/build-venv"
if ! "$tmp/build-venv/bin/pip" install -q "scikit-build-core>=0.10" >"$tmp/pip.log" 2>&1; then
  echo "skipped: scikit-build-core could not be installed from PyPI:"; tail -3 "$tmp/pip.log"
  exit 77
fi
# The wheel's build folder is <repo>/build-wheel: its objects come from ccache (same flags
# and depth as build/, and the same compilers as scripts/test.sh: scikit-build-core would
# otherwise take the target-prefixed names from Python's build configuration), so this costs
# a link, not a rebuild.
CC=cc CXX=c++ FC=gfortran "$tmp/build-venv/bin/pip" wheel "$repo" -w "$tmp/dist" --no-deps --no-build-isolation -q
wheel=$(ls "$tmp"/dist/libdace-*.whl)
echo "wheel: $(basename "$wheel") ($(du -h "$wheel" | cut -f1))"
# With Graphviz (libgvc) on this machine, the build makes the renderer module, which the wheel
# must carry next to the plugins folder so that SDFG.render() works from the installed package.
render=0
if pkg-config --exists libgvc 2>/dev/null; then render=1; else echo "note: no Graphviz (libgvc): SDFG.render() from the wheel not checked"; fi
"$py" - "$wheel" "$render" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["libdace/__init__.py", "libdace/_lib/libdace.so.0", "libdace/_lib/libdace/plugins/libdace_plugin_cpu.so"]
if sys.argv[2] == "1":
    need.append("libdace/_lib/libdace/libdace_render.so")
missing = [n for n in need if n not in names]
assert not missing, f"wheel lacks {missing}"
stray = [n for n in names if not n.startswith(("libdace/", "libdace-"))]
assert not stray, f"wheel holds files outside the package: {stray[:5]}"
print(f"wheel holds {len(names)} files, all in the package")
PY
# --system-site-packages: NumPy from Debian, so the install itself needs no network.
"$py" -m venv --system-site-packages "$tmp/venv"
"$tmp/venv/bin/pip" install -q --no-deps --no-index "$wheel"
cd "$tmp"
env -u LIBDACE_LIBRARY -u LIBDACE_BUILD_DIR -u PYTHONPATH -u DACE_PLUGIN_PATH \
  "$tmp/venv/bin/python" - "$corpus" "$render" <<'PY'
import json, os, sys
import numpy as np
import libdace
from libdace import _loader

corpus = sys.argv[1]
loaded = libdace._capi.lib._name
assert "/venv/" in libdace.__file__, libdace.__file__
assert loaded.endswith("site-packages/libdace/_lib/libdace.so.0"), f"loaded {loaded}, not the wheel's library"
print("loads", loaded)
for kernel in ("jacobi_2d", "gemm", "softmax"):
    folder = os.path.join(corpus, kernel)
    with open(os.path.join(folder, "case.json")) as f:
        case = json.load(f)
    with libdace.SDFG.from_file(os.path.join(folder, f"{kernel}.simp.sdfg")) as sdfg:
        free = set(sdfg.free_symbols())
        with sdfg.compile() as prog:
            kwargs = {}
            for name, rel in case["inputs"].items():
                value = np.load(os.path.join(folder, rel))
                kwargs[name] = value.item() if value.ndim == 0 and (name in free or name not in sdfg.arrays) else value
            for name, value in case.get("symbols", {}).items():
                if name in {a.name for a in prog.arguments}:
                    kwargs.setdefault(name, value)
            result = prog(**kwargs)
            returns = prog.return_names
            results = {returns[0]: result} if len(returns) == 1 else dict(zip(returns, result or ()))
            for name, rel in case["expected_outputs"].items():
                expected = np.load(os.path.join(folder, rel))
                got = results[name] if name.startswith("__return") else kwargs[name]
                np.testing.assert_allclose(got, expected, rtol=case["rtol"], atol=case["atol"])
    print(f"{kernel}: matches the stored NumPy outputs")
if sys.argv[2] == "1":
    # The renderer module the wheel carries, found by libdace next to itself.
    with libdace.SDFG.from_file(os.path.join(corpus, "gemm", "gemm.simp.sdfg")) as sdfg:
        svg, page = sdfg.render(), sdfg.render(format="html")
    assert svg.startswith("<?xml") and "sdfg&#45;tasklet" in svg, svg[:200]
    assert page.startswith("<!DOCTYPE html>") and svg[svg.index("<svg"):] in page
    print(f"gemm: rendered ({len(svg)} bytes of SVG) by the wheel's libdace_render.so")
PY
echo "python_wheel: ok"
