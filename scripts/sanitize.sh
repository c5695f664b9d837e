#!/usr/bin/env bash
# Builds libdace and its unit tests with sanitizers, each into its own build folder, and
# runs them (docs/reliability.md):
#   asan  address,undefined (build-asan): every unit test (gtest), LeakSanitizer included;
#   tsan  thread (build-tsan): the tests that share contexts, programs, plugins and the object
#         cache between threads, the tiered compile's background thread, the parallel compile
#         of module pieces, the CPU runtime's thread team and the IR's lazily filled caches
#         (only their test files are compiled: TSAN_FILES);
#   ir    address,undefined with clang (build-fuzz, the fuzz build): the unit tests of the IR
#         and analysis layers (JSON, symbolic, tasklet, validation, sets; hostile and corpus
#         input included), the JSON reader's differential test (SANITIZE_DIFF_SECONDS of CPU,
#         default 60) and the four parser fuzz targets on their seeds and past findings, each
#         fuzzing SANITIZE_FUZZ_SECONDS (default 30; scripts/fuzz.sh). A fraction of the cost
#         of asan (no LLVM-heavy layers), for machines where the full run does not fit.
#   memcheck  Valgrind memcheck on the normal build (build/, no second build, so it fits a
#         loaded machine): the JSON reader's differential test (MEMCHECK_MUTANTS mutants,
#         default 300), the four parser fuzz targets' replaying builds on their past findings
#         and fixed-seed random input, the C API's hostile-input, load, SDFG and
#         status-contract tests and the C99 misuse program (tests/c/error_paths.c). Finds
#         invalid reads and writes, uses of uninitialised values and definite leaks; not
#         undefined behaviour (no UBSan) and not races (no TSan).
# Usage: scripts/sanitize.sh [asan|tsan|ir|memcheck|all] [GTEST_FILTER]   (default all = asan + tsan;
# the filter narrows the asan and ir runs). Env: SANITIZE_JOBS (build jobs, default nproc);
# SANITIZE_TEST_FILES (asan only; default all): the unit test files to compile, as stems separated
# by ';' (e.g. the files changed since the last full run, where a full build does not fit);
# SANITIZE_SHARDS (default 1): the asan gtest run as that many gtest shards at once, each with
# its own HOME, TMPDIR and XDG_CACHE_HOME and its own log (what makes the run fit on a
# many-core machine); SANITIZE_SHARD_SECONDS (default 0 = none): a time limit per shard.
# Exit 0 only when every selected run exited 0, ran at least one test and its log holds no
# sanitizer report (a report from a forked child whose exit the test ignored counts too).
set -uo pipefail
cd "$(dirname "$0")/.."
WHAT="${1:-all}"
FILTER="${2:-*}"
JOBS="${SANITIZE_JOBS:-$(nproc)}"
# The tsan build compiles only the test files that start threads or share contexts, programs,
# plugins and caches between them (LIBDACE_UNIT_TEST_FILES), and runs all their tests but those
# that set RLIMIT_AS (TSan's shadow memory needs more address space than they allow; one of
# them also starts threads in a child forked from the threaded test runner, which TSan refuses).
TSAN_FILES='capi_program_cache_test;capi_program_threads_test;capi_program_tiers_test;jit_cache_test;jit_split_test;jit_session_test;plugin_cpu_runtime_test;plugin_cpu_placement_test;plugin_loader_test;plugin_registry_test;program_bounds_check_test;ir_scope_cache_test;symbolic_construct_test;capi_sdfg_test;capi_hostile_input_test;capi_render_test;codegen_scope_block_reuse_test;json_read_ahead_test'
TSAN_FILTER='*-*UnderAddressSpaceLimit*:CApiHostileInput.AllocationFailure*:PluginCpuRuntime.HelpersThatCannotStartLeaveTheWorkToTheCaller'
REPORT='ERROR: (Address|Leak|Undefined|Thread)Sanitizer|runtime error:|WARNING: ThreadSanitizer|SUMMARY: [A-Za-z]+Sanitizer'
failed=0

build() {  # build DIR SANITIZERS [UNIT_TEST_FILES]
  local dir="$1" san="$2" files="${3:-}"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBDACE_WERROR=ON \
    -DLIBDACE_SANITIZE="$san" -DLIBDACE_CUDA=OFF -DLIBDACE_UNIT_TEST_FILES="$files" >/dev/null || return 1
  cmake --build "$dir" -j "$JOBS" --target dace_unit_tests dace_plugin_cpu >/dev/null || return 1
}

