"""compile(bounds_check=True): a shifted subset that validation cannot prove out of bounds
raises RuntimeFailure naming the memlet and the index, and nothing is written outside the
arrays (guard cells around B keep their values); without it the write lands in the guard."""

import numpy as np
import pytest

import libdace
from libdace import Memlet

GUARD = -777.0


def shifted_sdfg(name):
    """B[i + K - 1] = A[i] for i in 0:N (validation takes K >= 1: it cannot prove this out of bounds)."""
    sdfg = libdace.SDFG(name)
    sdfg.add_symbol("N", libdace.int64)
    sdfg.add_symbol("K", libdace.int64)
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("B", ["N"], libdace.float64)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet("shift", {"i": "0:N"}, {"a": Memlet("A[i]")}, "b = a", {"b": Memlet("B[i + K - 1]")},
                             external_edges=True)
    return sdfg


def guarded(n):
    buf = np.full(n + 4, GUARD)
    return buf, buf[2:2 + n]


@pytest.mark.parametrize("k,index", [(2, "is 5, outside 0..4"), (0, "is -1, outside 0..4")])
def test_shifted_write_is_stopped(k, index):
    sdfg = shifted_sdfg("py_bounds")
    assert sdfg.is_valid()
    prog = sdfg.compile(opt_level=1, bounds_check=True)
    a = np.arange(5, dtype=np.float64) + 1
    buf, b = guarded(5)
    with pytest.raises(libdace.RuntimeFailure) as info:
        prog(A=a, B=b, K=k)
    assert 'memlet "B[' in info.value.message and index in info.value.message
    assert "bounds check" in info.value.message
    assert np.all(buf[:2] == GUARD) and np.all(buf[-2:] == GUARD)
    prog(A=a, B=b, K=1)  # still callable
    assert np.array_equal(b, a)
    prog.close()
    sdfg.close()


def test_without_the_option_the_write_lands_outside():
    sdfg = shifted_sdfg("py_nobounds")
    prog = sdfg.compile(opt_level=1)
    a = np.arange(5, dtype=np.float64) + 1
    buf, b = guarded(5)
    prog(A=a, B=b, K=2)
    assert buf[-2] == 5.0  # B[5], one past the end: the guard cell
    prog.close()
    sdfg.close()
