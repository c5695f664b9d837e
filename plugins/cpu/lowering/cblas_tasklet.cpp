// C++ tasklets that are one CBLAS call, as DaCe's OpenBLAS expansions of Gemm/Gemv/Dot write
// them into *.opt.sdfg files, e.g.
//   cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NJ, NI, NK, double(1), _b, NJ,
//               _a, NK, double(0), _c, NJ);
//   _result = cblas_ddot(n, _x, 1, _y, 1);
// Complex variants (cblas_[cz]gemm/gemv) pass alpha and beta by address, declared first:
//   dace::complex128 __alpha = dace::complex128(1);
//   dace::complex128 __beta = dace::complex128(0);
//   cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, &__alpha, _b, N, _a, N, &__beta, _c, N);
// A restricted call syntax is parsed: CBLAS enumerators, connector names (pointers to the
// first element of the connector's memlet), numbers or `type(number)` for alpha/beta, and
// symbolic integer expressions for sizes, leading dimensions and increments. The same CBLAS
// function is then called from the generated code. `cblas_?omatcopy` (DaCe's OpenBLAS
// expansion of Transpose) is lowered to a loop nest instead: it is a scaled copy, which the
// loop vectorizer handles as well as OpenBLAS, and it then works without OpenBLAS too.
// Anything else is not recognized, and the caller reports the tasklet as unsupported with the
// reason given here.
#include <cctype>
#include <cstdlib>
#include <map>

#include "codegen/addressing.h"
#include "codegen/cpp_call.h"
#include "codegen/loops.h"
#include "codegen/registry_query.h"
#include "codegen/scalar_ops.h"
#include "lowering/blas.h"
#include "lowering/lapack.h"

