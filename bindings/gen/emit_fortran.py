"""Emits bindings/fortran/libdace_capi.f90: Fortran 2008 bind(C) declarations of the C API.

Argument mapping (also written into the generated file's header):
  by-value scalars / enums / ids       integer(kind), value   (real(c_double), value)
  const char*   (input string)         character(kind=c_char), intent(in) :: s(*)  -> "x"//c_null_char
  char out[N]   (fixed buffer)         character(kind=c_char), intent(inout) :: s(N)
  T** / const char** / char** / void** type(c_ptr), intent(inout)   (by reference: a c_ptr variable)
  handles, void*, char*, const char* const*, const struct*
                                       type(c_ptr), value    (c_null_ptr allowed, else c_loc(x))
  struct* (non-const, filled in)       type(T), intent(inout)
  const scalar*  (input array)         integer(kind), intent(in) :: x(*)
  scalar* followed by `size_t capacity` integer(kind), intent(inout) :: x(*)   (two-call idiom)
  other scalar*  (out-parameter)       integer(kind), intent(inout) :: x
"""
import re

from .header import Header, CType

_KIND = {
    "int8_t": "integer(c_int8_t)", "uint8_t": "integer(c_int8_t)",
    "int16_t": "integer(c_int16_t)", "uint16_t": "integer(c_int16_t)",
    "int32_t": "integer(c_int32_t)", "uint32_t": "integer(c_int32_t)", "int": "integer(c_int)",
    "int64_t": "integer(c_int64_t)", "uint64_t": "integer(c_int64_t)",
    "size_t": "integer(c_size_t)", "float": "real(c_float)", "double": "real(c_double)",
    "char": "character(kind=c_char)",
}
_UNION_STORAGE = {8: "integer(c_int64_t)", 4: "integer(c_int32_t)", 2: "integer(c_int16_t)", 1: "integer(c_int8_t)"}
MAX_LINE = 100


def _scalar_decl(h: Header, base):
    """Fortran type spec of a non-pointer C type; typedef'd ints use their kind parameter."""
    if base in h.enum_names() or base in h.alias_map():
        return f"integer({base})"
    if base in _KIND:
        return _KIND[base]
    if base in h.struct_map():
        return f"type({base})"
    raise ValueError(f"no Fortran mapping for {base}")


def _wrap(line, indent):
    """Free-form continuation for lines longer than MAX_LINE (splits after commas)."""
    if len(line) <= MAX_LINE:
        return [line]
    out, cur = [], line
    while len(cur) > MAX_LINE:
        cut = cur.rfind(", ", 0, MAX_LINE - 2)
        if cut <= len(indent):
            break
        out.append(cur[:cut + 1] + " &")
        cur = indent + "    " + cur[cut + 2:]
    out.append(cur)
    return out


def _param_decl(h: Header, params, k):
    p = params[k]
    t = p.type
    nxt = params[k + 1] if k + 1 < len(params) else None
    if t.array is not None:
        return f"character(kind=c_char), intent(inout) :: {p.name}({t.array})"
    if t.depth == 0:
        return f"{_scalar_decl(h, t.base)}, value :: {p.name}"
    if t.depth == 2:
        if t.ptr_const[0]:  # const char* const*: an input array of strings, may be NULL
            return f"type(c_ptr), value :: {p.name}"
        return f"type(c_ptr), intent(inout) :: {p.name}"
    if t.depth != 1:
        raise ValueError(f"unsupported pointer depth in {t.c_text()}")
    base = t.base
    if base == "char":
        if t.base_const:
            return f"character(kind=c_char), intent(in) :: {p.name}(*)"
        return f"type(c_ptr), value :: {p.name}"
    if base == "void" or base in h.opaque_names():
        return f"type(c_ptr), value :: {p.name}"
    if base in h.struct_map():
        if t.base_const:
            return f"type(c_ptr), value :: {p.name}"
        return f"type({base}), intent(inout) :: {p.name}"
    spec = _scalar_decl(h, base)
    if t.base_const:
        return f"{spec}, intent(in) :: {p.name}(*)"
    if nxt is not None and nxt.name == "capacity" and nxt.type.base == "size_t" and nxt.type.depth == 0:
        return f"{spec}, intent(inout) :: {p.name}(*)"
    return f"{spec}, intent(inout) :: {p.name}"


def _result_decl(h: Header, t: CType, name):
    if t.depth == 1 or t.array is not None:
        return f"type(c_ptr) :: {name}"
    if t.depth:
        raise ValueError(f"unsupported return type {t.c_text()}")
    return f"{_scalar_decl(h, t.base)} :: {name}"


