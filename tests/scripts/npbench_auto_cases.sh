#!/usr/bin/env bash
# libdace's own auto_optimize on every NPBench kernel's raw SDFG written by DaCe 1.0.2 (the
# cases npbench.dace_written_cases generates from ../shared/npbench), run against NumPy's
# outputs: `cpu` runs `dace run RAW --optimize auto_optimize`; `gpu` runs `dace optimize RAW
# --auto gpu` and the result on the emulated device (`dace run --emulate-device`; skipped
# without the CUDA plugin), then compiles it for the device (`dace compile --ptx-out`) and has
# ptxas check every PTX module for sm_80 and sm_90 (when ptxas is found). Cases listed in tests/npbench/known_gaps_auto.txt as
# `kernel.auto-MODE reason` are expected to fail; the test fails on any other failure and on a
# listed case that passes (so the list only shrinks). Exit 77 (skip) when no cases exist.
# The same for any folder of cases in the corpus layout (`<name>/<name>.raw.sdfg` or
# `.raw.sdfgz` beside `case.json`): OUT_DIR (default CASES_DIR/auto-MODE) takes the optimized
# SDFGs and PTX, GAPS (default tests/npbench/known_gaps_auto.txt) the expected failures
# (tests/data/frontend: tests/data/frontend/known_gaps_auto.txt).
# usage: npbench_auto_cases.sh DACE_CLI CASES_DIR SOURCE_DIR cpu|gpu [CUDA_PLUGIN [OUT_DIR [GAPS]]]
set -uo pipefail
cli="$1"; work="$2"; src="$3"; mode="$4"; plugin="${5:-}"
out_dir="${6:-$work/auto-$mode}"; gaps="${7:-$src/tests/npbench/known_gaps_auto.txt}"
if ! ls "$work"/*/case.json >/dev/null 2>&1; then
  echo "SKIP: no cases in $work (npbench.dace_written_cases generates the NPBench ones; it needs DaCe 1.0.2)"; exit 77
fi
if [[ "$mode" == gpu && ( -z "$plugin" || ! -f "$plugin" ) ]]; then
  echo "SKIP: the CUDA plugin was not built (no CUDA toolkit)"; exit 77
fi
ptxas="$(command -v ptxas || true)"
[[ -z "$ptxas" && -x /usr/local/cuda/bin/ptxas ]] && ptxas=/usr/local/cuda/bin/ptxas
[[ "$mode" == gpu && -z "$ptxas" ]] && echo "note: no ptxas found; the PTX is compiled but not checked"
declare -A expected_gap=()
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  expected_gap["${line%% *}"]="${line#* }"
done < "$gaps"
rm -rf "$out_dir"; mkdir -p "$out_dir"
status=0; ran=0; passed=0
for casefile in "$work"/*/case.json; do
  dir="$(dirname "$casefile")"; name="$(basename "$dir")"
  raw="$dir/$name.raw.sdfg"; [[ -f "$raw" ]] || raw="$dir/$name.raw.sdfgz"; [[ -f "$raw" ]] || continue
  id="$name.auto-$mode"; ran=$((ran + 1))
  if [[ "$mode" == cpu ]]; then
    out="$(timeout 300 "$cli" run "$raw" --case "$casefile" --optimize auto_optimize 2>&1)"; rc=$?
  else
    optimized="$out_dir/$name.sdfg"
    if out="$("$cli" optimize "$raw" -o "$optimized" --auto gpu 2>&1)"; then
      out="$(timeout 300 "$cli" run "$optimized" --case "$casefile" --emulate-device 2>&1)"; rc=$?
      if [[ $rc -eq 0 ]]; then
        ptx_dir="$out_dir/$name.ptx"; mkdir -p "$ptx_dir"
        if ! out="$(timeout 300 "$cli" compile "$optimized" --ptx-out "$ptx_dir" 2>&1)"; then
          rc=1; out="device compile failed: $out"
        elif [[ -n "$ptxas" ]]; then
          for ptx in "$ptx_dir"/*.ptx; do
            [[ -f "$ptx" ]] || continue
            for arch in sm_80 sm_90; do
              if ! err="$("$ptxas" -arch="$arch" "$ptx" -o /dev/null 2>&1)"; then rc=1; out="ptxas $arch refused $(basename "$ptx"): $err"; fi
            done
          done
        fi
      fi
    else
      rc=$?
    fi
  fi
  if [[ $rc -eq 0 ]]; then
    passed=$((passed + 1))
    if [[ -n "${expected_gap[$id]+x}" ]]; then echo "UNEXPECTED PASS $id (remove it from known_gaps_auto.txt)"; status=1
    else echo "ok   $id"; fi
  elif [[ -n "${expected_gap[$id]+x}" ]]; then
    echo "gap  $id: ${expected_gap[$id]}"
  else
    echo "FAIL $id (exit $rc)"; echo "$out" | grep -v ': ok$' | head -5 | sed 's/^/     /'; status=1
  fi
done
echo "$passed of $ran raw SDFGs match NumPy after libdace's --auto $mode; ${#expected_gap[@]} known gaps listed"
[[ $ran -gt 0 ]] || { echo "no cases were found"; exit 1; }
exit $status
