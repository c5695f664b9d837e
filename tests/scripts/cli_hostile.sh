#!/usr/bin/env bash
# Hostile input to the `dace` tool (issue 15): huge or overflowing symbol values and unbounded
# input files end with a message and exit 2, never an uncaught exception (exit 134) or a
# crash. Usage: cli_hostile.sh DACE_EXE CORPUS_DIR TMP_DIR
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"
GEMM="$CORPUS/gemm/gemm.simp.sdfg"
if [[ ! -f "$GEMM" ]]; then echo "skip: no corpus at $CORPUS"; exit 77; fi
rm -rf "$TMP"; mkdir -p "$TMP"
passed=0; failed=0
check() {  # check NAME EXPECTED_EXIT REGEX_IN_STDERR -- command...
  local name="$1" want="$2" re="$3"; shift 4
  "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; local got=$?
  if [[ $got -eq $want ]] && { [[ -z "$re" ]] || grep -Eq -- "$re" "$TMP/err"; }; then passed=$((passed+1))
  else failed=$((failed+1)); echo "FAIL $name: exit $got (want $want), stderr:"; cat "$TMP/err"; fi
}

# 100000^2 doubles per argument: 80 GB each, more than the machine gives.
check "gemm 1e5" 2 'cannot allocate [0-9]+ bytes' -- \
  "$DACE" run "$GEMM" -s NI=100000 -s NJ=100000 -s NK=100000
# 2^62 elements times 8 bytes overflows 64 bits.
check "gemm 2^62" 2 'more bytes than 64 bits' -- \
  "$DACE" run "$GEMM" -s NI=4611686018427387904 -s NJ=2 -s NK=2
check "gemm 2^63-1" 2 'more bytes than 64 bits' -- \
  "$DACE" run "$GEMM" -s NI=9223372036854775807 -s NJ=1 -s NK=1
check "gemm -1" 2 'negative' -- "$DACE" run "$GEMM" -s NI=-1 -s NJ=2 -s NK=2

# Unbounded input: /dev/zero stops at the input limit (1 MiB here, 1 GiB by default).
for cmd in validate info hash run; do
  check "$cmd /dev/zero" 2 'input limit of 1048576 bytes' -- env DACE_MAX_INPUT_BYTES=1048576 "$DACE" $cmd /dev/zero
done
check "convert /dev/zero" 2 'input limit of 1048576 bytes' -- \
  env DACE_MAX_INPUT_BYTES=1048576 "$DACE" convert /dev/zero "$TMP/x.sdfg"
# A FIFO is read to its end like a file.
mkfifo "$TMP/fifo"
cat "$GEMM" >"$TMP/fifo" &
check "validate fifo" 0 '' -- "$DACE" validate "$TMP/fifo"
wait

echo "cli_hostile: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
