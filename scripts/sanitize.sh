#!/usr/bin/env bash
# Builds libdace and its unit tests with sanitizers, each into its own build folder, and
# runs them (docs/reliability.md):
#   address,undefined (build-asan): every unit test (gtest), LeakSanitizer included;
#   thread (build-tsan): the tests that share contexts, programs and the object cache
#     between threads, and the tiered compile's background thread.
# Usage: scripts/sanitize.sh [asan|tsan|all] [GTEST_FILTER]   (default all; the filter
# narrows the ASan run). Exit 0 when every selected run is clean.
set -uo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-all}"
FILTER="${2:-*}"
TSAN_FILTER='CApiProgramThreads.*:CApiProgramTiers.*:CApiProgramCache*:JitCache*:ProgramBoundsCheck.OptionIsPartOfTheCacheKey'
failed=0

build() {  # build DIR SANITIZERS
  local dir="$1" san="$2"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBDACE_WERROR=ON \
    -DLIBDACE_SANITIZE="$san" -DLIBDACE_CUDA=OFF >/dev/null || return 1
  cmake --build "$dir" -j "$(nproc)" --target dace_unit_tests dace_plugin_cpu >/dev/null || return 1
}

run() {  # run NAME DIR FILTER ENV...
  local name="$1" dir="$2" filter="$3"; shift 3
  local t0=$SECONDS
  env "$@" LIBDACE_CORPUS_DIR="$(pwd)/../shared/sdfg-corpus" \
    "$dir/bin/dace_unit_tests" --gtest_filter="$filter" --gtest_brief=1 >"$dir/sanitize.log" 2>&1
  local rc=$?
  local tests; tests=$(grep -Eo '\[==========\] [0-9]+ tests' "$dir/sanitize.log" | grep -Eo '[0-9]+' | tail -1)
  echo "$name: exit $rc, ${tests:-0} tests, $((SECONDS - t0)) s (log: $dir/sanitize.log)"
  if [[ $rc -ne 0 ]]; then
    failed=1
    grep -m10 -E 'ERROR: |runtime error:|WARNING: ThreadSanitizer|SUMMARY|FAILED' "$dir/sanitize.log"
  fi
}

if [[ "$WHAT" == asan || "$WHAT" == all ]]; then
  build build-asan address,undefined || { echo "asan build failed"; exit 2; }
  # JIT'd code is not instrumented; ASan must not take over SIGSEGV-based LLVM handlers.
  run "address,undefined" build-asan "$FILTER" \
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
if [[ "$WHAT" == tsan || "$WHAT" == all ]]; then
  build build-tsan thread || { echo "tsan build failed"; exit 2; }
  # LLVM's OpenMP runtime is not instrumented: its own synchronization is invisible to TSan,
  # so the runtime's parallel regions are suppressed (tests/sanitize/tsan.supp).
  run "thread" build-tsan "$TSAN_FILTER" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$(pwd)/tests/sanitize/tsan.supp"
fi
exit $failed
