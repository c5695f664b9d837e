// Copy and Memset library nodes (DaCe's dace.libraries.standard.nodes.copy_node.CopyLibraryNode
// and memset_node.MemsetLibraryNode, which DaCe 1.0.2 does not have yet; libdace reads them
// as generic library nodes). A copy moves the input memlet's elements, in row-major order,
// to the output memlet's (shapes may differ when the element counts agree, as for reshaping
// copies); a memset writes zeros, or the node's `value` property when present (a libdace
// extension). Both become one memmove/memset when every operand is contiguous at run time,
// else loop nests (the test is emitted when strides are symbolic).
#include <cstdlib>

#include "codegen/library_nodes.h"
#include "codegen/loops.h"
#include "codegen/scalar_ops.h"

namespace dace::codegen {

namespace {

// The single connector of a node on one side, or "" when there is not exactly one.
std::string only_connector(const ir::Connectors& c) { return c.size() == 1 ? c.begin()->first : std::string(); }

llvm::Value* element_count(llvm::IRBuilder<>& b, const Operand& op) {
  llvm::Value* n = b.getInt64(1);
  for (llvm::Value* s : op.size_values) n = b.CreateMul(n, s);
  return n;
}

// i1: the squeezed operand is dense row-major (stride d = product of the sizes after d).
llvm::Value* contiguous(llvm::IRBuilder<>& b, const Operand& op) {
  llvm::Value* ok = b.getTrue();
  llvm::Value* expect = b.getInt64(1);
  for (size_t d = op.strides.size(); d-- > 0;) {
    // A dimension of one element may have any stride.
    llvm::Value* fits = b.CreateOr(b.CreateICmpEQ(op.strides[d], expect), b.CreateICmpSLE(op.size_values[d], b.getInt64(1)));
    ok = b.CreateAnd(ok, fits);
    expect = b.CreateMul(expect, op.size_values[d]);
  }
  return ok;
}

uint64_t element_bytes(Frame& f, ScalarType t) {
  return f.mc.module.getDataLayout().getTypeAllocSize(storage_type(f.mc.ctx, t));
}

// Loops over every index of `sizes` (row-major); `body` gets the indices and the flat index.
void for_each_index(llvm::IRBuilder<>& b, const std::vector<llvm::Value*>& sizes,
                    const std::function<void(const std::vector<llvm::Value*>&, llvm::Value*)>& body) {
  std::vector<CountedLoop> loops;
  std::vector<llvm::Value*> idx;
  llvm::Value* flat = b.getInt64(0);
  for (size_t d = 0; d < sizes.size(); ++d) {
    loops.push_back(begin_loop(b, b.getInt64(0), sizes[d], "lib.i" + std::to_string(d)));
    idx.push_back(loops.back().iv);
    flat = b.CreateAdd(b.CreateMul(flat, sizes[d]), loops.back().iv);
  }
  body(idx, flat);
  for (size_t d = loops.size(); d-- > 0;) end_loop(b, loops[d]);
}

// Row-major indices of flat index `flat` within `sizes`.
std::vector<llvm::Value*> delinearize(llvm::IRBuilder<>& b, llvm::Value* flat, const std::vector<llvm::Value*>& sizes) {
  std::vector<llvm::Value*> idx(sizes.size());
  for (size_t d = sizes.size(); d-- > 0;) {
    if (d == 0) {
      idx[d] = flat;
    } else {
      idx[d] = b.CreateSRem(flat, sizes[d]);
      flat = b.CreateSDiv(flat, sizes[d]);
    }
  }
  return idx;
}

bool same_sizes(const Operand& a, const Operand& b) {
  if (a.sizes.size() != b.sizes.size()) return false;
  for (size_t i = 0; i < a.sizes.size(); ++i)
    if (sym::simplify(a.sizes[i]) != sym::simplify(b.sizes[i])) return false;
  return true;
}

// Emits `fast` when `ok` holds (at compile time or run time), `slow` otherwise.
void branch_on(Frame& f, llvm::Value* ok, const std::function<void()>& fast, const std::function<void()>& slow,
               const std::string& name) {
  if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(ok)) {
    if (c->isZero()) slow();
    else fast();
    return;
  }
  llvm::BasicBlock* fast_bb = llvm::BasicBlock::Create(f.mc.ctx, name + ".flat", f.fn);
  llvm::BasicBlock* slow_bb = llvm::BasicBlock::Create(f.mc.ctx, name + ".loops", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, name + ".done", f.fn);
  f.b.CreateCondBr(ok, fast_bb, slow_bb);
  f.b.SetInsertPoint(fast_bb);
  fast();
  f.b.CreateBr(done);
  f.b.SetInsertPoint(slow_bb);
  slow();
  f.b.CreateBr(done);
  f.b.SetInsertPoint(done);
}

}  // namespace

