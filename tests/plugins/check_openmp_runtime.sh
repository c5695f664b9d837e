#!/usr/bin/env bash
# The CPU plugin must depend on LLVM's libomp.so.5 and on no other OpenMP runtime (a second
# runtime in the process oversubscribes and crashes at exit: TOOLCHAIN.md).
set -euo pipefail
plugin="$1"
needed="$(readelf -d "$plugin" | awk '/NEEDED/ {print $NF}' | tr -d '[]')"
grep -qx 'libomp.so.5' <<< "$needed" || { echo "libomp.so.5 not in NEEDED of $plugin"; exit 1; }
if grep -Eq 'libgomp|libiomp' <<< "$needed"; then echo "second OpenMP runtime linked: $needed"; exit 1; fi
exported="$(nm -D --defined-only "$plugin" | awk '{print $3}')"
grep -qx 'dace_plugin_query' <<< "$exported" || { echo "dace_plugin_query not exported"; exit 1; }
grep -qx 'dace_cpu_parallel_for' <<< "$exported" || { echo "dace_cpu_parallel_for not exported"; exit 1; }
echo "cpu plugin: libomp.so.5 only, entry points exported"
