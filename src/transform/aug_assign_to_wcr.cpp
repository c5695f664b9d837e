#include "transform/aug_assign_to_wcr.h"

#include <algorithm>
#include <set>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"
#include "transform/map_utils.h"
#include "transform/symbol_use.h"

namespace dace::transform {

struct AugAssignToWCR::Plan {
  bool in_map = false;
  int input = -1, tasklet = -1, output = -1, entry = -1, exit = -1;
  int write = -1;       // tasklet -> output (or -> map exit)
  int outer_write = -1; // map exit -> output (in a map)
  int read = -1;        // the accumulator's edge into the tasklet (from input or map entry)
  int outer_read = -1;  // input -> map entry feeding `read` (in a map)
  std::string out_conn, in_conn;
  tasklet::BinOpKind op = tasklet::BinOpKind::Add;
  tasklet::ExprPtr rest;  // the other operand
};

namespace {

const ir::AccessNode* as_access(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

std::string node_name(int id) { return "node " + std::to_string(id); }

// The operators DaCe converts (its _PYOP_MAP without division, which it leaves out of its
// own list of WCR expressions).
bool convertible(tasklet::BinOpKind op) {
  using K = tasklet::BinOpKind;
  return op == K::Add || op == K::Sub || op == K::Mult || op == K::BitXor || op == K::Mod;
}
bool commutative(tasklet::BinOpKind op) { return op != tasklet::BinOpKind::Sub && op != tasklet::BinOpKind::Mod; }

void push_unique(std::vector<std::vector<int>>& out, std::vector<int> m) {
  if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(std::move(m));
}

}  // namespace

void AugAssignToWCR::state_matches(const ir::State& state, const ScopeTree& scopes,
                                   std::vector<std::vector<int>>& out) {
  for (int in : state.node_ids()) {
    const ir::AccessNode* a = as_access(state.node(in));
    if (!a) continue;
    auto same_data = [&](int n) {
      const ir::AccessNode* o = as_access(state.node(n));
      return o && o->data == a->data;
    };
    for (int e : state.out_edges(in)) {
      const int t = state.edge(e)->dst;
      if (state.node(t)->kind != ir::NodeKind::Tasklet) continue;
      for (int w : state.out_edges(t))
        if (same_data(state.edge(w)->dst)) push_unique(out, {in, t, state.edge(w)->dst});
    }
    for (int e : state.out_edges(in)) {
      const int me = state.edge(e)->dst;
      if (state.node(me)->kind != ir::NodeKind::MapEntry) continue;
      const int mx = scopes.exit_of(me);
      for (int e2 : state.out_edges(me)) {
        const int t = state.edge(e2)->dst;
        if (state.node(t)->kind != ir::NodeKind::Tasklet) continue;
        for (int w : state.out_edges(t)) {
          if (state.edge(w)->dst != mx) continue;
          for (int w2 : state.out_edges(mx))
            if (same_data(state.edge(w2)->dst)) push_unique(out, {in, me, t, mx, state.edge(w2)->dst});
        }
      }
    }
  }
}

bool AugAssignToWCR::plan(const Site& site, const std::vector<int>& nodes, Plan& p) {
  const ir::State& s = site.state;
  p.in_map = nodes.size() == 5;
  p.input = nodes[0];
  p.tasklet = nodes[p.in_map ? 2 : 1];
  p.output = nodes.back();
  const ir::AccessNode* in = as_access(s.node(p.input));
  const ir::AccessNode* out = as_access(s.node(p.output));
  if (!in || !out) return refuse("the input and output must be access nodes");
  if (in->data != out->data) return refuse("input '" + in->data + "' and output '" + out->data + "' differ");
  const std::string& data = in->data;
  if (s.node(p.tasklet)->kind != ir::NodeKind::Tasklet) return refuse(node_name(p.tasklet) + " is not a tasklet");
  const auto& t = static_cast<const ir::Tasklet&>(*s.node(p.tasklet));
  const std::vector<int>& parent = site.scopes.parent;

  if (p.in_map) {
    p.entry = nodes[1];
    p.exit = nodes[3];
    if (s.node(p.entry)->kind != ir::NodeKind::MapEntry || site.scopes.exit_of(p.entry) != p.exit)
      return refuse(node_name(p.entry) + " and " + node_name(p.exit) + " are not a map's entry and exit");
    if (parent[static_cast<size_t>(p.entry)] != -1) return refuse("map " + node_name(p.entry) + " is nested in a scope");
    if (parent[static_cast<size_t>(p.tasklet)] != p.entry)
      return refuse("tasklet " + node_name(p.tasklet) + " is not directly inside map " + node_name(p.entry));
  } else if (parent[static_cast<size_t>(p.tasklet)] != -1) {
    return refuse("tasklet " + node_name(p.tasklet) + " is inside a scope");
  }
  if (!s.in_edges(p.input).empty())
    return refuse("access node " + node_name(p.input) + " of '" + data + "' is written in this state");

  // The single write, and (in a map) its continuation to the output.
  const int write_dst = p.in_map ? p.exit : p.output;
  for (int e : s.out_edges(p.tasklet)) {
    if (s.edge(e)->dst != write_dst) continue;
    if (p.write >= 0) return refuse("tasklet " + node_name(p.tasklet) + " writes '" + data + "' more than once");
    p.write = e;
  }
  if (p.write < 0) return refuse("tasklet " + node_name(p.tasklet) + " does not write the output");
  const ir::DataflowEdge& w = *s.edge(p.write);
  if (w.memlet.data != data || !w.memlet.wcr.empty() || w.memlet.other_subset)
    return refuse("the write of " + node_name(p.tasklet) + " is not a plain write of '" + data + "'");
  p.out_conn = w.src_conn;
  if (p.in_map) {
    const std::string x = connector_suffix(w.dst_conn, "IN_");
    int continuations = 0;
    for (int e : s.in_edges(p.exit))
      if (s.edge(e)->dst_conn == w.dst_conn && e != p.write) return refuse("map exit connector " + w.dst_conn + " is shared");
    for (int e : s.out_edges(p.exit)) {
      if (s.edge(e)->src_conn != "OUT_" + x) continue;
      ++continuations;
      p.outer_write = e;
    }
    if (x.empty() || continuations != 1 || s.edge(p.outer_write)->dst != p.output)
      return refuse("the write of " + node_name(p.tasklet) + " does not leave the map into the output");
    if (!s.edge(p.outer_write)->memlet.wcr.empty()) return refuse("the map's output already has a WCR");
    // A write that depends on every map parameter touches one element per iteration: no
    // conflict to resolve (DaCe's non-permissive check).
    const auto& me = static_cast<const ir::MapEntry&>(*s.node(p.entry));
    const std::set<std::string> syms = free_symbols(w.memlet.subset);
    if (std::all_of(me.map.params.begin(), me.map.params.end(), [&](const std::string& q) { return syms.count(q); }))
      return refuse("the write of '" + data + "' depends on every parameter of map " + node_name(p.entry));
  }

  // Inputs must come from access nodes (DaCe: so the state can be split as needed).
  for (int e : s.in_edges(p.tasklet)) {
    const int src = s.edge(e)->src;
    if (src != p.entry && !as_access(s.node(src)))
      return refuse("tasklet " + node_name(p.tasklet) + " has an input from " + node_name(src) + ", not an access node");
  }
  if (p.in_map)
    for (int e : s.in_edges(p.entry))
      if (!as_access(s.node(s.edge(e)->src)))
        return refuse("map " + node_name(p.entry) + " has an input that is not an access node");

  if (t.code.language != ir::Language::Python) return refuse("tasklet " + node_name(p.tasklet) + " is not Python");
  Result<tasklet::Program> prog = tasklet::parse_code(t.code.code);
  if (!prog.ok() || prog->body.size() != 1) return refuse("tasklet " + node_name(p.tasklet) + " is not one statement");
  const auto* assign = prog->body[0]->as<tasklet::Assign>();
  if (!assign || assign->targets.size() != 1) return refuse("tasklet " + node_name(p.tasklet) + " is not `out = a op b`");
  const auto* target = assign->targets[0]->as<tasklet::Name>();
  if (!target || target->id != p.out_conn)
    return refuse("tasklet " + node_name(p.tasklet) + " does not assign its output connector '" + p.out_conn + "'");
  const auto* bin = assign->value->as<tasklet::BinOp>();
  if (!bin || !convertible(bin->op))
    return refuse("tasklet " + node_name(p.tasklet) + " is not `out = a op b` with op one of + - * ^ %");
  p.op = bin->op;

  // The edge carrying the element read by connector `conn`, if it reads the written element.
  auto accumulator_edge = [&](const std::string& conn, int* outer) -> int {
    for (int e : s.in_edges(p.tasklet)) {
      const ir::DataflowEdge& r = *s.edge(e);
      if (r.dst_conn != conn || r.memlet.data != data) continue;
      if (r.memlet.subset != w.memlet.subset || r.memlet.other_subset) return -1;
      if (!p.in_map) return r.src == p.input ? e : -1;
      if (r.src != p.entry) return -1;
      const std::string x = connector_suffix(r.src_conn, "OUT_");
      for (int f : s.in_edges(p.entry))
        if (s.edge(f)->dst_conn == "IN_" + x && s.edge(f)->src == p.input) {
          *outer = f;
          return e;
        }
      return -1;
    }
    return -1;
  };
  const tasklet::ExprPtr operands[2] = {bin->left, bin->right};
  for (int side = 0; side < 2 && p.read < 0; ++side) {
    const auto* n = operands[side]->as<tasklet::Name>();
    if (!n || (side == 1 && !commutative(p.op))) continue;
    p.read = accumulator_edge(n->id, &p.outer_read);
    if (p.read < 0) continue;
    p.in_conn = n->id;
    p.rest = operands[1 - side];
  }
  if (p.read < 0)
    return refuse("tasklet " + node_name(p.tasklet) + " does not combine the element of '" + data +
                  "' it writes (read from the input) with another operand" +
                  (commutative(p.op) ? "" : " on the right of a non-commutative operator"));
  if (tasklet::names_read(*p.rest).count(p.in_conn))
    return refuse("tasklet " + node_name(p.tasklet) + " reads '" + p.in_conn + "' again in the other operand");
  for (int e : s.in_edges(p.tasklet))
    if (e != p.read && s.edge(e)->memlet.data == data)
      return refuse("tasklet " + node_name(p.tasklet) + " also reads '" + data + "' through connector '" +
                    s.edge(e)->dst_conn + "'");

  // DaCe marks the memlets outside a nested SDFG too; we do not follow writes out of it.
  auto it = site.sdfg.arrays.find(data);
  if (it == site.sdfg.arrays.end()) return refuse("undeclared container '" + data + "'");
  if (site.sdfg.parent_node && !it->second.transient)
    return refuse("'" + data + "' is written out of a nested SDFG");
  return true;
}

bool AugAssignToWCR::can_apply(const Site& site, const std::vector<int>& nodes) {
  Plan p;
  return plan(site, nodes, p);
}

Status AugAssignToWCR::apply_at(const Site& site, const std::vector<int>& nodes) {
  Plan p;
  if (!plan(site, nodes, p)) return make_error(Code::Internal, "AugAssignToWCR: " + why_not_);
  ir::State& s = site.state;
  // `a - e` is `a + (-e)`: the symmetric operator, as DaCe maps it.
  tasklet::BinOpKind op = p.op;
  tasklet::ExprPtr value = p.rest;
  if (op == tasklet::BinOpKind::Sub) {
    op = tasklet::BinOpKind::Add;
    value = tasklet::make_expr({}, tasklet::UnaryOp{tasklet::UnaryOpKind::Minus, value});
  }
  auto& t = static_cast<ir::Tasklet&>(*s.node(p.tasklet));
  t.code.code = p.out_conn + " = " + tasklet::to_source(*value);
  t.in_connectors.erase(p.in_conn);
  const std::string wcr = std::string("lambda a, b: a ") + tasklet::op_text(op) + " b";
  s.edge(p.write)->memlet.wcr = wcr;
  if (p.in_map) s.edge(p.outer_write)->memlet.wcr = wcr;

  const std::string out_conn = s.edge(p.read)->src_conn;
  s.remove_edge(p.read);
  if (p.in_map) {
    ir::Node& me = *s.node(p.entry);
    const std::vector<int> outs = s.out_edges(p.entry);
    const bool still_used =
        std::any_of(outs.begin(), outs.end(), [&](int e) { return s.edge(e)->src_conn == out_conn; });
    if (!still_used) {
      const std::string in_conn = s.edge(p.outer_read)->dst_conn;
      s.remove_edge(p.outer_read);
      me.in_connectors.erase(in_conn);
      me.out_connectors.erase(out_conn);
    }
    // The tasklet stays in the map's scope through an empty memlet when it lost its only input.
    if (s.in_edges(p.tasklet).empty()) s.add_edge(ir::DataflowEdge{p.entry, p.tasklet, "", "", {}});
  }
  if (s.in_edges(p.input).empty() && s.out_edges(p.input).empty()) s.remove_node(p.input);
  return Status::success();
}

}  // namespace dace::transform
