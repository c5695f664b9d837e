#include "transform/inline_multistate_sdfg.h"

#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/edit.h"
#include "ir/entry_block.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"
#include "transform/assigned_symbols.h"
#include "transform/block_placement.h"
#include "transform/block_substitution.h"
#include "transform/call_isolation.h"
#include "transform/default_schedules.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// DaCe's find_new_name: `name` when free, else `name_0`, `name_1`, ...
std::string new_name(const std::string& name, const std::set<std::string>& taken) {
  if (!taken.count(name)) return name;
  for (int i = 0;; ++i)
    if (std::string c = name + "_" + std::to_string(i); !taken.count(c)) return c;
}

bool is_false(const std::string& condition) { return condition == "0" || condition == "False"; }

// Sums and products of symbols and integers print the same as symbolic and as Python code.
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

// Every region of an SDFG's control flow (itself, loop bodies, branches), not nested SDFGs.
void regions_of(ir::ControlFlowRegion& r, std::vector<ir::ControlFlowRegion*>& out) {
  out.push_back(&r);
  for (int b : r.block_slots()) {
    ir::ControlFlowBlock* blk = r.block(b);
    if (blk->kind == ir::BlockKind::Loop || blk->kind == ir::BlockKind::Region) {
      regions_of(static_cast<ir::ControlFlowRegion&>(*blk), out);
    } else if (blk->kind == ir::BlockKind::Conditional) {
      for (auto& [cond, branch] : static_cast<ir::ConditionalBlock&>(*blk).branches)
        if (branch) regions_of(*branch, out);
    }
  }
}

// Replaces symbol `name` by `value` throughout `body` (its blocks, its top-level interstate
// edges and its descriptors); false and `why` when some occurrence cannot be rewritten.
bool replace_in_sdfg(ir::SDFG& body, const std::string& name, sym::Expr value, std::string& why) {
  for (int b : body.block_slots())
    if (!can_replace_symbol(*body.block(b), name, why)) return false;
  const std::string text = sym::to_string(value);
  for (int e : body.edge_slots()) {
    ir::InterstateEdge& ie = *body.edge(e);
    const std::string where = "interstate edge " + std::to_string(e) + " of " + quoted(body.name);
    for (const auto& [target, rhs] : ie.assignments)
      if (target == name) {
        why = where + " assigns " + quoted(name);
        return false;
      }
    std::vector<std::string*> texts{&ie.condition.code};
    for (auto& [target, rhs] : ie.assignments) texts.push_back(&rhs);
    for (std::string* t : texts) {
      if (!mentions(*t, name)) continue;
      Result<std::string> out = tasklet::substitute_in_expression(*t, {{name, text}});
      if (!out.ok()) {
        why = where + " names " + quoted(name) + " in text that does not parse: " + *t;
        return false;
      }
      *t = *out;
    }
  }
  for (int b : body.block_slots()) replace_symbol(*body.block(b), name, value);
  const std::map<std::string, sym::Expr> values{{name, value}};
  for (auto& [n, d] : body.arrays) {
    for (auto* v : {&d.shape, &d.strides, &d.offset})
      for (sym::Expr& x : *v)
        if (x) x = sym::substitute(x, values);
    for (sym::Expr* x : {&d.total_size, &d.start_offset, &d.buffer_size})
      if (*x) *x = sym::substitute(*x, values);
  }
  return true;
}

