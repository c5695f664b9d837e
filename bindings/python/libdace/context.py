"""Context: settings, plugins and the JIT session shared by compilations.

Most code never sees one: SDFG.compile() uses a process-wide default context. Programs keep
their context alive, so a context is released only after its last program.
"""

import ctypes
import threading

from . import _capi
from ._util import Releasable, borrowed_string, enc
from .errors import check


class Context(Releasable):
    def __init__(self):
        handle = ctypes.POINTER(_capi.dace_context_t)()
        check(_capi.dace_context_create(ctypes.byref(handle)))
        self._handle = handle

    def set_option(self, key, value):
        """String-valued setting by key; value None removes it."""
        check(_capi.dace_context_set_option(self._handle, enc(key), enc(None if value is None else str(value))))

    def get_option(self, key):
        return borrowed_string(_capi.dace_context_get_option, self._handle, enc(key))

    def close(self):
        """Releases the context now (idempotent); programs compiled with it keep it alive."""
        handle = self._take_handle()
        if handle:
            _capi.dace_context_release(handle)


_DEFAULT = None
_DEFAULT_LOCK = threading.Lock()


def default_context():
    """The process-wide context used when compile() is given none."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = Context()
        return _DEFAULT
