"""add_memlet_path and add_mapped_tasklet(input_nodes=, output_nodes=): built SDFGs
compile, run and match NumPy; outer memlets are the hand-derived propagated subsets."""

import numpy as np

import libdace
from libdace import Memlet


def _outer(state, node, incoming):
    """Memlet text of the single edge entering (incoming) or leaving `node`."""
    edges = node.in_edges() if incoming else node.out_edges()
    assert len(edges) == 1, edges
    return str(edges[0].data)


def test_nested_maps_propagate_and_run():
    sdfg = libdace.SDFG("mp_nested")
    sdfg.add_symbol("N")
    sdfg.add_symbol("M")
    sdfg.add_array("A", ["N", "M"], libdace.float64)
    sdfg.add_array("B", ["N", "M"], libdace.float64)
    state = sdfg.add_state()
    read, write = state.add_read("A"), state.add_write("B")
    oe, ox = state.add_map("outer", {"i": "0:N"})
    ie, ix = state.add_map("inner", {"j": "0:M"})
    t = state.add_tasklet("t", {"a"}, {"b"}, "b = a * 2 + 1")
    state.add_memlet_path(read, oe, ie, t, memlet=Memlet("A[i, j]"), dst_conn="a")
    edges = state.add_memlet_path(t, ix, ox, write, memlet=Memlet("B[i, j]"), src_conn="b")
    assert [e.src_conn for e in edges] == ["b", "OUT_B", "OUT_B"]
    assert [e.dst_conn for e in edges] == ["IN_B", "IN_B", None]
    # Hand-derived: over j in 0:M the row i is touched, over i in 0:N the whole array.
    assert _outer(state, read, False) == "A[0:N, 0:M]"
    assert _outer(state, ie, True) == "A[i, 0:M]"
    assert str(edges[1].data) == "B[i, 0:M]"
    assert str(edges[2].data) == "B[0:N, 0:M]"
    sdfg.validate()
    a = np.arange(12.0).reshape(3, 4)
    b = np.zeros_like(a)
    with sdfg.compile() as prog:
        prog(A=a, B=b)
    np.testing.assert_array_equal(b, a * 2 + 1)


def test_stencil_shared_entry_numbered_connectors():
    sdfg = libdace.SDFG("mp_stencil")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("B", ["N"], libdace.float64)
    state = sdfg.add_state()
    read, write = state.add_read("A"), state.add_write("B")
    entry, exit_ = state.add_map("m", {"i": "1:N - 1"})
    t = state.add_tasklet("t", {"l", "r"}, {"o"}, "o = l + r")
    left = state.add_memlet_path(read, entry, t, memlet=Memlet("A[i - 1]"), dst_conn="l")
    right = state.add_memlet_path(read, entry, t, memlet=Memlet("A[i + 1]"), dst_conn="r")
    state.add_memlet_path(t, exit_, write, memlet=Memlet("B[i]"), src_conn="o")
    # DaCe names the second pair of scope connectors by number once IN_A is taken.
    assert (left[0].dst_conn, left[1].src_conn) == ("IN_A", "OUT_A")
    assert (right[0].dst_conn, right[1].src_conn) == ("IN_1", "OUT_1")
    # i in 1..N-2: i - 1 spans 0..N-3, i + 1 spans 2..N-1.
    assert str(left[0].data) == "A[0:N - 2]"
    assert str(right[0].data) == "A[2:N]"
    assert _outer(state, write, True) == "B[1:N - 1]"
    a = np.random.default_rng(1).random(10)
    b = np.zeros(10)
    with sdfg.compile() as prog:
        prog(A=a, B=b)
    expect = np.zeros(10)
    expect[1:-1] = a[:-2] + a[2:]
    np.testing.assert_allclose(b, expect)


