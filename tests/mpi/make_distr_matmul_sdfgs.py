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

gemm_pblas_f64 / gemm_pblas_c64 are plain `C[:] = A @ B` programs whose MatMul DaCe specializes
(expand_library_nodes) into a Gemm, given the implementation "PBLAS" (DaCe's ExpandGemmPBLAS,
which DaCe 1.0.2 fails to expand); matmul_pblas_c128 keeps the MatMul node with implementation
"PBLAS". libdace's ExpandGemmPBLAS turns each into the BCScatter -> Pgemm -> BCGather program.
matmul_pblas_map1_f64 is such a MatMul inside a map of one iteration (the compile pipeline removes
the map first), matmul_pblas_nested_f64 one inside a nested SDFG (the pipeline inlines it first),
matmul_pblas_map1_nested_f64 the map of one iteration written without simplify: its body is a
nested SDFG of several states inside the map (the pipeline removes the map, then inlines).
bc_vector_f64 scatters and gathers a vector (DaCe's 1-D BCScatter / BCGather).
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


@dace.program
def gemm_pblas_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    C[:] = A @ B


@dace.program
def gemm_pblas_c64(A: dace.complex64[M, K], B: dace.complex64[K, N], C: dace.complex64[M, N]):
    C[:] = A @ B


@dace.program
def matmul_pblas_c128(A: dace.complex128[M, K], B: dace.complex128[K, N], C: dace.complex128[M, N]):
    C[:] = A @ B


@dace.program
def matmul_pblas_map1_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    for i in dace.map[0:1]:  # a map of one iteration around the product (DaCe's simplify keeps it)
        C[:] = A @ B


@dace.program
def matmul_pblas_map1_nested_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    for i in dace.map[0:1]:  # written without simplify: the map's body is a nested SDFG of several states
        C[:] = A @ B


@dace.program
def pblas_product_callee(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    C[:] = A @ B


@dace.program
def matmul_pblas_nested_f64(A: dace.float64[M, K], B: dace.float64[K, N], C: dace.float64[M, N]):
    pblas_product_callee(A, B, C)  # a nested SDFG (written without simplify, which would inline it)


LN = dace.symbol('LN')


@dace.program
def bc_vector_f64(x: dace.float64[N], lx: dace.float64[LN], y: dace.float64[N], grid: dace.int32[2]):
    """A vector scattered block-cyclically (blocks of NB) over the process rows of the Py x Px
    BLACS grid, doubled in place, gathered back to rank 0 (DaCe's vector BCScatter / BCGather)."""
    dace.comm.BCScatter(x, lx, (NB, 1))
    lx[:] = 2 * lx
    dace.comm.BCGather(lx, y, (NB, 1))
    grid[0] = Px  # uses the grid's symbols, which the BLACS grid is created from
    grid[1] = Py


# A product per iteration of a map of three, on the matrices A[i], B[i], C[i] of 3-D arrays (the
# pipeline makes the map sequential and expands inside it). Defined last so that regenerating
# keeps the other programs' line numbers, hence their state labels, which tests name.
@dace.program
def matmul_pblas_map3_f64(A: dace.float64[3, M, K], B: dace.float64[3, K, N], C: dace.float64[3, M, N]):
    for i in dace.map[0:3]:
        C[i] = A[i] @ B[i]


def write_pblas_products(out):
    from dace.libraries.blas.nodes.gemm import Gemm
    from dace.libraries.blas.nodes.matmul import MatMul
    for prog, specialize, simplify in ((gemm_pblas_f64, True, True), (gemm_pblas_c64, True, True),
                                       (matmul_pblas_c128, False, True), (matmul_pblas_map1_f64, False, True),
                                       (matmul_pblas_map3_f64, False, True), (matmul_pblas_nested_f64, False, False),
                                       (matmul_pblas_map1_nested_f64, False, False)):
        sdfg = prog.to_sdfg(simplify=simplify)
        if specialize:
            sdfg.expand_library_nodes(recursive=False)  # MatMul -> Gemm (SpecializeMatMul)
        kinds = (Gemm, ) if specialize else (MatMul, )
        nodes = [n for n, _ in sdfg.all_nodes_recursive() if isinstance(n, kinds)]
        assert len(nodes) == 1, nodes
        nodes[0].implementation = 'PBLAS'
        sdfg.validate()
        sdfg.save(os.path.join(out, f'{prog.name}.sdfg'))


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
    write_pblas_products(out)
    bc_vector_f64.to_sdfg(simplify=True).save(os.path.join(out, 'bc_vector_f64.sdfg'))


if __name__ == '__main__':
    main()
