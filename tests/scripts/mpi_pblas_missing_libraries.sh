#!/usr/bin/env bash
# The distributed product where it cannot run: `dace compile` of DaCe-written programs with
# ScaLAPACK, then the MPI plugin, made unloadable (each bind-mounted over by /dev/null in a
# private mount namespace of this command only; the files are untouched). Every refusal must
# name what the user wrote and why (docs/mpi.md):
#  - gemm_pblas_f64 (a Gemm with implementation PBLAS) without ScaLAPACK: Unsupported naming
#    the Gemm node and the vendor library, with the loader's message;
#  - distr_matmul_f64 (BCScatter, Pgemm, BCGather written by hand) without ScaLAPACK:
#    Unsupported at its first such node naming the implementation and the library, not a
#    missing plugin ("needs a backend plugin");
#  - gemm_pblas_f64 without a loadable MPI plugin: the loader's status, naming the Gemm node.
# Exit 77 (skip, with the reason) where a private mount namespace cannot be made (not root, no
# unshare) or ScaLAPACK is not installed.
# usage: mpi_pblas_missing_libraries.sh DACE_CLI MPI_PLUGIN SDFG_DIR
set -uo pipefail
cli="$1"; plugin="$2"; sdfgs="$3"
scalapack=$(ldconfig -p 2>/dev/null | awk '/libscalapack-openmpi\.so\.2\.2 /{print $NF; exit}')
[[ -n "$scalapack" ]] || { echo "SKIP: libscalapack-openmpi.so.2.2 is not installed"; exit 77; }
unshare -m true 2>/dev/null || { echo "SKIP: cannot create a private mount namespace (unshare -m)"; exit 77; }
status=0

# compile_hidden FILE SDFG: `dace compile SDFG` with FILE unloadable; prints its output.
compile_hidden() {
  unshare -m sh -c 'mount --bind /dev/null "$1" && exec "$2" compile "$3"' sh "$1" "$cli" "$2" 2>&1
}

# expect WHAT OUTPUT NEEDLE...: every needle in the output, and the compile failed.
expect() {
  local what="$1" out="$2"; shift 2
  local needle
  for needle in "$@"; do
    if [[ "$out" != *"$needle"* ]]; then
      printf 'FAIL %s: missing\n  %s\nin:\n%s\n' "$what" "$needle" "$out"
      status=1
      return
    fi
  done
  echo "ok   $what"
}

gemm_node='at sdfg "gemm_pblas_f64" / state "BinOp_75" / node 3 (LibraryNode "_MatMult_gemm") cannot be compiled: '
out=$(compile_hidden "$scalapack" "$sdfgs/gemm_pblas_f64.sdfg")
expect "PBLAS Gemm without ScaLAPACK" "$out" "unsupported: library node with implementation \"PBLAS\" $gemm_node" \
  "implementation \"ReferenceOpenMPI\" needs the vendor library \"libscalapack-openmpi.so.2.2\", which cannot be loaded: " \
  "file too short"
out=$(compile_hidden "$scalapack" "$sdfgs/distr_matmul_f64.sdfg")
expect "hand-written distributed product (distr_matmul_f64) without ScaLAPACK" "$out" \
  "cannot be compiled: implementation \"ReferenceOpenMPI\" needs the vendor library \"libscalapack-openmpi.so.2.2\""
[[ "$out" == *"needs a backend plugin"* ]] && { echo "FAIL hand-written distributed product: still blames a missing plugin"; status=1; }
out=$(compile_hidden "$plugin" "$sdfgs/gemm_pblas_f64.sdfg")
expect "PBLAS Gemm without a loadable MPI plugin" "$out" "plugin unavailable: library node with implementation \"PBLAS\" $gemm_node" \
  "and loading the plugins failed: plugin \"$plugin\""
exit $status
