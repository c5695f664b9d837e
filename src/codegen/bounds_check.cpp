#include "codegen/bounds_check.h"

#include <algorithm>

#include "codegen/run_status.h"
#include "ir/path.h"

namespace dace::codegen {

namespace {

// One dimension's violation: the condition, the offending index and the extent.
struct Violation {
  llvm::Value* failed;
  llvm::Value* index;
  llvm::Value* extent;
  std::string what;
};

// if (some dimension failed and the access is not empty) { record the first failing
// dimension in the status record; leave } — continues after it.
void emit_first_violation(Frame& f, const std::vector<Violation>& dims, llvm::Value* empty) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* zero = b.getInt64(0);
  // The first failing dimension names the index: selects built from the last one up.
  llvm::Value* failed = b.getFalse();
  llvm::Value* what = llvm::ConstantPointerNull::get(b.getPtrTy());
  llvm::Value* index = zero;
  llvm::Value* extent = zero;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    failed = b.CreateOr(failed, d->failed);
    what = b.CreateSelect(d->failed, b.CreateGlobalString(d->what, "bounds.what"), what);
    index = b.CreateSelect(d->failed, d->index, index);
    extent = b.CreateSelect(d->failed, d->extent, extent);
  }
  failed = b.CreateAnd(failed, b.CreateNot(empty));
  llvm::BasicBlock* bad = llvm::BasicBlock::Create(f.mc.ctx, "bounds.fail", f.fn);
  llvm::BasicBlock* ok = llvm::BasicBlock::Create(f.mc.ctx, "bounds.ok", f.fn);
  b.CreateCondBr(failed, bad, ok);
  b.SetInsertPoint(bad);
  f.record_failure(b.getInt32(static_cast<int32_t>(RunStatus::OutOfBounds)), what, index, extent);
  f.leave();
  b.SetInsertPoint(ok);
}

bool checked_kind(const ir::DataDescriptor& d) { return d.kind == ir::DataKind::Array || d.kind == ir::DataKind::View; }

// Emits the check of `subset` against container `data`: if the subset is not empty and some
// dimension's touched range [lo, hi] leaves 0..extent-1, record and leave. `label` names the
// memlet for the message.
Status check_subset(StateEmitter& se, const std::string& label, const std::string& data, const sym::Subset& subset) {
  Frame& f = *se.f;
  auto it = f.sc.sdfg.arrays.find(data);
  if (it == f.sc.sdfg.arrays.end() || !checked_kind(it->second)) return Status::success();
  const ir::DataDescriptor& desc = it->second;
  const size_t rank = std::min(subset.dims.size(), desc.shape.size());
  if (rank == 0) return Status::success();
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* one = b.getInt64(1);
  llvm::Value* zero = b.getInt64(0);
  llvm::Value* empty = b.getFalse();
  std::vector<Violation> dims;
  for (size_t k = 0; k < rank; ++k) {
    const sym::Range& r = subset.dims[k];
    Result<llvm::Value*> start = f.sym(r.start);
    Result<llvm::Value*> end = f.sym(r.end);
    Result<llvm::Value*> extent = f.sym(desc.shape[k]);
    if (!start) return start.take_error();
    if (!end) return end.take_error();
    if (!extent) return extent.take_error();
    llvm::Value* step = one;
    if (r.step) {
      Result<llvm::Value*> s = f.sym(r.step);
      if (!s) return s.take_error();
      // A zero step touches `start` only (and must not divide).
      step = b.CreateSelect(b.CreateICmpEQ(*s, zero), one, *s);
    }
    llvm::Value* tile_extra = zero;
    if (r.tile) {
      Result<llvm::Value*> t = f.sym(r.tile);
      if (!t) return t.take_error();
      tile_extra = b.CreateSub(*t, one);
    }
    // Elements start, start + step, ... up to end (inclusive), each widened by the tile:
    // a positive step touches start..last+tile-1, a negative one last..start+tile-1.
    llvm::Value* span = b.CreateSub(*end, *start);
    llvm::Value* last = b.CreateAdd(*start, b.CreateMul(b.CreateSDiv(span, step), step));
    llvm::Value* up = b.CreateICmpSGT(step, zero);
    empty = b.CreateOr(empty, b.CreateSelect(up, b.CreateICmpSLT(span, zero), b.CreateICmpSGT(span, zero)));
    llvm::Value* lo = b.CreateSelect(up, *start, last);
    llvm::Value* hi = b.CreateAdd(b.CreateSelect(up, last, *start), tile_extra);
    llvm::Value* below = b.CreateICmpSLT(lo, zero);
    llvm::Value* above = b.CreateICmpSGE(hi, *extent);
    dims.push_back({b.CreateOr(below, above), b.CreateSelect(below, lo, hi), *extent,
                    label + ", dimension " + std::to_string(k) + " of " + ir::quoted(data) + ": index"});
  }
  emit_first_violation(f, dims, empty);
  return Status::success();
}