// Renames containers (simultaneously) in `body`: access nodes, memlets and control-flow code.
bool rename_containers(ir::SDFG& body, const std::map<std::string, std::string>& names, std::string& why) {
  if (names.empty()) return true;
  for (ir::State* s : body.all_states()) {
    for (int n : s->node_ids())
      if (ir::Node* node = s->node(n); node->kind == ir::NodeKind::Access) {
        auto& a = static_cast<ir::AccessNode&>(*node);
        if (auto it = names.find(a.data); it != names.end()) a.data = it->second;
      }
    for (int e : s->edge_ids()) {
      ir::Memlet& m = s->edge(e)->memlet;
      if (auto it = names.find(m.data); it != names.end()) m.data = it->second;
    }
  }
  auto rewrite = [&](std::string& text, const std::string& where) {
    bool named = false;
    for (const auto& [from, to] : names) named |= mentions(text, from);
    if (!named) return true;
    Result<std::string> out = tasklet::substitute_in_expression(text, names);
    if (!out.ok()) {
      why = where + " names a container in text that does not parse: " + text;
      return false;
    }
    text = *out;
    return true;
  };
  auto rewrite_statement = [&](ir::CodeBlock& c, const std::string& where) {
    if (c.code.empty()) return true;
    Result<tasklet::Assignment> a = tasklet::parse_assignment(c.code);
    if (!a.ok()) return rewrite(c.code, where);
    std::string value = tasklet::to_source(*a->value);
    if (!rewrite(value, where)) return false;
    if (value != tasklet::to_source(*a->value)) c.code = a->target + " = " + value;
    return true;
  };
  std::vector<ir::ControlFlowRegion*> regions;
  regions_of(body, regions);
  for (ir::ControlFlowRegion* r : regions) {
    const std::string where = quoted(r->label);
    if (r->kind == ir::BlockKind::Loop) {
      auto& l = static_cast<ir::LoopRegion&>(*r);
      if (!rewrite(l.loop_condition.code, "loop " + where) || !rewrite_statement(l.init_statement, "loop " + where) ||
          !rewrite_statement(l.update_statement, "loop " + where))
        return false;
    }
    for (int b : r->block_slots())
      if (r->block(b)->kind == ir::BlockKind::Conditional)
        for (auto& [cond, branch] : static_cast<ir::ConditionalBlock&>(*r->block(b)).branches)
          if (cond && !rewrite(cond->code, "conditional block " + quoted(r->block(b)->label))) return false;
    for (int e : r->edge_slots()) {
      ir::InterstateEdge& ie = *r->edge(e);
      const std::string at = "interstate edge " + std::to_string(e) + " of " + where;
      if (!rewrite(ie.condition.code, at)) return false;
      for (auto& [target, rhs] : ie.assignments)
        if (!rewrite(rhs, at)) return false;
    }
  }
  return true;
}

// What the splice adds to the outer SDFG besides the blocks.
struct Prepared {
  std::map<std::string, ir::DataDescriptor> arrays;  // the nested transients, by outer name
  std::map<std::string, ir::DType> symbols;
  std::map<std::string, ir::Constant> constants;
  std::string after_label;          // the empty state the nested sinks lead to
  std::map<int, std::string> labels;  // nested top-level block slot -> its label outside
};

// Checks legality and rewrites `body` (the nested SDFG itself, or a copy of it to check only)
// into outer names. Reads the outer SDFG and state only.
class Preparer {
 public:
  Preparer(ir::SDFG& outer, ir::State& state, const ScopeTree& scopes, std::string& why)
      : outer_(outer), state_(state), scopes_(scopes), why_(why) {}

  // The checks on the calling state alone, cheap enough to run before copying the body.
  bool precheck(int id) {
    const ir::Node* n = state_.node(id);
    if (!n || n->kind != ir::NodeKind::NestedSDFG) return refuse("node " + std::to_string(id) + " is not a nested SDFG");
    const std::string where = "nested SDFG " + std::to_string(id) + " (" + quoted(n->label) + ")";
    if (scopes_.parent[static_cast<size_t>(id)] >= 0) return refuse(where + " is inside a scope");
    std::string why;
    if (!plan_call_isolation(state_, id, isolation_, why)) return refuse(where + ": " + why);
    return true;
  }

  const CallIsolation& isolation() const { return isolation_; }

