// RemoveUnusedSymbols (DaCe's name): drops symbol declarations nothing refers to, in the SDFG
// and (property `recursive`) in nested SDFGs. Uses are looked for everywhere a symbol can
// occur: descriptors, memlets, scopes, code of any language (identifier scan), library-node
// properties, interstate conditions and assignments (both sides: an assigned symbol stays
// declared), loop regions, symbol mappings (a nested SDFG keeps every symbol its parent maps).
#pragma once
#include <set>
#include <string>

#include "transform/pass.h"

namespace dace::transform {

class RemoveUnusedSymbols : public Pass {
 public:
  RemoveUnusedSymbols() { props_.bind_bool("recursive", &recursive_); }
  std::string_view name() const override { return "RemoveUnusedSymbols"; }
  Modifies modifies() const override { return Modifies::Symbols; }
  Modifies depends_on() const override {
    return Modifies::States | Modifies::Edges | Modifies::Descriptors | Modifies::Nodes;
  }
  Result<bool> apply(ir::SDFG& sdfg, AnalysisManager& am) override;

 private:
  bool recursive_ = true;
};

// Every symbol name `sdfg` (not its nested SDFGs) refers to; a superset where code is scanned.
// A nested SDFG also counts the symbols its parent maps, unless `with_parent_mapping` is false
// (ConstantPropagation drops a mapped constant from both sides).
std::set<std::string> used_symbols(const ir::SDFG& sdfg, bool with_parent_mapping = true);

}  // namespace dace::transform