std::string memlet_label(const StateEmitter& se, int edge) {
  return se.where_edge(edge) + " memlet " + ir::quoted(ir::to_string(se.state.edge(edge)->memlet));
}

Status check_edge(StateEmitter& se, int edge) {
  const ir::DataflowEdge* e = se.state.edge(edge);
  const ir::Memlet& m = e->memlet;
  if (m.is_empty() || m.allow_oob) return Status::success();
  const std::string label = memlet_label(se, edge);
  DACE_TRY(check_subset(se, label, m.data, m.subset));
  if (!m.other_subset) return Status::success();
  // Between two access nodes the other subset belongs to the container at the other end.
  const std::string src = se.access_data(e->src), dst = se.access_data(e->dst);
  if (src.empty() || dst.empty()) return Status::success();
  const bool data_is_src = m.is_data_src.value_or(m.data == src);
  return check_subset(se, label + " (other subset)", data_is_src ? dst : src, *m.other_subset);
}

}  // namespace

Status emit_index_checks(Frame& f, const std::string& label, const std::vector<llvm::Value*>& indices,
                         const std::vector<llvm::Value*>& extents) {
  // A check of fewer positions than the code indexes would pass what it does not look at.
  if (extents.size() != indices.size())
    return make_error(Code::Internal, label + ": bounds check has " + std::to_string(extents.size()) +
                                          " extents for " + std::to_string(indices.size()) + " indices");
  llvm::IRBuilder<>& b = f.b;
  std::vector<Violation> dims;
  for (size_t k = 0; k < indices.size(); ++k) {
    llvm::Value* below = b.CreateICmpSLT(indices[k], b.getInt64(0));
    llvm::Value* above = b.CreateICmpSGE(indices[k], extents[k]);
    dims.push_back({b.CreateOr(below, above), indices[k], extents[k], label + ", index " + std::to_string(k) + ": index"});
  }
  if (!dims.empty()) emit_first_violation(f, dims, b.getFalse());
  return Status::success();
}

Status emit_bounds_checks(StateEmitter& se, int node) {
  if (!se.f->mc.options.bounds_check) return Status::success();
  const ir::Node* n = se.state.node(node);
  switch (n->kind) {
    case ir::NodeKind::Tasklet:
    case ir::NodeKind::Library:
    case ir::NodeKind::NestedSDFG:
      for (int e : se.state.in_edges(node)) DACE_TRY(check_edge(se, e));
      for (int e : se.state.out_edges(node)) DACE_TRY(check_edge(se, e));
      return Status::success();
    case ir::NodeKind::Access:
      for (int e : se.state.out_edges(node))
        if (!se.access_data(se.state.edge(e)->dst).empty()) DACE_TRY(check_edge(se, e));
      return Status::success();
    default: return Status::success();
  }
}

}  // namespace dace::codegen
