"""Evaluates a descriptor's shape/stride text ("N, M + 1", "Max(1, N)") for given symbols.

Only used off the hot path, to decide whether a call's memory layout matches the compiled
one. An expression it cannot evaluate yields None, which callers treat as "unknown" (and
then specialize, which is always correct).
"""

import ast
import math
import re

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$")
_FUNCS = {
    "Max": max, "Min": min, "max": max, "min": min, "abs": abs, "Abs": abs,
    "int_floor": lambda a, b: a // b, "int_ceil": lambda a, b: -(-a // b),
    "floor": math.floor, "ceiling": math.ceil, "ceil": math.ceil, "Mod": lambda a, b: a % b,
}


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


def evaluate(text, symbols):
    """An int for one expression, or None if it uses unknown names or is not integral."""
    text = text.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    env = {}
    for name in names:
        if name in symbols:
            env[name] = symbols[name]
        elif name in _FUNCS:
            env[name] = _FUNCS[name]
        else:
            return None
    try:
        value = eval(compile(tree, "<expr>", "eval"), {"__builtins__": {}}, env)  # noqa: S307 - names checked
    except Exception:  # noqa: BLE001 - any failure means "unknown"
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, int) else None


def evaluate_all(text, symbols):
    """A tuple of ints for a comma-separated list, or None if any element is unknown."""
    out = []
    for dim in split_dims(text):
        v = evaluate(dim, symbols)
        if v is None:
            return None
        out.append(v)
    return tuple(out)
