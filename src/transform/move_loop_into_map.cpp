#include "transform/move_loop_into_map.h"

#include <map>
#include <memory>
#include <set>

#include "analysis/arguments.h"
#include "ir/state.h"
#include "transform/analysis_manager.h"
#include "transform/cfg_list.h"
#include "transform/loop_bounds.h"
#include "transform/loop_shape.h"
#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

bool is_access(const ir::State& s, int n) { return s.node(n)->kind == ir::NodeKind::Access; }

bool weakly_connected(const ir::State& s) {
  const std::vector<int> nodes = s.node_ids();
  if (nodes.empty()) return true;
  std::set<int> seen{nodes.front()};
  std::vector<int> work{nodes.front()};
  while (!work.empty()) {
    const int n = work.back();
    work.pop_back();
    for (int e : s.in_edges(n))
      if (seen.insert(s.edge(e)->src).second) work.push_back(s.edge(e)->src);
    for (int e : s.out_edges(n))
      if (seen.insert(s.edge(e)->dst).second) work.push_back(s.edge(e)->dst);
  }
  return seen.size() == nodes.size();
}

// The body as this transformation handles it: access nodes -> map(contents) -> access nodes,
// where the contents are tasklets, nested SDFGs, transient access nodes and nested map scopes
// holding the same.
struct Body {
  int entry = -1, exit = -1;
  std::vector<int> tasklets;       // every node inside the map (nested scopes included), ascending
  std::vector<int> locals;         // the access nodes among them
  std::vector<int> inner_edges;    // edges with both ends in the scope (entry and exit included)
  std::set<std::string> inner_params;  // parameters of the map scopes nested inside
};

bool read_body(const ir::State& s, Body& b, std::string& why) {
  const std::vector<int> parents = s.scope_parents();
  for (int n : s.node_ids()) {
    if (s.node(n)->kind != ir::NodeKind::MapEntry || parents[static_cast<size_t>(n)] >= 0) continue;
    if (b.entry >= 0) {
      why = "the loop body has more than one map";
      return false;
    }
    b.entry = n;
  }
  if (b.entry < 0) {
    why = "the loop body has no map";
    return false;
  }
  b.exit = s.exit_of(b.entry);
  if (b.exit < 0) {
    why = "map entry " + std::to_string(b.entry) + " has no exit";
    return false;
  }
  if (!weakly_connected(s)) {
    why = "the loop body has more than one connected component";
    return false;
  }
  auto inside_map = [&](int n) {
    for (int p = parents[static_cast<size_t>(n)]; p >= 0; p = parents[static_cast<size_t>(p)])
      if (p == b.entry) return true;
    return false;
  };
  for (int n : s.node_ids()) {
    if (n == b.entry || n == b.exit) continue;
    const bool inside = inside_map(n);
    const ir::NodeKind k = s.node(n)->kind;
    // A nested SDFG moves like a tasklet: it touches outer data through its connectors'
    // memlets only, which the dependence test below sees. Nested map scopes move whole.
    const bool movable = k == ir::NodeKind::Tasklet || k == ir::NodeKind::NestedSDFG || is_access(s, n) ||
                         k == ir::NodeKind::MapEntry || k == ir::NodeKind::MapExit;
    if (inside && movable) {
      b.tasklets.push_back(n);
      if (is_access(s, n)) b.locals.push_back(n);
      if (k == ir::NodeKind::MapEntry)
        for (const std::string& p : static_cast<const ir::MapEntry&>(*s.node(n)).map.params) b.inner_params.insert(p);
    } else if (inside || !is_access(s, n)) {
      why = "node " + std::to_string(n) +
            " is not a tasklet, nested SDFG, map scope or access node inside the map or an access node around it";
      return false;
    }
  }
  const std::set<int> local_set(b.locals.begin(), b.locals.end());
  auto outside_access = [&](int n) { return is_access(s, n) && !local_set.count(n); };
  for (int e : s.edge_ids()) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (outside_access(de.src)) {
      if (de.dst != b.entry || de.memlet.is_empty() || connector_suffix(de.dst_conn, "IN_").empty()) {
        why = "edge " + std::to_string(e) + " from an access node does not enter the map with data";
        return false;
      }
    } else if (outside_access(de.dst)) {
      if (de.src != b.exit || de.memlet.is_empty()) {
        why = "edge " + std::to_string(e) + " into an access node does not leave the map with data";
        return false;
      }
    } else {
      if (!de.memlet.wcr.empty()) {
        why = "a WCR write of '" + de.memlet.data + "' in the map";
        return false;
      }
      b.inner_edges.push_back(e);
    }
  }
  return true;
}

