// MatMul (and the Gemm/Gemv/Dot/BatchedMatMul nodes it specializes into): NumPy's matmul
// semantics chosen by the squeezed operand ranks, as DaCe's SpecializeMatMul does, computed
// by loop nests in i-k-j order (unit-stride inner loop, vectorizable).
#include <cctype>
#include <cstdlib>

#include "codegen/library_matmul.h"
#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/scalar_ops.h"
#include "codegen/wcr.h"

namespace dace::codegen {

namespace {

bool is_identifier(const std::string& v) {
  if (v.empty() || !(std::isalpha(static_cast<unsigned char>(v[0])) || v[0] == '_')) return false;
  for (char ch : v)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
  return true;
}

// alpha/beta of the node: absent or null is `fallback`; a number (JSON number or string) is
// known now; a name is read at run time: the node's input connector of that name, else a
// symbol bound here (map parameters included), else a data container (its first element). Anything else is refused naming it,
// never replaced by the default.
Result<ScaleFactor> scale_factor(StateEmitter& se, int node, const ir::LibraryNode& n, const std::string& key,
                                 double fallback, ScalarType t) {
  std::string v = library_property(n, key);
  if (v.empty() || v == "null") return ScaleFactor{fallback};
  if (v.front() == '"' && v.size() >= 2) v = v.substr(1, v.size() - 2);
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (end && end != v.c_str() && *end == '\0') return ScaleFactor{d};
  if (!is_identifier(v))
    return make_error(Code::Unsupported, se.where(node) + ": " + key + " \"" + v + "\" is neither a number nor a name");
  Frame& f = *se.f;
  TypedValue x;
  if (n.in_connectors.count(v)) {
    Result<Operand> op = library_operand(se, node, v, true);
    if (!op) return op.take_error();
    x = load_scalar(f.b, op->base, op->type);
  } else if (Result<TypedValue> sv = f.symbol(v)) {
    // Any symbol bound here: the SDFG's own, an interstate assignment or a map parameter
    // (bound by the map, not listed in symbol_types).
    x = *sv;
  } else if (f.sc.symbol_types.count(v)) {
    return sv.take_error();
  } else {
    Result<DataBinding> db = f.data(v);
    if (!db)
      return make_error(Code::InvalidSdfg, se.where(node) + ": " + key + " \"" + v +
                                               "\" names no input connector, symbol or data container");
    x = load_scalar(f.b, db->base, db->desc->dtype.scalar);
  }
  if (tasklet::is_complex(x.type) && !tasklet::is_complex(t))
    return make_error(Code::Unsupported, se.where(node) + ": " + key + " \"" + v + "\" is complex, the product is not");
  return ScaleFactor{0.0, convert(f.b, x, t)};
}

bool bool_property(const ir::LibraryNode& n, const std::string& key) { return library_property(n, key) == "true"; }

void swap_last_two(Operand& op) {
  size_t r = op.sizes.size();
  if (r < 2) return;
  std::swap(op.sizes[r - 1], op.sizes[r - 2]);
  std::swap(op.size_values[r - 1], op.size_values[r - 2]);
  std::swap(op.strides[r - 1], op.strides[r - 2]);
}

}  // namespace

llvm::Value* factor_value(llvm::IRBuilder<>& b, const ScaleFactor& s, ScalarType t) {
  return s.value ? s.value : constant_float(b, t, s.number);
}

llvm::Value* factor_is_zero_at_run_time(llvm::IRBuilder<>& b, const ScaleFactor& s, ScalarType t) {
  if (!s.value) return nullptr;
  llvm::Value* zero = zero_value(b, t);
  if (tasklet::is_integer(t)) return b.CreateICmpEQ(s.value, zero);
  if (tasklet::is_complex(t)) {
    llvm::Value* re = b.CreateFCmpOEQ(b.CreateExtractValue(s.value, 0), b.CreateExtractValue(zero, 0));
    llvm::Value* im = b.CreateFCmpOEQ(b.CreateExtractValue(s.value, 1), b.CreateExtractValue(zero, 1));
    return b.CreateAnd(re, im);
  }
  return b.CreateFCmpOEQ(s.value, zero);
}

Result<MatMulOperands> matmul_operands(StateEmitter& se, int node) {
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  size_t dot = n.classpath.rfind('.');
  std::string cls = dot == std::string::npos ? n.classpath : n.classpath.substr(dot + 1);
  // C's input (beta * C): Gemm's `_cin`; Gemv's `_y` (DaCe names Gemv's input and output
  // alike), or `_cin` as FoldScalingIntoGemm writes it.
  std::string an = "_a", bn = "_b", cn = "_c", cin = "_cin";
  if (cls == "Gemv") an = "_A", bn = "_x", cn = "_y", cin = se.in_edge_at(node, "_y") >= 0 ? "_y" : "_cin";
  if (cls == "Dot") an = "_x", bn = "_y", cn = "_result";
  Result<Operand> a = library_operand(se, node, an, true);
  if (!a) return a.take_error();
  Result<Operand> b = library_operand(se, node, bn, true);
  if (!b) return b.take_error();
  Result<Operand> c = library_operand(se, node, cn, false);
  if (!c) return c.take_error();
  MatMulOperands ops{*a, *b, *c, std::nullopt};
  Result<ScaleFactor> alpha = scale_factor(se, node, n, "alpha", 1.0, c->type);
  if (!alpha) return alpha.take_error();
  Result<ScaleFactor> beta = scale_factor(se, node, n, "beta", 0.0, c->type);
  if (!beta) return beta.take_error();
  ops.alpha = *alpha;
  ops.beta = *beta;
  if (bool_property(n, "transA")) swap_last_two(ops.a);
  if (bool_property(n, "transB")) swap_last_two(ops.b);
  if (cls != "Dot" && se.in_edge_at(node, cin) >= 0) {
    Result<Operand> ci = library_operand(se, node, cin, true);
    if (!ci) return ci.take_error();
    ops.cin = *ci;
  } else if (!ops.c.wcr.empty()) {
    Result<Wcr> w = parse_wcr(ops.c.wcr);
    if (!w) return w.take_error();
    if (w->kind != WcrKind::Sum) return make_error(Code::Unsupported, se.where(node) + ": MatMul output WCR must be a sum");
    ops.beta = ScaleFactor{1.0};
  }
  ScalarType t = ops.c.type;
  if (!tasklet::is_integer(t) && !tasklet::is_float(t) && !tasklet::is_complex(t))
    return make_error(Code::Unsupported, se.where(node) + ": matrix product of element type " + tasklet::type_name(t));
  return ops;
}

// Rows that can be computed independently (GEMM and GEMV): the first index of C.
bool row_parallel(const MatMulOperands& m) {
  size_t ra = m.a.sizes.size(), rb = m.b.sizes.size(), rc = m.c.sizes.size();
  return (ra == 2 && rb == 2 && rc == 2) || (ra == 2 && rb == 1);
}

// Emits the product; with `row`, only that row of a GEMM/GEMV.
Status emit_product(StateEmitter& se, int node, MatMulOperands& ops, llvm::Value* row) {
  Frame& f = *se.f;
  Operand* a = &ops.a;
  Operand* bop = &ops.b;
  Operand* c = &ops.c;
  std::optional<Operand>& cin = ops.cin;
  const ScaleFactor alpha = ops.alpha, beta = ops.beta;
  size_t ra = a->sizes.size(), rb = bop->sizes.size(), rc = c->sizes.size();
  (void)se;
  ScalarType t = c->type;
  llvm::IRBuilder<>& b = f.b;
  auto load = [&](const Operand& op, const std::vector<llvm::Value*>& idx) {
    return convert(b, load_scalar(b, operand_element(f, op, idx), op.type), t);
  };
  auto fmul = [&](llvm::Value* x, llvm::Value* y) {
    return binary_op(b, tasklet::BinOpKind::Mult, {x, t}, {y, t}, t).value().value;
  };
  auto fadd = [&](llvm::Value* x, llvm::Value* y) {
    return binary_op(b, tasklet::BinOpKind::Add, {x, t}, {y, t}, t).value().value;
  };
  llvm::Value* alpha_v = factor_value(b, alpha, t);
  llvm::Value* beta_v = factor_value(b, beta, t);
  llvm::Value* zero = b.getInt64(0);

  // beta known only at run time: is it 0? BLAS ignores C when beta == 0 (NaN or Inf in C do
  // not reach the result), so the loops select zero rather than computing 0 * C.
  llvm::Value* beta_is_zero = factor_is_zero_at_run_time(b, beta, t);
  // Initial value of an output element: beta * C (or beta * C_in), or zero.
  auto init_c = [&](const std::vector<llvm::Value*>& cidx) {
    llvm::Value* cp = operand_element(f, *c, cidx);
    llvm::Value* v = zero_value(b, t);
    const Operand* from = cin ? &*cin : c;
    if (!beta.is(0.0)) v = beta.is(1.0) ? load(*from, cidx) : fmul(beta_v, load(*from, cidx));
    if (beta_is_zero) v = b.CreateSelect(beta_is_zero, zero_value(b, t), v);
    store_scalar(b, {v, t}, cp);
  };
  auto accumulate = [&](const std::vector<llvm::Value*>& cidx, llvm::Value* prod) {
    llvm::Value* cp = operand_element(f, *c, cidx);
    llvm::Value* cur = load_scalar(b, cp, t).value;
    store_scalar(b, {fadd(cur, prod), t}, cp);
  };
  auto scaled = [&](llvm::Value* v) { return alpha.is(1.0) ? v : fmul(alpha_v, v); };

  if (ra >= 2 && rb >= 2) {
    if (rc < 2) return make_error(Code::InvalidSdfg, se.where(node) + ": matrix product output has rank < 2");
    // Batch dimensions are C's leading ones; operands broadcast from the right.
    size_t nbatch = rc - 2;
    std::vector<CountedLoop> batch;
    std::vector<llvm::Value*> bidx;
    for (size_t d = 0; d < nbatch; ++d) {
      batch.push_back(begin_loop(b, zero, c->size_values[d], "bmm"));
      bidx.push_back(batch.back().iv);
    }
    auto pick = [&](const Operand& op, size_t rank) {
      std::vector<llvm::Value*> idx;
      size_t ob = rank - 2;
      for (size_t d = 0; d < ob; ++d) {
        size_t cd = nbatch - ob + d;
        idx.push_back(cd < bidx.size() ? bidx[cd] : zero);
      }
      return idx;
    };
    llvm::Value* M = a->size_values[ra - 2];
    llvm::Value* K = a->size_values[ra - 1];
    llvm::Value* N = bop->size_values[rb - 1];
    CountedLoop li;
    llvm::Value* i_val = row;
    if (!row) {
      li = begin_loop(b, zero, M, "mm.i");
      i_val = li.iv;
    }
    {
      CountedLoop lj = begin_loop(b, zero, N, "mm.j0");
      std::vector<llvm::Value*> ci = bidx;
      ci.push_back(i_val);
      ci.push_back(lj.iv);
      init_c(ci);
      end_loop(b, lj);
    }
    CountedLoop lk = begin_loop(b, zero, K, "mm.k");
    std::vector<llvm::Value*> ai = pick(*a, ra);
    ai.push_back(i_val);
    ai.push_back(lk.iv);
    llvm::Value* aik = scaled(load(*a, ai));
    CountedLoop lj = begin_loop(b, zero, N, "mm.j");
    std::vector<llvm::Value*> bi = pick(*bop, rb);
    bi.push_back(lk.iv);
    bi.push_back(lj.iv);
    std::vector<llvm::Value*> ci = bidx;
    ci.push_back(i_val);
    ci.push_back(lj.iv);
    accumulate(ci, fmul(aik, load(*bop, bi)));
    end_loop(b, lj);
    end_loop(b, lk);
    if (!row) end_loop(b, li);
    for (size_t d = batch.size(); d-- > 0;) end_loop(b, batch[d]);
    return Status::success();
  }
  if (ra == 2 && rb == 1) {  // y[i] = sum_k A[i, k] x[k]
    CountedLoop li;
    llvm::Value* i_val = row;
    if (!row) {
      li = begin_loop(b, zero, a->size_values[0], "mv.i");
      i_val = li.iv;
    }
    init_c({i_val});
    CountedLoop lk = begin_loop(b, zero, a->size_values[1], "mv.k");
    accumulate({i_val}, scaled(fmul(load(*a, {i_val, lk.iv}), load(*bop, {lk.iv}))));
    end_loop(b, lk);
    if (!row) end_loop(b, li);
    return Status::success();
  }
  if (ra == 1 && rb == 2) {  // y[j] = sum_k x[k] B[k, j]
    llvm::Value* N = bop->size_values[1];
    CountedLoop lj0 = begin_loop(b, zero, N, "vm.j0");
    init_c({lj0.iv});
    end_loop(b, lj0);
    CountedLoop lk = begin_loop(b, zero, bop->size_values[0], "vm.k");
    llvm::Value* xk = scaled(load(*a, {lk.iv}));
    CountedLoop lj = begin_loop(b, zero, N, "vm.j");
    accumulate({lj.iv}, fmul(xk, load(*bop, {lk.iv, lj.iv})));
    end_loop(b, lj);
    end_loop(b, lk);
    return Status::success();
  }
  if (ra == 1 && rb == 1) {  // dot product
    std::vector<llvm::Value*> ci(rc, zero);
    init_c(ci);
    CountedLoop lk = begin_loop(b, zero, a->size_values[0], "dot.k");
    accumulate(ci, scaled(fmul(load(*a, {lk.iv}), load(*bop, {lk.iv}))));
    end_loop(b, lk);
    return Status::success();
  }
  return make_error(Code::Unsupported, se.where(node) + ": matrix product of operands with ranks " + std::to_string(ra) +
                                           " and " + std::to_string(rb) + " is not supported");
}

Status emit_matmul_loops(StateEmitter& se, int node, const MatMulOperands& ops) {
  MatMulOperands whole = ops;
  if (!can_parallelize(se) || !row_parallel(ops)) return emit_product(se, node, whole, nullptr);
  llvm::Value* rows = ops.a.size_values[0];
  return emit_parallel_loop(se, rows, "matmul", [&](llvm::Value* row) -> Status {
    // Inside the outlined body: look the operands up again (they are captured by name).
    Result<MatMulOperands> inner = matmul_operands(se, node);
    if (!inner) return inner.take_error();
    return emit_product(se, node, *inner, row);
  });
}

Status emit_matmul(StateEmitter& se, int node) {
  Result<MatMulOperands> ops = matmul_operands(se, node);
  if (!ops) return ops.take_error();
  return emit_matmul_loops(se, node, *ops);
}

}  // namespace dace::codegen
