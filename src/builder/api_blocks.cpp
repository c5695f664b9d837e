// Control-flow blocks: states, regions, loops, conditionals, break/continue/return.
#include "builder/api_blocks.h"

#include "builder/api_internal.h"
#include "builder/api_text.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;

namespace dace::capi {

ConditionalBlock* owner_conditional(SDFG& sdfg, const ControlFlowBlock* region) {
  ConditionalBlock* owner = nullptr;
  sdfg.for_each_block([&](ControlFlowBlock& b) {
    if (owner || b.kind != BlockKind::Conditional) return;
    for (auto& br : static_cast<ConditionalBlock&>(b).branches)
      if (br.second.get() == region) owner = static_cast<ConditionalBlock*>(&b);
  });
  return owner;
}

bool label_taken(const SDFG& sdfg, const std::string& label, const ControlFlowBlock* except) {
  bool taken = false;
  sdfg.for_each_block([&](const ControlFlowBlock& b) {
    if (&b != except && b.label == label) taken = true;
  });
  return taken;
}

std::string fresh_label(const SDFG& sdfg, const std::string& prefix) {
  for (int n = sdfg.next_block_id();; ++n) {
    std::string label = prefix + "_" + std::to_string(n);
    if (!label_taken(sdfg, label)) return label;
  }
}

}  // namespace dace::capi

namespace {

Status resolve_label(const SDFG& sdfg, const char* label, const char* prefix, const std::string& where,
                     std::string* out) {
  if (!label || !*label) {
    *out = fresh_label(sdfg, prefix);
    return Status::success();
  }
  if (label_taken(sdfg, label)) return exists(where + " / block " + quoted(label) + ": a block of this label exists");
  *out = label;
  return Status::success();
}

bool inside_loop(const ControlFlowRegion* region) {
  for (const ControlFlowBlock* b = region; b; b = b->parent)
    if (b->kind == BlockKind::Loop) return true;
  return false;
}

// `out_name` is the caller's parameter name (out_state, out_loop, ...) for the NULL message.
Status add_block(dace_id_t* out, const char* out_name, dace_sdfg_t* h, dace_id_t parent, const char* label,
                 std::unique_ptr<ControlFlowBlock> block, const char* prefix) {
  DACE_TRY(require(out, out_name));
  auto s = sdfg_of(h);
  if (!s) return s.take_error();
  SDFG& sdfg = **s;
  auto r = find_region(sdfg, parent);
  if (!r) return r.take_error();
  ControlFlowRegion& region = **r;
  std::string where = region_path(sdfg, region);
  std::string name;
  // Validation checks state labels as names (DaCe's validate_name), so they are checked here.
  if (block->kind == BlockKind::State && label && *label)
    DACE_TRY(check_identifier(label, where + " / state " + quoted(label), "label"));
  DACE_TRY(resolve_label(sdfg, label, prefix, where, &name));
  if ((block->kind == BlockKind::Break || block->kind == BlockKind::Continue) && !inside_loop(&region))
    return invalid(where + " / " + prefix + " " + quoted(name) + ": a " + to_string(block->kind) +
                   " must be inside a loop");
  block->label = name;
  bool first = region.block_slots().empty();
  if (block->kind != BlockKind::State) sdfg.using_explicit_control_flow = true;
  ControlFlowBlock& ref = *block;
  int slot = region.add_block(std::move(block));
  sdfg.register_block(ref);
  if (first) region.start_block = slot;
  *out = ref.id;
  return Status::success();
}

struct LoopHeader {
  std::string variable;
  CodeBlock init, condition, update;
  bool inverted = false;
};

dace::Result<LoopHeader> loop_header(const std::string& where, const char* var, const char* init,
                                     const char* condition, const char* update, int32_t inverted) {
  LoopHeader h;
  if (var && *var) {
    DACE_TRY(check_identifier(var, where, "loop variable"));
    h.variable = var;
  }
  if (init && *init) {
    DACE_TRY(check_assignment(init, where, "loop init"));
    h.init.code = trim(init).text;
  }
  if (!condition || !*condition) return invalid(where + ": loop condition is required");
  DACE_TRY(check_condition(condition, where, "loop condition"));
  h.condition.code = trim(condition).text;
  if (update && *update) {
    DACE_TRY(check_assignment(update, where, "loop update"));
    h.update.code = trim(update).text;
  }
  h.inverted = inverted != 0;
  return h;
}

void apply_header(LoopRegion& loop, LoopHeader h) {
  loop.loop_variable = std::move(h.variable);
  loop.init_statement = std::move(h.init);
  loop.loop_condition = std::move(h.condition);
  loop.update_statement = std::move(h.update);
  loop.inverted = h.inverted;
}

std::string block_where(const SDFG& sdfg, const ControlFlowBlock& b) {
  return &b == &sdfg ? path_of(sdfg) : path_of(sdfg, b);
}

}  // namespace

