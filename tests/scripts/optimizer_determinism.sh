#!/usr/bin/env bash
# The optimizer is deterministic across processes (issue 10). Inputs: every DaCe-written raw SDFG
# of the corpus and of tests/data/frontend, and every corpus *.simp.sdfg (DaCe's simplify output).
# Modes, each with `--record`:
#   simplify  `--simplify`, RUNS processes (issue 10 asks for 20);
#   auto      `--auto cpu` (libdace's auto_optimize), SLOW_RUNS processes;
#   chain     `--simplify` then a fixed chain of `--apply-repeated` transformations, twice (the
#             chain of interop.dace_runs_transformed's "repeated" variant), SLOW_RUNS processes.
# Every process of a mode must write byte-identical SDFGs and histories, and replaying the
# recorded history on the input (`--replay`) must write the same bytes again. Exit 1 naming the
# file and mode on any difference.
# usage: optimizer_determinism.sh DACE_CLI CORPUS_DIR FRONTEND_DIR WORK_DIR [RUNS] [SLOW_RUNS]
set -uo pipefail
cli="$1"; corpus="$2"; frontend="$3"; work="$4"; runs="${5:-20}"; slow_runs="${6:-5}"
rm -rf "$work"; mkdir -p "$work"
mapfile -t files < <(ls "$corpus"/*/*.raw.sdfg "$corpus"/*/*.simp.sdfg "$frontend"/*/*.raw.sdfgz 2>/dev/null | sort)
[[ ${#files[@]} -gt 0 ]] || { echo "no raw SDFGs under $corpus or $frontend"; exit 1; }

chain=(--simplify)
for round in 1 2; do
  for t in MapFusion TrivialMapElimination MapCollapse RedundantArray; do chain+=(--apply-repeated "$t"); done
done

status=0
checked=0
# check FILE MODE RUNS FLAGS...: RUNS processes agree byte for byte, and the replay reproduces them.
check() {
  local f="$1" mode="$2" n="$3"; shift 3
  local name; name="$(basename "$f")"; name="${name%.sdfg*}"; name="$name.$mode"
  local first_sdfg="" first_hist="" s h k
  for ((k = 0; k < n; ++k)); do
    local out="$work/$name.$k.sdfg" hist="$work/$name.$k.hist.json"
    if ! "$cli" optimize "$f" -o "$out" "$@" --record "$hist" 2>"$work/err"; then
      echo "FAIL $f $mode: run $k: $(cat "$work/err")"; status=1; return
    fi
    s="$(sha256sum < "$out")"; h="$(sha256sum < "$hist")"
    if [[ $k -eq 0 ]]; then
      first_sdfg="$s"; first_hist="$h"
      mv "$out" "$work/$name.sdfg"; mv "$hist" "$work/$name.hist.json"
      continue
    fi
    if [[ "$s" != "$first_sdfg" || "$h" != "$first_hist" ]]; then
      echo "FAIL $f $mode: run $k differs from run 0 (sdfg $([[ $s == "$first_sdfg" ]] && echo same || echo differs), history $([[ $h == "$first_hist" ]] && echo same || echo differs))"
      status=1; return
    fi
    rm -f "$out" "$hist"
  done
  if ! "$cli" optimize "$f" -o "$work/$name.replayed.sdfg" --replay "$work/$name.hist.json" 2>"$work/err"; then
    echo "FAIL $f $mode: replay: $(cat "$work/err")"; status=1; return
  fi
  if ! cmp -s "$work/$name.sdfg" "$work/$name.replayed.sdfg"; then
    echo "FAIL $f $mode: replaying the recorded history gives other bytes"; status=1; return
  fi
  rm -f "$work/$name.sdfg" "$work/$name.hist.json" "$work/$name.replayed.sdfg"
  checked=$((checked + 1))
  echo "ok   $name ($n runs, replay)"
}

for f in "${files[@]}"; do
  check "$f" simplify "$runs" --simplify
  check "$f" auto "$slow_runs" --auto cpu
  check "$f" chain "$slow_runs" "${chain[@]}"
done
echo "${#files[@]} SDFGs x 3 modes: $checked checks passed (simplify $runs runs, auto and chain $slow_runs runs)"
exit $status
