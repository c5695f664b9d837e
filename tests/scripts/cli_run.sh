#!/usr/bin/env bash
# `dace run` and `dace compile` (README, CLI table): every corpus SDFG matches NumPy through
# --case, exit codes 0/1/2, the -s/-i/-o round trip checked with NumPy, --repeat, and the
# JSON of `compile`. Usage: cli_run.sh DACE_EXE CORPUS_DIR TMP_DIR
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"
PY=/usr/bin/python3
if [[ ! -d "$CORPUS" ]]; then echo "skip: no corpus at $CORPUS"; exit 77; fi
if ! $PY -c 'import numpy' 2>/dev/null; then echo "skip: python3 without numpy"; exit 77; fi
rm -rf "$TMP"; mkdir -p "$TMP"
passed=0; failed=0
pass() { passed=$((passed+1)); }
fail() { failed=$((failed+1)); echo "FAIL $*"; }
check() {  # check NAME EXPECTED_EXIT -- command...
  local name="$1" want="$2"; shift 3
  "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [[ $got -eq $want ]]; then pass; else fail "$name: exit $got, want $want"; cat "$TMP/out" "$TMP/err"; fi
}
expect_grep() {  # expect_grep NAME EXTENDED_REGEX FILE
  if grep -Eq -- "$2" "$3"; then pass; else fail "$1: /$2/ not in $3:"; cat "$3"; fi
}

# --- Every DaCe-written SDFG with a case matches NumPy (two at a time: each run compiles). ---
jobs_list=()
for case in "$CORPUS"/*/case.json; do
  k="$(basename "$(dirname "$case")")"
  for f in "$CORPUS/$k/$k.simp.sdfg" "$CORPUS/$k/$k.raw.sdfg" \
           "$CORPUS/dialects/dace-2.0a5/$k.simp.sdfg" "$CORPUS/dialects/dace-2.0a5/$k.raw.sdfg"; do
    [[ -f "$f" ]] && jobs_list+=("$f|$case")
  done
done
mkdir -p "$TMP/corpus"
i=0
for job in "${jobs_list[@]}"; do
  f="${job%%|*}"; case="${job##*|}"; i=$((i+1))
  ( "$DACE" run "$f" --case "$case" >"$TMP/corpus/$i.out" 2>&1; echo $? >"$TMP/corpus/$i.rc"
    echo "$f" >"$TMP/corpus/$i.name" ) &
  while (( $(jobs -r | wc -l) >= 2 )); do wait -n; done
done
wait
for ((j=1; j<=i; j++)); do
  rc="$(cat "$TMP/corpus/$j.rc")"
  if [[ "$rc" == 0 ]] && grep -Eq '^[A-Za-z_0-9]+: max abs error [0-9.e+-]+, max rel error [0-9.e+-]+: ok$' "$TMP/corpus/$j.out" \
     && ! grep -q MISMATCH "$TMP/corpus/$j.out"; then pass
  else fail "corpus $(cat "$TMP/corpus/$j.name"): exit $rc"; cat "$TMP/corpus/$j.out"; fi
done
(( i >= 20 )) && pass || fail "corpus: only $i SDFGs found"

# --- The optimizer as a compile step: every raw SDFG, simplified on the way (--optimize), ---
# --- still matches NumPy. ---
mkdir -p "$TMP/optimized"
i=0; raws=()
for case in "$CORPUS"/*/case.json; do
  k="$(basename "$(dirname "$case")")"
  [[ -f "$CORPUS/$k/$k.raw.sdfg" ]] && raws+=("$CORPUS/$k/$k.raw.sdfg|$case")
done
for job in "${raws[@]}"; do
  f="${job%%|*}"; case="${job##*|}"; i=$((i+1))
  ( "$DACE" run "$f" --case "$case" --optimize simplify >"$TMP/optimized/$i.out" 2>&1
    echo $? >"$TMP/optimized/$i.rc"; echo "$f" >"$TMP/optimized/$i.name" ) &
  while (( $(jobs -r | wc -l) >= 2 )); do wait -n; done
done
wait
for ((j=1; j<=i; j++)); do
  rc="$(cat "$TMP/optimized/$j.rc")"
  if [[ "$rc" == 0 ]] && ! grep -q MISMATCH "$TMP/optimized/$j.out"; then pass
  else fail "--optimize simplify $(cat "$TMP/optimized/$j.name"): exit $rc"; cat "$TMP/optimized/$j.out"; fi
done
(( i >= 10 )) && pass || fail "--optimize: only $i raw SDFGs found"

