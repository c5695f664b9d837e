#include "transform/loop_to_map.h"

#include <memory>
#include <set>

#include "analysis/memlet_propagation.h"
#include "transform/cfg_list.h"
#include "transform/loop_body.h"
#include "transform/loop_bounds.h"
#include "transform/loop_dependence.h"
#include "transform/loop_shape.h"
#include "transform/nest_region.h"

namespace dace::transform {
namespace {

bool is_access(const ir::State& s, int n) { return s.node(n)->kind == ir::NodeKind::Access; }

const std::string& data_of(const ir::State& s, int n) { return static_cast<const ir::AccessNode&>(*s.node(n)).data; }

// Whether the one-state body can be wrapped in the map as it is: local containers stay
// inside, and every other top-level access node is a pure source or a pure sink whose edges
// reach computations with memlets naming it plainly (they are split at the map's entry or
// exit). Otherwise the body goes into a nested SDFG.
bool wraps_directly(const ir::State& s, const ir::SDFG& sdfg, const std::set<std::string>& local) {
  const std::vector<int> parents = s.scope_parents();
  for (int n : s.node_ids()) {
    if (!is_access(s, n)) continue;
    const std::string& d = data_of(s, n);
    if (local.count(d)) {
      if (sdfg.arrays.at(d).kind == ir::DataKind::View) return false;
      continue;
    }
    if (parents[static_cast<size_t>(n)] != -1) continue;
    const std::vector<int> ins = s.in_edges(n), outs = s.out_edges(n);
    if (!ins.empty() && !outs.empty()) return false;
    for (int e : ins.empty() ? outs : ins) {
      const ir::DataflowEdge& de = *s.edge(e);
      if (is_access(s, ins.empty() ? de.dst : de.src)) return false;
      if (de.memlet.is_empty() || de.memlet.data != d || de.memlet.other_subset) return false;
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

// Wraps the dataflow of `st` in a map `var = range`. Nodes of `local` containers stay inside
// the map; each edge between another top-level access node and a top-level computation
// passes the map: the inner half keeps the memlet, the outer half covers all iterations.
void wrap_in_map(ir::State& st, const ir::SDFG& sdfg, const std::string& var, const sym::Range& range,
                 const std::set<std::string>& local, const std::string& label) {
  const std::vector<int> nodes = st.node_ids();
  const std::vector<int> edges = st.edge_ids();
  const std::vector<int> parents = st.scope_parents();
  auto outside = [&](int n) { return is_access(st, n) && !local.count(data_of(st, n)); };
  auto entry_node = std::make_unique<ir::MapEntry>();
  entry_node->label = label;
  entry_node->map.params = {var};
  entry_node->map.range.dims = {range};
  const int entry = st.add_node(std::move(entry_node));
  auto exit_node = std::make_unique<ir::MapExit>();
  exit_node->label = label;
  exit_node->entry = entry;
  const int exit = st.add_node(std::move(exit_node));
  const sym::Subset map_range{{range}};

  for (int e : edges) {
    ir::DataflowEdge de = *st.edge(e);
    const bool in = outside(de.src) && !is_access(st, de.dst) && parents[static_cast<size_t>(de.dst)] == -1;
    const bool out = !is_access(st, de.src) && outside(de.dst) && parents[static_cast<size_t>(de.src)] == -1;
    if (!in && !out) continue;
    const ir::DataDescriptor& desc = sdfg.arrays.at(de.memlet.data);
    ir::Memlet outer = de.memlet;
    outer.subset = analysis::propagate_over_map(de.memlet.subset, desc, {var}, map_range);
    outer.volume = nullptr;
    ir::Node& scope = *st.node(in ? entry : exit);
    const std::string cin = fresh_connector(scope, "IN_", de.memlet.data);
    const std::string cout = "OUT_" + cin.substr(3);
    scope.in_connectors[cin] = ir::DType{};
    scope.out_connectors[cout] = ir::DType{};
    st.remove_edge(e);
    ir::DataflowEdge first = de, second = de;
    if (in) {
      first.dst = entry, first.dst_conn = cin, first.memlet = outer;
      second.src = entry, second.src_conn = cout;
    } else {
      first.dst = exit, first.dst_conn = cin;
      second.src = exit, second.src_conn = cout, second.memlet = outer;
    }
    st.add_edge(std::move(first));
    st.add_edge(std::move(second));
  }
  // Top-level computations without inputs (outputs) hang on the entry (exit) through empty
  // memlets, so that they are inside the map's scope.
  for (int n : nodes) {
    if (outside(n) || parents[static_cast<size_t>(n)] != -1) continue;
    const ir::NodeKind k = st.node(n)->kind;
    if (st.in_edges(n).empty() && k != ir::NodeKind::MapExit) st.add_edge(ir::DataflowEdge{entry, n, "", "", {}});
    if (st.out_edges(n).empty() && k != ir::NodeKind::MapEntry) st.add_edge(ir::DataflowEdge{n, exit, "", "", {}});
  }
}

}  // namespace

void LoopToMap::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  for (int b : region.block_slots())
    if (as_loop(region.block(b))) out.push_back({b});
}

bool LoopToMap::can_apply(const Site& site, const std::vector<int>& blocks) {
  const ir::LoopRegion* loop = as_loop(site.region.block(blocks[0]));
  if (!loop) return refuse("the pattern needs a loop region");
  // The SDFG whose containers the loop's dataflow names (nested SDFGs have their own).
  const ir::SDFG& sdfg = owning_sdfg(*loop);
  std::optional<LoopBounds> b = site.am.symbol_ranges(sdfg).loop(*loop);
  if (!b) return refuse("loop header is not `i = a; i < b; i = i + s` with a constant step");
  if (!ascending_range(*b)) return refuse("a negative step other than -1");
  LoopBody body;
  std::string why;
  if (!analyze_loop_body(sdfg, *loop, *b, site.am, body, why)) return refuse(why);
  bool undecided = false;
  // What holds where the loop runs (outer loops' variables, symbols assigned before it,
  // sizes), for the symbols the body leaves alone (the analysis lists no other: kept as a
  // guard, since a range of a symbol the iterations change would not bound their accesses).
  SymbolRanges::Table known = site.am.symbol_ranges(sdfg).at(*loop);
  std::erase_if(known, [&](const auto& entry) { return body.assigned.count(entry.first) != 0; });
  const std::string dep =
      carried_dependence(body.accesses, loop->loop_variable, *ascending_range(*b), known, &undecided);
  if (!dep.empty())
    return refuse(undecided ? "cannot decide whether iterations conflict on '" + dep + "'"
                            : "loop-carried dependence on '" + dep + "'");
  return true;
}

Status LoopToMap::apply_at(const Site& site, const std::vector<int>& blocks) {
  ir::ControlFlowRegion& region = site.region;
  const int slot = blocks[0];
  const ir::LoopRegion& loop = *as_loop(region.block(slot));
  ir::SDFG& sdfg = owning_sdfg(region);
  const LoopBounds b = *site.am.symbol_ranges(sdfg).loop(loop);
  const sym::Range range = *ascending_range(b);
  const std::string var = loop.loop_variable;
  LoopBody body;
  std::string why;
  if (!analyze_loop_body(sdfg, loop, b, site.am, body, why)) return make_error(Code::Internal, "LoopToMap: " + why);

  std::unique_ptr<ir::ControlFlowBlock> copy;
  std::set<std::string> local = body.local;
  const ir::State* one = single_body(loop);
  if (one && wraps_directly(*one, sdfg, body.local)) {
    copy = one->clone();
    copy->label = loop.label;
  } else {
    // Several states, inner control flow, copies or views: the body becomes a nested SDFG
    // that each map iteration calls; local containers move into it.
    NestingPlan plan;
    plan.label = loop.label;
    plan.inputs = body.reads;
    plan.outputs = body.writes;
    plan.moved = body.local;
    copy = nest_region(sdfg, loop, plan);
    local.clear();
  }
  auto* st = static_cast<ir::State*>(copy.get());
  sdfg.register_block(*st);
  wrap_in_map(*st, sdfg, var, range, local, loop.label);

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
