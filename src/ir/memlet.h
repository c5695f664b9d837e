// Memlets: the data movement on a dataflow edge (DaCe's `dace.Memlet`).
#pragma once
#include <optional>
#include <string>

#include "ir/common.h"
#include "ir/symbolic/expr.h"

namespace dace::ir {

// Members most memlets leave unset are out of line (one pointer each), and the flags sit
// together: 112 bytes instead of 168, in every dataflow edge (docs/sdfg-json.md "Memory of
// the IR").
struct Memlet {
  std::string data;                            // empty = empty memlet (ordering-only edge)
  sym::Subset subset;                          // subset of `data`
  OptionalOutOfLine<sym::Subset> other_subset; // subset of the container at the other end
  sym::Expr volume = nullptr;                  // number of accesses; null = derived from subset
  OutOfLine<std::string> wcr;                  // write-conflict resolution lambda; empty = none
  bool dynamic = false;                        // volume is an upper bound
  bool wcr_nonatomic = false;
  bool allow_oob = false;
  // Whether `data` names the source of the edge (DaCe's is_data_src); unknown = decided by
  // the edge's endpoints when needed.
  std::optional<bool> is_data_src;
  // Out of line: almost every memlet has no debuginfo, DaCe's files give each a guid.
  OutOfLine<DebugInfo> debuginfo;
  OutOfLine<std::string> guid;
  ExtraProperties extra;

  bool is_empty() const { return data.empty(); }
};

// Parses DaCe memlet text: "A[i, 0:N]", "A[0:N] -> [1:N+1]" (other_subset), "A" (whole
// array; needs the shape, so the subset is left empty for the caller to fill), "" (empty).
// WCR and volume are separate arguments of the builder, not part of this text.
Result<Memlet> parse_memlet(std::string_view text);
// "A[i, 0:N]" or "A[0:N] -> [1:N + 1]".
std::string to_string(const Memlet& m);
// Reduction lambdas DaCe writes for the common operators, e.g. "sum" -> "lambda a, b: a + b".
// Returns the text unchanged when it is already a lambda; nullopt for an unknown name.
std::optional<std::string> canonical_wcr(std::string_view wcr);

}  // namespace dace::ir
