"""Small SDFGs built through the Python builder, shared by the tests."""

import libdace
from libdace import Memlet


def axpb_sdfg(name="axpb", shape=("N",), dtype=libdace.float64, schedule=None):
    """B = A * s + 1 elementwise over an N-D array; arguments A, B, s (+ shape symbols)."""
    sdfg = libdace.SDFG(name)
    symbols = [d for d in shape if isinstance(d, str)]
    for sym in symbols:
        sdfg.add_symbol(sym, libdace.int64)
    sdfg.add_array("A", list(shape), dtype)
    sdfg.add_array("B", list(shape), dtype)
    sdfg.add_scalar("s", dtype)
    state = sdfg.add_state("main")
    params = [f"i{k}" for k in range(len(shape))]
    ranges = {p: f"0:{d}" for p, d in zip(params, shape)}
    idx = ", ".join(params)
    state.add_mapped_tasklet("axpb", ranges, {"a": Memlet(f"A[{idx}]"), "c": Memlet("s[0]")}, "b = a * c + 1",
                             {"b": Memlet(f"B[{idx}]")}, external_edges=True,
                             schedule=schedule if schedule is not None else libdace.ScheduleType.Sequential)
    return sdfg


def returning_sdfg():
    """__return = A * 2 (shape N), built node by node; argument A."""
    sdfg = libdace.SDFG("twice")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("__return", ["N"], libdace.float64)
    state = sdfg.add_state()
    read = state.add_read("A")
    write = state.add_write("__return")
    entry, exit_ = state.add_map("m", {"i": "0:N"})
    tasklet = state.add_tasklet("t", {"a"}, {"b"}, "b = a * 2")
    state.add_edge(read, None, entry, "IN_A", Memlet("A[0:N]"))
    state.add_edge(entry, "OUT_A", tasklet, "a", Memlet("A[i]"))
    state.add_edge(tasklet, "b", exit_, "IN_r", Memlet("__return[i]"))
    state.add_edge(exit_, "OUT_r", write, None, Memlet("__return[0:N]"))
    return sdfg