extern "C" {

dace_status_t dace_sdfg_add_state(dace_id_t* out_state, dace_sdfg_t* sdfg, dace_id_t parent, const char* label) {
  return guard([&] {
    return add_block(out_state, "out_state", sdfg, parent, label, std::make_unique<State>(), "state");
  });
}

dace_status_t dace_sdfg_add_region(dace_id_t* out_region, dace_sdfg_t* sdfg, dace_id_t parent, const char* label) {
  return guard([&] {
    return add_block(out_region, "out_region", sdfg, parent, label, std::make_unique<ControlFlowRegion>(), "region");
  });
}

dace_status_t dace_sdfg_add_loop(dace_id_t* out_loop, dace_sdfg_t* sdfg, dace_id_t parent, const char* label,
                                 const char* loop_variable, const char* init, const char* condition,
                                 const char* update, int32_t inverted) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    std::string where = path_of(**s) + " / loop " + quoted(label ? label : "");
    auto h = loop_header(where, loop_variable, init, condition, update, inverted);
    if (!h) return h.take_error();
    auto loop = std::make_unique<LoopRegion>();
    apply_header(*loop, std::move(*h));
    return add_block(out_loop, "out_loop", sdfg, parent, label, std::move(loop), "loop");
  });
}

dace_status_t dace_sdfg_add_conditional(dace_id_t* out_conditional, dace_sdfg_t* sdfg, dace_id_t parent,
                                        const char* label) {
  return guard([&] {
    return add_block(out_conditional, "out_conditional", sdfg, parent, label, std::make_unique<ConditionalBlock>(),
                     "conditional");
  });
}

dace_status_t dace_conditional_add_branch(dace_id_t* out_region, dace_sdfg_t* sdfg, dace_id_t conditional,
                                          const char* condition) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_region, "out_region"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = **s;
    auto b = find_block(g, conditional);
    if (!b) return b.take_error();
    std::string where = block_where(g, **b);
    if ((*b)->kind != BlockKind::Conditional)
      return invalid(where + ": a " + to_string((*b)->kind) + " is not a ConditionalBlock");
    auto& cond = static_cast<ConditionalBlock&>(**b);
    if (!cond.branches.empty() && !cond.branches.back().first)
      return invalid(where + ": the else branch must stay last; no branch can follow it");
    std::optional<CodeBlock> code;
    if (condition && *condition) {
      DACE_TRY(check_condition(condition, where, "branch condition"));
      code = CodeBlock{std::string(trim(condition).text), Language::Python};
    }
    auto region = std::make_unique<ControlFlowRegion>();
    region->label = fresh_label(g, cond.label + "_branch");
    region->parent = cond.parent;
    g.register_block(*region);
    *out_region = region->id;
    cond.branches.emplace_back(std::move(code), std::move(region));
    return Status::success();
  });
}

dace_status_t dace_sdfg_add_break(dace_id_t* out_block, dace_sdfg_t* sdfg, dace_id_t parent, const char* label) {
  return guard([&] {
    return add_block(out_block, "out_block", sdfg, parent, label, std::make_unique<BreakBlock>(), "break");
  });
}

dace_status_t dace_sdfg_add_continue(dace_id_t* out_block, dace_sdfg_t* sdfg, dace_id_t parent, const char* label) {
  return guard([&] {
    return add_block(out_block, "out_block", sdfg, parent, label, std::make_unique<ContinueBlock>(), "continue");
  });
}

