#!/usr/bin/env bash
# The `dace` command line is a contract for scripts (README): exit codes, stderr messages
# and the JSON of `info --json`. Each check below states what it expects.
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"
rm -rf "$TMP"; mkdir -p "$TMP"
PY=/usr/bin/python3
passed=0; failed=0
check() {  # check NAME EXPECTED_EXIT -- command...
  local name="$1" want="$2"; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [[ $got -eq $want ]]; then passed=$((passed+1)); else
    failed=$((failed+1)); echo "FAIL $name: exit $got, want $want"; cat "$TMP/err"; fi
}
expect_grep() {  # expect_grep NAME PATTERN FILE
  if grep -q -- "$2" "$3"; then passed=$((passed+1)); else
    failed=$((failed+1)); echo "FAIL $1: '$2' not in $3:"; cat "$3"; fi
}

GEMM="$CORPUS/gemm/gemm.simp.sdfg"
check validate_valid 0 -- "$DACE" validate "$GEMM"
check validate_missing_file 2 -- "$DACE" validate "$TMP/does-not-exist.sdfg"
expect_grep missing_file_message "does-not-exist.sdfg" "$TMP/err"
head -c 500 "$GEMM" > "$TMP/truncated.sdfg"
check validate_truncated 2 -- "$DACE" validate "$TMP/truncated.sdfg"
expect_grep truncated_has_position "line" "$TMP/err"

# An access node naming a container that does not exist: invalid, path names the node.
$PY - "$GEMM" "$TMP/invalid.sdfg" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for n in d["nodes"][0]["nodes"]:
    if n["type"] == "AccessNode":
        n["attributes"]["data"] = "no_such_array"
        break
json.dump(d, open(sys.argv[2], "w"))
PYEOF
check validate_invalid 1 -- "$DACE" validate "$TMP/invalid.sdfg"
expect_grep invalid_names_element 'no_such_array' "$TMP/err"
expect_grep invalid_has_path 'sdfg "npbench_benchmarks_polybench_gemm_gemm_dace_kernel" / state' "$TMP/err"

check usage_error 2 -- "$DACE" validate
check unknown_command 2 -- "$DACE" frobnicate

# info --json: a stable schema with DaCe's argument order.
check info_json 0 -- "$DACE" info "$GEMM" --json
cp "$TMP/out" "$TMP/info.json"
$PY - "$TMP/info.json" <<'PYEOF' && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL info_json_schema"; }
import json, sys
j = json.load(open(sys.argv[1]))
assert j["name"] == "npbench_benchmarks_polybench_gemm_gemm_dace_kernel", j["name"]
assert [a["name"] for a in j["arguments"]] == ["A", "B", "C", "NI", "NJ", "NK", "alpha", "beta"], j["arguments"]
assert [a["kind"] for a in j["arguments"]][:3] == ["array"] * 3
assert j["symbols"] == {"NI": "int64", "NJ": "int64", "NK": "int64"}
assert {d["name"] for d in j["data"]} >= {"A", "B", "C", "alpha", "beta"}
assert j["states"] >= 1 and j["nodes"]["Tasklet"] >= 1
PYEOF
check info_text 0 -- "$DACE" info "$GEMM"
expect_grep info_text_arguments "arguments:" "$TMP/out"

# convert: .sdfg -> .sdfgz -> .sdfg keeps the content hash; output bytes are deterministic.
check convert_gz 0 -- "$DACE" convert "$GEMM" "$TMP/g.sdfgz"
check convert_back 0 -- "$DACE" convert "$TMP/g.sdfgz" "$TMP/g1.sdfg"
check convert_again 0 -- "$DACE" convert "$TMP/g1.sdfg" "$TMP/g2.sdfg"
if cmp -s "$TMP/g1.sdfg" "$TMP/g2.sdfg"; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL convert_deterministic"; fi
if [[ "$(head -c 2 "$TMP/g.sdfgz" | od -An -tx1 | tr -d ' ')" == "1f8b" ]]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL sdfgz_is_gzip"; fi
h0="$("$DACE" hash "$GEMM")"; h1="$("$DACE" hash "$TMP/g.sdfgz")"; h2="$("$DACE" hash "$TMP/g2.sdfg")"
if [[ ${#h0} -eq 64 && "$h0" == "$h1" && "$h1" == "$h2" ]]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL hash_stable: $h0 $h1 $h2"; fi
hj="$("$DACE" hash "$CORPUS/jacobi_2d/jacobi_2d.simp.sdfg")"
if [[ "$hj" != "$h0" ]]; then passed=$((passed+1)); else failed=$((failed+1)); echo "FAIL hash_differs"; fi
check convert_unwritable 2 -- "$DACE" convert "$GEMM" "/proc/no/such/dir/x.sdfg"

echo "cli: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
