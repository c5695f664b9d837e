"""SDFG and its control-flow regions: the top of the builder, load/save, compile().

Ownership: an SDFG object created here (constructor, from_file, load, clone) owns its
libdace handle and releases it on close(), at the end of a `with` block, or when garbage
collected. Nested SDFGs obtained from a node are borrowed: they keep their parent alive and
never release anything.
"""

import ctypes
import json

from . import _capi
from . import instrument as _instrument
from ._util import (Releasable, assignments_text, borrowed_string, enc, id_list, out_value, owned_string,
                    shape_text)
from .dtypes import numpy_dtype, to_dace
from .errors import InvalidArgumentError, UnsupportedError, check
from .state import ControlFlowBlock, SDFGState

_HANDLE = ctypes.POINTER(_capi.dace_sdfg_t)


class InterstateEdge:
    """DaCe's InterstateEdge(condition=..., assignments={...}) as a value object."""

    def __init__(self, condition=None, assignments=None):
        self.condition = condition
        self.assignments = assignments


class InterstateEdgeRef:
    """An existing interstate edge (region id + edge slot)."""

    def __init__(self, sdfg, region, edge_id):
        self.sdfg, self.region, self.id = sdfg, region, edge_id

    @property
    def condition(self):
        return borrowed_string(_capi.dace_interstate_edge_get_condition, self.sdfg._handle, self.region, self.id)

    @property
    def assignments(self):
        text = borrowed_string(_capi.dace_interstate_edge_get_assignments, self.sdfg._handle, self.region, self.id)
        pairs = [a.split("=", 1) for a in text.split(";") if "=" in a] if text else []
        return {k.strip(): v.strip() for k, v in pairs}

    def __repr__(self):
        return f"InterstateEdge(condition={self.condition!r}, assignments={self.assignments!r})"


def _block(sdfg, block_id):
    kind = out_value(ctypes.c_int32, _capi.dace_block_get_kind, sdfg._handle, block_id)
    cls = {_capi.DACE_BLOCK_STATE: SDFGState, _capi.DACE_BLOCK_LOOP: LoopRegion,
           _capi.DACE_BLOCK_CONDITIONAL: ConditionalBlock, _capi.DACE_BLOCK_REGION: ControlFlowRegion}
    return cls.get(kind, ControlFlowBlock)(sdfg, block_id)


