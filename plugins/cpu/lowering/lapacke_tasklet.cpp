// C++ tasklets of DaCe's OpenBLAS expansions of the LAPACK / linear-algebra nodes, as DaCe's
// auto_optimize leaves them in *.opt.sdfg files (lapack.h):
//   _res = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _ipiv);
//   _res = LAPACKE_zgetrs(LAPACK_ROW_MAJOR, 'N', NR, NM, (lapack_complex_double*)_a, NR, _ipiv,
//                         (lapack_complex_double*)_rhs_in, NM);
//   _res = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', N, _xin, N);
// and the mapped tasklet of DaCe's Cholesky expansion that zeroes the upper triangle:
//   _out = (__i < __j) ? 0 : _inp;
// The call is parsed as in cblas_tasklet.cpp: layout enumerators, character literals,
// symbolic integer expressions, and connector names (optionally behind a pointer cast) for the
// first element of the connector's memlet. The same LAPACKE function is called; its result
// goes to the assigned connector. The select is `OUT = (CONDITION) ? A : B;` with a symbolic
// condition and numbers or input connectors for A and B.
#include <cstdlib>
#include <map>

#include "codegen/addressing.h"
#include "codegen/cpp_call.h"
#include "lowering/lapack.h"
#include "codegen/scalar_ops.h"

namespace dace::cpu {

// The core's lowering toolkit (frames, operands, scalar operations) is used throughout.
using namespace codegen;

namespace {

// Argument kinds: E layout, C character, I int, P matrix pointer, Q int32 pivot pointer.
struct LapackFunction {
  const char* signature;
  const char* classpath;  // the node class whose "OpenBLAS" implementation writes it
};

const std::map<std::string, LapackFunction>& lapack_functions() {
  static const std::map<std::string, LapackFunction> fns = {
      {"getrf", {"EIIPIQ", "dace.libraries.lapack.nodes.getrf.Getrf"}},
      {"getri", {"EIPIQ", "dace.libraries.lapack.nodes.getri.Getri"}},
      {"getrs", {"ECIIPIQPI", "dace.libraries.lapack.nodes.getrs.Getrs"}},
      {"potrf", {"ECIPI", "dace.libraries.lapack.nodes.potrf.Potrf"}},
      {"potrs", {"ECIIPIPI", "dace.libraries.lapack.nodes.potrs.Potrs"}},
  };
  return fns;
}

ScalarType prefix_type(char p) {
  switch (p) {
    case 's': return ScalarType::Float32;
    case 'd': return ScalarType::Float64;
    case 'c': return ScalarType::Complex64;
    case 'z': return ScalarType::Complex128;
    default: return ScalarType::Unknown;
  }
}

// `(lapack_complex_double*)_a` -> `_a`; other text unchanged.
std::string strip_pointer_cast(const std::string& a) {
  std::string s = trim_cpp(a);
  if (s.size() > 2 && s[0] == '(') {
    size_t close = s.find(')');
    if (close != std::string::npos && close > 1 && s[close - 1] == '*') return trim_cpp(s.substr(close + 1));
  }
  return s;
}

// The assignment '=' of `lhs = rhs` (not part of ==, <=, >=, !=).
size_t assignment(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '=') continue;
    char prev = i ? s[i - 1] : ' ';
    char next = i + 1 < s.size() ? s[i + 1] : ' ';
    if (next == '=' || prev == '=' || prev == '<' || prev == '>' || prev == '!') continue;
    return i;
  }
  return std::string::npos;
}

struct Select {
  std::string out, condition, if_true, if_false;
};

// `OUT = (COND) ? A : B;` split at top level.
std::optional<Select> parse_select(const std::string& code) {
  std::string s = trim_cpp(code);
  while (!s.empty() && s.back() == ';') s = trim_cpp(s.substr(0, s.size() - 1));
  if (s.find(';') != std::string::npos) return std::nullopt;
  size_t eq = assignment(s);
  if (eq == std::string::npos) return std::nullopt;
  Select sel;
  sel.out = trim_cpp(s.substr(0, eq));
  if (!is_cpp_identifier(sel.out)) return std::nullopt;
  std::string rhs = s.substr(eq + 1);
  int depth = 0;
  size_t q = std::string::npos, colon = std::string::npos;
  for (size_t i = 0; i < rhs.size(); ++i) {
    char c = rhs[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth != 0) continue;
    if (c == '?' && q == std::string::npos) q = i;
    if (c == ':' && q != std::string::npos && colon == std::string::npos) {
      if ((i + 1 < rhs.size() && rhs[i + 1] == ':') || (i && rhs[i - 1] == ':')) continue;
      colon = i;
    }
  }
  if (q == std::string::npos || colon == std::string::npos) return std::nullopt;
  sel.condition = trim_cpp(rhs.substr(0, q));
  sel.if_true = trim_cpp(rhs.substr(q + 1, colon - q - 1));
  sel.if_false = trim_cpp(rhs.substr(colon + 1));
  if (sel.condition.empty() || sel.if_true.empty() || sel.if_false.empty()) return std::nullopt;
  return sel;
}

