#!/usr/bin/env bash
# Where MPI is not installed: libmpi.so.40 bind-mounted over by /dev/null in a private mount
# namespace of each command (the file is untouched). The MPI plugin then fails to load, and
#  - a CPU program (the corpus's atax) still compiles and runs and matches its case: nothing
#    else breaks;
#  - an MPI program (the MPI corpus's allreduce_mean) is refused when compiled with the
#    plugin-unavailable status naming the plugin and the loader's message about libmpi,
#    rather than crashing or failing at an MPI call.
# Exit 77 (skip, with the reason) where libmpi is not installed or a private mount namespace
# cannot be made or libmpi cannot be bind-mounted over in it (not root, no unshare, a
# container that denies mounts).
# usage: mpi_missing_libmpi.sh DACE_CLI CORPUS_DIR CORPUS_MPI_DIR WORK_DIR
set -uo pipefail
cli="$1"; corpus="$2"; corpus_mpi="$3"; work="$4"
libmpi=$(ldconfig -p 2>/dev/null | awk '/libmpi\.so\.40 /{print $NF; exit}')
[[ -n "$libmpi" ]] || { echo "SKIP: libmpi.so.40 is not installed"; exit 77; }
libmpi=$(readlink -f "$libmpi")
unshare -m true 2>/dev/null || { echo "SKIP: cannot create a private mount namespace (unshare -m)"; exit 77; }
# The namespace alone is not enough: a container may allow it but deny the bind mount itself.
unshare -m sh -c 'mount --bind /dev/null "$1"' sh "$libmpi" 2>/dev/null ||
  { echo "SKIP: cannot bind-mount /dev/null over $libmpi in a private mount namespace"; exit 77; }
[[ -d "$corpus/atax" && -d "$corpus_mpi/allreduce_mean" ]] || { echo "SKIP: the corpora are not there"; exit 77; }
rm -rf "$work" && mkdir -p "$work"
status=0

# without_mpi ARGS...: the CLI with libmpi unloadable; prints its output, returns its status.
without_mpi() {
  unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$libmpi" "$cli" "$@" 2>&1
}

out=$(cd "$corpus/atax" && without_mpi run atax.simp.sdfg --case case.json --cache-dir "$work/cache")
rc=$?
if [[ $rc -eq 0 && "$out" == *": ok"* && "$out" != *"mismatch"* ]]; then
  echo "ok   atax (CPU) runs and matches its case without libmpi"
else
  printf 'FAIL atax without libmpi (exit %s):\n%s\n' "$rc" "$out"; status=1
fi

out=$(without_mpi compile "$corpus_mpi/allreduce_mean/allreduce_mean.simp.sdfg" --cache-dir "$work/cache")
rc=$?
for needle in 'plugin unavailable: plugin "' 'libdace_plugin_mpi.so": cannot be loaded: ' 'libmpi.so.40'; do
  if [[ $rc -eq 0 || "$out" != *"$needle"* ]]; then
    printf 'FAIL allreduce_mean without libmpi (exit %s): missing %s in:\n%s\n' "$rc" "$needle" "$out"; status=1
    break
  fi
done
[[ $status -eq 0 ]] && echo "ok   allreduce_mean (MPI) refused without libmpi: $(head -c 400 <<<"$out")"
exit $status
