#!/usr/bin/env bash
# `pip install` of bindings/python into a fresh virtual environment, then the Python example
# run from another folder with no LIBDACE_LIBRARY / PYTHONPATH: the installed package must
# find libdace.so from what it recorded at install time.
# Usage: python_install.sh <libdace.so> <repo> <scratch dir>. Exit 77 (skip) without
# python3-venv or NumPy.
set -euo pipefail
lib="$1"; repo="$2"; tmp="$3"
py=/usr/bin/python3
if ! "$py" -c 'import numpy, venv' 2>/dev/null; then
  echo "skipped: $py lacks numpy or venv (scripts/setup.sh installs python3-numpy, python3-venv)"
  exit 77
fi
rm -rf "$tmp" && mkdir -p "$tmp"
# Build from a copy: setuptools writes build/ and *.egg-info next to the sources.
cp -r "$repo/bindings/python" "$tmp/src"
"$py" -m venv --system-site-packages "$tmp/venv"
LIBDACE_LIBRARY="$lib" "$tmp/venv/bin/pip" install -q --no-build-isolation --no-deps --no-index "$tmp/src"
cd "$tmp"
env -u LIBDACE_LIBRARY -u LIBDACE_BUILD_DIR -u PYTHONPATH "$tmp/venv/bin/python" - <<'PY'
import libdace, os
loaded = libdace._capi.lib._name
print("installed package loads", loaded)
assert "/venv/" in libdace.__file__, libdace.__file__
PY
env -u LIBDACE_LIBRARY -u LIBDACE_BUILD_DIR -u PYTHONPATH "$tmp/venv/bin/python" "$repo/examples/python/scale_jacobi.py"
echo "python_install: ok"