  std::optional<Prepared> run(int id, ir::SDFG& body) {
    const ir::Node* n = state_.node(id);
    if (!n || n->kind != ir::NodeKind::NestedSDFG) return fail("node " + std::to_string(id) + " is not a nested SDFG");
    const auto& node = static_cast<const ir::NestedSDFGNode&>(*n);
    const std::string where = "nested SDFG " + std::to_string(id) + " (" + quoted(node.label) + ")";
    if (auto it = node.extra.find("no_inline"); it != node.extra.end() && it->second == "true")
      return fail(where + " is marked no_inline");
    if (node.schedule != ir::ScheduleType::Default) {
      // DaCe re-defaults the body's Default schedules and storages from the node's schedule
      // before inlining (set_default_schedule_and_storage_types).
      std::string why;
      if (!can_redefault_schedules(node, why)) return fail(where + " has schedule " + ir::to_string(node.schedule) + ": " + why);
      if (Status s = redefault_schedules(outer_, state_, id, body); !s.ok()) return fail(s.error().message);
    }
    if (scopes_.parent[static_cast<size_t>(id)] >= 0) return fail(where + " is inside a scope");
    for (const auto* code : {&body.global_code, &body.init_code, &body.exit_code})
      for (const auto& [location, block] : *code)
        if (block.code.find_first_not_of(" \t\n") != std::string::npos)
          return fail(where + " has global, init or exit code");
    if (body.block_slots().empty()) return fail(where + " has no blocks");

    // What else the state holds moves before or after the call (DaCe's state fissions).
    if (!precheck(id)) return std::nullopt;

    // Connectors: one whole-container edge each, same shape and strides inside and out.
    std::map<std::string, std::string> containers;  // inner connector container -> outer container
    std::map<std::string, sym::Expr> values;
    for (const auto& [k, v] : node.symbol_mapping)
      if (v && v != sym::symbol(k)) values[k] = v;
    for (bool in : {true, false})
      for (int e : in ? state_.in_edges(id) : state_.out_edges(id)) {
        const ir::DataflowEdge& edge = *state_.edge(e);
        const std::string& conn = in ? edge.dst_conn : edge.src_conn;
        const std::string at = where + (in ? " input " : " output ") + quoted(conn);
        if (edge.memlet.is_empty() || conn.empty()) return fail(where + " has an empty memlet");
        const int other = in ? edge.src : edge.dst;
        if (state_.node(other)->kind != ir::NodeKind::Access)
          return fail(at + " is attached to node " + std::to_string(other) + " (" + quoted(state_.node(other)->label) +
                      "), not an access node");
        const std::string& data = edge.memlet.data;
        auto od = outer_.arrays.find(data);
        if (od == outer_.arrays.end()) return fail(at + " names no outer container");
        if (od->second.kind == ir::DataKind::View || od->second.kind == ir::DataKind::Reference)
          return fail(at + ": outer container " + quoted(data) + " is a view or reference");
        if (!is_whole(edge.memlet.subset, od->second.shape))
          return fail(at + " does not access the whole of " + quoted(data));
        auto id_ = body.arrays.find(conn);
        if (id_ == body.arrays.end()) return fail(at + " has no inner container");
        if (id_->second.transient) return fail(at + ": inner container is transient");
        const ir::DataDescriptor& inner = id_->second;
        bool same = inner.shape.size() == od->second.shape.size() && inner.strides.size() == od->second.strides.size();
        for (size_t d = 0; same && d < inner.shape.size(); ++d)
          same = same_value(sym::substitute(inner.shape[d], values), od->second.shape[d]);
        for (size_t d = 0; same && d < inner.strides.size(); ++d)
          same = same_value(sym::substitute(inner.strides[d], values), od->second.strides[d]);
        if (!same) return fail(at + ": inner shape or strides differ from those of " + quoted(data));
        if (auto c = containers.find(conn); c != containers.end() && c->second != data)
          return fail(at + " reads and writes different outer containers");
        containers[conn] = data;
      }
    for (const auto& [name, d] : body.arrays)
      if (!d.transient && !containers.count(name))
        return fail(where + ": container " + quoted(name) + " has no connector");
    for (const auto& [name, c] : body.constants)
      if (auto it = outer_.constants.find(name); it != outer_.constants.end() && it->second.value_json != c.value_json)
        return fail("constant " + quoted(name) + " of " + where + " differs from the outer one");

    // The symbol mapping, in two steps (N -> __dacesym_N -> value) so that values naming
    // other mapped symbols are not replaced again.
    for (const auto& [k, v] : values)
      if (!arithmetic(v)) return fail(where + " maps " + quoted(k) + " to " + sym::to_string(v) + ", not a sum or product");
    for (const auto& [k, v] : values)
      if (!replace_in_sdfg(body, k, sym::symbol("__dacesym_" + k), why_)) return fail(where + ": " + why_);
    for (const auto& [k, v] : values) {
      if (!replace_in_sdfg(body, "__dacesym_" + k, v, why_)) return fail(where + ": " + why_);
      body.symbols.erase(k);
    }

    // Symbols the nested control flow assigns that the outer SDFG also uses get new names.
    std::set<std::string> all_names;
    for (const auto& [k, t] : outer_.symbols) all_names.insert(k);
    for (const std::string& s : assigned_symbols(outer_)) all_names.insert(s);
    for (const auto& [k, d] : outer_.arrays) all_names.insert(k);
    for (const std::string& s : assigned_symbols(body)) {
      if (!all_names.count(s) || values.count(s)) continue;
      const std::string fresh = new_name(s, all_names);
      all_names.insert(fresh);
      if (!rename_assigned(body, s, fresh)) return fail(where + ": " + why_);
    }

    Prepared p;
    // Transients become outer transients, named in state and node order (DaCe's rule).
    std::map<std::string, std::string> names = containers;
    std::set<std::string> taken_now;
    auto taken = [&](const std::string& x) {
      return outer_.arrays.count(x) || outer_.symbols.count(x) || outer_.constants.count(x) || taken_now.count(x);
    };
    auto take = [&](const std::string& data) {
      if (names.count(data) || containers.count(data)) return;
      auto d = body.arrays.find(data);
      if (d == body.arrays.end() || !d->second.transient) return;
      std::string base = taken(data) ? body.name + "_" + data : data;
      std::string name = base;
      for (int i = 0; taken(name); ++i) name = base + "_" + std::to_string(i);
      taken_now.insert(name);
      names[data] = name;
      p.arrays[name] = d->second;
    };
    for (ir::State* s : body.all_states()) {
      for (int nid : s->node_ids())
        if (const ir::Node* x = s->node(nid); x->kind == ir::NodeKind::Access)
          take(static_cast<const ir::AccessNode&>(*x).data);
      for (int e : s->edge_ids()) take(s->edge(e)->memlet.data);
    }
    if (!rename_containers(body, names, why_)) return fail(where + ": " + why_);
    for (const auto& [name, c] : body.constants) p.constants.emplace(name, c);
    for (const auto& [k, t] : body.symbols)
      if (!outer_.symbols.count(k)) p.symbols[k] = t;

    // Labels: the new state after, the state DaCe creates and removes, then clashing nested
    // block labels renamed against the outer region's labels.
    const ir::ControlFlowRegion& region = *state_.parent;
    std::set<std::string> labels;
    for (int b : region.block_slots()) labels.insert(region.block(b)->label);
    p.after_label = new_name("block", labels);
    labels.insert(p.after_label);
    labels.insert(new_name("block", labels));
    for (int b : body.block_slots()) {
      std::string label = body.block(b)->label;
      if (labels.count(label)) {
        label = new_name(label, labels);
        labels.insert(label);
      }
      p.labels[b] = label;
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

  // Renames an assigned symbol: assignment targets, then every read.
  bool rename_assigned(ir::SDFG& body, const std::string& from, const std::string& to) {
    std::vector<ir::ControlFlowRegion*> regions;
    regions_of(body, regions);
    for (ir::ControlFlowRegion* r : regions) {
      if (r->kind == ir::BlockKind::Loop && static_cast<ir::LoopRegion&>(*r).loop_variable == from) {
        why_ = "loop " + quoted(r->label) + " has variable " + quoted(from) + ", also an outer name";
        return false;
      }
      for (int e : r->edge_slots())
        for (auto& [target, rhs] : r->edge(e)->assignments)
          if (target == from) target = to;
    }
    if (auto t = body.symbols.find(from); t != body.symbols.end()) {
      const ir::DType type = t->second;
      body.symbols.erase(t);
      body.symbols[to] = type;
    }
    return replace_in_sdfg(body, from, sym::symbol(to), why_);
  }

  ir::SDFG& outer_;
  ir::State& state_;
  const ScopeTree& scopes_;
  std::string& why_;
  CallIsolation isolation_;
};

void register_blocks(ir::SDFG& owner, ir::ControlFlowBlock& b) {
  owner.register_block(b);
  if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region) {
    auto& r = static_cast<ir::ControlFlowRegion&>(b);
    for (int s : r.block_slots()) register_blocks(owner, *r.block(s));
  } else if (b.kind == ir::BlockKind::Conditional) {
    for (auto& [cond, branch] : static_cast<ir::ConditionalBlock&>(b).branches)
      if (branch) register_blocks(owner, *branch);
  }
}

// Replaces the state by the prepared nested control flow, as DaCe's state fission and
// reconnection leave it: state -> nested start ... nested sinks -> new state -> successors.
void splice(ir::SDFG& outer, ir::State& state, ir::SDFG& body, Prepared& p, const CallIsolation& isolation) {
  ir::ControlFlowRegion& region = *state.parent;
  const int s = region.slot_of(&state);
  auto after = std::make_unique<ir::State>();
  after->label = p.after_label;
  outer.register_block(*after);
  const int a = region.add_block(std::move(after));
  for (int es : region.out_edges(s)) {
    ir::InterstateEdge e = *region.edge(es);
    region.remove_edge(es);
    e.src = a;
    region.add_edge(std::move(e));
  }

  const int source = ir::entry_block(body);
  std::vector<int> sinks;
  for (int b : body.block_slots())
    if (body.out_edges(b).empty()) sinks.push_back(b);
  std::vector<ir::InterstateEdge> edges;
  for (int e : body.edge_slots()) edges.push_back(*body.edge(e));
  std::map<int, int> moved;
  for (int b : body.block_slots()) {
    std::unique_ptr<ir::ControlFlowBlock> blk = body.release_block(b);
    blk->label = p.labels.at(b);
    register_blocks(outer, *blk);
    moved[b] = region.add_block(std::move(blk));
  }
  for (ir::InterstateEdge& e : edges) {
    e.src = moved.at(e.src);
    e.dst = moved.at(e.dst);
    region.add_edge(e);
  }
  ir::InterstateEdge enter;
  enter.src = s;
  enter.dst = moved.at(source);
  region.add_edge(std::move(enter));
  for (int sink : sinks) {
    ir::InterstateEdge leave;
    leave.src = moved.at(sink);
    leave.dst = a;
    region.add_edge(std::move(leave));
    // Edges into a sink that are never taken (DaCe's returns) also lead out.
    for (const ir::InterstateEdge& e : edges)
      if (e.dst == moved.at(sink) && is_false(e.condition.code)) {
        ir::InterstateEdge out;
        out.src = e.src;
        out.dst = a;
        region.add_edge(std::move(out));
      }
  }
  ir::relink_parents(region);

  for (auto& [name, d] : p.arrays) outer.arrays[name] = std::move(d);
  for (const auto& [k, t] : p.symbols) outer.symbols.emplace(k, t);
  for (const auto& [k, c] : p.constants) outer.constants.emplace(k, c);
  // Last, as the nested SDFG (`body`) goes with its node.
  isolate_call(state, static_cast<ir::State&>(*region.block(a)), isolation);
}

}  // namespace

