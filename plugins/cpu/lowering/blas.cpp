// MatMul-family nodes through CBLAS (OpenBLAS), when the plugin registry offers the
// "OpenBLAS" implementation of the node's class and libopenblas loaded.
//
// CBLAS describes a matrix by an order (row- or column-major), a transpose flag and a leading
// dimension; our operands are strided views. A 2-D view with unit column stride is a
// row-major matrix (ld = row stride), one with unit row stride a column-major one; anything
// else (two non-unit strides, overlapping rows, sizes beyond CBLAS's 32-bit ints) has no
// CBLAS form. Strides are often symbolic, so the test is emitted and a runtime branch picks
// the loop nest for layouts CBLAS cannot take. The output fixes the order; each input then
// is either in that order (NoTrans) or the other one (Trans).
#include "lowering/blas.h"

#include <llvm/IR/Constants.h>

#include <functional>

#include "codegen/library_matmul.h"
#include "codegen/registry_query.h"
#include "codegen/scalar_ops.h"
#include "codegen/target_lowering.h"
#include "lowering/vendor_prefix.h"

namespace dace::cpu {

// The core's lowering toolkit (frames, operands, scalar operations) is used throughout.
using namespace codegen;

namespace {

// Standard CBLAS enumeration values (cblas.h).
constexpr int32_t kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;

struct Matrix {
  llvm::Value* rows;
  llvm::Value* cols;
  llvm::Value* s0;
  llvm::Value* s1;
};

Matrix matrix_of(const Operand& op) { return Matrix{op.size_values[0], op.size_values[1], op.strides[0], op.strides[1]}; }

class BlasEmitter {
 public:
  BlasEmitter(Frame& f, ScalarType t) : f_(f), b_(f.b), t_(t), prefix_(vendor_type_prefix(t)) {}

  llvm::Value* one() { return b_.getInt64(1); }
  llvm::Value* smax1(llvm::Value* v) { return b_.CreateSelect(b_.CreateICmpSGT(v, one()), v, one()); }
  // Row-major storage: unit column stride, rows at least a row apart.
  llvm::Value* row_fit(const Matrix& m) {
    return b_.CreateAnd(b_.CreateICmpEQ(m.s1, one()), b_.CreateICmpSGE(m.s0, smax1(m.cols)));
  }
  llvm::Value* col_fit(const Matrix& m) {
    return b_.CreateAnd(b_.CreateICmpEQ(m.s0, one()), b_.CreateICmpSGE(m.s1, smax1(m.rows)));
  }
  // 1 <= v <= INT32_MAX, for every CBLAS int.
  llvm::Value* fits_int(llvm::Value* v) {
    return b_.CreateAnd(b_.CreateICmpSGE(v, b_.getInt64(0)), b_.CreateICmpSLE(v, b_.getInt64(INT32_MAX)));
  }
  llvm::Value* inc_ok(llvm::Value* inc) {
    return b_.CreateAnd(b_.CreateICmpSGE(inc, one()), b_.CreateICmpSLE(inc, b_.getInt64(INT32_MAX)));
  }
  llvm::Value* i32(llvm::Value* v) { return b_.CreateTrunc(v, b_.getInt32Ty()); }

  // alpha/beta: by value for real types, by pointer to the value for complex ones.
  llvm::Value* scalar_arg(const ScaleFactor& s, const char* name) {
    llvm::Value* v = factor_value(b_, s, t_);
    if (!tasklet::is_complex(t_)) return v;
    llvm::Type* st = storage_type(f_.mc.ctx, t_);
    llvm::AllocaInst* slot = f_.entry_alloca(st, name);
    store_scalar(b_, {v, t_}, slot);
    return slot;
  }
  llvm::Type* scalar_param_type() {
    return tasklet::is_complex(t_) ? static_cast<llvm::Type*>(b_.getPtrTy()) : value_type(f_.mc.ctx, t_);
  }

  llvm::FunctionCallee declare(const std::string& name, llvm::Type* ret, std::vector<llvm::Type*> params) {
    return f_.mc.module.getOrInsertFunction(name, llvm::FunctionType::get(ret, params, false));
  }

