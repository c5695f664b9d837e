#!/usr/bin/env bash
# ctest fuzz.replay.<target>: runs a fuzz target's replaying build (fuzz/replay_main.cpp) on
# seeds written from the shared corpus, on fuzz/regressions/<target>/ and on fixed-seed
# random input. Usage: replay.sh BINARY TARGET SOURCE_DIR SEED_DIR
set -euo pipefail
bin="$1"; target="$2"; src="$3"; seeds="$4"
corpus="${LIBDACE_CORPUS_DIR:-$src/../shared/sdfg-corpus}"
inputs=()
if [[ "$target" != capi_ops ]]; then
  if [[ ! -d "$corpus" ]]; then echo "skip: no corpus at $corpus"; exit 77; fi
  # One writer per target folder: the five replay tests may run in parallel.
  tmp="$seeds.$target.tmp"; rm -rf "$tmp"
  python3 "$src/fuzz/seed_corpus.py" "$corpus" "$tmp" >/dev/null
  rm -rf "$seeds/$target"; mkdir -p "$seeds"; mv "$tmp/$target" "$seeds/$target"; rm -rf "$tmp"
  inputs+=("$seeds/$target")
fi
[[ -d "$src/fuzz/regressions/$target" ]] && inputs+=("$src/fuzz/regressions/$target")
case "$target" in
  sdfg_reader) random=(--random 300 512) ;;
  capi_ops) random=(--random 150 96) ;;
  *) random=(--random 20000 64) ;;
esac
"$bin" "${inputs[@]}" "${random[@]}"
