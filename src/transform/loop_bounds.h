// The iteration space of a LoopRegion written as `for (i = a; i < b; i = i + s)`: what
// LoopToMap needs to turn the loop into a map. Only headers whose iteration set is exactly
// a range with a constant step are accepted; anything else (do-while, non-constant step,
// conditions other than one comparison of the variable) gives nullopt.
#pragma once
#include <optional>
#include <string>

#include "ir/control_flow.h"
#include "ir/symbolic/expr.h"

namespace dace::transform {

struct LoopBounds {
  sym::Expr start = nullptr;  // first value
  sym::Expr end = nullptr;    // last value the condition admits (inclusive), before stepping
  int64_t step = 1;           // non-zero constant
};

std::optional<LoopBounds> loop_bounds(const ir::LoopRegion& loop);

// The same iterations as an ascending map range (inclusive end). Negative steps are
// reversed only when |step| == 1, where the set is simply [end, start]; nullopt otherwise.
std::optional<sym::Range> ascending_range(const LoopBounds& b);

}  // namespace dace::transform
