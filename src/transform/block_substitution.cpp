#include "transform/block_substitution.h"

#include "ir/state.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"
#include "transform/symbol_use.h"

namespace dace::transform {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

bool check_expression(const std::string& text, const std::string& name, const std::string& where, std::string& why) {
  if (!mentions(text, name)) return true;
  if (tasklet::parse_expression_cached(text).ok()) return true;
  why = where + " names " + quoted(name) + " in text that does not parse: " + text;
  return false;
}

// "j = expr": rewritable unless it assigns `name` itself.
bool check_assignment(const std::string& text, const std::string& name, const std::string& where, std::string& why) {
  if (text.empty() || !mentions(text, name)) return true;
  Result<tasklet::Assignment> a = tasklet::parse_assignment(text);
  if (!a.ok()) {
    why = where + " does not parse: " + text;
    return false;
  }
  if (a->target == name) {
    why = where + " assigns " + quoted(name);
    return false;
  }
  return true;
}

bool check_node(const ir::Node& node, int id, const std::string& name, const std::string& where, std::string& why) {
  const std::string at = where + " node " + std::to_string(id);
  if (node.in_connectors.count(name) || node.out_connectors.count(name)) {
    why = at + " has a connector named " + quoted(name);
    return false;
  }
  switch (node.kind) {
    case ir::NodeKind::Tasklet: {
      const auto& t = static_cast<const ir::Tasklet&>(node);
      const bool other_code = mentions(t.code_global->code, name) || mentions(t.code_init->code, name) ||
                              mentions(t.code_exit->code, name);
      if (!mentions(t.code.code, name) && !other_code) return true;
      if (t.code.language != ir::Language::Python || other_code) {
        why = at + " names " + quoted(name) + " in code that is not rewritten (not Python)";
        return false;
      }
      auto p = tasklet::parse_code_cached(t.code.code);
      if (!p.ok()) {
        why = at + ": tasklet code does not parse";
        return false;
      }
      if (tasklet::names_assigned(**p).count(name)) {
        why = at + " assigns a local variable " + quoted(name);
        return false;
      }
      return true;
    }
    case ir::NodeKind::MapEntry:
      for (const std::string& p : static_cast<const ir::MapEntry&>(node).map.params)
        if (p == name) {
          why = at + ": an inner map redefines " + quoted(name);
          return false;
        }
      return true;
    case ir::NodeKind::ConsumeEntry:
      if (static_cast<const ir::ConsumeEntry&>(node).consume.pe_index == name ||
          mentions(static_cast<const ir::ConsumeEntry&>(node).consume.condition.code, name)) {
        why = at + ": a consume scope uses " + quoted(name) + " in code";
        return false;
      }
      return true;
    case ir::NodeKind::Library:
      if (node_code_mentions(node, name)) {
        why = at + ": library node properties name " + quoted(name);
        return false;
      }
      return true;
    default:
      return true;
  }
}

bool check_region(const ir::ControlFlowRegion& r, const std::string& name, std::string& why);

bool check_block(const ir::ControlFlowBlock& b, const std::string& name, std::string& why) {
  const std::string where = std::string(ir::to_string(b.kind)) + " " + quoted(b.label);
  switch (b.kind) {
    case ir::BlockKind::State: {
      const auto& s = static_cast<const ir::State&>(b);
      for (int n : s.node_ids())
        if (!check_node(*s.node(n), n, name, where, why)) return false;
      return true;
    }
    case ir::BlockKind::Loop: {
      const auto& l = static_cast<const ir::LoopRegion&>(b);
      if (l.loop_variable == name) {
        why = where + " redefines " + quoted(name);
        return false;
      }
      if (!check_assignment(l.init_statement.code, name, where, why) ||
          !check_assignment(l.update_statement.code, name, where, why) ||
          !check_expression(l.loop_condition.code, name, where, why))
        return false;
      return check_region(l, name, why);
    }
    case ir::BlockKind::Region:
      return check_region(static_cast<const ir::ControlFlowRegion&>(b), name, why);
    case ir::BlockKind::Conditional:
      for (const auto& [cond, region] : static_cast<const ir::ConditionalBlock&>(b).branches) {
        if (cond && !check_expression(cond->code, name, where, why)) return false;
        if (!check_region(*region, name, why)) return false;
      }
      return true;
    default:
      return true;
  }
}

bool check_region(const ir::ControlFlowRegion& r, const std::string& name, std::string& why) {
  for (int b : r.block_slots())
    if (!check_block(*r.block(b), name, why)) return false;
  for (int e : r.edge_slots()) {
    const ir::InterstateEdge& ie = *r.edge(e);
    const std::string where = "interstate edge " + std::to_string(e) + " of " + quoted(r.label);
    if (!check_expression(ie.condition.code, name, where, why)) return false;
    for (const auto& [target, value] : ie.assignments) {
      if (target == name) {
        why = where + " assigns " + quoted(name);
        return false;
      }
      if (!check_expression(value, name, where, why)) return false;
    }
  }
  return true;
}

struct Replacer {
  const std::string& name;
  sym::Expr value;
  std::map<std::string, std::string> code_values;  // empty when the value does not parse as code
  tasklet::NameValues parsed_values;

