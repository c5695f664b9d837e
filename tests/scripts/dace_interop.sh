#!/usr/bin/env bash
# DaCe 1.0.x loads and validates what libdace writes. Skips (exit 77) with a reason when DaCe
# is not installed (scripts/setup.sh puts it in .venv-dace). A corpus file that DaCe itself
# cannot validate as written (softmax.gpu.sdfg: DaCe's GPU reduction expansion fails DaCe's
# own validation without CUDA) is reported and not held against the converted copy.
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"; SRC="$4"
PY="$SRC/.venv-dace/bin/python"
if [[ ! -x "$PY" ]] || ! "$PY" -c "import dace" 2>/dev/null; then
  echo "SKIP: DaCe 1.0.x is not installed in $SRC/.venv-dace (run scripts/setup.sh with network access to PyPI)"
  exit 77
fi
rm -rf "$TMP"; mkdir -p "$TMP"
files=(); declare -A original=()
while IFS= read -r f; do
  rel="${f#$CORPUS/}"; out="$TMP/${rel//\//__}"
  "$DACE" convert "$f" "$out" || { echo "FAIL convert $rel"; exit 1; }
  files+=("$out"); original["$out"]="$f"
done < <(find "$CORPUS" -name '*.sdfg' -not -path '*dace-0.14*' | sort)
status=0
while IFS= read -r line; do
  echo "$line"
  [[ "$line" == FAIL\ * ]] || continue
  converted="${line#FAIL }"; converted="${converted%%: *}"
  src="${original[$converted]:-}"
  if [[ -n "$src" ]] && ! "$PY" "$SRC/tests/scripts/dace_load_validate.py" "$src" >/dev/null 2>&1; then
    echo "  (DaCe fails on the original $src too: not counted)"
  else
    status=1
  fi
done < <("$PY" "$SRC/tests/scripts/dace_load_validate.py" "${files[@]}")
exit $status
