#include "analysis/validate.h"

#include <exception>
#include <new>

#include "analysis/validate_code.h"
#include "analysis/validate_internal.h"

namespace dace::analysis {

namespace detail {

std::string SdfgContext::where(const std::string& path) const {
  if (prefix.empty()) return path;
  // path_of(nested sdfg) starts with its holder's label; the prefix names the holder fully.
  std::string rest = path;
  if (sdfg.parent_node) {
    std::string head = "nested SDFG " + ir::quoted(sdfg.parent_node->label) + " / ";
    if (rest.compare(0, head.size(), head) == 0) rest.erase(0, head.size());
  }
  return prefix + rest;
}

void SdfgContext::error(const std::string& path, const std::string& what) const {
  if (sink.full()) return;
  sink.errors.push_back(make_error(Code::InvalidSdfg, path + ": " + what));
}

std::string names_list(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + ir::quoted(n);
  return out;
}

namespace {

// Interstate assignment targets and loop variables anywhere in the SDFG (not nested SDFGs).
void collect_definitions(SdfgContext& ctx) {
  for_each_region(ctx.sdfg, [&](const ir::ControlFlowRegion& r) {
    for (int slot : r.edge_slots())
      for (const auto& [target, value] : r.edge(slot)->assignments) ctx.assigned.insert(target);
    if (r.kind == ir::BlockKind::Loop) {
      const auto& loop = static_cast<const ir::LoopRegion&>(r);
      if (!loop.loop_variable.empty()) ctx.loop_vars.insert(loop.loop_variable);
    }
  });
}

}  // namespace

void validate_sdfg(SdfgContext& ctx) {
  const ir::SDFG& sdfg = ctx.sdfg;
  if (!is_valid_name(sdfg.name)) ctx.error(ctx.sdfg_path(), "invalid SDFG name");
  for (const auto& [name, type] : sdfg.symbols) ctx.declared.insert(name);
  for (const auto& [name, c] : sdfg.constants) ctx.declared.insert(name);
  collect_definitions(ctx);

  for (const auto& [name, type] : sdfg.symbols) {
    if (!is_valid_name(name)) ctx.error(ctx.where(ir::path_of_symbol(sdfg, name)), "invalid symbol name");
    if (sdfg.arrays.count(name))
      ctx.error(ctx.where(ir::path_of_data(sdfg, name)), "name is used by both a data container and a symbol");
  }
  validate_descriptors(ctx);

  if (sdfg.block_slots().empty()) {
    ctx.error(ctx.sdfg_path(), "SDFG has no blocks (at least one state is required)");
    return;
  }
  validate_region(ctx, sdfg, RegionScope{});
}

}  // namespace detail

std::vector<Error> validate_all(const ir::SDFG& sdfg, size_t limit) {
  detail::Sink sink;
  sink.limit = limit == 0 ? 1 : limit;
  try {
    detail::SdfgContext ctx(sink, sdfg);
    detail::validate_sdfg(ctx);
  } catch (const std::bad_alloc&) {
    return {make_error(Code::OutOfMemory, "out of memory while validating SDFG " + ir::quoted(sdfg.name))};
  } catch (const std::exception& e) {
    return {make_error(Code::Internal, "validation of SDFG " + ir::quoted(sdfg.name) + " failed: " + e.what())};
  }
  return std::move(sink.errors);
}

Status validate(const ir::SDFG& sdfg) {
  auto errors = validate_all(sdfg, 1);
  if (errors.empty()) return Status::success();
  return std::move(errors.front());
}

}  // namespace dace::analysis