  // ?gemm(order, transA, transB, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc)
  void gemm(llvm::Value* order, llvm::Value* ta, llvm::Value* tb, llvm::Value* m, llvm::Value* n, llvm::Value* k,
            const ScaleFactor& alpha, llvm::Value* a, llvm::Value* lda, llvm::Value* bm, llvm::Value* ldb,
            const ScaleFactor& beta,
            llvm::Value* c, llvm::Value* ldc) {
    llvm::Type* i = b_.getInt32Ty();
    llvm::Type* p = b_.getPtrTy();
    llvm::Type* s = scalar_param_type();
    auto fn = declare(std::string("cblas_") + prefix_ + "gemm", b_.getVoidTy(), {i, i, i, i, i, i, s, p, i, p, i, s, p, i});
    b_.CreateCall(fn, {order, ta, tb, i32(m), i32(n), i32(k), scalar_arg(alpha, "blas.alpha"), a, i32(lda), bm,
                       i32(ldb), scalar_arg(beta, "blas.beta"), c, i32(ldc)});
  }

  // ?gemv(order, trans, M, N, alpha, A, lda, x, incx, beta, y, incy)
  void gemv(llvm::Value* order, llvm::Value* trans, llvm::Value* m, llvm::Value* n, const ScaleFactor& alpha,
            llvm::Value* a, llvm::Value* lda, llvm::Value* x, llvm::Value* incx, const ScaleFactor& beta, llvm::Value* y,
            llvm::Value* incy) {
    llvm::Type* i = b_.getInt32Ty();
    llvm::Type* p = b_.getPtrTy();
    llvm::Type* s = scalar_param_type();
    auto fn = declare(std::string("cblas_") + prefix_ + "gemv", b_.getVoidTy(), {i, i, i, i, s, p, i, p, i, s, p, i});
    b_.CreateCall(fn, {order, trans, i32(m), i32(n), scalar_arg(alpha, "blas.alpha"), a, i32(lda), x, i32(incx),
                       scalar_arg(beta, "blas.beta"), y, i32(incy)});
  }

  // The unconjugated dot product as a value of type t.
  llvm::Value* dot(llvm::Value* n, llvm::Value* x, llvm::Value* incx, llvm::Value* y, llvm::Value* incy) {
    llvm::Type* i = b_.getInt32Ty();
    llvm::Type* p = b_.getPtrTy();
    if (!tasklet::is_complex(t_)) {
      auto fn = declare(std::string("cblas_") + prefix_ + "dot", value_type(f_.mc.ctx, t_), {i, p, i, p, i});
      return b_.CreateCall(fn, {i32(n), x, i32(incx), y, i32(incy)});
    }
    // Complex results come back through a pointer (the *_sub forms avoid struct returns).
    llvm::AllocaInst* out = f_.entry_alloca(storage_type(f_.mc.ctx, t_), "blas.dot");
    auto fn = declare(std::string("cblas_") + prefix_ + "dotu_sub", b_.getVoidTy(), {i, p, i, p, i, p});
    b_.CreateCall(fn, {i32(n), x, i32(incx), y, i32(incy), out});
    return load_scalar(b_, out, t_).value;
  }

