"""SDFGState: the dataflow builder (add_read, add_tasklet, add_map, add_edge, ...).

Method names and argument orders follow DaCe's SDFGState; node and edge objects are handles
(see nodes.py). Every call goes straight to libdace, which checks it and names the failing
element in the exception.
"""

import ctypes

from . import _capi
from . import instrument as _instrument
from ._symeval import split_dims
from ._util import borrowed_string, connector_list, enc, id_list, ranges_text
from .errors import LibdaceError, check
from .memlet import Memlet, as_memlet, split_memlet
from .nodes import (AccessNode, ConsumeEntry, ConsumeExit, MapEntry, MapExit, MultiConnectorEdge, NestedSDFG, Tasklet,
                    make_node)

_LANGUAGES = {"python": _capi.DACE_LANGUAGE_PYTHON, "cpp": _capi.DACE_LANGUAGE_CPP,
              "c++": _capi.DACE_LANGUAGE_CPP}


def _language(language):
    if language is None:
        return _capi.DACE_LANGUAGE_PYTHON
    if isinstance(language, int):
        return language
    name = getattr(language, "name", language)  # DaCe's dtypes.Language enum has .name
    try:
        return _LANGUAGES[str(name).lower()]
    except KeyError:
        raise ValueError(f"unknown tasklet language {language!r}") from None


def _map_options(schedule, **extra):
    opts = _capi.dace_map_options_t()
    check(_capi.dace_map_options_init(ctypes.byref(opts), _capi.DACE_MAP_OPTIONS_VERSION))
    if schedule is not None:
        opts.schedule = schedule
    for key, value in extra.items():
        if value is not None:
            setattr(opts, key, value)
    return opts


def _by_data(nodes):
    """DaCe accepts {data name: access node} or a list/set of access nodes."""
    if not nodes:
        return {}
    if isinstance(nodes, dict):
        return dict(nodes)
    return {n.data: n for n in nodes}


def _next_connector(node, data):
    """DaCe's naming of scope connectors: the data name while IN_/OUT_<data> are free,
    else one more than the largest numbered IN_n/OUT_n."""
    ins, outs = node.in_connectors, node.out_connectors
    if data and "IN_" + data not in ins and "OUT_" + data not in outs:
        return data
    numbers = [int(c.split("_", 1)[1]) for c in ins + outs
               if c.startswith(("IN_", "OUT_")) and c.split("_", 1)[1].isdigit()]
    return str(max(numbers, default=0) + 1)


class ControlFlowBlock:
    """Any block of an SDFG's control flow (state, loop, conditional, region)."""

    def __init__(self, sdfg, block_id):
        self.sdfg = sdfg
        self.id = block_id

    @property
    def label(self):
        return borrowed_string(_capi.dace_block_get_label, self.sdfg._handle, self.id)

    @property
    def name(self):
        return self.label

    def __eq__(self, other):
        return isinstance(other, ControlFlowBlock) and other.sdfg is self.sdfg and other.id == self.id

    def __hash__(self):
        return hash((id(self.sdfg), self.id))

    def __repr__(self):
        return f"{type(self).__name__}({self.label!r}, id={self.id})"


