"""Python exceptions for libdace status codes.

Every failing C call raises the subclass for its status. The exception carries the status
(`.status`, an int), libdace's message (`.message`), the element path the message names
(`.path`, e.g. 'sdfg "heat" / state "s3" / node 7 (Tasklet "add")', or None) and, for parse
errors, `.line`/`.column` (0 when unknown). Argument errors are also ValueError (TypeError for
Python-side type errors), NotFoundError a LookupError, so idiomatic `except` clauses work.
"""

import re

from . import _capi

# One path element: 'sdfg "x"', 'node 3 (Tasklet "t")', 'new edge (0 -> 1.a)', 'file "p"'.
_ELEMENT = re.compile(r'^([A-Za-z_]+ ("[^"]*"|\d+)|[A-Za-z_]+ [A-Za-z_]+ \([^)]*\))( \([^)]*\))?$')


class LibdaceError(Exception):
    """A failed libdace call."""

    status = _capi.DACE_ERROR_INTERNAL

    def __init__(self, message, status=None, path=None, line=0, column=0):
        super().__init__(message)
        if status is not None:
            self.status = status
        self.message = message
        self.path = path if path is not None else split_path(message)[0]
        self.line = line
        self.column = column

    def __str__(self):
        return f"[{_status_name(self.status)}] {self.message}"


class InvalidArgumentError(LibdaceError, ValueError):
    status = _capi.DACE_ERROR_INVALID_ARGUMENT


class InvalidSDFGError(LibdaceError):
    status = _capi.DACE_ERROR_INVALID_SDFG


class NotFoundError(LibdaceError, LookupError):
    status = _capi.DACE_ERROR_NOT_FOUND


class UnsupportedError(LibdaceError, NotImplementedError):
    status = _capi.DACE_ERROR_UNSUPPORTED


class ParseError(LibdaceError, ValueError):
    status = _capi.DACE_ERROR_PARSE


class CompileError(LibdaceError):
    status = _capi.DACE_ERROR_COMPILE


class RuntimeFailure(LibdaceError, RuntimeError):
    status = _capi.DACE_ERROR_RUNTIME


class OutOfMemoryError(LibdaceError, MemoryError):
    status = _capi.DACE_ERROR_OUT_OF_MEMORY


class PluginUnavailableError(LibdaceError):
    status = _capi.DACE_ERROR_PLUGIN_UNAVAILABLE


class LibdaceIOError(LibdaceError, OSError):
    status = _capi.DACE_ERROR_IO


class AlreadyExistsError(LibdaceError, ValueError):
    status = _capi.DACE_ERROR_ALREADY_EXISTS


class InternalError(LibdaceError):
    status = _capi.DACE_ERROR_INTERNAL


class ArgumentTypeError(InvalidArgumentError, TypeError):
    """A call argument of the wrong Python/NumPy type (checked in Python before calling)."""


_BY_STATUS = {
    cls.status: cls
    for cls in (
        InvalidArgumentError, InvalidSDFGError, NotFoundError, UnsupportedError, ParseError,
        CompileError, RuntimeFailure, OutOfMemoryError, PluginUnavailableError, LibdaceIOError,
        AlreadyExistsError, InternalError,
    )
}


def _status_name(status):
    try:
        return _capi.dace_status_string(status).decode()
    except Exception:  # noqa: BLE001 - only for display; never mask the real error
        return f"status {status}"


def split_path(message):
    """('sdfg "a" / state "s"', 'reason') from a libdace message; (None, message) if no path.

    Messages are 'element / element: reason' where an element is 'kind "name"' or 'kind N',
    optionally followed by '(...)'; a leading context such as 'program call: ' is skipped."""
    text = message or ""
    segments, quoted, start = [], False, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted and text[i + 1 : i + 2] == " ":
            segments.append((text[start:i], i + 2))
            start = i + 2
    path_parts, rest = [], None
    for seg, end in segments:
        if all(_ELEMENT.match(part) for part in seg.split(" / ")):
            path_parts.append(seg)
            rest = end
        elif path_parts:
            break
    if not path_parts:
        return None, text
    return " / ".join(path_parts), text[rest:]


def error_for(status, message, path=None, line=0, column=0):
    """The exception object for a status (not raised)."""
    cls = _BY_STATUS.get(status, LibdaceError)
    return cls(message, status=status, path=path, line=line, column=column)


def last_error(status):
    """The exception for a status just returned, with the thread's last-error record."""
    message = _capi.dace_last_error_message()
    text = message.decode("utf-8", "replace") if message else ""
    if not text:
        text = _status_name(status)
    return error_for(status, text, line=_capi.dace_last_error_line(), column=_capi.dace_last_error_column())


def check(status):
    """Raises the matching LibdaceError when a C call did not return DACE_OK."""
    if status:
        raise last_error(status)
