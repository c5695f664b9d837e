"""Finds and loads libdace.so (the only place that knows where the library lives).

Search order, first hit wins:
  1. $LIBDACE_LIBRARY: the path of the shared object itself.
  2. A copy or symlink inside the installed package: libdace/_lib/libdace.so*.
  3. The build folder recorded when the package was installed (_build_info.LIBRARY).
  4. A build tree: $LIBDACE_BUILD_DIR/lib, then <repository>/build/lib and
     <repository>/build-*/lib relative to this source file (running from a checkout).
  5. The system's search path (ctypes.util.find_library("dace")).
The library is loaded once per process and never unloaded: its OpenMP runtime must not be
unloaded while its threads live.
"""

import ctypes
import ctypes.util
import glob
import os

_LIBRARY = None
_NAMES = ("libdace.so", "libdace.so.0", "libdace.dylib")


def _candidates():
    env = os.environ.get("LIBDACE_LIBRARY")
    if env:
        yield "$LIBDACE_LIBRARY", env
        return  # an explicit choice must not silently fall back to another library
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _NAMES:
        yield "package", os.path.join(here, "_lib", name)
    try:
        from . import _build_info  # written by setup.py at install time

        if getattr(_build_info, "LIBRARY", None):
            yield "install-time build folder", _build_info.LIBRARY
    except ImportError:
        pass
    build_env = os.environ.get("LIBDACE_BUILD_DIR")
    if build_env:
        for name in _NAMES:
            yield "$LIBDACE_BUILD_DIR", os.path.join(build_env, "lib", name)
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))
    for build in [os.path.join(repo, "build")] + sorted(glob.glob(os.path.join(repo, "build-*"))):
        for name in _NAMES:
            yield "repository build tree", os.path.join(build, "lib", name)
    found = ctypes.util.find_library("dace")
    if found:
        yield "system search path", found


def load_library():
    """Returns the process-wide ctypes.CDLL of libdace; ImportError lists what was tried."""
    global _LIBRARY
    if _LIBRARY is not None:
        return _LIBRARY
    tried = []
    for origin, path in _candidates():
        is_path = os.sep in path
        if is_path and not os.path.exists(path):
            tried.append(f"{path} ({origin}: not found)")
            continue
        try:
            _LIBRARY = ctypes.CDLL(path)
            return _LIBRARY
        except OSError as err:
            tried.append(f"{path} ({origin}: {err})")
    raise ImportError(
        "libdace: cannot load libdace.so; set LIBDACE_LIBRARY to its path or LIBDACE_BUILD_DIR "
        "to a build folder. Tried:\n  " + "\n  ".join(tried or ["nothing"])
    )


def library_path():
    """The file the loaded library came from (for diagnostics)."""
    lib = load_library()
    return getattr(lib, "_name", None)
