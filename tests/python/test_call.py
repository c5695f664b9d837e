"""Calling compiled programs: every argument form, returns, reuse, specialization."""

import numpy as np
import pytest

import libdace
from helpers import axpb_sdfg, returning_sdfg


@pytest.fixture(scope="module")
def axpb2d():
    sdfg = axpb_sdfg("axpb2d", shape=("N", "M"))
    prog = sdfg.compile(opt_level=1)
    yield prog
    prog.close()
    sdfg.close()


def ref(a, s):
    return a * s + 1


def test_keywords_and_positional(axpb2d):
    a = np.arange(12.0).reshape(3, 4)
    b = np.zeros((3, 4))
    axpb2d(A=a, B=b, s=2.0)
    np.testing.assert_array_equal(b, ref(a, 2.0))
    b2 = np.zeros((3, 4))
    axpb2d(a, b2, 0.5)  # positional: arrays then scalars, in the program's order
    np.testing.assert_array_equal(b2, ref(a, 0.5))
    assert axpb2d.positional == ["A", "B", "s"]


def test_fortran_order_passed_without_copy(axpb2d):
    a = np.asfortranarray(np.arange(20.0).reshape(4, 5))
    b = np.asfortranarray(np.zeros((4, 5)))
    before = axpb2d.specializations
    axpb2d(A=a, B=b, s=3.0)
    np.testing.assert_array_equal(b, ref(a, 3.0))
    assert axpb2d.specializations == before + 1
    b[...] = 0
    axpb2d(A=a, B=b, s=3.0)  # cached: no new compile
    assert axpb2d.specializations == before + 1
    np.testing.assert_array_equal(b, ref(a, 3.0))


def test_strided_views_written_in_place(axpb2d):
    big_a = np.arange(100.0).reshape(10, 10)
    big_b = np.full((10, 10), -1.0)
    a = big_a[1:8:2, ::3]
    b = big_b[1:8:2, ::3]
    axpb2d(A=a, B=b, s=-2.0)
    np.testing.assert_array_equal(big_b[1:8:2, ::3], ref(a, -2.0))
    untouched = np.ones_like(big_b, dtype=bool)
    untouched[1:8:2, ::3] = False
    assert np.all(big_b[untouched] == -1.0)


def test_reversed_views_read_and_written(axpb2d):
    # Negative strides: NumPy's a[::-1] passed without copies, read and written in place.
    big_a = np.arange(42.0).reshape(6, 7)
    a = big_a[::-1, ::-2]
    b_store = np.full((6, 8), -1.0)
    b = b_store[::-1, 1::2]
    expect = ref(a.copy(), 4.0)
    axpb2d(A=a, B=b, s=4.0)
    np.testing.assert_array_equal(b, expect)
    untouched = np.ones_like(b_store, dtype=bool)
    untouched[:, 1::2] = False
    assert np.all(b_store[untouched] == -1.0)
    np.testing.assert_array_equal(big_a, np.arange(42.0).reshape(6, 7))  # input untouched


def test_broadcast_input_with_zero_strides(axpb2d):
    row = np.arange(5.0)
    a = np.broadcast_to(row, (3, 5))  # strides (0, 8)
    b = np.zeros((3, 5))
    axpb2d(A=a, B=b, s=2.0)
    np.testing.assert_array_equal(b, ref(np.tile(row, (3, 1)), 2.0))


def test_mixed_layouts_and_transposed_view(axpb2d):
    a = np.arange(30.0).reshape(5, 6).T  # Fortran-order view of a C array
    b = np.zeros((6, 5))
    axpb2d(A=a, B=b, s=1.5)
    np.testing.assert_array_equal(b, ref(a, 1.5))


def test_symbols_inferred_and_explicit(axpb2d):
    a = np.ones((2, 3))
    b = np.zeros((2, 3))
    axpb2d(A=a, B=b, s=1.0, N=2, M=3)
    np.testing.assert_array_equal(b, np.full((2, 3), 2.0))
    axpb2d(A=a, B=b, s=2.0, N=np.int32(2))  # NumPy integer symbol, M inferred
    np.testing.assert_array_equal(b, np.full((2, 3), 3.0))


def test_scalars_converted(axpb2d):
    a = np.ones((2, 2))
    b = np.zeros((2, 2))
    for s, expect in [(2, 3.0), (np.float32(0.5), 1.5), (np.int64(3), 4.0), (np.array(4.0), 5.0), (True, 2.0)]:
        axpb2d(A=a, B=b, s=s)
        np.testing.assert_array_equal(b, np.full((2, 2), expect))


