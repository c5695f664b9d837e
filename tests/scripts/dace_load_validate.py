#!/usr/bin/env python3
"""Loads and validates each given .sdfg/.sdfgz file with DaCe.

Usage: dace_load_validate.py FILE...   (run with the DaCe virtual environment's python)
Prints one line per file ("OK path" or "FAIL path: reason") and exits 1 if any file fails.
"""
import sys
import warnings


def check(path):
    import dace
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sdfg = dace.SDFG.from_file(path)
        sdfg.validate()


def main(paths):
    if not paths:
        print(__doc__.strip())
        return 2
    failed = 0
    for path in paths:
        try:
            check(path)
            print("OK", path)
        except Exception as e:  # any failure of DaCe counts; report and go on
            failed += 1
            msg = str(e).strip().splitlines()
            print("FAIL %s: %s: %s" % (path, type(e).__name__, msg[0] if msg else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
