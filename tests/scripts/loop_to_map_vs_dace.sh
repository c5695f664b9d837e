#!/usr/bin/env bash
# Runs loop_to_map_vs_dace.py in DaCe 1.0.2's venv next to the repository; 77 (skip) without it.
set -euo pipefail
CLI="$1"; CORPUS="$2"; TMP="$3"; ROOT="$4"
VENV_PY="$ROOT/.venv-dace/bin/python"
if [[ ! -x "$VENV_PY" ]]; then echo "skip: no DaCe venv at $ROOT/.venv-dace"; exit 77; fi
exec "$VENV_PY" "$(dirname "$0")/loop_to_map_vs_dace.py" "$CLI" "$CORPUS" "$TMP"
