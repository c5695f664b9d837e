// Replacing symbols by values (expression text) inside a state and in interstate code, for
// passes that propagate symbol values (ConstantPropagation, SymbolPropagation). Memlets, map
// ranges and nested-SDFG symbol mappings go through sym::substitute; Python tasklet code,
// conditions and assignment right-hand sides through tasklet::substitute_in_code /
// substitute_in_expression. Where a symbol occurs but nothing is rewritten — C++ tasklets,
// library-node properties, consume scopes, node properties kept as JSON, a value the symbolic
// library cannot read inside a memlet — the symbol is added to `blocked`: its assignments
// must stay, since some use still reads it.
#pragma once
#include <map>
#include <set>
#include <string>

#include "ir/state.h"

namespace dace::transform {

class SymbolRewriter {
 public:
  SymbolRewriter(const std::map<std::string, std::string>& mapping, std::set<std::string>& blocked);
  // Everything in the state (a tasklet connector of a symbol's name hides that symbol there).
  void state(ir::State& s);
  // An interstate condition or assignment right-hand side (`expression`), or tasklet code.
  void code_text(std::string& code, bool expression, const std::set<std::string>& shadowed = {});
  bool changed = false;

 private:
  void block_mentioned(const std::string& text);
  sym::Expr expr(sym::Expr e);
  void subset(sym::Subset& s);
  void memlet(ir::Memlet& m);
  void node(ir::Node& n);

  const std::map<std::string, std::string>& mapping_;
  std::set<std::string>& blocked_;
  std::map<std::string, sym::Expr> sym_;
};

}  // namespace dace::transform
