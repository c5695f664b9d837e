"""Every error path raises a LibdaceError subclass carrying status, message and element path."""

import numpy as np
import pytest

import libdace
from libdace import _capi
from helpers import axpb_sdfg


@pytest.fixture(scope="module")
def prog():
    sdfg = axpb_sdfg("errs")
    p = sdfg.compile(opt_level=0)
    yield p
    p.close()
    sdfg.close()


def test_wrong_dtype(prog):
    b = np.zeros(4)
    with pytest.raises(libdace.InvalidArgumentError) as info:
        prog(A=np.zeros(4, dtype=np.float32), B=b, s=1.0)
    err = info.value
    assert err.status == _capi.DACE_ERROR_INVALID_ARGUMENT
    assert err.path == 'sdfg "errs" / argument "A"'
    assert "dtype" in err.message
    assert np.all(b == 0)  # nothing ran


def test_wrong_shape(prog):
    with pytest.raises(libdace.InvalidArgumentError) as info:
        prog(A=np.zeros(4), B=np.zeros(5), s=1.0)
    assert info.value.path.endswith('argument "B"') or info.value.path.endswith('argument "A"')
    with pytest.raises(libdace.InvalidArgumentError) as info:
        prog(A=np.zeros((2, 2)), B=np.zeros(4), s=1.0)  # wrong rank
    assert 'argument "A"' in info.value.path


def test_inconsistent_explicit_symbol(prog):
    with pytest.raises(libdace.InvalidArgumentError) as info:
        prog(A=np.zeros(4), B=np.zeros(4), s=1.0, N=5)
    assert info.value.path.startswith('sdfg "errs"')


def test_missing_argument(prog):
    with pytest.raises(libdace.InvalidArgumentError) as info:
        prog(A=np.zeros(4), B=np.zeros(4))
    assert info.value.path == 'sdfg "errs" / argument "s"'
    assert "missing" in info.value.message


def test_unknown_argument_and_bad_python_types(prog):
    with pytest.raises(libdace.NotFoundError) as info:
        prog(A=np.zeros(4), B=np.zeros(4), s=1.0, bogus=3)
    assert info.value.path == 'sdfg "errs" / argument "bogus"'
    with pytest.raises(TypeError) as info:  # ArgumentTypeError is a TypeError too
        prog(A=[1.0, 2.0], B=np.zeros(2), s=1.0)
    assert info.value.path == 'sdfg "errs" / argument "A"'
    with pytest.raises(libdace.ArgumentTypeError) as info:
        prog(A=np.zeros(2), B=np.zeros(2), s="one")
    assert info.value.path == 'sdfg "errs" / argument "s"'
    with pytest.raises(libdace.ArgumentTypeError):
        prog(np.zeros(2), np.zeros(2), 1.0, 2.0)  # too many positional
    with pytest.raises(libdace.ArgumentTypeError):
        prog(np.zeros(2), np.zeros(2), 1.0, s=2.0)  # twice


def test_strides_not_multiple_of_itemsize(prog):
    raw = np.zeros(40, dtype=np.uint8)
    odd = np.ndarray((4,), dtype=np.float64, buffer=raw, offset=0, strides=(9,))
    with pytest.raises(libdace.ArgumentTypeError) as info:
        prog(A=odd, B=np.zeros(4), s=1.0)
    assert info.value.path == 'sdfg "errs" / argument "A"'


def test_error_does_not_poison_later_calls(prog):
    with pytest.raises(libdace.LibdaceError):
        prog(A=np.zeros(4, dtype=np.int32), B=np.zeros(4), s=1.0)
    b = np.zeros(4)
    prog(A=np.ones(4), B=b, s=2.0)
    np.testing.assert_array_equal(b, np.full(4, 3.0))


def test_invalid_sdfg_on_validate_and_compile():
    sdfg = libdace.SDFG("bad")
    sdfg.add_array("A", ["N"], libdace.float64)  # N never declared
    with pytest.raises(libdace.InvalidSDFGError) as info:
        sdfg.validate()
    assert info.value.status == _capi.DACE_ERROR_INVALID_SDFG
    assert info.value.path == 'sdfg "bad" / data "A"'
    assert not sdfg.is_valid()
    with pytest.raises(libdace.InvalidSDFGError):
        sdfg.compile()


def test_bad_memlet_string():
    sdfg = axpb_sdfg("memlets")
    state = sdfg.states()[0]
    a = state.add_read("A")
    t = state.add_tasklet("t2", {"x"}, {"y"}, "y = x")
    with pytest.raises(libdace.ParseError) as info:
        state.add_edge(a, None, t, "x", libdace.Memlet("A[i,,]"))
    err = info.value
    assert err.status == _capi.DACE_ERROR_PARSE
    assert err.path.startswith('sdfg "memlets" / state "main" / new edge')
    assert "A[i,,]" in err.message


def test_bad_tasklet_code_has_column():
    sdfg = libdace.SDFG("code")
    state = sdfg.add_state("s")
    with pytest.raises(libdace.ParseError) as info:
        state.add_tasklet("t", {"a"}, {"b"}, "b = a +* 2")
    assert info.value.column > 0
    assert 'Tasklet "t"' in info.value.path


def test_unknown_connector_and_duplicates():
    sdfg = axpb_sdfg("conn")
    state = sdfg.states()[0]
    a = state.add_read("A")
    t = state.add_tasklet("t2", {"x"}, {"y"}, "y = x")
    with pytest.raises(libdace.NotFoundError) as info:
        state.add_edge(a, None, t, "nope", "A[0]")
    assert 'connector "nope"' in info.value.path
    with pytest.raises(libdace.AlreadyExistsError):
        sdfg.add_array("A", [3], libdace.float64)
    with pytest.raises(TypeError):
        sdfg.add_array("C", [3], "no_such_type")


def test_load_errors(tmp_path):
    with pytest.raises(libdace.LibdaceError) as info:
        libdace.SDFG.from_file(tmp_path / "missing.sdfg")
    assert info.value.path.startswith("file ")
    bad = tmp_path / "bad.sdfg"
    bad.write_text("{ not json")
    with pytest.raises(libdace.ParseError):
        libdace.SDFG.from_file(bad)


def test_closed_objects_fail_cleanly():
    sdfg = axpb_sdfg("closed")
    prog = sdfg.compile()
    prog.close()
    with pytest.raises(libdace.LibdaceError):
        prog(A=np.zeros(2), B=np.zeros(2), s=1.0)
    sdfg.close()
    with pytest.raises(ValueError):
        sdfg.validate()
