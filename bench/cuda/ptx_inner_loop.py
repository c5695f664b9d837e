#!/usr/bin/env python3
"""Instruction counts of the innermost loops of a PTX file, per kernel.

  ptx_inner_loop.py FILE.ptx [FILE2.ptx ...]

A loop is a label whose block ends, further down, in a branch back to it; an innermost one
contains no other such label. Each loop body (label to back branch) is counted by opcode
class: global loads (plain and through the read-only cache, `ld.global.nc`), global stores,
fma / mul / add of floating point, integer address arithmetic, and all instructions. Used to
compare libdace's PTX (`dace compile --ptx-out DIR`) with nvcc's PTX of DaCe's generated CUDA
(docs/cuda.md, "Kernel code: syrk").
"""
import re
import sys

CLASSES = [
    ("ld.global.nc", re.compile(r"^ld\.global\.nc\.")),
    ("ld.global", re.compile(r"^ld\.global\.(?!nc)")),
    ("st.global", re.compile(r"^st\.global\.")),
    ("fma.f64/f32", re.compile(r"^fma\.rn\.f(32|64)")),
    ("mul.f", re.compile(r"^mul(\.rn)?\.f(32|64)")),
    ("add/sub.f", re.compile(r"^(add|sub)(\.rn)?\.f(32|64)")),
    ("int arith", re.compile(r"^(add|sub|mul|mad|shl|neg|cvt|and|or)\.(lo\.|wide\.)?[su](32|64)")),
]


def kernels(text):
    """(name, body lines) of each .entry."""
    for m in re.finditer(r"\.entry\s+(\w+)\s*\(.*?\)\s*(?:\.\w+[^{]*)?\{(.*?)\n\}", text, re.S):
        yield m.group(1), [l.strip() for l in m.group(2).splitlines()]


def innermost_loops(lines):
    labels = {l[:-1]: i for i, l in enumerate(lines) if re.match(r"^\$L\w+:$", l)}
    loops = []
    for i, l in enumerate(lines):
        m = re.search(r"bra(\.uni)?\s+(\$L\w+);", l)
        if m and m.group(2) in labels and labels[m.group(2)] < i:
            loops.append((labels[m.group(2)], i))
    inner = [(a, b) for a, b in loops if not any(a < c and d <= b and (c, d) != (a, b) for c, d in loops)]
    return sorted(set(inner))


def count(body):
    instrs = [l for l in body if l and not l.startswith(("$", "//", ".pragma", "{", "}")) and not l.endswith(":")]
    ops = [re.sub(r"^@!?%p\d+\s+", "", l).split()[0] for l in instrs]
    row = {name: sum(1 for o in ops if rx.match(o)) for name, rx in CLASSES}
    row["all"] = len(ops)
    return row


def main(files):
    for f in files:
        text = open(f).read()
        for name, lines in kernels(text):
            for a, b in innermost_loops(lines):
                row = count(lines[a + 1:b + 1])
                unroll = "nounroll" in " ".join(lines[a:b + 1])
                print(f"{f}: {name} loop {lines[a][:-1]}{' (remainder)' if unroll else ''}: " +
                      ", ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
