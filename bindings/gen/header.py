"""Parses include/libdace.h into a small model the emitters share.

libdace.h is written in a deliberately plain C99 subset (see its contract comment), so a
tokenizer plus a statement splitter is enough; anything the parser does not understand is an
error rather than silently skipped, so a new header construct cannot go unbound.
"""
import re
from dataclasses import dataclass, field
from typing import List, Optional

# Fixed-width scalars of the C ABI on LP64 (the only ABI libdace ships for): size, alignment.
SCALARS = {
    "char": (1, 1), "int8_t": (1, 1), "uint8_t": (1, 1),
    "int16_t": (2, 2), "uint16_t": (2, 2),
    "int32_t": (4, 4), "uint32_t": (4, 4), "int": (4, 4), "float": (4, 4),
    "int64_t": (8, 8), "uint64_t": (8, 8), "size_t": (8, 8), "double": (8, 8),
}
POINTER_SIZE = 8


@dataclass
class CType:
    """base plus pointer levels; ptr_const[k] is the const after the k-th '*'."""
    base: str
    base_const: bool = False
    ptr_const: List[bool] = field(default_factory=list)
    array: Optional[int] = None   # fixed extent (struct field `double c[2]`, param `char h[65]`)

    @property
    def depth(self):
        return len(self.ptr_const)

    def c_text(self, name=""):
        s = ("const " if self.base_const else "") + self.base
        for c in self.ptr_const:
            s += "*" + (" const" if c else "")
        s += (" " + name) if name else ""
        return s + (f"[{self.array}]" if self.array is not None else "")


@dataclass
class Param:
    name: str
    type: CType


@dataclass
class Function:
    name: str
    ret: CType
    params: List[Param]


@dataclass
class Enum:
    name: str
    values: List[tuple]   # (NAME, int)


@dataclass
class Field:
    name: str
    type: Optional[CType]          # None for an inline union
    union: Optional["Struct"] = None


@dataclass
class Struct:
    name: str
    fields: List[Field]
    is_union: bool = False


@dataclass
class Header:
    defines: List[tuple] = field(default_factory=list)     # (NAME, int) in header order
    enums: List[Enum] = field(default_factory=list)
    aliases: List[tuple] = field(default_factory=list)     # (name, CType) scalar typedefs
    opaques: List[tuple] = field(default_factory=list)     # (typedef name, struct tag)
    structs: List[Struct] = field(default_factory=list)
    functions: List[Function] = field(default_factory=list)
    order: List[tuple] = field(default_factory=list)       # ("enum"|"alias"|"opaque"|"struct", name)

    def enum_names(self):
        return {e.name for e in self.enums}

    def struct_map(self):
        return {s.name: s for s in self.structs}

    def opaque_names(self):
        return {n for n, _ in self.opaques}

    def alias_map(self):
        return dict(self.aliases)

    def resolve(self, base):
        """Underlying scalar of a typedef chain (enums are 32-bit ints)."""
        if base in self.enum_names():
            return "int32_t"
        aliases = self.alias_map()
        while base in aliases:
            base = aliases[base].base
        return base

    # ---- C layout (LP64) -------------------------------------------------------------
    def layout(self, t: CType):
        """(size, alignment) of a field type."""
        if t.depth:
            size, align = POINTER_SIZE, POINTER_SIZE
        elif t.base in self.struct_map():
            size, align, _ = self.struct_layout(self.struct_map()[t.base])
        else:
            size, align = SCALARS[self.resolve(t.base)]
        return size * (t.array or 1), align

    def struct_layout(self, s: Struct):
        """(size, alignment, [offset per field])."""
        offset, align, offsets = 0, 1, []
        for f in s.fields:
            fs, fa = (self.struct_layout(f.union)[:2] if f.union else self.layout(f.type))
            align = max(align, fa)
            if s.is_union:
                offsets.append(0)
                offset = max(offset, fs)
            else:
                offset = (offset + fa - 1) // fa * fa
                offsets.append(offset)
                offset += fs
        size = (offset + align - 1) // align * align
        return size, align, offsets


class ParseError(Exception):
    pass


_TOKEN = re.compile(r'\s*(?:(0[xX][0-9a-fA-F]+|\d+)|([A-Za-z_]\w*)|("(?:[^"\\]|\\.)*")|(\S))')


def tokenize(text):
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        tok = next((g for g in m.groups() if g is not None), None)
        if tok is not None:
            tokens.append(tok)
    return tokens


