// Control-flow rules: regions, interstate edges, loops, conditionals, break/continue.
#include <map>

#include "analysis/validate_code.h"
#include "analysis/validate_internal.h"
#include "ir/tasklet/parser.h"

namespace dace::analysis::detail {

namespace {

bool is_gpu_storage(ir::StorageType s) {
  return s == ir::StorageType::GPU_Global || s == ir::StorageType::GPU_Shared;
}

struct RegionChecker {
  SdfgContext& ctx;
  const ir::ControlFlowRegion& region;
  const RegionScope& scope;

  std::string region_path() const {
    return &region == &ctx.sdfg ? ctx.sdfg_path() : ctx.block_path(region);
  }

  // Symbols code in this region may read (data containers included: interstate code may
  // read scalars and array elements, as in DaCe).
  bool defined(const std::string& name) const {
    return ctx.declared.count(name) || ctx.assigned.count(name) || scope.loop_vars.count(name) ||
           ctx.is_data(name) || is_module_name(name);
  }

  // Parses `text` as an expression; reports parse errors and undefined names. Returns the
  // names read (empty on parse failure).
  std::set<std::string> check_expression(const std::string& path, const std::string& what, const std::string& text,
                                         const std::set<std::string>& extra) {
    auto parsed = tasklet::parse_expression(text);
    if (!parsed.ok()) {
      ctx.error(path, what + " does not parse: " + parsed.error().message);
      return {};
    }
    std::set<std::string> names;
    if (*parsed) collect_names(**parsed, names);
    std::set<std::string> undefined;
    for (const auto& n : names)
      if (!defined(n) && !extra.count(n)) undefined.insert(n);
    if (!undefined.empty()) ctx.error(path, "undefined symbol " + names_list(undefined) + " in " + what);
    return names;
  }

  void check_gpu_reads(const std::string& path, const std::set<std::string>& names) {
    if (ctx.in_gpu || ctx.in_default) return;
    for (const auto& n : names) {
      auto it = ctx.sdfg.arrays.find(n);
      if (it != ctx.sdfg.arrays.end() && is_gpu_storage(it->second.storage))
        ctx.error(path, "reads data container " + ir::quoted(n) + " stored as " + ir::to_string(it->second.storage) +
                            " in host code");
    }
  }

  void check_edge(int slot) {
    const ir::InterstateEdge& e = *region.edge(slot);
    std::string path = ctx.where(ir::path_of_interstate_edge(ctx.sdfg, region, slot));
    if (!region.block(e.src) || !region.block(e.dst)) {
      ctx.error(path, "interstate edge endpoint does not exist (source slot " + std::to_string(e.src) +
                          ", destination slot " + std::to_string(e.dst) + ")");
      return;
    }
    std::set<std::string> read = check_expression(path, "condition", e.condition.code, {});
    std::set<std::string> targets;
    for (const auto& [target, value] : e.assignments) {
      std::string what = "assignment to " + ir::quoted(target);
      if (!is_valid_name(target)) ctx.error(path, "invalid interstate symbol name " + ir::quoted(target));
      if (ctx.is_data(target)) ctx.error(path, "assignment to data container " + ir::quoted(target));
      if (!targets.insert(target).second) ctx.error(path, "symbol " + ir::quoted(target) + " is assigned twice");
      auto names = check_expression(path, what, value, {});
      // DaCe evaluates an edge's assignments as one simultaneous update.
      std::set<std::string> racing;
      for (const auto& [other, v] : e.assignments)
        if (other != target && names.count(other)) racing.insert(other);
      if (!racing.empty())
        ctx.error(path, what + " reads " + names_list(racing) + ", which the same edge also assigns");
      read.insert(names.begin(), names.end());
    }
    check_gpu_reads(path, read);
  }

  void check_start_block() {
    std::vector<int> blocks = region.block_slots();
    if (blocks.empty()) return;
    if (region.start_block != -1) {
      if (!region.block(region.start_block))
        ctx.error(region_path(), "start block slot " + std::to_string(region.start_block) + " does not exist");
      return;
    }
    int sources = 0;
    for (int b : blocks)
      if (region.in_edges(b).empty()) ++sources;
    if (sources != 1) ctx.error(region_path(), "start block is ambiguous or undefined");
  }

  void check_labels(const std::vector<int>& blocks) {
    std::map<std::string, int> seen;
    for (int b : blocks) {
      const ir::ControlFlowBlock* blk = region.block(b);
      if (++seen[blk->label] == 2) ctx.error(ctx.block_path(*blk), "another block of this region has the same label");
    }
  }

