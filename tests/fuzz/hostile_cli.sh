#!/usr/bin/env bash
# Hostile `.sdfg` files (tests/fuzz/hostile_gen.py, generated here: some are megabytes) through
# `dace validate`, `convert` and `hash`. A file may be refused, never crash or hang the tool:
#   - exit status 0, 1 (validate only: an invalid SDFG) or 2 (unreadable); never a signal;
#   - each command within CPU_LIMIT seconds of CPU time, user + system (hostile-but-valid input
#     must stay linear: the quadratic cases this guards against took minutes). CPU time, not
#     wall time: on a loaded machine a linear command may wait long for a core, but the CPU
#     it uses stays put. The kernel enforces the budget (RLIMIT_CPU: SIGXCPU); a wall-clock
#     limit of HANG_LIMIT seconds only catches a command that blocks without using CPU;
#   - a refusal says which element: an element path (`sdfg "..."`) or a JSON line, in lines
#     short enough to read (a deep path or expression is shortened, not repeated);
#   - where a case states what it expects (ok / refused with a pattern), exactly that.
# usage: hostile_cli.sh DACE HOSTILE_GEN.py TMPDIR
set -uo pipefail
DACE="$1"; GEN="$2"; TMP="$3"
CPU_LIMIT="${HOSTILE_CPU_LIMIT:-30}"
HANG_LIMIT="${HOSTILE_HANG_LIMIT:-300}"
MAX_LINE=1000
rm -rf "$TMP"; mkdir -p "$TMP"
PY=/usr/bin/python3
passed=0; failed=0
fail() { failed=$((failed+1)); echo "FAIL $*"; }

# run_one NAME FILE CMD EXPECT PATTERN: EXPECT is ok, refused or any.
run_one() {
  local name="$1" file="$2" cmd="$3" expect="$4" pattern="$5"
  local out="$TMP/$name.$cmd.out" err="$TMP/$name.$cmd.err" times="$TMP/$name.$cmd.times" rc start end
  local args=("$file")
  [[ $cmd == convert ]] && args=("$file" "$TMP/$name.converted.sdfg" --compact)
  start=${EPOCHREALTIME/[.,]/}
  # `time` of the subshell counts the CPU of the command (timeout waits for it).
  local TIMEFORMAT='%3U %3S'
  { time ( ulimit -S -t "$CPU_LIMIT"; timeout -s KILL "$HANG_LIMIT" "$DACE" "$cmd" "${args[@]}" >"$out" 2>"$err" ); } 2>"$times"
  rc=$?
  end=${EPOCHREALTIME/[.,]/}
  local cpu; cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { c = $1 + $2 } END { printf "%.2f", c }' "$times")
  local secs="$(( (end - start) / 1000 )) ms wall, $cpu s CPU"
  local allowed="0 2"; [[ $cmd == validate ]] && allowed="0 1 2"
  if [[ $rc -eq $((128 + 24)) ]] || awk -v c="$cpu" -v l="$CPU_LIMIT" 'BEGIN { exit !(c >= l) }'; then
    fail "$name $cmd: used ${cpu} s of CPU, limit ${CPU_LIMIT} s"; return
  fi
  if [[ $rc -eq 137 ]]; then fail "$name $cmd: killed after ${HANG_LIMIT} s wall ($cpu s CPU): blocked"; return; fi
  if [[ $rc -ge 128 ]]; then fail "$name $cmd: signal $((rc-128))"; head -c 2000 "$err"; return; fi
  if [[ " $allowed " != *" $rc "* ]]; then fail "$name $cmd: exit $rc"; head -c 2000 "$err"; return; fi
  local ok=1
  if [[ $expect == ok && $rc -ne 0 ]]; then fail "$name $cmd: exit $rc, want 0"; head -c 2000 "$err"; ok=0; fi
  if [[ $expect == refused && $rc -ne 2 ]]; then fail "$name $cmd: exit $rc, want 2"; ok=0; fi
  if [[ $rc -ne 0 ]]; then
    if [[ ! -s $err ]]; then fail "$name $cmd: exit $rc without a message"; ok=0
    elif ! grep -q -e 'sdfg "' -e 'at line [0-9]' "$err"; then
      fail "$name $cmd: message names no element:"; head -c 2000 "$err"; ok=0
    fi
    local longest; longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$err")
    if (( longest > MAX_LINE )); then fail "$name $cmd: a message line of $longest characters"; ok=0; fi
    if [[ -n $pattern ]] && ! grep -q -e "$pattern" "$err"; then
      fail "$name $cmd: '$pattern' not in:"; head -c 2000 "$err"; ok=0
    fi
  fi
  (( ok )) && passed=$((passed+1))
  echo "  $name $cmd: exit $rc, $secs"
}

# case NAME KIND DEPTH EXPECT [PATTERN] [--gzip]
case_() {
  local name="$1" kind="$2" depth="$3" expect="$4" pattern="${5:-}" gz="${6:-}"
  local file="$TMP/$name.sdfg"; [[ -n $gz ]] && file="$TMP/$name.sdfgz"
  if ! $PY "$GEN" "$kind" "$depth" "$file" $gz; then fail "$name: generator failed"; return; fi
  for cmd in validate convert hash; do run_one "$name" "$file" "$cmd" "$expect" "$pattern"; done
  # What convert wrote reads back to the same hash.
  if [[ -s $TMP/$name.converted.sdfg && -s $TMP/$name.hash.out ]]; then
    local again; again=$(ulimit -t "$CPU_LIMIT"; timeout -s KILL "$HANG_LIMIT" "$DACE" hash "$TMP/$name.converted.sdfg" 2>&1)
    if [[ $again == "$(cat "$TMP/$name.hash.out")" ]]; then passed=$((passed+1))
    else fail "$name: hash after convert differs: $again"; fi
  fi
  rm -f "$file" "$TMP/$name.converted.sdfg"
}

JSON_DEEP='JSON nested deeper than 1024 levels at line'
NESTING='nested deeper than 128 levels'
SCOPES='map and consume scopes nested deeper than 1024 levels'
# Bounds of the reader (docs/sdfg-json.md): JSON text 1024 levels, SDFGs and regions 128,
# map/consume scopes in one state 1024. Each is tested at the bound and one past it.
case_ json_1000 deep_json 1000 ok
case_ json_200k deep_json 200000 refused "$JSON_DEEP"
case_ json_200k_gz deep_json 200000 refused "$JSON_DEEP" --gzip
case_ sdfg_127 deep_sdfg 127 ok
case_ sdfg_128 deep_sdfg 128 refused "$NESTING"
case_ sdfg_50k deep_sdfg 50000 refused "$JSON_DEEP"
case_ region_127 deep_region 127 ok
case_ region_128 deep_region 128 refused "$NESTING"
case_ region_100k deep_region 100000 refused "$JSON_DEEP"
case_ maps_1024 deep_maps 1024 ok
case_ maps_1025 deep_maps 1025 refused "$SCOPES"
# The issue's hostile files: 50,000 nested maps took 17 s to convert and minutes to validate.
case_ maps_50k deep_maps 50000 refused "$SCOPES"
case_ maps_20k_dup deep_maps_dup 20000 refused "$SCOPES"
case_ maps_20k_neg deep_maps_neg 20000 refused "$SCOPES"
case_ maps_1k_dup deep_maps_dup 1000 any
case_ maps_1k_neg deep_maps_neg 1000 any
case_ expr_100k deep_expr 100000 refused "nested too deeply"
case_ expr_150 deep_expr 150 any
case_ code_100k deep_code 100000 any
case_ code_100k_gz deep_code 100000 any "" --gzip

echo "hostile_cli: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
