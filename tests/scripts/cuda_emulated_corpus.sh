#!/usr/bin/env bash
# The corpus's GPU SDFGs (DaCe 1.0.2's auto_optimize(GPU) output) that the CUDA plugin lowers
# run on the emulated device (DACE_CUDA_EMULATE=1: kernels built for the host, no driver) with
# `dace run --case` and must match the corpus's NumPy outputs. Every other *.gpu.sdfg must be
# refused with a message (exit 2), never crash. Skips (77) with the reason when the CUDA
# plugin was not built.
# The same for every corpus raw SDFG after `dace optimize --auto gpu` (GPUTransformSDFG and
# auto_optimize for the GPU): AUTO_SUPPORTED must match NumPy on the emulated device, the
# others must be refused with a message (exit 2).
# MODE device (ctest cuda.device_corpus) runs the same programs on the GPU instead (no
# emulation: PTX launched through the driver) with the same expectations; it skips (77) with
# the runtime's reason when there is no CUDA driver or no GPU.
# usage: cuda_emulated_corpus.sh DACE_CLI CORPUS_DIR PLUGIN_DIR TMP_DIR [emulated|device]
set -uo pipefail
DACE="$1"; CORPUS="$2"; PLUGINS="$3"; TMP="$4"; MODE="${5:-emulated}"
SUPPORTED=(jacobi_2d heat_3d mandelbrot1 syrk go_fast crc16 softmax gemm atax doitgen)
AUTO_SUPPORTED=(crc16 go_fast jacobi_2d heat_3d syrk mandelbrot1 softmax gemm atax doitgen)
if [[ ! -f "$PLUGINS/libdace_plugin_cuda.so" ]]; then
  echo "SKIP: the CUDA plugin was not built (no CUDA toolkit): $PLUGINS/libdace_plugin_cuda.so"; exit 77
fi
case "$MODE" in
  emulated) WHERE="the emulated device"; run_dace() { DACE_CUDA_EMULATE=1 timeout 300 "$DACE" "$@"; } ;;
  device) WHERE="the GPU"; run_dace() { env -u DACE_CUDA_EMULATE timeout 300 "$DACE" "$@"; } ;;
  *) echo "unknown mode $MODE (emulated or device)"; exit 2 ;;
esac
if [[ "$MODE" == device ]]; then
  # A program with kernels initializes the device first; without one the runtime says why
  # ("libdace cuda: no CUDA driver: ..." / "no CUDA device ...") and the call fails.
  probe="$(run_dace run "$CORPUS/jacobi_2d/jacobi_2d.gpu.sdfg" --case "$CORPUS/jacobi_2d/case.json" 2>&1)"
  why="$(echo "$probe" | grep -m1 -o 'libdace cuda: no CUDA.*')"
  if [[ -n "$why" ]]; then echo "SKIP: not run on a GPU: ${why#libdace cuda: }"; exit 77; fi
fi
status=0
for f in "$CORPUS"/*/*.gpu.sdfg; do
  k="$(basename "$f" .gpu.sdfg)"
  supported=0
  for s in "${SUPPORTED[@]}"; do [[ "$s" == "$k" ]] && supported=1; done
  out="$(run_dace run "$f" --case "$CORPUS/$k/case.json" 2>&1)"
  rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "ok $k: matches NumPy on $WHERE"
  elif [[ $supported -eq 1 || $rc -ne 2 ]]; then
    echo "FAIL $k: dace run exited $rc"; echo "$out" | grep -v ': ok$' | head -8 | sed 's/^/     /'; status=1
  else
    echo "refused $k: $(echo "$out" | grep -m1 -v '^$')"
  fi
done
rm -rf "$TMP"; mkdir -p "$TMP"
for f in "$CORPUS"/*/*.raw.sdfg; do
  k="$(basename "$f" .raw.sdfg)"
  supported=0
  for s in "${AUTO_SUPPORTED[@]}"; do [[ "$s" == "$k" ]] && supported=1; done
  if ! "$DACE" optimize "$f" -o "$TMP/$k.auto_gpu.sdfg" --auto gpu >"$TMP/$k.auto.log" 2>&1; then
    echo "FAIL $k: dace optimize --auto gpu failed"; cat "$TMP/$k.auto.log"; status=1; continue
  fi
  # The optimized SDFG must really run on the device: its data in GPU_Global memory.
  if [[ $supported -eq 1 ]] && ! grep -q '"storage": "GPU_Global"' "$TMP/$k.auto_gpu.sdfg"; then
    echo "FAIL $k (--auto gpu): no GPU_Global container in the optimized SDFG"; status=1; continue
  fi
  out="$(run_dace run "$TMP/$k.auto_gpu.sdfg" --case "$CORPUS/$k/case.json" 2>&1)"
  rc=$?
  if [[ $rc -eq 0 ]]; then
    echo "ok $k (--auto gpu): matches NumPy on $WHERE"
  elif [[ $supported -eq 1 || $rc -ne 2 ]]; then
    echo "FAIL $k (--auto gpu): dace run exited $rc"; echo "$out" | grep -v ': ok$' | head -8 | sed 's/^/     /'; status=1
  else
    echo "refused $k (--auto gpu): $(echo "$out" | grep -m1 -v '^$')"
  fi
done
exit $status
