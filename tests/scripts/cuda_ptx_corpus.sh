#!/usr/bin/env bash
# The corpus's GPU SDFGs (DaCe 1.0.2's auto_optimize(GPU) output) that the CUDA plugin lowers
# compile to PTX with `dace compile --ptx-out`, and ptxas accepts that PTX for sm_80 and sm_90.
# Each file of SUPPORTED must compile; every other *.gpu.sdfg must either compile too or be
# refused with a message (exit 2), never crash. Skips (77) with the reason when the CUDA
# plugin was not built or ptxas is absent.
# The same for every corpus raw SDFG after `dace optimize --auto gpu` (GPUTransformSDFG):
# AUTO_SUPPORTED must produce accepted PTX; the others must be refused with a message.
# usage: cuda_ptx_corpus.sh DACE_CLI CORPUS_DIR TMP_DIR PLUGIN_DIR
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"; PLUGINS="$4"
SUPPORTED=(jacobi_2d heat_3d mandelbrot1 syrk crc16 go_fast softmax gemm atax doitgen)
AUTO_SUPPORTED=(crc16 go_fast jacobi_2d heat_3d syrk mandelbrot1 softmax gemm atax doitgen)
PTXAS="${DACE_PTXAS:-/usr/local/cuda/bin/ptxas}"
if [[ ! -f "$PLUGINS/libdace_plugin_cuda.so" ]]; then
  echo "SKIP: the CUDA plugin was not built (no CUDA toolkit): $PLUGINS/libdace_plugin_cuda.so"; exit 77
fi
if [[ ! -x "$PTXAS" ]]; then echo "SKIP: ptxas not found at $PTXAS (set DACE_PTXAS)"; exit 77; fi
rm -rf "$TMP"; mkdir -p "$TMP"
status=0
for f in "$CORPUS"/*/*.gpu.sdfg; do
  k="$(basename "$f" .gpu.sdfg)"
  supported=0
  for s in "${SUPPORTED[@]}"; do [[ "$s" == "$k" ]] && supported=1; done
  out="$TMP/$k"
  "$DACE" compile "$f" --ptx-out "$out" >"$TMP/$k.log" 2>&1
  rc=$?
  if [[ $rc -ne 0 ]]; then
    if [[ $rc -ge 128 || $supported -eq 1 ]]; then
      echo "FAIL $k: dace compile exited $rc"; cat "$TMP/$k.log"; status=1
    else
      echo "refused $k: $(grep -m1 -v '^$' "$TMP/$k.log")"
    fi
    continue
  fi
  for ptx in "$out"/*.ptx; do
    accepted=1
    for arch in sm_80 sm_90; do
      if ! "$PTXAS" -arch=$arch -o /dev/null "$ptx" >"$TMP/$k.$arch.log" 2>&1; then
        echo "FAIL $k: ptxas -arch=$arch rejects $ptx"; cat "$TMP/$k.$arch.log"; status=1; accepted=0
      fi
    done
    [[ $accepted -eq 1 ]] && echo "ok $k: $(grep -c '^.visible .entry' "$ptx") kernel(s), ptxas sm_80 and sm_90 accept it"
  done
done
for f in "$CORPUS"/*/*.raw.sdfg; do
  k="$(basename "$f" .raw.sdfg)"
  supported=0
  for s in "${AUTO_SUPPORTED[@]}"; do [[ "$s" == "$k" ]] && supported=1; done
  if ! "$DACE" optimize "$f" -o "$TMP/$k.auto_gpu.sdfg" --auto gpu >"$TMP/$k.auto.log" 2>&1; then
    echo "FAIL $k: dace optimize --auto gpu failed"; cat "$TMP/$k.auto.log"; status=1; continue
  fi
  out="$TMP/$k.auto"
  "$DACE" compile "$TMP/$k.auto_gpu.sdfg" --ptx-out "$out" >"$TMP/$k.auto.log" 2>&1
  rc=$?
  if [[ $rc -ne 0 ]]; then
    if [[ $rc -ge 128 || $supported -eq 1 ]]; then
      echo "FAIL $k (--auto gpu): dace compile exited $rc"; cat "$TMP/$k.auto.log"; status=1
    else
      echo "refused $k (--auto gpu): $(grep -m1 -v '^$' "$TMP/$k.auto.log")"
    fi
    continue
  fi
  for ptx in "$out"/*.ptx; do
    accepted=1
    for arch in sm_80 sm_90; do
      if ! "$PTXAS" -arch=$arch -o /dev/null "$ptx" >"$TMP/$k.auto.$arch.log" 2>&1; then
        echo "FAIL $k (--auto gpu): ptxas -arch=$arch rejects $ptx"; cat "$TMP/$k.auto.$arch.log"; status=1; accepted=0
      fi
    done
    [[ $accepted -eq 1 ]] && echo "ok $k (--auto gpu): $(grep -c '^.visible .entry' "$ptx") kernel(s), ptxas sm_80 and sm_90 accept it"
  done
done
exit $status
