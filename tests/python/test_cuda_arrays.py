"""GPU_Global arguments given as objects exposing __cuda_array_interface__ (docs/cuda.md,
"Arguments"): the program takes the interface's pointer, shape, strides and type as they
are, with no NumPy conversion; the runtime uses device memory in place. On the emulated
device (no GPU needed) the object is a stand-in over host memory, so the results must
arrive in its buffer; with a CUDA driver and a GPU the object holds cuMemAlloc memory and
the program runs on the device. References: NumPy expressions."""

import ctypes

import numpy as np
import pytest

import libdace
from libdace import Memlet


def device_axpb_sdfg():
    """B = A * s + 1 on a GPU_Device map; A and B GPU_Global arrays of N float64."""
    sdfg = libdace.SDFG("cai_axpb")
    sdfg.add_symbol("N", libdace.int64)
    sdfg.add_array("A", ["N"], libdace.float64, storage=libdace.StorageType.GPU_Global)
    sdfg.add_array("B", ["N"], libdace.float64, storage=libdace.StorageType.GPU_Global)
    sdfg.add_scalar("s", libdace.float64)
    state = sdfg.add_state("main")
    state.add_mapped_tasklet("axpb", {"i": "0:N"}, {"a": Memlet("A[i]"), "c": Memlet("s[0]")}, "b = a * c + 1",
                             {"b": Memlet("B[i]")}, external_edges=True, schedule=libdace.ScheduleType.GPU_Device)
    return sdfg


class FakeDeviceArray:
    """Exposes __cuda_array_interface__ (version 3) for memory at `pointer`; nothing else."""

    def __init__(self, pointer, shape, typestr, strides=None, keep=None):
        self._cai = {"shape": tuple(shape), "typestr": typestr, "data": (pointer, False), "strides": strides,
                     "version": 3}
        self._keep = keep

    @property
    def __cuda_array_interface__(self):
        return self._cai


def over(arr):
    """A stand-in over a NumPy array's buffer (the emulated device's memory is host memory)."""
    return FakeDeviceArray(arr.ctypes.data, arr.shape, arr.dtype.str, arr.strides, keep=arr)


def plugin_or_skip(exc):
    if "GPU_Device" in str(exc) or "plugin" in str(exc).lower():
        pytest.skip(f"CUDA plugin unavailable: {exc}")
    raise exc


def emulated_program():
    try:
        return libdace.CompiledProgram(device_axpb_sdfg(), emulate_device=True)
    except libdace.LibdaceError as exc:  # noqa: PERF203
        plugin_or_skip(exc)


def test_interface_objects_are_read_and_written_in_place_on_the_emulated_device():
    prog = emulated_program()
    a = np.linspace(-2.0, 3.0, 37)
    b = np.full(37, -1.0)
    prog(A=over(a), B=over(b), s=1.5)
    np.testing.assert_array_equal(b, a * 1.5 + 1)
    # Again through the cached plan, with new buffers: the pointer is read per call.
    a2, b2 = a[::-1].copy(), np.zeros(37)
    prog(A=over(a2), B=over(b2), s=-2.0)
    np.testing.assert_array_equal(b2, a2 * -2.0 + 1)


def test_strided_interface_objects_follow_their_strides():
    prog = emulated_program()
    base = np.arange(40.0)
    out = np.full(40, 7.0)
    # Every other element of each: byte strides 16 from the interface, not C order.
    prog(A=over(base[::2]), B=over(out[1::2]), s=3.0)
    np.testing.assert_array_equal(out[1::2], base[::2] * 3.0 + 1)
    np.testing.assert_array_equal(out[0::2], np.full(20, 7.0))  # untouched between


def test_interface_object_for_a_host_argument_is_refused():
    from helpers import axpb_sdfg

    prog = libdace.CompiledProgram(axpb_sdfg())
    a = np.ones(4)
    with pytest.raises(libdace.ArgumentTypeError, match="__cuda_array_interface__"):
        prog(A=over(a), B=np.zeros(4), s=1.0)


def _cuda():
    """libcuda with a current context on device 0, or a reason to skip."""
    try:
        cu = ctypes.CDLL("libcuda.so.1")
    except OSError as exc:
        return None, f"no CUDA driver: {exc}"
    count = ctypes.c_int()
    if cu.cuInit(0) != 0 or cu.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return None, "no CUDA device"
    ctx = ctypes.c_void_p()
    if cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0) != 0 or cu.cuCtxSetCurrent(ctx) != 0:
        return None, "cannot open CUDA device 0"
    return cu, ""


def test_device_memory_is_used_on_the_gpu():
    cu, why = _cuda()
    if cu is None:
        pytest.skip(f"not run on a GPU: {why}")
    try:
        prog = libdace.CompiledProgram(device_axpb_sdfg())
    except libdace.LibdaceError as exc:
        plugin_or_skip(exc)
    n = 1000
    a = np.sin(np.arange(n, dtype=np.float64))
    b = np.zeros(n)
    da, db = ctypes.c_uint64(), ctypes.c_uint64()
    assert cu.cuMemAlloc_v2(ctypes.byref(da), ctypes.c_size_t(n * 8)) == 0
    assert cu.cuMemAlloc_v2(ctypes.byref(db), ctypes.c_size_t(n * 8)) == 0
    try:
        assert cu.cuMemcpyHtoD_v2(da, a.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(n * 8)) == 0
        prog(A=FakeDeviceArray(da.value, (n,), "<f8"), B=FakeDeviceArray(db.value, (n,), "<f8"), s=0.5)
        assert cu.cuMemcpyDtoH_v2(b.ctypes.data_as(ctypes.c_void_p), db, ctypes.c_size_t(n * 8)) == 0
    finally:
        cu.cuMemFree_v2(da)
        cu.cuMemFree_v2(db)
    np.testing.assert_allclose(b, a * 0.5 + 1, rtol=0, atol=1e-15)