 private:
  Frame& f_;
  llvm::IRBuilder<>& b_;
  ScalarType t_;
  char prefix_;
};

// The CBLAS form of one product; `ok` is its runtime applicability.
struct BlasPlan {
  llvm::Value* ok = nullptr;
  std::function<void()> emit;
};

// Whether `x` is `y` in memory: same first element and strides (sizes match by validation).
llvm::Value* same_place(llvm::IRBuilder<>& b, const Operand& x, const Operand& y) {
  llvm::Value* ok = b.CreateICmpEQ(x.base, y.base);
  if (x.strides.size() != y.strides.size()) return b.getFalse();
  for (size_t k = 0; k < x.strides.size(); ++k) ok = b.CreateAnd(ok, b.CreateICmpEQ(x.strides[k], y.strides[k]));
  return ok;
}

bool operand_rank(const MatMulOperands& m, size_t ra, size_t rb) { return m.a.sizes.size() == ra && m.b.sizes.size() == rb; }

// y = op(M) v into the vector m.c through ?gemv; `trans` is kTrans for v M (= M^T v).
BlasPlan plan_gemv(Frame& f, const MatMulOperands& m, const std::shared_ptr<BlasEmitter>& blas, const Operand& mat,
                   const Operand& vec, int32_t trans) {
  llvm::IRBuilder<>& b = f.b;
  Matrix M = matrix_of(mat);
  llvm::Value* m_row = blas->row_fit(M);
  llvm::Value* ld_m = b.CreateSelect(m_row, M.s0, M.s1);
  llvm::Value* ok = b.CreateOr(m_row, blas->col_fit(M));
  for (llvm::Value* v : {M.rows, M.cols, ld_m}) ok = b.CreateAnd(ok, blas->fits_int(v));
  ok = b.CreateAnd(ok, b.CreateAnd(blas->inc_ok(vec.strides[0]), blas->inc_ok(m.c.strides[0])));
  // ?gemv reads y where it writes it: a C input must be C itself.
  if (m.cin && !m.beta.is(0.0)) ok = b.CreateAnd(ok, same_place(b, *m.cin, m.c));
  BlasPlan plan;
  plan.ok = ok;
  // mat and vec are members of m, which outlives the plan like f does.
  plan.emit = [&f, &m, &mat, &vec, blas, trans, m_row, ld_m, M]() {
    llvm::IRBuilder<>& ib = f.b;
    llvm::Value* order = ib.CreateSelect(m_row, ib.getInt32(kRowMajor), ib.getInt32(kColMajor));
    blas->gemv(order, ib.getInt32(trans), M.rows, M.cols, m.alpha, mat.base, ld_m, vec.base, vec.strides[0], m.beta,
               m.c.base, m.c.strides[0]);
  };
  return plan;
}

std::optional<BlasPlan> plan_blas(Frame& f, const MatMulOperands& m) {
  ScalarType t = m.c.type;
  if (!vendor_type_prefix(t) || m.a.type != t || m.b.type != t) return std::nullopt;
  // A separate C input is free when beta ignores it; otherwise BLAS reads C where it writes
  // it, so C_in must be C itself (checked at run time below: same address and strides).
  const bool c_in_place = m.cin && !m.beta.is(0.0);
  // A WCR output accumulates; inside a parallel region another thread may write it too.
  if (!m.c.wcr.empty() && f.parallel_context) return std::nullopt;
  llvm::IRBuilder<>& b = f.b;
  auto blas = std::make_shared<BlasEmitter>(f, t);
  size_t rc = m.c.sizes.size();
  if (operand_rank(m, 2, 2) && rc == 2) {
    Matrix A = matrix_of(m.a), B = matrix_of(m.b), C = matrix_of(m.c);
    llvm::Value* c_row = blas->row_fit(C);
    llvm::Value* c_ok = b.CreateOr(c_row, blas->col_fit(C));
    llvm::Value* a_row = blas->row_fit(A);
    llvm::Value* a_ok = b.CreateOr(a_row, blas->col_fit(A));
    llvm::Value* b_row = blas->row_fit(B);
    llvm::Value* b_ok = b.CreateOr(b_row, blas->col_fit(B));
    llvm::Value* ld_c = b.CreateSelect(c_row, C.s0, C.s1);
    llvm::Value* ld_a = b.CreateSelect(a_row, A.s0, A.s1);
    llvm::Value* ld_b = b.CreateSelect(b_row, B.s0, B.s1);
    llvm::Value* ok = b.CreateAnd(c_ok, b.CreateAnd(a_ok, b_ok));
    if (c_in_place) ok = b.CreateAnd(ok, same_place(b, *m.cin, m.c));
    for (llvm::Value* v : {A.rows, A.cols, B.cols, ld_a, ld_b, ld_c}) ok = b.CreateAnd(ok, blas->fits_int(v));
    BlasPlan plan;
    plan.ok = ok;
    plan.emit = [&f, &m, blas, c_row, a_row, b_row, ld_a, ld_b, ld_c, A, B]() {
      llvm::IRBuilder<>& ib = f.b;
      llvm::Value* order = ib.CreateSelect(c_row, ib.getInt32(kRowMajor), ib.getInt32(kColMajor));
      auto trans = [&](llvm::Value* row) {
        return ib.CreateSelect(ib.CreateICmpEQ(row, c_row), ib.getInt32(kNoTrans), ib.getInt32(kTrans));
      };
      blas->gemm(order, trans(a_row), trans(b_row), A.rows, B.cols, A.cols, m.alpha, m.a.base, ld_a, m.b.base, ld_b,
                 m.beta, m.c.base, ld_c);
    };
    return plan;
  }
  if (operand_rank(m, 2, 1) && rc == 1) return plan_gemv(f, m, blas, m.a, m.b, kNoTrans);  // y = A x
  if (operand_rank(m, 1, 2) && rc == 1) return plan_gemv(f, m, blas, m.b, m.a, kTrans);    // y = x B = B^T x
  if (operand_rank(m, 1, 1) && rc == 0) {  // dot product into one element
    llvm::Value* ok = blas->fits_int(m.a.size_values[0]);
    ok = b.CreateAnd(ok, b.CreateAnd(blas->inc_ok(m.a.strides[0]), blas->inc_ok(m.b.strides[0])));
    BlasPlan plan;
    plan.ok = ok;
    plan.emit = [&f, &m, blas, t]() {
      llvm::IRBuilder<>& ib = f.b;
      llvm::Value* r = blas->dot(m.a.size_values[0], m.a.base, m.a.strides[0], m.b.base, m.b.strides[0]);
      auto mul = [&](llvm::Value* x, llvm::Value* y) {
        return binary_op(ib, tasklet::BinOpKind::Mult, {x, t}, {y, t}, t).value().value;
      };
      auto add = [&](llvm::Value* x, llvm::Value* y) {
        return binary_op(ib, tasklet::BinOpKind::Add, {x, t}, {y, t}, t).value().value;
      };
      if (!m.alpha.is(1.0)) r = mul(factor_value(ib, m.alpha, t), r);
      if (!m.beta.is(0.0)) {
        // C's input may be another container: the result is stored only after it is read.
        llvm::Value* cur = load_scalar(ib, m.cin ? m.cin->base : m.c.base, t).value;
        llvm::Value* updated = add(m.beta.is(1.0) ? cur : mul(factor_value(ib, m.beta, t), cur), r);
        // A beta that is 0 at run time ignores C, as ?gemv/?gemm and the loop nest do.
        llvm::Value* beta_is_zero = factor_is_zero_at_run_time(ib, m.beta, t);
        r = beta_is_zero ? ib.CreateSelect(beta_is_zero, r, updated) : updated;
      }
      store_scalar(ib, {r, t}, m.c.base);
    };
    return plan;
  }
  return std::nullopt;  // batched products and anything else stay loop nests
}

// Emits the product through CBLAS when the options, the node and the operand layouts allow
// it (a runtime layout test picks `loops` otherwise, for strides known only at run time);
// calls `loops` alone when CBLAS cannot apply at all.
Status emit_blas_or_loops(StateEmitter& se, int node, const MatMulOperands& ops, const std::function<Status()>& loops) {
  Frame& f = *se.f;
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  size_t dot = n.classpath.rfind('.');
  std::string cls = dot == std::string::npos ? n.classpath : n.classpath.substr(dot + 1);
  // An explicit "pure" implementation asks for the loop nest.
  std::string impl = n.implementation;
  // Device code (a kernel's thread) cannot call the host's BLAS: it runs the loop nest, as
  // DaCe's pure expansion does inside GPU kernels.
  if (impl == "pure" || is_device_code(f) || !vendor_implementation(f.mc.options, blas_classpath(cls), "OpenBLAS"))
    return loops();
  std::optional<BlasPlan> plan = plan_blas(f, ops);
  if (!plan) return loops();
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(plan->ok)) {
    if (c->isZero()) return loops();
    plan->emit();
    return Status::success();
  }
  llvm::BasicBlock* blas_bb = llvm::BasicBlock::Create(f.mc.ctx, "blas", f.fn);
  llvm::BasicBlock* loops_bb = llvm::BasicBlock::Create(f.mc.ctx, "blas.fallback", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "blas.done", f.fn);
  f.b.CreateCondBr(plan->ok, blas_bb, loops_bb);
  f.b.SetInsertPoint(blas_bb);
  plan->emit();
  f.b.CreateBr(done);
  f.b.SetInsertPoint(loops_bb);
  DACE_TRY(loops());
  f.b.CreateBr(done);
  f.b.SetInsertPoint(done);
  return Status::success();
}

}  // namespace

const std::vector<std::string>& blas_classpaths() {
  static const std::vector<std::string> classes = {blas_classpath("MatMul"), blas_classpath("Gemm"),
                                                   blas_classpath("Gemv"), blas_classpath("Dot")};
  return classes;
}

Status lower_blas_node(LibraryNodeContext& context) {
  StateEmitter& se = context.se;
  const int node = context.node_id;
  Result<MatMulOperands> ops = matmul_operands(se, node);
  if (!ops) return ops.take_error();
  return emit_blas_or_loops(se, node, *ops, [&]() { return emit_matmul_loops(se, node, *ops); });
}

}  // namespace dace::cpu
