// MapFusion: the rewrite. Order as in DaCe: rename the second map's parameters, replace each
// intermediate by a per-iteration container, move the first map's remaining outputs to the
// second exit and the second map's inputs to the first entry, then drop the first exit and
// the second entry so that the first entry and the second exit bound one scope. Edges are
// moved, never merged, so every outer memlet stays exact and needs no re-propagation.
#include <algorithm>
#include <set>

#include "transform/map_fusion.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

// Subtracts the start of what one iteration produced, so indices address the small
// per-iteration container; a scalar is addressed as [0].
struct Shrink {
  sym::Subset offset;
  bool scalar = false;

  sym::Subset apply(const sym::Subset& s) const {
    if (scalar || s.dims.size() != offset.dims.size()) return sym::Subset{{{sym::integer(0), sym::integer(0), sym::integer(1), sym::integer(1)}}};
    sym::Subset out = s;
    for (size_t d = 0; d < out.dims.size(); ++d) {
      out.dims[d].start = sym::simplify(sym::sub(out.dims[d].start, offset.dims[d].start));
      out.dims[d].end = sym::simplify(sym::sub(out.dims[d].end, offset.dims[d].start));
    }
    return out;
  }
};

// Points a memlet that addressed `old_data` at `new_data`, shrinking the subset on that side.
void retarget(ir::Memlet& m, const std::string& old_data, const std::string& new_data, const Shrink& shrink) {
  if (m.is_empty()) return;
  if (m.data == old_data) {
    m.data = new_data;
    m.subset = shrink.apply(m.subset);
  } else if (m.other_subset) {
    m.other_subset = shrink.apply(*m.other_subset);
  }
}

// Walks the memlet tree below a retargeted edge: up through nested map exits (producer
// side) or down through nested map entries (consumer side).
void retarget_tree(ir::State& state, int edge, bool producer, const std::string& old_data, const std::string& new_data,
                   const Shrink& shrink) {
  const ir::DataflowEdge e = *state.edge(edge);
  const int n = producer ? e.src : e.dst;
  const ir::NodeKind k = state.node(n)->kind;
  if (producer && k == ir::NodeKind::MapExit) {
    const std::string x = connector_suffix(e.src_conn, "OUT_");
    for (int in : state.in_edges(n))
      if (state.edge(in)->dst_conn == "IN_" + x) {
        retarget(state.edge(in)->memlet, old_data, new_data, shrink);
        retarget_tree(state, in, producer, old_data, new_data, shrink);
      }
  } else if (!producer && k == ir::NodeKind::MapEntry) {
    const std::string x = connector_suffix(e.dst_conn, "IN_");
    for (int out : state.out_edges(n))
      if (state.edge(out)->src_conn == "OUT_" + x) {
        retarget(state.edge(out)->memlet, old_data, new_data, shrink);
        retarget_tree(state, out, producer, old_data, new_data, shrink);
      }
  }
}

void drop_connectors(ir::Node& n, const std::string& x) {
  n.in_connectors.erase("IN_" + x);
  n.out_connectors.erase("OUT_" + x);
}
void add_connectors(ir::Node& n, const std::string& x) {
  n.in_connectors.emplace("IN_" + x, ir::DType{});
  n.out_connectors.emplace("OUT_" + x, ir::DType{});
}

}  // namespace