// The container an edge inside the scope carries: its memlet's, which names the outer data
// on edges from the entry and into the exit as well.
const std::string& data_of(const ir::State& s, int e) { return s.edge(e)->memlet.data; }

bool depends_on(const sym::Range& r, const std::set<std::string>& names) {
  for (sym::Expr x : {r.start, r.end, r.step})
    if (x)
      for (const std::string& f : sym::free_symbols(x))
        if (names.count(f)) return true;
  return false;
}

// DaCe's test_subset_dependency and consistency of the dimensions that depend on `var`, plus
// the disjointness of map iterations on written containers (see the header).
bool independent(const ir::State& s, const Body& b, const std::string& var, const std::vector<std::string>& params,
                 std::string& why) {
  const std::set<std::string> pset(params.begin(), params.end());
  std::set<std::string> all_params = pset;
  all_params.insert(b.inner_params.begin(), b.inner_params.end());
  const std::set<std::string> vset{var};
  std::map<std::string, std::vector<size_t>> var_dims;
  std::set<std::string> written;
  for (int e : b.inner_edges)
    if (s.edge(e)->dst == b.exit && !s.edge(e)->memlet.is_empty()) written.insert(data_of(s, e));
  // Per written container: the (dimension, index) pairs that depend on map parameters.
  std::map<std::string, std::vector<std::pair<size_t, sym::Expr>>> keys;
  for (int e : b.inner_edges) {
    const ir::Memlet& m = s.edge(e)->memlet;
    if (m.is_empty()) continue;
    if (m.other_subset) {
      why = "a memlet of '" + m.data + "' with another subset in the map";
      return false;
    }
    std::vector<size_t> dims;
    std::vector<std::pair<size_t, sym::Expr>> key;
    for (size_t d = 0; d < m.subset.dims.size(); ++d) {
      const sym::Range& r = m.subset.dims[d];
      const bool on_var = depends_on(r, vset), on_params = depends_on(r, pset);
      if (on_var && depends_on(r, all_params)) {
        why = "a dimension of '" + m.data + "' depends on both '" + var + "' and a map parameter";
        return false;
      }
      const bool index = r.start == r.end;
      if (on_var) {
        std::optional<sym::Affine> a = sym::affine(r.start, vset);
        if (!index || !a || a->coefficients.empty()) {
          why = "'" + m.data + "' is not indexed injectively by '" + var + "'";
          return false;
        }
        dims.push_back(d);
      }
      if (on_params && written.count(m.data)) {
        // An index mixing the map's parameters with those of a nested map, `A[i + j]`, lets
        // two iterations of the map meet in one element.
        if (depends_on(r, b.inner_params)) {
          why = "a dimension of written container '" + m.data + "' depends on the map's and a nested map's parameters";
          return false;
        }
        if (!index) {
          why = "written container '" + m.data + "' is accessed by ranges of the map parameters";
          return false;
        }
        key.emplace_back(d, r.start);
      }
    }
    if (!dims.empty()) {
      auto [it, fresh] = var_dims.emplace(m.data, dims);
      if (!fresh && it->second != dims) {
        why = "'" + m.data + "' depends on '" + var + "' in different dimensions";
        return false;
      }
    }
    if (written.count(m.data)) {
      auto [it, fresh] = keys.emplace(m.data, key);
      if (!fresh && it->second != key) {
        why = "map iterations access different elements of written container '" + m.data +
              "' (a dependence between map iterations across loop iterations)";
        return false;
      }
    }
  }
  for (const auto& [data, key] : keys)
    for (const std::string& p : params) {
      bool determined = false;
      for (const auto& [d, e] : key) {
        std::optional<sym::Affine> a = sym::affine(e, pset);
        determined = determined || (a && a->coefficients.size() == 1 && a->coefficients.count(p));
      }
      if (!determined) {
        why = "map iterations may write the same element of '" + data + "' (no index determines '" + p + "')";
        return false;
      }
    }
  return true;
}

// Containers (not symbols) that the loop header reads, such as mandelbrot1's `n < maxiter`
// on an input scalar: the nested SDFG receives them as data, in name order.
std::vector<std::string> header_containers(const ir::SDFG& sdfg, const ir::LoopRegion& loop) {
  std::vector<std::string> out;
  for (const auto& [name, desc] : sdfg.arrays)
    if (mentions(loop.init_statement.code, name) || mentions(loop.loop_condition.code, name) ||
        mentions(loop.update_statement.code, name))
      out.push_back(name);
  return out;
}

