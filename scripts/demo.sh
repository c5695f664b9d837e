#!/usr/bin/env bash
# Builds libdace and runs the main demo (README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target dace_cli c_stencil_time_loop
CORPUS="${LIBDACE_CORPUS_DIR:-../shared/sdfg-corpus}"
DACE="$BUILD_DIR/bin/dace"
echo "== dace info (a DaCe-written SDFG) =="
"$DACE" info "$CORPUS/jacobi_2d/jacobi_2d.simp.sdfg"
echo "== dace validate =="
"$DACE" validate "$CORPUS/jacobi_2d/jacobi_2d.simp.sdfg"
echo "== dace convert to .sdfgz and hash both =="
tmp="$(mktemp -d)"
"$DACE" convert "$CORPUS/jacobi_2d/jacobi_2d.simp.sdfg" "$tmp/jacobi_2d.sdfgz"
echo "original : $("$DACE" hash "$CORPUS/jacobi_2d/jacobi_2d.simp.sdfg")"
echo "converted: $("$DACE" hash "$tmp/jacobi_2d.sdfgz")"
echo "== an SDFG built from C through the C API (Jacobi 2-D with a time loop) =="
"$BUILD_DIR/bin/c_stencil_time_loop" "$tmp"
"$DACE" info "$tmp/stencil_time_loop.sdfg" 2>/dev/null || true
rm -rf "$tmp"
