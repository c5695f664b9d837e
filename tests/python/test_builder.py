"""Building SDFGs from Python: structure, validation, save/load/JSON round trips."""

import json

import numpy as np
import pytest

import libdace
from libdace import Memlet
from helpers import axpb_sdfg, returning_sdfg


def test_build_validate_and_query():
    sdfg = axpb_sdfg()
    sdfg.validate()
    assert sdfg.name == "axpb"
    assert sdfg.free_symbols() == ["N"]
    assert sdfg.arglist() == ["A", "B", "N", "s"]
    assert set(sdfg.arrays) == {"A", "B", "s"}
    assert sdfg.arrays["A"].dtype == np.float64
    assert sdfg.arrays["A"].shape == ("N",)
    assert sdfg.symbols == {"N": np.dtype(np.int64)}
    (state,) = sdfg.states()
    kinds = sorted(type(n).__name__ for n in state.nodes())
    assert kinds == ["AccessNode", "AccessNode", "AccessNode", "MapEntry", "MapExit", "Tasklet"]
    tasklet = [n for n in state.nodes() if isinstance(n, libdace.Tasklet)][0]
    assert tasklet.code.strip() == "b = a * c + 1"
    assert sorted(tasklet.in_connectors) == ["a", "c"]


def test_node_by_node_map_and_edges():
    sdfg = returning_sdfg()
    sdfg.validate()
    state = sdfg.states()[0]
    memlets = sorted(str(e.data) for e in state.edges())
    assert "A[i]" in memlets and "__return[i]" in memlets


def test_save_load_json_roundtrip(tmp_path):
    sdfg = axpb_sdfg()
    path = tmp_path / "axpb.sdfg"
    sdfg.save(path)
    loaded = libdace.SDFG.from_file(path)
    equal, diff = sdfg.equals(loaded)
    assert equal, diff
    assert loaded.hash_sdfg() == sdfg.hash_sdfg()
    text = sdfg.to_json()
    assert json.loads(text)["type"] == "SDFG"
    again = libdace.SDFG.from_json(text)
    assert again.equals(sdfg)[0]
    gz = tmp_path / "axpb.sdfgz"
    sdfg.save(gz)
    assert libdace.SDFG.from_file(gz).equals(sdfg)[0]


def test_interstate_edges_and_loops():
    sdfg = libdace.SDFG("loops")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    s0 = sdfg.add_state("s0", is_start_block=True)
    body = sdfg.add_state("body")
    after = sdfg.add_state("after")
    _, guard, _ = sdfg.add_loop(s0, body, after, "k", "0", "k < 3", "k + 1")
    state = body
    state.add_mapped_tasklet("inc", {"i": "0:N"}, {"a": "A[i]"}, "b = a + 1", {"b": "A[i]"}, external_edges=True)
    sdfg.validate()
    conds = sorted(e.condition for e in sdfg.edges())
    assert any("k < 3" in c for c in conds)
    a = np.zeros(4)
    with sdfg.compile() as prog:
        prog(A=a)
    np.testing.assert_array_equal(a, np.full(4, 3.0))


def test_loop_region_and_edge_keywords():
    sdfg = libdace.SDFG("region")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    init = sdfg.add_state("init")
    loop = sdfg.add_loop_region("time", "t", "t = 0", "t < 5", "t = t + 1")
    done = sdfg.add_state("done")
    sdfg.add_edge(init, loop, condition="N > 0", assignments={"m": "N"})
    sdfg.add_edge(loop, done, libdace.InterstateEdge())
    body = loop.add_state("body")
    body.add_mapped_tasklet("dbl", {"i": "0:N"}, {"a": "A[i]"}, "b = a * 2", {"b": "A[i]"}, external_edges=True)
    sdfg.validate()
    edge = [e for e in sdfg.edges() if e.assignments][0]
    assert edge.assignments == {"m": "N"}
    a = np.ones(3)
    with sdfg.compile() as prog:
        prog(A=a)
    np.testing.assert_array_equal(a, np.full(3, 32.0))


def test_nested_sdfg():
    inner = libdace.SDFG("inner")
    inner.add_symbol("M")
    inner.add_array("x", ["M"], libdace.float64)
    inner.add_array("y", ["M"], libdace.float64)
    st = inner.add_state()
    st.add_mapped_tasklet("sq", {"i": "0:M"}, {"a": "x[i]"}, "b = a * a", {"b": "y[i]"}, external_edges=True)
    outer = libdace.SDFG("outer")
    outer.add_symbol("N")
    outer.add_array("A", ["N"], libdace.float64)
    outer.add_array("B", ["N"], libdace.float64)
    state = outer.add_state()
    node = state.add_nested_sdfg(inner, None, {"x"}, {"y"}, symbol_mapping={"M": "N"})
    state.add_edge(state.add_read("A"), None, node, "x", Memlet("A[0:N]"))
    state.add_edge(node, "y", state.add_write("B"), None, Memlet("B[0:N]"))
    outer.validate()
    assert node.symbol_mapping == {"M": "N"}
    assert node.nested().name == "inner"
    inner.close()  # the nested copy belongs to `outer`
    a = np.arange(5.0)
    b = np.zeros(5)
    with outer.compile() as prog:
        prog(A=a, B=b)
    np.testing.assert_array_equal(b, a * a)


def test_memlet_forms():
    assert str(Memlet("A[i, j]")) == "A[i, j]"
    assert str(Memlet(data="A", subset="i, 0:N")) == "A[i, 0:N]"
    assert str(Memlet.simple("B", "i")) == "B[i]"
    assert Memlet("A[0:N] -> [1:N+1]").data == "A"
    assert str(Memlet()) == ""


def test_wcr_reduction_into_scalar_array():
    sdfg = libdace.SDFG("total")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("S", [1], libdace.float64)
    state = sdfg.add_state()
    state.add_mapped_tasklet("sum", {"i": "0:N"}, {"a": "A[i]"}, "s = a",
                             {"s": Memlet("S[0]", wcr="lambda x, y: x + y")}, external_edges=True)
    sdfg.validate()
    a = np.arange(10.0)
    s = np.zeros(1)
    with sdfg.compile() as prog:
        prog(A=a, S=s)
    assert s[0] == pytest.approx(45.0)


def test_context_manager_and_close_are_idempotent():
    with axpb_sdfg() as sdfg:
        clone = sdfg.clone()
    assert repr(sdfg) == "SDFG(<closed>)"
    sdfg.close()
    assert clone.name == "axpb"
    clone.close()