dace_status_t dace_sdfg_add_return(dace_id_t* out_block, dace_sdfg_t* sdfg, dace_id_t parent, const char* label) {
  return guard([&] {
    return add_block(out_block, "out_block", sdfg, parent, label, std::make_unique<ReturnBlock>(), "return");
  });
}

dace_status_t dace_sdfg_remove_block(dace_sdfg_t* sdfg, dace_id_t block) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = **s;
    if (block == DACE_ROOT_REGION) return invalid(path_of(g) + ": the root region cannot be removed");
    auto b = find_block(g, block);
    if (!b) return b.take_error();
    if (ConditionalBlock* owner = owner_conditional(g, *b)) {
      for (auto it = owner->branches.begin(); it != owner->branches.end(); ++it)
        if (it->second.get() == *b) {
          owner->branches.erase(it);
          break;
        }
      return Status::success();
    }
    ControlFlowRegion* parent = (*b)->parent;
    int slot = parent ? parent->slot_of(*b) : -1;
    if (slot < 0) return dace::make_error(dace::Code::Internal, path_of(g, **b) + ": block not found in its parent");
    parent->remove_block(slot);
    return Status::success();
  });
}

dace_status_t dace_region_list_blocks(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                                      dace_id_t region) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = const_cast<SDFG&>(**s);
    auto r = find_region(g, region);
    if (!r) return r.take_error();
    std::vector<dace_id_t> ids;
    for (int slot : (*r)->block_slots()) ids.push_back((*r)->block(slot)->id);
    write_ids(out_ids, capacity, out_count, ids);
    return Status::success();
  });
}

dace_status_t dace_sdfg_list_states(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    std::vector<dace_id_t> ids;
    for (const State* st : (*s)->all_states()) ids.push_back(st->id);
    write_ids(out_ids, capacity, out_count, ids);
    return Status::success();
  });
}

dace_status_t dace_region_get_start_block(dace_id_t* out_block, const dace_sdfg_t* sdfg, dace_id_t region) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_block, "out_block"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto r = find_region(const_cast<SDFG&>(**s), region);
    if (!r) return r.take_error();
    ControlFlowRegion& reg = **r;
    int slot = reg.start_block;
    if (!reg.block(slot)) {
      slot = -1;
      int sources = 0;
      for (int b : reg.block_slots())
        if (reg.in_edges(b).empty()) {
          slot = b;
          ++sources;
        }
      if (sources != 1) slot = -1;
    }
    *out_block = slot >= 0 ? reg.block(slot)->id : DACE_NO_ID;
    return Status::success();
  });
}

dace_status_t dace_region_set_start_block(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t block) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto r = find_region(**s, region);
    if (!r) return r.take_error();
    auto b = find_block(**s, block);
    if (!b) return b.take_error();
    int slot = (*r)->slot_of(*b);
    if (slot < 0)
      return invalid(block_where(**s, **b) + ": not a block of " + region_path(**s, **r));
    (*r)->start_block = slot;
    return Status::success();
  });
}

dace_status_t dace_block_get_kind(dace_block_kind_t* out_kind, const dace_sdfg_t* sdfg, dace_id_t block) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_kind, "out_kind"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto b = find_block(const_cast<SDFG&>(**s), block);
    if (!b) return b.take_error();
    *out_kind = static_cast<dace_block_kind_t>((*b)->kind);
    return Status::success();
  });
}

dace_status_t dace_block_get_label(const char** out_label, const dace_sdfg_t* sdfg, dace_id_t block) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_label, "out_label"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto b = find_block(const_cast<SDFG&>(**s), block);
    if (!b) return b.take_error();
    *out_label = keep(*b == *s ? (*s)->name : (*b)->label);
    return Status::success();
  });
}

dace_status_t dace_block_set_label(dace_sdfg_t* sdfg, dace_id_t block, const char* label) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    if (block == DACE_ROOT_REGION) return invalid(path_of(**s) + ": use dace_sdfg_set_name for the SDFG");
    auto b = find_block(**s, block);
    if (!b) return b.take_error();
    if (!label || !*label) return invalid(path_of(**s, **b) + ": empty label");
    if ((*b)->kind == BlockKind::State) DACE_TRY(check_identifier(label, path_of(**s, **b), "label"));
    if (label_taken(**s, label, *b))
      return exists(path_of(**s) + " / block " + quoted(label) + ": a block of this label exists");
    (*b)->label = label;
    return Status::success();
  });
}

