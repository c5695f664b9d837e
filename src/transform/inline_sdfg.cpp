#include "transform/inline_sdfg.h"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/tasklet/substitute.h"
#include "transform/default_schedules.h"
#include "transform/map_fusion_util.h"
#include "transform/nested_access.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

// One connector of the nested SDFG: its outer edge and how inner indices map to it.
struct Connector {
  int outer_node = -1;     // the edge's other end (source of an input, destination of an output)
  std::string outer_conn;  // the connector there
  std::string outer_data;
  sym::Subset outer_subset;
  std::vector<int> dims;  // inner dimension -> outer dimension
  std::string wcr;        // of an output's outer memlet; inner writes carry the same
};

// Everything apply needs, computed by the legality check (so that apply cannot fail).
struct Plan {
  ir::NestedSDFGNode* node = nullptr;
  ir::State* inner = nullptr;
  int entry = -1, exit = -1;  // the enclosing scope, -1 at top level
  std::map<std::string, Connector> inputs, outputs;
  std::map<std::string, sym::Expr> values;         // symbol mapping without the identities
  std::map<std::string, std::string> code_values;  // the same as code text, where printable
  std::map<std::string, std::string> transients;  // inner name -> outer name
};

const ir::AccessNode* as_access(const ir::Node* n) {
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Sums and products of symbols and integers print the same in Python and C++.
bool arithmetic(sym::Expr e) {
  switch (e->op) {
    case sym::Op::Integer:
    case sym::Op::Symbol: return true;
    case sym::Op::Add:
    case sym::Op::Mul:
      for (sym::Expr a : e->args)
        if (!arithmetic(a)) return false;
      return true;
    default: return false;
  }
}

// The text replacing a mapped symbol in tasklet code; nullopt when not printable as code.
std::optional<std::string> code_text(sym::Expr v) {
  if (!arithmetic(v)) return std::nullopt;
  if (v->op == sym::Op::Symbol || (v->op == sym::Op::Integer && v->value >= 0)) return sym::to_string(v);
  return "(" + sym::to_string(v) + ")";
}

bool plain_container(const ir::DataDescriptor& d) {
  return d.kind == ir::DataKind::Array || d.kind == ir::DataKind::Scalar;
}

// `label_name` when `name` is taken in the outer SDFG (container, symbol or constant), then
// `_0`, `_1`, ... until free (DaCe's add_datadesc with find_new_name).
std::string outer_name(const ir::SDFG& outer, const std::set<std::string>& taken_now, const std::string& label,
                       const std::string& name) {
  auto taken = [&](const std::string& n) {
    return outer.arrays.count(n) || outer.symbols.count(n) || outer.constants.count(n) || taken_now.count(n);
  };
  std::string base = taken(name) ? label + "_" + name : name;
  if (!taken(base)) return base;
  for (int i = 0;; ++i)
    if (std::string c = base + "_" + std::to_string(i); !taken(c)) return c;
}

class Planner {
 public:
  Planner(ir::SDFG& sdfg, ir::State& state, const ScopeTree& scopes, std::string& why)
      : sdfg_(sdfg), state_(state), scopes_(scopes), why_(why) {}

  std::optional<Plan> run(int id) {
    Plan p;
    ir::Node* n = state_.node(id);
    if (!n || n->kind != ir::NodeKind::NestedSDFG) return fail("node " + std::to_string(id) + " is not a nested SDFG");
    p.node = static_cast<ir::NestedSDFGNode*>(n);
    const std::string where = "nested SDFG " + std::to_string(id);
    if (!p.node->sdfg) return fail(where + " has no SDFG");
    const ir::SDFG& inner = *p.node->sdfg;
    if (auto it = p.node->extra.find("no_inline"); it != p.node->extra.end() && it->second == "true")
      return fail(where + " is marked no_inline");
    if (p.node->schedule != ir::ScheduleType::Default) {
      // DaCe's apply re-defaults the body from the node's schedule first; check it on a copy.
      std::string why;
      if (!can_redefault_schedules(*p.node, why))
        return fail(where + " has schedule " + ir::to_string(p.node->schedule) + ": " + why);
      std::unique_ptr<ir::SDFG> copy = inner.clone_sdfg();
      if (Status s = redefault_schedules(sdfg_, state_, id, *copy); !s.ok()) return fail(s.error().message);
    }
    const std::vector<int> blocks = inner.block_slots();
    if (blocks.size() != 1 || inner.block(blocks[0])->kind != ir::BlockKind::State)
      return fail(where + " has " + std::to_string(blocks.size()) + " blocks, not a single state");
    for (const auto* code : {&inner.global_code, &inner.init_code, &inner.exit_code})
      for (const auto& [location, block] : *code)
        if (block.code.find_first_not_of(" \t\n") != std::string::npos)
          return fail(where + " has global, init or exit code");
    p.inner = static_cast<ir::State*>(p.node->sdfg->block(blocks[0]));
    p.entry = scopes_.parent[static_cast<size_t>(id)];
    p.exit = p.entry >= 0 ? scopes_.exit_of(p.entry) : -1;

    for (const auto& [sym_name, value] : p.node->symbol_mapping)
      if (value && value != sym::symbol(sym_name)) {
        p.values[sym_name] = value;
        if (std::optional<std::string> text = code_text(value)) p.code_values[sym_name] = *text;
      }

    if (!outer_edges(id, p, true) || !outer_edges(id, p, false)) return std::nullopt;
    if (!connectors(inner, p)) return std::nullopt;
    if (!inner_nodes(inner, p)) return std::nullopt;
    if (!inner_edges(inner, p)) return std::nullopt;
    for (const auto& [name, c] : inner.constants) {
      auto it = sdfg_.constants.find(name);
      if (it != sdfg_.constants.end() && it->second.value_json != c.value_json)
        return fail("constant " + quoted(name) + " of " + where + " differs from the outer one");
    }
    return p;
  }

 private:
  std::nullopt_t fail(std::string why) {
    why_ = std::move(why);
    return std::nullopt;
  }
  bool refuse(std::string why) {
    why_ = std::move(why);
    return false;
  }

  // One non-empty edge per connector; empty ones only from the enclosing entry / to the exit.
  bool outer_edges(int id, Plan& p, bool in) {
    const std::vector<int> edges = in ? state_.in_edges(id) : state_.out_edges(id);
    for (int e : edges) {
      const ir::DataflowEdge& edge = *state_.edge(e);
      const std::string& conn = in ? edge.dst_conn : edge.src_conn;
      const int other = in ? edge.src : edge.dst;
      const ir::Node* o = state_.node(other);
      if (edge.memlet.is_empty()) {
        if (!conn.empty() || other != (in ? p.entry : p.exit))
          return refuse("empty memlet on edge " + std::to_string(e) + " of the nested SDFG from outside its scope");
        continue;
      }
      auto& table = in ? p.inputs : p.outputs;
      if (conn.empty() || table.count(conn))
        return refuse("connector " + quoted(conn) + " of the nested SDFG has several edges");
      if (!as_access(o) && !(o && (o->kind == ir::NodeKind::MapEntry || o->kind == ir::NodeKind::MapExit)))
        return refuse("connector " + quoted(conn) + " is not attached to an access node or a map");
      if (edge.memlet.other_subset) return refuse("the memlet of connector " + quoted(conn) + " has an other subset");
      if (!edge.memlet.wcr.empty() && in) return refuse("the memlet of input " + quoted(conn) + " has WCR");
      auto d = sdfg_.arrays.find(edge.memlet.data);
      if (d == sdfg_.arrays.end() || !plain_container(d->second))
        return refuse("connector " + quoted(conn) + " reaches " + quoted(edge.memlet.data) +
                    ", not an Array or Scalar (views need reshaping)");
      table[conn] =
          Connector{other, in ? edge.src_conn : edge.dst_conn, edge.memlet.data, edge.memlet.subset, {}, edge.memlet.wcr};
    }
    return true;
  }

  bool connectors(const ir::SDFG& inner, Plan& p) {
    for (auto* table : {&p.inputs, &p.outputs}) {
      for (auto& [conn, c] : *table) {
        auto d = inner.arrays.find(conn);
        if (d == inner.arrays.end()) return refuse("connector " + quoted(conn) + " has no container inside");
        const ir::DataDescriptor& in = d->second;
        if (in.transient || !plain_container(in))
          return refuse("inner container " + quoted(conn) + " is transient or not an Array or Scalar");
        for (const sym::Expr& o : in.offset)
          if (sym::as_integer(o) != 0) return refuse("inner container " + quoted(conn) + " has an offset");
        std::optional<std::vector<int>> dims = inner_to_outer_dims(in.rank(), c.outer_subset);
        if (!dims) return refuse("the subset of connector " + quoted(conn) + " cannot carry the inner rank (reshape)");
        for (int od : *dims)
          if (!is_one(c.outer_subset.dims[static_cast<size_t>(od)].step))
            return refuse("the subset of connector " + quoted(conn) + " has a non-unit step");
        if (!strides_match(in, sdfg_.arrays.at(c.outer_data), *dims, p.values))
          return refuse("strides of " + quoted(conn) + " differ from those of " + quoted(c.outer_data));
        c.dims = *dims;
      }
    }
    for (const auto& [conn, c] : p.inputs) {
      auto o = p.outputs.find(conn);
      if (o != p.outputs.end() && (o->second.outer_data != c.outer_data || o->second.outer_subset != c.outer_subset))
        return refuse("in/out connector " + quoted(conn) + " reads and writes different outer subsets");
    }
    return true;
  }

  bool is_connector(const Plan& p, const std::string& data) const {
    return p.inputs.count(data) || p.outputs.count(data);
  }

  bool inner_nodes(const ir::SDFG& inner, Plan& p) {
    const ir::State& s = *p.inner;
    std::set<std::string> enclosing;
    for (int e = p.entry; e >= 0; e = scopes_.parent[static_cast<size_t>(e)])
      if (const ir::Node* n = state_.node(e); n && n->kind == ir::NodeKind::MapEntry)
        for (const std::string& prm : static_cast<const ir::MapEntry*>(n)->map.params) enclosing.insert(prm);
    std::set<std::string> captured;  // names a substituted value may use
    for (const auto& [k, v] : p.values) captured.merge(sym::free_symbols(v));
    std::set<std::string> used_connectors;
    std::set<std::string> taken_now;
    for (int id : s.node_ids()) {
      const ir::Node& n = *s.node(id);
      const std::string where = "inner node " + std::to_string(id);
      switch (n.kind) {
        case ir::NodeKind::ConsumeEntry:
        case ir::NodeKind::ConsumeExit: return refuse(where + " is a consume scope");
        case ir::NodeKind::MapEntry:
          for (const std::string& prm : static_cast<const ir::MapEntry&>(n).map.params)
            if (enclosing.count(prm) || captured.count(prm) || p.values.count(prm))
              return refuse("parameter " + quoted(prm) + " of " + where + " would capture or shadow an outer symbol");
          break;
        default: break;
      }
      for (const auto& [k, v] : p.values)
        if (node_code_mentions(n, k) && !rewritable(n, k, p))
          return refuse("symbol " + quoted(k) + " is mapped to " + quoted(sym::to_string(v)) + " and occurs in the code of " +
                      where + ", which cannot be rewritten");
      const ir::AccessNode* a = as_access(&n);
      if (!a) continue;
      auto d = inner.arrays.find(a->data);
      if (d == inner.arrays.end()) return refuse(where + " accesses undeclared " + quoted(a->data));
      if (is_connector(p, a->data)) {
        used_connectors.insert(a->data);
        const bool source = s.in_edges(id).empty(), sink = s.out_edges(id).empty();
        if (source && sink) return refuse(where + " of connector " + quoted(a->data) + " is isolated");
        if (!source && !sink) return refuse(where + " of connector " + quoted(a->data) + " is both written and read");
        if (source && !p.inputs.count(a->data))
          return refuse(where + " reads " + quoted(a->data) + ", which is only an output");
        if (sink && !p.outputs.count(a->data))
          return refuse(where + " writes " + quoted(a->data) + ", which is only an input");
        if (a->setzero) return refuse(where + " of connector " + quoted(a->data) + " is setzero");
        if (sink && !p.outputs.at(a->data).wcr.empty())
          for (int e : s.in_edges(id))
            if (s.edge(e)->memlet.wcr != p.outputs.at(a->data).wcr)
              return refuse("inner edge " + std::to_string(e) + " writes " + quoted(a->data) +
                            " without the WCR of its outer memlet");
        continue;
      }
      if (!add_transient(inner, p, a->data, taken_now)) return false;
    }
    for (auto* table : {&p.inputs, &p.outputs})
      for (const auto& [conn, c] : *table)
        if (!used_connectors.count(conn) && !as_access(state_.node(c.outer_node)))
          return refuse("connector " + quoted(conn) + " is unused inside and its outer path passes a scope");
    return true;
  }

  // Only a tasklet's main code is rewritten, and only where the symbol is not also one of its
  // connectors and its value prints as code. Python code is rewritten through its syntax tree,
  // so it must parse and must not assign a local variable of that name; other languages by
  // whole identifiers (as DaCe replaces symbols in C++ code).
  static bool rewritable(const ir::Node& n, const std::string& k, const Plan& p) {
    if (n.kind != ir::NodeKind::Tasklet || !p.code_values.count(k)) return false;
    const auto& t = static_cast<const ir::Tasklet&>(n);
    if (t.in_connectors.count(k) || t.out_connectors.count(k)) return false;
    if (t.code.language == ir::Language::Python) {
      auto program = tasklet::parse_code_cached(t.code.code);
      if (!program.ok() || tasklet::names_assigned(**program).count(k)) return false;
    }
    return !mentions(t.code_global->code, k) && !mentions(t.code_init->code, k) && !mentions(t.code_exit->code, k);
  }

  bool add_transient(const ir::SDFG& inner, Plan& p, const std::string& name, std::set<std::string>& taken_now) {
    if (p.transients.count(name)) return true;
    auto d = inner.arrays.find(name);
    if (d == inner.arrays.end()) return refuse("inner container " + quoted(name) + " is not declared");
    if (!d->second.transient) return refuse("inner container " + quoted(name) + " is neither a connector nor transient");
    if (!plain_container(d->second)) return refuse("inner container " + quoted(name) + " is a view, stream or reference");
    std::string n = outer_name(sdfg_, taken_now, inner.name, name);
    taken_now.insert(n);
    p.transients[name] = n;
    return true;
  }

  bool inner_edges(const ir::SDFG& inner, Plan& p) {
    const ir::State& s = *p.inner;
    std::set<std::string> taken_now;
    for (const auto& [k, v] : p.transients) taken_now.insert(v);
    for (int e : s.edge_ids()) {
      const ir::DataflowEdge& edge = *s.edge(e);
      const ir::Memlet& m = edge.memlet;
      if (m.is_empty()) continue;
      const std::string where = "inner edge " + std::to_string(e);
      if (is_connector(p, m.data)) {
        if (m.subset.rank() != inner.arrays.at(m.data).rank())
          return refuse(where + ": the subset of " + quoted(m.data) + " does not have its rank");
      } else if (!add_transient(inner, p, m.data, taken_now)) {
        return false;
      }
      const ir::AccessNode* a = as_access(s.node(edge.src));
      const ir::AccessNode* b = as_access(s.node(edge.dst));
      if (!a || !b) continue;
      if (a->data == b->data) return refuse(where + " copies " + quoted(a->data) + " onto itself");
      if (p.entry >= 0 && is_connector(p, a->data) && is_connector(p, b->data))
        return refuse(where + " copies between two connectors inside a scope");
      for (const ir::AccessNode* end : {a, b})
        if (is_connector(p, end->data) && end->data != m.data && !m.other_subset)
          return refuse(where + " copies " + quoted(end->data) + " without naming its subset");
    }
    return true;
  }

  ir::SDFG& sdfg_;
  ir::State& state_;
  const ScopeTree& scopes_;
  std::string& why_;
};

void substitute_descriptor(ir::DataDescriptor& d, const std::map<std::string, sym::Expr>& values) {
  if (values.empty()) return;
  auto sub = [&](sym::Expr& e) {
    if (e) e = sym::substitute(e, values);
  };
  for (auto* v : {&d.shape, &d.strides, &d.offset})
    for (sym::Expr& e : *v) sub(e);
  sub(d.total_size);
  sub(d.start_offset);
  sub(d.buffer_size);
}

// The memlet of an inner edge as it reads outside: symbols substituted, connector containers
// replaced by the outer ones (subsets offset into the outer subset), transients renamed.
ir::Memlet outer_memlet(const Plan& p, const ir::DataflowEdge& edge, const std::string& src_data,
                        const std::string& dst_data) {
  ir::Memlet m = edge.memlet;
  if (m.is_empty()) return m;
  if (!p.values.empty()) substitute(m, p.values);
  auto connector = [&](const std::string& data) -> const Connector* {
    auto it = p.inputs.find(data);
    if (it != p.inputs.end()) return &it->second;
    it = p.outputs.find(data);
    return it != p.outputs.end() ? &it->second : nullptr;
  };
  const std::string original = m.data;
  if (const Connector* c = connector(original)) {
    m.subset = to_outer(m.subset, c->outer_subset, c->dims);
    m.data = c->outer_data;
  } else if (auto t = p.transients.find(original); t != p.transients.end()) {
    m.data = t->second;
  }
  if (m.other_subset && !src_data.empty() && !dst_data.empty()) {
    const std::string& other = original == src_data ? dst_data : src_data;
    if (const Connector* c = connector(other)) m.other_subset = to_outer(*m.other_subset, c->outer_subset, c->dims);
  }
  return m;
}

Status apply_plan(ir::SDFG& sdfg, ir::State& state, int id, const Plan& p) {
  ir::SDFG& inner = *p.node->sdfg;
  ir::State& in = *p.inner;
  // As DaCe's apply: Default schedules and storages inside take the node's schedule's
  // defaults before the node goes (checked on a copy by the planner, so this succeeds).
  DACE_TRY(redefault_schedules(sdfg, state, id, inner));
  for (const auto& [name, c] : inner.constants) sdfg.constants.emplace(name, c);
  for (const auto& [from, to] : p.transients) {
    ir::DataDescriptor d = inner.arrays.at(from);
    substitute_descriptor(d, p.values);
    sdfg.arrays[to] = std::move(d);
  }

  // Where each inner node ends up: connector access nodes become the outer endpoints.
  struct End {
    int node;
    std::string conn;
  };
  std::map<int, End> alias;
  std::map<int, std::string> data_of;  // inner access node -> inner container
  for (int n : in.node_ids()) {
    const ir::AccessNode* a = as_access(in.node(n));
    if (!a) continue;
    data_of[n] = a->data;
    if (!p.inputs.count(a->data) && !p.outputs.count(a->data)) continue;
    const Connector& c = in.in_edges(n).empty() ? p.inputs.at(a->data) : p.outputs.at(a->data);
    alias[n] = End{c.outer_node, c.outer_conn};
  }
  std::vector<ir::DataflowEdge> edges;
  for (int e : in.edge_ids()) {
    ir::DataflowEdge edge = *in.edge(e);
    auto sd = data_of.find(edge.src), dd = data_of.find(edge.dst);
    edge.memlet = outer_memlet(p, edge, sd == data_of.end() ? "" : sd->second, dd == data_of.end() ? "" : dd->second);
    edges.push_back(std::move(edge));
  }

  std::map<int, int> moved;  // inner id -> outer id
  for (int n : in.node_ids()) {
    if (alias.count(n)) continue;
    std::unique_ptr<ir::Node> node = in.release_node(n);
    switch (node->kind) {
      case ir::NodeKind::Access: {
        auto& a = static_cast<ir::AccessNode&>(*node);
        a.data = p.transients.at(a.data);
        break;
      }
      case ir::NodeKind::MapEntry:
        if (!p.values.empty()) {
          ir::MapScope& map = static_cast<ir::MapEntry&>(*node).map;
          map.range = map_fusion::substitute(map.range, p.values);
          for (sym::Expr& b : map.gpu_block_size) b = sym::substitute(b, p.values);
        }
        break;
      case ir::NodeKind::Tasklet:
        if (!p.code_values.empty()) {
          ir::CodeBlock& code = static_cast<ir::Tasklet&>(*node).code;
          if (code.language != ir::Language::Python) {
            code.code = rename_identifiers(code.code, p.code_values);
          } else if (Result<std::string> text = tasklet::substitute_in_code(code.code, p.code_values); text.ok()) {
            code.code = *text;  // parses: checked by rewritable() wherever a mapped symbol occurs
          }
        }
        break;
      case ir::NodeKind::NestedSDFG:
        for (auto& [k, v] : static_cast<ir::NestedSDFGNode&>(*node).symbol_mapping)
          if (v && !p.values.empty()) v = sym::substitute(v, p.values);
        break;
      default: break;
    }
    moved[n] = state.add_node(std::move(node));
  }
  for (const auto& [from, to] : moved)
    if (ir::Node* n = state.node(to); n->kind == ir::NodeKind::MapExit)
      state.set_scope_entry(to, moved.at(static_cast<ir::MapExit&>(*n).entry));
  for (ir::DataflowEdge& e : edges) {
    if (auto a = alias.find(e.src); a != alias.end()) {
      e.src = a->second.node;
      e.src_conn = a->second.conn;
    } else {
      e.src = moved.at(e.src);
    }
    if (auto a = alias.find(e.dst); a != alias.end()) {
      e.dst = a->second.node;
      e.dst_conn = a->second.conn;
    } else {
      e.dst = moved.at(e.dst);
    }
    state.add_edge(std::move(e));
  }

  std::set<int> outer_ends;
  for (int e : state.in_edges(id)) outer_ends.insert(state.edge(e)->src);
  for (int e : state.out_edges(id)) outer_ends.insert(state.edge(e)->dst);
  state.remove_node(id);
  // Outer access nodes that only served an unused connector.
  for (int n : outer_ends)
    if (as_access(state.node(n)) && state.in_edges(n).empty() && state.out_edges(n).empty()) state.remove_node(n);

  if (p.entry >= 0) {
    for (const auto& [from, to] : moved) {
      if (state.in_edges(to).empty()) state.add_edge(ir::DataflowEdge{p.entry, to, "", "", ir::Memlet{}});
      if (state.out_edges(to).empty()) state.add_edge(ir::DataflowEdge{to, p.exit, "", "", ir::Memlet{}});
    }
  }
  return Status::success();
}

}  // namespace

