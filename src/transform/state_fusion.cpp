#include "transform/state_fusion.h"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/sets.h"
#include "ir/nodes.h"
#include "transform/cfg_list.h"

namespace dace::transform {
namespace {

const ir::State* as_state(const ir::ControlFlowBlock* b) {
  return b && b->kind == ir::BlockKind::State ? static_cast<const ir::State*>(b) : nullptr;
}

// Whether a node's effects are not all on its memlets, so that only the state order keeps it
// ordered with the rest: side-effect tasklets (also inside nested SDFGs), and MPI's
// Wait/Waitall, which complete transfers into buffers they have no edges to (DaCe refuses
// fusing those too).
bool hidden_effects(const ir::Node& n);

bool sdfg_has_hidden_effects(const ir::SDFG& sdfg) {
  for (const ir::State* s : sdfg.all_states())
    for (int id : s->node_ids())
      if (hidden_effects(*s->node(id))) return true;
  return false;
}

bool hidden_effects(const ir::Node& n) {
  switch (n.kind) {
    case ir::NodeKind::Tasklet: return static_cast<const ir::Tasklet&>(n).side_effects;
    case ir::NodeKind::NestedSDFG: {
      const auto& nested = static_cast<const ir::NestedSDFGNode&>(n);
      return nested.sdfg && sdfg_has_hidden_effects(*nested.sdfg);
    }
    case ir::NodeKind::Library: {
      const auto& lib = static_cast<const ir::LibraryNode&>(n);
      const std::string& cls = lib.classpath;
      const bool wait = cls.ends_with(".Waitall") || cls.ends_with(".Wait") || cls == "Waitall" || cls == "Wait";
      return wait || lib.label == "_Waitall_" || lib.label == "_Wait_";
    }
    default: return false;
  }
}

// How a state touches each container, from its access nodes; what it reads and writes comes
// from the cached access sets.
struct Access {
  std::set<std::string> read, written;
  std::map<std::string, std::vector<int>> nodes;  // container -> access node ids, ascending
  bool hidden_effects = false;
  bool references = false;
  bool empty = true;
};

Access access_of(const ir::SDFG& sdfg, const ir::State& state, AnalysisManager& am) {
  Access a;
  const AccessSets& sets = am.access_sets(state);
  a.read = sets.read;
  a.written = sets.written;
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    a.empty = false;
    if (hidden_effects(*n)) a.hidden_effects = true;
    if (n->kind != ir::NodeKind::Access) continue;
    const std::string& d = static_cast<const ir::AccessNode*>(n)->data;
    a.nodes[d].push_back(id);
    auto desc = sdfg.arrays.find(d);
    if (desc == sdfg.arrays.end() || desc->second.kind == ir::DataKind::Reference) a.references = true;
    if (desc != sdfg.arrays.end() && desc->second.kind == ir::DataKind::Stream && sets.read.count(d))
      a.written.insert(d);  // popping consumes
  }
  return a;
}

// Whether every path out of `from` runs into `through`: nothing reachable from `from` without
// passing `through` is a sink. Then all that `from` feeds has finished once `through` is written.
bool all_paths_pass(const ir::State& s, int from, int through) {
  std::vector<char> seen(static_cast<size_t>(s.node_slots()), 0);
  seen[static_cast<size_t>(from)] = 1;
  std::vector<int> stack{from};
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    const std::vector<int> outs = s.out_edges(n);
    if (outs.empty()) return false;
    for (int e : outs) {
      const int dst = s.edge(e)->dst;
      if (dst != through && !seen[static_cast<size_t>(dst)]) {
        seen[static_cast<size_t>(dst)] = 1;
        stack.push_back(dst);
      }
    }
  }
  return true;
}

// The nodes reachable from `from` (included) along the edges, or against them (`forward`
// false), indexed by node slot.
std::vector<char> reach(const ir::State& s, const std::vector<int>& from, bool forward) {
  std::vector<char> seen(static_cast<size_t>(s.node_slots()), 0);
  std::vector<int> stack;
  for (int n : from)
    if (!seen[static_cast<size_t>(n)]) {
      seen[static_cast<size_t>(n)] = 1;
      stack.push_back(n);
    }
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    for (int e : forward ? s.out_edges(n) : s.in_edges(n)) {
      const int next = forward ? s.edge(e)->dst : s.edge(e)->src;
      if (!seen[static_cast<size_t>(next)]) {
        seen[static_cast<size_t>(next)] = 1;
        stack.push_back(next);
      }
    }
  }
  return seen;
}

