"""CompiledProgram: a JIT-compiled SDFG called with NumPy arrays, like DaCe's CompiledSDFG.

Calling.  prog(A, B, N=10, alpha=2.0): positional arguments follow the SDFG's `arg_names`
(DaCe's Python signature) when it has one, else the program's argument order without the
`__return*` arrays and without symbols (give those by keyword); keywords may name any
argument. Symbols equal to an array dimension may
be left out (inferred). Arrays are passed by pointer, never copied; scalars and symbols are
converted from Python or NumPy numbers (or 0-d arrays). Return arrays (`__return`,
`__return_0`, ...) not passed by the caller are allocated fresh for every call and returned
as DaCe does: one -> that array, several -> a tuple in name order, none -> None.

Memory layout (why there is a specialization cache).  Compiled code has the strides of the
SDFG's descriptors built in, and dace_program_call rejects an array laid out differently. A
Fortran-order array or a strided view therefore gets its own program: the SDFG is cloned,
the argument's strides are set to the call's element strides (dace_data_set_strides, as
numbers), and the clone is compiled once and cached under those strides. Byte strides must
be whole multiples of the item size (else ArgumentTypeError). Dimensions of extent 1 never
force a specialization (their stride is never used).

Speed.  Each distinct call signature (which arguments, array shapes, strides and dtypes,
symbol values) gets a "plan" holding the ctypes argument block with everything constant
already written; a call then only writes the data pointers and scalar values with one
struct.pack_into and calls libdace.
"""

import ctypes
import json
import operator
import struct
import threading

import numpy as np

from . import _capi, _symeval
from ._util import Releasable, dec, enc, out_value
from .context import default_context
from .dtypes import from_numpy, numpy_dtype
from .errors import ArgumentTypeError, InvalidArgumentError, NotFoundError, check, last_error

_ARRAY, _SCALAR, _SYMBOL = _capi.DACE_ARGUMENT_ARRAY, _capi.DACE_ARGUMENT_SCALAR, _capi.DACE_ARGUMENT_SYMBOL
_PROGRAM = ctypes.POINTER(_capi.dace_program_t)
_PTR = "Q" if ctypes.sizeof(ctypes.c_void_p) == 8 else "I"
_ARG_SIZE = ctypes.sizeof(_capi.dace_arg_t)
_VALUE_OFF = _capi.dace_arg_t.value.offset
_KIND_OFF = _capi.dace_arg_t.kind.offset
_DATA_OFF = _VALUE_OFF + _capi.dace_array_desc_t.data.offset
_DTYPE_OFF = _VALUE_OFF + _capi.dace_array_desc_t.dtype.offset
_NDIM_OFF = _VALUE_OFF + _capi.dace_array_desc_t.ndim.offset
_SHAPE_OFF = _VALUE_OFF + _capi.dace_array_desc_t.shape.offset
_STRIDES_OFF = _VALUE_OFF + _capi.dace_array_desc_t.strides.offset
_MAX_PLANS = 256
# dace_program_call with plain addresses: ctypes converts ints to pointers faster than it
# checks POINTER(...) arguments, and the plan stores the addresses anyway.
_fast_call = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32)(
    ctypes.cast(_capi.dace_program_call, ctypes.c_void_p).value)
_layout_of = operator.attrgetter("shape", "strides", "dtype", "__class__")


def _pointer_reader():
    """The fastest correct way to read an ndarray's data pointer.

    ndarray.ctypes.data and __array_interface__ cost microseconds; the pointer is the first
    field after the object header of NumPy's PyArrayObject, which we read directly once it
    has been checked against the official answer for this NumPy build."""
    probe = np.arange(3.0)[1:]
    offset = 2 * ctypes.sizeof(ctypes.c_void_p)
    from_address = ctypes.c_void_p.from_address
    try:
        if from_address(id(probe) + offset).value == probe.ctypes.data:
            return lambda a: from_address(id(a) + offset).value
    except Exception:  # noqa: BLE001 - fall back to the documented interface
        pass
    return lambda a: a.__array_interface__["data"][0]


_data_pointer = _pointer_reader()


def _is_device_array(value):
    """An object exposing __cuda_array_interface__ (CuPy, Numba, PyTorch on CUDA, ...)."""
    return not isinstance(value, np.ndarray) and hasattr(type(value), "__cuda_array_interface__")


