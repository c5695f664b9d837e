// LAPACK / linear-algebra library nodes through LAPACKE, row-major (lapack.h).
//
// Semantics follow DaCe's dace.libraries.linalg and dace.libraries.lapack nodes:
//   Solve     _ain (n x n), _bin (n x k or n)  -> _bout = A^-1 B        (getrf + getrs)
//   Inv       _ain (n x n)                     -> _aout = A^-1          (getrf + getri)
//   Cholesky  _a (n x n), property lower       -> _b = L (A = L L^T) or U (A = U^T U), the
//                                                 other triangle zeroed  (potrf)
//   Getrf     _xin (m x n) -> _xout (LU factors), _ipiv, _res (info)
//   Getri     _xin, _ipiv  -> _xout (inverse), _res
//   Getrs     _a, _rhs_in, _ipiv -> _rhs_out, _res
//   Potrf     _xin, property lower -> _xout (the factor in one triangle, the other untouched), _res
//   Potrs     _a (factor), _bin, property lower -> _bout, _res   (DaCe main; not in 1.0.2)
// Solve, Inv and Cholesky keep their input; the LAPACK nodes work in place when input and
// output are the same memory, as DaCe's expansions use them.
//
// Operands are strided views. One LAPACKE can take in place is a row-major matrix: unit column
// stride (or one column) and a row stride of at least the column count; the test is emitted
// (strides are often symbolic) and a view that fails it is staged through a contiguous heap
// temporary, copied in before the call and back after it. Solve's A is always copied (getrf
// overwrites it; DaCe's Solve leaves _ain intact), as are the pivots LAPACKE needs where the
// node has no _ipiv connector.
#include <llvm/IR/Constants.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "codegen/allocation.h"
#include "lowering/lapack.h"
#include "codegen/library_nodes.h"
#include "codegen/loops.h"
#include "codegen/registry_query.h"
#include "lowering/vendor_prefix.h"

namespace dace::cpu {

// The core's lowering toolkit (frames, operands, scalar operations) is used throughout.
using namespace codegen;

const std::vector<std::string>& lapack_classpaths() {
  static const std::vector<std::string> classes = {
      "dace.libraries.linalg.nodes.solve.Solve", "dace.libraries.linalg.nodes.inv.Inv",
      "dace.libraries.linalg.nodes.cholesky.Cholesky", "dace.libraries.lapack.nodes.getrf.Getrf",
      "dace.libraries.lapack.nodes.getri.Getri", "dace.libraries.lapack.nodes.getrs.Getrs",
      "dace.libraries.lapack.nodes.potrf.Potrf", "dace.libraries.lapack.nodes.potrs.Potrs",
  };
  return classes;
}

bool lapacke_available(const LowerOptions& options, const std::string& classpath) {
  return vendor_implementation(options, classpath, "OpenBLAS");
}

namespace {

int64_t element_bytes(ScalarType t) { return std::max(1, ir::scalar_type_size(t)); }

// A matrix view: element (i, j) at base + i*s0 + j*s1.
struct Mat {
  llvm::Value* rows;
  llvm::Value* cols;
  llvm::Value* s0;
  llvm::Value* s1;
  llvm::Value* base;
  ScalarType type;
};

// A buffer LAPACKE works on: the view itself, or a contiguous temporary standing in for it.
struct Staged {
  Mat view;
  llvm::Value* direct = nullptr;  // i1: `view` is used in place
  llvm::Value* ptr = nullptr;
  llvm::Value* ld = nullptr;      // i64
  llvm::Value* temp = nullptr;    // slot holding the temporary (null when direct)
};

class LapackEmitter {
 public:
  LapackEmitter(StateEmitter& se, int node) : se_(se), f_(*se.f), b_(f_.b), node_(node) {}

  std::string where() const { return se_.where(node_); }
  Error invalid(const std::string& why) const { return make_error(Code::InvalidSdfg, where() + ": " + why); }
  Error unsupported(const std::string& why) const { return make_error(Code::Unsupported, where() + ": " + why); }

  llvm::Value* i64(int64_t v) { return b_.getInt64(v); }
  llvm::Value* smax1(llvm::Value* v) { return b_.CreateSelect(b_.CreateICmpSGT(v, i64(1)), v, i64(1)); }

