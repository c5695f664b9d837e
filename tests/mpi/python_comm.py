"""The Python package's `compile(comm=...)` under `mpirun -np 4` (docs/mpi.md "Host side").

Each rank splits MPI_COMM_WORLD with mpi4py into the even and the odd ranks and compiles the
corpus's allreduce_mean (sum over the ranks of x*x, divided by the symbol P) twice: with the
2-rank communicator (P = 2) and with COMM_WORLD (P = 4). Rank r passes x = (r + 1) * [1..20], so
the sum over a set of ranks R is sum((r + 1)^2 for r in R) * [1..20]^2, computed here by hand.
A program that ignored `comm` (ran on MPI_COMM_WORLD) would give the 4-rank sum in the first
case. Afterwards mpi4py's own communicators still work (libdace duplicated them, did not free
or finalise them). Every rank prints one line; the exit status is 1 on any mismatch.

usage: mpirun -np 4 PYTHON python_comm.py CORPUS_MPI_DIR   (PYTHONPATH: bindings/python)
"""
import os
import sys

import numpy as np
from mpi4py import MPI

import libdace


def main():
    corpus = sys.argv[1]
    world = MPI.COMM_WORLD
    rank, size = world.Get_rank(), world.Get_size()
    if size != 4:
        print(f"rank {rank}: run with mpirun -np 4 (got {size} ranks)")
        return 2
    sdfg = libdace.SDFG.from_file(os.path.join(corpus, "allreduce_mean", "allreduce_mean.simp.sdfg"))
    half = world.Split(color=rank % 2, key=rank)
    base = np.arange(1.0, 21.0)
    x = (rank + 1) * base
    failures = []
    for comm, members in ((half, [r for r in range(4) if r % 2 == rank % 2]), (world, [0, 1, 2, 3])):
        prog = sdfg.compile(comm=comm)
        out = prog(x=x.copy(), N=20, P=comm.Get_size())
        expected = sum((r + 1) ** 2 for r in members) * base ** 2 / len(members)
        if not np.allclose(out, expected, rtol=1e-12, atol=0):
            failures.append(f"over ranks {members}: got {out[:3]}..., expected {expected[:3]}...")
        del prog
    # The host's communicators are still usable: libdace worked on duplicates.
    if half.allreduce(1) != 2 or world.allreduce(rank) != 6:
        failures.append("mpi4py's communicators no longer work after the programs were released")
    half.Free()
    if failures:
        print(f"rank {rank}: FAIL " + "; ".join(failures))
        return 1
    print(f"rank {rank}: ok (comm= of 2 and of 4 ranks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