sym::Subset whole(const ir::DataDescriptor& d) {
  sym::Subset s;
  for (sym::Expr n : d.shape) s.dims.push_back({sym::integer(0), sym::sub(n, sym::integer(1)), sym::integer(1), sym::integer(1)});
  return s;
}

}  // namespace

void MoveLoopIntoMap::region_matches(const ir::ControlFlowRegion& region, std::vector<std::vector<int>>& out) {
  for (int b : region.block_slots())
    if (as_loop(region.block(b))) out.push_back({b});
}

bool MoveLoopIntoMap::can_apply(const Site& site, const std::vector<int>& blocks) {
  const ir::LoopRegion* loop = as_loop(site.region.block(blocks[0]));
  if (!loop) return refuse("the pattern needs a loop region");
  std::optional<LoopBounds> bounds = site.am.symbol_ranges(site.sdfg).loop(*loop);
  if (!bounds) return refuse("loop header is not `i = a; i < b; i = i + s` with a constant step");
  if (bounds->step != 1 && bounds->step != -1) return refuse("loop '" + loop->label + "' has a step other than 1 or -1");
  const ir::State* body = single_body(*loop);
  if (!body) return refuse("the body of loop '" + loop->label + "' is not a single state");
  Body b;
  std::string why;
  if (!read_body(*body, b, why)) return refuse(why);
  const std::string& var = loop->loop_variable;
  const auto& me = static_cast<const ir::MapEntry&>(*body->node(b.entry));
  for (const std::string& p : me.map.params)
    if (p == var) return refuse("the map redefines '" + var + "'");
  for (const sym::Range& r : me.map.range.dims)
    if (depends_on(r, {var})) return refuse("the map's range depends on '" + var + "'");
  std::set<std::string> containers;
  for (int e : body->edge_ids())
    if (!body->edge(e)->memlet.is_empty()) containers.insert(body->edge(e)->memlet.data);
  for (const std::string& c : containers) {
    auto it = site.sdfg.arrays.find(c);
    if (it == site.sdfg.arrays.end()) return refuse("undeclared container '" + c + "'");
    for (sym::Expr x : it->second.shape)
      if (x && sym::free_symbols(x).count(var)) return refuse("container '" + c + "' is sized by '" + var + "'");
    if (it->second.kind == ir::DataKind::View || it->second.kind == ir::DataKind::Reference)
      return refuse("'" + c + "' is a view or reference");
  }
  // Access nodes inside the map move into the nested SDFG: only per-iteration temporaries,
  // transients that nothing outside this map accesses, can go there.
  for (int n : b.locals) {
    const std::string& c = static_cast<const ir::AccessNode&>(*body->node(n)).data;
    const ir::DataDescriptor& d = site.sdfg.arrays.at(c);
    if (!d.transient || (d.kind != ir::DataKind::Array && d.kind != ir::DataKind::Scalar))
      return refuse("access node " + std::to_string(n) + " inside the map is not of a transient array or scalar");
    // Other states from their cached access sets; the body state node by node, since access
    // nodes of `c` outside the map there count too.
    bool elsewhere = false;
    for (const ir::State* st : site.sdfg.all_states())
      elsewhere = elsewhere || (st != body && site.am.access_sets(*st).present.count(c));
    int in_body = 0, here = 0;
    for (int m : body->node_ids()) in_body += is_access(*body, m) && static_cast<const ir::AccessNode&>(*body->node(m)).data == c;
    for (int m : b.locals) here += static_cast<const ir::AccessNode&>(*body->node(m)).data == c;
    if (elsewhere || in_body != here) return refuse("transient '" + c + "' inside the map is also accessed outside it");
  }
  for (const std::string& c : header_containers(site.sdfg, *loop)) {
    const ir::DataDescriptor& d = site.sdfg.arrays.at(c);
    if (d.kind != ir::DataKind::Scalar && d.kind != ir::DataKind::Array)
      return refuse("the loop header reads '" + c + "', which is not an array or scalar");
    for (int e : b.inner_edges)
      if (body->edge(e)->dst == b.exit && body->edge(e)->memlet.data == c)
        return refuse("the map writes '" + c + "', which the loop header reads");
    for (int n : b.locals)
      if (static_cast<const ir::AccessNode&>(*body->node(n)).data == c)
        return refuse("the map accesses '" + c + "', which the loop header reads, inside");
  }
  if (!independent(*body, b, var, me.map.params, why)) return refuse(why);
  return true;
}