// The order networkx's topological_sort gives a DaCe state (generations of Kahn's algorithm:
// sources in node order, then children in the order of their first edge from each node), so
// that merges choose among candidates as DaCe does.
std::vector<int> dace_topological_order(const ir::State& s) {
  std::vector<int> indegree(static_cast<size_t>(s.node_slots()), 0);
  std::vector<int> generation;
  for (int n : s.node_ids()) {
    indegree[static_cast<size_t>(n)] = static_cast<int>(s.in_edges(n).size());
    if (indegree[static_cast<size_t>(n)] == 0) generation.push_back(n);
  }
  std::vector<int> order;
  while (!generation.empty()) {
    std::vector<int> next;
    for (int n : generation) {
      order.push_back(n);
      std::vector<int> children;
      for (int e : s.out_edges(n)) {
        const int c = s.edge(e)->dst;
        if (std::find(children.begin(), children.end(), c) == children.end()) children.push_back(c);
        if (--indegree[static_cast<size_t>(c)] == 0) next.push_back(c);
      }
    }
    generation = std::move(next);
  }
  return order;
}

// The subset an edge touches of the access node `n`'s container (DaCe's src_subset /
// dst_subset): the memlet's subset when it names that container, else its other subset.
const sym::Subset& subset_at(const ir::State& s, const ir::DataflowEdge& e, int n) {
  const auto& data = static_cast<const ir::AccessNode*>(s.node(n))->data;
  if (e.memlet.data != data && e.memlet.other_subset) return *e.memlet.other_subset;
  return e.memlet.subset;
}

// DaCe's memlets_intersect(first, [written], False, second, [read], True): whether what the
// first state writes into `written` may overlap what the second reads from `read` (undecided
// counts as overlapping).
bool writes_meet_reads(const ir::State& first, int written, const ir::State& second, int read) {
  for (int ea : first.in_edges(written))
    for (int eb : second.out_edges(read)) {
      const sym::Subset& a = subset_at(first, *first.edge(ea), written);
      const sym::Subset& b = subset_at(second, *second.edge(eb), read);
      if (analysis::subsets_intersect(a, b).value_or(true)) return true;
    }
  return false;
}

std::vector<std::string> common(const std::set<std::string>& x, const std::set<std::string>& y) {
  std::vector<std::string> out;
  std::set_intersection(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(out));
  return out;
}

}  // namespace

