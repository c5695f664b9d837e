#include "lowering/thread_stack.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <map>
#include <set>

#include "codegen/target_lowering.h"
#include "lowering/device_module.h"

namespace dace::cuda {

namespace {

// A per-thread stack array: a transient Array of a host storage (device storages are memory
// of their own, scalars live in registers).
bool on_thread_stack(const ir::DataDescriptor& d) {
  return d.transient && d.kind == ir::DataKind::Array && codegen::is_host_storage(d.storage);
}

// Its bytes as an expression of the symbols of its SDFG, with alignment slack (the device's
// dynamic stack arrays are aligned to 16 bytes or more).
sym::Expr array_bytes(const ir::DataDescriptor& d) {
  const int64_t elem = std::max(1, ir::element_size(d.dtype));
  sym::Expr elems = d.total_size ? d.total_size : ir::product(d.shape);
  return sym::add(sym::mul(sym::ceildiv(sym::mul(elems, sym::integer(elem)), sym::integer(16)), sym::integer(16)),
                  sym::integer(16));
}

// Sizes of every stack array of `g` and of the SDFGs nested in it, in the symbols of the
// SDFG that holds `g` (through `mapping`, g's symbols in the outer ones).
void nested_arrays(const ir::SDFG& g, const std::map<std::string, sym::Expr>& mapping, std::vector<sym::Expr>& out) {
  for (const auto& [name, d] : g.arrays)
    if (on_thread_stack(d)) out.push_back(sym::substitute(array_bytes(d), mapping));
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids()) {
      if (s->node(id)->kind != ir::NodeKind::NestedSDFG) continue;
      const auto* n = static_cast<const ir::NestedSDFGNode*>(s->node(id));
      if (!n->sdfg) continue;
      std::map<std::string, sym::Expr> inner;
      for (const auto& [sym_name, e] : n->symbol_mapping) inner[sym_name] = sym::substitute(e, mapping);
      nested_arrays(*n->sdfg, inner, out);
    }
}

bool inside(const codegen::StateEmitter& se, int node, int entry) {
  for (int p = node; p >= 0; p = se.parents[static_cast<size_t>(p)])
    if (p == entry) return true;
  return false;
}

}  // namespace

Status reserve_thread_stack(codegen::StateEmitter& se, int entry, const std::string& where) {
  std::vector<sym::Expr> sizes;
  for (const auto& [scope, names] : se.scope_locals) {
    if (scope < 0 || !inside(se, scope, entry)) continue;
    for (const std::string& name : names)
      if (auto d = se.sdfg.arrays.find(name); d != se.sdfg.arrays.end() && on_thread_stack(d->second))
        sizes.push_back(array_bytes(d->second));
  }
  for (int id : se.state.node_ids()) {
    if (id == entry || se.state.node(id)->kind != ir::NodeKind::NestedSDFG || !inside(se, id, entry)) continue;
    const auto* n = static_cast<const ir::NestedSDFGNode*>(se.state.node(id));
    if (n->sdfg) nested_arrays(*n->sdfg, n->symbol_mapping, sizes);
  }
  if (sizes.empty()) return Status::success();
  codegen::Frame& host = *se.f;
  llvm::IRBuilder<>& b = host.b;
  llvm::Value* total = b.getInt64(kThreadFrameBytes);
  size_t counted = 0;
  for (const sym::Expr& e : sizes) {
    Result<llvm::Value*> v = host.sym(sym::simplify(e));
    if (!v) continue;  // sized by symbols bound inside the kernel: not known before the launch
    llvm::Value* bytes = b.CreateSExtOrTrunc(*v, b.getInt64Ty());
    // Saturating: a sum past int64 becomes INT64_MAX, which the runtime refuses (naming it)
    // instead of a wrapped small or negative request.
    total = b.CreateBinaryIntrinsic(llvm::Intrinsic::sadd_sat, total,
                                    b.CreateSelect(b.CreateICmpSGT(bytes, b.getInt64(0)), bytes, b.getInt64(0)));
    ++counted;
  }
  if (counted == 0) return Status::success();
  llvm::FunctionCallee reserve = host.mc.module.getOrInsertFunction(
      "dace_cuda_reserve_stack", llvm::FunctionType::get(b.getInt32Ty(), {b.getInt64Ty()}, false));
  record_runtime_failure(host, b.CreateCall(reserve, {total}), /*leave=*/true,
                         where + ": per-thread stack for the kernel's arrays (dace_cuda_reserve_stack)");
  return Status::success();
}

}  // namespace dace::cuda