namespace dace::cpu {

// The core's lowering toolkit (frames, operands, scalar operations) is used throughout.
using namespace codegen;

namespace {

// Leading scalar declarations of a C++ tasklet, by name; the rest is the call.
Result<std::pair<std::map<std::string, CppScalarDeclaration>, std::string>> split_declarations(const std::string& code) {
  std::map<std::string, CppScalarDeclaration> decls;
  std::string rest = code;
  for (;;) {
    std::string t = trim_cpp(rest);
    size_t semi = t.find(';');
    if (semi == std::string::npos) return std::make_pair(decls, t);
    Result<std::optional<CppScalarDeclaration>> d = parse_cpp_scalar_declaration(t.substr(0, semi));
    if (!d) return d.take_error();
    if (!*d) return std::make_pair(decls, t);
    decls[(*d)->name] = **d;
    rest = t.substr(semi + 1);
  }
}

// DaCe writes integer powers in sizes as `dace::math::pow(R, K - 1)`; symbolic text says pow(...).
std::string strip_math_namespace(std::string s) {
  const std::string ns = "dace::math::";
  for (size_t p = s.find(ns); p != std::string::npos; p = s.find(ns, p)) s.erase(p, ns.size());
  return s;
}

// Argument kinds of the supported functions: E enum, I int, S alpha/beta scalar, P pointer.
const std::map<std::string, std::string>& signatures() {
  static const std::map<std::string, std::string> sigs = {
      {"gemm", "EEEIIISPIPISPI"}, {"gemv", "EEIISPIPISPI"}, {"dot", "IPIPI"}, {"omatcopy", "EEIISPIPI"}};
  return sigs;
}

std::optional<int32_t> cblas_enum(const std::string& s) {
  static const std::map<std::string, int32_t> values = {{"CblasRowMajor", 101}, {"CblasColMajor", 102},
                                                        {"CblasNoTrans", 111},  {"CblasTrans", 112},
                                                        {"CblasConjTrans", 113}};
  auto it = values.find(s);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

// B := alpha * op(A) for cblas_?omatcopy(order, trans, rows, cols, alpha, A, lda, B, ldb):
// element (i, j) of the rows x cols matrix A lies at i*lda + j (row-major) or i + j*lda
// (column-major); op(A) is A or its transpose (conjugation is the identity on reals), stored
// with leading dimension ldb in the same order.
void emit_omatcopy(Frame& f, ScalarType type, const std::vector<llvm::Value*>& v, bool row_major, bool transpose) {
  llvm::IRBuilder<>& b = f.b;
  auto wide = [&](llvm::Value* x) { return b.CreateSExt(x, b.getInt64Ty()); };
  llvm::Value *rows = wide(v[2]), *cols = wide(v[3]), *lda = wide(v[6]), *ldb = wide(v[8]);
  auto offset = [&](llvm::Value* r, llvm::Value* c, llvm::Value* ld) {
    return row_major ? b.CreateAdd(b.CreateMul(r, ld), c) : b.CreateAdd(r, b.CreateMul(c, ld));
  };
  llvm::Type* elem = storage_type(f.mc.ctx, type);
  CountedLoop li = begin_loop(b, b.getInt64(0), rows, "omat.i");
  CountedLoop lj = begin_loop(b, b.getInt64(0), cols, "omat.j");
  TypedValue a = load_scalar(b, b.CreateGEP(elem, v[5], offset(li.iv, lj.iv, lda)), type);
  llvm::Value* scaled = b.CreateFMul(v[4], a.value);
  llvm::Value* dst = transpose ? offset(lj.iv, li.iv, ldb) : offset(li.iv, lj.iv, ldb);
  store_scalar(b, {scaled, type}, b.CreateGEP(elem, v[7], dst));
  end_loop(b, lj);
  end_loop(b, li);
}

}  // namespace

Status emit_cpp_blas_tasklet(StateEmitter& se, int node) {
  const auto& t = static_cast<const ir::Tasklet&>(*se.state.node(node));
  Frame& f = *se.f;
  auto unsupported = [&](const std::string& why) {
    return make_error(Code::Unsupported, se.where(node) + ": C++ tasklet is not a recognized CBLAS call (" + why + ")");
  };
  // LAPACKE calls of DaCe's LAPACK expansions, and Cholesky's zeroing tasklet.
  if (is_cpp_lapack_tasklet(t.code.code)) return emit_cpp_lapack_tasklet(se, node);
  auto split = split_declarations(t.code.code);
  if (!split) return unsupported(split.error().message);
  const std::map<std::string, CppScalarDeclaration>& declared = split->first;
  Result<CppCall> call = parse_cpp_call(split->second);
  if (!call) return unsupported(call.error().message);
  const std::string& fn = call->function;
  if (fn.rfind("cblas_", 0) != 0 || fn.size() < 8) return unsupported("call of \"" + fn + "\"");
  char prefix = fn[6];
  std::string op = fn.substr(7);
  ScalarType type = prefix == 's'   ? ScalarType::Float32
                    : prefix == 'd' ? ScalarType::Float64
                    : prefix == 'c' ? ScalarType::Complex64
                    : prefix == 'z' ? ScalarType::Complex128
                                    : ScalarType::Unknown;
  bool is_complex_call = prefix == 'c' || prefix == 'z';
  if (is_complex_call && (op == "dot" || op == "omatcopy"))
    return unsupported("\"" + fn + "\" is not one of cblas_[sd]{gemm,gemv,dot,omatcopy}, cblas_[cz]{gemm,gemv}");
  if (type == ScalarType::Unknown || !signatures().count(op))
    return unsupported("\"" + fn + "\" is not one of cblas_[sd]{gemm,gemv,dot,omatcopy}, cblas_[cz]{gemm,gemv}");
  const std::string& sig = signatures().at(op);
  if (call->args.size() != sig.size())
    return unsupported("\"" + fn + "\" takes " + std::to_string(sig.size()) + " arguments, got " +
                       std::to_string(call->args.size()));
  if (op == "dot" ? call->result.empty() : !call->result.empty())
    return unsupported(op == "dot" ? "the dot product is not assigned to a connector" : "a result is assigned");
  if (op != "omatcopy" && !vendor_implementation(f.mc.options, blas_classpath(op == "gemm" ? "Gemm" : op == "gemv" ? "Gemv" : "Dot"),
                             "OpenBLAS"))
    return unsupported("no loaded plugin provides OpenBLAS");

  llvm::IRBuilder<>& b = f.b;
  // Pointer of a connector: the first element of its memlet.
  auto pointer = [&](const std::string& conn, bool* is_output) -> Result<llvm::Value*> {
    int e = se.in_edge_at(node, conn);
    *is_output = false;
    if (e < 0) {
      e = se.out_edge_at(node, conn);
      *is_output = true;
    }
    if (e < 0) return unsupported("\"" + conn + "\" is not a connector with a memlet");
    const ir::Memlet& m = se.state.edge(e)->memlet;
    if (m.is_empty()) return unsupported("connector \"" + conn + "\" has an empty memlet");
    if (!m.wcr.empty()) return unsupported("connector \"" + conn + "\" has a write-conflict resolution");
    Result<DataBinding> d = f.data(m.data);
    if (!d) return d.take_error();
    if (d->desc->dtype.scalar != type)
      return unsupported("connector \"" + conn + "\" holds " + tasklet::type_name(d->desc->dtype.scalar) + ", not " +
                         tasklet::type_name(type));
    return subset_pointer(f, *d, m.subset.rank() ? m.subset : full_subset(*d->desc));
  };

  std::vector<llvm::Value*> values;
  std::vector<llvm::Type*> types;
  for (size_t i = 0; i < sig.size(); ++i) {
    const std::string& a = call->args[i];
    switch (sig[i]) {
      case 'E': {
        std::optional<int32_t> v = cblas_enum(a);
        if (!v) return unsupported("argument " + std::to_string(i + 1) + " \"" + a + "\" is not a CBLAS enumerator");
        values.push_back(b.getInt32(*v));
        types.push_back(b.getInt32Ty());
        break;
      }
      case 'S': {
        if (is_complex_call) {
          // By address: `&name` of a declared scalar, materialized in an entry-block slot.
          std::string name = a.size() > 1 && a[0] == '&' ? trim_cpp(a.substr(1)) : std::string();
          auto d = declared.find(name);
          if (d == declared.end())
            return unsupported("argument " + std::to_string(i + 1) + " \"" + a + "\" is not the address of a declared scalar");
          llvm::Type* ct = value_type(f.mc.ctx, type);
          llvm::AllocaInst* slot = f.entry_alloca(ct, name);
          ScalarType part = type == ScalarType::Complex64 ? ScalarType::Float32 : ScalarType::Float64;
          b.CreateStore(make_complex(b, type, constant_float(b, part, d->second.re), constant_float(b, part, d->second.im)), slot);
          values.push_back(slot);
          types.push_back(b.getPtrTy());
          break;
        }
        std::optional<double> v = parse_cpp_number(a);
        if (!v) return unsupported("argument " + std::to_string(i + 1) + " \"" + a + "\" is not a number");
        values.push_back(constant_float(b, type, *v));
        types.push_back(value_type(f.mc.ctx, type));
        break;
      }
      case 'P': {
        bool out = false;
        Result<llvm::Value*> p = pointer(a, &out);
        if (!p) return p.take_error();
        values.push_back(*p);
        types.push_back(b.getPtrTy());
        break;
      }
      default: {  // 'I'
        Result<sym::Expr> e = sym::parse(strip_math_namespace(a));
        if (!e) return unsupported("argument " + std::to_string(i + 1) + " \"" + a + "\" is not an integer expression");
        Result<llvm::Value*> v = f.sym(*e);
        if (!v) return unsupported("argument " + std::to_string(i + 1) + " \"" + a + "\": " + v.error().message);
        values.push_back(b.CreateTrunc(*v, b.getInt32Ty()));
        types.push_back(b.getInt32Ty());
        break;
      }
    }
  }
  if (op == "omatcopy") {
    bool row_major = call->args[0] == "CblasRowMajor";
    bool transpose = call->args[1] != "CblasNoTrans";
    emit_omatcopy(f, type, values, row_major, transpose);
    return Status::success();
  }
  llvm::Type* ret = op == "dot" ? value_type(f.mc.ctx, type) : b.getVoidTy();
  llvm::FunctionCallee callee = f.mc.module.getOrInsertFunction(fn, llvm::FunctionType::get(ret, types, false));
  llvm::Value* r = b.CreateCall(callee, values);
  if (op == "dot") {
    bool out = false;
    Result<llvm::Value*> p = pointer(call->result, &out);
    if (!p) return p.take_error();
    if (!out) return unsupported("\"" + call->result + "\" is not an output connector");
    store_scalar(b, {r, type}, *p);
  }
  return Status::success();
}

}  // namespace dace::cpu
