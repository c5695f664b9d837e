#include "transform/loop_to_map.h"

#include <memory>
#include <set>

#include "analysis/memlet_propagation.h"
#include "transform/cfg_list.h"
#include "transform/loop_bounds.h"
#include "transform/loop_dependence.h"
#include "transform/loop_privatization.h"

namespace dace::transform {
namespace {

const ir::LoopRegion* as_loop(const ir::ControlFlowBlock* b) {
  return b && b->kind == ir::BlockKind::Loop ? static_cast<const ir::LoopRegion*>(b) : nullptr;
}

// The body state of a loop made of exactly one state and no interstate edges.
const ir::State* single_body(const ir::LoopRegion& loop) {
  const std::vector<int> blocks = loop.block_slots();
  if (blocks.size() != 1 || !loop.edge_slots().empty()) return nullptr;
  const ir::ControlFlowBlock* b = loop.block(blocks.front());
  return b->kind == ir::BlockKind::State ? static_cast<const ir::State*>(b) : nullptr;
}

bool is_access(const ir::State& s, int n) { return s.node(n)->kind == ir::NodeKind::Access; }

// Containers of the body that need a private copy per iteration: an access node both
// written and read, or used only inside a nested scope (it never reaches the top level).
std::set<std::string> needing_privatization(const ir::State& s, const std::vector<int>& parents) {
  std::set<std::string> top_level, inner, both;
  for (int n : s.node_ids()) {
    if (!is_access(s, n)) continue;
    const std::string& data = static_cast<const ir::AccessNode&>(*s.node(n)).data;
    (parents[static_cast<size_t>(n)] == -1 ? top_level : inner).insert(data);
    if (!s.in_edges(n).empty() && !s.out_edges(n).empty()) both.insert(data);
  }
  for (const std::string& d : inner)
    if (!top_level.count(d)) both.insert(d);
  return both;
}

// Inside an inner scope, memlets are in the inner parameters; the dependence test sees such
// a node only through the propagated memlets of the top level. That is complete only when
// its data crosses the scope: it is read from the entry, or what is written into it leaves
// through exits (memlet paths through scope nodes name one container).
bool crosses_its_scope(const ir::State& s, int n, const std::string& data) {
  const std::vector<int> ins = s.in_edges(n);
  if (ins.empty()) return false;
  bool from_entry = true;
  for (int e : ins) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (de.memlet.is_empty() || de.memlet.data != data) return false;
    from_entry = from_entry && s.node(de.src)->kind == ir::NodeKind::MapEntry;
  }
  if (from_entry) return true;
  for (int e : s.out_edges(n)) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (s.node(de.dst)->kind != ir::NodeKind::MapExit || de.memlet.is_empty() || de.memlet.data != data) return false;
  }
  return true;
}

// Every memlet of the body as seen by its top-level access node, except those of the
// privatized containers (returned in `priv`); false (with `why`) when the body does not have
// the shape this transformation handles.
bool collect_accesses(const ir::SDFG& sdfg, const ir::State& s, std::vector<BodyAccess>& out,
                      std::set<std::string>& priv, std::string& why) {
  const std::vector<int> parents = s.scope_parents();
  priv = needing_privatization(s, parents);
  for (const std::string& d : priv)
    if (!privatizable(sdfg, s, d, why)) return false;
  for (int n : s.node_ids()) {
    if (!is_access(s, n)) continue;
    const auto& an = static_cast<const ir::AccessNode&>(*s.node(n));
    if (priv.count(an.data)) continue;
    if (parents[static_cast<size_t>(n)] != -1) {
      if (!crosses_its_scope(s, n, an.data)) {
        why = "an access node of '" + an.data + "' inside a nested scope whose data does not cross the scope";
        return false;
      }
      continue;
    }
    const bool writes = !s.in_edges(n).empty();
    for (int e : writes ? s.in_edges(n) : s.out_edges(n)) {
      const ir::DataflowEdge& de = *s.edge(e);
      const int other = writes ? de.src : de.dst;
      if (is_access(s, other)) {
        why = "a copy between access nodes of '" + an.data + "' in the body";
        return false;
      }
      if (de.memlet.is_empty() || de.memlet.data != an.data || de.memlet.other_subset) {
        why = "a memlet at '" + an.data + "' that does not name it plainly";
        return false;
      }
      out.push_back({an.data, de.memlet.subset, writes, de.memlet.wcr});
    }
  }
  return true;
}

// A connector name `base` not used yet on `node`'s inputs (or outputs).
std::string fresh_connector(const ir::Node& node, const std::string& prefix, const std::string& data) {
  std::string name = prefix + data;
  for (int k = 1; node.in_connectors.count(name) || node.out_connectors.count(name); ++k)
    name = prefix + data + "_" + std::to_string(k);
  return name;
}

}  // namespace

void LoopToMap::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  for (int b : region.block_slots())
    if (as_loop(region.block(b))) out.push_back({b});
}

