// Reduce (DaCe's pure expansion): with an identity the output is first set to it, then every
// input element is combined into the output element its non-reduced indices select; without
// an identity the reduction accumulates onto the output's current values.
#include <cstdlib>

#include "codegen/library_nodes.h"
#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/wcr.h"

namespace dace::codegen {
namespace {

// One step of the reduction loop, `cur (op) value`, in a form LLVM's loop vectorizer turns into
// a vector reduction. Float sums carry `reassoc` (the order of the additions may change:
// DaCe's default build, -ffast-math, allows that for all of them, NumPy's pairwise summation
// uses another order too), float max/min use llvm.maximum/minimum, which propagate NaN as
// NumPy's max/min do (the compare-and-select of wcr_combine keeps the older value on NaN and
// is not vectorized). Everything else combines as any WCR does.
Result<TypedValue> reduction_step(Frame& f, const Wcr& wcr, TypedValue cur, TypedValue value, ScalarType t) {
  const bool vector_float = t == ScalarType::Float32 || t == ScalarType::Float64;
  if (!vector_float || (wcr.kind != WcrKind::Sum && wcr.kind != WcrKind::Max && wcr.kind != WcrKind::Min))
    return wcr_combine(f, wcr, cur, value, t);
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* x = convert(b, cur, t);
  llvm::Value* y = convert(b, value, t);
  if (wcr.kind == WcrKind::Sum) {
    llvm::Value* sum = b.CreateFAdd(x, y);
    if (auto* inst = llvm::dyn_cast<llvm::Instruction>(sum)) inst->setHasAllowReassoc(true);
    return TypedValue{sum, t};
  }
  const auto id = wcr.kind == WcrKind::Max ? llvm::Intrinsic::maximum : llvm::Intrinsic::minimum;
  return TypedValue{b.CreateBinaryIntrinsic(id, x, y), t};
}

}  // namespace

Result<ReduceSpec> reduce_spec(StateEmitter& se, int node) {
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  int in_edge = -1, out_edge = -1;
  for (int e : se.state.in_edges(node))
    if (!se.state.edge(e)->memlet.is_empty()) in_edge = e;
  for (int e : se.state.out_edges(node))
    if (!se.state.edge(e)->memlet.is_empty()) out_edge = e;
  if (in_edge < 0 || out_edge < 0) return make_error(Code::InvalidSdfg, se.where(node) + ": Reduce needs one input and one output");
  ReduceSpec spec;
  spec.in_conn = se.state.edge(in_edge)->dst_conn;
  spec.out_conn = se.state.edge(out_edge)->src_conn;
  Result<Operand> in = library_operand(se, node, spec.in_conn, true);
  if (!in) return in.take_error();

  // Axes refer to the unsqueezed input subset; map them to squeezed positions.
  const ir::Memlet& im = se.state.edge(in_edge)->memlet;
  std::vector<sym::Expr> full = sym::size(im.subset);
  std::vector<int64_t> squeezed_of(full.size(), -1);
  int64_t k = 0;
  for (size_t d = 0; d < full.size(); ++d)
    if (!(sym::as_integer(sym::simplify(full[d])) == std::optional<int64_t>(1))) squeezed_of[d] = k++;
  // Axes "null" (or absent) reduce over everything.
  std::string axes_text = library_property(n, "axes");
  std::optional<std::vector<int64_t>> axes;
  if (!axes_text.empty() && axes_text != "null") {
    axes = library_int_list(axes_text);
    if (!axes)
      return make_error(Code::InvalidSdfg, se.where(node) + ": Reduce property \"axes\" is not a list of integers");
  }
  spec.reduced.assign(in->sizes.size(), !axes.has_value());
  if (axes)
    for (int64_t a : *axes) {
      if (a < 0) a += static_cast<int64_t>(full.size());
      if (a >= 0 && a < static_cast<int64_t>(full.size()) && squeezed_of[a] >= 0) spec.reduced[squeezed_of[a]] = true;
    }

  std::string wcr_text = library_property(n, "wcr");
  if (wcr_text.size() >= 2 && wcr_text.front() == '"') wcr_text = wcr_text.substr(1, wcr_text.size() - 2);
  spec.wcr_text = wcr_text.empty() ? "lambda a, b: a + b" : wcr_text;
  std::string identity = library_property(n, "identity");
  if (identity.size() >= 2 && identity.front() == '"') identity = identity.substr(1, identity.size() - 2);
  if (!identity.empty() && identity != "null") {
    char* end = nullptr;
    double v = std::strtod(identity.c_str(), &end);
    if (!end || end == identity.c_str())
      return make_error(Code::Unsupported, se.where(node) + ": Reduce identity " + identity + " cannot be compiled");
    spec.identity = v;
  }
  return spec;
}

Status emit_reduce(StateEmitter& se, int node) {
  Frame& f = *se.f;
  Result<ReduceSpec> spec = reduce_spec(se, node);
  if (!spec) return spec.take_error();
  Result<Operand> in = library_operand(se, node, spec->in_conn, true);
  if (!in) return in.take_error();
  Result<Operand> out = library_operand(se, node, spec->out_conn, false);
  if (!out) return out.take_error();
  const std::vector<bool>& reduced = spec->reduced;
  Result<Wcr> wcr = parse_wcr(spec->wcr_text);
  if (!wcr) return wcr.take_error();
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* zero = b.getInt64(0);

  if (spec->identity) {
    const double v = *spec->identity;
    std::vector<CountedLoop> loops;
    std::vector<llvm::Value*> idx;
    for (llvm::Value* sz : out->size_values) {
      loops.push_back(begin_loop(b, zero, sz, "red.init"));
      idx.push_back(loops.back().iv);
    }
    llvm::Value* iv = tasklet::is_integer(out->type) ? constant_int(b, out->type, static_cast<int64_t>(v))
                                                     : constant_float(b, out->type, v);
    store_scalar(b, {iv, out->type}, operand_element(f, *out, idx));
    for (size_t i = loops.size(); i-- > 0;) end_loop(b, loops[i]);
  }
  if (in->sizes.empty()) {
    // A single element: out = wcr(out, in).
    TypedValue v = load_scalar(b, in->base, in->type);
    return emit_wcr_update(f, *wcr, operand_element(f, *out, {}), v, out->type, f.parallel_context && !out->data.thread_local_storage);
  }
  const std::string& in_conn = spec->in_conn;
  const std::string& out_conn = spec->out_conn;
  // Loops over the input; `first` fixes dimension 0 (the parallel index) when given.
  auto accumulate = [&](Operand& src, Operand& dst, llvm::Value* first, bool atomic) -> Status {
    Frame& cf = *se.f;
    std::vector<CountedLoop> loops;
    std::vector<llvm::Value*> iidx, oidx;
    for (size_t d = 0; d < src.sizes.size(); ++d) {
      llvm::Value* iv = first;
      if (d > 0 || !first) {
        loops.push_back(begin_loop(cf.b, cf.b.getInt64(0), src.size_values[d], reduced[d] ? "red.axis" : "red.keep"));
        iv = loops.back().iv;
      }
      iidx.push_back(iv);
      if (!reduced[d]) oidx.push_back(iv);
    }
    if (oidx.size() != dst.sizes.size())
      return make_error(Code::InvalidSdfg, se.where(node) + ": Reduce output has " + std::to_string(dst.sizes.size()) +
                                               " dimensions, the kept input dimensions are " + std::to_string(oidx.size()));
    TypedValue v = load_scalar(cf.b, operand_element(cf, src, iidx), src.type);
    llvm::Value* target = operand_element(cf, dst, oidx);
    if (atomic) {
      DACE_TRY(emit_wcr_update(cf, *wcr, target, v, dst.type, true));
    } else {
      Result<TypedValue> r = reduction_step(cf, *wcr, load_scalar(cf.b, target, dst.type), v, dst.type);
      if (!r) return r.take_error();
      store_scalar(cf.b, *r, target);
    }
    for (size_t i = loops.size(); i-- > 0;) end_loop(cf.b, loops[i]);
    return Status::success();
  };
  if (can_parallelize(se) && !reduced[0]) {
    // Dimension 0 is kept: threads own distinct output elements, no atomics needed.
    return emit_parallel_loop(se, in->size_values[0], "reduce", [&](llvm::Value* i0) -> Status {
      Result<Operand> pin = library_operand(se, node, in_conn, true);
      if (!pin) return pin.take_error();
      Result<Operand> pout = library_operand(se, node, out_conn, false);
      if (!pout) return pout.take_error();
      return accumulate(*pin, *pout, i0, false);
    });
  }
  return accumulate(*in, *out, nullptr, f.parallel_context && !out->data.thread_local_storage);
}

}  // namespace dace::codegen
