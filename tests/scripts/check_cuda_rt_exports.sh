#!/usr/bin/env bash
# Export policy of libdace_cuda_rt.so (plugins/cuda/runtime/exports.map): exactly the C API of
# dace_cuda_runtime.h and dace_cuda_emulation.h, nothing else, and never the emulated device's
# test hooks dace_cuda_emu_inject_failure and dace_cuda_emu_inject_recoverable_failure (a
# shipped runtime takes no fault injection).
set -euo pipefail
lib="$1"
runtime_dir="$(dirname "$0")/../../plugins/cuda/runtime"
hooks="dace_cuda_emu_inject_failure dace_cuda_emu_inject_recoverable_failure"
syms="$(nm -D --defined-only "$lib" | awk '{print $3}' | sed 's/@.*//' | sort -u)"
[[ -n "$syms" ]] || { echo "no exported symbols found in $lib"; exit 1; }
bad=0
while read -r s; do
  [[ "$s" == dace_cuda_* ]] || { echo "unexpected export: $s"; bad=1; }
done <<< "$syms"
for hook in $hooks; do
  grep -qx "$hook" <<< "$syms" && { echo "the test hook $hook is exported"; bad=1; }
done
declared="$(grep -ohE '\bdace_cuda_[a-z0-9_]+\s*\(' "$runtime_dir/dace_cuda_runtime.h" "$runtime_dir/dace_cuda_emulation.h" |
  tr -d '( ' | sort -u)"
n=0
for fn in $declared; do
  [[ " $hooks " == *" $fn "* ]] && continue
  n=$((n + 1))
  grep -qx "$fn" <<< "$syms" || { echo "declared in the runtime headers but not exported: $fn"; bad=1; }
done
if [[ $bad -ne 0 ]]; then echo "cuda runtime exports: FAILED"; exit 1; fi
echo "cuda runtime exports: $n functions, no test hooks, policy ok"
