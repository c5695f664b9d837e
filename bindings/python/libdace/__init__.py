"""libdace for Python: build, load, validate, save and run SDFGs with NumPy arrays.

    import libdace
    sdfg = libdace.SDFG("scale")
    sdfg.add_array("A", ["N"], libdace.float64)
    ...
    prog = sdfg.compile()
    prog(A=a, B=b)            # N inferred from a.shape

The low-level ctypes declarations generated from include/libdace.h are libdace._capi.
"""

from . import _capi
from ._loader import library_path, load_library
from .context import Context, default_context
from .dtypes import (bool_, complex64, complex128, float16, float32, float64, int8, int16, int32, int64, uint8,
                     uint16, uint32, uint64)
from .errors import (AlreadyExistsError, ArgumentTypeError, CompileError, InternalError, InvalidArgumentError,
                     InvalidSDFGError, LibdaceError, LibdaceIOError, NotFoundError, OutOfMemoryError, ParseError,
                     PluginUnavailableError, RuntimeFailure, UnsupportedError)
from .instrument import InstrumentationType
from .memlet import Memlet
from .nodes import AccessNode, MapEntry, MapExit, NestedSDFG, Tasklet
from .program import CompiledProgram
from .sdfg import SDFG, ConditionalBlock, ControlFlowRegion, InterstateEdge, LoopRegion, is_pass, transformations
from .state import SDFGState


class ScheduleType:
    """DaCe's schedule names as dace_schedule_t values."""

    Default = _capi.DACE_SCHEDULE_DEFAULT
    Sequential = _capi.DACE_SCHEDULE_SEQUENTIAL
    CPU_Multicore = _capi.DACE_SCHEDULE_CPU_MULTICORE
    Unrolled = _capi.DACE_SCHEDULE_UNROLLED
    GPU_Device = _capi.DACE_SCHEDULE_GPU_DEVICE
    GPU_ThreadBlock = _capi.DACE_SCHEDULE_GPU_THREADBLOCK


class StorageType:
    Default = _capi.DACE_STORAGE_DEFAULT
    Register = _capi.DACE_STORAGE_REGISTER
    CPU_Heap = _capi.DACE_STORAGE_CPU_HEAP
    CPU_ThreadLocal = _capi.DACE_STORAGE_CPU_THREADLOCAL
    CPU_Pinned = _capi.DACE_STORAGE_CPU_PINNED
    GPU_Global = _capi.DACE_STORAGE_GPU_GLOBAL
    GPU_Shared = _capi.DACE_STORAGE_GPU_SHARED


class Language:
    Python = _capi.DACE_LANGUAGE_PYTHON
    CPP = _capi.DACE_LANGUAGE_CPP


def auto_optimize(sdfg, device="cpu"):
    """DaCe's dace.transformation.auto.auto_optimize(sdfg, device): optimizes `sdfg` in place
    and returns it."""
    sdfg.auto_optimize(device)
    return sdfg


def version():
    """The loaded library's version ("0.1.0")."""
    return _capi.dace_version().decode()


__version__ = "0.1.0"

__all__ = [
    "SDFG", "SDFGState", "Memlet", "InterstateEdge", "LoopRegion", "ConditionalBlock", "ControlFlowRegion",
    "CompiledProgram", "transformations", "is_pass", "auto_optimize",
    "Context", "default_context", "AccessNode", "Tasklet", "MapEntry", "MapExit",
    "NestedSDFG", "InstrumentationType", "ScheduleType", "StorageType", "Language", "version", "load_library", "library_path",
    "LibdaceError", "InvalidArgumentError", "ArgumentTypeError", "InvalidSDFGError", "NotFoundError",
    "UnsupportedError", "ParseError", "CompileError", "RuntimeFailure", "OutOfMemoryError",
    "PluginUnavailableError", "LibdaceIOError", "AlreadyExistsError", "InternalError",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "complex64", "complex128",
]
