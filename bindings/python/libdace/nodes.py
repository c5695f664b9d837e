"""Dataflow nodes: lightweight handles (SDFG, state id, node id) that read through libdace.

A node object is only a reference: two objects for the same id compare equal, and the
values they report are always libdace's current ones.
"""

import ctypes

from . import _capi
from . import instrument as _instrument
from ._util import borrowed_string, dec, enc, id_list
from .errors import check


class Node:
    kind_name = "Node"

    def __init__(self, state, node_id):
        self.state = state
        self.id = node_id

    @property
    def sdfg(self):
        return self.state.sdfg

    def _args(self):
        return self.state.sdfg._handle, self.state.id, self.id

    @property
    def label(self):
        return borrowed_string(_capi.dace_node_get_label, *self._args())

    @label.setter
    def label(self, value):
        check(_capi.dace_node_set_label(*self._args(), enc(value)))

    @property
    def instrument(self):
        """DaCe's InstrumentationType name ("No_Instrumentation", "Timer"); docs/instrumentation.md."""
        return _instrument.get_node(*self._args())

    @instrument.setter
    def instrument(self, value):
        _instrument.set_node(*self._args(), value)

    def get_property(self, name):
        """Any node property as libdace's text (see dace_node_get_property)."""
        return borrowed_string(_capi.dace_node_get_property, *self._args(), enc(name))

    def _connectors(self, which):
        text = self.get_property(which)
        return [c.split(":")[0].strip() for c in text.split(",") if c.strip()] if text else []

    @property
    def in_connectors(self):
        return self._connectors("in_connectors")

    @property
    def out_connectors(self):
        return self._connectors("out_connectors")

    def add_in_connector(self, name, dtype=None):
        check(_capi.dace_node_add_in_connector(*self._args(), enc(name), enc(_conn_type(dtype))))
        return True

    def add_out_connector(self, name, dtype=None):
        check(_capi.dace_node_add_out_connector(*self._args(), enc(name), enc(_conn_type(dtype))))
        return True

    def in_edges(self):
        return [self.state.edge(e) for e in id_list(_capi.dace_node_list_in_edges, *self._args())]

    def out_edges(self):
        return [self.state.edge(e) for e in id_list(_capi.dace_node_list_out_edges, *self._args())]

    def __eq__(self, other):
        return isinstance(other, Node) and other.state == self.state and other.id == self.id

    def __hash__(self):
        return hash((id(self.state.sdfg), self.state.id, self.id))

    def __repr__(self):
        return f"{self.kind_name}({self.label!r}, id={self.id})"


def _conn_type(dtype):
    if dtype is None or isinstance(dtype, str):
        return dtype
    from .dtypes import numpy_dtype, to_dace

    return numpy_dtype(to_dace(dtype)).name


class AccessNode(Node):
    kind_name = "AccessNode"

    @property
    def data(self):
        return self.get_property("data")

    @data.setter
    def data(self, name):
        check(_capi.dace_node_set_data(*self._args(), enc(name)))


class Tasklet(Node):
    kind_name = "Tasklet"

    @property
    def code(self):
        return self.get_property("code")

    def set_code(self, code, language=_capi.DACE_LANGUAGE_PYTHON):
        check(_capi.dace_node_set_code(*self._args(), enc(code), language))


class _ScopeNode(Node):
    @property
    def params(self):
        return [p.strip() for p in self.get_property("params").split(",") if p.strip()]

    @property
    def range(self):
        return self.get_property("range")

    @property
    def schedule(self):
        return self.get_property("schedule")

    @schedule.setter
    def schedule(self, schedule):
        check(_capi.dace_node_set_schedule(*self._args(), schedule))

    def partner(self):
        """The exit of an entry, the entry of an exit."""
        other = ctypes.c_int32()
        check(_capi.dace_node_get_scope_partner(ctypes.byref(other), *self._args()))
        return self.state.node(other.value)


class MapEntry(_ScopeNode):
    kind_name = "MapEntry"


class MapExit(_ScopeNode):
    kind_name = "MapExit"


class ConsumeEntry(_ScopeNode):
    kind_name = "ConsumeEntry"


class ConsumeExit(_ScopeNode):
    kind_name = "ConsumeExit"


class NestedSDFG(Node):
    kind_name = "NestedSDFG"

    @property
    def sdfg_inner(self):
        return self.nested()

    def nested(self):
        """The inner SDFG, borrowed from its parent (kept alive by this object's SDFG)."""
        from .sdfg import SDFG

        out = ctypes.POINTER(_capi.dace_sdfg_t)()
        check(_capi.dace_node_get_nested_sdfg(ctypes.byref(out), *self._args()))
        return SDFG._borrowed(out, owner=self.state.sdfg)

    @property
    def symbol_mapping(self):
        text = self.get_property("symbol_mapping")
        pairs = [p.split(":", 1) for p in text.split(",") if ":" in p] if text else []
        return {k.strip(): v.strip() for k, v in pairs}


class LibraryNode(Node):
    kind_name = "LibraryNode"


_BY_KIND = {
    _capi.DACE_NODE_ACCESS: AccessNode,
    _capi.DACE_NODE_TASKLET: Tasklet,
    _capi.DACE_NODE_MAP_ENTRY: MapEntry,
    _capi.DACE_NODE_MAP_EXIT: MapExit,
    _capi.DACE_NODE_CONSUME_ENTRY: ConsumeEntry,
    _capi.DACE_NODE_CONSUME_EXIT: ConsumeExit,
    _capi.DACE_NODE_NESTED_SDFG: NestedSDFG,
    _capi.DACE_NODE_LIBRARY: LibraryNode,
}


def make_node(state, node_id):
    """The right Node subclass for an existing node id."""
    kind = ctypes.c_int32()
    check(_capi.dace_node_get_kind(ctypes.byref(kind), state.sdfg._handle, state.id, node_id))
    return _BY_KIND.get(kind.value, Node)(state, node_id)


class MultiConnectorEdge:
    """A dataflow edge (state id + edge slot)."""

    def __init__(self, state, edge_id):
        self.state = state
        self.id = edge_id

    def _endpoints(self):
        src, dst = ctypes.c_int32(), ctypes.c_int32()
        sc, dc = ctypes.c_char_p(), ctypes.c_char_p()
        check(_capi.dace_edge_get_endpoints(ctypes.byref(src), ctypes.byref(sc), ctypes.byref(dst),
                                            ctypes.byref(dc), self.state.sdfg._handle, self.state.id, self.id))
        return src.value, dec(sc.value) or None, dst.value, dec(dc.value) or None

    @property
    def src(self):
        return self.state.node(self._endpoints()[0])

    @property
    def src_conn(self):
        return self._endpoints()[1]

    @property
    def dst(self):
        return self.state.node(self._endpoints()[2])

    @property
    def dst_conn(self):
        return self._endpoints()[3]

    @property
    def data(self):
        """The memlet (as a Memlet), like DaCe's edge.data."""
        from .memlet import Memlet

        h, s = self.state.sdfg._handle, self.state.id
        text = borrowed_string(_capi.dace_edge_get_memlet, h, s, self.id)
        wcr = borrowed_string(_capi.dace_edge_get_memlet_property, h, s, self.id, b"wcr")
        return Memlet(text, wcr=wcr or None)

    def __repr__(self):
        return f"Edge({self.id}: {self.data!r})"