std::optional<double> plain_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  std::string t = s;
  if (t.back() == 'f' || t.back() == 'F') t.pop_back();
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size()) return std::nullopt;
  return v;
}

class CppLapackTasklet {
 public:
  CppLapackTasklet(StateEmitter& se, int node) : se_(se), f_(*se.f), b_(f_.b), node_(node) {}

  Error unsupported(const std::string& why) const {
    return make_error(Code::Unsupported, se_.where(node_) + ": C++ tasklet is not a recognized LAPACKE call (" + why + ")");
  }

  // The first element of a connector's memlet and its element type.
  struct Pointer {
    llvm::Value* ptr = nullptr;
    ScalarType type = ScalarType::Unknown;
    bool output = false;
  };
  Result<Pointer> pointer(const std::string& conn, bool want_output) {
    int e = want_output ? se_.out_edge_at(node_, conn) : se_.in_edge_at(node_, conn);
    Pointer p;
    p.output = want_output;
    if (e < 0 && !want_output) {
      e = se_.out_edge_at(node_, conn);
      p.output = true;
    }
    if (e < 0) return unsupported("\"" + conn + "\" is not a connector with a memlet");
    const ir::Memlet& m = se_.state.edge(e)->memlet;
    if (m.is_empty()) return unsupported("connector \"" + conn + "\" has an empty memlet");
    if (!m.wcr.empty()) return unsupported("connector \"" + conn + "\" has a write-conflict resolution");
    Result<DataBinding> d = f_.data(m.data);
    if (!d) return d.take_error();
    Result<llvm::Value*> ptr = subset_pointer(f_, *d, m.subset.rank() ? m.subset : full_subset(*d->desc));
    if (!ptr) return ptr.take_error();
    p.ptr = *ptr;
    p.type = d->desc->dtype.scalar;
    return p;
  }

  Status call(const CppCall& c) {
    const std::string& fn = c.function;
    const std::string head = "LAPACKE_";
    if (fn.rfind(head, 0) != 0 || fn.size() < head.size() + 2) return unsupported("call of \"" + fn + "\"");
    ScalarType type = prefix_type(fn[head.size()]);
    std::string op = fn.substr(head.size() + 1);
    auto it = lapack_functions().find(op);
    if (type == ScalarType::Unknown || it == lapack_functions().end())
      return unsupported("\"" + fn + "\" is not one of LAPACKE_[sdcz]{getrf,getri,getrs,potrf,potrs}");
    if (!lapacke_available(f_.mc.options, it->second.classpath))
      return make_error(Code::Unsupported, se_.where(node_) + ": C++ tasklet calls " + fn + ", which needs LAPACKE (" +
                                               kLapackeLibrary +
                                               ", the CPU plugin's OpenBLAS implementation), which is not available");
    const std::string sig = it->second.signature;
    if (c.args.size() != sig.size())
      return unsupported("\"" + fn + "\" takes " + std::to_string(sig.size()) + " arguments, got " +
                         std::to_string(c.args.size()));
    std::vector<llvm::Value*> values;
    std::vector<llvm::Type*> types;
    std::vector<unsigned> chars;
    for (size_t i = 0; i < sig.size(); ++i) {
      const std::string& a = c.args[i];
      std::string which = "argument " + std::to_string(i + 1) + " \"" + a + "\"";
      switch (sig[i]) {
        case 'E':
          if (a == "LAPACK_ROW_MAJOR") values.push_back(b_.getInt32(kLapackRowMajor));
          else if (a == "LAPACK_COL_MAJOR") values.push_back(b_.getInt32(kLapackColMajor));
          else return unsupported(which + " is not a LAPACK layout");
          types.push_back(b_.getInt32Ty());
          break;
        case 'C':
          if (a.size() != 3 || a[0] != '\'' || a[2] != '\'') return unsupported(which + " is not a character literal");
          chars.push_back(static_cast<unsigned>(values.size()));
          values.push_back(b_.getInt8(static_cast<uint8_t>(a[1])));
          types.push_back(b_.getInt8Ty());
          break;
        case 'P':
        case 'Q': {
          Result<Pointer> p = pointer(strip_pointer_cast(a), false);
          if (!p) return p.take_error();
          ScalarType want = sig[i] == 'Q' ? ScalarType::Int32 : type;
          if (p->type != want)
            return unsupported(which + " holds " + tasklet::type_name(p->type) + ", not " + tasklet::type_name(want));
          values.push_back(p->ptr);
          types.push_back(b_.getPtrTy());
          break;
        }
        default: {  // 'I'
          Result<sym::Expr> e = sym::parse(a);
          if (!e) return unsupported(which + " is not an integer expression");
          Result<llvm::Value*> v = f_.sym(*e);
          if (!v) return unsupported(which + ": " + v.error().message);
          values.push_back(b_.CreateTrunc(*v, b_.getInt32Ty()));
          types.push_back(b_.getInt32Ty());
          break;
        }
      }
    }
    llvm::FunctionCallee callee =
        f_.mc.module.getOrInsertFunction(fn, llvm::FunctionType::get(b_.getInt32Ty(), types, false));
    llvm::CallInst* r = b_.CreateCall(callee, values);
    for (unsigned i : chars) r->addParamAttr(i, llvm::Attribute::SExt);
    if (c.result.empty()) return Status::success();
    Result<Pointer> out = pointer(c.result, true);
    if (!out) return out.take_error();
    if (!tasklet::is_integer(out->type) && !tasklet::is_float(out->type))
      return unsupported("result connector \"" + c.result + "\" holds " + tasklet::type_name(out->type));
    store_scalar(b_, convert_typed(b_, {r, ScalarType::Int32}, out->type), out->ptr);
    return Status::success();
  }