  // A connector's operand as a matrix. Unit dimensions are squeezed (library_operand): rank 2
  // is the matrix, rank 1 a column, rank 0 one element.
  Result<Mat> matrix(const std::string& conn, bool input) {
    Result<Operand> op = library_operand(se_, node_, conn, input);
    if (!op) return op.take_error();
    if (!op->wcr.empty()) return unsupported("connector \"" + conn + "\" has a write-conflict resolution");
    Mat m{i64(1), i64(1), i64(1), i64(1), op->base, op->type};
    switch (op->sizes.size()) {
      case 0: break;
      case 1:
        m.rows = op->size_values[0];
        m.s0 = op->strides[0];
        break;
      case 2:
        m.rows = op->size_values[0];
        m.cols = op->size_values[1];
        m.s0 = op->strides[0];
        m.s1 = op->strides[1];
        break;
      default:
        return unsupported("connector \"" + conn + "\" is a " + std::to_string(op->sizes.size()) +
                           "-dimensional operand, not a matrix");
    }
    return m;
  }

  bool has_in(const std::string& c) const { return se_.in_edge_at(node_, c) >= 0; }
  bool has_out(const std::string& c) const { return se_.out_edge_at(node_, c) >= 0; }

  // Row-major storage LAPACKE takes as is.
  llvm::Value* row_major_fit(const Mat& m) {
    llvm::Value* unit = b_.CreateOr(b_.CreateICmpEQ(m.s1, i64(1)), b_.CreateICmpEQ(m.cols, i64(1)));
    llvm::Value* ld_ok = b_.CreateICmpSGE(m.s0, smax1(m.cols));
    return b_.CreateAnd(unit, b_.CreateAnd(ld_ok, b_.CreateICmpSLE(m.s0, i64(INT32_MAX))));
  }

