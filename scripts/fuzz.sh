#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang-19, -fsanitize=fuzzer,address,undefined) into
# their own build folder and runs each for SECONDS seconds (default 60) on a corpus seeded
# from ../shared/sdfg-corpus (SDFG files; symbolic expressions, subsets, memlets and tasklet
# code taken from them). Prints one line per target: executions, seconds, findings; exits 1
# when a target found a crash, leak or broken invariant (the input is kept in fuzz-out/).
# Inputs of past findings are kept in fuzz/regressions/<target>/ and replayed by ctest
# (fuzz.replay.*); the corpora grown here stay in the build folder, out of git.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: sdfg_reader symbolic tasklet
# memlet capi_ops; default all). Env: FUZZ_BUILD_DIR (build-fuzz), FUZZ_OUT (build-fuzz/out).
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${1:-60}"; shift || true
TARGETS=("$@")
[[ ${#TARGETS[@]} -eq 0 ]] && TARGETS=(sdfg_reader symbolic tasklet memlet capi_ops)
BUILD="${FUZZ_BUILD_DIR:-build-fuzz}"
OUT="${FUZZ_OUT:-$BUILD/out}"
CORPUS_SRC="${LIBDACE_CORPUS_DIR:-$(pwd)/../shared/sdfg-corpus}"
if ! command -v clang++-19 >/dev/null; then echo "skip: clang++-19 not found"; exit 77; fi
if [[ ! -f "$BUILD/build.ninja" ]]; then
  CC=clang-19 CXX=clang++-19 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLIBDACE_FUZZ=ON -DLIBDACE_WERROR=ON -DBUILD_TESTING=OFF -DLIBDACE_CUDA=OFF >/dev/null || exit 2
fi
cmake --build "$BUILD" -j "$(nproc)" --target "${TARGETS[@]/#/fuzz_}" >/dev/null || exit 2
mkdir -p "$OUT"
python3 fuzz/seed_corpus.py "$CORPUS_SRC" "$OUT/seeds" || exit 2
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export DACE_PLUGIN_PATH="$(pwd)/$BUILD/lib/libdace/plugins"
failed=0
for t in "${TARGETS[@]}"; do
  work="$OUT/corpus/$t"; mkdir -p "$work" "$OUT/findings/$t"
  log="$OUT/$t.log"
  seeds="$OUT/seeds/$t"; [[ -d "$seeds" ]] || seeds=""
  regressions="fuzz/regressions/$t"; [[ -d "$regressions" ]] || regressions=""
  t0=$SECONDS
  "$BUILD/bin/fuzz_$t" -max_total_time="$SECONDS_EACH" -print_final_stats=1 -rss_limit_mb=4096 \
    -timeout=30 -artifact_prefix="$OUT/findings/$t/" "$work" $seeds $regressions >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  found=$(find "$OUT/findings/$t" -type f | wc -l)
  # The time is the run's own: a finding ends it before SECONDS.
  echo "fuzz_$t: ${execs:-0} executions in $((SECONDS - t0)) s, exit $rc, findings $found"
  if [[ $rc -ne 0 || $found -ne 0 ]]; then failed=1; grep -m5 -E 'ERROR|finding|SUMMARY' "$log"; fi
done
exit $failed
