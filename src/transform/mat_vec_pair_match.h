// The pattern the matrix-vector-pair transformations share (MatVecPairRowBlocking,
// MatVecPairFusedRows): two matrix-vector products over the same matrix, `t = A @ x` followed
// by `y = t @ A` (= A^T t; NPBench's atax), found from the first MatMul.
//
// Legal when the first MatMul reads a 2-D array A and a vector x whole and writes a transient
// vector t whole, t's access node feeds only the second MatMul (as its left operand, whole),
// which reads the same container A whole from an access node and writes a vector y whole (no
// WCR); element types all float32 or all float64; the data in CPU memory; both nodes outside
// any scope; both plain products (beta absent/null/0, alpha absent/null/1, no transA/transB:
// codegen applies these properties, and splitting rows changes what each means); A and x
// written nowhere in the state (their rows are read later, interleaved with the writes of
// y); y distinct from A, x and t, and its only access node in the state is the second MatMul's
// output. Every refusal names the node or container.
#pragma once
#include <optional>
#include <set>
#include <string>

#include "ir/sdfg.h"
#include "transform/scope_tree.h"

namespace dace::transform {

// The pieces of one match, node and edge ids in the state.
struct MatVecPair {
  int first = -1, second = -1;              // the two MatMuls
  int first_a = -1, first_x = -1;           // edges A -> first._a, x -> first._b
  int first_out = -1, temp = -1;            // first._c -> t, t's access node
  int second_t = -1, second_a = -1;         // t -> second._a, A -> second._b
  int second_out = -1, result = -1;         // second._c -> y, y's access node
  std::string a, x, t, y;                   // containers
};

// The match whose first MatMul is node `first`; nullopt (and `why`) when it is none.
std::optional<MatVecPair> match_mat_vec_pair(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes,
                                             int first, std::string* why);

// A name starting with `base` used by nothing in the SDFG's top level, this state's map
// parameters or `taken` (for the new maps' parameters, chosen before any node is added).
std::string fresh_map_parameter(const ir::SDFG& sdfg, const ir::State& state, const std::string& base,
                                const std::set<std::string>& taken);

// A memlet of `data` over `subset`, with the WCR lambda `wcr` when not empty.
ir::Memlet subset_memlet(const std::string& data, sym::Subset subset, const std::string& wcr = "");

// The inclusive range start..end (DaCe's), bounds simplified.
sym::Range closed_range(sym::Expr start, sym::Expr end, sym::Expr step = sym::integer(1));

}  // namespace dace::transform
