#!/usr/bin/env bash
# The optimizer is deterministic across processes (issue 10): for every DaCe-written raw SDFG
# of the corpus and of tests/data/frontend, RUNS separate `dace optimize --simplify --record`
# processes write byte-identical SDFGs and histories, and replaying the recorded history on
# the input (`--replay`) writes the same bytes again. Exit 1 naming the file on any difference.
# usage: optimizer_determinism.sh DACE_CLI CORPUS_DIR FRONTEND_DIR WORK_DIR [RUNS]
set -uo pipefail
cli="$1"; corpus="$2"; frontend="$3"; work="$4"; runs="${5:-20}"
rm -rf "$work"; mkdir -p "$work"
mapfile -t files < <(ls "$corpus"/*/*.raw.sdfg "$frontend"/*/*.raw.sdfgz 2>/dev/null | sort)
[[ ${#files[@]} -gt 0 ]] || { echo "no raw SDFGs under $corpus or $frontend"; exit 1; }
status=0
for f in "${files[@]}"; do
  name="$(basename "$f")"; name="${name%%.*}"
  first_sdfg=""; first_hist=""
  for ((k = 0; k < runs; ++k)); do
    out="$work/$name.$k.sdfg"; hist="$work/$name.$k.hist.json"
    if ! "$cli" optimize "$f" -o "$out" --simplify --record "$hist" 2>"$work/err"; then
      echo "FAIL $f: run $k: $(cat "$work/err")"; status=1; continue 2
    fi
    s="$(sha256sum < "$out")"; h="$(sha256sum < "$hist")"
    if [[ $k -eq 0 ]]; then first_sdfg="$s"; first_hist="$h"
    elif [[ "$s" != "$first_sdfg" || "$h" != "$first_hist" ]]; then
      echo "FAIL $f: run $k differs from run 0 (sdfg $([[ $s == "$first_sdfg" ]] && echo same || echo differs), history $([[ $h == "$first_hist" ]] && echo same || echo differs))"
      status=1; continue 2
    fi
    rm -f "$out" "$hist"
  done
  # Run 0's files were removed too; record once more for the replay check.
  "$cli" optimize "$f" -o "$work/$name.sdfg" --simplify --record "$work/$name.hist.json" 2>/dev/null
  if ! "$cli" optimize "$f" -o "$work/$name.replayed.sdfg" --replay "$work/$name.hist.json" 2>"$work/err"; then
    echo "FAIL $f: replay: $(cat "$work/err")"; status=1; continue
  fi
  if ! cmp -s "$work/$name.sdfg" "$work/$name.replayed.sdfg"; then
    echo "FAIL $f: replaying the recorded history gives other bytes"; status=1; continue
  fi
  echo "ok   $name ($runs runs, replay)"
done
echo "${#files[@]} SDFGs checked"
exit $status
