#include "analysis/code_reads.h"

#include <vector>

#include "analysis/validate_code.h"
#include "analysis/validate_internal.h"
#include "ir/path.h"
#include "ir/tasklet/parser.h"

namespace dace::analysis {

std::set<std::string> names_read_by_expression(std::string_view text) {
  Result<tasklet::ExprPtr> parsed = tasklet::parse_expression(text);
  if (!parsed.ok() || !*parsed) return detail::identifiers_in_text(text);
  std::set<std::string> out;
  detail::collect_names(**parsed, out);
  return out;
}

std::set<std::string> names_read_by_statement(std::string_view text) {
  Result<tasklet::Assignment> parsed = tasklet::parse_assignment(text);
  if (!parsed.ok() || !parsed->value) return detail::identifiers_in_text(text);
  std::set<std::string> out;
  detail::collect_names(*parsed->value, out);
  return out;
}

namespace {

// Collects the regions depth-first in visiting order; false when one lies deeper than
// detail::kMaxDepth (the SDFG itself is depth 0, as in validate_cfg).
bool collect_regions(const ir::ControlFlowRegion& region, int depth, std::vector<const ir::ControlFlowRegion*>& out) {
  if (depth > detail::kMaxDepth) return false;
  out.push_back(&region);
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock* b = region.block(slot);
    if (b->kind == ir::BlockKind::Region || b->kind == ir::BlockKind::Loop) {
      if (!collect_regions(static_cast<const ir::ControlFlowRegion&>(*b), depth + 1, out)) return false;
    } else if (b->kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, body] : static_cast<const ir::ConditionalBlock&>(*b).branches)
        if (body && !collect_regions(*body, depth + 1, out)) return false;
    }
  }
  return true;
}

}  // namespace

Status for_each_region_whole(const ir::SDFG& sdfg, const std::function<void(const ir::ControlFlowRegion&)>& fn) {
  std::vector<const ir::ControlFlowRegion*> regions;
  if (!collect_regions(sdfg, 0, regions))
    return make_error(Code::InvalidSdfg, ir::path_of(sdfg) + ": control-flow regions are nested more than " +
                                             std::to_string(detail::kMaxDepth) + " levels deep");
  for (const ir::ControlFlowRegion* r : regions) fn(*r);
  return Status::success();
}

}  // namespace dace::analysis
