#!/usr/bin/env python3
"""Writes the distributed matrix-product programs of tests/mpi/sdfgs with DaCe's Python frontend.

Run with DaCe 1.0.2 (`.venv-dace/bin/python tests/mpi/make_distr_matmul_sdfgs.py`); the SDFGs
are committed, so the tests need neither DaCe nor mpi4py. Each program is what DaCe 1.0.2 writes
for a distributed `A @ B`: rank 0's whole A and B are scattered block-cyclically over the Py x Px
BLACS grid (dace.comm.BCScatter -> BlockCyclicScatter), multiplied by ScaLAPACK
(dace.distr.MatMult -> Pgemm) and gathered back to rank 0 (dace.comm.BCGather ->
BlockCyclicGather); a Bcast hands the product to every rank. This is the body of DaCe's own
distributed Gemm expansion (ExpandGemmPBLAS), which DaCe 1.0.2 cannot run itself (its expansion
refers to an undefined name `distr`, and BCScatter / BCGather have only MKL implementations).
tests/scripts/mpi_distr_matmul_cases.py checks every rank against NumPy's A @ B.
"""
import os

import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')
K = dace.symbol('K')
Px = dace.symbol('Px', dtype=dace.int32, integer=True, positive=True)
Py = dace.symbol('Py', dtype=dace.int32, integer=True, positive=True)


@dace.program
def distr_matmul_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    lA = np.empty((M // Px, K // Py), dtype=A.dtype)
    lB = np.empty((K // Px, N // Py), dtype=B.dtype)
    dace.comm.BCScatter(A, lA, (M // Px, K // Py))
    dace.comm.BCScatter(B, lB, (K // Px, N // Py))
    lC = dace.distr.MatMult(lA, lB, (M, N, K))
    dace.comm.BCGather(lC, C, (M // Px, N // Py))
    dace.comm.Bcast(C)


@dace.program
def distr_matmul_c128(A: dace.complex128[M, K], B: dace.complex128[K, N], C: dace.complex128[M, N]):
    lA = np.empty((M // Px, K // Py), dtype=A.dtype)
    lB = np.empty((K // Px, N // Py), dtype=B.dtype)
    dace.comm.BCScatter(A, lA, (M // Px, K // Py))
    dace.comm.BCScatter(B, lB, (K // Px, N // Py))
    lC = dace.distr.MatMult(lA, lB, (M, N, K))
    dace.comm.BCGather(lC, C, (M // Px, N // Py))
    dace.comm.Bcast(C)


# Explicit block sizes MB x KB, KB x NB (symbols) smaller than a process's share: a process
# holds several blocks of each matrix (the cyclic wrap). The local arrays are M/Px x K/Py
# etc., which is numroc's count when Px * MB divides M (and so on); when it does not, some
# process needs more than its local array holds and BCScatter must refuse on every rank.
MB = dace.symbol('MB', dtype=dace.int32, integer=True, positive=True)
NB = dace.symbol('NB', dtype=dace.int32, integer=True, positive=True)
KB = dace.symbol('KB', dtype=dace.int32, integer=True, positive=True)


@dace.program
def distr_matmul_blocks_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    lA = np.empty((M // Px, K // Py), dtype=A.dtype)
    lB = np.empty((K // Px, N // Py), dtype=B.dtype)
    dace.comm.BCScatter(A, lA, (MB, KB))
    dace.comm.BCScatter(B, lB, (KB, NB))
    lC = dace.distr.MatMult(lA, lB, (M, N, K), a_block_sizes=(MB, KB), b_block_sizes=(KB, NB), c_block_sizes=(MB, NB))
    dace.comm.BCGather(lC, C, (MB, NB))
    dace.comm.Bcast(C)


def main():
    from dace.libraries.pblas.nodes.pgemm import Pgemm
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sdfgs')
    os.makedirs(out, exist_ok=True)
    for prog in (distr_matmul_f64, distr_matmul_c128, distr_matmul_blocks_f64):
        sdfg = prog.to_sdfg(simplify=True)
        for node, _ in sdfg.all_nodes_recursive():
            if isinstance(node, Pgemm):
                node.implementation = 'ReferenceOpenMPI'  # reference ScaLAPACK on Open MPI
        sdfg.save(os.path.join(out, f'{prog.name}.sdfg'))


if __name__ == '__main__':
    main()
