"""Element types: NumPy dtypes <-> libdace's dace_dtype_t.

NumPy's scalar types are libdace's type objects (libdace.float64 is numpy.float64), so a
descriptor's dtype can be given as a NumPy type or dtype, a name ("float64", "double",
"int"), a dace_dtype_t value, or a DaCe typeclass (anything with a NumPy `.type`).
"""

import numpy as np

from . import _capi

bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128

_PAIRS = (
    (_capi.DACE_BOOL, np.bool_),
    (_capi.DACE_INT8, np.int8),
    (_capi.DACE_INT16, np.int16),
    (_capi.DACE_INT32, np.int32),
    (_capi.DACE_INT64, np.int64),
    (_capi.DACE_UINT8, np.uint8),
    (_capi.DACE_UINT16, np.uint16),
    (_capi.DACE_UINT32, np.uint32),
    (_capi.DACE_UINT64, np.uint64),
    (_capi.DACE_FLOAT16, np.float16),
    (_capi.DACE_FLOAT32, np.float32),
    (_capi.DACE_FLOAT64, np.float64),
    (_capi.DACE_COMPLEX64, np.complex64),
    (_capi.DACE_COMPLEX128, np.complex128),
)
_TO_NUMPY = {code: np.dtype(t) for code, t in _PAIRS}
# Keyed by (kind, itemsize): NumPy has two int64 dtypes ('l' and 'q') with distinct .num.
_FROM_KIND = {(np.dtype(t).kind, np.dtype(t).itemsize): code for code, t in _PAIRS}
_ALIASES = {"bool": np.bool_, "double": np.float64, "float": np.float32, "int": np.int32,
            "long": np.int64, "char": np.int8, "short": np.int16, "half": np.float16,
            "int8_t": np.int8, "int16_t": np.int16, "int32_t": np.int32, "int64_t": np.int64,
            "uint8_t": np.uint8, "uint16_t": np.uint16, "uint32_t": np.uint32, "uint64_t": np.uint64}


def numpy_dtype(code):
    """The NumPy dtype of a dace_dtype_t value (None for DACE_DTYPE_UNKNOWN)."""
    return _TO_NUMPY.get(code)


def from_numpy(dtype):
    """The dace_dtype_t of a NumPy dtype; DACE_DTYPE_UNKNOWN if libdace has no such type."""
    if not dtype.isnative:
        return _capi.DACE_DTYPE_UNKNOWN
    return _FROM_KIND.get((dtype.kind, dtype.itemsize), _capi.DACE_DTYPE_UNKNOWN)


def to_dace(dtype):
    """Any accepted spelling of an element type -> dace_dtype_t (TypeError if none)."""
    if isinstance(dtype, bool):
        raise TypeError(f"not an element type: {dtype!r}")
    if isinstance(dtype, int):
        if dtype in _TO_NUMPY:
            return dtype
        raise TypeError(f"not a dace_dtype_t value: {dtype}")
    if isinstance(dtype, str):
        dtype = _ALIASES.get(dtype, dtype)
    elif not isinstance(dtype, (np.dtype, type)) and hasattr(dtype, "type"):
        dtype = dtype.type  # DaCe typeclass
    try:
        npd = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"not an element type: {dtype!r}") from None
    code = from_numpy(npd)
    if code == _capi.DACE_DTYPE_UNKNOWN:
        raise TypeError(f"libdace has no element type for {npd}")
    return code