Status emit_copy_node(StateEmitter& se, int node) {
  Frame& f = *se.f;
  const ir::Node& n = *se.state.node(node);
  std::string in = only_connector(n.in_connectors), out = only_connector(n.out_connectors);
  if (in.empty() || out.empty())
    return make_error(Code::InvalidSdfg, se.where(node) + ": a copy node needs exactly one input and one output connector");
  Result<Operand> src = library_operand(se, node, in, true);
  if (!src) return src.take_error();
  Result<Operand> dst = library_operand(se, node, out, false);
  if (!dst) return dst.take_error();
  if (!dst->wcr.empty())
    return make_error(Code::Unsupported, se.where(node) + ": a copy node with a write-conflict resolution on its output");
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* count = element_count(b, *dst);
  bool same = same_sizes(*src, *dst);
  if (!same && src->sizes.size() != 0 && dst->sizes.size() != 0) {
    // Different shapes must hold the same number of elements; a mismatch known only at run
    // time copies the destination's count, which the validator's volume check guards.
    sym::Expr ns = sym::integer(1), nd = sym::integer(1);
    for (const auto& s : src->sizes) ns = sym::mul(ns, s);
    for (const auto& s : dst->sizes) nd = sym::mul(nd, s);
    std::optional<int64_t> cs = sym::as_integer(sym::simplify(ns)), cd = sym::as_integer(sym::simplify(nd));
    if (cs && cd && *cs != *cd)
      return make_error(Code::InvalidSdfg, se.where(node) + ": copy between " + std::to_string(*cs) + " and " +
                                               std::to_string(*cd) + " elements");
  }
  auto loops = [&]() {
    for_each_index(b, dst->size_values, [&](const std::vector<llvm::Value*>& di, llvm::Value* flat) {
      std::vector<llvm::Value*> si = same ? di : delinearize(b, flat, src->size_values);
      TypedValue v = load_scalar(b, operand_element(f, *src, si), src->type);
      store_scalar(b, {convert(b, v, dst->type), dst->type}, operand_element(f, *dst, di));
    });
  };
  if (src->type != dst->type) {
    loops();
    return Status::success();
  }
  llvm::Value* ok = b.CreateAnd(contiguous(b, *src), contiguous(b, *dst));
  uint64_t bytes = element_bytes(f, dst->type);
  branch_on(
      f, ok,
      [&]() {
        // memmove: the two memlets may name overlapping parts of one container.
        b.CreateMemMove(dst->base, llvm::MaybeAlign(), src->base, llvm::MaybeAlign(),
                        b.CreateMul(count, b.getInt64(static_cast<int64_t>(bytes))));
      },
      loops, "copy");
  return Status::success();
}

Status emit_memset_node(StateEmitter& se, int node) {
  Frame& f = *se.f;
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  std::string out = only_connector(n.out_connectors);
  if (out.empty() || !n.in_connectors.empty())
    return make_error(Code::InvalidSdfg, se.where(node) + ": a memset node needs exactly one output connector and no inputs");
  Result<Operand> dst = library_operand(se, node, out, false);
  if (!dst) return dst.take_error();
  if (!dst->wcr.empty())
    return make_error(Code::Unsupported, se.where(node) + ": a memset node with a write-conflict resolution on its output");
  double fill = 0.0;
  std::string v = library_property(n, "value");
  if (!v.empty() && v != "null") {
    if (v.front() == '"' && v.size() >= 2) v = v.substr(1, v.size() - 2);
    char* end = nullptr;
    fill = std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end != '\0')
      return make_error(Code::Unsupported, se.where(node) + ": memset value \"" + v + "\" is not a number");
  }
  llvm::IRBuilder<>& b = f.b;
  ScalarType t = dst->type;
  llvm::Value* value = tasklet::is_integer(t) || t == ScalarType::Bool
                           ? constant_int(b, t, static_cast<int64_t>(fill))
                           : constant_float(b, t, fill);
  auto loops = [&]() {
    for_each_index(b, dst->size_values, [&](const std::vector<llvm::Value*>& di, llvm::Value*) {
      store_scalar(b, {value, t}, operand_element(f, *dst, di));
    });
  };
  if (fill != 0.0) {
    loops();  // LLVM recognizes the dense case as a memset pattern when it is one
    return Status::success();
  }
  uint64_t bytes = element_bytes(f, t);
  branch_on(
      f, contiguous(b, *dst),
      [&]() {
        b.CreateMemSet(dst->base, b.getInt8(0), b.CreateMul(element_count(b, *dst), b.getInt64(static_cast<int64_t>(bytes))),
                       llvm::MaybeAlign());
      },
      loops, "memset");
  return Status::success();
}

}  // namespace dace::codegen
