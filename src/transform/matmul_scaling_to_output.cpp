#include "transform/matmul_scaling_to_output.h"

#include <optional>

#include "transform/blas_classes.h"
#include "transform/block_placement.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"

namespace dace::transform {
namespace {

using map_fusion::fresh_connector;
using map_fusion::used_elsewhere;


// [p0, p1, ...]: element k at parameter k.
bool is_identity(const sym::Subset& s, const std::vector<std::string>& params) {
  if (s.dims.size() != params.size()) return false;
  for (size_t k = 0; k < params.size(); ++k) {
    const sym::Range& r = s.dims[k];
    if (!same_value(r.start, sym::symbol(params[k])) || !same_value(r.end, sym::symbol(params[k]))) return false;
  }
  return true;
}

sym::Subset identity(const std::vector<std::string>& params) {
  sym::Subset s;
  for (const std::string& p : params) {
    sym::Expr e = sym::symbol(p);
    s.dims.push_back(sym::Range{e, e, sym::integer(1), sym::integer(1)});
  }
  return s;
}

ir::Memlet memlet(const std::string& data, sym::Subset subset) {
  ir::Memlet m;
  m.data = data;
  m.subset = std::move(subset);
  return m;
}

// "o = (a * b)" or "o = a * b" with {a, b} the tasklet's two inputs, o its output.
bool is_product(const ir::Tasklet& t) {
  if (t.code.language != ir::Language::Python || t.in_connectors.size() != 2 || t.out_connectors.size() != 1)
    return false;
  std::string c;
  for (char ch : t.code.code)
    if (ch != ' ' && ch != '\t' && ch != '\n') c += ch;
  const std::string o = t.out_connectors.begin()->first;
  const std::string a = t.in_connectors.begin()->first, b = std::next(t.in_connectors.begin())->first;
  for (const std::string& rhs : {a + "*" + b, b + "*" + a})
    if (c == o + "=" + rhs || c == o + "=(" + rhs + ")") return true;
  return false;
}

// Whether some access node of `data` in `state` is written.
bool written_in(const ir::State& state, const std::string& data) {
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (n->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode*>(n)->data == data &&
        !state.in_edges(id).empty())
      return true;
  }
  return false;
}

// The pieces of one match, found by `analyze` for can_apply and apply alike.
struct Plan {
  int lib = -1;
  std::string operand;     // "_a" or "_b": the scaled operand's connector
  int operand_edge = -1;   // temp -> lib
  int temp = -1;           // access node of the scaled copy
  int entry = -1, exit = -1, tasklet = -1;
  int source_outer = -1;   // source access node -> entry (the unscaled operand)
  int source_inner = -1;   // entry -> tasklet
  int exit_inner = -1;     // tasklet -> exit
  int exit_outer = -1;     // exit -> temp
  int result_edge = -1;    // lib -> result access node
  std::string temp_data, source_data, result_data;
};

std::optional<Plan> analyze(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int lib,
                            std::string* why) {
  auto fail = [&](std::string w) -> std::optional<Plan> {
    *why = std::move(w);
    return std::nullopt;
  };
  const ir::Node* n = state.node(lib);
  if (!n || n->kind != ir::NodeKind::Library) return fail("node " + std::to_string(lib) + " is not a library node");
  const auto& ln = static_cast<const ir::LibraryNode&>(*n);
  if (!is_class(ln.classpath, kMatMulClass)) return fail("node " + std::to_string(lib) + " is not a MatMul");
  if (scopes.parent[static_cast<size_t>(lib)] >= 0) return fail("MatMul " + std::to_string(lib) + " is inside a scope");
  Plan p;
  p.lib = lib;

  // The result: one plain edge _c -> access node, covering the whole container.
  std::vector<int> outs = state.out_edges(lib);
  if (outs.size() != 1 || state.edge(outs[0])->src_conn != "_c")
    return fail("MatMul " + std::to_string(lib) + " does not have exactly one output edge, from _c");
  const ir::DataflowEdge& re = *state.edge(outs[0]);
  const ir::Node* rn = state.node(re.dst);
  if (rn->kind != ir::NodeKind::Access) return fail("MatMul " + std::to_string(lib) + " does not write an access node");
  p.result_edge = outs[0];
  p.result_data = static_cast<const ir::AccessNode*>(rn)->data;
  const ir::DataDescriptor& rd = sdfg.arrays.at(p.result_data);
  if (!re.memlet.wcr.empty()) return fail("the MatMul output \"" + p.result_data + "\" has a write-conflict resolution");
  if (re.memlet.data != p.result_data || !is_whole(re.memlet.subset, rd.shape) || re.memlet.other_subset)
    return fail("the MatMul output does not cover \"" + p.result_data + "\" exactly");

  std::string reasons;
  for (const std::string conn : {"_a", "_b"}) {
    auto next = [&](const std::string& w) { reasons += (reasons.empty() ? "" : "; ") + conn + ": " + w; };
    int ein = -1;
    for (int e : state.in_edges(lib))
      if (state.edge(e)->dst_conn == conn) ein = e;
    if (ein < 0) {
      next("no input edge");
      continue;
    }
    const ir::DataflowEdge& oe = *state.edge(ein);
    const ir::Node* tn = state.node(oe.src);
    if (tn->kind != ir::NodeKind::Access) {
      next("not read from an access node");
      continue;
    }
    const std::string temp = static_cast<const ir::AccessNode*>(tn)->data;
    const ir::DataDescriptor& td = sdfg.arrays.at(temp);
    if (!td.transient || td.kind != ir::DataKind::Array) {
      next("\"" + temp + "\" is not a transient array");
      continue;
    }
    if (td.shape.size() != rd.shape.size() || td.dtype != rd.dtype) {
      next("\"" + temp + "\" differs from the result in rank or element type");
      continue;
    }
    if (oe.memlet.data != temp || !is_whole(oe.memlet.subset, td.shape) || oe.memlet.other_subset || !oe.memlet.wcr.empty()) {
      next("the MatMul does not read all of \"" + temp + "\"");
      continue;
    }
    if (state.out_edges(oe.src).size() != 1 || state.in_edges(oe.src).size() != 1 || used_elsewhere(sdfg, state, oe.src, temp)) {
      next("\"" + temp + "\" is used elsewhere");
      continue;
    }
    const ir::DataflowEdge& xe = *state.edge(state.in_edges(oe.src)[0]);
    const ir::Node* xn = state.node(xe.src);
    if (xn->kind != ir::NodeKind::MapExit || xe.memlet.data != temp || !is_whole(xe.memlet.subset, td.shape) ||
        !xe.memlet.wcr.empty() || xe.memlet.other_subset) {
      next("\"" + temp + "\" is not written whole by a map");
      continue;
    }
    const int exit = xe.src;
    const int entry = scopes.partner[static_cast<size_t>(exit)];
    const ir::MapEntry* me = entry >= 0 ? as_map_entry(state.node(entry)) : nullptr;
    if (!me || scopes.parent[static_cast<size_t>(entry)] >= 0) {
      next("the map writing \"" + temp + "\" is not a top-level map");
      continue;
    }
    const ir::MapScope& map = me->map;
    if (map.params.size() != td.shape.size() || !is_whole(map.range, td.shape)) {
      next("the map writing \"" + temp + "\" does not range over its shape");
      continue;
    }
    const std::vector<int> inside = scopes.scope_nodes(entry);
    if (inside.size() != 1 || state.node(inside[0])->kind != ir::NodeKind::Tasklet) {
      next("the map writing \"" + temp + "\" holds more than one tasklet");
      continue;
    }
    const int t = inside[0];
    if (!is_product(static_cast<const ir::Tasklet&>(*state.node(t)))) {
      next("tasklet " + std::to_string(t) + " is not one multiplication");
      continue;
    }
    if (state.in_edges(exit).size() != 1 || state.out_edges(exit).size() != 1 || state.in_edges(entry).size() != 2 ||
        state.out_edges(entry).size() != 2 || state.in_edges(t).size() != 2) {
      next("the map writing \"" + temp + "\" has other connections");
      continue;
    }
    const ir::DataflowEdge& ie = *state.edge(state.in_edges(exit)[0]);
    if (ie.memlet.data != temp || !is_identity(ie.memlet.subset, map.params) || !ie.memlet.wcr.empty()) {
      next("tasklet " + std::to_string(t) + " does not write \"" + temp + "\" at the map's point");
      continue;
    }
    // One input reads the source at the map's point, the other one element of a scalar
    // factor that does not depend on the point.
    int src_inner = -1, factor_inner = -1;
    for (int e : state.in_edges(t)) {
      const ir::DataflowEdge& te = *state.edge(e);
      if (te.src != entry || te.memlet.is_empty() || !te.memlet.wcr.empty() || te.memlet.dynamic) continue;
      if (is_identity(te.memlet.subset, map.params)) {
        src_inner = e;
        continue;
      }
      bool single = true;
      for (const sym::Range& r : te.memlet.subset.dims) {
        if (!same_value(r.start, r.end)) single = false;
        for (const std::string& s : sym::free_symbols(r.start))
          for (const std::string& q : map.params)
            if (s == q) single = false;
      }
      if (single) factor_inner = e;
    }
    if (src_inner < 0 || factor_inner < 0) {
      next("tasklet " + std::to_string(t) + " is not a point of one array times one scalar");
      continue;
    }
    const ir::DataflowEdge& si = *state.edge(src_inner);
    const ir::DataflowEdge& fi = *state.edge(factor_inner);
    const std::string source = si.memlet.data, factor = fi.memlet.data;
    if (source == factor) {
      next("tasklet " + std::to_string(t) + " multiplies \"" + source + "\" by itself");
      continue;
    }
    int src_outer = -1;
    for (int e : state.in_edges(entry)) {
      const ir::DataflowEdge& ee = *state.edge(e);
      if (ee.dst_conn == "IN_" + connector_suffix(si.src_conn, "OUT_") && !connector_suffix(si.src_conn, "OUT_").empty())
        src_outer = e;
    }
    if (src_outer < 0 || state.node(state.edge(src_outer)->src)->kind != ir::NodeKind::Access ||
        static_cast<const ir::AccessNode*>(state.node(state.edge(src_outer)->src))->data != source) {
      next("\"" + source + "\" does not come into the map from its access node");
      continue;
    }
    const ir::DataDescriptor& sd = sdfg.arrays.at(source);
    const ir::DataDescriptor& fd = sdfg.arrays.at(factor);
    if (sd.dtype != td.dtype || fd.dtype != td.dtype) {
      next("the multiplication converts element types");
      continue;
    }
    if (sd.shape.size() != td.shape.size()) {
      next("\"" + source + "\" differs from \"" + temp + "\" in rank");
      continue;
    }
    bool same_shape = true;
    for (size_t k = 0; k < sd.shape.size(); ++k) same_shape = same_shape && same_value(sd.shape[k], td.shape[k]);
    if (!same_shape) {
      next("\"" + source + "\" differs from \"" + temp + "\" in shape");
      continue;
    }
    // The MatMul now reads source and factor later than the map did: neither may be
    // written in this state.
    if (written_in(state, source) || written_in(state, factor)) {
      next("\"" + source + "\" or \"" + factor + "\" is written in this state");
      continue;
    }
    if (source == p.result_data || factor == p.result_data) {
      next("the result \"" + p.result_data + "\" is also an input of the scaling");
      continue;
    }
    p.operand = conn;
    p.operand_edge = ein;
    p.temp = oe.src;
    p.entry = entry;
    p.exit = exit;
    p.tasklet = t;
    p.source_outer = src_outer;
    p.source_inner = src_inner;
    p.exit_inner = state.in_edges(exit)[0];
    p.exit_outer = state.in_edges(oe.src)[0];
    p.temp_data = temp;
    p.source_data = source;
    return p;
  }
  return fail("MatMul " + std::to_string(lib) + ": no operand is a scaled copy (" + reasons + ")");
}

}  // namespace

