#!/usr/bin/env bash
# One program of ../shared/sdfg-corpus-mpi (DaCe-written distributed SDFGs with per-rank
# inputs and the per-rank outputs DaCe computed under mpirun -np 4), run by the MPI plugin:
#   1. simp under `mpirun -np 4 --oversubscribe dace run --case` with an empty shared cache
#      folder: every rank JIT-compiles for itself and writes the same entry (atomic rename);
#      afterwards the folder must hold exactly one object and no temporary file;
#   2. simp again: every rank loads that object; outputs must still match;
#   3. raw (DaCe's unsimplified frontend output) the same way.
# `dace run` compares each rank's outputs with DaCe's (rtol/atol of case.json) and exits
# non-zero on a mismatch. Exit 77 (skip, with the reason) without mpirun or the MPI plugin.
# usage: mpi_corpus_case.sh DACE_CLI MPI_PLUGIN CORPUS_DIR NAME WORK_DIR
set -uo pipefail
cli="$1"; plugin="$2"; corpus="$3"; name="$4"; work="$5"
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: mpirun is not installed"; exit 77; }
[[ -f "$plugin" ]] || { echo "SKIP: the MPI plugin was not built ($plugin; MPI not found at configure time)"; exit 77; }
dir="$corpus/$name"
[[ -f "$dir/case.json" ]] || { echo "SKIP: $dir/case.json not found (../shared/sdfg-corpus-mpi)"; exit 77; }
ranks="$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ranks"])' "$dir/case.json")"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
cache="$work/cache"
rm -rf "$work"; mkdir -p "$cache"
status=0
run() {  # variant label
  local sdfg="$dir/$name.$1.sdfg" log="$work/$1.$2.log"
  if timeout 180 mpirun -np "$ranks" --oversubscribe "$cli" run "$sdfg" --case "$dir/case.json" --cache-dir "$cache" \
      >"$log" 2>&1; then
    echo "ok   $name.$1 ($2): $(grep -c ': ok$' "$log") outputs matched over $ranks ranks"
  else
    echo "FAIL $name.$1 ($2):"; sed 's/^/    /' "$log" | tail -30; status=1
  fi
}
run simp cold
objects="$(find "$cache" -type f -name '*.dobj' | wc -l)"; others="$(find "$cache" -type f ! -name '*.dobj' | wc -l)"
if [[ "$objects" -ne 1 || "$others" -ne 0 ]]; then
  echo "FAIL shared cache after $ranks ranks compiled $name.simp: $objects objects, $others other files (want 1, 0)"
  find "$cache" -type f | sed 's/^/    /'; status=1
fi
run simp warm
run raw cold
exit $status