build_ir() {  # the IR-layer tests in the clang fuzz build
  if ! command -v clang++-19 >/dev/null; then echo "skip: clang++-19 not found"; return 77; fi
  if [[ ! -f build-fuzz/build.ninja ]]; then
    CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DLIBDACE_FUZZ=ON -DLIBDACE_WERROR=ON -DBUILD_TESTING=OFF -DLIBDACE_CUDA=OFF >/dev/null || return 1
  fi
  cmake --build build-fuzz -j "$JOBS" --target dace_ir_unit_tests json_fast_path_diff_sanitized >/dev/null || return 1
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

# run_sharded NAME BINARY FILTER SHARDS ENV...: `run`, as SHARDS gtest shards at once. Each shard
# has a HOME, TMPDIR and XDG_CACHE_HOME of its own (the object cache, scratch files and FIFOs of
# one shard never meet another's) and a log of its own; without --gtest_brief, so that a shard
# stopped by SANITIZE_SHARD_SECONDS names the test it was in (the last test that started and
# did not end).
# stopped_where LOG: the test a stopped gtest run was in — the last one that started and did not
# end — or, when the last test had ended, that it stopped between tests after that one.
stopped_where() {
  local last; last=$(grep -E '^\[ *(RUN|OK|FAILED|SKIPPED) *\] ' "$1" | tail -1)
  case "$last" in
    "[ RUN"*) echo "in: ${last#*] }" ;;
    "") echo "before its first test" ;;
    *) echo "between tests, after: ${last#*] }" ;;
  esac
}

run_sharded() {
  local name="$1" bin="$2" filter="$3" shards="$4"; shift 4
  local dir; dir="$(dirname "$(dirname "$bin")")/sanitize-shards"
  local limit="${SANITIZE_SHARD_SECONDS:-0}" t0=$SECONDS k
  rm -rf "$dir" && mkdir -p "$dir"
  for ((k = 0; k < shards; ++k)); do
    mkdir -p "$dir/s$k/home" "$dir/s$k/tmp" "$dir/s$k/cache"
    (
      local -a limiter=()
      [[ "$limit" -gt 0 ]] && limiter=(timeout -k 10 "$limit")
      env "$@" GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$k" HOME="$dir/s$k/home" \
        TMPDIR="$dir/s$k/tmp" XDG_CACHE_HOME="$dir/s$k/cache" \
        LIBDACE_CORPUS_DIR="$(pwd)/../shared/sdfg-corpus" \
        "${limiter[@]}" "$bin" --gtest_filter="$filter" >"$dir/s$k.log" 2>&1
      echo $? >"$dir/s$k.rc"
    ) &
  done
  wait
  local total=0 bad=0 tests reports rc
  for ((k = 0; k < shards; ++k)); do
    local log="$dir/s$k.log"
    rc=$(cat "$dir/s$k.rc")
    tests=$(grep -Eo '\[==========\] [0-9]+ tests? from' "$log" | grep -Eo '[0-9]+' | tail -1)
    reports=$(grep -Ec "$REPORT" "$log")
    total=$((total + ${tests:-0}))
    if [[ $rc -ne 0 || $reports -ne 0 ]]; then  # a shard may hold none of a narrow filter's tests
      bad=$((bad + 1))
      echo "$name shard $k: exit $rc, ${tests:-0} tests, $reports sanitizer report lines (log: $log)"
      [[ $rc -eq 124 || $rc -eq 137 ]] && echo "  stopped after ${limit} s $(stopped_where "$log")"
      grep -m10 -E "$REPORT|FAILED" "$log"
    fi
  done
  echo "$name: $shards shards, $total tests, $bad shard(s) failed, $((SECONDS - t0)) s (logs: $dir)"
  [[ $bad -ne 0 || $total -eq 0 ]] && failed=1
}