  Status select(const Select& s) {
    Result<Pointer> out = pointer(s.out, true);
    if (!out) return out.take_error();
    ScalarType t = out->type;
    std::string cond = s.condition;
    Result<sym::Expr> e = sym::parse(cond);
    if (!e) return unsupported("condition \"" + cond + "\" is not a symbolic expression");
    Result<llvm::Value*> c = f_.sym(*e);
    if (!c) return unsupported("condition \"" + cond + "\": " + c.error().message);
    llvm::Value* flag = *c;
    if (!flag->getType()->isIntegerTy(1)) flag = b_.CreateICmpNE(flag, llvm::ConstantInt::get(flag->getType(), 0));
    auto operand = [&](const std::string& text) -> Result<llvm::Value*> {
      if (std::optional<double> v = plain_number(text)) {
        if (tasklet::is_integer(t)) return static_cast<llvm::Value*>(llvm::ConstantInt::get(value_type(f_.mc.ctx, t), static_cast<int64_t>(*v), true));
        if (t == ScalarType::Bool) return static_cast<llvm::Value*>(b_.getInt1(*v != 0));
        return constant_float(b_, t, *v);
      }
      if (!is_cpp_identifier(text)) return unsupported("\"" + text + "\" is neither a number nor a connector");
      Result<Pointer> in = pointer(text, false);
      if (!in) return in.take_error();
      if (in->output) return unsupported("\"" + text + "\" is not an input connector");
      return convert_typed(b_, load_scalar(b_, in->ptr, in->type), t).value;
    };
    Result<llvm::Value*> a = operand(s.if_true);
    if (!a) return a.take_error();
    Result<llvm::Value*> bv = operand(s.if_false);
    if (!bv) return bv.take_error();
    store_scalar(b_, {b_.CreateSelect(flag, *a, *bv), t}, out->ptr);
    return Status::success();
  }

 private:
  StateEmitter& se_;
  Frame& f_;
  llvm::IRBuilder<>& b_;
  int node_;
};

}  // namespace

bool is_cpp_lapack_tasklet(const std::string& code) {
  if (code.find("LAPACKE_") != std::string::npos) return true;
  return code.find("LAPACKE") == std::string::npos && code.find("cblas_") == std::string::npos &&
         parse_select(code).has_value();
}

Status emit_cpp_lapack_tasklet(StateEmitter& se, int node) {
  const auto& t = static_cast<const ir::Tasklet&>(*se.state.node(node));
  CppLapackTasklet emitter(se, node);
  if (t.code.code.find("LAPACKE_") == std::string::npos) {
    std::optional<Select> s = parse_select(t.code.code);
    if (!s) return emitter.unsupported("not a select");
    return emitter.select(*s);
  }
  Result<CppCall> c = parse_cpp_call(t.code.code);
  if (!c) return emitter.unsupported(c.error().message);
  return emitter.call(*c);
}

}  // namespace dace::cpu