namespace map_fusion {

void rename_scope(ir::State& state, const ScopeTree& scopes, int entry, int exit,
                  const std::map<std::string, sym::Expr>& values) {
  std::vector<int> edges = state.out_edges(entry);
  for (int e : state.in_edges(exit)) edges.push_back(e);
  for (int n : scopes.scope_nodes(entry))
    for (int e : state.out_edges(n)) edges.push_back(e);
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  for (int e : edges) transform::substitute(state.edge(e)->memlet, values);
  for (int n : scopes.scope_nodes(entry)) {
    ir::Node* node = state.node(n);
    if (node->kind == ir::NodeKind::NestedSDFG) {
      for (auto& [inner, outer] : static_cast<ir::NestedSDFGNode*>(node)->symbol_mapping)
        if (outer) outer = sym::substitute(outer, values);
      continue;
    }
    if (node->kind != ir::NodeKind::MapEntry) continue;
    auto& range = static_cast<ir::MapEntry*>(node)->map.range;
    range = map_fusion::substitute(range, values);
  }
}

void move_connections(ir::State& state, int from, int to) {
  ir::Node& dst = *state.node(to);
  auto has_empty = [&](int src, int dst_node) {
    for (int e : state.out_edges(src))
      if (state.edge(e)->dst == dst_node && state.edge(e)->memlet.is_empty() && state.edge(e)->dst_conn.empty())
        return true;
    return false;
  };
  for (int e : state.in_edges(from)) {
    ir::DataflowEdge* edge = state.edge(e);
    if (!edge->dst_conn.empty()) continue;
    if (has_empty(edge->src, to)) state.remove_edge(e);
    else state.set_edge_ends(e, edge->src, to);
  }
  for (int e : state.out_edges(from)) {
    ir::DataflowEdge* edge = state.edge(e);
    if (!edge->src_conn.empty()) continue;
    if (has_empty(to, edge->dst)) state.remove_edge(e);
    else state.set_edge_ends(e, to, edge->dst);
  }
  // Data connectors, in name order for deterministic fresh names; taken from the edges, so
  // a connector missing from the node's declared list still moves.
  std::set<std::string> suffixes;
  for (int e : state.in_edges(from)) {
    const std::string x = connector_suffix(state.edge(e)->dst_conn, "IN_");
    if (!x.empty()) suffixes.insert(x);
  }
  for (int e : state.out_edges(from)) {
    const std::string x = connector_suffix(state.edge(e)->src_conn, "OUT_");
    if (!x.empty()) suffixes.insert(x);
  }
  for (const std::string& x : suffixes) {
    const std::string z = map_fusion::fresh_connector(dst, x);
    for (int e : state.in_edges(from)) {
      ir::DataflowEdge* edge = state.edge(e);
      if (edge->dst_conn != "IN_" + x) continue;
      edge->dst_conn = "IN_" + z;
      state.set_edge_ends(e, edge->src, to);
    }
    for (int e : state.out_edges(from)) {
      ir::DataflowEdge* edge = state.edge(e);
      if (edge->src_conn != "OUT_" + x) continue;
      edge->src_conn = "OUT_" + z;
      state.set_edge_ends(e, to, edge->dst);
    }
    add_connectors(dst, z);
    drop_connectors(*state.node(from), x);
  }
}

}  // namespace map_fusion

Status MapFusion::apply_at(const Site& site, const std::vector<int>& nodes) {
  Plan plan;
  if (!analyze(site, nodes, plan)) return make_error(Code::InvalidArgument, "MapFusion: " + why_not_);
  ir::State& state = site.state;
  if (!plan.rename.empty())
    map_fusion::rename_scope(state, site.scopes, plan.second_entry, plan.second_exit, map_fusion::as_symbols(plan.rename));
  for (int e : plan.exclusive) fuse_intermediate(site, plan, e, true);
  for (int e : plan.shared) fuse_intermediate(site, plan, e, false);

  // What is left on the first exit is pure output: it now leaves the fused map at its end.
  map_fusion::move_connections(state, plan.first_exit, plan.second_exit);
  // The second map's other inputs now enter at the first entry.
  map_fusion::move_connections(state, plan.second_entry, plan.first_entry);
  auto* first_entry = static_cast<ir::MapEntry*>(state.node(plan.first_entry));
  auto* second_exit = static_cast<ir::MapExit*>(state.node(plan.second_exit));
  // The smaller label wins, so fusing a chain gives the same label in any order (DaCe).
  const std::string label = std::min(first_entry->label, state.node(plan.second_entry)->label);
  state.remove_node(plan.first_exit);
  state.remove_node(plan.second_entry);
  first_entry->label = label;
  second_exit->label = label;
  state.set_scope_entry(plan.second_exit, plan.first_entry);
  return Status::success();
}