  void check_loop(const ir::LoopRegion& loop) {
    std::string path = ctx.block_path(loop);
    std::set<std::string> own = {loop.loop_variable};
    if (!loop.loop_variable.empty() && !is_valid_name(loop.loop_variable))
      ctx.error(path, "invalid loop variable name " + ir::quoted(loop.loop_variable));
    if (ctx.is_data(loop.loop_variable))
      ctx.error(path, "loop variable " + ir::quoted(loop.loop_variable) + " is a data container");
    if (loop.loop_condition.code.empty()) {
      ctx.error(path, "loop has no condition");
    } else {
      check_expression(path, "loop condition", loop.loop_condition.code, own);
    }
    auto statement = [&](const ir::CodeBlock& code, const char* what) {
      if (code.code.empty()) return;
      auto parsed = tasklet::parse_assignment(code.code);
      if (!parsed.ok()) {
        ctx.error(path, std::string(what) + " does not parse: " + parsed.error().message);
        return;
      }
      if (!loop.loop_variable.empty() && parsed->target != loop.loop_variable)
        ctx.error(path, std::string(what) + " assigns " + ir::quoted(parsed->target) + ", not the loop variable " +
                            ir::quoted(loop.loop_variable));
      std::set<std::string> names, undefined;
      if (parsed->value) collect_names(*parsed->value, names);
      for (const auto& n : names)
        if (!defined(n) && !own.count(n)) undefined.insert(n);
      if (!undefined.empty()) ctx.error(path, "undefined symbol " + names_list(undefined) + " in " + what);
    };
    statement(loop.init_statement, "loop init statement");
    statement(loop.update_statement, "loop update statement");
  }

  void check_conditional(const ir::ConditionalBlock& cond, const RegionScope& inner) {
    std::string path = ctx.block_path(cond);
    for (size_t i = 0; i < cond.branches.size(); ++i) {
      const auto& [condition, body] = cond.branches[i];
      std::string what = "condition of branch " + std::to_string(i);
      if (!condition) {
        if (i + 1 != cond.branches.size()) ctx.error(path, "else branch (branch " + std::to_string(i) + ") is not last");
      } else {
        check_gpu_reads(path, check_expression(path, what, condition->code, {}));
      }
      if (!body) {
        ctx.error(path, "branch " + std::to_string(i) + " has no region");
        continue;
      }
      if (body->kind == ir::BlockKind::SDFG) {
        ctx.error(path, "branch " + std::to_string(i) + " is an SDFG, not a control-flow region");
        continue;
      }
      if (body->parent != &region)
        ctx.error(ctx.block_path(*body), "block's parent pointer does not point to its region");
      validate_region(ctx, *body, inner);
    }
  }

  void check_block(int slot, size_t live_blocks) {
    const ir::ControlFlowBlock& b = *region.block(slot);
    if (b.parent != &region) ctx.error(ctx.block_path(b), "block's parent pointer does not point to its region");
    if (live_blocks > 1 && region.in_edges(slot).empty() && region.out_edges(slot).empty())
      ctx.error(ctx.block_path(b), "unreachable block (no interstate edges)");
    RegionScope inner = scope;
    inner.region_depth = scope.region_depth + 1;
    switch (b.kind) {
      case ir::BlockKind::State: {
        const auto& st = static_cast<const ir::State&>(b);
        if (!is_valid_name(st.label)) ctx.error(ctx.block_path(st), "invalid state name");
        validate_state(ctx, st, scope);
        break;
      }
      case ir::BlockKind::Loop: {
        const auto& loop = static_cast<const ir::LoopRegion&>(b);
        check_loop(loop);
        if (!loop.loop_variable.empty()) inner.loop_vars.insert(loop.loop_variable);
        inner.loop_depth = scope.loop_depth + 1;
        validate_region(ctx, loop, inner);
        break;
      }
      case ir::BlockKind::Region:
        validate_region(ctx, static_cast<const ir::ControlFlowRegion&>(b), inner);
        break;
      case ir::BlockKind::Conditional:
        check_conditional(static_cast<const ir::ConditionalBlock&>(b), inner);
        break;
      case ir::BlockKind::Break:
        if (scope.loop_depth == 0) ctx.error(ctx.block_path(b), "break outside of a loop");
        break;
      case ir::BlockKind::Continue:
        if (scope.loop_depth == 0) ctx.error(ctx.block_path(b), "continue outside of a loop");
        break;
      case ir::BlockKind::Return:
        break;
      case ir::BlockKind::SDFG:
        ctx.error(ctx.block_path(b), "an SDFG cannot be a block of a control-flow region");
        break;
    }
  }

  void run() {
    if (scope.region_depth > kMaxDepth) {
      ctx.error(region_path(), "control-flow regions are nested too deeply");
      return;
    }
    std::vector<int> blocks = region.block_slots();
    check_start_block();
    check_labels(blocks);
    for (int slot : region.edge_slots()) {
      if (ctx.full()) return;
      check_edge(slot);
    }
    for (int slot : blocks) {
      if (ctx.full()) return;
      check_block(slot, blocks.size());
    }
  }
};

}  // namespace

void validate_region(SdfgContext& ctx, const ir::ControlFlowRegion& region, const RegionScope& scope) {
  RegionChecker{ctx, region, scope}.run();
}

}  // namespace dace::analysis::detail
