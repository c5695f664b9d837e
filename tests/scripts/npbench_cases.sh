#!/usr/bin/env bash
# DaCe-written SDFGs of every NPBench kernel (raw, simplified, auto-optimized by DaCe 1.0.2),
# generated at test time from ../shared/npbench by tests/npbench/generate_cases.py, run with
# `dace run --case` against NumPy's outputs. Cases listed in tests/npbench/known_gaps.txt are
# expected to fail (each with its reason); the test fails on any other failure and on a listed
# case that now passes (so the list only shrinks). Exit 77 (skip) without DaCe 1.0.2.
# usage: npbench_cases.sh DACE_CLI DACE_PYTHON NPBENCH_DIR WORK_DIR SOURCE_DIR
set -uo pipefail
cli="$1"; python="$2"; npbench="$3"; work="$4"; src="$5"
gaps="$src/tests/npbench/known_gaps.txt"
if [[ ! -x "$python" ]] || ! "$python" -c 'import dace' 2>/dev/null; then
  echo "SKIP: DaCe 1.0.2 is not installed in $(dirname "$(dirname "$python")") (scripts/setup.sh installs it)"; exit 77
fi
[[ -d "$npbench/bench_info" ]] || { echo "SKIP: NPBench not found at $npbench"; exit 77; }
generator="$src/tests/npbench/generate_cases.py"
stamp="$work/.generated"
if [[ ! -f "$stamp" || "$generator" -nt "$stamp" ]]; then
  rm -rf "$work"; mkdir -p "$work"
  "$python" "$generator" "$npbench" "$work" | tee "$work/generate.log" || { echo "generator failed"; exit 1; }
  touch "$stamp"
fi
declare -A expected_gap=()
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  expected_gap["${line%% *}"]="${line#* }"
done < "$gaps"
status=0; ran=0; passed=0
for casefile in "$work"/*/case.json; do
  dir="$(dirname "$casefile")"; name="$(basename "$dir")"
  for variant in raw simp opt; do
    sdfg="$dir/$name.$variant.sdfg"; [[ -f "$sdfg" ]] || continue
    id="$name.$variant"; ran=$((ran + 1))
    out="$(timeout 300 "$cli" run "$sdfg" --case "$casefile" 2>&1)"; rc=$?
    if [[ $rc -eq 0 ]]; then
      passed=$((passed + 1))
      if [[ -n "${expected_gap[$id]+x}" ]]; then echo "UNEXPECTED PASS $id (remove it from known_gaps.txt)"; status=1
      else echo "ok   $id"; fi
    elif [[ -n "${expected_gap[$id]+x}" ]]; then
      echo "gap  $id: ${expected_gap[$id]}"
    else
      echo "FAIL $id (exit $rc)"; echo "$out" | grep -v ': ok$' | head -5 | sed 's/^/     /'; status=1
    fi
  done
done
echo "$passed of $ran NPBench SDFGs match NumPy; ${#expected_gap[@]} known gaps"
[[ $ran -gt 0 ]] || { echo "no cases were generated"; exit 1; }
exit $status
