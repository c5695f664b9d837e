#include "transform/local_storage.h"

#include <map>
#include <set>

#include "transform/map_utils.h"

namespace dace::transform::local_storage {
namespace {

bool is_scope_node(const ir::Node* n, Direction dir, bool maps_only) {
  if (!n) return false;
  if (maps_only) return n->kind == (dir == Direction::In ? ir::NodeKind::MapEntry : ir::NodeKind::MapExit);
  return dir == Direction::In ? n->is_scope_entry() : n->is_scope_exit();
}

std::string node_name(const ir::State& s, int n) {
  return "node " + std::to_string(n) + " (\"" + s.node(n)->label + "\")";
}

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

// The memlet tree on the inner side of scope node `node` at connector x (below an entry's
// OUT_x, above an exit's IN_x), through further scope nodes of the same kind.
std::string inner_tree(const ir::State& s, Direction dir, int node, const std::string& x, const std::string& data,
                       const std::string& wcr, std::vector<int>& out) {
  const std::vector<int> edges = dir == Direction::In ? s.out_edges(node) : s.in_edges(node);
  for (int e : edges) {
    const ir::DataflowEdge& de = *s.edge(e);
    if ((dir == Direction::In ? de.src_conn : de.dst_conn) != (dir == Direction::In ? "OUT_" : "IN_") + x) continue;
    if (de.memlet.data != data) return "a memlet inside the inner scope on connector " + x + " names '" + de.memlet.data + "'";
    if (de.memlet.wcr != wcr)
      return "a memlet of '" + data + "' inside the inner scope " + (wcr.empty() ? "has a WCR" : "lacks the edge's WCR");
    out.push_back(e);
    const int next = dir == Direction::In ? de.dst : de.src;
    const ir::Node* n = s.node(next);
    if (is_scope_node(n, dir, false)) {
      const std::string y = connector_suffix(dir == Direction::In ? de.dst_conn : de.src_conn, dir == Direction::In ? "IN_" : "OUT_");
      if (y.empty()) return "'" + data + "' is a dynamic input of " + node_name(s, next);
      std::string why = inner_tree(s, dir, next, y, data, wcr, out);
      if (!why.empty()) return why;
    } else if (n->kind != ir::NodeKind::Tasklet && !(dir == Direction::In && n->kind == ir::NodeKind::Access)) {
      return "'" + data + "' reaches " + node_name(s, next) + ", which sees its layout or is not a tasklet";
    }
  }
  return "";
}

bool provably_equal(sym::Expr a, sym::Expr b) {
  return a == b || sym::as_integer(sym::simplify(sym::sub(a, b))) == 0;
}

}  // namespace

void pair_matches(const ir::State& state, Direction dir, bool maps_only, std::vector<std::vector<int>>& out) {
  for (int a : state.node_ids()) {
    if (!is_scope_node(state.node(a), dir, maps_only)) continue;
    std::set<int> seen;
    for (int e : state.out_edges(a)) {
      const int b = state.edge(e)->dst;
      if (is_scope_node(state.node(b), dir, maps_only) && !state.edge(e)->memlet.is_empty() && seen.insert(b).second)
        out.push_back({a, b});
    }
  }
}

int chosen_edge(const ir::State& s, int a, int b, const std::string& array, bool wcr) {
  std::string data = array;
  if (data.empty())
    for (int e : s.out_edges(a))
      if (s.edge(e)->dst == b && !s.edge(e)->memlet.is_empty() && s.edge(e)->memlet.wcr.empty() != wcr) {
        data = s.edge(e)->memlet.data;
        break;
      }
  for (int e : s.out_edges(a))
    if (s.edge(e)->dst == b && s.edge(e)->memlet.data == data && !data.empty()) return e;
  return -1;
}

std::string edge_problem(const ir::SDFG& sdfg, const ir::State& s, const ScopeTree& scopes, Direction dir, int a,
                         int b, int e, bool wcr, std::vector<int>* tree) {
  const ir::DataflowEdge& de = *s.edge(e);
  const std::string& data = de.memlet.data;
  auto it = sdfg.arrays.find(data);
  if (it == sdfg.arrays.end()) return "undeclared container '" + data + "'";
  if (it->second.kind != ir::DataKind::Array && it->second.kind != ir::DataKind::Scalar)
    return "'" + data + "' is not an array or scalar";
  if (de.memlet.other_subset) return "the edge of '" + data + "' has an other subset";
  if (de.memlet.wcr.empty() == wcr)
    return wcr ? "the edge of '" + data + "' has no WCR" : "the edge of '" + data + "' has a WCR (AccumulateTransient handles those)";
  // The inner node of the pair is b for entries (a -> b, b inside) and a for exits.
  const int inner = dir == Direction::In ? b : a;
  const std::string x = dir == Direction::In ? connector_suffix(de.dst_conn, "IN_") : connector_suffix(de.src_conn, "OUT_");
  if (x.empty()) return "the edge of '" + data + "' does not use an IN_/OUT_ connector of " + node_name(s, inner);
  const std::string& conn = dir == Direction::In ? de.dst_conn : de.src_conn;
  for (int f : dir == Direction::In ? s.in_edges(b) : s.out_edges(a))
    if (f != e && (dir == Direction::In ? s.edge(f)->dst_conn : s.edge(f)->src_conn) == conn)
      return "connector " + conn + " of " + node_name(s, inner) + " has two edges";
  std::vector<int> local;
  std::vector<int>& out = tree ? *tree : local;
  out.clear();
  std::string why = inner_tree(s, dir, inner, x, data, de.memlet.wcr, out);
  if (!why.empty()) return why;
  if (dir == Direction::Out) {
    const int inner_entry = scopes.partner[static_cast<size_t>(a)];
    if (inner_entry < 0) return node_name(s, a) + " has no entry";
    for (int n : scopes.scope_nodes(inner_entry)) {
      const ir::Node* node = s.node(n);
      if (node->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode*>(node)->data == data)
        return "an access node of '" + data + "' lies inside the scope of " + node_name(s, inner_entry);
    }
    if (wcr)
      for (int f : s.in_edges(inner_entry))
        if (s.edge(f)->memlet.data == data) return "the scope of " + node_name(s, inner_entry) + " also reads '" + data + "'";
  }
  const int outer_entry = dir == Direction::In ? a : scopes.partner[static_cast<size_t>(b)];
  const std::set<std::string> params = enclosing_params(s, scopes, outer_entry);
  for (const sym::Range& r : de.memlet.subset.dims)
    for (const std::string& f : sym::free_symbols(sym::sub(r.end, r.start)))
      if (params.count(f)) return "the extent of '" + data + "' depends on the scope parameter '" + f + "'";
  return "";
}

std::string coverage_problem(const ir::State& s, const ScopeTree& scopes, int e, const std::vector<int>& tree) {
  const ir::DataflowEdge& outer = *s.edge(e);
  const std::string& data = outer.memlet.data;
  // The chain from the exit down to one tasklet, collecting the maps on the way.
  std::map<std::string, sym::Range> params;
  std::set<std::string> names;
  int node = outer.src;
  const ir::DataflowEdge* leaf = nullptr;
  for (size_t k = 0; k < tree.size(); ++k) {
    if (s.node(node)->kind != ir::NodeKind::MapExit) return "the writes of '" + data + "' go through a non-map scope";
    const int entry = scopes.partner[static_cast<size_t>(node)];
    const auto* m = static_cast<const ir::MapEntry*>(s.node(entry));
    for (size_t d = 0; d < m->map.params.size() && d < m->map.range.dims.size(); ++d) {
      params[m->map.params[d]] = m->map.range.dims[d];
      names.insert(m->map.params[d]);
    }
    const ir::DataflowEdge& de = *s.edge(tree[k]);
    if (de.dst != node) return "the writes of '" + data + "' fan out inside the scope";
    if (de.memlet.dynamic) return "a write of '" + data + "' is dynamic (may not happen)";
    if (s.node(de.src)->kind == ir::NodeKind::Tasklet) {
      if (k + 1 != tree.size()) return "several tasklets write '" + data + "' inside the scope";
      leaf = &de;
    }
    node = de.src;
  }
  if (!leaf) return "no tasklet writes '" + data + "' inside the scope";
  for (const auto& [p, r] : params)
    for (const std::string& f : sym::free_symbols(sym::add(r.start, r.end)))
      if (names.count(f)) return "the range of '" + p + "' depends on another parameter of the scope";
  const sym::Subset& want = outer.memlet.subset;
  const sym::Subset& got = leaf->memlet.subset;
  if (got.rank() != want.rank()) return "the inner write of '" + data + "' has another rank";
  std::set<std::string> used;
  for (size_t d = 0; d < want.rank(); ++d) {
    const sym::Range& w = want.dims[d];
    const sym::Range& g = got.dims[d];
    if (!provably_equal(g.start, g.end)) return "the inner write of '" + data + "' is not one element";
    if (as_integer(w.step) != 1) return "the block of '" + data + "' has a non-unit step";
    std::vector<std::string> inside;
    for (const std::string& f : sym::free_symbols(g.start))
      if (names.count(f)) inside.push_back(f);
    sym::Expr lo = g.start, hi = g.start;
    if (inside.size() > 1) return "dimension " + std::to_string(d) + " of the inner write of '" + data + "' uses several parameters";
    if (inside.size() == 1) {
      const std::string& p = inside[0];
      const sym::Expr c = sym::simplify(sym::sub(g.start, sym::symbol(p)));
      for (const std::string& f : sym::free_symbols(c))
        if (names.count(f)) return "dimension " + std::to_string(d) + " of the inner write of '" + data + "' is not p + c";
      if (!used.insert(p).second) return "parameter '" + p + "' indexes two dimensions of '" + data + "'";
      const sym::Range& r = params.at(p);
      if (sym::as_integer(r.step) != 1) return "parameter '" + p + "' has a non-unit step";
      lo = sym::add(r.start, c);
      hi = sym::add(r.end, c);
    }
    if (!provably_equal(lo, w.start) || !provably_equal(hi, w.end))
      return "the inner writes of '" + data + "' may not fill dimension " + std::to_string(d) + " of the block";
  }
  return "";
}

int insert_transient(ir::SDFG& sdfg, ir::State& s, Direction dir, int e, const std::vector<int>& tree,
                     const std::string& prefix, std::string* name_out) {
  const ir::DataflowEdge original = *s.edge(e);
  const std::string data = original.memlet.data;
  const sym::Subset& subset = original.memlet.subset;
  // The transient: the bounding box of the subset, named like DaCe's find_new_name.
  std::string name = prefix + data;
  for (int k = 0; sdfg.arrays.count(name); ++k) name = prefix + data + "_" + std::to_string(k);
  ir::DataDescriptor d;
  d.kind = ir::DataKind::Array;
  d.dtype = sdfg.arrays.at(data).dtype;
  d.transient = true;
  sym::Subset local;
  for (const sym::Range& r : subset.dims) {
    const sym::Expr extent = sym::simplify(sym::add(sym::sub(r.end, r.start), sym::integer(1)));
    d.shape.push_back(extent);
    local.dims.push_back({sym::integer(0), sym::sub(extent, sym::integer(1)), sym::integer(1), sym::integer(1)});
  }
  ir::complete_defaults(d);
  sdfg.arrays[name] = d;

  auto node = std::make_unique<ir::AccessNode>();
  node->label = name;
  node->data = name;
  const int n = s.add_node(std::move(node));
  s.remove_edge(e);
  // The side toward the outer scope keeps naming X (the copy X[S] <-> local); the inner side
  // names the transient.
  ir::Memlet outer = original.memlet;
  outer.other_subset = local;
  ir::Memlet inner;
  inner.data = name;
  inner.subset = local;
  inner.wcr = original.memlet.wcr;
  if (dir == Direction::In) {
    s.add_edge(ir::DataflowEdge{original.src, n, original.src_conn, "", outer});
    s.add_edge(ir::DataflowEdge{n, original.dst, "", original.dst_conn, inner});
  } else {
    s.add_edge(ir::DataflowEdge{original.src, n, original.src_conn, "", inner});
    s.add_edge(ir::DataflowEdge{n, original.dst, "", original.dst_conn, outer});
  }
  for (int t : tree) {
    ir::Memlet& m = s.edge(t)->memlet;
    m.data = name;
    for (size_t k = 0; k < m.subset.dims.size() && k < subset.dims.size(); ++k) {
      m.subset.dims[k].start = sym::simplify(sym::sub(m.subset.dims[k].start, subset.dims[k].start));
      m.subset.dims[k].end = sym::simplify(sym::sub(m.subset.dims[k].end, subset.dims[k].start));
    }
  }
  if (name_out) *name_out = name;
  return n;
}

int legal_edge(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, Direction dir, int a, int b,
               const std::string& array, std::vector<int>* tree, std::string& why) {
  const int e = chosen_edge(state, a, b, array, false);
  if (e < 0) {
    why = "no data edge " + (array.empty() ? std::string("without WCR ") : "of '" + array + "' ") + "from " +
          std::to_string(a) + " to " + std::to_string(b);
    return -1;
  }
  std::vector<int> local_tree;
  std::vector<int>& t = tree ? *tree : local_tree;
  why = edge_problem(sdfg, state, scopes, dir, a, b, e, false, &t);
  if (why.empty() && dir == Direction::Out) why = coverage_problem(state, scopes, e, t);
  return why.empty() ? e : -1;
}

}  // namespace dace::transform::local_storage

