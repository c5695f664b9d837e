"""Memlet: the text of a data movement plus its options, as in DaCe.

Memlet("A[i, j]"), Memlet("A[0:N] -> [1:N+1]"), Memlet(data="A", subset="i, j"),
Memlet.simple("A", "i"), Memlet("B[i]", wcr="lambda a, b: a + b"), Memlet() (empty).
The text is checked by libdace when the edge is added (ParseError naming the edge).
"""

import ctypes

from . import _capi
from ._util import enc


class Memlet:
    __slots__ = ("expr", "wcr", "volume", "dynamic", "wcr_nonatomic", "allow_oob")

    def __init__(self, expr=None, *, data=None, subset=None, other_subset=None, wcr=None, volume=None,
                 dynamic=False, wcr_nonatomic=False, allow_oob=False):
        if expr is None and data is not None:
            expr = data if subset is None else f"{data}[{subset}]"
            if other_subset is not None:
                expr += f" -> [{other_subset}]"
        self.expr = expr or ""
        self.wcr = wcr
        self.volume = volume
        self.dynamic = dynamic
        self.wcr_nonatomic = wcr_nonatomic
        self.allow_oob = allow_oob

    @classmethod
    def simple(cls, data, subset, wcr_str=None, num_accesses=None, dynamic=False):
        """DaCe's Memlet.simple(data, 'i, j')."""
        return cls(data=data, subset=subset, wcr=wcr_str,
                   volume=num_accesses, dynamic=dynamic)

    @classmethod
    def from_array(cls, name, desc=None, wcr=None):
        """The whole container (DaCe's Memlet.from_array)."""
        return cls(name, wcr=wcr)

    @property
    def data(self):
        text = self.expr.split("->")[0].strip()
        return text.split("[")[0].strip() or None

    def has_options(self):
        return bool(self.wcr or self.volume is not None or self.dynamic or self.wcr_nonatomic or self.allow_oob)

    def options(self):
        """A dace_memlet_options_t for the C call, or None when all are default. The
        returned struct keeps its strings alive for as long as it lives."""
        if not self.has_options():
            return None
        opts = _capi.dace_memlet_options_t()
        _capi.dace_memlet_options_init(ctypes.byref(opts), _capi.DACE_MEMLET_OPTIONS_VERSION)
        opts.wcr = enc(self.wcr)
        opts.volume = enc(None if self.volume is None else str(self.volume))
        opts.dynamic = int(bool(self.dynamic))
        opts.wcr_nonatomic = int(bool(self.wcr_nonatomic))
        opts.allow_oob = int(bool(self.allow_oob))
        return opts

    def __str__(self):
        return self.expr

    def __repr__(self):
        extra = f", wcr={self.wcr!r}" if self.wcr else ""
        return f"Memlet({self.expr!r}{extra})"

    def __eq__(self, other):
        return isinstance(other, Memlet) and str(self) == str(other) and self.wcr == other.wcr

    __hash__ = None


def as_memlet(memlet):
    """None / str / Memlet -> Memlet."""
    if memlet is None:
        return Memlet()
    if isinstance(memlet, Memlet):
        return memlet
    if isinstance(memlet, str):
        return Memlet(memlet)
    raise TypeError(f"expected a Memlet or memlet text, got {type(memlet).__name__}")


def split_memlet(text):
    """'A[i, 0:N] -> [k]' -> ('A', 'i, 0:N' or None, other text or None)."""
    main, arrow, other = text.partition("->")
    main = main.strip()
    other = other.strip() if arrow else None
    if "[" not in main:
        return main, None, other
    data, _, rest = main.partition("[")
    return data.strip(), rest.rsplit("]", 1)[0], other