  void emit_if(llvm::Value* cond, const std::function<void()>& body, const char* name) {
    if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(cond)) {
      if (!c->isZero()) body();
      return;
    }
    llvm::BasicBlock* then = llvm::BasicBlock::Create(f_.mc.ctx, name, f_.fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(f_.mc.ctx, std::string(name) + ".done", f_.fn);
    b_.CreateCondBr(cond, then, done);
    b_.SetInsertPoint(then);
    body();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // dst(i, j) = src(i, j) over dst's rows x cols, converting to dst's element type (pivots
  // move between int64 views and int32 scratch, so each side is addressed in its own type).
  void copy(const Mat& src, const Mat& dst) {
    CountedLoop li = begin_loop(b_, i64(0), dst.rows, "lapack.copy.i");
    CountedLoop lj = begin_loop(b_, i64(0), dst.cols, "lapack.copy.j");
    auto at = [&](const Mat& m) {
      llvm::Value* off = b_.CreateAdd(b_.CreateMul(li.iv, m.s0), b_.CreateMul(lj.iv, m.s1));
      return b_.CreateGEP(storage_type(f_.mc.ctx, m.type), m.base, off);
    };
    TypedValue v = load_scalar(b_, at(src), src.type);
    store_scalar(b_, convert_typed(b_, v, dst.type), at(dst));
    end_loop(b_, lj);
    end_loop(b_, li);
  }

  Mat contiguous(llvm::Value* ptr, const Mat& shape, llvm::Value* ld) {
    return Mat{shape.rows, shape.cols, ld, i64(1), ptr, shape.type};
  }

  // The buffer for `view`, holding `init`'s values (when given) before the call. A view that is
  // not row-major (or fails `direct`, when given) is replaced by a heap temporary.
  Staged stage(const Mat& view, const Mat* init, llvm::Value* direct, const char* name) {
    Staged s;
    s.view = view;
    s.direct = direct ? direct : row_major_fit(view);
    llvm::AllocaInst* ptr_slot = f_.entry_alloca(b_.getPtrTy(), std::string(name) + ".ptr");
    llvm::AllocaInst* ld_slot = f_.entry_alloca(b_.getInt64Ty(), std::string(name) + ".ld");
    llvm::AllocaInst* temp_slot = f_.entry_alloca(b_.getPtrTy(), std::string(name) + ".temp");
    b_.CreateStore(llvm::ConstantPointerNull::get(b_.getPtrTy()), temp_slot);
    llvm::BasicBlock* direct_bb = llvm::BasicBlock::Create(f_.mc.ctx, std::string(name) + ".direct", f_.fn);
    llvm::BasicBlock* temp_bb = llvm::BasicBlock::Create(f_.mc.ctx, std::string(name) + ".temp", f_.fn);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(f_.mc.ctx, std::string(name) + ".staged", f_.fn);
    b_.CreateCondBr(s.direct, direct_bb, temp_bb);

    b_.SetInsertPoint(direct_bb);
    b_.CreateStore(view.base, ptr_slot);
    b_.CreateStore(view.s0, ld_slot);
    // In place (the same memory in and out) needs no copy.
    if (init) emit_if(b_.CreateICmpNE(init->base, view.base), [&] { copy(*init, contiguous(view.base, view, view.s0)); }, "lapack.init");
    b_.CreateBr(done);

    b_.SetInsertPoint(temp_bb);
    llvm::Value* ld = smax1(view.cols);
    llvm::Value* bytes = b_.CreateMul(b_.CreateMul(view.rows, ld), i64(element_bytes(view.type)));
    llvm::Value* temp = heap_allocate(f_, bytes, false);
    b_.CreateStore(temp, ptr_slot);
    b_.CreateStore(ld, ld_slot);
    b_.CreateStore(temp, temp_slot);
    if (init) copy(*init, contiguous(temp, view, ld));
    b_.CreateBr(done);

    b_.SetInsertPoint(done);
    s.ptr = b_.CreateLoad(b_.getPtrTy(), ptr_slot);
    s.ld = b_.CreateLoad(b_.getInt64Ty(), ld_slot);
    s.temp = temp_slot;
    return s;
  }

  // After the call: a temporary goes back to the view (when `write_back`) and is freed.
  void finish(const Staged& s, bool write_back) {
    llvm::Value* temp = b_.CreateLoad(b_.getPtrTy(), s.temp);
    emit_if(b_.CreateNot(s.direct), [&] {
      if (write_back) copy(contiguous(temp, s.view, smax1(s.view.cols)), s.view);
      heap_free(b_, f_.mc, temp);
    }, "lapack.unstage");
  }

  // A heap array of `count` int32 pivots; freed with free_pivots.
  llvm::Value* pivots(llvm::Value* count) {
    return heap_allocate(f_, b_.CreateMul(smax1(count), i64(4)), false);
  }

  llvm::Value* i32(llvm::Value* v) { return b_.CreateTrunc(v, b_.getInt32Ty()); }

  // lapack_int LAPACKE_<prefix><op>(...): arguments already in their C types; char arguments
  // (i8) are sign-extended as the C ABI has it.
  llvm::Value* call(ScalarType t, const std::string& op, const std::vector<llvm::Value*>& args) {
    std::vector<llvm::Type*> types;
    for (llvm::Value* a : args) types.push_back(a->getType());
    std::string name = std::string("LAPACKE_") + vendor_type_prefix(t) + op;
    llvm::FunctionCallee fn =
        f_.mc.module.getOrInsertFunction(name, llvm::FunctionType::get(b_.getInt32Ty(), types, false));
    llvm::CallInst* c = b_.CreateCall(fn, args);
    for (size_t i = 0; i < args.size(); ++i)
      if (args[i]->getType()->isIntegerTy(8)) c->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::SExt);
    return c;
  }

  llvm::Value* layout() { return b_.getInt32(kLapackRowMajor); }
  llvm::Value* character(char c) { return b_.getInt8(static_cast<uint8_t>(c)); }

  // info into the _res connector (when connected), converted to its type.
  Status store_info(llvm::Value* info, const char* conn = "_res") {
    if (!has_out(conn)) return Status::success();
    Result<Operand> op = library_operand(se_, node_, conn, false);
    if (!op) return op.take_error();
    if (!op->sizes.empty()) return invalid(std::string("connector \"") + conn + "\" is not a single element");
    if (!tasklet::is_integer(op->type) && !tasklet::is_float(op->type))
      return invalid(std::string("connector \"") + conn + "\" holds " + tasklet::type_name(op->type));
    store_scalar(b_, convert_typed(b_, {info, ScalarType::Int32}, op->type), op->base);
    return Status::success();
  }


