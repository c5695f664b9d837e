#!/usr/bin/env python3
"""Generates every low-level binding of libdace from include/libdace.h.

  python3 bindings/generate.py           write all generated files
  python3 bindings/generate.py --check   exit 1 if a generated file is stale or misses a
                                         DACE_API function of the header (listed), else 0
  python3 bindings/generate.py --layout / --layout-c
                                         struct layouts the bindings assume / a C program
                                         printing the real ones (tests diff the two)
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from gen import header as hdr  # noqa: E402
from gen import emit_fortran, emit_julia, emit_python  # noqa: E402

HEADER = "include/libdace.h"

# How each generated file binds a C function (comments naming it do not count).
BINDING_PATTERNS = {
    "bindings/python/libdace/_capi.py": r'^{name} = _bind\("{name}"',
    "bindings/fortran/libdace_capi.f90": r'bind\(C, (?:&\s*)?name="{name}"\)',
    "bindings/julia/LibDace/src/capi.jl": r"^    ccall\(\(:{name}, libdace\)",
}


def outputs(h):
    """{relative path: text} of every generated file."""
    return {
        "bindings/python/libdace/_capi.py": emit_python.emit(h, HEADER),
        "bindings/fortran/libdace_capi.f90": emit_fortran.emit(h, HEADER),
        "bindings/julia/LibDace/src/capi.jl": emit_julia.emit(h, HEADER),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="verify instead of writing")
    ap.add_argument("--layout", action="store_true", help="print the struct layouts the bindings assume")
    ap.add_argument("--layout-c", action="store_true", help="print a C program printing the real layouts")
    ap.add_argument("--root", default=ROOT, help="repository root (default: this checkout)")
    args = ap.parse_args(argv)

    with open(os.path.join(args.root, HEADER), encoding="utf-8") as f:
        text = f.read()
    try:
        h = hdr.parse(text)
    except hdr.ParseError as e:
        print(f"generate.py: {HEADER}: {e}", file=sys.stderr)
        return 2
    declared = hdr.declared_api_names(text)
    parsed = [fn.name for fn in h.functions]
    if declared != parsed:
        print(f"generate.py: parser and DACE_API scan disagree: {sorted(set(declared) ^ set(parsed))}",
              file=sys.stderr)
        return 2

    if args.layout or args.layout_c:
        sys.stdout.write(hdr.layout_lines(h) if args.layout else hdr.layout_c_program(h))
        return 0

    files = outputs(h)
    status = 0
    for rel, want in sorted(files.items()):
        path = os.path.join(args.root, rel)
        if args.check:
            try:
                with open(path, encoding="utf-8") as f:
                    have = f.read()
            except OSError:
                have = None
            if have is None:
                print(f"MISSING FILE {rel}")
                status = 1
                continue
            if have != want:
                print(f"STALE {rel} (run python3 bindings/generate.py)")
                status = 1
            pattern = BINDING_PATTERNS[rel]
            unbound = [n for n in declared if not re.search(pattern.format(name=n), have, flags=re.M)]
            for n in unbound:
                print(f"UNBOUND {rel}: {n}")
                status = 1
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(want)
            print(f"wrote {rel}")
    if args.check and status == 0:
        print(f"bindings up to date: {len(files)} files, {len(parsed)} functions")
    return status


if __name__ == "__main__":
    sys.exit(main())