Status MoveLoopIntoMap::apply_at(const Site& site, const std::vector<int>& blocks) {
  ir::ControlFlowRegion& region = site.region;
  const int loop_slot = blocks[0];
  auto& loop = static_cast<ir::LoopRegion&>(*region.block(loop_slot));
  std::unique_ptr<ir::State> st(static_cast<ir::State*>(single_body(loop)->clone().release()));
  Body b;
  std::string why;
  if (!read_body(*st, b, why)) return make_error(Code::Internal, "MoveLoopIntoMap: " + why);
  ir::State& s = *st;

  // What the map reads (by entry connector) and writes (by exit connector).
  std::map<std::string, std::string> read_of_conn;  // OUT_x -> container
  for (int e : s.in_edges(b.entry))
    read_of_conn["OUT_" + connector_suffix(s.edge(e)->dst_conn, "IN_")] = s.edge(e)->memlet.data;
  std::set<std::string> reads, writes, locals;
  const std::vector<std::string> header = header_containers(site.sdfg, loop);
  reads.insert(header.begin(), header.end());
  for (int e : b.inner_edges) {
    const ir::DataflowEdge& de = *s.edge(e);
    if (de.memlet.is_empty()) continue;
    if (de.src == b.entry) reads.insert(read_of_conn[de.src_conn]);
    else if (de.dst == b.exit) writes.insert(de.memlet.data);
    else locals.insert(de.memlet.data);
  }

  // The nested SDFG: the loop around one state holding the map's tasklets.
  auto nested = std::make_unique<ir::SDFG>();
  nested->name = loop.label;
  nested->using_explicit_control_flow = true;
  for (const std::string& c : reads) nested->arrays[c] = site.sdfg.arrays.at(c);
  for (const std::string& c : writes) nested->arrays[c] = site.sdfg.arrays.at(c);
  for (auto& [c, d] : nested->arrays) {
    // Arguments of the nested SDFG: the outer container's storage, not its allocation.
    d.transient = false;
    d.lifetime = ir::Lifetime::Scope;
  }
  for (const std::string& c : locals)
    if (!nested->arrays.count(c)) nested->arrays[c] = site.sdfg.arrays.at(c);
  auto inner_loop = std::make_unique<ir::LoopRegion>();
  inner_loop->label = loop.label;
  inner_loop->loop_variable = loop.loop_variable;
  inner_loop->init_statement = loop.init_statement;
  inner_loop->loop_condition = loop.loop_condition;
  inner_loop->update_statement = loop.update_statement;
  inner_loop->inverted = loop.inverted;
  inner_loop->update_before_condition = loop.update_before_condition;
  nested->register_block(*inner_loop);
  auto inner_state = std::make_unique<ir::State>();
  inner_state->label = s.label;
  nested->register_block(*inner_state);
  ir::State& in = *inner_state;
  std::map<int, int> moved;
  for (int t : b.tasklets) moved[t] = in.add_node(s.node(t)->clone());
  // Exits of nested maps name their entry by node id, which the move renumbered.
  for (const auto& [from, to] : moved)
    if (in.node(to)->kind == ir::NodeKind::MapExit)
      in.set_scope_entry(to, moved.at(static_cast<ir::MapExit&>(*in.node(to)).entry));
  std::map<std::string, int> read_node, write_node;
  auto access = [&](std::map<std::string, int>& nodes, const std::string& c) {
    auto it = nodes.find(c);
    if (it != nodes.end()) return it->second;
    auto a = std::make_unique<ir::AccessNode>();
    a->label = c;
    a->data = c;
    return nodes[c] = in.add_node(std::move(a));
  };
  for (int e : b.inner_edges) {
    ir::DataflowEdge de = *s.edge(e);
    if (de.memlet.is_empty() && (de.src == b.entry || de.dst == b.exit)) continue;
    if (de.src == b.entry) {
      in.add_edge(ir::DataflowEdge{access(read_node, read_of_conn[de.src_conn]), moved[de.dst], "", de.dst_conn, de.memlet});
    } else if (de.dst == b.exit) {
      in.add_edge(ir::DataflowEdge{moved[de.src], access(write_node, de.memlet.data), de.src_conn, "", de.memlet});
    } else {
      in.add_edge(ir::DataflowEdge{moved[de.src], moved[de.dst], de.src_conn, de.dst_conn, de.memlet});
    }
  }
  inner_loop->add_block(std::move(inner_state));
  nested->add_block(std::move(inner_loop));
  ir::relink_parents(*nested);

  // Symbols: the loop variable is the inner loop's; every other free symbol maps to itself.
  auto type_of = [&](const std::string& name) {
    auto it = site.sdfg.symbols.find(name);
    return it != site.sdfg.symbols.end() ? it->second : ir::DType::of(ir::ScalarType::Int64);
  };
  nested->symbols[loop.loop_variable] = type_of(loop.loop_variable);
  auto node = std::make_unique<ir::NestedSDFGNode>();
  node->label = loop.label;
  for (const std::string& f : analysis::free_symbols(*nested)) {
    nested->symbols[f] = type_of(f);
    node->symbol_mapping[f] = sym::symbol(f);
  }
  for (const std::string& c : reads) node->in_connectors[c] = ir::DType{};
  for (const std::string& c : writes) node->out_connectors[c] = ir::DType{};
  node->sdfg = std::move(nested);
  ir::NestedSDFGNode* raw = node.get();
  raw->sdfg->parent_node = raw;

  // The outer state: the tasklets give way to the nested SDFG, fed with whole containers.
  // The temporaries' access nodes all moved (can_apply checked): their containers are the
  // nested SDFG's now.
  for (int n : b.locals) site.sdfg.arrays.erase(static_cast<const ir::AccessNode&>(*s.node(n)).data);
  for (int t : b.tasklets) s.remove_node(t);
  const int nid = s.add_node(std::move(node));
  ir::Node& me = *s.node(b.entry);
  ir::Node& mx = *s.node(b.exit);
  std::set<std::string> connected;
  for (int e : s.in_edges(b.entry)) {
    ir::DataflowEdge& de = *s.edge(e);
    const std::string x = connector_suffix(de.dst_conn, "IN_");
    const std::string c = de.memlet.data;
    if (!reads.count(c) || connected.count(c)) {  // unused, or a second path of the same data
      me.in_connectors.erase("IN_" + x);
      me.out_connectors.erase("OUT_" + x);
      s.remove_edge(e);
      continue;
    }
    connected.insert(c);
    de.memlet.subset = whole(site.sdfg.arrays.at(c));
    de.memlet.other_subset.reset();
    de.memlet.volume = nullptr;
    ir::Memlet inner;
    inner.data = c;
    inner.subset = de.memlet.subset;
    s.add_edge(ir::DataflowEdge{b.entry, nid, "OUT_" + x, c, inner});
  }
  // Header containers the map did not read yet enter it from a new access node.
  for (const std::string& c : header) {
    if (connected.count(c)) continue;
    auto a = std::make_unique<ir::AccessNode>();
    a->label = c;
    a->data = c;
    const int an = s.add_node(std::move(a));
    std::string x = c;
    for (int i = 1; me.in_connectors.count("IN_" + x) || me.out_connectors.count("OUT_" + x); ++i)
      x = c + "_" + std::to_string(i);
    me.in_connectors["IN_" + x] = ir::DType{};
    me.out_connectors["OUT_" + x] = ir::DType{};
    ir::Memlet m;
    m.data = c;
    m.subset = whole(site.sdfg.arrays.at(c));
    s.add_edge(ir::DataflowEdge{an, b.entry, "", "IN_" + x, m});
    s.add_edge(ir::DataflowEdge{b.entry, nid, "OUT_" + x, c, m});
    connected.insert(c);
  }
  if (reads.empty()) s.add_edge(ir::DataflowEdge{b.entry, nid, "", "", {}});
  connected.clear();
  for (int e : s.out_edges(b.exit)) {
    ir::DataflowEdge& de = *s.edge(e);
    const std::string x = connector_suffix(de.src_conn, "OUT_");
    const std::string c = de.memlet.data;
    if (!writes.count(c) || connected.count(c)) {
      mx.in_connectors.erase("IN_" + x);
      mx.out_connectors.erase("OUT_" + x);
      s.remove_edge(e);
      continue;
    }
    connected.insert(c);
    de.memlet.subset = whole(site.sdfg.arrays.at(c));
    de.memlet.other_subset.reset();
    de.memlet.volume = nullptr;
    ir::Memlet inner;
    inner.data = c;
    inner.subset = de.memlet.subset;
    s.add_edge(ir::DataflowEdge{nid, b.exit, c, "IN_" + x, inner});
  }
  if (writes.empty()) s.add_edge(ir::DataflowEdge{nid, b.exit, "", "", {}});
  for (int n : s.node_ids())
    if (is_access(s, n) && s.in_edges(n).empty() && s.out_edges(n).empty()) s.remove_node(n);

  // The body state takes the loop's place.
  site.sdfg.register_block(*st);
  const int slot = region.add_block(std::move(st));
  for (int e : region.in_edges(loop_slot)) region.edge(e)->dst = slot;
  for (int e : region.out_edges(loop_slot)) region.edge(e)->src = slot;
  if (region.start_block == loop_slot) region.start_block = slot;
  region.remove_block(loop_slot);
  ir::relink_parents(region);
  return Status::success();
}

}  // namespace dace::transform
