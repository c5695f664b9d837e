#!/usr/bin/env bash
# Runs transforms_vs_dace.py in DaCe 1.0.2's venv next to the repository; 77 (skip) without it.
set -euo pipefail
CLI="$1"; TMP="$2"; ROOT="$3"
VENV_PY="$ROOT/.venv-dace/bin/python"
if [[ ! -x "$VENV_PY" ]]; then echo "skip: no DaCe venv at $ROOT/.venv-dace"; exit 77; fi
exec "$VENV_PY" "$(dirname "$0")/transforms_vs_dace.py" "$CLI" "$TMP"
