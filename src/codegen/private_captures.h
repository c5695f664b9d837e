// Which captures of an outlined body point at memory of their own, for `noalias` on the
// parameters they become (CPU_Multicore bodies, GPU kernels).
#pragma once
#include <vector>

#include "codegen/frame.h"

namespace dace::codegen {

// For each capture of `body`, whether its pointer reaches memory that no other capture
// reaches: distinct transients and distinct arguments (unless may_alias, or
// noalias_arguments is off) do; symbols, views, references and a nested SDFG's arrays (its
// connectors may share a container) do not, and nothing does once a view or reference is
// captured (it may point into any of them). Call before the capture loads are replaced.
std::vector<bool> private_captures(const Frame& body);

}  // namespace dace::codegen