  // The element type LAPACKE works in: the output's, which inputs must share.
  Result<ScalarType> common_type(std::initializer_list<const Mat*> mats) {
    ScalarType t = (*mats.begin())->type;
    if (!vendor_type_prefix(t))
      return unsupported(std::string("LAPACK works on float32, float64, complex64 and complex128, not ") +
                         tasklet::type_name(t));
    for (const Mat* m : mats)
      if (m->type != t)
        return unsupported(std::string("operands of different types (") + tasklet::type_name(m->type) + " and " +
                           tasklet::type_name(t) + ")");
    return t;
  }

  // An input and an output matrix of one element type, the type LAPACKE works in.
  struct InOut {
    Mat in, out;
    ScalarType type;
  };
  Result<InOut> in_out(const std::string& in_conn, const std::string& out_conn) {
    Result<Mat> in = matrix(in_conn, true);
    if (!in) return in.take_error();
    Result<Mat> out = matrix(out_conn, false);
    if (!out) return out.take_error();
    Result<ScalarType> t = common_type({&*out, &*in});
    if (!t) return t.take_error();
    return InOut{*in, *out, *t};
  }

  // Pivots of a node connector: int32, staged like a one-column matrix.
  Result<Mat> pivot_operand(const std::string& conn, bool input) {
    Result<Mat> m = matrix(conn, input);
    if (!m) return m;
    if (m->type != ScalarType::Int32 && m->type != ScalarType::Int64)
      return unsupported("pivots \"" + conn + "\" are " + tasklet::type_name(m->type) + ", not an integer type");
    // LAPACK's pivots are one vector; a (squeezed) two-dimensional operand is not one.
    auto* cols = llvm::dyn_cast<llvm::ConstantInt>(m->cols);
    if (!cols || !cols->isOne()) return unsupported("pivots \"" + conn + "\" are not a vector");
    return m;
  }
  // The int32 array LAPACKE reads or writes pivots in: the view itself when it is int32 and
  // contiguous (LAPACK has no pivot stride), else int32 scratch.
  Staged stage_pivots(const Mat& view, bool init) {
    Mat as32 = view;
    as32.type = ScalarType::Int32;
    llvm::Value* direct = view.type == ScalarType::Int32
                              ? b_.CreateOr(b_.CreateICmpEQ(view.s0, i64(1)), b_.CreateICmpSLE(view.rows, i64(1)))
                              : b_.getFalse();
    return stage(as32, init ? &view : nullptr, direct, "lapack.ipiv");
  }
  void finish_pivots(Staged& s, const Mat& view, bool write_back) {
    s.view.type = ScalarType::Int32;
    llvm::Value* temp = b_.CreateLoad(b_.getPtrTy(), s.temp);
    emit_if(b_.CreateNot(s.direct), [&] {
      if (write_back) copy(contiguous(temp, s.view, i64(1)), view);
      heap_free(b_, f_.mc, temp);
    }, "lapack.unstage");
  }

  // Zeroes the strictly upper (lower = true) or strictly lower triangle of an n x n buffer.
  void zero_triangle(const Staged& s, ScalarType t, bool lower) {
    llvm::Type* elem = storage_type(f_.mc.ctx, t);
    llvm::Value* n = s.view.rows;
    CountedLoop li = begin_loop(b_, i64(0), n, "chol.zero.i");
    llvm::Value* begin = lower ? b_.CreateAdd(li.iv, i64(1)) : i64(0);
    llvm::Value* end = lower ? n : li.iv;
    CountedLoop lj = begin_loop(b_, begin, end, "chol.zero.j");
    llvm::Value* p = b_.CreateGEP(elem, s.ptr, b_.CreateAdd(b_.CreateMul(li.iv, s.ld), lj.iv));
    store_scalar(b_, {llvm::Constant::getNullValue(value_type(f_.mc.ctx, t)), t}, p);
    end_loop(b_, lj);
    end_loop(b_, li);
  }

  Frame& frame() { return f_; }
  llvm::IRBuilder<>& builder() { return b_; }

