// What the control flow of an SDFG reads, for checks outside the analysis layer (a plugin's
// lowering) that must not miss a read: the names interstate code and loop statements read,
// over-approximated where the code does not parse, and a walk over every control-flow region
// that refuses an SDFG it cannot walk whole instead of stopping silently.
#pragma once
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::analysis {

// Names the expression `text` reads (an interstate condition or assignment value, a loop
// condition); every identifier in it when it does not parse.
std::set<std::string> names_read_by_expression(std::string_view text);

// Names the statement `target = value` (a loop's init or update) reads: its value's; every
// identifier in it when it does not parse.
std::set<std::string> names_read_by_statement(std::string_view text);

// Calls `fn` on `region` and every region below it (loops, regions, conditional branches;
// not nested SDFGs). Regions nested deeper than validation allows (256 levels, as
// validate_cfg refuses them) give InvalidSdfg naming the SDFG and visit nothing.
Status for_each_region_whole(const ir::SDFG& sdfg, const std::function<void(const ir::ControlFlowRegion&)>& fn);

}  // namespace dace::analysis
