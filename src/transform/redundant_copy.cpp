#include "transform/redundant_copy.h"

#include <algorithm>

#include "transform/dead_dataflow_elimination.h"

namespace dace::transform {
namespace {

bool is_access(const ir::Node* n) { return n && n->kind == ir::NodeKind::Access; }

}  // namespace

void access_copy_matches(const ir::State& state, std::vector<std::vector<int>>& out) {
  std::vector<std::vector<int>> found;
  for (int e : state.edge_ids()) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (edge.src != edge.dst && is_access(state.node(edge.src)) && is_access(state.node(edge.dst)))
      found.push_back({edge.src, edge.dst});
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

bool plain_container(const ir::DataDescriptor& d) {
  return d.kind == ir::DataKind::Array || d.kind == ir::DataKind::Scalar;
}

std::string copy_pair_problem(const ir::SDFG& sdfg, const std::string& removed, const std::string& kept) {
  const auto dr = sdfg.arrays.find(removed), dk = sdfg.arrays.find(kept);
  if (dr == sdfg.arrays.end() || dk == sdfg.arrays.end()) return "an array is not declared";
  const ir::DataDescriptor& r = dr->second;
  const ir::DataDescriptor& k = dk->second;
  if (!r.transient || !plain_container(r)) return removed + " is not a transient array or scalar";
  if (r.lifetime != ir::Lifetime::Scope && r.lifetime != ir::Lifetime::State && r.lifetime != ir::Lifetime::SDFG)
    return removed + " outlives the SDFG call";
  if (!plain_container(k)) return kept + " is a view, reference or stream";
  if (!(r.dtype == k.dtype) || r.storage != k.storage) return "the arrays differ in type or storage";

  int nodes = 0;
  for (const ir::State* st : sdfg.all_states())
    for (int id : st->node_ids())
      if (const ir::Node* n = st->node(id); is_access(n) && static_cast<const ir::AccessNode*>(n)->data == removed)
        ++nodes;
  if (nodes != 1) return removed + " has other access nodes";
  if (control_flow_names(sdfg).count(removed)) return removed + " is named by control flow";
  return {};
}

std::set<int> reachable_nodes(const ir::State& s, int from, bool forward) {
  std::set<int> seen;
  std::vector<int> stack{from};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    for (int e : forward ? s.out_edges(n) : s.in_edges(n)) {
      const int next = forward ? s.edge(e)->dst : s.edge(e)->src;
      if (seen.insert(next).second) stack.push_back(next);
    }
  }
  return seen;
}

}  // namespace dace::transform