class ControlFlowRegion(ControlFlowBlock):
    """A region that holds blocks: the SDFG itself, a loop body, a branch."""

    def _sdfg(self):
        return self.sdfg

    def add_state(self, label=None, is_start_block=False, *, is_start_state=None):
        sdfg = self._sdfg()
        out = ctypes.c_int32()
        check(_capi.dace_sdfg_add_state(ctypes.byref(out), sdfg._handle, self.id, enc(label)))
        if is_start_block or is_start_state:
            check(_capi.dace_region_set_start_block(sdfg._handle, self.id, out.value))
        return SDFGState(sdfg, out.value)

    def add_state_after(self, state, label=None, condition=None, assignments=None):
        new = self.add_state(label)
        self.add_edge(state, new, condition=condition, assignments=assignments)
        return new

    def add_state_before(self, state, label=None, condition=None, assignments=None):
        new = self.add_state(label)
        self.add_edge(new, state, condition=condition, assignments=assignments)
        return new

    def add_edge(self, src, dst, data=None, *, condition=None, assignments=None):
        """An interstate edge: add_edge(a, b, InterstateEdge(...)) or
        add_edge(a, b, condition='k < N', assignments={'k': 'k + 1'})."""
        if data is not None:
            if condition is not None or assignments is not None:
                raise TypeError("add_edge: give an InterstateEdge or condition=/assignments=, not both")
            condition, assignments = data.condition, data.assignments
        sdfg = self._sdfg()
        edge, region = ctypes.c_int32(), ctypes.c_int32()
        check(_capi.dace_sdfg_add_interstate_edge(ctypes.byref(edge), ctypes.byref(region), sdfg._handle, src.id,
                                                  dst.id, enc(None if condition is None else str(condition)),
                                                  enc(assignments_text(assignments))))
        return InterstateEdgeRef(sdfg, region.value, edge.value)

    def add_loop_region(self, label, loop_var, init, condition, update, inverted=False):
        """A structured loop (LoopRegion): init 'i = 0', condition 'i < N', update 'i = i + 1'.
        Returns the loop; add its body with loop.add_state(...)."""
        sdfg = self._sdfg()
        out = ctypes.c_int32()
        check(_capi.dace_sdfg_add_loop(ctypes.byref(out), sdfg._handle, self.id, enc(label), enc(loop_var),
                                       enc(init), enc(condition), enc(update), int(bool(inverted))))
        return LoopRegion(sdfg, out.value)

    def add_for(self, loop_var, start, stop, step=1, label=None):
        """for loop_var in range(start, stop, step) as a LoopRegion (a convenience)."""
        cmp = "<" if not isinstance(step, int) or step > 0 else ">"
        return self.add_loop_region(label or f"for_{loop_var}", loop_var, f"{loop_var} = {start}",
                                    f"{loop_var} {cmp} {stop}", f"{loop_var} = {loop_var} + {step}")

    def add_loop(self, before_state, loop_state, after_state, loop_var, initialize_expr, condition_expr,
                 increment_expr, loop_end_state=None):
        """DaCe's state-machine loop: a guard state and three interstate edges.
        Returns (before_state, guard, after_state) like DaCe."""
        if loop_end_state is None:
            loop_end_state = loop_state
        if before_state is None:
            before_state = self.add_state()
        if after_state is None:
            after_state = self.add_state()
        guard = self.add_state()
        init = None if initialize_expr is None else {loop_var: initialize_expr}
        self.add_edge(before_state, guard, assignments=init)
        cond = condition_expr or "1"
        self.add_edge(guard, loop_state, condition=cond)
        self.add_edge(guard, after_state, condition=f"not ({cond})")
        incr = None if increment_expr is None else {loop_var: increment_expr}
        self.add_edge(loop_end_state, guard, assignments=incr)
        return before_state, guard, after_state

    def add_conditional(self, label=None):
        sdfg = self._sdfg()
        out = ctypes.c_int32()
        check(_capi.dace_sdfg_add_conditional(ctypes.byref(out), sdfg._handle, self.id, enc(label)))
        return ConditionalBlock(sdfg, out.value)

    def add_return(self, label=None):
        sdfg = self._sdfg()
        out = ctypes.c_int32()
        check(_capi.dace_sdfg_add_return(ctypes.byref(out), sdfg._handle, self.id, enc(label)))
        return ControlFlowBlock(sdfg, out.value)

    def nodes(self):
        sdfg = self._sdfg()
        return [_block(sdfg, b) for b in id_list(_capi.dace_region_list_blocks, sdfg._handle, self.id)]

    @property
    def start_block(self):
        sdfg = self._sdfg()
        b = out_value(ctypes.c_int32, _capi.dace_region_get_start_block, sdfg._handle, self.id)
        return None if b == _capi.DACE_NO_ID else _block(sdfg, b)

    @start_block.setter
    def start_block(self, block):
        check(_capi.dace_region_set_start_block(self._sdfg()._handle, self.id, block.id))

    def edges(self):
        sdfg = self._sdfg()
        return [InterstateEdgeRef(sdfg, self.id, e) for e in id_list(_capi.dace_region_list_edges, sdfg._handle,
                                                                    self.id)]


class LoopRegion(ControlFlowRegion):
    def add_break(self, label=None):
        out = ctypes.c_int32()
        check(_capi.dace_sdfg_add_break(ctypes.byref(out), self.sdfg._handle, self.id, enc(label)))
        return ControlFlowBlock(self.sdfg, out.value)

    def add_continue(self, label=None):
        out = ctypes.c_int32()
        check(_capi.dace_sdfg_add_continue(ctypes.byref(out), self.sdfg._handle, self.id, enc(label)))
        return ControlFlowBlock(self.sdfg, out.value)


class ConditionalBlock(ControlFlowBlock):
    def add_branch(self, condition=None):
        """A branch region; condition None = else (last)."""
        out = ctypes.c_int32()
        check(_capi.dace_conditional_add_branch(ctypes.byref(out), self.sdfg._handle, self.id, enc(condition)))
        return ControlFlowRegion(self.sdfg, out.value)