def _strip_comments(text):
    # Strings in the header hold no comment markers, so this needs no string awareness.
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _eval_int(expr, known):
    """Integer value of a #define body, or None when it is not an integer expression."""
    toks = tokenize(expr)
    out = []
    for t in toks:
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", t):
            out.append(str(int(t, 0)))
        elif t in known:
            out.append(f"({known[t]})")
        elif t in "+-*()|&~<>" or t in ("<<", ">>"):
            out.append(t)
        else:
            return None
    if not out:
        return None
    try:
        value = eval(" ".join(out), {"__builtins__": {}}, {})  # only digits and operators
    except Exception:
        return None
    return value if isinstance(value, int) else None


def _preprocess(text, header):
    """Drops preprocessor lines and C++-only blocks; collects integer #defines.

    Conditionals other than `#ifdef __cplusplus` keep every branch: in libdace.h they only
    choose the spelling of DACE_API, which is not bound."""
    text = _strip_comments(text).replace("\\\n", " ")
    out, skip_stack = [], []
    known = {}
    for line in text.split("\n"):
        s = line.strip()
        if not s.startswith("#"):
            out.append("" if any(skip_stack) else line)
            continue
        directive = s[1:].strip()
        word = directive.split(None, 1)[0] if directive else ""
        if word in ("if", "ifdef", "ifndef"):
            skip_stack.append(directive.replace(" ", "") == "ifdef__cplusplus")
        elif word == "else" and skip_stack:
            # Only `#ifdef __cplusplus` blocks are ever skipped; their #else is C.
            skip_stack[-1] = False
        elif word == "endif":
            skip_stack.pop()
        elif word == "define" and not any(skip_stack):
            m = re.match(r"define\s+([A-Za-z_]\w*)(\([^)]*\))?\s*(.*)$", directive)
            if m and not m.group(2) and m.group(1).startswith("DACE_") and m.group(1) != "DACE_API":
                value = _eval_int(m.group(3), known)
                if value is not None:
                    known[m.group(1)] = value
                    header.defines.append((m.group(1), value))
        out.append("")
    return "\n".join(out), known


def _split_statements(tokens):
    """Top-level statements ending in ';' (braces nest)."""
    stmts, cur, depth = [], [], 0
    for t in tokens:
        cur.append(t)
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
        elif t == ";" and depth == 0:
            stmts.append(cur[:-1])
            cur = []
    if cur:
        raise ParseError("trailing tokens: " + " ".join(cur))
    return stmts


def _parse_decl(toks):
    """`const char* const* name[65]` -> (name, CType); name may be absent (void params)."""
    toks = list(toks)
    array = None
    if len(toks) >= 4 and toks[-1] == "]" and toks[-3] == "[":
        array = int(toks[-2], 0)
        toks = toks[:-3]
    base_const = False
    i = 0
    while toks[i] == "const":
        base_const = True
        i += 1
    base = toks[i]
    i += 1
    if i < len(toks) and toks[i] == "const":
        base_const = True
        i += 1
    ptr_const = []
    while i < len(toks) and toks[i] == "*":
        i += 1
        c = False
        if i < len(toks) and toks[i] == "const":
            c = True
            i += 1
        ptr_const.append(c)
    name = None
    if i < len(toks):
        name = toks[i]
        i += 1
    if i != len(toks):
        raise ParseError("cannot parse declaration: " + " ".join(toks))
    return name, CType(base, base_const, ptr_const, array)


def _parse_fields(toks, owner):
    fields, stmt, i = [], [], 0
    while i < len(toks):
        t = toks[i]
        if t == "union" and toks[i + 1] == "{":
            depth, j = 0, i + 1
            while True:
                depth += toks[j] == "{"
                depth -= toks[j] == "}"
                if depth == 0:
                    break
                j += 1
            name = toks[j + 1]
            if toks[j + 2] != ";":
                raise ParseError(f"{owner}: unsupported union declaration")
            union = Struct(f"{owner}_{name}", _parse_fields(toks[i + 2:j], f"{owner}_{name}"), True)
            fields.append(Field(name, None, union))
            i = j + 3
            continue
        if t == ";":
            name, ctype = _parse_decl(stmt)
            fields.append(Field(name, ctype))
            stmt = []
        else:
            stmt.append(t)
        i += 1
    if stmt:
        raise ParseError(f"{owner}: unterminated field")
    return fields


