"""Splits descriptor text ("N, Max(1, M), 3") into dimensions and recognizes plain symbol names.

Evaluating shapes and strides is libdace's job (dace_program_argument_shape/_strides); this
only reads the text for building memlets and for inferring symbols from array extents.
"""

import re

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")


def split_dims(text):
    """'N, Max(1, M), 3' -> ['N', 'Max(1, M)', '3'] (commas inside parentheses kept)."""
    dims, depth, cur = [], 0, []
    for ch in text or "":
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            dims.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        dims.append("".join(cur).strip())
    return dims


def is_symbol(text):
    return bool(_IDENT.match(text))
