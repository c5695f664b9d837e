#!/usr/bin/env python3
"""Every DACE_API function of include/libdace.h has a C++ counterpart in include/libdace.hpp
(a call to it there). Functions that need none are listed in NEEDS_NONE with the reason;
KNOWN_GAPS lists functions not wrapped yet and may only shrink: a new C function without a
wrapper fails, and so does a listed gap once it is wrapped (remove it from the list)."""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

NEEDS_NONE = {
    # Option structs: the C++ option classes start from the _INIT macros.
    "dace_array_options_init",
    "dace_compile_options_init",
    "dace_map_options_init",
    "dace_mapped_tasklet_options_init",
    "dace_memlet_options_init",
    "dace_save_options_init",
    # Owned strings and buffers are copied into std::string/std::vector by the wrapper's
    # helpers, which free them through these; the status and last-error message become the exception.
    "dace_buffer_free",
    "dace_clear_last_error",
    "dace_last_error_status",
    "dace_string_free",
}

# Empty since every function is wrapped; keep it so, a new C function gets its wrapper with it.
KNOWN_GAPS: set = set()


def main():
    header = (ROOT / "include/libdace.h").read_text()
    wrapper = (ROOT / "include/libdace.hpp").read_text()
    functions = sorted(set(re.findall(r"DACE_API\s+[^;(]*?\b(dace_\w+)\s*\(", header)))
    called = {f for f in functions if re.search(r"\b" + f + r"\s*\(", wrapper)}
    errors = []
    for f in functions:
        if f in called or f in NEEDS_NONE:
            if f in KNOWN_GAPS and f in called:
                errors.append(f"{f}: wrapped now; remove it from KNOWN_GAPS")
            continue
        if f not in KNOWN_GAPS:
            errors.append(f"{f}: no call in include/libdace.hpp (wrap it, or justify it in NEEDS_NONE)")
    for f in sorted((NEEDS_NONE | KNOWN_GAPS) - set(functions)):
        errors.append(f"{f}: listed but not declared in include/libdace.h")
    for e in errors:
        print(e)
    print(f"{len(functions)} C functions, {len(called)} called from libdace.hpp, "
          f"{len(KNOWN_GAPS)} known gaps")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