def _device_pointer(value):
    return value.__cuda_array_interface__["data"][0]


class _DeviceArray:
    """Shape, byte strides and dtype of a __cuda_array_interface__ object, as ndarray has them."""

    __slots__ = ("shape", "strides", "dtype", "ndim")

    def __init__(self, value):
        cai = value.__cuda_array_interface__
        self.dtype = np.dtype(cai["typestr"])
        self.shape = tuple(int(n) for n in cai["shape"])
        self.ndim = len(self.shape)
        strides = cai.get("strides")
        self.strides = (tuple(int(s) for s in strides) if strides is not None
                        else tuple(s * self.dtype.itemsize for s in _c_strides(self.shape)))


def _scalar_code(dtype_code):
    """(dace_arg_kind_t, struct format, converter) for a scalar argument of this dtype."""
    npd = numpy_dtype(dtype_code)
    if npd is None or npd.kind == "f":
        return _capi.DACE_ARG_FLOAT, "d", float
    if npd.kind == "c":
        return _capi.DACE_ARG_COMPLEX, "dd", complex
    return _capi.DACE_ARG_INT, "q", operator.index


def _as_int(value):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    return operator.index(value)


def _as_scalar(value):
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


class _ArgInfo:
    __slots__ = ("name", "index", "kind", "dtype", "np_dtype", "shape", "strides")

    def __init__(self, name, index, kind, dtype):
        self.name, self.index, self.kind, self.dtype = name, index, kind, dtype
        self.np_dtype = numpy_dtype(dtype)
        self.shape = None


class _Plan:
    """Everything constant about one call signature, ready in ctypes memory."""

    __slots__ = ("program", "names", "args", "keep", "template", "slots", "packer", "returns", "result", "count",
                 "call_args")

    def run(self, kwargs):
        """Writes this call's pointers and scalars; returns the arrays allocated for it."""
        values = self.template.copy()
        returned = None
        for slot, name, conv in self.slots:
            if conv is None:  # a return array the caller did not pass
                shape, dtype, strides, total, _, origin = self.returns[name]
                arr = np.empty(shape, dtype) if strides is None else np.ndarray(
                    shape, dtype, buffer=np.empty(total, dtype), offset=origin, strides=strides)
                if returned is None:
                    returned = {}
                returned[name] = arr
                values[slot] = _data_pointer(arr)
            elif conv is complex:
                c = complex(_as_scalar(kwargs[name]))
                values[slot] = c.real
                values[slot + 1] = c.imag
            else:
                values[slot] = conv(kwargs[name])
        self.packer.pack_into(self.args, 0, *values)
        return returned


def _mpi_comm_address(comm):
    """The address of an mpi4py communicator's MPI_Comm handle."""
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise TypeError("comm= needs mpi4py (not importable: %s)" % e) from None
    if not isinstance(comm, MPI.Comm):
        raise TypeError("comm= must be an mpi4py communicator (MPI.Comm), got %r" % type(comm).__name__)
    return MPI._addressof(comm)