# Graphviz's dot layout leaks memory of its own (tests/sanitize/lsan.supp says what and why);
# the suppressions reach the processes tests start (`dace render`) through the environment.
ASAN_ENV=(ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:allocator_may_return_null=1
          LSAN_OPTIONS="suppressions=$(pwd)/tests/sanitize/lsan.supp:print_suppressions=0"
          UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
if [[ "$WHAT" == asan || "$WHAT" == all ]]; then
  build build-asan address,undefined "${SANITIZE_TEST_FILES:-}" || { echo "asan build failed"; exit 2; }
  # JIT'd code is not instrumented; allocator_may_return_null lets the hostile-size tests
  # see a failed allocation as the status it must become.
  if [[ "${SANITIZE_SHARDS:-1}" -gt 1 ]]; then
    run_sharded "address,undefined" build-asan/bin/dace_unit_tests "$FILTER" "$SANITIZE_SHARDS" "${ASAN_ENV[@]}"
  else
    run "address,undefined" build-asan/bin/dace_unit_tests "$FILTER" "${ASAN_ENV[@]}"
  fi
fi
if [[ "$WHAT" == ir ]]; then
  build_ir; rc=$?
  [[ $rc -eq 77 ]] && exit 77
  [[ $rc -ne 0 ]] && { echo "ir build failed"; exit 2; }
  run "ir-address,undefined" build-fuzz/bin/dace_ir_unit_tests "$FILTER" "${ASAN_ENV[@]}"
  log=build-fuzz/sanitize-json-diff.log; t0=$SECONDS
  env "${ASAN_ENV[@]}" build-fuzz/bin/json_fast_path_diff_sanitized --cpu-seconds "${SANITIZE_DIFF_SECONDS:-60}" \
    --findings build-fuzz/out/json-diff-findings ../shared/sdfg-corpus tests/data >"$log" 2>&1
  rc=$?; reports=$(grep -Ec "$REPORT" "$log")
  echo "json differential: exit $rc, $reports sanitizer report lines, $((SECONDS - t0)) s: $(tail -1 "$log")"
  [[ $rc -ne 0 || $reports -ne 0 ]] && { failed=1; grep -m10 -E "$REPORT|DIFFERENCE" "$log"; }
  scripts/fuzz.sh "${SANITIZE_FUZZ_SECONDS:-30}" sdfg_reader symbolic tasklet memlet || failed=1
fi
memcheck() {  # memcheck NAME COMMAND...
  local name="$1"; shift
  local log="build/memcheck-$name.log" t0=$SECONDS
  valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
    --show-leak-kinds=definite "$@" >"$log" 2>&1
  local rc=$?
  # Forked children (tests that fork) print summaries of their own: every one must be 0.
  local dirty; dirty=$(grep -E 'ERROR SUMMARY: [1-9]' "$log" | wc -l)
  local summaries; summaries=$(grep -c 'ERROR SUMMARY:' "$log")
  echo "memcheck $name: exit $rc, $summaries processes, $dirty with errors, $((SECONDS - t0)) s (log: $log)"
  if [[ $rc -ne 0 || $dirty -ne 0 || $summaries -eq 0 ]]; then
    failed=1
    grep -m10 -E 'Invalid|uninitialised|definitely lost|FAILED|DIFFERENCE|finding' "$log"
  fi
}
if [[ "$WHAT" == memcheck ]]; then
  command -v valgrind >/dev/null || { echo "skip: valgrind not found"; exit 77; }
  [[ -f build/build.ninja ]] || { echo "memcheck needs the normal build in build/"; exit 2; }
  cmake --build build -j "$JOBS" --target json_fast_path_diff fuzz_replay_sdfg_reader fuzz_replay_symbolic \
    fuzz_replay_tasklet fuzz_replay_memlet dace_unit_tests c_error_paths dace_plugin_cpu >/dev/null ||
    { echo "build failed"; exit 2; }
  memcheck json-diff build/bin/json_fast_path_diff --max-mutants "${MEMCHECK_MUTANTS:-300}" --cpu-seconds 100000 \
    ../shared/sdfg-corpus tests/data
  memcheck fuzz-sdfg_reader build/bin/fuzz_replay_sdfg_reader fuzz/regressions/sdfg_reader --random 30 512
  for t in symbolic tasklet memlet; do
    memcheck "fuzz-$t" "build/bin/fuzz_replay_$t" "fuzz/regressions/$t" --random 2000 64
  done
  # The RLIMIT_AS tests are left out: valgrind maps the address space itself, so the limit
  # stops valgrind, not the allocation under test (as under ASan, where they skip).
  # Exported, not `env` under valgrind: valgrind would check env, not the program it starts.
  export LIBDACE_CORPUS_DIR="$(pwd)/../shared/sdfg-corpus" DACE_PLUGIN_PATH="$(pwd)/build/lib/libdace/plugins"
  memcheck capi build/bin/dace_unit_tests --gtest_brief=1 --gtest_filter="${2:-CApiHostileInput.*:CapiStatusContract.*:CapiLoad.*:CapiSdfg.*:JsonHostileRoundTrip.*-*UnderAddressSpaceLimit*:CApiHostileInput.AllocationFailure*}"
  mkdir -p build/memcheck-c && memcheck c-error-paths build/bin/c_error_paths build/memcheck-c
fi
if [[ "$WHAT" == tsan || "$WHAT" == all ]]; then
  build build-tsan thread "$TSAN_FILES" || { echo "tsan build failed"; exit 2; }
  # LLVM's OpenMP runtime is not instrumented: its own synchronization is invisible to TSan,
  # so the runtime's parallel regions are suppressed (tests/sanitize/tsan.supp).
  run "thread" build-tsan/bin/dace_unit_tests "$TSAN_FILTER" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$(pwd)/tests/sanitize/tsan.supp"
fi
exit $failed