def _type_lines(h: Header, s, out):
    for f in s.fields:
        if f.union is not None:
            _type_lines(h, f.union, out)
    size, align, _ = h.struct_layout(s)
    if s.is_union:
        storage = _UNION_STORAGE[align]
        members = ", ".join(f.name for f in s.fields)
        out.append(f"  ! C union {{ {members} }}: {size} bytes, {align}-byte aligned. Fortran has no")
        out.append("  ! unions: the storage is raw; libdace.f90 fills it with transfer().")
        out.append(f"  type, bind(C) :: {s.name}")
        out.append(f"    {storage} :: raw({size // align})")
        out.append(f"  end type {s.name}")
        out.append("")
        return
    out.append(f"  ! struct {s.name}: {size} bytes")
    out.append(f"  type, bind(C) :: {s.name}")
    for f in s.fields:
        if f.union is not None:
            out.append(f"    type({f.union.name}) :: {f.name}")
            continue
        t = f.type
        if t.depth:
            out.append(f"    type(c_ptr) :: {f.name}  ! {t.c_text()}")
        elif t.array is not None:
            out.append(f"    {_scalar_decl(h, t.base)} :: {f.name}({t.array})")
        else:
            comment = f"  ! {t.base}" if t.base.startswith("uint") else ""
            out.append(f"    {_scalar_decl(h, t.base)} :: {f.name}{comment}")
    out.append(f"  end type {s.name}")
    out.append("")


def _define_names(h: Header):
    """Fortran is case-insensitive: a #define spelled like a function
    (DACE_VERSION_NUMBER / dace_version_number) gets the suffix _CONST."""
    funcs = {f.name.lower() for f in h.functions}
    return [(n + "_CONST" if n.lower() in funcs else n, v) for n, v in h.defines]


def _check_names(h: Header):
    """Fortran is case-insensitive and limits names to 63 characters."""
    names = [n for n, _ in _define_names(h)] + [v for e in h.enums for v, _ in e.values]
    names += [e.name for e in h.enums] + [n for n, _ in h.aliases] + [n for n, _ in h.opaques]
    names += [s.name for s in h.structs] + [f.name for f in h.functions]
    seen = {}
    for n in names:
        if len(n) > 63:
            raise ValueError(f"Fortran name longer than 63 characters: {n}")
        if n.lower() in seen:
            raise ValueError(f"Fortran name clash (case-insensitive): {n} / {seen[n.lower()]}")
        seen[n.lower()] = n


def emit(h: Header, header_path="include/libdace.h"):
    _check_names(h)
    o = []
    o.append("! libdace_capi: Fortran 2008 bind(C) interfaces of libdace's C API.")
    o.append(f"! generated by bindings/generate.py from {header_path} — do not edit.")
    o.append("!")
    for line in __doc__.strip().split("\n")[2:]:
        o.append(("! " + line).rstrip())
    o.append("! Enums and dace_id_t are integer kind parameters (integer(dace_dtype_t) :: d).")
    o.append("! Unsigned C fields are declared with the signed kind of the same size.")
    o.append("! A #define named like a function (case-insensitively) gets the suffix _CONST:")
    o.append("! DACE_VERSION_NUMBER_CONST.")
    o.append("! Opaque handles (dace_sdfg_t, dace_context_t, dace_program_t) are type(c_ptr).")
    o.append("module libdace_capi")
    o.append("  use, intrinsic :: iso_c_binding")
    o.append("  implicit none")
    o.append("")
    o.append("  ! ---- #define integer constants")
    for name, value in _define_names(h):
        o.append(f"  integer(c_int32_t), parameter :: {name} = {value}")
    o.append("")
    structs = h.struct_map()
    enums = {e.name: e for e in h.enums}
    for kind, name in h.order:
        if kind == "enum":
            o.append(f"  ! enum {name}")
            o.append(f"  integer, parameter :: {name} = c_int32_t")
            for vname, value in enums[name].values:
                o.append(f"  integer({name}), parameter :: {vname} = {value}")
            o.append("")
        elif kind == "alias":
            t = h.alias_map()[name]
            o.append(f"  ! typedef {t.c_text()} {name}")
            o.append(f"  integer, parameter :: {name} = {_KIND[t.base][8:-1]}")
            o.append("")
        elif kind == "opaque":
            o.append(f"  ! {name} (struct {dict(h.opaques)[name]}): opaque, passed as type(c_ptr)")
            o.append("")
        elif kind == "struct":
            _type_lines(h, structs[name], o)
    o.append("  interface")
    for f in h.functions:
        names = ", ".join(p.name for p in f.params)
        decls = [_param_decl(h, f.params, k) for k in range(len(f.params))]
        is_sub = f.ret.base == "void" and f.ret.depth == 0
        proto = f"    ! {f.ret.c_text()} {f.name}({', '.join(p.type.c_text(p.name) for p in f.params)})"
        o.extend(line.replace(" &", "") for line in _wrap(proto, "    !"))
        head = f"    {'subroutine' if is_sub else 'function'} {f.name}({names}) bind(C, name=\"{f.name}\")"
        o.extend(_wrap(head, "    "))
        res = [] if is_sub else [_result_decl(h, f.ret, f.name)]
        specs = [d.split(" :: ")[0] for d in decls + res]
        used = set()
        for spec in specs:
            used.update(re.findall(r"\b(?:type|integer|real|character)\((?:kind=)?(\w+)\)", spec))
        imports = sorted(u for u in used if u.startswith("c_")) + sorted(u for u in used if not u.startswith("c_"))
        if imports:
            o.extend(_wrap("      import :: " + ", ".join(imports), "      "))
        o.append("      implicit none")
        for d in res + decls:
            o.extend(_wrap("      " + d, "      "))
        o.append(f"    end {'subroutine' if is_sub else 'function'} {f.name}")
        o.append("")
    o[-1:] = []
    o.append("  end interface")
    o.append("end module libdace_capi")
    return "\n".join(o) + "\n"