def test_integer_and_float32_programs():
    with axpb_sdfg("axpb_i32", dtype=libdace.int32) as sdfg, sdfg.compile() as prog:
        a = np.arange(6, dtype=np.int32)
        b = np.zeros(6, dtype=np.int32)
        prog(A=a, B=b, s=np.int32(3))
        np.testing.assert_array_equal(b, a * 3 + 1)
    with axpb_sdfg("axpb_f32", dtype=libdace.float32) as sdfg, sdfg.compile() as prog:
        a = np.linspace(0, 1, 7, dtype=np.float32)
        b = np.zeros(7, dtype=np.float32)
        prog(A=a, B=b, s=0.25)
        np.testing.assert_allclose(b, a * np.float32(0.25) + 1, rtol=1e-6)


@pytest.mark.parametrize("dtype, np_dtype, rtol", [(libdace.complex128, np.complex128, 1e-15),
                                                   (libdace.complex64, np.complex64, 1e-6)])
def test_complex_scalar(dtype, np_dtype, rtol):
    with axpb_sdfg("axpb_c", dtype=dtype) as sdfg, sdfg.compile() as prog:
        a = (np.arange(4) + 1j * np.arange(4)).astype(np_dtype)
        b = np.zeros(4, dtype=np_dtype)
        prog(A=a, B=b, s=1 - 2j)
        np.testing.assert_allclose(b, a * (1 - 2j) + 1, rtol=rtol)


def test_zero_d_array_for_one_element_array():
    sdfg = libdace.SDFG("one")
    sdfg.add_array("X", [1], libdace.float64)
    sdfg.add_array("Y", [1], libdace.float64)
    st = sdfg.add_state()
    t = st.add_tasklet("t", {"x"}, {"y"}, "y = x + 10")
    st.add_edge(st.add_read("X"), None, t, "x", "X[0]")
    st.add_edge(t, "y", st.add_write("Y"), None, "Y[0]")
    with sdfg, sdfg.compile() as prog:
        x = np.array(5.0)
        y = np.array(0.0)
        prog(X=x, Y=y)
        assert y[()] == 15.0


def test_return_values_like_dace():
    with returning_sdfg() as sdfg, sdfg.compile() as prog:
        a = np.arange(5.0)
        r1 = prog(A=a)
        assert isinstance(r1, np.ndarray) and r1.shape == (5,)
        np.testing.assert_array_equal(r1, a * 2)
        r2 = prog(a)
        assert r2 is not r1  # fresh arrays per call
        r3 = prog(A=np.arange(3.0))
        np.testing.assert_array_equal(r3, [0.0, 2.0, 4.0])
        out = np.zeros(5)
        assert prog(A=a, __return=out) is out
        np.testing.assert_array_equal(out, a * 2)


def test_return_array_with_negative_strides():
    # A return descriptor laid out reversed: the array handed back views a buffer of its own.
    with returning_sdfg() as sdfg:
        sdfg.arrays["__return"].set_strides(["-1"])
        with sdfg.compile() as prog:
            a = np.arange(6.0)
            r = prog(A=a)
            assert r.strides == (-8,)
            np.testing.assert_array_equal(r, a * 2)
            np.testing.assert_array_equal(r.base[::-1], a * 2)  # memory order is reversed


def test_several_returns_as_tuple():
    sdfg = libdace.SDFG("two")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("__return_0", ["N"], libdace.float64)
    sdfg.add_array("__return_1", ["N"], libdace.int64)
    st = sdfg.add_state()
    st.add_mapped_tasklet("t", {"i": "0:N"}, {"a": "A[i]"}, "p = a + 1\nq = int(a) * 3",
                          {"p": "__return_0[i]", "q": "__return_1[i]"}, external_edges=True)
    with sdfg, sdfg.compile() as prog:
        r = prog(A=np.arange(4.0))
        assert isinstance(r, tuple) and len(r) == 2
        np.testing.assert_array_equal(r[0], np.arange(4.0) + 1)
        assert r[1].dtype == np.int64
        np.testing.assert_array_equal(r[1], np.arange(4) * 3)


def test_no_return_gives_none(axpb2d):
    assert axpb2d(A=np.ones((1, 1)), B=np.zeros((1, 1)), s=1.0) is None


def test_program_reusable_and_independent_of_later_edits():
    sdfg = axpb_sdfg("edit")
    prog = sdfg.compile()
    sdfg.add_array("Z", ["N"], libdace.float64)  # later edits do not reach the program
    a = np.arange(3.0)
    for k in range(5):
        b = np.zeros(3)
        prog(A=a, B=b, s=float(k))
        np.testing.assert_array_equal(b, ref(a, k))
    prog.close()
    prog.close()
    sdfg.close()


def test_garbage_collection_releases_safely():
    import gc

    for _ in range(3):
        prog = axpb_sdfg("gc").compile()  # the SDFG object is dropped at once
        prog(A=np.ones(2), B=np.zeros(2), s=1.0)
        del prog
        gc.collect()
