"""DaCe's `instrument` property and instrumentation reports (docs/instrumentation.md).

`sdfg.instrument`, `state.instrument` and `node.instrument` (map/consume entries, tasklets,
library and nested-SDFG nodes) read and set DaCe's InstrumentationType by name; values may be
given as `InstrumentationType.Timer`, the string "Timer", or DaCe's own enum member (its
`.name` is used). `sdfg.instrument_all("maps")` selects elements as `dace run --instrument`.
A compiled program's `last_report()` is the report of its last call in DaCe's format.
"""

import ctypes

from . import _capi
from ._util import borrowed_string, enc
from .errors import check


class InstrumentationType:
    """DaCe's dtypes.InstrumentationType names; libdace implements Timer."""

    No_Instrumentation = "No_Instrumentation"
    Timer = "Timer"
    PAPI_Counters = "PAPI_Counters"
    LIKWID_CPU = "LIKWID_CPU"
    LIKWID_GPU = "LIKWID_GPU"
    GPU_Events = "GPU_Events"
    FPGA = "FPGA"


def instrument_name(value):
    """The C API's text for `value`: a name, or an enum member (DaCe's included) by its name."""
    if isinstance(value, str):
        return value
    name = getattr(value, "name", None)
    if isinstance(name, str):
        return name
    raise TypeError(f"instrument: expected an InstrumentationType name, got {value!r}")


def get_sdfg(handle):
    return borrowed_string(_capi.dace_sdfg_get_instrument, handle)


def set_sdfg(handle, value):
    check(_capi.dace_sdfg_set_instrument(handle, enc(instrument_name(value))))


def get_state(handle, state_id):
    return borrowed_string(_capi.dace_state_get_instrument, handle, state_id)


def set_state(handle, state_id, value):
    check(_capi.dace_state_set_instrument(handle, state_id, enc(instrument_name(value))))


def get_node(handle, state_id, node_id):
    return borrowed_string(_capi.dace_node_get_instrument, handle, state_id, node_id)


def set_node(handle, state_id, node_id, value):
    check(_capi.dace_node_set_instrument(handle, state_id, node_id, enc(instrument_name(value))))


def instrument_all(handle, selection):
    count = ctypes.c_int32()
    check(_capi.dace_sdfg_instrument(ctypes.byref(count), handle, enc(selection)))
    return count.value
