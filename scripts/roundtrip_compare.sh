#!/bin/sh
# Compares what two builds of the CLI write for the same inputs: `dace convert` (pretty and
# --compact), `dace hash` and `dace validate`'s verdict, for every corpus and tests/data SDFG
# (.sdfg and .sdfgz), or for the files given after the two CLIs. Use it before and after a
# change to the IR or the JSON reader/writer that must not change any output: the baseline
# CLI is e.g. a copy of main's build/bin/dace (with its libdace.so found through
# LD_LIBRARY_PATH or a wrapper script).
#
# Usage: scripts/roundtrip_compare.sh OLD_DACE NEW_DACE [FILE...]
# Exit 1 on the first difference (printed), 0 when every output is byte-identical.
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_DACE NEW_DACE [FILE...]" >&2
  exit 2
fi
old=$1
new=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
  # shellcheck disable=SC2046 # paths without spaces
  set -- "$here"/../shared/sdfg-corpus/*/*.sdfg \
    $(find "$here/tests/data" -name '*.sdfg' -o -name '*.sdfgz' | sort)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=0
for f in "$@"; do
  [ -f "$f" ] || continue
  files=$((files + 1))
  for mode in pretty compact; do
    flag=""
    [ "$mode" = compact ] && flag="--compact"
    "$old" convert "$f" "$work/old.sdfg" $flag >"$work/old.out" 2>&1
    echo "exit $?" >>"$work/old.out"
    "$new" convert "$f" "$work/new.sdfg" $flag >"$work/new.out" 2>&1
    echo "exit $?" >>"$work/new.out"
    if ! cmp -s "$work/old.out" "$work/new.out"; then
      echo "DIFFERENT convert ($mode) status/message: $f"
      diff "$work/old.out" "$work/new.out" | head -5
      exit 1
    fi
    if [ -f "$work/old.sdfg" ] || [ -f "$work/new.sdfg" ]; then
      if ! cmp -s "$work/old.sdfg" "$work/new.sdfg"; then
        echo "DIFFERENT bytes ($mode): $f"
        exit 1
      fi
    fi
    rm -f "$work/old.sdfg" "$work/new.sdfg"
  done
  for cmd in hash validate; do
    "$old" "$cmd" "$f" >"$work/old.out" 2>&1
    echo "exit $?" >>"$work/old.out"
    "$new" "$cmd" "$f" >"$work/new.out" 2>&1
    echo "exit $?" >>"$work/new.out"
    if ! cmp -s "$work/old.out" "$work/new.out"; then
      echo "DIFFERENT $cmd: $f"
      diff "$work/old.out" "$work/new.out" | head -5
      exit 1
    fi
  done
done
echo "$files files: convert (pretty, compact), hash and validate give the same bytes"
