"""Small conversions shared by the builder modules (strings, id lists, expressions)."""

import ctypes

from . import _capi
from .errors import check


def enc(text):
    """str -> UTF-8 bytes for a `const char*` input; None stays NULL."""
    if text is None:
        return None
    if isinstance(text, bytes):
        return text
    return str(text).encode("utf-8")


def dec(raw):
    """A borrowed `const char*` result -> str (copied now: libdace reuses the buffer)."""
    return raw.decode("utf-8") if raw is not None else None


def borrowed_string(fn, *args):
    """Calls fn(&out, *args) for a borrowed string out-parameter and returns it as str."""
    out = ctypes.c_char_p()
    check(fn(ctypes.byref(out), *args))
    return dec(out.value)


def owned_string(fn, *args):
    """Calls fn(&out, *args) for an owned `char**` result; frees it with dace_string_free."""
    out = ctypes.c_void_p()
    check(fn(ctypes.byref(out), *args))
    try:
        return ctypes.string_at(out.value).decode("utf-8") if out.value else ""
    finally:
        _capi.dace_string_free(out)


def id_list(fn, *args):
    """The two-call idiom: fn(ids, capacity, &count, *args) -> list of ids."""
    count = ctypes.c_size_t()
    check(fn(None, 0, ctypes.byref(count), *args))
    if count.value == 0:
        return []
    ids = (ctypes.c_int32 * count.value)()
    check(fn(ids, count.value, ctypes.byref(count), *args))
    return list(ids[: count.value])


def out_value(ctype, fn, *args):
    """Calls fn(&out, *args) for one fixed-size out-parameter and returns its value."""
    out = ctype()
    check(fn(ctypes.byref(out), *args))
    return out.value


def expr(value):
    """One symbolic expression as DaCe text: ints, strings and objects with str()."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def shape_text(shape):
    """[N, 'M + 1', 3] or (N,) or 'N, M' -> 'N, M + 1, 3' (DaCe's shape syntax)."""
    if isinstance(shape, str):
        return shape
    if isinstance(shape, int):
        return str(shape)
    return ", ".join(expr(s) for s in shape)


def connector_list(conns):
    """DaCe's connector forms -> libdace's 'a, b: float64' text.

    Accepts None, a string, an iterable of names, or a dict name -> dtype (None = inferred).
    Sets are sorted so the result does not depend on hash order."""
    from .dtypes import numpy_dtype, to_dace

    if conns is None:
        return None
    if isinstance(conns, str):
        return conns
    if isinstance(conns, dict):
        parts = []
        for name, dt in conns.items():
            if dt is None:
                parts.append(name)
            elif isinstance(dt, str) and dt.endswith("*"):
                parts.append(f"{name}: {dt}")
            else:
                parts.append(f"{name}: {numpy_dtype(to_dace(dt)).name}")
        return ", ".join(parts)
    if isinstance(conns, (set, frozenset)):
        conns = sorted(conns)
    return ", ".join(conns)


def assignments_text(assignments):
    """{'k': 'k + 1'} or 'k = k + 1; j = 0' -> libdace's assignment text (order kept)."""
    if assignments is None or isinstance(assignments, str):
        return assignments
    return "; ".join(f"{k} = {expr(v)}" for k, v in assignments.items())


def ranges_text(ranges):
    """{'i': '0:N', 'j': range(...)} / [('i', '0:N')] / 'i=0:N' -> 'i=0:N, j=0:M'."""
    if isinstance(ranges, str):
        return ranges
    items = ranges.items() if isinstance(ranges, dict) else ranges
    parts = []
    for param, rng in items:
        if isinstance(rng, range):
            rng = f"{rng.start}:{rng.stop}" + (f":{rng.step}" if rng.step != 1 else "")
        elif isinstance(rng, (tuple, list)):
            # DaCe's (begin, end_inclusive[, step]) tuple form
            b, e = rng[0], rng[1]
            rng = f"{expr(b)}:{expr(e)} + 1" + (f":{expr(rng[2])}" if len(rng) > 2 else "")
        parts.append(f"{param}={rng}")
    return ", ".join(parts)


class Releasable:
    """Lifetime of an object owning libdace handles: close() releases them now (and must be
    idempotent), `with` closes on exit, and garbage collection closes as a last resort."""

    def close(self):
        raise NotImplementedError

    def _take_handle(self):
        """Detaches self._handle (None afterwards) so that a second close() is a no-op."""
        handle, self._handle = getattr(self, "_handle", None), None
        return handle

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - half-built object, or ctypes torn down at shutdown
            pass
