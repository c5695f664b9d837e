"""Memlet propagation out of one map scope, for SDFGState.add_memlet_path.

The C API propagates only inside dace_state_add_mapped_tasklet, so the Python side does the
same job for paths built edge by edge: a subset dimension whose bounds are affine in the
map parameters (integer coefficients, step-1 map ranges) becomes the hull of all
iterations; any other dimension that depends on a parameter becomes the container's whole
extent, which is a correct, if coarser, over-approximation. libdace simplifies the
resulting text when the edge is added.
"""

import ast

from ._symeval import split_dims


def _affine(node, params):
    """(coefficients {param: int}, constant text) of an expression, or None if not affine."""
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    if not names & params:
        return {}, ast.unparse(node)
    if isinstance(node, ast.Name):
        return {node.id: 1}, "0"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _affine(node.operand, params)
        if inner is None or isinstance(node.op, ast.UAdd):
            return inner
        return {p: -c for p, c in inner[0].items()}, f"-({inner[1]})"
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        left, right = _affine(node.left, params), _affine(node.right, params)
        if left is None or right is None:
            return None
        sign = 1 if isinstance(node.op, ast.Add) else -1
        coeffs = dict(left[0])
        for p, c in right[0].items():
            coeffs[p] = coeffs.get(p, 0) + sign * c
        return coeffs, f"({left[1]}) {'+' if sign > 0 else '-'} ({right[1]})"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(factor, ast.Constant) and type(factor.value) is int:
                inner = _affine(other, params)
                if inner is None:
                    return None
                return {p: c * factor.value for p, c in inner[0].items()}, f"{factor.value} * ({inner[1]})"
    return None


def _extreme(text, ranges, lower):
    """The least (lower) or greatest value of `text` over the map, or None if unknown."""
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    form = _affine(tree, set(ranges))
    if form is None:
        return None
    out = f"({form[1]})"
    for param, coeff in form[0].items():
        if coeff == 0:
            continue
        first, last = ranges[param]
        if first is None:
            return None
        out += f" + {coeff} * ({first if (coeff > 0) == lower else last})"
    return out


def map_ranges(range_text):
    """'i=0:N, j=1:M:2' -> {param: (first, last)}; (None, None) where a step is not 1."""
    out = {}
    for part in split_dims(range_text):
        param, _, rng = part.partition("=")
        bounds = _split_range(rng)
        if bounds is None or bounds[2].strip() != "1":
            out[param.strip()] = (None, None)
        else:
            out[param.strip()] = (bounds[0], f"({bounds[1]}) - 1")
    return out


def _split_range(text):
    """'b:e[:s]' -> (b, e exclusive, s) and 'i' -> (i, i + 1, 1); None for other forms."""
    pieces, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == ":" and depth == 0:
            pieces.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    pieces.append("".join(cur))
    pieces = [p.strip() for p in pieces]
    if len(pieces) == 1:
        return pieces[0], f"({pieces[0]}) + 1", "1"
    if len(pieces) in (2, 3) and all(pieces):
        return pieces[0], pieces[1], pieces[2] if len(pieces) == 3 else "1"
    return None


def propagate_subset(subset_text, shape, ranges):
    """The subset covering `subset_text` ('i, 0:N') over every iteration of `ranges`."""
    dims = split_dims(subset_text)
    out = []
    for d, dim in enumerate(dims):
        whole = f"0:{shape[d]}" if d < len(shape) else dim
        bounds = _split_range(dim)
        if bounds is None:
            out.append(whole)
            continue
        start, end, step = bounds
        names = set()
        for piece in (start, end, step):
            try:
                names |= {n.id for n in ast.walk(ast.parse(piece, mode="eval")) if isinstance(n, ast.Name)}
            except SyntaxError:
                names.add(next(iter(ranges), ""))  # unparsable: treat as dependent
        if not names & set(ranges):
            out.append(dim)
            continue
        lo, hi = _extreme(start, ranges, True), _extreme(end, ranges, False)
        out.append(whole if lo is None or hi is None or step != "1" else f"{lo}:{hi}")
    return ", ".join(out)


def split_memlet(text):
    """'A[i, 0:N] -> [k]' -> ('A', 'i, 0:N' or None, other text or None)."""
    main, arrow, other = text.partition("->")
    main = main.strip()
    other = other.strip() if arrow else None
    if "[" not in main:
        return main, None, other
    data, _, rest = main.partition("[")
    return data.strip(), rest.rsplit("]", 1)[0], other
