#!/usr/bin/env bash
# The corpus's GPU SDFGs (DaCe 1.0.2's auto_optimize(GPU) output) that the CUDA plugin lowers
# run on the emulated device (DACE_CUDA_EMULATE=1: kernels built for the host, no driver) with
# `dace run --case` and must match the corpus's NumPy outputs. Every other *.gpu.sdfg must be
# refused with a message (exit 2), never crash. Skips (77) with the reason when the CUDA
# plugin was not built.
# usage: cuda_emulated_corpus.sh DACE_CLI CORPUS_DIR PLUGIN_DIR
set -uo pipefail
DACE="$1"; CORPUS="$2"; PLUGINS="$3"
SUPPORTED=(jacobi_2d heat_3d mandelbrot1 syrk go_fast crc16)
if [[ ! -f "$PLUGINS/libdace_plugin_cuda.so" ]]; then
  echo "SKIP: the CUDA plugin was not built (no CUDA toolkit): $PLUGINS/libdace_plugin_cuda.so"; exit 77
fi
status=0
for f in "$CORPUS"/*/*.gpu.sdfg; do
  k="$(basename "$f" .gpu.sdfg)"
  supported=0
  for s in "${SUPPORTED[@]}"; do [[ "$s" == "$k" ]] && supported=1; done
  out="$(DACE_CUDA_EMULATE=1 timeout 300 "$DACE" run "$f" --case "$CORPUS/$k/case.json" 2>&1)"
  rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "ok $k: matches NumPy on the emulated device"
  elif [[ $supported -eq 1 || $rc -ne 2 ]]; then
    echo "FAIL $k: dace run exited $rc"; echo "$out" | grep -v ': ok$' | head -8 | sed 's/^/     /'; status=1
  else
    echo "refused $k: $(echo "$out" | grep -m1 -v '^$')"
  fi
done
exit $status