def _parse_enum(toks, known, name):
    values, nxt = [], 0
    body = toks[toks.index("{") + 1:toks.index("}")]
    items, cur = [], []
    for t in body + [","]:
        if t == ",":
            if cur:
                items.append(cur)
            cur = []
        else:
            cur.append(t)
    for item in items:
        ident = item[0]
        if len(item) > 1:
            if item[1] != "=":
                raise ParseError(f"enum {name}: bad item {' '.join(item)}")
            value = _eval_int(" ".join(item[2:]), known)
            if value is None:
                raise ParseError(f"enum {name}: cannot evaluate {' '.join(item)}")
        else:
            value = nxt
        values.append((ident, value))
        known[ident] = value
        nxt = value + 1
    return Enum(name, values)


def parse(text):
    header = Header()
    code, known = _preprocess(text, header)
    tokens = tokenize(code)
    # `extern "C" {` never survives (C++-only block); any stray string token is an error below.
    for st in _split_statements(tokens):
        if not st:
            continue
        if st[0] == "typedef":
            if st[1] == "enum":
                name = st[-1]
                header.enums.append(_parse_enum(st, known, name))
                header.order.append(("enum", name))
            elif st[1] in ("struct", "union") and "{" in st:
                name = st[-1]
                body = st[st.index("{") + 1:len(st) - 1 - st[::-1].index("}")]
                header.structs.append(Struct(name, _parse_fields(body, name), st[1] == "union"))
                header.order.append(("struct", name))
            elif st[1] == "struct" and len(st) == 4:
                header.opaques.append((st[3], st[2]))
                header.order.append(("opaque", st[3]))
            else:
                name, ctype = _parse_decl(st[1:])
                if ctype.depth or name is None:
                    raise ParseError("unsupported typedef: " + " ".join(st))
                header.aliases.append((name, ctype))
                header.order.append(("alias", name))
        elif st[0] == "DACE_API":
            if "(" not in st or st[-1] != ")":
                raise ParseError("unsupported DACE_API declaration: " + " ".join(st))
            lp = st.index("(")
            fname, ret = _parse_decl(st[1:lp])
            inner = st[lp + 1:-1]
            params, cur = [], []
            for t in inner + [","]:
                if t == ",":
                    if cur:
                        pname, ptype = _parse_decl(cur)
                        if pname is None:
                            if ptype.base == "void" and not ptype.depth:
                                cur = []
                                continue
                            raise ParseError(f"{fname}: unnamed parameter")
                        params.append(Param(pname, ptype))
                    cur = []
                else:
                    cur.append(t)
            header.functions.append(Function(fname, ret, params))
        else:
            raise ParseError("unsupported top-level statement: " + " ".join(st[:12]))
    return header


def declared_api_names(text):
    """Every name declared after DACE_API, by a plain regex (an independent cross-check)."""
    return re.findall(r"^\s*DACE_API\b[^;(#]*?\b([A-Za-z_]\w*)\s*\(", _strip_comments(text), flags=re.M)


def _layout_entries(h: Header):
    """(struct, C member path or None, value kind) rows, in header order."""
    rows = []
    for s in h.structs:
        size, align, offsets = h.struct_layout(s)
        rows.append((s.name, None, size, align))
        for f, off in zip(s.fields, offsets):
            rows.append((s.name, f.name, off, None))
            if f.union is not None:
                for g in f.union.fields:
                    rows.append((s.name, f"{f.name}.{g.name}", off, None))
    return rows


def layout_lines(h: Header):
    """The LP64 layout the generated bindings assume, one line per struct and member."""
    out = []
    for name, member, a, b in _layout_entries(h):
        out.append(f"{name} size {a} align {b}" if member is None else f"{name}.{member} offset {a}")
    return "\n".join(out) + "\n"


def layout_c_program(h: Header):
    """A C99 program printing the same lines as layout_lines, as the C compiler sees them."""
    o = ["/* generated by bindings/generate.py --layout-c: prints struct layouts of libdace.h */",
         "#include <stddef.h>", "#include <stdio.h>", "#include \"libdace.h\"", "",
         "#define ALIGNOF(T) offsetof(struct { char c; T t; }, t)", "", "int main(void) {"]
    for name, member, _, _ in _layout_entries(h):
        if member is None:
            o.append(f'  printf("{name} size %zu align %zu\\n", sizeof({name}), (size_t)ALIGNOF({name}));')
        else:
            o.append(f'  printf("{name}.{member} offset %zu\\n", (size_t)offsetof({name}, {member}));')
    o += ["  return 0;", "}"]
    return "\n".join(o) + "\n"
