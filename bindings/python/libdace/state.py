"""SDFGState: the dataflow builder (add_read, add_tasklet, add_map, add_edge, ...).

Method names and argument orders follow DaCe's SDFGState; node and edge objects are handles
(see nodes.py). Every call goes straight to libdace, which checks it and names the failing
element in the exception.
"""

import ctypes

from . import _capi
from ._util import connector_list, enc, id_list, ranges_text
from .errors import check
from .memlet import Memlet, as_memlet
from .nodes import AccessNode, MapEntry, MapExit, MultiConnectorEdge, NestedSDFG, Tasklet, make_node

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
    check(_capi.dace_map_options_init(ctypes.byref(opts)))
    if schedule is not None:
        opts.schedule = schedule
    for key, value in extra.items():
        if value is not None:
            setattr(opts, key, value)
    return opts


class ControlFlowBlock:
    """Any block of an SDFG's control flow (state, loop, conditional, region)."""

    def __init__(self, sdfg, block_id):
        self.sdfg = sdfg
        self.id = block_id

    @property
    def label(self):
        from ._util import borrowed_string

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
        memlets (Memlet(..., wcr=...)) must be the same for all outputs."""
        if input_nodes or output_nodes:
            raise NotImplementedError("add_mapped_tasklet: input_nodes/output_nodes are not supported; "
                                      "use external_edges=True or connect the map yourself")
        ins = "; ".join(f"{c}: {as_memlet(m)}" for c, m in (inputs or {}).items())
        outs_m = {c: as_memlet(m) for c, m in (outputs or {}).items()}
        wcrs = {m.wcr for m in outs_m.values()}
        if len(wcrs) > 1:
            raise ValueError("add_mapped_tasklet: all output memlets must share one wcr")
        outs = "; ".join(f"{c}: {m}" for c, m in outs_m.items())
        opts = _capi.dace_mapped_tasklet_options_t()
        check(_capi.dace_mapped_tasklet_options_init(ctypes.byref(opts)))
        if schedule is not None:
            opts.schedule = schedule
        opts.external_edges = int(bool(external_edges))
        opts.output_wcr = enc(wcrs.pop() if wcrs else None)
        opts.language = _language(language)
        t, e, x = ctypes.c_int32(), ctypes.c_int32(), ctypes.c_int32()
        check(_capi.dace_state_add_mapped_tasklet(ctypes.byref(t), ctypes.byref(e), ctypes.byref(x),
                                                  self._h(), self.id, enc(name), enc(ranges_text(map_ranges)),
                                                  enc(ins), enc(code), enc(outs), ctypes.byref(opts)))
        return Tasklet(self, t.value), MapEntry(self, e.value), MapExit(self, x.value)

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