 private:
  StateEmitter& se_;
  Frame& f_;
  llvm::IRBuilder<>& b_;
  int node_;
};

// "true"/"false" JSON property, `fallback` when absent.
bool bool_property(const ir::LibraryNode& n, const char* key, bool fallback) {
  std::string v = library_property(n, key);
  if (v == "true" || v == "True" || v == "1") return true;
  if (v == "false" || v == "False" || v == "0") return false;
  return fallback;
}

Status emit_solve(LapackEmitter& e) {
  Result<Mat> a = e.matrix("_ain", true);
  if (!a) return a.take_error();
  // A vector right-hand side is one column.
  Result<Mat> bin = e.matrix("_bin", true);
  if (!bin) return bin.take_error();
  Result<Mat> x = e.matrix("_bout", false);
  if (!x) return x.take_error();
  Result<ScalarType> t = e.common_type({&*x, &*a, &*bin});
  if (!t) return t.take_error();
  llvm::IRBuilder<>& b = e.builder();
  Staged sa = e.stage(*a, &*a, e.builder().getFalse(), "solve.a");
  Staged sx = e.stage(*x, &*bin, nullptr, "solve.x");
  llvm::Value* ipiv = e.pivots(a->rows);
  llvm::Value* n = e.i32(a->rows);
  // Solve has no info output: a singular A leaves LAPACK's partial results, as in DaCe.
  e.call(*t, "getrf", {e.layout(), n, n, sa.ptr, e.i32(sa.ld), ipiv});
  e.call(*t, "getrs", {e.layout(), e.character('N'), n, e.i32(x->cols), sa.ptr, e.i32(sa.ld), ipiv, sx.ptr, e.i32(sx.ld)});
  heap_free(b, e.frame().mc, ipiv);
  e.finish(sa, false);
  e.finish(sx, true);
  return Status::success();
}

Status emit_inv(LapackEmitter& e) {
  Result<LapackEmitter::InOut> io = e.in_out("_ain", "_aout");
  if (!io) return io.take_error();
  Staged sx = e.stage(io->out, &io->in, nullptr, "inv.x");
  llvm::Value* ipiv = e.pivots(io->out.rows);
  llvm::Value* n = e.i32(io->out.rows);
  e.call(io->type, "getrf", {e.layout(), n, n, sx.ptr, e.i32(sx.ld), ipiv});
  e.call(io->type, "getri", {e.layout(), n, sx.ptr, e.i32(sx.ld), ipiv});
  heap_free(e.builder(), e.frame().mc, ipiv);
  e.finish(sx, true);
  return Status::success();
}

Status emit_cholesky(LapackEmitter& e, bool lower) {
  Result<LapackEmitter::InOut> io = e.in_out("_a", "_b");
  if (!io) return io.take_error();
  Staged sl = e.stage(io->out, &io->in, nullptr, "chol.b");
  e.call(io->type, "potrf", {e.layout(), e.character(lower ? 'L' : 'U'), e.i32(io->out.rows), sl.ptr, e.i32(sl.ld)});
  e.zero_triangle(sl, io->type, lower);
  e.finish(sl, true);
  return Status::success();
}

Status emit_getrf(LapackEmitter& e) {
  Result<LapackEmitter::InOut> io = e.in_out("_xin", "_xout");
  if (!io) return io.take_error();
  const Mat& xout = io->out;
  Staged sx = e.stage(xout, &io->in, nullptr, "getrf.x");
  std::optional<Mat> piv_view;
  Staged sp;
  llvm::Value* ipiv = nullptr;
  if (e.has_out("_ipiv")) {
    Result<Mat> p = e.pivot_operand("_ipiv", false);
    if (!p) return p.take_error();
    piv_view = *p;
    sp = e.stage_pivots(*p, false);
    ipiv = sp.ptr;
  } else {
    ipiv = e.pivots(xout.rows);
  }
  llvm::Value* info = e.call(io->type, "getrf", {e.layout(), e.i32(xout.rows), e.i32(xout.cols), sx.ptr, e.i32(sx.ld), ipiv});
  if (piv_view) e.finish_pivots(sp, *piv_view, true);
  else heap_free(e.builder(), e.frame().mc, ipiv);
  e.finish(sx, true);
  return e.store_info(info);
}

Status emit_getri(LapackEmitter& e) {
  Result<LapackEmitter::InOut> io = e.in_out("_xin", "_xout");
  if (!io) return io.take_error();
  Result<Mat> piv = e.pivot_operand("_ipiv", true);
  if (!piv) return piv.take_error();
  Staged sx = e.stage(io->out, &io->in, nullptr, "getri.x");
  Staged sp = e.stage_pivots(*piv, true);
  llvm::Value* info = e.call(io->type, "getri", {e.layout(), e.i32(io->out.rows), sx.ptr, e.i32(sx.ld), sp.ptr});
  e.finish_pivots(sp, *piv, false);
  e.finish(sx, true);
  return e.store_info(info);
}

// getrs / potrs: A (factored) and B -> X in place of B.
Status emit_factored_solve(LapackEmitter& e, bool cholesky, bool lower) {
  const char* bin_conn = cholesky ? "_bin" : "_rhs_in";
  const char* bout_conn = cholesky ? "_bout" : "_rhs_out";
  Result<Mat> a = e.matrix("_a", true);
  if (!a) return a.take_error();
  Result<Mat> bin = e.matrix(bin_conn, true);
  if (!bin) return bin.take_error();
  Result<Mat> x = e.matrix(bout_conn, false);
  if (!x) return x.take_error();
  Result<ScalarType> t = e.common_type({&*x, &*a, &*bin});
  if (!t) return t.take_error();
  std::optional<Mat> piv;
  if (!cholesky) {
    Result<Mat> p = e.pivot_operand("_ipiv", true);
    if (!p) return p.take_error();
    piv = *p;
  }
  Staged sa = e.stage(*a, &*a, nullptr, "lapack.a");  // read only: in place, or a copy
  Staged sx = e.stage(*x, &*bin, nullptr, "lapack.x");
  llvm::Value* n = e.i32(a->rows);
  llvm::Value* info = nullptr;
  if (cholesky) {
    info = e.call(*t, "potrs", {e.layout(), e.character(lower ? 'L' : 'U'), n, e.i32(x->cols), sa.ptr, e.i32(sa.ld), sx.ptr,
                                e.i32(sx.ld)});
  } else {
    Staged sp = e.stage_pivots(*piv, true);
    info = e.call(*t, "getrs", {e.layout(), e.character('N'), n, e.i32(x->cols), sa.ptr, e.i32(sa.ld), sp.ptr, sx.ptr,
                                e.i32(sx.ld)});
    e.finish_pivots(sp, *piv, false);
  }
  e.finish(sa, false);
  e.finish(sx, true);
  return e.store_info(info);
}

Status emit_potrf(LapackEmitter& e, bool lower) {
  Result<LapackEmitter::InOut> io = e.in_out("_xin", "_xout");
  if (!io) return io.take_error();
  Staged sx = e.stage(io->out, &io->in, nullptr, "potrf.x");
  llvm::Value* info =
      e.call(io->type, "potrf", {e.layout(), e.character(lower ? 'L' : 'U'), e.i32(io->out.rows), sx.ptr, e.i32(sx.ld)});
  e.finish(sx, true);
  return e.store_info(info);
}

}  // namespace

Status emit_lapack_node(StateEmitter& se, int node) {
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  if (!lapacke_available(se.f->mc.options, n.classpath))
    return make_error(Code::Unsupported, se.where(node) + ": library node " + n.classpath +
                                             " cannot be compiled: it needs LAPACKE (" + kLapackeLibrary +
                                             ", the CPU plugin's OpenBLAS implementation), which is not available");
  if (n.implementation == "pure")
    return make_error(Code::Unsupported, se.where(node) + ": library node " + n.classpath +
                                             " has no pure (loop-nest) lowering; it is called through LAPACKE");
  LapackEmitter e(se, node);
  const std::string& c = n.classpath;
  bool lower = bool_property(n, "lower", true);
  if (c == "dace.libraries.linalg.nodes.solve.Solve") return emit_solve(e);
  if (c == "dace.libraries.linalg.nodes.inv.Inv") return emit_inv(e);
  if (c == "dace.libraries.linalg.nodes.cholesky.Cholesky") return emit_cholesky(e, lower);
  if (c == "dace.libraries.lapack.nodes.getrf.Getrf") return emit_getrf(e);
  if (c == "dace.libraries.lapack.nodes.getri.Getri") return emit_getri(e);
  if (c == "dace.libraries.lapack.nodes.getrs.Getrs") return emit_factored_solve(e, false, false);
  if (c == "dace.libraries.lapack.nodes.potrf.Potrf") return emit_potrf(e, lower);
  if (c == "dace.libraries.lapack.nodes.potrs.Potrs") return emit_factored_solve(e, true, lower);
  return make_error(Code::Internal, se.where(node) + ": " + c + " is not a LAPACK node");
}

}  // namespace dace::cpu
