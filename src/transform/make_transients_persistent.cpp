#include "transform/make_transients_persistent.h"

#include <map>
#include <set>

#include "ir/symbolic/expr.h"
#include "transform/assigned_symbols.h"

namespace dace::transform {
namespace {

// Arrays of a constant size up to this many bytes stay where codegen puts them (the stack).
constexpr int64_t kSmallBytes = 4096;

std::set<std::string> size_symbols(const ir::DataDescriptor& d) {
  std::set<std::string> out;
  auto add = [&](const sym::Expr& e) {
    if (e)
      for (const std::string& s : sym::free_symbols(e)) out.insert(s);
  };
  for (const sym::Expr& e : d.shape) add(e);
  for (const sym::Expr& e : d.strides) add(e);
  add(d.total_size);
  add(d.start_offset);
  return out;
}

bool small_constant_size(const ir::DataDescriptor& d) {
  if (!d.total_size) return false;
  std::optional<int64_t> n = sym::as_integer(d.total_size);
  return n && *n * ir::element_size(d.dtype) <= kSmallBytes;
}

}  // namespace

Result<bool> MakeTransientsPersistent::apply(ir::SDFG& sdfg, AnalysisManager&) {
  // Containers with an access node inside a scope: one allocation per scope instance (or a
  // buffer private to a thread) is what the scope may need, so they keep their lifetime.
  // A `setzero` access node asks for zeros on every call; a persistent buffer is zeroed once.
  std::set<std::string> in_scope, accessed, zeroed;
  for (const ir::State* st : sdfg.all_states()) {
    const std::vector<int> parents = st->scope_parents();
    for (int id : st->node_ids()) {
      const ir::Node* n = st->node(id);
      if (n->kind != ir::NodeKind::Access) continue;
      const auto* access = static_cast<const ir::AccessNode*>(n);
      const std::string& data = access->data;
      accessed.insert(data);
      if (access->setzero) zeroed.insert(data);
      if (parents[static_cast<size_t>(id)] >= 0) in_scope.insert(data);
    }
  }
  const std::set<std::string> assigned = assigned_symbols(sdfg);
  bool changed = false;
  for (auto& [name, d] : sdfg.arrays) {
    if (!d.transient || d.kind != ir::DataKind::Array || d.lifetime != ir::Lifetime::Scope) continue;
    if (d.storage == ir::StorageType::Register || sdfg.constants.count(name)) continue;
    if (!accessed.count(name) || in_scope.count(name) || zeroed.count(name) || small_constant_size(d)) continue;
    bool depends_on_assigned = false;
    for (const std::string& s : size_symbols(d)) depends_on_assigned = depends_on_assigned || assigned.count(s) > 0;
    if (depends_on_assigned) continue;
    d.lifetime = ir::Lifetime::Persistent;
    changed = true;
  }
  return changed;
}

}  // namespace dace::transform