class Data:
    """A read-only view of a data descriptor (libdace's current values, as text)."""

    def __init__(self, sdfg, name):
        self.sdfg, self.name = sdfg, name

    def get_property(self, prop):
        return borrowed_string(_capi.dace_data_get_property, self.sdfg._handle, enc(self.name), enc(prop))

    @property
    def dtype(self):
        code = out_value(ctypes.c_int32, _capi.dace_data_get_dtype, self.sdfg._handle, enc(self.name))
        return numpy_dtype(code)

    @property
    def shape(self):
        return tuple(s.strip() for s in self.get_property("shape").split(","))

    @property
    def strides(self):
        return tuple(s.strip() for s in self.get_property("strides").split(","))

    @property
    def transient(self):
        return self.get_property("transient") == "1"

    @transient.setter
    def transient(self, value):
        check(_capi.dace_data_set_transient(self.sdfg._handle, enc(self.name), int(bool(value))))

    def set_strides(self, strides):
        check(_capi.dace_data_set_strides(self.sdfg._handle, enc(self.name),
                                          enc(None if strides is None else shape_text(strides))))

    def __repr__(self):
        return f"{self.get_property('kind')}({self.name!r}, {self.get_property('dtype')}, shape=({self.get_property('shape')}))"


def _array_options(transient=False, strides=None, offset=None, total_size=None, storage=None, lifetime=None,
                   alignment=0, may_alias=False, optional=False):
    opts = _capi.dace_array_options_t()
    check(_capi.dace_array_options_init(ctypes.byref(opts), _capi.DACE_ARRAY_OPTIONS_VERSION))
    opts.transient = int(bool(transient))
    opts.strides = enc(None if strides is None else shape_text(strides))
    opts.offset = enc(None if offset is None else shape_text(offset))
    opts.total_size = enc(None if total_size is None else str(total_size))
    if storage is not None:
        opts.storage = storage
    if lifetime is not None:
        opts.lifetime = lifetime
    opts.alignment = alignment
    opts.may_alias = int(bool(may_alias))
    opts.optional = int(bool(optional))
    return opts