dace_status_t dace_block_get_parent(dace_id_t* out_region, const dace_sdfg_t* sdfg, dace_id_t block) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_region, "out_region"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = const_cast<SDFG&>(**s);
    if (block == DACE_ROOT_REGION) return invalid(path_of(g) + ": the root region has no parent");
    auto b = find_block(g, block);
    if (!b) return b.take_error();
    if (ConditionalBlock* owner = owner_conditional(g, *b)) {
      *out_region = owner->id;
      return Status::success();
    }
    *out_region = region_id(g, *(*b)->parent);
    return Status::success();
  });
}

dace_status_t dace_sdfg_find_block(dace_id_t* out_block, const dace_sdfg_t* sdfg, const char* label) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_block, "out_block"));
    DACE_TRY(require(label, "label"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    int found = DACE_NO_ID;
    (*s)->for_each_block([&](const ControlFlowBlock& b) {
      if (found == DACE_NO_ID && b.label == label) found = b.id;
    });
    if (found == DACE_NO_ID) return not_found(path_of(**s) + " / block " + quoted(label) + ": no such block");
    *out_block = found;
    return Status::success();
  });
}

dace_status_t dace_block_get_property(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t block,
                                      const char* property) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_value, "out_value"));
    DACE_TRY(require(property, "property"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = const_cast<SDFG&>(**s);
    auto b = find_block(g, block);
    if (!b) return b.take_error();
    std::string p = property;
    std::optional<std::string> v;
    if ((*b)->kind == BlockKind::Loop) {
      const auto& l = static_cast<const LoopRegion&>(**b);
      if (p == "loop_variable") v = l.loop_variable;
      if (p == "init") v = l.init_statement.code;
      if (p == "condition") v = l.loop_condition.code;
      if (p == "update") v = l.update_statement.code;
      if (p == "inverted") v = l.inverted ? "1" : "0";
      if (p == "update_before_condition") v = l.update_before_condition ? "1" : "0";
    } else if (ConditionalBlock* owner = p == "condition" ? owner_conditional(g, *b) : nullptr) {
      for (const auto& br : owner->branches)
        if (br.second.get() == *b) v = br.first ? br.first->code : std::string();
    }
    if (!v)
      return not_found(block_where(g, **b) + ": a " + to_string((*b)->kind) + " has no property " + quoted(p));
    *out_value = keep(std::move(*v));
    return Status::success();
  });
}

dace_status_t dace_loop_set_header(dace_sdfg_t* sdfg, dace_id_t loop, const char* loop_variable, const char* init,
                                   const char* condition, const char* update, int32_t inverted) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto b = find_block(**s, loop);
    if (!b) return b.take_error();
    std::string where = block_where(**s, **b);
    if ((*b)->kind != BlockKind::Loop) return invalid(where + ": a " + to_string((*b)->kind) + " is not a LoopRegion");
    auto h = loop_header(where, loop_variable, init, condition, update, inverted);
    if (!h) return h.take_error();
    apply_header(static_cast<LoopRegion&>(**b), std::move(*h));
    return Status::success();
  });
}

dace_status_t dace_conditional_list_branches(dace_id_t* out_regions, size_t capacity, size_t* out_count,
                                             const dace_sdfg_t* sdfg, dace_id_t conditional) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto b = find_block(const_cast<SDFG&>(**s), conditional);
    if (!b) return b.take_error();
    if ((*b)->kind != BlockKind::Conditional)
      return invalid(block_where(**s, **b) + ": a " + to_string((*b)->kind) + " is not a ConditionalBlock");
    std::vector<dace_id_t> ids;
    for (const auto& br : static_cast<ConditionalBlock&>(**b).branches) ids.push_back(br.second->id);
    write_ids(out_regions, capacity, out_count, ids);
    return Status::success();
  });
}

}  // extern "C"