class SDFGState(ControlFlowBlock):
    def _h(self):
        return self.sdfg._handle

    @property
    def instrument(self):
        """DaCe's InstrumentationType name of this state ("No_Instrumentation", "Timer")."""
        return _instrument.get_state(self.sdfg._handle, self.id)

    @instrument.setter
    def instrument(self, value):
        _instrument.set_state(self.sdfg._handle, self.id, value)

    # --- nodes -------------------------------------------------------------------------

    def add_access(self, array_or_stream_name, debuginfo=None):
        out = ctypes.c_int32()
        check(_capi.dace_state_add_access(ctypes.byref(out), self._h(), self.id, enc(array_or_stream_name)))
        return AccessNode(self, out.value)

    def add_read(self, array_or_stream_name, debuginfo=None):
        return self.add_access(array_or_stream_name)

    def add_write(self, array_or_stream_name, debuginfo=None):
        return self.add_access(array_or_stream_name)

    def add_tasklet(self, name, inputs, outputs, code, language=None, **_ignored):
        """inputs/outputs: set/list of names or dict name -> dtype; code: Python tasklet."""
        out = ctypes.c_int32()
        check(_capi.dace_state_add_tasklet(ctypes.byref(out), self._h(), self.id, enc(name),
                                           enc(connector_list(inputs)), enc(connector_list(outputs)),
                                           enc(code), _language(language)))
        return Tasklet(self, out.value)

    def add_map(self, name, ndrange, schedule=None, unroll=False, collapse=None, omp_num_threads=None,
                **_ignored):
        """ndrange: {'i': '0:N'}, [('i', '0:N')] or 'i=0:N, j=0:M'. Returns (entry, exit)."""
        entry, exit_ = ctypes.c_int32(), ctypes.c_int32()
        opts = _map_options(schedule, unroll=int(bool(unroll)), collapse=collapse,
                            omp_num_threads=omp_num_threads)
        check(_capi.dace_state_add_map(ctypes.byref(entry), ctypes.byref(exit_), self._h(), self.id,
                                       enc(name), enc(ranges_text(ndrange)), ctypes.byref(opts)))
        return MapEntry(self, entry.value), MapExit(self, exit_.value)

    def add_mapped_tasklet(self, name, map_ranges, inputs, code, outputs, schedule=None, language=None,
                           external_edges=False, input_nodes=None, output_nodes=None, **_ignored):
        """DaCe's add_mapped_tasklet: inputs/outputs map connector -> Memlet (or memlet text).

        Returns (tasklet, map_entry, map_exit). A write-conflict resolution on the output
        memlets (Memlet(..., wcr=...)) must be the same for all outputs. With
        external_edges=True, input_nodes/output_nodes ({data name: AccessNode} or a list of
        access nodes) are joined to the map instead of new access nodes; as in DaCe they are
        ignored without external_edges."""
        ins = "; ".join(f"{c}: {as_memlet(m)}" for c, m in (inputs or {}).items())
        outs_m = {c: as_memlet(m) for c, m in (outputs or {}).items()}
        wcrs = {m.wcr for m in outs_m.values()}
        if len(wcrs) > 1:
            raise ValueError("add_mapped_tasklet: all output memlets must share one wcr")
        outs = "; ".join(f"{c}: {m}" for c, m in outs_m.items())
        opts = _capi.dace_mapped_tasklet_options_t()
        check(_capi.dace_mapped_tasklet_options_init(ctypes.byref(opts), _capi.DACE_MAPPED_TASKLET_OPTIONS_VERSION))
        if schedule is not None:
            opts.schedule = schedule
        opts.external_edges = int(bool(external_edges))
        opts.output_wcr = enc(wcrs.pop() if wcrs else None)
        opts.language = _language(language)
        t, e, x = ctypes.c_int32(), ctypes.c_int32(), ctypes.c_int32()
        check(_capi.dace_state_add_mapped_tasklet(ctypes.byref(t), ctypes.byref(e), ctypes.byref(x),
                                                  self._h(), self.id, enc(name), enc(ranges_text(map_ranges)),
                                                  enc(ins), enc(code), enc(outs), ctypes.byref(opts)))
        entry, exit_ = MapEntry(self, e.value), MapExit(self, x.value)
        if external_edges and (input_nodes or output_nodes):
            self._reuse_access_nodes(entry, exit_, _by_data(input_nodes), _by_data(output_nodes))
        return Tasklet(self, t.value), entry, exit_

    def _reuse_access_nodes(self, entry, exit_, input_nodes, output_nodes):
        """Swaps the access nodes libdace just created outside the map for the caller's,
        keeping libdace's propagated outer memlets (node ids of others never shift)."""
        for edge in entry.in_edges():
            src = edge.src
            if isinstance(src, AccessNode) and src.data in input_nodes and src != input_nodes[src.data]:
                conn, memlet = edge.dst_conn, edge.data
                self.remove_node(src)
                self.add_edge(input_nodes[memlet.data or src.data], None, entry, conn, memlet)
        for edge in exit_.out_edges():
            dst = edge.dst
            if isinstance(dst, AccessNode) and dst.data in output_nodes and dst != output_nodes[dst.data]:
                conn, memlet = edge.src_conn, edge.data
                self.remove_node(dst)
                self.add_edge(exit_, conn, output_nodes[memlet.data or dst.data], None, memlet)

    def add_nested_sdfg(self, sdfg, parent=None, inputs=(), outputs=(), symbol_mapping=None, name=None,
                        **_ignored):
        """Copies `sdfg` into this state (DaCe's signature; `parent` is ignored).

        symbol_mapping: {'N': 'N', 'M': 'M - 1'} or text; None maps each symbol to itself."""
        if isinstance(symbol_mapping, dict):
            symbol_mapping = ", ".join(f"{k}: {v}" for k, v in symbol_mapping.items())
        out = ctypes.c_int32()
        check(_capi.dace_state_add_nested_sdfg(ctypes.byref(out), self._h(), self.id, sdfg._handle,
                                               enc(name), enc(connector_list(inputs)),
                                               enc(connector_list(outputs)), enc(symbol_mapping)))
        return NestedSDFG(self, out.value)

    def remove_node(self, node):
        check(_capi.dace_state_remove_node(self._h(), self.id, node.id))

    def node(self, node_id):
        return make_node(self, node_id)

    def nodes(self):
        return [make_node(self, n) for n in id_list(_capi.dace_state_list_nodes, self._h(), self.id)]

    def data_nodes(self):
        return [n for n in self.nodes() if isinstance(n, AccessNode)]

    # --- edges -------------------------------------------------------------------------

    def add_edge(self, u, u_connector, v, v_connector, memlet):
        """u/v: node objects; memlet: Memlet, memlet text, or None (empty memlet)."""
        m = as_memlet(memlet)
        opts = m.options()
        out = ctypes.c_int32()
        check(_capi.dace_state_add_edge(ctypes.byref(out), self._h(), self.id, u.id, enc(u_connector), v.id,
                                        enc(v_connector), enc(m.expr),
                                        ctypes.byref(opts) if opts is not None else None))
        return MultiConnectorEdge(self, out.value)

    def add_memlet_path(self, *path_nodes, memlet=None, src_conn=None, dst_conn=None, propagate=True):
        """DaCe's add_memlet_path: the edges along `path_nodes` (e.g. read -> map entries ->
        tasklet, or tasklet -> map exits -> write), with IN_x/OUT_x connectors on the scope
        nodes named as DaCe names them (x = the data name, else the next free number).

        `memlet` is the innermost memlet (next to the tasklet). Outward edges get it
        propagated over each map's range like DaCe's propagation for the common cases:
        subset bounds affine in the map parameters (integer coefficients, step-1 ranges)
        become the hull over all iterations; any other parameter-dependent dimension, and
        every dimension through a consume scope, becomes the container's whole extent (a
        correct over-approximation). Outer memlets drop `other_subset` and `volume`; input
        paths drop `wcr`. propagate=False puts the given memlet on every edge.
        Returns the edges in path order."""
        if memlet is None:
            raise TypeError("add_memlet_path: the innermost memlet cannot be None")
        if len(path_nodes) < 2:
            raise ValueError("add_memlet_path: a memlet path needs at least 2 nodes")
        memlet = as_memlet(memlet)
        hops = list(zip(path_nodes[:-1], path_nodes[1:]))
        inward = any(isinstance(n, (MapEntry, ConsumeEntry)) for n in path_nodes)
        # Walk from the innermost edge outward, as propagation runs.
        order = list(reversed(range(len(hops)))) if inward else list(range(len(hops)))
        plan = [None] * len(hops)
        cur, last_conn = memlet, None
        for step, i in enumerate(order):
            u, v = hops[i]
            scope = u if inward else v  # the scope node this edge leaves (inward) or enters
            first, final = i == 0, i == len(hops) - 1
            if memlet.expr:
                nxt = _next_connector(scope, memlet.data) if step < len(order) - 1 else None
                if inward:
                    sconn = src_conn if first else "OUT_" + nxt
                    dconn = dst_conn if final else "IN_" + last_conn
                else:
                    sconn = src_conn if first else "OUT_" + last_conn
                    dconn = dst_conn if final else "IN_" + nxt
                last_conn = nxt
            else:
                sconn, dconn = (src_conn if first else None), (dst_conn if final else None)
            plan[i] = (sconn, dconn, cur)
            if step < len(order) - 1 and memlet.expr and propagate:
                cur = self._propagated(cur, scope, keep_wcr=not inward)
        return [self.add_edge(u, sc, v, dc, m) for (u, v), (sc, dc, m) in zip(hops, plan)]

    def _propagated(self, memlet, scope, keep_wcr):
        """`memlet` as seen outside `scope` (see add_memlet_path): libdace propagates it over a
        map's range (dace_map_propagate_memlet); a consume scope widens to the whole container."""
        data, subset, _ = split_memlet(memlet.expr)
        expr = memlet.expr
        if isinstance(scope, (MapEntry, MapExit, ConsumeEntry, ConsumeExit)) and subset is not None:
            try:
                if isinstance(scope, (MapEntry, MapExit)):
                    expr = borrowed_string(_capi.dace_map_propagate_memlet, self._h(), self.id, scope.id,
                                           enc(f"{data}[{subset}]"))
                else:
                    shape = split_dims(borrowed_string(_capi.dace_data_get_property, self._h(), enc(data), b"shape"))
                    expr = f"{data}[{', '.join(f'0:{d}' for d in shape)}]"
            except LibdaceError:
                return memlet  # unknown container: add_edge reports it, naming the edge
        return Memlet(expr if subset is not None else data, wcr=memlet.wcr if keep_wcr else None,
                      dynamic=memlet.dynamic, wcr_nonatomic=memlet.wcr_nonatomic, allow_oob=memlet.allow_oob)

    def add_nedge(self, u, v, memlet):
        """An edge without connectors (DaCe's add_nedge)."""
        return self.add_edge(u, None, v, None, memlet)

    def remove_edge(self, edge):
        check(_capi.dace_state_remove_edge(self._h(), self.id, edge.id))

    def edge(self, edge_id):
        return MultiConnectorEdge(self, edge_id)

    def edges(self):
        return [MultiConnectorEdge(self, e) for e in id_list(_capi.dace_state_list_edges, self._h(), self.id)]


__all__ = ["SDFGState", "ControlFlowBlock", "Memlet"]
