#include "transform/symbol_rewrite.h"

#include "ir/tasklet/substitute.h"
#include "transform/symbol_use.h"

namespace dace::transform {

SymbolRewriter::SymbolRewriter(const std::map<std::string, std::string>& mapping, std::set<std::string>& blocked)
    : mapping_(mapping), blocked_(blocked) {
  for (const auto& [k, v] : mapping) {
    auto e = sym::parse(v);
    if (e) sym_[k] = *e;
  }
}

void SymbolRewriter::state(ir::State& s) {
  for (int e : s.edge_ids()) memlet(s.edge(e)->memlet);
  for (int id : s.node_ids()) node(*s.node(id));
}

void SymbolRewriter::code_text(std::string& code, bool expression, const std::set<std::string>& shadowed) {
  std::map<std::string, std::string> m;
  const std::set<std::string> ids = identifiers_in(code);
  for (const auto& [k, v] : mapping_)
    if (ids.count(k) && !shadowed.count(k)) m.emplace(k, v);
  if (m.empty()) return;
  auto r = expression ? tasklet::substitute_in_expression(code, m) : tasklet::substitute_in_code(code, m);
  if (!r) {
    for (const auto& [k, v] : m) blocked_.insert(k);
    return;
  }
  changed |= *r != code;
  code = std::move(*r);
}

void SymbolRewriter::block_mentioned(const std::string& text) {
  const std::set<std::string> ids = identifiers_in(text);
  for (const auto& [k, v] : mapping_)
    if (ids.count(k)) blocked_.insert(k);
}

sym::Expr SymbolRewriter::expr(sym::Expr e) {
  if (!e) return e;
  std::map<std::string, sym::Expr> m;
  for (const std::string& f : sym::free_symbols(e)) {
    if (!mapping_.count(f)) continue;
    auto it = sym_.find(f);
    if (it == sym_.end()) {
      blocked_.insert(f);
      continue;
    }
    m.emplace(f, it->second);
  }
  if (m.empty()) return e;
  sym::Expr r = sym::substitute(e, m);
  changed |= r != e;
  return r;
}

void SymbolRewriter::subset(sym::Subset& s) {
  for (sym::Range& r : s.dims) {
    r.start = expr(r.start);
    r.end = expr(r.end);
    r.step = expr(r.step);
    r.tile = expr(r.tile);
  }
}

void SymbolRewriter::memlet(ir::Memlet& m) {
  subset(m.subset);
  if (m.other_subset) subset(*m.other_subset);
  m.volume = expr(m.volume);
}

void SymbolRewriter::node(ir::Node& n) {
  for (const auto& [key, text] : n.extra) block_mentioned(text);
  switch (n.kind) {
    case ir::NodeKind::Tasklet: {
      auto& t = static_cast<ir::Tasklet&>(n);
      for (const ir::CodeBlock* c : {&t.code_global.get(), &t.code_init.get(), &t.code_exit.get()}) block_mentioned(c->code);
      if (t.code.language != ir::Language::Python) {
        block_mentioned(t.code.code);
        break;
      }
      // A connector of the symbol's name hides the symbol inside the tasklet.
      std::set<std::string> conns;
      for (const auto& [c, type] : t.in_connectors) conns.insert(c);
      for (const auto& [c, type] : t.out_connectors) conns.insert(c);
      code_text(t.code.code, /*expression=*/false, conns);
      break;
    }
    case ir::NodeKind::MapEntry: {
      ir::MapScope& m = static_cast<ir::MapEntry&>(n).map;
      subset(m.range);
      for (sym::Expr& b : m.gpu_block_size) b = expr(b);
      break;
    }
    case ir::NodeKind::ConsumeEntry: {
      const ir::ConsumeScope& c = static_cast<ir::ConsumeEntry&>(n).consume;
      for (sym::Expr e : {c.num_pes, c.chunksize})
        if (e) block_mentioned(sym::to_string(e));
      block_mentioned(c.condition.code);
      break;
    }
    case ir::NodeKind::Library:
      for (const auto& [key, text] : static_cast<ir::LibraryNode&>(n).properties) block_mentioned(text);
      break;
    case ir::NodeKind::NestedSDFG:
      for (auto& [inner, outer] : static_cast<ir::NestedSDFGNode&>(n).symbol_mapping) outer = expr(outer);
      break;
    default: break;
  }
}

}  // namespace dace::transform