GEMM="$CORPUS/gemm/gemm.simp.sdfg"
# --- A copy of the gemm case with one expected element off by 1: exit 1, MISMATCH. ---
cp -r "$CORPUS/gemm" "$TMP/gemm_bad"
$PY -c 'import numpy as np, sys; p = sys.argv[1]; c = np.load(p); c[0, 0] += 1.0; np.save(p, c)' "$TMP/gemm_bad/out/C.npy"
check corrupted_expected 1 -- "$DACE" run "$GEMM" --case "$TMP/gemm_bad/case.json"
expect_grep corrupted_says_mismatch '^C: max abs error 1\.0[0-9]*e\+00, max rel error [0-9.e+-]+: MISMATCH$' "$TMP/out"
check corrupted_json 1 -- "$DACE" run "$GEMM" --case "$TMP/gemm_bad/case.json" --json
$PY -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["ok"] is False and j["outputs"]["C"]["ok"] is False, j' \
  "$TMP/out" && pass || fail "corrupted_json_content"

# --- Errors before or while running: exit 2 with a message. ---
cp -r "$CORPUS/gemm" "$TMP/gemm_missing"
$PY -c 'import json, sys; p = sys.argv[1]; j = json.load(open(p)); j["inputs"]["A"] = "in/no_such.npy"; json.dump(j, open(p, "w"))' \
  "$TMP/gemm_missing/case.json"
check missing_input 2 -- "$DACE" run "$GEMM" --case "$TMP/gemm_missing/case.json"
expect_grep missing_input_named 'no_such\.npy' "$TMP/err"
check missing_sdfg 2 -- "$DACE" run "$TMP/none.sdfg" --case "$CORPUS/gemm/case.json"
expect_grep missing_sdfg_named 'none\.sdfg' "$TMP/err"
check missing_case 2 -- "$DACE" run "$GEMM" --case "$TMP/none.json"
check bad_symbol_value 2 -- "$DACE" run "$GEMM" -s NI=abc -s NJ=2 -s NK=2
expect_grep bad_symbol_value_named 'NI=abc' "$TMP/err"
check unknown_symbol 2 -- "$DACE" run "$GEMM" -s NOPE=3
expect_grep unknown_symbol_named 'NOPE' "$TMP/err"
check missing_symbol 2 -- "$DACE" run "$GEMM" -s NI=2 -s NJ=2
expect_grep missing_symbol_named 'symbol NK' "$TMP/err"
check wrong_shape 2 -- "$DACE" run "$CORPUS/go_fast/go_fast.simp.sdfg" -i a="$CORPUS/gemm/in/A.npy"
$PY - "$GEMM" "$TMP/invalid.sdfg" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for n in d["nodes"][0]["nodes"]:
    if n["type"] == "AccessNode":
        n["attributes"]["data"] = "no_such_array"
        break
json.dump(d, open(sys.argv[2], "w"))
PYEOF
check invalid_sdfg_run 2 -- "$DACE" run "$TMP/invalid.sdfg" --case "$CORPUS/gemm/case.json"
expect_grep invalid_run_path 'state "[^"]+" / node [0-9]+ \(AccessNode "no_such_array"\)' "$TMP/err"
check invalid_sdfg_compile 2 -- "$DACE" compile "$TMP/invalid.sdfg"
expect_grep invalid_compile_path 'no_such_array' "$TMP/err"
check bad_flag_run 2 -- "$DACE" run "$GEMM" --bogus
expect_grep bad_flag_usage 'usage: dace run' "$TMP/err"
check bad_repeat 2 -- "$DACE" run "$GEMM" --repeat 0
check bad_flag_compile 2 -- "$DACE" compile "$GEMM" --frobnicate
expect_grep bad_flag_compile_usage 'usage: dace compile' "$TMP/err"
check bad_opt_level 2 -- "$DACE" compile "$GEMM" -O 9
check unknown_optimizer 2 -- "$DACE" run "$GEMM" --case "$CORPUS/gemm/case.json" --optimize NoSuchPass
expect_grep unknown_optimizer_named 'NoSuchPass' "$TMP/err"
check pattern_as_optimizer 2 -- "$DACE" compile "$GEMM" --optimize MapFusion
expect_grep pattern_as_optimizer_named 'MapFusion.*pattern transformation' "$TMP/err"
check compile_optimized_json 0 -- "$DACE" compile "$CORPUS/gemm/gemm.raw.sdfg" --json --optimize simplify
$PY -c 'import json, sys; j = json.load(open(sys.argv[1])); assert j["transform_ms"] > 0, j' "$TMP/out" \
  && pass || fail "compile_optimized_json_transform_ms"

# --- -i/-o round trip: outputs written from corpus inputs equal NumPy's expected ones. ---
G="$CORPUS/gemm"
check roundtrip_files 0 -- "$DACE" run "$GEMM" -i A="$G/in/A.npy" -i B="$G/in/B.npy" -i C="$G/in/C.npy" \
  -i alpha="$G/in/alpha.npy" -i beta="$G/in/beta.npy" -o "$TMP/rt"
