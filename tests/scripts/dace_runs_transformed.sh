#!/usr/bin/env bash
# DaCe 1.0.2 loads, validates, compiles and runs the corpus raw SDFGs after `dace optimize`
# (tests/scripts/dace_runs_transformed.py). Skips (exit 77) with a reason when DaCe is not
# installed in .venv-dace (scripts/setup.sh).
set -uo pipefail
DACE="$1"; CORPUS="$2"; WORK="$3"; SRC="$4"
PY="$SRC/.venv-dace/bin/python"
if [[ ! -x "$PY" ]] || ! "$PY" -c "import dace" 2>/dev/null; then
  echo "SKIP: DaCe 1.0.x is not installed in $SRC/.venv-dace (run scripts/setup.sh with network access to PyPI)"
  exit 77
fi
if [[ ! -d "$CORPUS" ]]; then echo "SKIP: no corpus at $CORPUS"; exit 77; fi
mkdir -p "$WORK"
exec "$PY" "$SRC/tests/scripts/dace_runs_transformed.py" "$DACE" "$CORPUS" "$WORK" --jobs 2
