#include "lowering/cublas_tasklet.h"

#include <cctype>
#include <map>
#include <optional>
#include <vector>

#include "codegen/addressing.h"
#include "codegen/cpp_call.h"
#include "ir/symbolic/expr.h"
#include "ir/tasklet/types.h"
#include "lowering/gemm_call.h"

namespace dace::cuda {

namespace {

using ir::ScalarType;

std::string without_space(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

// The statements of the code, split at top-level semicolons (trimmed, empty ones dropped);
// nullopt when parentheses do not balance or the code has blocks.
std::optional<std::vector<std::string>> split_statements(const std::string& code) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : code) {
    if (c == '{' || c == '}') return std::nullopt;
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return std::nullopt;
    if (c == ';' && depth == 0) {
      if (std::string t = codegen::trim_cpp(cur); !t.empty()) out.push_back(t);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (depth != 0) return std::nullopt;
  if (std::string t = codegen::trim_cpp(cur); !t.empty()) out.push_back(t);
  return out;
}

bool is_integer_literal(const std::string& s) {
  size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// C spelling and DaCe runtime spelling (its cuBLAS constants) of a real element type.
const char* c_type(ScalarType t) { return t == ScalarType::Float32 ? "float" : "double"; }
const char* runtime_type(ScalarType t) { return t == ScalarType::Float32 ? "Float" : "Double"; }

// The calls DaCe's Gemm, Gemv and Dot expansions make, with their argument counts.
const std::map<std::string, size_t>& product_arity() {
  static const std::map<std::string, size_t> arity = {{"gemm", 14}, {"gemv", 12}, {"dot", 7}};
  return arity;
}

bool is_product_call(const std::string& fn) {
  return fn.size() > 7 && fn.compare(0, 6, "cublas") == 0 && (fn[6] == 'S' || fn[6] == 'D') &&
         product_arity().count(fn.substr(7));
}

enum class PointerMode { Device, Host };

struct Declared {
  ScalarType type;
  double value;
};

class Recognizer {
 public:
  explicit Recognizer(codegen::CppTaskletContext& context) : cx_(context), se_(context.se), f_(*context.se.f) {}

  Status run() {
    if (codegen::is_device_code(f_) || f_.parallel_context)
      return make_error(Code::Unsupported, cx_.where() + ": a cuBLAS call inside a kernel or a parallel map cannot be compiled");
    std::optional<std::vector<std::string>> statements = split_statements(cx_.code);
    if (!statements) return refuse("unbalanced parentheses or a block");
    const std::vector<std::string>& st = *statements;
    // DaCe's handle set-up (environments/cublas.py), statement by statement.
    const std::string device = "constint__dace_cuda_device=";
    if (st.size() < 4) return refuse("not DaCe's handle set-up and one call");
    std::string first = without_space(st[0]);
    if (first.compare(0, device.size(), device) != 0 || !is_integer_literal(first.substr(device.size())))
      return refuse("statement \"" + st[0] + "\"");
    if (without_space(st[1]) != "cublasHandle_t&__dace_cublas_handle=__state->cublas_handle.Get(__dace_cuda_device)")
      return refuse("statement \"" + st[1] + "\"");
    if (without_space(st[2]) != "cublasSetStream(__dace_cublas_handle,__dace_current_stream)")
      return refuse("statement \"" + st[2] + "\"");
    // A handle starts (and DaCe's tasklets leave it) in device pointer mode: alpha and beta
    // are the runtime's device constants, or, in host mode, declared scalars.
    PointerMode mode = PointerMode::Device;
    std::optional<codegen::CppCall> call;
    PointerMode call_mode = mode;
    for (size_t i = 3; i < st.size(); ++i) {
      const std::string s = without_space(st[i]);
      if (s == "cublasSetPointerMode(__dace_cublas_handle,CUBLAS_POINTER_MODE_HOST)") {
        mode = PointerMode::Host;
        continue;
      }
      if (s == "cublasSetPointerMode(__dace_cublas_handle,CUBLAS_POINTER_MODE_DEVICE)") {
        mode = PointerMode::Device;
        continue;
      }
      if (!call && declaration(st[i])) continue;
      Result<codegen::CppCall> c = codegen::parse_cpp_call(st[i]);
      if (call || !c || !c->result.empty()) return refuse("statement \"" + st[i] + "\"");
      if (!is_product_call(c->function))
        return refuse("\"" + c->function + "\" is not one of cublas[SD]{gemm,gemv,dot}");
      call = *c;
      call_mode = mode;
    }
    if (!call) return refuse("no cuBLAS call");
    if (mode != PointerMode::Device) return refuse("the pointer mode is left at host");
    return lower(*call, call_mode);
  }

 private:
  Error refuse(const std::string& why) const {
    return make_error(Code::Unsupported, cx_.where() + ": C++ tasklet is not a recognized cuBLAS call (" + why + ")");
  }

  // `double NAME = double(V)` (or float, or a plain number): a host scalar for host pointer
  // mode (codegen's parser of DaCe's BLAS declarations).
  bool declaration(const std::string& s) {
    Result<std::optional<codegen::CppScalarDeclaration>> d = codegen::parse_cpp_scalar_declaration(s);
    if (!d || !*d || (*d)->im != 0) return false;
    for (ScalarType t : {ScalarType::Float64, ScalarType::Float32}) {
      const std::string ct = c_type(t);
      if ((*d)->type != ct || (!(*d)->init_type.empty() && (*d)->init_type != ct)) continue;
      declared_[(*d)->name] = Declared{t, (*d)->re};
      return true;
    }
    return false;
  }

  // alpha / beta: a device constant in device mode, `(T *)&name` of a declared scalar in host mode.
  Result<double> scalar(const std::string& arg, ScalarType t, PointerMode mode) {
    const std::string s = without_space(arg);
    const std::string constants = std::string("__state->cublas_handle.Constants(__dace_cuda_device).") + runtime_type(t);
    if (s == constants + "Pone()" || s == constants + "Zero()") {
      if (mode != PointerMode::Device) return refuse("\"" + arg + "\" is a device constant read in host pointer mode");
      return s == constants + "Pone()" ? 1.0 : 0.0;
    }
    std::string name = s;
    const std::string cast = std::string("(") + c_type(t) + "*)";
    if (name.compare(0, cast.size(), cast) == 0) name = name.substr(cast.size());
    if (name.empty() || name[0] != '&') return refuse("argument \"" + arg + "\" is not a scalar DaCe passes");
    auto d = declared_.find(name.substr(1));
    if (d == declared_.end() || d->second.type != t)
      return refuse("\"" + arg + "\" is not the address of a declared " + c_type(t));
    if (mode != PointerMode::Host) return refuse("\"" + arg + "\" is a host scalar read in device pointer mode");
    return d->second.value;
  }

  // An integer expression of the SDFG's symbols, as i64.
  Result<llvm::Value*> integer(const std::string& arg) {
    Result<sym::Expr> e = sym::parse(arg);
    if (!e) return refuse("argument \"" + arg + "\" is not an integer expression");
    Result<llvm::Value*> v = f_.sym(*e);
    if (!v) return refuse("argument \"" + arg + "\": " + v.error().message);
    return f_.b.CreateSExtOrTrunc(*v, f_.b.getInt64Ty());
  }

  // A vector increment: an integer expression that is not a constant below 1.
  Result<llvm::Value*> increment(const std::string& arg) {
    if (Result<sym::Expr> e = sym::parse(arg))
      if (std::optional<int64_t> c = sym::as_integer(*e); c && *c < 1)
        return refuse("increment \"" + arg + "\" is not positive");
    return integer(arg);
  }

  // A connector (optionally cast to `T*`): the device address of its memlet's first element.
  Result<llvm::Value*> pointer(const std::string& arg, ScalarType t, bool output) {
    std::string conn = without_space(arg);
    const std::string cast = std::string("(") + c_type(t) + "*)";
    if (conn.compare(0, cast.size(), cast) == 0) conn = conn.substr(cast.size());
    int e = output ? se_.out_edge_at(cx_.node, conn) : se_.in_edge_at(cx_.node, conn);
    if (e < 0)
      return refuse("\"" + arg + "\" is not an " + (output ? "output" : "input") + " connector with a memlet");
    const ir::Memlet& m = se_.state.edge(e)->memlet;
    if (m.is_empty()) return refuse("connector \"" + conn + "\" has an empty memlet");
    if (!m.wcr.empty()) return refuse("connector \"" + conn + "\" has a write-conflict resolution");
    Result<codegen::DataBinding> d = f_.data(m.data);
    if (!d) return d.take_error();
    if (d->desc->storage != ir::StorageType::GPU_Global)
      return refuse("connector \"" + conn + "\" reaches \"" + m.data + "\" in " + ir::to_string(d->desc->storage) +
                    " memory, not GPU_Global");
    if (d->desc->dtype.scalar != t)
      return refuse("connector \"" + conn + "\" holds " + std::string(tasklet::type_name(d->desc->dtype.scalar)) + ", not " +
                    tasklet::type_name(t));
    data_[conn] = m.data;
    return codegen::subset_pointer(f_, *d, m.subset.rank() ? m.subset : codegen::full_subset(*d->desc));
  }

  // op(X) of a column-major matrix with leading dimension ld as strides (rs, cs).
  Result<std::pair<llvm::Value*, llvm::Value*>> op_strides(const std::string& op, llvm::Value* ld) {
    llvm::Value* one = f_.b.getInt64(1);
    if (op == "CUBLAS_OP_N") return std::make_pair(one, ld);
    if (op == "CUBLAS_OP_T") return std::make_pair(ld, one);
    return refuse("operation \"" + op + "\" is not CUBLAS_OP_N or CUBLAS_OP_T");
  }

  Status lower(const codegen::CppCall& call, PointerMode mode) {
    const std::string& fn = call.function;
    const std::map<std::string, size_t>& arity = product_arity();
    const std::string op = fn.substr(7);
    const ScalarType t = fn[6] == 'S' ? ScalarType::Float32 : ScalarType::Float64;
    const std::vector<std::string>& a = call.args;
    if (a.size() != arity.at(op))
      return refuse("\"" + fn + "\" takes " + std::to_string(arity.at(op)) + " arguments, got " + std::to_string(a.size()));
    if (without_space(a[0]) != "__dace_cublas_handle") return refuse("handle \"" + a[0] + "\"");
    llvm::Value* zero = f_.b.getInt64(0);
    llvm::Value* one = f_.b.getInt64(1);
    GemmCall g;
    g.type = t;
    if (op == "gemm") {
      // C (m x n) = alpha op(A) (m x k) op(B) (k x n) + beta C, all column-major.
      Result<llvm::Value*> m = integer(a[3]), n = integer(a[4]), k = integer(a[5]);
      if (!m) return m.take_error();
      if (!n) return n.take_error();
      if (!k) return k.take_error();
      Result<double> alpha = scalar(a[6], t, mode), beta = scalar(a[11], t, mode);
      if (!alpha) return alpha.take_error();
      if (!beta) return beta.take_error();
      Result<llvm::Value*> pa = pointer(a[7], t, false), lda = integer(a[8]), pb = pointer(a[9], t, false),
                           ldb = integer(a[10]), pc = pointer(a[12], t, true), ldc = integer(a[13]);
      for (Result<llvm::Value*>* r : {&pa, &lda, &pb, &ldb, &pc, &ldc})
        if (!*r) return r->take_error();
      auto sa = op_strides(without_space(a[1]), *lda), sb = op_strides(without_space(a[2]), *ldb);
      if (!sa) return sa.take_error();
      if (!sb) return sb.take_error();
      g.m = *m, g.n = *n, g.k = *k, g.alpha = *alpha, g.beta = *beta;
      g.a = GemmOperand{*pa, sa->first, sa->second};
      g.b = GemmOperand{*pb, sb->first, sb->second};
      g.c = GemmOperand{*pc, one, *ldc};
      DACE_TRY(check_in_place_c(*beta, a[12]));
    } else if (op == "gemv") {
      // y = alpha op(A) x + beta y, A (m x n) column-major: a product with one column.
      Result<llvm::Value*> m = integer(a[2]), n = integer(a[3]);
      if (!m) return m.take_error();
      if (!n) return n.take_error();
      Result<double> alpha = scalar(a[4], t, mode), beta = scalar(a[9], t, mode);
      if (!alpha) return alpha.take_error();
      if (!beta) return beta.take_error();
      Result<llvm::Value*> pa = pointer(a[5], t, false), lda = integer(a[6]), px = pointer(a[7], t, false),
                           incx = increment(a[8]), py = pointer(a[10], t, true), incy = increment(a[11]);
      for (Result<llvm::Value*>* r : {&pa, &lda, &px, &incx, &py, &incy})
        if (!*r) return r->take_error();
      auto sa = op_strides(without_space(a[1]), *lda);
      if (!sa) return sa.take_error();
      const bool transposed = without_space(a[1]) == "CUBLAS_OP_T";
      g.m = transposed ? *n : *m, g.k = transposed ? *m : *n, g.n = one;
      g.alpha = *alpha, g.beta = *beta;
      g.a = GemmOperand{*pa, sa->first, sa->second};
      g.b = GemmOperand{*px, *incx, zero};
      g.c = GemmOperand{*py, *incy, zero};
      DACE_TRY(check_in_place_c(*beta, a[10]));
    } else {
      // *result = x . y (device pointer mode: the result is in device memory).
      if (mode != PointerMode::Device) return refuse("a dot product in host pointer mode");
      Result<llvm::Value*> n = integer(a[1]), px = pointer(a[2], t, false), incx = increment(a[3]),
                           py = pointer(a[4], t, false), incy = increment(a[5]), pr = pointer(a[6], t, true);
      for (Result<llvm::Value*>* r : {&n, &px, &incx, &py, &incy, &pr})
        if (!*r) return r->take_error();
      g.m = one, g.n = one, g.k = *n, g.alpha = 1, g.beta = 0;
      g.a = GemmOperand{*px, zero, *incx};
      g.b = GemmOperand{*py, *incy, zero};
      g.c = GemmOperand{*pr, zero, zero};
    }
    g.where = cx_.where() + " (" + fn + ")";
    g.se = &se_;
    g.node = cx_.node;
    return emit_gemm_call(f_, g);
  }

  // With beta != 0 the call reads C where it writes it: a separate C input (DaCe's `_cin`)
  // must be that same container.
  Status check_in_place_c(double beta, const std::string& c_arg) {
    if (beta == 0) return Status::success();
    std::string c = without_space(c_arg);
    if (size_t p = c.find(')'); p != std::string::npos) c = c.substr(p + 1);
    const auto& t = static_cast<const ir::Tasklet&>(*se_.state.node(cx_.node));
    for (const auto& [conn, type] : t.in_connectors) {
      (void)type;
      if (data_.count(conn)) continue;
      int e = se_.in_edge_at(cx_.node, conn);
      if (e >= 0 && se_.state.edge(e)->memlet.data != data_[c])
        return refuse("input \"" + conn + "\" is not the output's container, which the call updates in place");
    }
    return Status::success();
  }

  codegen::CppTaskletContext& cx_;
  codegen::StateEmitter& se_;
  codegen::Frame& f_;
  std::map<std::string, Declared> declared_;
  std::map<std::string, std::string> data_;  // connector -> container, of the call's pointers
};

}  // namespace

bool is_cublas_tasklet(std::string_view code) { return code.find("cublas") != std::string_view::npos; }

Status lower_cublas_tasklet(codegen::CppTaskletContext& context) { return Recognizer(context).run(); }

}  // namespace dace::cuda