namespace dace::transform {

using local_storage::Direction;

LocalStorage::LocalStorage(Direction dir) : dir_(dir) {
  props_.bind_string("array", &array_);
  props_.bind_string("prefix", &prefix_);
  props_.bind_bool("create_array", &create_array_);
}

void LocalStorage::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  local_storage::pair_matches(state, dir_, false, out);
}

bool LocalStorage::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& s = site.state;
  const int a = nodes[0], b = nodes[1];
  const char* kind = dir_ == Direction::In ? "entries" : "exits";
  const bool scope_pair = dir_ == Direction::In ? s.node(a)->is_scope_entry() && s.node(b)->is_scope_entry()
                                                : s.node(a)->is_scope_exit() && s.node(b)->is_scope_exit();
  if (!scope_pair) return refuse("nodes " + std::to_string(a) + " and " + std::to_string(b) + " are not two scope " + kind);
  if (!create_array_) return refuse("create_array = false (reusing a container) is not supported");
  std::string why;
  if (local_storage::legal_edge(site.sdfg, s, site.scopes, dir_, a, b, array_, nullptr, why) < 0) return refuse(why);
  return true;
}

Status LocalStorage::apply_at(const Site& site, const std::vector<int>& nodes) {
  const int e = local_storage::chosen_edge(site.state, nodes[0], nodes[1], array_, false);
  std::vector<int> tree;
  local_storage::edge_problem(site.sdfg, site.state, site.scopes, dir_, nodes[0], nodes[1], e, false, &tree);
  local_storage::insert_transient(site.sdfg, site.state, dir_, e, tree, prefix_, nullptr);
  return Status::success();
}

}  // namespace dace::transform
