#!/usr/bin/env bash
# DaCe 1.0.x loads and validates what libdace writes. Skips (exit 77) with a reason when DaCe
# is not installed (scripts/setup.sh puts it in .venv-dace).
set -uo pipefail
DACE="$1"; CORPUS="$2"; TMP="$3"; SRC="$4"
PY="$SRC/.venv-dace/bin/python"
if [[ ! -x "$PY" ]] || ! "$PY" -c "import dace" 2>/dev/null; then
  echo "SKIP: DaCe 1.0.x is not installed in $SRC/.venv-dace (run scripts/setup.sh with network access to PyPI)"
  exit 77
fi
rm -rf "$TMP"; mkdir -p "$TMP"
files=()
while IFS= read -r f; do
  rel="${f#$CORPUS/}"; out="$TMP/${rel//\//__}"
  "$DACE" convert "$f" "$out" || { echo "FAIL convert $rel"; exit 1; }
  files+=("$out")
done < <(find "$CORPUS" -name '*.sdfg' -not -path '*dace-0.14*' | sort)
"$PY" "$SRC/tests/scripts/dace_load_validate.py" "${files[@]}"