class CompiledProgram(Releasable):
    """A compiled SDFG; call it like a function (see the module docstring)."""

    def __init__(self, sdfg, opt_level=3, fast_math=False, num_threads=0, cache_dir=None, dump_dir=None,
                 context=None, optimize=None, comm=None, tiered=True, wait_optimized=False,
                 emulate_device=False, bounds_check=False, max_concurrent_streams=0):
        self._context = context or default_context()
        opts = _capi.dace_compile_options_t()
        check(_capi.dace_compile_options_init(ctypes.byref(opts), _capi.DACE_COMPILE_OPTIONS_VERSION))
        opts.opt_level, opts.fast_math, opts.num_threads = int(opt_level), int(bool(fast_math)), int(num_threads)
        opts.cache_dir, opts.dump_dir = enc(cache_dir), enc(dump_dir)
        # The SDFG optimizer step ("simplify"), run by libdace on its own copy before compiling.
        opts.optimize = enc(optimize)
        # The communicator of the program's MPI nodes (docs/mpi.md): an mpi4py communicator,
        # kept alive with the program because libdace reads its MPI_Comm at each state init.
        self._comm = comm
        if comm is not None:
            opts.mpi_comm = _mpi_comm_address(comm)
        # Tiered compilation: callable on quickly compiled code, the optimized code swapped in
        # between calls when ready (docs/jit.md); wait_optimized returns once it is in.
        opts.tiered, opts.wait_optimized = int(bool(tiered)), int(bool(wait_optimized))
        # GPU kernels run on the host (docs/cuda.md, "Emulated device").
        opts.emulate_device = int(bool(emulate_device))
        # CUDA streams per state for independent GPU work (docs/cuda.md "Streams and events").
        opts.max_concurrent_streams = int(max_concurrent_streams)
        # Run-time bounds checks of every memlet access (debugging; a violation raises
        # DaceError naming the memlet and the index).
        opts.bounds_check = int(bool(bounds_check))
        self._options = opts
        self._handles = []
        self._lock = threading.Lock()
        # A private copy: later edits of `sdfg` must not change what specializations compile.
        self._sdfg = sdfg.clone()
        self.name = self._sdfg.name
        self._base = self._compile(self._sdfg)
        self._read_arguments()
        self._plans = {}
        self._specialized = {}

    # --- setup --------------------------------------------------------------------------

    def _compile(self, sdfg):
        handle = _PROGRAM()
        check(_capi.dace_program_compile(ctypes.byref(handle), self._context._handle, sdfg._h(),
                                         ctypes.byref(self._options)))
        self._handles.append(handle)
        return handle

    def _read_arguments(self):
        count = ctypes.c_int32()
        check(_capi.dace_program_argument_count(ctypes.byref(count), self._base))
        self.arguments = []
        for i in range(count.value):
            name, kind, dtype = ctypes.c_char_p(), ctypes.c_int32(), ctypes.c_int32()
            check(_capi.dace_program_argument_info(ctypes.byref(name), ctypes.byref(kind), ctypes.byref(dtype),
                                                   self._base, i))
            info = _ArgInfo(dec(name.value), i, kind.value, dtype.value)
            if info.kind == _ARRAY:
                data = self._sdfg.arrays[info.name]
                info.shape = _symeval.split_dims(data.get_property("shape"))
            self.arguments.append(info)
        self._info = {a.name: a for a in self.arguments}
        self._kinds = {a.name: a.kind for a in self.arguments}
        self.return_names = sorted(a.name for a in self.arguments if a.kind == _ARRAY
                                   and a.name.startswith("__return"))
        arg_names = []
        try:
            attrs = json.loads(self._sdfg.to_json(compact=True)).get("attributes", {})
            arg_names = [n for n in attrs.get("arg_names") or [] if n in self._info]
        except (ValueError, TypeError):
            pass
        self.positional = arg_names or [a.name for a in self.arguments
                                        if a.name not in self.return_names and a.kind != _SYMBOL]

    # --- lifetime -----------------------------------------------------------------------

    def close(self):
        """Releases every compiled variant now (idempotent)."""
        handles, self._handles = self._handles, []
        self._plans = {}
        self._specialized = {}
        for h in handles:
            _capi.dace_program_release(h)
        sdfg, self._sdfg = getattr(self, "_sdfg", None), None
        if sdfg is not None:
            sdfg.close()

    def last_report(self):
        """The instrumentation report of the last call as a dict in DaCe's format (Chrome trace
        events) and the file it was written to ("" when none): (report, path). None when the
        program has no timer or was not called (docs/instrumentation.md)."""
        program = getattr(self, "_last_program", None)
        if program is None:
            return None
        text, path = ctypes.c_char_p(), ctypes.c_char_p()
        if _capi.dace_program_last_report(ctypes.byref(text), ctypes.byref(path), program) != 0:
            return None
        return json.loads(dec(text.value)), dec(path.value)

    def ptx(self):
        """The PTX modules of the program's GPU kernels as text, byte for byte what `dace compile
        --ptx-out` writes; [] without GPU kernels or when they run on the emulated device."""
        if not self._handles:
            raise InvalidArgumentError(self._msg(None, "program is closed"))
        count = ctypes.c_size_t()
        check(_capi.dace_program_ptx_count(ctypes.byref(count), self._base))
        modules = []
        for i in range(count.value):
            text, size = ctypes.c_char_p(), ctypes.c_size_t()
            check(_capi.dace_program_ptx(ctypes.byref(text), ctypes.byref(size), self._base, i))
            modules.append(ctypes.string_at(text, size.value).decode())
        return modules

    @property
    def specializations(self):
        """How many extra layouts were compiled (Fortran order, strided views, ...)."""
        return len(self._specialized)

    # --- calling ------------------------------------------------------------------------

    def __call__(self, *args, **kwargs):
        if not self._handles:
            raise InvalidArgumentError(self._msg(None, "program is closed"))
        if args:
            if len(args) > len(self.positional):
                raise ArgumentTypeError(self._msg(None, f"takes {len(self.positional)} positional arguments "
                                                        f"({', '.join(self.positional)}), {len(args)} given"))
            for name, value in zip(self.positional, args):
                if name in kwargs:
                    raise ArgumentTypeError(self._msg(name, "given both by position and by keyword"))
                kwargs[name] = value
        key = self._key(kwargs)
        plan = self._plans.get(key) if key is not None else None
        fresh = plan is None
        if fresh:
            plan = self._make_plan(kwargs)
        with self._lock:
            if not self._handles:
                raise InvalidArgumentError(self._msg(None, "program is closed"))
            try:
                returned = plan.run(kwargs)
            except (TypeError, ValueError, OverflowError, struct.error) as err:
                raise self._conversion_error(kwargs, err) from None
            status = _fast_call(*plan.call_args)
            if status:
                raise self._call_error(status)
            self._last_program = plan.program
        if fresh and key is not None:
            if len(self._plans) >= _MAX_PLANS:
                self._plans.clear()
            self._plans[key] = plan
        result = plan.result
        if returned is None:
            returned = {}
        if not result:
            return None
        if len(result) == 1:
            name = result[0]
            return returned[name] if name in returned else kwargs[name]
        return tuple(returned[n] if n in returned else kwargs[n] for n in result)

    def _key(self, kwargs):
        """A hashable signature of the call, or None (then the call is planned uncached).
        Arrays contribute (shape, strides, dtype), symbols their value, scalars their name."""
        kinds = self._kinds
        try:
            return tuple([
                (n, _layout_of(v)) if kinds[n] == _ARRAY else
                (n, v if type(v) is int else _as_int(v)) if kinds[n] == _SYMBOL else n
                for n, v in kwargs.items()
            ])
        except (KeyError, AttributeError, TypeError):
            return None

    def _call_error(self, status):
        err = last_error(status)
        if err.path and not err.path.startswith("sdfg "):
            err.path = f'sdfg "{self.name}" / {err.path}'
        return err

    def _msg(self, arg, text):
        where = f'sdfg "{self.name}"' + (f' / argument "{arg}"' if arg else "")
        return f"{where}: {text}"

    def _conversion_error(self, kwargs, err):
        for name, value in kwargs.items():
            info = self._info.get(name)
            if info is None or info.kind == _ARRAY:
                continue
            try:
                kind, _, conv = _scalar_code(info.dtype)
                if info.kind == _SYMBOL:
                    _as_int(value)
                else:
                    conv(_as_scalar(value))
            except Exception:  # noqa: BLE001 - this is the diagnosis of that failure
                expected = "an integer" if info.kind == _SYMBOL else f"a {info.np_dtype} scalar"
                return ArgumentTypeError(self._msg(name, f"expected {expected}, got {value!r}"))
        return ArgumentTypeError(self._msg(None, f"cannot convert arguments: {err}"))

    # --- planning (once per call signature) --------------------------------------------

    def _make_plan(self, kwargs):
        for name in kwargs:
            if name not in self._info:
                raise NotFoundError(self._msg(name, "no such argument (arguments: "
                                                    f"{', '.join(a.name for a in self.arguments)})"))
        symbols = {}
        for name, value in kwargs.items():
            info = self._info[name]
            if info.kind == _SYMBOL:
                try:
                    symbols[name] = _as_int(value)
                except TypeError:
                    raise ArgumentTypeError(self._msg(name, f"expected an integer, got {value!r}")) from None
        layouts = {}  # array name -> (shape, element strides) as the call passes them
        for name, value in kwargs.items():
            info = self._info[name]
            if info.kind != _ARRAY:
                continue
            if _is_device_array(value):
                # Device memory, passed to the program as it is (no copy): only GPU_Global
                # arguments live there.
                storage = out_value(ctypes.c_int32, _capi.dace_data_get_storage, self._sdfg._handle, enc(name))
                if storage != _capi.DACE_STORAGE_GPU_GLOBAL:
                    raise ArgumentTypeError(self._msg(name, "an object with __cuda_array_interface__ (device memory) "
                                                            "needs a GPU_Global argument; this one is in host memory"))
                value = _DeviceArray(value)
            elif not isinstance(value, np.ndarray):
                raise ArgumentTypeError(self._msg(name, f"expected a NumPy array or an object with "
                                                        f"__cuda_array_interface__, got {type(value).__name__}"))
            layouts[name] = self._layout(info, value)
            for dim, extent in zip(info.shape, layouts[name][0]):
                if _symeval.is_symbol(dim) and dim in self._kinds and dim not in symbols:
                    symbols[dim] = extent
        for info in self.arguments:
            if info.name in kwargs or info.name in symbols or info.name in self.return_names:
                continue
            what = "symbol (not inferable from the arrays given)" if info.kind == _SYMBOL else "argument"
            raise InvalidArgumentError(self._msg(info.name, f"missing {what}"))
        returns = {}
        for name in self.return_names:
            if name not in kwargs:
                returns[name] = self._return_spec(self._info[name], symbols)
                layouts[name] = (returns[name][0], returns[name][4])
        program = self._program_for(layouts, symbols)
        return self._build_plan(program, kwargs, layouts, returns, symbols)

    def _layout(self, info, arr):
        itemsize = arr.dtype.itemsize
        if arr.ndim == 0:  # a 0-d array stands for a one-element array argument
            return (1,) * max(len(info.shape), 1), (1,) * max(len(info.shape), 1)
        strides = []
        for s in arr.strides:
            if itemsize == 0 or s % itemsize:
                raise ArgumentTypeError(self._msg(info.name, f"byte strides {arr.strides} are not multiples of "
                                                             f"the item size {itemsize}"))
            strides.append(s // itemsize)
        return tuple(arr.shape), tuple(strides)

    def _return_spec(self, info, symbols):
        """(shape, dtype, byte strides or None for C order, total elements, element strides,
        byte offset of element 0 in the buffer: nonzero when a stride is negative)."""
        shape = self._shape_of(info, symbols)
        strides = self._strides_of(info, symbols)
        c_order = _c_strides(shape)
        if strides is None or tuple(strides) == c_order or len(strides) != len(shape):
            return shape, info.np_dtype, None, 0, c_order, 0
        reach = [(n - 1) * s for n, s in zip(shape, strides) if n > 0]
        low = sum(r for r in reach if r < 0)
        total = 1 + sum(r for r in reach if r > 0) - low
        itemsize = info.np_dtype.itemsize
        return shape, info.np_dtype, tuple(s * itemsize for s in strides), total, tuple(strides), -low * itemsize

    def _shape_of(self, info, symbols):
        return self._evaluated(_capi.dace_program_argument_shape, info, symbols)

    def _strides_of(self, info, symbols):
        """The element strides the compiled code expects, or None when they need a symbol the
        call does not determine (then the caller specializes, which is always correct)."""
        try:
            return self._evaluated(_capi.dace_program_argument_strides, info, symbols)
        except NotFoundError:
            return None

    def _evaluated(self, fn, info, symbols):
        """libdace evaluates the descriptor's shape or strides for these symbol values."""
        names = (ctypes.c_char_p * max(len(symbols), 1))(*[enc(k) for k in symbols])
        values = (ctypes.c_int64 * max(len(symbols), 1))(*symbols.values())
        ndim = ctypes.c_size_t()
        check(fn(None, 0, ctypes.byref(ndim), self._base, info.index, names, values, len(symbols)))
        out = (ctypes.c_int64 * max(ndim.value, 1))()
        check(fn(out, ndim.value, ctypes.byref(ndim), self._base, info.index, names, values, len(symbols)))
        return tuple(out[: ndim.value])

    def _program_for(self, layouts, symbols):
        """The base program when every array's strides match its descriptor, else a
        specialization compiled for the mismatching strides (cached)."""
        mismatched = []
        for name, (shape, strides) in sorted(layouts.items()):
            info = self._info[name]
            expected = self._strides_of(info, symbols)
            if len(shape) != len(info.shape):
                continue  # a rank error: let libdace report it
            if expected is not None and all(n <= 1 or s == e for n, s, e in zip(shape, strides, expected)):
                continue
            mismatched.append((name, tuple(s if n > 1 else 0 for n, s in zip(shape, strides))))
        if not mismatched:
            return self._base
        key = tuple(mismatched)
        program = self._specialized.get(key)
        if program is None:
            clone = self._sdfg.clone()
            try:
                for name, strides in mismatched:
                    shape = layouts[name][0]
                    fixed = [s if n > 1 else _c_strides(shape)[d] for d, (n, s) in enumerate(zip(shape, strides))]
                    clone.arrays[name].set_strides(fixed)
                program = self._compile(clone)
            finally:
                clone.close()
            self._specialized[key] = program
        return program

    def _build_plan(self, program, kwargs, layouts, returns, symbols):
        plan = _Plan()
        plan.program = program
        order = [a for a in self.arguments if a.name in kwargs or a.name in returns]
        n = len(order)
        plan.count = n
        plan.names = (ctypes.c_char_p * max(n, 1))(*[enc(a.name) for a in order])
        plan.args = (_capi.dace_arg_t * max(n, 1))()
        plan.keep = []
        plan.returns = returns
        plan.result = [r for r in self.return_names if r in kwargs or r in returns]
        # One struct covering the whole dace_arg_t block: constants sit in the template,
        # the slots are filled per call (struct writes padding too, so nothing may be left out).
        fmt, template, slots, pos = ["="], [], [], 0

        def put(offset, code, value):
            nonlocal pos
            fmt.append(_pad(offset - pos) + code)
            template.append(value)
            pos = offset + struct.calcsize("=" + code)
            return len(template) - 1

        for i, info in enumerate(order):
            base = i * _ARG_SIZE
            if info.kind == _ARRAY:
                shape, strides = layouts[info.name]
                value = kwargs.get(info.name)
                reader = _data_pointer
                if _is_device_array(value):
                    value, reader = _DeviceArray(value), _device_pointer
                sh = (ctypes.c_int64 * max(len(shape), 1))(*shape)
                st = (ctypes.c_int64 * max(len(strides), 1))(*strides)
                plan.keep += [sh, st]
                put(base + _KIND_OFF, "i", _capi.DACE_ARG_ARRAY)
                slot = put(base + _DATA_OFF, _PTR, 0)
                put(base + _DTYPE_OFF, "i", info.dtype if value is None else from_numpy(value.dtype))
                put(base + _NDIM_OFF, "i", len(shape))
                put(base + _SHAPE_OFF, _PTR, ctypes.addressof(sh))
                put(base + _STRIDES_OFF, _PTR, ctypes.addressof(st))
                slots.append((slot, info.name, None if value is None else reader))
            elif info.kind == _SYMBOL:
                put(base + _KIND_OFF, "i", _capi.DACE_ARG_SYMBOL)
                put(base + _VALUE_OFF, "q", symbols[info.name])
            else:
                kind, code, conv = _scalar_code(info.dtype)
                put(base + _KIND_OFF, "i", kind)
                slot = put(base + _VALUE_OFF, code[0], 0.0 if code[0] == "d" else 0)
                if code == "dd":
                    put(base + _VALUE_OFF + 8, "d", 0.0)
                slots.append((slot, info.name, _scalar_converter(conv)))
        plan.call_args = (ctypes.cast(program, ctypes.c_void_p).value, ctypes.addressof(plan.names),
                          ctypes.addressof(plan.args), n)
        plan.template = template
        plan.slots = slots
        plan.packer = struct.Struct("".join(fmt))
        return plan


def _scalar_converter(conv):
    if conv is complex:
        return complex

    def convert(value):
        if type(value) is np.ndarray:
            value = value[()]
        return conv(value)

    return convert


def _c_strides(shape):
    strides, acc = [], 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))



def _pad(nbytes):
    return f"{nbytes}x" if nbytes else ""