$PY - "$TMP/rt" "$G" <<'PYEOF' && pass || fail "roundtrip_files_values"
import numpy as np, sys
out, g = sys.argv[1], sys.argv[2]
got = np.load(out + "/C.npy"); exp = np.load(g + "/out/C.npy")
assert got.shape == exp.shape and got.dtype == exp.dtype, (got.shape, got.dtype)
assert np.allclose(got, exp, rtol=1e-10, atol=1e-12), abs(got - exp).max()
assert np.array_equal(np.load(out + "/A.npy"), np.load(g + "/in/A.npy"))  # inputs written unchanged
PYEOF
# -s for symbols and a scalar, generated A/B/C: C = 1.5 * A @ B + beta * C0 with the documented
# pattern v(i) = ((7 i + 3) mod 17) / 17 over the flat index, and beta = v(0).
check roundtrip_generated 0 -- "$DACE" run "$GEMM" -s NI=4 -s NJ=5 -s NK=6 -s alpha=1.5 -o "$TMP/gen"
$PY - "$TMP/gen" <<'PYEOF' && pass || fail "roundtrip_generated_values"
import numpy as np, sys
d = sys.argv[1]
v = lambda *shape: ((np.arange(np.prod(shape)) * 7 + 3) % 17 / 17.0).reshape(shape)
A, B, C0 = v(4, 6), v(6, 5), v(4, 5)
exp = 1.5 * A @ B + (3 / 17.0) * C0
got = np.load(d + "/C.npy")
assert got.shape == (4, 5), got.shape
assert np.allclose(got, exp, rtol=1e-12, atol=1e-14), abs(got - exp).max()
assert np.array_equal(np.load(d + "/A.npy"), A)
PYEOF
# A 0-d .npy given with -i feeds a symbol (jacobi_2d's TSTEPS); N comes from A's shape.
J="$CORPUS/jacobi_2d"
check symbol_from_npy 0 -- "$DACE" run "$J/jacobi_2d.simp.sdfg" -i A="$J/in/A.npy" -i B="$J/in/B.npy" \
  -i TSTEPS="$J/in/TSTEPS.npy" -o "$TMP/jac"
$PY -c 'import numpy as np, sys; d, j = sys.argv[1:]; assert np.allclose(np.load(d + "/A.npy"), np.load(j + "/out/A.npy"), rtol=1e-10, atol=1e-12)' \
  "$TMP/jac" "$J" && pass || fail "symbol_from_npy_values"

# --- --repeat: timings, and outputs come from the first run (jacobi updates A, B in place). ---
check repeat_text 0 -- "$DACE" run "$J/jacobi_2d.simp.sdfg" --case "$J/case.json" --repeat 3
expect_grep repeat_line '^run: min [0-9.]+ ms, median [0-9.]+ ms \(3 runs\)$' "$TMP/out"
expect_grep repeat_outputs_ok '^A: .*: ok$' "$TMP/out"
check repeat_json 0 -- "$DACE" run "$GEMM" --case "$G/case.json" --repeat 3 --json --threads 2
$PY -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["ok"] is True and j["runs"] == 3 and 0 <= j["min_ms"] <= j["median_ms"], j
assert j["outputs"]["C"]["ok"] is True and j["compile_ms"] > 0, j' "$TMP/out" && pass || fail "repeat_json_content"

# --- compile: JSON keys, IR/assembly dumps, cache hits. ---
check compile_json 0 -- "$DACE" compile "$GEMM" --json -O2
$PY -c '
import json, sys
j = json.load(open(sys.argv[1]))
for k in ["name", "validate_ms", "lower_ms", "optimize_ms", "jit_ms", "total_ms", "cache_hit", "ir_instructions", "object_bytes"]:
    assert k in j, k
assert j["cache_hit"] is False and j["ir_instructions"] > 0 and j["object_bytes"] > 0 and j["total_ms"] > 0, j' \
  "$TMP/out" && pass || fail "compile_json_keys"
check compile_text 0 -- "$DACE" compile "$GEMM"
expect_grep compile_text_total '^total: [0-9.]+ ms$' "$TMP/out"
check compile_dump 0 -- "$DACE" compile "$GEMM" --dump-ir "$TMP/ir" --dump-asm "$TMP/asm"
if [[ -n "$(find "$TMP/ir" -name '*.ll' -size +0)" && -n "$(find "$TMP/asm" -name '*.s' -size +0)" ]] \
   && grep -q 'define' "$TMP"/ir/*.ll; then pass; else fail "compile_dump_files"; ls -l "$TMP/ir" "$TMP/asm"; fi
check compile_cache_cold 0 -- "$DACE" compile "$GEMM" --json --cache-dir "$TMP/cache"
$PY -c 'import json, sys; assert json.load(open(sys.argv[1]))["cache_hit"] is False' "$TMP/out" && pass || fail "cache_cold"
check compile_cache_warm 0 -- "$DACE" compile "$GEMM" --json --cache-dir "$TMP/cache"
$PY -c 'import json, sys; assert json.load(open(sys.argv[1]))["cache_hit"] is True' "$TMP/out" && pass || fail "cache_warm"

echo "cli run/compile: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
