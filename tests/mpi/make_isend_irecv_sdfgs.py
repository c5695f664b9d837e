#!/usr/bin/env python3
"""Writes the Isend / Irecv / Waitall element-type programs of tests/mpi/sdfgs with DaCe's frontend.

Run with DaCe 1.0.2 and mpi4py (`.venv-dace/bin/python tests/mpi/make_isend_irecv_sdfgs.py`); the
SDFGs are committed, so the tests need neither. One program per element type (int32, int64,
float32, complex128): every rank sends its x to the next rank of a ring and receives the previous
rank's into y (whole arrays), and sends every other element of x backwards into every other
element of z (strided subsets), all requests awaited by one Waitall; and isend_irecv_wait_f64,
the whole-array ring with each request awaited by its own Wait.
tests/scripts/mpi_isend_irecv_cases.py checks every rank against NumPy.
"""
import os

import dace
import numpy as np
from mpi4py import MPI

L = dace.symbol('L')


def ring(name, dtype):

    @dace.program
    def prog(x: dtype[L], y: dtype[L], z: dtype[L], rank: dace.int32, size: dace.int32):
        req = np.empty((4, ), dtype=MPI.Request)
        nxt = (rank + 1) % size
        prv = (rank + size - 1) % size
        dace.comm.Isend(x, nxt, 3, req[0])
        dace.comm.Irecv(y, prv, 3, req[1])
        dace.comm.Isend(x[0:L:2], prv, 4, req[2])
        dace.comm.Irecv(z[1:L:2], nxt, 4, req[3])
        dace.comm.Waitall(req)

    sdfg = prog.to_sdfg(simplify=True)
    sdfg.name = name
    return sdfg


def ring_wait():
    """Each request awaited by its own Wait (DaCe's single-request node): every rank receives the
    previous rank's x into y (tag 5) and sends its x to the next rank; the receive's Wait writes
    the status's source and tag, which the program returns in stat[0], stat[1] (DaCe's frontend
    writes them to temporaries nobody reads; they are redirected here, nothing else is touched)."""

    @dace.program
    def prog(x: dace.float64[L], y: dace.float64[L], rank: dace.int32, size: dace.int32, stat: dace.int32[2]):
        req = np.empty((2, ), dtype=MPI.Request)
        nxt = (rank + 1) % size
        prv = (rank + size - 1) % size
        dace.comm.Irecv(y, prv, 5, req[1])
        dace.comm.Isend(x, nxt, 5, req[0])
        dace.comm.Wait(req[1])
        dace.comm.Wait(req[0])

    from dace.libraries.mpi.nodes.wait import Wait
    sdfg = prog.to_sdfg(simplify=True)
    sdfg.name = 'isend_irecv_wait_f64'
    waits = [(n, st) for n, st in sdfg.all_nodes_recursive() if isinstance(n, Wait)]
    assert len(waits) == 2, waits
    redirected = 0
    for node, state in waits:
        req = next(e for e in state.in_edges(node) if e.dst_conn == '_request')
        if str(req.data.subset) != '1':
            continue
        for e in state.out_edges(node):
            index = {'_stat_source': 0, '_stat_tag': 1}[e.src_conn]
            e.dst.data = 'stat'
            e.data = dace.Memlet(f'stat[{index}]')
            redirected += 1
    assert redirected == 2, redirected
    sdfg.validate()
    return sdfg


TYPES = {
    'isend_irecv_int32': dace.int32,
    'isend_irecv_int64': dace.int64,
    'isend_irecv_float32': dace.float32,
    'isend_irecv_complex128': dace.complex128,
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sdfgs')
    os.makedirs(out, exist_ok=True)
    for name, dtype in TYPES.items():
        ring(name, dtype).save(os.path.join(out, f'{name}.sdfg'))
    ring_wait().save(os.path.join(out, 'isend_irecv_wait_f64.sdfg'))


if __name__ == '__main__':
    main()
