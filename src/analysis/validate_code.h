// Name analysis of code held by the IR (tasklet bodies, interstate conditions and
// assignments, loop statements, WCR lambdas), shared by validation and free-symbol analysis.
#pragma once
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "ir/sdfg.h"
#include "ir/tasklet/ast.h"

namespace dace::analysis::detail {

// DaCe's validate_name: an identifier ([A-Za-z_][A-Za-z0-9_]*), not True/False/None.
bool is_valid_name(std::string_view name);

// Module names tasklets use as attribute prefixes (`math.pi`, `dace.float64`): never symbols.
bool is_module_name(std::string_view name);

// Names an expression reads: Name nodes, including subscripted and attribute bases; not call
// targets (`math.sin(x)` reads x only).
void collect_names(const tasklet::Expr& e, std::set<std::string>& out);

struct ProgramNames {
  std::set<std::string> read;      // names read, plus bases of subscripted targets
  std::set<std::string> assigned;  // plain names assigned (locals and output connectors)
};
void collect_names(const tasklet::Program& p, ProgramNames& out);

// Identifiers appearing in C-like source text (for CPP tasklets, where only string analysis
// is possible). Skips string/char literals and comments.
std::set<std::string> identifiers_in_text(std::string_view code);

// Names read by interstate-edge or loop code: `text` parsed as an expression; empty set when
// it does not parse.
std::set<std::string> expression_names(std::string_view text);

// A WCR is valid when it is a two-argument lambda whose body parses (`lambda a, b: a + b`)
// or a reduction name canonical_wcr knows. On failure `why` says what is wrong.
bool valid_wcr(std::string_view wcr, std::string& why);

// Visits `region` and every region below it (loops, regions, conditional branches), not
// nested SDFGs. Unlike SDFG::for_each_block it tolerates null branches and stops at depth 256.
void for_each_region(const ir::ControlFlowRegion& region, const std::function<void(const ir::ControlFlowRegion&)>& fn);
// Every state below `region`, in the same order.
std::vector<const ir::State*> states_below(const ir::ControlFlowRegion& region);

}  // namespace dace::analysis::detail