void MatMulScalingToOutput::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (n->kind != ir::NodeKind::Library) continue;
    const auto& ln = static_cast<const ir::LibraryNode&>(*n);
    if (is_class(ln.classpath, kMatMulClass)) out.push_back({id});
  }
}

bool MatMulScalingToOutput::can_apply(const Site& site, const std::vector<int>& nodes) {
  std::string why;
  if (!analyze(site.sdfg, site.state, site.scopes, nodes[0], &why)) return refuse(why);
  return true;
}

Status MatMulScalingToOutput::apply_at(const Site& site, const std::vector<int>& nodes) {
  std::string why;
  std::optional<Plan> plan = analyze(site.sdfg, site.state, site.scopes, nodes[0], &why);
  if (!plan) return make_error(Code::InvalidArgument, why);
  const Plan& p = *plan;
  ir::State& state = site.state;
  const std::vector<sym::Expr> shape = site.sdfg.arrays.at(p.result_data).shape;

  // The temporary now holds the unscaled product: the result's shape, C order.
  ir::DataDescriptor& td = site.sdfg.arrays.at(p.temp_data);
  td.shape = shape;
  td.strides.clear();
  td.offset.clear();
  td.total_size = nullptr;
  td.start_offset = nullptr;
  ir::complete_defaults(td);

  // The map ranges over the result.
  auto* me = static_cast<ir::MapEntry*>(state.node(p.entry));
  me->map.range = whole(shape);
  const std::vector<std::string> params = me->map.params;

  const ir::DataflowEdge src_outer = *state.edge(p.source_outer);
  const ir::DataflowEdge src_inner = *state.edge(p.source_inner);
  const ir::DataflowEdge result = *state.edge(p.result_edge);
  const int result_node = result.dst;
  const int source_node = src_outer.src;
  const std::string old_in = src_outer.dst_conn, old_out = src_inner.src_conn;

  // source -> MatMul, MatMul -> temp.
  state.remove_edge(p.operand_edge);
  state.add_edge(ir::DataflowEdge{source_node, p.lib, src_outer.src_conn, p.operand,
                                  memlet(p.source_data, whole(site.sdfg.arrays.at(p.source_data).shape))});
  state.remove_edge(p.result_edge);
  state.add_edge(ir::DataflowEdge{p.lib, p.temp, "_c", "", memlet(p.temp_data, whole(shape))});

  // temp -> map -> tasklet in place of source.
  state.remove_edge(p.source_outer);
  state.remove_edge(p.source_inner);
  me->in_connectors.erase(old_in);
  me->out_connectors.erase(old_out);
  const std::string conn = fresh_connector(*me, p.temp_data);
  me->in_connectors["IN_" + conn] = ir::DType{};
  me->out_connectors["OUT_" + conn] = ir::DType{};
  state.add_edge(ir::DataflowEdge{p.temp, p.entry, "", "IN_" + conn, memlet(p.temp_data, whole(shape))});
  state.add_edge(ir::DataflowEdge{p.entry, p.tasklet, "OUT_" + conn, src_inner.dst_conn,
                                  memlet(p.temp_data, identity(params))});

  // tasklet -> map exit -> result in place of temp.
  auto* mx = state.node(p.exit);
  const ir::DataflowEdge inner = *state.edge(p.exit_inner);
  const ir::DataflowEdge outer = *state.edge(p.exit_outer);
  state.remove_edge(p.exit_inner);
  state.remove_edge(p.exit_outer);
  mx->in_connectors.erase(inner.dst_conn);
  mx->out_connectors.erase(outer.src_conn);
  const std::string out_conn = fresh_connector(*mx, p.result_data);
  mx->in_connectors["IN_" + out_conn] = ir::DType{};
  mx->out_connectors["OUT_" + out_conn] = ir::DType{};
  state.add_edge(ir::DataflowEdge{p.tasklet, p.exit, inner.src_conn, "IN_" + out_conn,
                                  memlet(p.result_data, identity(params))});
  state.add_edge(ir::DataflowEdge{p.exit, result_node, "OUT_" + out_conn, result.dst_conn, result.memlet});
  return Status::success();
}

}  // namespace dace::transform
