#!/usr/bin/env bash
# Runs a test program under `mpirun -np NP --oversubscribe` (as root too), with a time limit so
# that a deadlock fails instead of hanging CI. Exit 77 (skip, with the reason) without mpirun.
# usage: mpirun_test.sh NP SECONDS PROGRAM [ARGS...]
set -uo pipefail
np="$1"; seconds="$2"; shift 2
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: mpirun is not installed"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
timeout "$seconds" mpirun -np "$np" --oversubscribe "$@"
rc=$?
[[ $rc -eq 124 ]] && echo "FAILED: still running after ${seconds}s (deadlock?)"
exit $rc