void InlineSDFG::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (state.node(id)->kind == ir::NodeKind::NestedSDFG) out.push_back({id});
}

bool InlineSDFG::can_apply(const Site& site, const std::vector<int>& nodes) {
  return Planner(site.sdfg, site.state, site.scopes, why_not_).run(nodes[0]).has_value();
}

Status InlineSDFG::apply_at(const Site& site, const std::vector<int>& nodes) {
  std::optional<Plan> p = Planner(site.sdfg, site.state, site.scopes, why_not_).run(nodes[0]);
  if (!p) return make_error(Code::InvalidArgument, "InlineSDFG: " + why_not_);
  return apply_plan(site.sdfg, site.state, nodes[0], *p);
}

bool InlineSDFG::can_inline(ir::SDFG& sdfg, ir::State& state, int node) {
  const ScopeTree scopes = ScopeTree::compute(state);
  return Planner(sdfg, state, scopes, why_not_).run(node).has_value();
}

Status InlineSDFG::inline_node(ir::SDFG& sdfg, ir::State& state, int node) {
  const ScopeTree scopes = ScopeTree::compute(state);
  std::optional<Plan> p = Planner(sdfg, state, scopes, why_not_).run(node);
  if (!p) return make_error(Code::InvalidArgument, "InlineSDFG: " + why_not_);
  return apply_plan(sdfg, state, node, *p);
}

}  // namespace dace::transform
