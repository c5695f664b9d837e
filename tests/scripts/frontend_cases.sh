#!/usr/bin/env bash
# Runs every DaCe-written SDFG under tests/data/frontend (raw, simplified and auto-optimized
# by DaCe 1.0.2) with `dace run --case` and checks NumPy's outputs. Exit 0 when all match.
# usage: frontend_cases.sh DACE_CLI DATA_DIR
set -uo pipefail
cli="$1"; data="$2"
failed=0; ran=0
for casefile in "$data"/*/case.json; do
  dir="$(dirname "$casefile")"; name="$(basename "$dir")"
  # case.json lists the variants DaCe could write (its auto_optimize fails on some programs).
  variants="$(tr -d ' \n' < "$casefile" | grep -o '"variants":\[[^]]*\]' | grep -o '"[a-z]*"' | tr -d '"' | grep -v '^variants$')"
  for variant in ${variants:-raw simp opt}; do
    sdfg="$dir/$name.$variant.sdfgz"
    [[ -f "$sdfg" ]] || { echo "MISSING $sdfg"; failed=1; continue; }
    ran=$((ran + 1))
    if out="$(timeout 120 "$cli" run "$sdfg" --case "$casefile" 2>&1)"; then
      echo "ok   $name.$variant"
    else
      echo "FAIL $name.$variant (exit $?)"; echo "$out" | sed 's/^/     /'; failed=1
    fi
  done
done
echo "$ran SDFGs run"
[[ $ran -gt 0 ]] || { echo "no cases found under $data"; exit 1; }
exit $failed