def test_reversed_and_strided_subsets_propagate():
    sdfg = libdace.SDFG("mp_rev")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("B", ["N"], libdace.float64)
    state = sdfg.add_state()
    read, write = state.add_read("A"), state.add_write("B")
    entry, exit_ = state.add_map("m", {"i": "0:N"})
    t = state.add_tasklet("t", {"a"}, {"b"}, "b = a")
    inner = state.add_memlet_path(read, entry, t, memlet=Memlet("A[N - i - 1]"), dst_conn="a")
    state.add_memlet_path(t, exit_, write, memlet=Memlet("B[i]"), src_conn="b")
    assert str(inner[0].data) == "A[0:N]"
    a = np.arange(7.0)
    b = np.zeros(7)
    with sdfg.compile() as prog:
        prog(A=a, B=b)
    np.testing.assert_array_equal(b, a[::-1])


def test_wcr_path_reduces():
    sdfg = libdace.SDFG("mp_wcr")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("S", [1], libdace.float64)
    state = sdfg.add_state()
    read, write = state.add_read("A"), state.add_write("S")
    entry, exit_ = state.add_map("m", {"i": "0:N"}, schedule=libdace.ScheduleType.Sequential)
    t = state.add_tasklet("t", {"a"}, {"s"}, "s = a")
    state.add_memlet_path(read, entry, t, memlet=Memlet("A[i]"), dst_conn="a")
    out = state.add_memlet_path(t, exit_, write, memlet=Memlet("S[0]", wcr="lambda x, y: x + y"), src_conn="s")
    assert all(e.data.wcr for e in out)
    a = np.arange(1.0, 11.0)
    s = np.zeros(1)
    with sdfg.compile() as prog:
        prog(A=a, S=s)
    assert s[0] == np.sum(a)


def test_memlet_path_argument_errors():
    sdfg = libdace.SDFG("mp_err")
    sdfg.add_array("A", [4], libdace.float64)
    state = sdfg.add_state()
    read = state.add_read("A")
    t = state.add_tasklet("t", {"a"}, set(), "pass")
    try:
        state.add_memlet_path(read, t, dst_conn="a")
    except TypeError:
        pass
    else:
        raise AssertionError("a missing memlet must raise TypeError")
    try:
        state.add_memlet_path(read, memlet=Memlet("A[0]"))
    except ValueError:
        pass
    else:
        raise AssertionError("a one-node path must raise ValueError")
    # Without scopes the path is one edge carrying the memlet as given.
    (edge,) = state.add_memlet_path(read, t, memlet="A[2]", dst_conn="a")
    assert str(edge.data) == "A[2]"


def test_mapped_tasklet_reuses_given_access_nodes():
    sdfg = libdace.SDFG("mp_reuse")
    sdfg.add_symbol("N")
    sdfg.add_array("A", ["N"], libdace.float64)
    sdfg.add_array("C", ["N"], libdace.float64)
    sdfg.add_transient("T", ["N"], libdace.float64)
    state = sdfg.add_state()
    a_node, t_node, c_node = state.add_read("A"), state.add_access("T"), state.add_write("C")
    seq = libdace.ScheduleType.Sequential
    state.add_mapped_tasklet("sq", {"i": "0:N"}, {"a": Memlet("A[i]")}, "t = a * a", {"t": Memlet("T[i]")},
                             external_edges=True, input_nodes={"A": a_node}, output_nodes=[t_node], schedule=seq)
    _, entry, _ = state.add_mapped_tasklet("inc", {"i": "0:N"}, {"t": Memlet("T[i]")}, "c = t + 3",
                                           {"c": Memlet("C[i]")}, external_edges=True,
                                           input_nodes={"T": t_node}, output_nodes={"C": c_node}, schedule=seq)
    # One access node per container: the given ones, joined with whole-range memlets.
    datas = sorted(n.data for n in state.data_nodes())
    assert datas == ["A", "C", "T"]
    assert [e.src for e in entry.in_edges()] == [t_node]
    assert str(entry.in_edges()[0].data) == "T[0:N]"
    sdfg.validate()
    a = np.linspace(-2, 2, 9)
    c = np.zeros(9)
    with sdfg.compile() as prog:
        prog(A=a, C=c)
    np.testing.assert_allclose(c, a * a + 3)