void MapFusion::fuse_intermediate(const Site& site, const Plan& plan, int out_edge, bool exclusive) {
  ir::State& state = site.state;
  ir::SDFG& sdfg = site.sdfg;
  const ir::DataflowEdge out = *state.edge(out_edge);
  const int inter = out.dst;
  const std::string data = static_cast<const ir::AccessNode*>(state.node(inter))->data;
  const std::string x = connector_suffix(out.src_conn, "OUT_");
  int pre_id = -1;
  for (int e : state.in_edges(plan.first_exit))
    if (state.edge(e)->dst_conn == "IN_" + x) pre_id = e;
  const ir::DataflowEdge pre = *state.edge(pre_id);
  const sym::Subset produced = *map_fusion::subset_of(pre.memlet, data);

  // The per-iteration container: a scalar when one element is produced, else an array of
  // the produced block's (constant, checked) shape.
  Shrink shrink;
  shrink.offset = produced;
  std::vector<sym::Expr> shape;
  bool one = true;
  for (sym::Expr s : sym::size(produced)) {
    shape.push_back(sym::simplify(s));
    one = one && sym::as_integer(shape.back()) == 1;
  }
  shrink.scalar = one;
  const ir::DataDescriptor& old_desc = sdfg.arrays.at(data);
  ir::DataDescriptor desc;
  desc.kind = one ? ir::DataKind::Scalar : ir::DataKind::Array;
  desc.dtype = old_desc.dtype;
  desc.transient = true;
  desc.debuginfo = old_desc.debuginfo;
  if (!one) desc.shape = shape;
  ir::complete_defaults(desc);
  const std::string name = map_fusion::fresh_data_name(sdfg, "__map_fusion_" + data);
  sdfg.arrays[name] = desc;
  sym::Subset whole;
  if (one) whole.dims.push_back({sym::integer(0), sym::integer(0), sym::integer(1), sym::integer(1)});
  for (size_t d = 0; !one && d < shape.size(); ++d)
    whole.dims.push_back({sym::integer(0), sym::simplify(sym::sub(shape[d], sym::integer(1))), sym::integer(1), sym::integer(1)});

  auto node = std::make_unique<ir::AccessNode>();
  node->data = name;
  node->label = name;
  node->debuginfo = state.node(inter)->debuginfo;
  const int small = state.add_node(std::move(node));

  // Producer side: what entered the first exit now writes the small container.
  ir::Memlet pm = pre.memlet;
  if (pm.data == data) {
    pm.data = name;
    pm.subset = whole;
  } else {
    pm.other_subset = whole;
  }
  const int new_pre = state.add_edge(ir::DataflowEdge{pre.src, small, pre.src_conn, "", pm});
  retarget_tree(state, new_pre, true, data, name, shrink);

  // Consumer side: the second map's reads of the intermediate read the small container.
  ir::Node& second_entry = *state.node(plan.second_entry);
  for (int ce : state.in_edges(plan.second_entry)) {
    const ir::DataflowEdge c = *state.edge(ce);
    if (c.src != inter) continue;
    const std::string y = connector_suffix(c.dst_conn, "IN_");
    for (int ie : state.out_edges(plan.second_entry)) {
      const ir::DataflowEdge inner = *state.edge(ie);
      if (inner.src_conn != "OUT_" + y) continue;
      ir::Memlet m = inner.memlet;
      retarget(m, data, name, shrink);
      state.remove_edge(ie);
      const int ne = state.add_edge(ir::DataflowEdge{small, inner.dst, "", inner.dst_conn, m});
      retarget_tree(state, ne, false, data, name, shrink);
    }
    state.remove_edge(ce);
    drop_connectors(second_entry, y);
  }

  state.remove_edge(pre_id);
  state.remove_edge(out_edge);
  drop_connectors(*state.node(plan.first_exit), x);
  if (exclusive) {
    state.remove_node(inter);
    sdfg.arrays.erase(data);
    return;
  }
  // Kept: the small container is copied out to the intermediate at the fused map's exit.
  ir::Node& second_exit = *state.node(plan.second_exit);
  const std::string z = map_fusion::fresh_connector(second_exit, data);
  ir::Memlet back = pre.memlet;
  back.subset = produced;
  back.other_subset = whole;
  back.guid.clear();
  state.add_edge(ir::DataflowEdge{small, plan.second_exit, "", "IN_" + z, back});
  state.add_edge(ir::DataflowEdge{plan.second_exit, inter, "OUT_" + z, out.dst_conn, out.memlet});
  add_connectors(second_exit, z);
}

}  // namespace dace::transform
