#!/usr/bin/env bash
# tests/mpi/python_comm.py (the Python package's comm= with an mpi4py communicator) under
# `mpirun -np 4` with the Python of .venv-dace, which has mpi4py (scripts/setup.sh). Exit 77
# (skip, with the reason) without mpirun or without mpi4py in that Python.
# usage: mpi_python_comm.sh PYTHON LIBDACE_LIBRARY SOURCE_DIR CORPUS_MPI_DIR
set -uo pipefail
python="$1"; lib="$2"; src="$3"; corpus="$4"
[[ -x "$python" ]] || { echo "SKIP: $python not found (scripts/setup.sh makes .venv-dace)"; exit 77; }
"$python" -c 'import mpi4py, numpy' 2>/dev/null || { echo "SKIP: mpi4py or NumPy is not importable by $python"; exit 77; }
[[ -d "$corpus" ]] || { echo "SKIP: $corpus not found"; exit 77; }
export LIBDACE_LIBRARY="$lib" PYTHONPATH="$src/bindings/python"
out=$(bash "$src/tests/scripts/mpirun_test.sh" 4 300 "$python" "$src/tests/mpi/python_comm.py" "$corpus" 2>&1)
rc=$?
echo "$out"
# Count the ranks' verdicts, not lines: mpirun forwards each rank's output in pieces, and two
# ranks' lines can reach the terminal joined ("rank 1: ok (...)rank 2: ok (...)").
ok=$(grep -Eo 'rank [0-9]+: ok \(comm= of 2 and of 4 ranks\)' <<<"$out" | sort -u | wc -l)
[[ $rc -eq 0 && $ok -eq 4 ]] || { echo "FAIL: exit $rc, $ok of 4 ranks ok"; exit 1; }
