// Where symbols occur: in code text (tasklets of any language, library-node properties,
// conditions) and in the symbolic parts of memlets. Code is scanned for identifiers, a
// superset of the names it uses (strings and comments included): right for questions whose
// safe answer is "used".
#pragma once
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "ir/memlet.h"
#include "ir/nodes.h"

namespace dace::transform {

std::set<std::string> identifiers_in(std::string_view code);
bool mentions(std::string_view code, std::string_view name);
// Whether any code of the node (tasklet code blocks, library-node properties, consume
// condition) mentions `name`.
bool node_code_mentions(const ir::Node& node, std::string_view name);

// Replaces whole identifiers of code (Python or C++) by the given texts, outside string and
// character literals and not after a `.` (attribute names): `N - 1` with {N: "XN"} gives
// `XN - 1`. Callers pass texts that are valid in the language (parenthesized expressions).
std::string rename_identifiers(std::string_view code, const std::map<std::string, std::string>& replacements);

// Replaces symbols in the subset, other subset and volume of `m`.
void substitute(ir::Memlet& m, const std::map<std::string, sym::Expr>& values);
// Free symbols of the subset, other subset and volume of `m`.
std::set<std::string> free_symbols(const ir::Memlet& m);
std::set<std::string> free_symbols(const sym::Subset& s);

}  // namespace dace::transform