bool LoopToMap::can_apply(const Site& site, const std::vector<int>& blocks) {
  const ir::LoopRegion* loop = as_loop(site.region.block(blocks[0]));
  if (!loop) return refuse("the pattern needs a loop region");
  const ir::State* body = single_body(*loop);
  if (!body) return refuse("the loop body is not a single state");
  std::optional<LoopBounds> b = loop_bounds(*loop);
  if (!b) return refuse("loop header is not `i = a; i < b; i = i + s` with a constant step");
  if (!ascending_range(*b)) return refuse("a negative step other than -1");
  // The SDFG whose containers the loop's dataflow names (nested SDFGs have their own).
  const ir::SDFG* sdfg = &owning_sdfg(*loop);
  std::vector<BodyAccess> acc;
  std::set<std::string> priv;
  std::string why;
  if (!collect_accesses(*sdfg, *body, acc, priv, why)) return refuse(why);
  for (const BodyAccess& a : acc) {
    auto it = sdfg->arrays.find(a.data);
    if (it == sdfg->arrays.end()) return refuse("undeclared container '" + a.data + "'");
    // Views and references alias other containers: comparing accesses by name would miss
    // conflicts through the alias.
    if (it->second.kind == ir::DataKind::View || it->second.kind == ir::DataKind::Reference)
      return refuse("'" + a.data + "' is a view or reference");
  }
  bool undecided = false;
  const std::string dep = carried_dependence(acc, loop->loop_variable, *ascending_range(*b), &undecided);
  if (!dep.empty())
    return refuse(undecided ? "cannot decide whether iterations conflict on '" + dep + "'"
                            : "loop-carried dependence on '" + dep + "'");
  return true;
}

Status LoopToMap::apply_at(const Site& site, const std::vector<int>& blocks) {
  ir::ControlFlowRegion& region = site.region;
  const int slot = blocks[0];
  const ir::LoopRegion& loop = *as_loop(region.block(slot));
  const LoopBounds b = *loop_bounds(loop);
  const sym::Range range = *ascending_range(b);
  const std::string var = loop.loop_variable;
  const ir::SDFG& sdfg = owning_sdfg(loop);

  std::unique_ptr<ir::ControlFlowBlock> copy = single_body(loop)->clone();
  auto* st = static_cast<ir::State*>(copy.get());
  st->label = loop.label;
  site.sdfg.register_block(*st);

  const std::vector<int> nodes = st->node_ids();
  const std::vector<int> edges = st->edge_ids();
  const std::vector<int> parents = st->scope_parents();
  const std::set<std::string> priv = needing_privatization(*st, parents);
  // A node of a privatized container stays inside the map; others are outside it.
  auto outside = [&](int n) {
    return is_access(*st, n) && !priv.count(static_cast<const ir::AccessNode&>(*st->node(n)).data);
  };
  auto entry_node = std::make_unique<ir::MapEntry>();
  entry_node->label = loop.label;
  entry_node->map.params = {var};
  entry_node->map.range.dims = {range};
  const int entry = st->add_node(std::move(entry_node));
  auto exit_node = std::make_unique<ir::MapExit>();
  exit_node->label = loop.label;
  exit_node->entry = entry;
  const int exit = st->add_node(std::move(exit_node));
  const sym::Subset map_range{{range}};

  // Each edge between a top-level access node and a top-level computation now passes the
  // map: the inner half keeps the memlet, the outer half covers all iterations.
  for (int e : edges) {
    ir::DataflowEdge de = *st->edge(e);
    const bool in = outside(de.src) && !is_access(*st, de.dst) && parents[static_cast<size_t>(de.dst)] == -1;
    const bool out = !is_access(*st, de.src) && outside(de.dst) && parents[static_cast<size_t>(de.src)] == -1;
    if (!in && !out) continue;
    const ir::DataDescriptor& desc = sdfg.arrays.at(de.memlet.data);
    ir::Memlet outer = de.memlet;
    outer.subset = analysis::propagate_over_map(de.memlet.subset, desc, {var}, map_range);
    outer.volume = nullptr;
    ir::Node& scope = *st->node(in ? entry : exit);
    const std::string cin = fresh_connector(scope, "IN_", de.memlet.data);
    const std::string cout = "OUT_" + cin.substr(3);
    scope.in_connectors[cin] = ir::DType{};
    scope.out_connectors[cout] = ir::DType{};
    st->remove_edge(e);
    ir::DataflowEdge first = de, second = de;
    if (in) {
      first.dst = entry, first.dst_conn = cin, first.memlet = outer;
      second.src = entry, second.src_conn = cout;
    } else {
      first.dst = exit, first.dst_conn = cin;
      second.src = exit, second.src_conn = cout, second.memlet = outer;
    }
    st->add_edge(std::move(first));
    st->add_edge(std::move(second));
  }
  // Top-level computations without inputs (outputs) hang on the entry (exit) through empty
  // memlets, so that they are inside the map's scope.
  for (int n : nodes) {
    if (outside(n) || parents[static_cast<size_t>(n)] != -1) continue;
    const ir::NodeKind k = st->node(n)->kind;
    if (st->in_edges(n).empty() && k != ir::NodeKind::MapExit) st->add_edge(ir::DataflowEdge{entry, n, "", "", {}});
    if (st->out_edges(n).empty() && k != ir::NodeKind::MapEntry) st->add_edge(ir::DataflowEdge{n, exit, "", "", {}});
  }

  // The state takes the loop's place and its edges.
  const int ns = region.add_block(std::move(copy));
  for (int e : region.in_edges(slot)) {
    ir::InterstateEdge ie = *region.edge(e);
    ie.dst = ns;
    region.add_edge(std::move(ie));
  }
  for (int e : region.out_edges(slot)) {
    ir::InterstateEdge ie = *region.edge(e);
    ie.src = ns;
    region.add_edge(std::move(ie));
  }
  if (region.start_block == slot) region.start_block = ns;
  region.remove_block(slot);
  site.am.invalidate(modifies());
  return Status::success();
}

}  // namespace dace::transform