  sym::Expr sub(sym::Expr e) const { return e ? sym::substitute(e, {{name, value}}) : e; }
  void sub(sym::Range& r) const {
    r.start = sub(r.start);
    r.end = sub(r.end);
    r.step = sub(r.step);
    r.tile = sub(r.tile);
  }
  std::string expression(const std::string& text) const {
    if (!mentions(text, name)) return text;
    Result<std::string> out = tasklet::substitute_in_expression(text, code_values);
    return out.ok() ? *out : text;
  }
  void assignment(ir::CodeBlock& c) const {
    if (c.code.empty() || !mentions(c.code, name)) return;
    Result<tasklet::Assignment> a = tasklet::parse_assignment(c.code);
    if (a.ok()) c.code = a->target + " = " + tasklet::to_source(*tasklet::substitute(a->value, parsed_values));
  }

  void node(ir::Node& n) const {
    switch (n.kind) {
      case ir::NodeKind::Tasklet: {
        auto& t = static_cast<ir::Tasklet&>(n);
        if (!mentions(t.code.code, name)) return;
        Result<std::string> text = tasklet::substitute_in_code(t.code.code, code_values);
        if (text.ok()) t.code.code = *text;
        return;
      }
      case ir::NodeKind::MapEntry:
        for (sym::Range& r : static_cast<ir::MapEntry&>(n).map.range.dims) sub(r);
        return;
      case ir::NodeKind::ConsumeEntry: {
        ir::ConsumeScope& c = static_cast<ir::ConsumeEntry&>(n).consume;
        c.num_pes = sub(c.num_pes);
        c.chunksize = sub(c.chunksize);
        return;
      }
      case ir::NodeKind::NestedSDFG:
        for (auto& [inner, outer] : static_cast<ir::NestedSDFGNode&>(n).symbol_mapping) outer = sub(outer);
        return;
      default:
        return;
    }
  }

  void region(ir::ControlFlowRegion& r) const {
    for (int b : r.block_slots()) block(*r.block(b));
    for (int e : r.edge_slots()) {
      ir::InterstateEdge& ie = *r.edge(e);
      ie.condition.code = expression(ie.condition.code);
      for (auto& [target, text] : ie.assignments) text = expression(text);
    }
  }

  void block(ir::ControlFlowBlock& b) const {
    switch (b.kind) {
      case ir::BlockKind::State: {
        auto& s = static_cast<ir::State&>(b);
        for (int n : s.node_ids()) node(*s.node(n));
        std::map<std::string, sym::Expr> values{{name, value}};
        for (int e : s.edge_ids()) substitute(s.edge(e)->memlet, values);
        return;
      }
      case ir::BlockKind::Loop: {
        auto& l = static_cast<ir::LoopRegion&>(b);
        assignment(l.init_statement);
        assignment(l.update_statement);
        l.loop_condition.code = expression(l.loop_condition.code);
        region(l);
        return;
      }
      case ir::BlockKind::Region:
        region(static_cast<ir::ControlFlowRegion&>(b));
        return;
      case ir::BlockKind::Conditional:
        for (auto& [cond, r] : static_cast<ir::ConditionalBlock&>(b).branches) {
          if (cond) cond->code = expression(cond->code);
          region(*r);
        }
        return;
      default:
        return;
    }
  }
};

}  // namespace

bool can_replace_symbol(const ir::ControlFlowBlock& block, const std::string& name, std::string& why) {
  return check_block(block, name, why);
}

void replace_symbol(ir::ControlFlowBlock& block, const std::string& name, sym::Expr value) {
  const std::string text = sym::to_string(value);
  Replacer r{name, value, {}, {}};
  if (Result<tasklet::ExprPtr> code_value = tasklet::parse_expression_cached(text); code_value.ok()) {
    r.code_values[name] = text;
    r.parsed_values[name] = *code_value;
  }
  r.block(block);
}

}  // namespace dace::transform
