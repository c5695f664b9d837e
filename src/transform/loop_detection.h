// Natural for-loops written as state machines (DaCe 1.0's frontend form):
//
//   before --[i = init, ...]--> guard --[c]--> body ... latch --[i = update, ...]--> guard
//                                     \--[not c]--> after
//
// The guard is an empty state with exactly these two in-edges and two out-edges; the body is
// every block the body edge reaches without passing through the guard, it is entered only
// from the guard and left only through the back edge. Anything else (break, continue and
// return edges or blocks, a second back edge, dataflow in the guard) is not a for-loop here:
// LoopLifting leaves it as it is.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/control_flow.h"

namespace dace::transform {

struct ForLoop {
  int guard = -1;      // block slot
  int init_edge = -1;  // edge slots
  int back_edge = -1;
  int body_edge = -1;
  int exit_edge = -1;
  int latch = -1;            // source of the back edge
  std::vector<int> body;     // block slots, ascending
  std::string variable;      // assigned on both the init and the back edge
  std::string init_value;    // right-hand side on the init edge
  std::string update_value;  // right-hand side on the back edge
  std::string condition;     // the body edge's condition
};

// The for-loop whose guard is `guard`, or nullopt with the reason in `why` (if given).
std::optional<ForLoop> detect_for_loop(const ir::ControlFlowRegion& region, int guard, std::string* why = nullptr);

// Whether `negated` says `not (c)` for the condition `c` (as text: DaCe's frontend writes
// `(not (c))` on the exit edge for `c` on the body edge).
bool is_negation(const std::string& negated, const std::string& c);

}  // namespace dace::transform
