#!/usr/bin/env bash
# `dace run --bounds-check` (issue 15): tests/data/bounds/shifted_write.sdfg writes
# B[i + K - 1] for i in 0:N (validation takes K >= 1 and cannot prove it out of bounds). With
# the flag, K=2 and K=0 end with exit 2 and a message naming the memlet and the index
# (hand-derived: N-1+1 = N and 0-1 = -1); K=1 runs (exit 0). `dace compile --bounds-check` is accepted too.
# Usage: cli_bounds_check.sh DACE_EXE SOURCE_DIR TMP_DIR
set -uo pipefail
DACE="$1"; SRC="$2"; TMP="$3"
SDFG="$SRC/tests/data/bounds/shifted_write.sdfg"
rm -rf "$TMP"; mkdir -p "$TMP"
passed=0; failed=0
check() {  # check NAME EXPECTED_EXIT REGEX_IN_STDERR -- command...
  local name="$1" want="$2" re="$3"; shift 4
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; local got=$?
  if [[ $got -eq $want ]] && { [[ -z "$re" ]] || grep -Eq -- "$re" "$TMP/err"; }; then passed=$((passed+1))
  else failed=$((failed+1)); echo "FAIL $name: exit $got (want $want), stderr:"; cat "$TMP/err"; fi
}
check "K=2" 2 'memlet "B\[.*dimension 0 of "B": index is 5, outside 0\.\.4 \(bounds check\)' -- \
  "$DACE" run "$SDFG" -s N=5 -s K=2 --bounds-check
check "K=0" 2 'is -1, outside 0\.\.4 \(bounds check\)' -- "$DACE" run "$SDFG" -s N=5 -s K=0 --bounds-check
check "K=1" 0 '' -- "$DACE" run "$SDFG" -s N=5 -s K=1 --bounds-check
check "compile" 0 '' -- "$DACE" compile "$SDFG" --bounds-check
echo "cli_bounds_check: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