void StateFusion::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  std::vector<std::vector<int>> found;
  for (int es : region.edge_slots()) {
    const ir::InterstateEdge& e = *region.edge(es);
    if (e.src != e.dst && as_state(region.block(e.src)) && as_state(region.block(e.dst))) found.push_back({e.src, e.dst});
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

bool StateFusion::can_apply(const Site& site, const std::vector<int>& blocks) {
  const ir::ControlFlowRegion& region = site.region;
  const ir::State* first = as_state(region.block(blocks[0]));
  const ir::State* second = as_state(region.block(blocks[1]));
  if (!first || !second || blocks[0] == blocks[1]) return refuse("the pattern needs two different states");
  const std::vector<int> out = region.out_edges(blocks[0]), in = region.in_edges(blocks[1]);
  if (out.size() != 1 || in.size() != 1 || out[0] != in[0])
    return refuse("the first state's only successor must be the second state, and its only predecessor the first");
  const ir::InterstateEdge& edge = *region.edge(out[0]);
  if (!edge.is_unconditional()) return refuse("the edge between the states has a condition");
  if (!edge.assignments.empty()) return refuse("the edge between the states assigns symbols");
  if (entry_block(region) == blocks[1]) return refuse("the second state is the region's start block");

  const Access a = access_of(site.sdfg, *first, site.am), b = access_of(site.sdfg, *second, site.am);
  if (a.references || b.references) return refuse("a state accesses a Reference or an undeclared container");
  // Effects outside the dataflow are ordered with the other state's work only by the state
  // boundary: keep it unless the other state has nothing to order against.
  if ((a.hidden_effects && !b.empty) || (b.hidden_effects && !a.empty))
    return refuse("a state has side effects (side-effect tasklets, MPI waits) whose order would be lost");
  // DaCe refuses a second state with two source access nodes of one container (which of them
  // would connect to the first state is ambiguous); so do we, to stay within its legality.
  std::set<std::string> sources;
  for (const auto& [d, ids] : b.nodes)
    for (int n : ids)
      if (second->in_edges(n).empty() && !sources.insert(d).second)
        return refuse("the second state reads \"" + d + "\" from more than one source access node");
  if (auto waw = common(a.written, b.written); !waw.empty())
    return refuse("both states write \"" + waw[0] + "\"");
  const ScopeTree& sa = site.am.scope_tree(*first);
  const ScopeTree& sb = site.am.scope_tree(*second);
  const std::vector<std::string> merged = common(a.written, b.read);
  for (const std::string& d : merged) {
    const std::vector<int>& writers = a.nodes.at(d);
    if (writers.size() != 1 || sa.parent[static_cast<size_t>(writers[0])] != -1)
      return refuse("\"" + d + "\" is written in the first state by more than one or a nested access node");
    for (int n : b.nodes.at(d)) {
      if (sb.parent[static_cast<size_t>(n)] != -1 || !second->in_edges(n).empty())
        return refuse("\"" + d + "\" is accessed in the second state by a nested or written access node");
    }
  }
  // Write after read: kept in order only when a merged container sits between them — every
  // path out of the first state's reads runs into its writer node, and everything writing the
  // container in the second state hangs below that container's reader there. This is DaCe's
  // path-ordered read-write case (gemm's `C = alpha * A @ B + beta * C` through a transient).
  for (const std::string& d : common(a.read, b.written)) {
    std::vector<int> writers;  // the nodes whose edges write `d` in the second state
    for (int n2 : b.nodes.at(d))
      for (int e : second->in_edges(n2)) writers.push_back(second->edge(e)->src);
    // Only a container whose reader reaches the writers can order them: filter by one walk
    // backwards before the walks per candidate.
    const std::vector<char> before_writers = reach(*second, writers, false);
    bool ordered = false;
    for (const std::string& x : merged) {
      const std::vector<int>& readers = b.nodes.at(x);
      if (std::none_of(readers.begin(), readers.end(), [&](int r) { return before_writers[static_cast<size_t>(r)] != 0; }))
        continue;
      const std::vector<char> below = reach(*second, readers, true);
      bool ok = std::all_of(writers.begin(), writers.end(), [&](int w) { return below[static_cast<size_t>(w)] != 0; });
      const int n1 = a.nodes.at(x)[0];
      for (int n0 : a.nodes.at(d)) {
        if (!ok) break;
        if (first->out_edges(n0).empty()) continue;  // reads nothing
        ok = sa.parent[static_cast<size_t>(n0)] == -1 && all_paths_pass(*first, n0, n1);
      }
      if (ok) {
        ordered = true;
        break;
      }
    }
    if (!ordered)
      return refuse("the second state writes \"" + d + "\", which the first reads, and no merged access node orders them");
  }
  return true;
}

Status StateFusion::apply_at(const Site& site, const std::vector<int>& blocks) {
  ir::ControlFlowRegion& region = site.region;
  auto* first = static_cast<ir::State*>(region.block(blocks[0]));
  auto* second = static_cast<ir::State*>(region.block(blocks[1]));
  const Access a = access_of(site.sdfg, *first, site.am), b = access_of(site.sdfg, *second, site.am);

  // An empty first state goes and the second takes its place, as in DaCe: the surviving
  // block (its label, guid, position) is DaCe's, so later history entries name the same ids.
  if (a.empty) {
    std::vector<ir::InterstateEdge> predecessors;
    for (int es : region.in_edges(blocks[0])) predecessors.push_back(*region.edge(es));
    const bool was_start = region.start_block == blocks[0];
    region.remove_block(blocks[0]);
    for (ir::InterstateEdge& e : predecessors) {
      e.dst = blocks[1];
      region.add_edge(std::move(e));
    }
    if (was_start) region.start_block = blocks[1];
    return Status::success();
  }

  // DaCe's merge of common access nodes: each top-level access node the second state reads
  // from (not a view; in topological order) that is a source there merges into a top-level
  // access node of the same container in the first state: the only one, else the
  // topologically last whose writes meet its reads, else the topologically last. (DaCe also
  // merges the first state's writers into a second-state node that is written and then read;
  // can_apply refuses those cases.)
  const ScopeTree& sa = site.am.scope_tree(*first);
  const ScopeTree& sb = site.am.scope_tree(*second);
  std::vector<int> first_order;  // top-level access nodes, topologically last first
  for (int n : dace_topological_order(*first))
    if (first->node(n)->kind == ir::NodeKind::Access && sa.parent[static_cast<size_t>(n)] == -1)
      first_order.insert(first_order.begin(), n);
  std::map<int, int> moved;  // node id in `second` -> id in `first`
  std::vector<int> merge_order;
  std::set<int> merged_into;
  for (int n : dace_topological_order(*second)) {
    const ir::Node* node = second->node(n);
    if (node->kind != ir::NodeKind::Access || sb.parent[static_cast<size_t>(n)] != -1) continue;
    if (second->out_edges(n).empty() || !second->in_edges(n).empty()) continue;
    const std::string& d = static_cast<const ir::AccessNode*>(node)->data;
    if (auto desc = site.sdfg.arrays.find(d); desc != site.sdfg.arrays.end() && desc->second.kind == ir::DataKind::View)
      continue;
    std::vector<int> candidates;
    for (int c : first_order)
      if (static_cast<const ir::AccessNode*>(first->node(c))->data == d && !merged_into.count(c)) candidates.push_back(c);
    if (candidates.empty()) continue;
    int into = candidates[0];
    if (candidates.size() > 1)
      for (int c : candidates)
        if (writes_meet_reads(*first, c, *second, n)) {
          into = c;
          break;
        }
    moved[n] = into;
    merged_into.insert(into);
    merge_order.push_back(n);
  }

  std::vector<ir::DataflowEdge> edges;
  for (int e : second->edge_ids()) edges.push_back(*second->edge(e));
  // DaCe re-attaches the edges of merged nodes last (their out-edges, then in-edges, merge by merge).
  std::vector<ir::DataflowEdge> reattached;
  for (int n : merge_order) {
    for (int e : second->out_edges(n)) reattached.push_back(*second->edge(e));
    for (int e : second->in_edges(n)) reattached.push_back(*second->edge(e));
  }
  std::erase_if(edges, [&](const ir::DataflowEdge& e) { return moved.count(e.src) || moved.count(e.dst); });
  edges.insert(edges.end(), reattached.begin(), reattached.end());
  for (int id : second->node_ids()) {
    std::unique_ptr<ir::Node> node = second->release_node(id);
    if (moved.count(id)) continue;
    moved[id] = first->add_node(std::move(node));
  }
  // Scope exits name their entry by id: follow the move.
  for (const auto& [old_id, new_id] : moved) {
    ir::Node* n = first->node(new_id);
    if (n->kind == ir::NodeKind::MapExit) {
      auto* x = static_cast<ir::MapExit*>(n);
      if (moved.count(x->entry)) first->set_scope_entry(new_id, moved[x->entry]);
    } else if (n->kind == ir::NodeKind::ConsumeExit) {
      auto* x = static_cast<ir::ConsumeExit*>(n);
      if (moved.count(x->entry)) first->set_scope_entry(new_id, moved[x->entry]);
    }
  }
  for (ir::DataflowEdge& e : edges) {
    e.src = moved.count(e.src) ? moved[e.src] : -1;
    e.dst = moved.count(e.dst) ? moved[e.dst] : -1;
    first->add_edge(std::move(e));
  }

  // The second state's successors become the first's.
  std::vector<ir::InterstateEdge> successors;
  for (int es : region.out_edges(blocks[1])) successors.push_back(*region.edge(es));
  region.remove_block(blocks[1]);
  // (A stale stored start block naming the second state, which was not the entry, is cleared
  // by remove_block; the entry stays the unique source.)
  for (ir::InterstateEdge& e : successors) {
    e.src = blocks[0];
    if (e.dst == blocks[1]) e.dst = blocks[0];
    region.add_edge(std::move(e));
  }
  return Status::success();
}

}  // namespace dace::transform
