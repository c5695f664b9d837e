// Helpers shared by the control-flow parts of the C API.
#pragma once
#include <string>

#include "ir/sdfg.h"
#include "libdace.h"

namespace dace::capi {

// The conditional whose branch `region` is, or null.
ir::ConditionalBlock* owner_conditional(ir::SDFG& sdfg, const ir::ControlFlowBlock* region);
// True if a block of the SDFG other than `except` has this label.
bool label_taken(const ir::SDFG& sdfg, const std::string& label, const ir::ControlFlowBlock* except = nullptr);
// A fresh label "<prefix>_<n>".
std::string fresh_label(const ir::SDFG& sdfg, const std::string& prefix);
// The id a host uses for a region (DACE_ROOT_REGION for the SDFG).
inline dace_id_t region_id(const ir::SDFG& sdfg, const ir::ControlFlowRegion& r) {
  return &r == &sdfg ? DACE_ROOT_REGION : r.id;
}

}  // namespace dace::capi
