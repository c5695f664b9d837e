#!/usr/bin/env bash
# Builds libdace and runs the main demo (README's first command): a 3-D heat stencil built
# from C through the C API, JIT-compiled and checked against plain C; then the CLI on a
# DaCe-written SDFG. Extra arguments go to heat3d_demo (e.g. --n 96 --steps 100).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target dace_cli heat3d_demo
CORPUS="${LIBDACE_CORPUS_DIR:-../shared/sdfg-corpus}"
DACE="$BUILD_DIR/bin/dace"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "== heat-3D stencil: built in C through libdace.h, JIT-compiled, run, checked =="
"$BUILD_DIR/bin/heat3d_demo" "$@" "$tmp"
echo "== dace info on the SDFG the demo saved =="
"$DACE" info "$tmp/heat3d.sdfg"

echo "== a DaCe-written SDFG: validate, convert to .sdfgz, hash both =="
SDFG="$CORPUS/jacobi_2d/jacobi_2d.simp.sdfg"
"$DACE" validate "$SDFG"
"$DACE" convert "$SDFG" "$tmp/jacobi_2d.sdfgz"
echo "original : $("$DACE" hash "$SDFG")"
echo "converted: $("$DACE" hash "$tmp/jacobi_2d.sdfgz")"
