#!/usr/bin/env python3
"""peers_runtime.libdace() leaves no `libdace-out-*` folder behind, whatever `dace run` does:
fails, prints no timing, or runs past the timeout (each with a stand-in CLI script)."""
import os
import sys
import tempfile
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
import peers_runtime  # noqa: E402

STAND_INS = {
    "fails": "echo 'no such kernel' >&2; exit 1",
    "no timing": "echo '{\"status\": \"ok\"}'",
    "timeout": "sleep 30",
}


def main():
    try:
        import numpy  # noqa: F401  (libdace() loads NumPy before it runs the CLI)
    except ImportError:
        print("SKIP: this Python has no NumPy (run it with .venv-dace/bin/python)")
        return 77
    failed = 0
    with tempfile.TemporaryDirectory(prefix="peers-cleanup-") as root:
        scratch = os.path.join(root, "tmp")
        os.mkdir(scratch)
        tempfile.tempdir = scratch  # libdace() makes its output folder here
        for what, body in sorted(STAND_INS.items()):
            cli = os.path.join(root, "dace-" + what.replace(" ", "-"))
            with open(cli, "w") as f:
                f.write("#!/bin/sh\n" + body + "\n")
            os.chmod(cli, 0o755)
            a = types.SimpleNamespace(dace_cli=cli, reps=2, timeout=1, min_ms=0)
            result = peers_runtime.libdace(a, "kernel.sdfg", root)
            left = sorted(n for n in os.listdir(scratch) if n.startswith("libdace-out-"))
            ok = "error" in result and not left
            failed += not ok
            print("%-10s %s: %s, left behind %s" % (what, "ok" if ok else "FAIL", result, left))
            for n in left:
                os.rmdir(os.path.join(scratch, n))
        tempfile.tempdir = None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
