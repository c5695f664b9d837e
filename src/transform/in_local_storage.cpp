#include "transform/in_local_storage.h"

#include <algorithm>
#include <set>

#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

bool is_entry(const ir::Node* n) { return n && n->is_scope_entry(); }

// Parameters of `entry` and of every scope around it (consume scopes name their PE index).
std::set<std::string> enclosing_params(const ir::State& s, const ScopeTree& scopes, int entry) {
  std::set<std::string> out;
  for (int e = entry; e >= 0; e = scopes.parent[static_cast<size_t>(e)]) {
    const ir::Node* n = s.node(e);
    if (n->kind == ir::NodeKind::MapEntry)
      for (const std::string& p : static_cast<const ir::MapEntry*>(n)->map.params) out.insert(p);
    else if (n->kind == ir::NodeKind::ConsumeEntry)
      out.insert(static_cast<const ir::ConsumeEntry*>(n)->consume.pe_index);
  }
  return out;
}

// The edges below `entry`'s connector OUT_x, through inner entries; false with `why` when the
// tree reaches something other than tasklets, access nodes and scope entries, or names other data.
bool memlet_tree(const ir::State& s, int entry, const std::string& x, const std::string& data, std::vector<int>& out,
                 std::string& why) {
  for (int e : s.out_edges(entry)) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (de.src_conn != "OUT_" + x) continue;
    if (de.memlet.data != data || !de.memlet.wcr.empty()) {
      why = "a memlet below the inner entry does not read '" + data + "' plainly";
      return false;
    }
    out.push_back(e);
    const ir::Node* dst = s.node(de.dst);
    if (is_entry(dst)) {
      const std::string y = connector_suffix(de.dst_conn, "IN_");
      if (y.empty() || !memlet_tree(s, de.dst, y, data, out, why)) {
        if (why.empty()) why = "an inner entry takes '" + data + "' as a dynamic input";
        return false;
      }
    } else if (dst->kind != ir::NodeKind::Tasklet && dst->kind != ir::NodeKind::Access) {
      why = "'" + data + "' reaches node " + std::to_string(de.dst) + ", which sees its layout";
      return false;
    }
  }
  return true;
}

}  // namespace

void InLocalStorage::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int a : state.node_ids()) {
    if (!is_entry(state.node(a))) continue;
    std::set<int> seen;
    for (int e : state.out_edges(a)) {
      const int b = state.edge(e)->dst;
      if (is_entry(state.node(b)) && !state.edge(e)->memlet.is_empty() && seen.insert(b).second) out.push_back({a, b});
    }
  }
}

// The edge a -> b the transformation applies to: the one of `array`, else the first data edge
// without WCR (DaCe's choice); -1 when none.
int InLocalStorage::chosen_edge(const ir::State& s, int a, int b) const {
  std::string data = array_;
  if (data.empty())
    for (int e : s.out_edges(a))
      if (s.edge(e)->dst == b && !s.edge(e)->memlet.is_empty() && s.edge(e)->memlet.wcr.empty()) {
        data = s.edge(e)->memlet.data;
        break;
      }
  for (int e : s.out_edges(a))
    if (s.edge(e)->dst == b && s.edge(e)->memlet.data == data && !data.empty()) return e;
  return -1;
}

bool InLocalStorage::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& s = site.state;
  const int a = nodes[0], b = nodes[1];
  if (!is_entry(s.node(a)) || !is_entry(s.node(b))) return refuse("nodes " + std::to_string(a) + " and " + std::to_string(b) + " are not two scope entries");
  if (!create_array_) return refuse("create_array = false (reusing a container) is not supported");
  const int e = chosen_edge(s, a, b);
  if (e < 0) return refuse("no data edge " + (array_.empty() ? std::string() : "of '" + array_ + "' ") + "from entry " +
                           std::to_string(a) + " to entry " + std::to_string(b));
  const ir::DataflowEdge& de = *s.edge(e);
  const std::string& data = de.memlet.data;
  auto it = site.sdfg.arrays.find(data);
  if (it == site.sdfg.arrays.end()) return refuse("undeclared container '" + data + "'");
  if (it->second.kind != ir::DataKind::Array && it->second.kind != ir::DataKind::Scalar)
    return refuse("'" + data + "' is not an array or scalar");
  if (!de.memlet.wcr.empty() || de.memlet.other_subset) return refuse("the edge of '" + data + "' is not a plain read");
  const std::string x = connector_suffix(de.dst_conn, "IN_");
  if (x.empty()) return refuse("the edge of '" + data + "' is a dynamic input of entry " + std::to_string(b));
  for (int f : s.in_edges(b))
    if (f != e && s.edge(f)->dst_conn == de.dst_conn) return refuse("connector " + de.dst_conn + " has two edges");
  std::vector<int> tree;
  std::string why;
  if (!memlet_tree(s, b, x, data, tree, why)) return refuse(why);
  const std::set<std::string> params = enclosing_params(s, site.scopes, a);
  for (const sym::Range& r : de.memlet.subset.dims)
    for (const std::string& f : sym::free_symbols(sym::sub(r.end, r.start)))
      if (params.count(f)) return refuse("the extent of '" + data + "' depends on the scope parameter '" + f + "'");
  return true;
}

Status InLocalStorage::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& s = site.state;
  const int a = nodes[0], b = nodes[1];
  const int e = chosen_edge(s, a, b);
  const ir::DataflowEdge original = *s.edge(e);
  const std::string& data = original.memlet.data;
  const sym::Subset& subset = original.memlet.subset;
  const std::string x = connector_suffix(original.dst_conn, "IN_");
  std::vector<int> tree;
  std::string why;
  memlet_tree(s, b, x, data, tree, why);

  // The transient: the bounding box of the subset, named like DaCe's find_new_name.
  std::string name = prefix_ + data;
  for (int k = 0; site.sdfg.arrays.count(name); ++k) name = prefix_ + data + "_" + std::to_string(k);
  ir::DataDescriptor d;
  d.kind = ir::DataKind::Array;
  d.dtype = site.sdfg.arrays.at(data).dtype;
  d.transient = true;
  sym::Subset local;
  for (const sym::Range& r : subset.dims) {
    const sym::Expr extent = sym::simplify(sym::add(sym::sub(r.end, r.start), sym::integer(1)));
    d.shape.push_back(extent);
    local.dims.push_back({sym::integer(0), sym::sub(extent, sym::integer(1)), sym::integer(1), sym::integer(1)});
  }
  ir::complete_defaults(d);
  site.sdfg.arrays[name] = d;

  auto node = std::make_unique<ir::AccessNode>();
  node->label = name;
  node->data = name;
  const int n = s.add_node(std::move(node));
  s.remove_edge(e);
  ir::Memlet in = original.memlet;
  in.other_subset = local;
  s.add_edge(ir::DataflowEdge{a, n, original.src_conn, "", in});
  ir::Memlet outm;
  outm.data = name;
  outm.subset = local;
  s.add_edge(ir::DataflowEdge{n, b, "", original.dst_conn, outm});
  // Below the inner entry every memlet reads the transient, offset by the subset's start.
  for (int t : tree) {
    ir::Memlet& m = s.edge(t)->memlet;
    m.data = name;
    for (size_t k = 0; k < m.subset.dims.size() && k < subset.dims.size(); ++k) {
      m.subset.dims[k].start = sym::sub(m.subset.dims[k].start, subset.dims[k].start);
      m.subset.dims[k].end = sym::sub(m.subset.dims[k].end, subset.dims[k].start);
    }
  }
  return Status::success();
}

}  // namespace dace::transform
