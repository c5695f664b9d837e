#!/usr/bin/env bash
# Builds libdace and its unit tests with sanitizers, each into its own build folder, and
# runs them (docs/reliability.md):
#   asan  address,undefined (build-asan): every unit test (gtest), LeakSanitizer included;
#   tsan  thread (build-tsan): the tests that share contexts, programs and the object cache
#         between threads, the tiered compile's background thread, the parallel compile of
#         module pieces and the CPU runtime's thread team;
#   ir    address,undefined with clang (build-fuzz, the fuzz build): the unit tests of the IR
#         and analysis layers (JSON, symbolic, tasklet, validation, sets) only. A fraction of
#         the cost of asan (no LLVM-heavy layers), for machines where the full run does not fit.
# Usage: scripts/sanitize.sh [asan|tsan|ir|all] [GTEST_FILTER]   (default all = asan + tsan;
# the filter narrows the asan and ir runs). Env: SANITIZE_JOBS (build jobs, default nproc).
# Exit 0 only when every selected run exited 0, ran at least one test and its log holds no
# sanitizer report (a report from a forked child whose exit the test ignored counts too).
set -uo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-all}"
FILTER="${2:-*}"
JOBS="${SANITIZE_JOBS:-$(nproc)}"
TSAN_FILTER='CApiProgramThreads.*:CApiProgramTiers.*:CApiProgramCache*:JitCache*:JitSplit*:PluginCpuRuntime*:ProgramBoundsCheck.OptionIsPartOfTheCacheKey'
REPORT='ERROR: (Address|Leak|Undefined|Thread)Sanitizer|runtime error:|WARNING: ThreadSanitizer|SUMMARY: [A-Za-z]+Sanitizer'
failed=0

build() {  # build DIR SANITIZERS
  local dir="$1" san="$2"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBDACE_WERROR=ON \
    -DLIBDACE_SANITIZE="$san" -DLIBDACE_CUDA=OFF >/dev/null || return 1
  cmake --build "$dir" -j "$JOBS" --target dace_unit_tests dace_plugin_cpu >/dev/null || return 1
}

build_ir() {  # the IR-layer tests in the clang fuzz build
  if ! command -v clang++-19 >/dev/null; then echo "skip: clang++-19 not found"; return 77; fi
  if [[ ! -f build-fuzz/build.ninja ]]; then
    CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DLIBDACE_FUZZ=ON -DLIBDACE_WERROR=ON -DBUILD_TESTING=OFF -DLIBDACE_CUDA=OFF >/dev/null || return 1
  fi
  cmake --build build-fuzz -j "$JOBS" --target dace_ir_unit_tests >/dev/null || return 1
}

run() {  # run NAME BINARY FILTER ENV...
  local name="$1" bin="$2" filter="$3"; shift 3
  local log; log="$(dirname "$(dirname "$bin")")/sanitize-${name//,/-}.log"
  local t0=$SECONDS
  env "$@" LIBDACE_CORPUS_DIR="$(pwd)/../shared/sdfg-corpus" \
    "$bin" --gtest_filter="$filter" --gtest_brief=1 >"$log" 2>&1
  local rc=$?
  local tests; tests=$(grep -Eo '\[==========\] [0-9]+ tests? from' "$log" | grep -Eo '[0-9]+' | tail -1)
  local reports; reports=$(grep -Ec "$REPORT" "$log")
  echo "$name: exit $rc, ${tests:-0} tests, $reports sanitizer report lines, $((SECONDS - t0)) s (log: $log)"
  if [[ $rc -ne 0 || $reports -ne 0 || ${tests:-0} -eq 0 ]]; then
    failed=1
    grep -m10 -E "$REPORT|FAILED" "$log"
  fi
}

ASAN_ENV=(ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:allocator_may_return_null=1
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
if [[ "$WHAT" == asan || "$WHAT" == all ]]; then
  build build-asan address,undefined || { echo "asan build failed"; exit 2; }
  # JIT'd code is not instrumented; allocator_may_return_null lets the hostile-size tests
  # see a failed allocation as the status it must become.
  run "address,undefined" build-asan/bin/dace_unit_tests "$FILTER" "${ASAN_ENV[@]}"
fi
if [[ "$WHAT" == ir ]]; then
  build_ir; rc=$?
  [[ $rc -eq 77 ]] && exit 77
  [[ $rc -ne 0 ]] && { echo "ir build failed"; exit 2; }
  run "ir-address,undefined" build-fuzz/bin/dace_ir_unit_tests "$FILTER" "${ASAN_ENV[@]}"
fi
if [[ "$WHAT" == tsan || "$WHAT" == all ]]; then
  build build-tsan thread || { echo "tsan build failed"; exit 2; }
  # LLVM's OpenMP runtime is not instrumented: its own synchronization is invisible to TSan,
  # so the runtime's parallel regions are suppressed (tests/sanitize/tsan.supp).
  run "thread" build-tsan/bin/dace_unit_tests "$TSAN_FILTER" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$(pwd)/tests/sanitize/tsan.supp"
fi
exit $failed