void InlineMultistateSDFG::state_matches(const ir::State& state, const ScopeTree&,
                                         std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (state.node(id)->kind == ir::NodeKind::NestedSDFG) out.push_back({id});
}

bool InlineMultistateSDFG::can_apply(const Site& site, const std::vector<int>& nodes) {
  return can_inline(site.sdfg, site.state, nodes[0]);
}

Status InlineMultistateSDFG::apply_at(const Site& site, const std::vector<int>& nodes) {
  return inline_node(site.sdfg, site.state, nodes[0]);
}

bool InlineMultistateSDFG::can_inline(ir::SDFG& sdfg, ir::State& state, int node) {
  const ir::Node* n = state.node(node);
  if (!n || n->kind != ir::NodeKind::NestedSDFG || !static_cast<const ir::NestedSDFGNode&>(*n).sdfg)
    return refuse("node " + std::to_string(node) + " is not a nested SDFG");
  const ScopeTree scopes = ScopeTree::compute(state);
  Preparer prep(sdfg, state, scopes, why_not_);
  if (!prep.precheck(node)) return false;
  // The rest rewrites a copy, so that reading leaves the SDFG as it was.
  std::unique_ptr<ir::SDFG> copy = static_cast<const ir::NestedSDFGNode&>(*n).sdfg->clone_sdfg();
  return prep.run(node, *copy).has_value();
}

Status InlineMultistateSDFG::inline_node(ir::SDFG& sdfg, ir::State& state, int node) {
  if (!can_inline(sdfg, state, node)) return make_error(Code::InvalidArgument, "InlineMultistateSDFG: " + why_not_);
  ir::SDFG& body = *static_cast<ir::NestedSDFGNode&>(*state.node(node)).sdfg;
  const ScopeTree scopes = ScopeTree::compute(state);
  Preparer prep(sdfg, state, scopes, why_not_);
  std::optional<Prepared> p = prep.run(node, body);
  if (!p) return make_error(Code::Internal, "InlineMultistateSDFG: " + why_not_);  // the copy passed
  splice(sdfg, state, body, *p, prep.isolation());
  return Status::success();
}

}  // namespace dace::transform