class SDFG(ControlFlowRegion, Releasable):
    """An SDFG, like dace.SDFG: SDFG('name'), add_symbol, add_array, add_state, ..."""

    def __init__(self, name, *, _handle=None, _owner=None):
        handle = _handle
        if handle is None:
            handle = _HANDLE()
            check(_capi.dace_sdfg_create(ctypes.byref(handle), enc(name)))
        self._handle = handle
        self._owner = _owner  # parent SDFG of a borrowed (nested) handle, else None
        self.sdfg = self
        self.id = _capi.DACE_ROOT_REGION

    # --- lifetime -----------------------------------------------------------------------

    @classmethod
    def _owned(cls, handle):
        return cls(None, _handle=handle)

    @classmethod
    def _borrowed(cls, handle, owner):
        return cls(None, _handle=handle, _owner=owner)

    def close(self):
        """Releases the handle now (idempotent). Borrowed SDFGs only drop their reference."""
        handle = self._take_handle()
        if handle and getattr(self, "_owner", None) is None:
            _capi.dace_sdfg_release(handle)
        self._owner = None

    def _h(self):
        if not self._handle:
            raise ValueError("SDFG is closed")
        return self._handle

    # --- I/O ----------------------------------------------------------------------------

    @classmethod
    def from_file(cls, filename):
        """Loads .sdfg (any DaCe dialect) or .sdfgz, like dace.SDFG.from_file."""
        handle = _HANDLE()
        check(_capi.dace_sdfg_load_file(ctypes.byref(handle), enc(str(filename))))
        return cls._owned(handle)

    @classmethod
    def from_json(cls, text):
        """Loads an SDFG from JSON text (str) or .sdfg/.sdfgz bytes."""
        handle = _HANDLE()
        if isinstance(text, (bytes, bytearray)):
            buf = bytes(text)
            check(_capi.dace_sdfg_load_buffer(ctypes.byref(handle), buf, len(buf)))
        else:
            check(_capi.dace_sdfg_load_string(ctypes.byref(handle), enc(text)))
        return cls._owned(handle)

    load = from_file

    def save(self, filename, compact=False, omit_guids=False):
        """Writes .sdfg (JSON) or .sdfgz (gzip, by extension); atomic."""
        opts = _save_options(compact, omit_guids)
        check(_capi.dace_sdfg_save_file(self._h(), enc(str(filename)), ctypes.byref(opts)))

    def to_json(self, compact=False, omit_guids=False):
        """The SDFG as JSON text (str)."""
        return owned_string(_capi.dace_sdfg_to_json, self._h(), ctypes.byref(_save_options(compact, omit_guids)))

    def render(self, filename=None, format=None):
        """A picture of the SDFG (docs/render.md), the same bytes as `dace render`: the SVG
        text, or with format="html" the self-contained page (pan, zoom, collapsible scopes).
        With a filename, writes it and returns the filename; the format comes from its
        extension (.svg, .html, .htm) unless given. Raises UnsupportedError when libdace was
        built or installed without its renderer (Graphviz), InvalidArgumentError for another
        format; nothing is written then."""
        if format is None:
            name = str(filename) if filename is not None else ".svg"
            lower = name.lower()
            format = ("svg" if lower.endswith(".svg") else "html" if lower.endswith((".html", ".htm")) else None)
            if format is None:
                raise InvalidArgumentError(f"cannot tell the picture format of '{name}' (use .svg, .html or format=)")
        text = owned_string(_capi.dace_sdfg_render, self._h(), enc(format))
        if filename is None:
            return text
        with open(filename, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return filename

    def _repr_svg_(self):
        """Jupyter draws an SDFG as its picture (nothing without a renderer)."""
        try:
            return self.render()
        except UnsupportedError:
            return None

    def clone(self):
        handle = _HANDLE()
        check(_capi.dace_sdfg_clone(ctypes.byref(handle), self._h()))
        return SDFG._owned(handle)

    # --- properties ---------------------------------------------------------------------

    @property
    def name(self):
        return borrowed_string(_capi.dace_sdfg_get_name, self._h())

    @name.setter
    def name(self, value):
        check(_capi.dace_sdfg_set_name(self._h(), enc(value)))

    @property
    def label(self):
        return self.name

    @property
    def instrument(self):
        """DaCe's InstrumentationType name of the whole program ("No_Instrumentation", "Timer")."""
        return _instrument.get_sdfg(self._h())

    @instrument.setter
    def instrument(self, value):
        _instrument.set_sdfg(self._h(), value)

    def instrument_all(self, selection="all"):
        """Timer on "program", "states", "maps", "nodes" (comma-separated), "all", or "none" to
        clear; nested SDFGs included. Returns how many elements were set."""
        return _instrument.instrument_all(self._h(), selection)

    @property
    def arg_names(self):
        """The positional signature (DaCe's `arg_names`); Program's positional calls follow it."""
        n = out_value(ctypes.c_size_t, _capi.dace_sdfg_arg_name_count, self._h())
        return [borrowed_string(_capi.dace_sdfg_get_arg_name, self._h(), i) for i in range(n)]

    @arg_names.setter
    def arg_names(self, names):
        names = list(names or [])
        arr = (ctypes.c_char_p * max(1, len(names)))(*[enc(n) for n in names])
        check(_capi.dace_sdfg_set_arg_names(self._h(), arr, len(names)))

    def free_symbols(self):
        text = borrowed_string(_capi.dace_sdfg_get_free_symbols, self._h())
        return [s.strip() for s in text.split(",") if s.strip()]

    def arglist(self):
        """Argument names in DaCe's order (arrays, then scalars and symbols)."""
        text = borrowed_string(_capi.dace_sdfg_get_arguments, self._h())
        return [s.strip() for s in text.split(",") if s.strip()]

    @property
    def symbols(self):
        n = out_value(ctypes.c_size_t, _capi.dace_sdfg_symbol_count, self._h())
        result = {}
        for i in range(n):
            name, dt = ctypes.c_char_p(), ctypes.c_int32()
            check(_capi.dace_sdfg_get_symbol(ctypes.byref(name), ctypes.byref(dt), self._h(), i))
            result[name.value.decode()] = numpy_dtype(dt.value)
        return result

    @property
    def arrays(self):
        n = out_value(ctypes.c_size_t, _capi.dace_sdfg_data_count, self._h())
        names = [borrowed_string(_capi.dace_sdfg_get_data_name, self._h(), i) for i in range(n)]
        return {name: Data(self, name) for name in names}

    def hash_sdfg(self):
        buf = ctypes.create_string_buffer(65)
        check(_capi.dace_sdfg_hash(buf, self._h()))
        return buf.value.decode()

    def equals(self, other):
        """(equal, first difference) by structure (guids ignored)."""
        eq, diff = ctypes.c_int32(), ctypes.c_char_p()
        check(_capi.dace_sdfg_equal(ctypes.byref(eq), ctypes.byref(diff), self._h(), other._h()))
        return bool(eq.value), (diff.value or b"").decode()

    # --- symbols and data ---------------------------------------------------------------

    def add_symbol(self, name, stype=None):
        check(_capi.dace_sdfg_add_symbol(self._h(), enc(name), to_dace(stype if stype is not None else "int64")))

    def remove_symbol(self, name):
        check(_capi.dace_sdfg_remove_symbol(self._h(), enc(name)))

    def add_array(self, name, shape, dtype, storage=None, transient=False, strides=None, offset=None,
                  lifetime=None, alignment=0, total_size=None, may_alias=False, optional=None,
                  find_new_name=False, **_ignored):
        """Returns (name, Data) like DaCe."""
        if find_new_name:
            name = self._new_name(name)
        opts = _array_options(transient, strides, offset, total_size, storage, lifetime, alignment, may_alias,
                              bool(optional))
        check(_capi.dace_sdfg_add_array(self._h(), enc(name), to_dace(dtype), enc(shape_text(shape)),
                                        ctypes.byref(opts)))
        return name, Data(self, name)

    def add_transient(self, name, shape, dtype, storage=None, strides=None, offset=None, lifetime=None,
                      alignment=0, total_size=None, may_alias=False, find_new_name=False, **_ignored):
        return self.add_array(name, shape, dtype, storage, True, strides, offset, lifetime, alignment, total_size,
                              may_alias, find_new_name=find_new_name)

    def add_scalar(self, name, dtype, storage=None, transient=False, lifetime=None, find_new_name=False,
                   **_ignored):
        if find_new_name:
            name = self._new_name(name)
        opts = _array_options(transient, storage=storage, lifetime=lifetime)
        check(_capi.dace_sdfg_add_scalar(self._h(), enc(name), to_dace(dtype), ctypes.byref(opts)))
        return name, Data(self, name)

    def add_temp_transient(self, shape, dtype, **kwargs):
        return self.add_transient("__tmp", shape, dtype, find_new_name=True, **kwargs)

    def remove_data(self, name, validate=True):
        check(_capi.dace_sdfg_remove_data(self._h(), enc(name)))

    def _new_name(self, name):
        taken = set(self.arrays) | set(self.symbols)
        if name not in taken:
            return name
        i = 0
        while f"{name}_{i}" in taken:
            i += 1
        return f"{name}_{i}"

    # --- queries ------------------------------------------------------------------------

    def states(self):
        return [SDFGState(self, s) for s in id_list(_capi.dace_sdfg_list_states, self._h())]

    def find_state(self, label):
        b = out_value(ctypes.c_int32, _capi.dace_sdfg_find_block, self._h(), enc(label))
        return _block(self, b)

    # --- optimizer ----------------------------------------------------------------------

    def simplify(self, validate=True, **_ignored):
        """Runs DaCe's simplify pipeline (the passes libdace has) in place, like
        dace.SDFG.simplify(); returns the SDFG's new history entries (dicts)."""
        before = len(self.transformation_history)
        check(_capi.dace_sdfg_simplify(self._h()))
        return self.transformation_history[before:]

    def auto_optimize(self, device="cpu"):
        """DaCe's auto_optimize for `device` ("cpu" or "gpu", or a DeviceType-like object with
        that name) in place; returns the SDFG's new history entries (dicts). "gpu" moves the
        data to GPU_Global and the maps to GPU_Device (GPUTransformSDFG): compile the result
        with the CUDA plugin (`emulate_device=True` runs it without a GPU)."""
        devices = {"cpu": _capi.DACE_DEVICE_CPU, "gpu": _capi.DACE_DEVICE_GPU}
        key = str(getattr(device, "name", device)).lower()
        if key not in devices:
            raise InvalidArgumentError(f"auto_optimize: unknown device {device!r} (known: cpu, gpu)")
        before = len(self.transformation_history)
        check(_capi.dace_sdfg_auto_optimize(self._h(), devices[key], None))
        return self.transformation_history[before:]

    def apply_transformations(self, xforms, options=None, **props):
        """Applies each transformation of `xforms` (a name, a class with DaCe's name, or a list
        of them) once at its first legal match, in order, like DaCe's apply_transformations;
        returns how many applied. `options`: a dict of properties (or one per transformation);
        keyword arguments are properties for all of them. A location (cfg_id, state_id,
        _subgraph) among the properties applies there instead, and raises when it does not
        match. Passes ("DeadStateElimination", "simplify") run once and count as applied."""
        names = _names(xforms)
        per = _options(options, len(names))
        applied = 0
        for name, opts in zip(names, per):
            merged = dict(opts, **props)
            located = any(k in merged for k in ("_subgraph", "cfg_id", "state_id"))
            status = _capi.dace_sdfg_apply_transformation(self._h(), enc(name), enc(json.dumps(merged)))
            if status == _capi.DACE_ERROR_NOT_FOUND and not located and not is_pass(name):
                continue  # known name (checked by _names), no legal match: DaCe counts 0
            check(status)
            applied += 1
        return applied

    def apply_transformations_repeated(self, xforms, options=None, **props):
        """Applies the transformations of `xforms` at their first legal match until none of
        them matches (DaCe's apply_transformations_repeated); returns how many applied."""
        names = _names(xforms)
        per = _options(options, len(names))
        total = 0
        while True:
            round_total = 0
            for name, opts in zip(names, per):
                out = ctypes.c_int32()
                check(_capi.dace_sdfg_apply_transformation_repeated(ctypes.byref(out), self._h(), enc(name),
                                                                    enc(json.dumps(dict(opts, **props)))))
                round_total += out.value
            total += round_total
            if round_total == 0 or len(names) == 1:
                return total

    def apply_transformation_at(self, xform, location, **props):
        """Applies `xform` once at `location` (a match from match_transformation, or a dict
        with cfg_id, state_id, _subgraph); raises when it does not apply there."""
        name = _names(xform)[0]
        check(_capi.dace_sdfg_apply_transformation(self._h(), enc(name), enc(json.dumps(dict(location, **props)))))

    def match_transformation(self, xform, **props):
        """The legal matches of a pattern transformation, in libdace's canonical order: a list
        of DaCe history entries (dicts with cfg_id, state_id, _subgraph)."""
        name = _names(xform)[0]
        return json.loads(borrowed_string(_capi.dace_sdfg_match_transformation, self._h(), enc(name),
                                          enc(json.dumps(props))))

    @property
    def transformation_history(self):
        """The applied steps (DaCe's transformation_hist, as JSON dicts), oldest first."""
        return json.loads(borrowed_string(_capi.dace_sdfg_history_json, self._h()))

    transformation_hist = transformation_history

    def replay_history(self, history):
        """Applies a history (a list of entries as dicts, or its JSON text) in order; on the SDFG
        it was recorded on this reproduces the same SDFG. Nothing changes when a step fails."""
        text = history if isinstance(history, str) else json.dumps(list(history))
        check(_capi.dace_sdfg_replay_history(self._h(), enc(text)))

    def revert_history(self, steps=1):
        """Undoes the last `steps` history entries: the others are replayed on the SDFG as it was
        before the first step (DaCe's orig_sdfg, saved with the SDFG), so the result equals the
        original with only those applied. Nothing changes when it fails (more steps than the
        history holds, no original stored, an entry that no longer applies)."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 0:
            raise ValueError(f"revert_history: steps must be a non-negative int, got {steps!r}")
        check(_capi.dace_sdfg_revert_history(self._h(), steps))

    # --- checking and compiling ---------------------------------------------------------

    def validate(self):
        """Raises InvalidSDFGError (with the element path) on the first violation."""
        check(_capi.dace_sdfg_validate(self._h()))

    def is_valid(self):
        return _capi.dace_sdfg_validate(self._h()) == _capi.DACE_OK

    def compile(self, opt_level=3, fast_math=False, num_threads=0, cache_dir=None, dump_dir=None, context=None,
                optimize=None, comm=None, tiered=True, wait_optimized=False, emulate_device=False,
                bounds_check=False, max_concurrent_streams=0):
        """JIT-compiles and returns a callable CompiledProgram (see program.py). `optimize` names
        a registered pass run on a copy first (e.g. "simplify"); this SDFG is not changed.
        `comm`: an mpi4py communicator for the program's MPI nodes (default MPI_COMM_WORLD).
        `tiered`: callable at once on quickly compiled code, the optimized code swapped in when
        ready; `wait_optimized`: return only once it is in. `emulate_device`: GPU kernels run on
        the host (docs/cuda.md). `max_concurrent_streams`: CUDA streams the independent GPU work
        of a state may run on at once (0: the CUDA plugin's default; 1: the default stream
        only; docs/cuda.md "Streams and events"). `bounds_check`: check every memlet
        access against its container at run time; a violation raises DaceError naming the
        memlet and the index, before anything is written outside an array."""
        from .program import CompiledProgram

        return CompiledProgram(self, opt_level=opt_level, fast_math=fast_math, num_threads=num_threads,
                               cache_dir=cache_dir, dump_dir=dump_dir, context=context, optimize=optimize,
                               comm=comm, tiered=tiered, wait_optimized=wait_optimized,
                               emulate_device=emulate_device, bounds_check=bounds_check,
                               max_concurrent_streams=max_concurrent_streams)

    def compile_aot(self, out_dir, opt_level=3, fast_math=False, num_threads=0, optimize=None, context=None,
                    bounds_check=False, emulate_device=False, max_concurrent_streams=0):
        """Ahead-of-time compilation (docs/aot.md): writes out_dir/lib<name>.so, lib<name>.a,
        <name>.o and <name>.h, for a C or Fortran host that links them with no JIT at run time.
        The name must be a C identifier. Returns three paths (library, object, header); the
        static archive is lib<name>.a next to them. GPU programs need libdace_cuda_rt.so;
        emulate_device=True builds their kernels for the host (no GPU or driver needed)."""
        import os

        from .context import default_context

        ctx = context or default_context()
        opts = _capi.dace_compile_options_t()
        check(_capi.dace_compile_options_init(ctypes.byref(opts), _capi.DACE_COMPILE_OPTIONS_VERSION))
        opts.opt_level, opts.fast_math, opts.num_threads = int(opt_level), int(bool(fast_math)), int(num_threads)
        opts.optimize, opts.bounds_check = enc(optimize), int(bool(bounds_check))
        opts.emulate_device = int(bool(emulate_device))
        opts.max_concurrent_streams = int(max_concurrent_streams)
        out_dir = os.fspath(out_dir)
        check(_capi.dace_program_compile_aot(ctx._handle, self._h(), ctypes.byref(opts), enc(out_dir)))
        name = self.name
        return (os.path.join(out_dir, f"lib{name}.so"), os.path.join(out_dir, f"{name}.o"),
                os.path.join(out_dir, f"{name}.h"))

    def __repr__(self):
        return f"SDFG({self.name!r})" if self._handle else "SDFG(<closed>)"


def _save_options(compact, omit_guids):
    opts = _capi.dace_save_options_t()
    check(_capi.dace_save_options_init(ctypes.byref(opts), _capi.DACE_SAVE_OPTIONS_VERSION))
    opts.compact = int(bool(compact))
    opts.omit_guids = int(bool(omit_guids))
    return opts


def transformations():
    """The names of every transformation and pass libdace has, sorted."""
    n = out_value(ctypes.c_size_t, _capi.dace_sdfg_transformation_count)
    return [borrowed_string(_capi.dace_sdfg_transformation_name, i) for i in range(n)]


def is_pass(name):
    """True for a pass (whole SDFG, no matches), False for a pattern transformation."""
    return bool(out_value(ctypes.c_int32, _capi.dace_sdfg_transformation_is_pass, enc(_names(name)[0])))


def _names(xforms):
    """Transformation names from a name, a class or object named like DaCe's, or a list."""
    if isinstance(xforms, (str, bytes)) or not isinstance(xforms, (list, tuple)):
        xforms = [xforms]
    out = []
    for x in xforms:
        if isinstance(x, bytes):
            x = x.decode()
        if not isinstance(x, str):
            x = x.__name__ if isinstance(x, type) else type(x).__name__
        out.append(x)
    return out


def _options(options, count):
    if options is None:
        return [{}] * count
    if isinstance(options, dict):
        return [options] * count
    options = list(options)
    if len(options) != count:
        raise ValueError(f"options: {len(options)} dicts for {count} transformations")
    return [o or {} for o in options]
