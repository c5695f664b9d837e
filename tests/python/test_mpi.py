"""The Python package's MPI communicator argument (docs/mpi.md): `compile(comm=...)` takes an
mpi4py communicator and hands its MPI_Comm to the program's MPI nodes."""

import os

import numpy as np
import pytest

import libdace
from conftest import REPO

MPI_CORPUS = os.path.normpath(os.path.join(REPO, "..", "shared", "sdfg-corpus-mpi"))


def _mpi4py():
    try:
        from mpi4py import MPI  # noqa: F401

        return MPI
    except ImportError:
        return None


def _allreduce_mean():
    path = os.path.join(MPI_CORPUS, "allreduce_mean", "allreduce_mean.simp.sdfg")
    if not os.path.exists(path):
        pytest.skip(f"the MPI corpus is not at {MPI_CORPUS}")
    return libdace.SDFG.from_file(path)


def test_comm_must_be_an_mpi4py_communicator():
    # Without mpi4py the message says so; with it, an object that is no MPI.Comm is refused.
    sdfg = _allreduce_mean()
    with pytest.raises(TypeError, match="mpi4py|MPI.Comm"):
        sdfg.compile(comm=object())


def test_mpi4py_communicator_is_used():
    MPI = _mpi4py()
    if MPI is None:
        pytest.skip("mpi4py is not installed (Debian: python3-mpi4py)")
    # One process: COMM_SELF has one rank, so the mean over ranks of x*x is x*x itself.
    prog = _allreduce_mean().compile(comm=MPI.COMM_SELF)
    x = np.arange(1.0, 21.0)
    out = prog(x=x, N=20, P=1)
    np.testing.assert_allclose(out, x * x, rtol=1e-12)
