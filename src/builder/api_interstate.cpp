// Interstate edges: conditions and ordered assignments between blocks of one region.
#include "builder/api_blocks.h"
#include "builder/api_internal.h"
#include "builder/api_text.h"
#include "ir/tasklet/parser.h"

using namespace dace::capi;
using namespace dace::ir;
using dace::Status;

namespace {

std::string join_assignments(const InterstateEdge& e) {
  std::string out;
  for (const auto& [name, value] : e.assignments) out += (out.empty() ? "" : "; ") + name + " = " + value;
  return out;
}

// Runs `fn(sdfg, region, edge)` on an existing interstate edge.
template <class SdfgPtr, class Fn>
dace_status_t with_edge(SdfgPtr h, dace_id_t region, dace_id_t edge, Fn&& fn) {
  return guard([&]() -> Status {
    auto s = sdfg_of(h);
    if (!s) return s.take_error();
    SDFG& g = const_cast<SDFG&>(**s);
    auto r = find_region(g, region);
    if (!r) return r.take_error();
    auto e = find_interstate_edge(g, **r, edge);
    if (!e) return e.take_error();
    return fn(g, **r, **e, path_of_interstate_edge(g, **r, edge));
  });
}

}  // namespace

extern "C" {

dace_status_t dace_sdfg_add_interstate_edge(dace_id_t* out_edge, dace_id_t* out_region, dace_sdfg_t* sdfg,
                                            dace_id_t src, dace_id_t dst, const char* condition,
                                            const char* assignments) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_edge, "out_edge"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    SDFG& g = **s;
    if (src == DACE_ROOT_REGION || dst == DACE_ROOT_REGION)
      return invalid(path_of(g) + ": the root region cannot be an edge endpoint");
    auto a = find_block(g, src);
    if (!a) return a.take_error();
    auto b = find_block(g, dst);
    if (!b) return b.take_error();
    ControlFlowRegion* region = (*a)->parent;
    int sa = region ? region->slot_of(*a) : -1;
    int sb = region ? region->slot_of(*b) : -1;
    if (sa < 0 || sb < 0 || (*b)->parent != region)
      return invalid(path_of(g, **a) + " -> " + path_of(g, **b) +
                     ": interstate edges join blocks of the same region");
    std::string where = region_path(g, *region) + " / new interstate edge" +
                        " (" + quoted((*a)->label) + " -> " + quoted((*b)->label) + ")";
    InterstateEdge e;
    e.src = sa;
    e.dst = sb;
    if (condition && *condition) {
      DACE_TRY(check_condition(condition, where, "condition"));
      e.condition.code = trim(condition).text;
    }
    if (assignments) {
      auto parsed = parse_assignments(assignments, where);
      if (!parsed) return parsed.take_error();
      e.assignments = std::move(*parsed);
    }
    int slot = region->add_edge(std::move(e));
    *out_edge = slot;
    if (out_region) *out_region = region_id(g, *region);
    return Status::success();
  });
}

dace_status_t dace_interstate_edge_remove(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge) {
  return with_edge(sdfg, region, edge, [&](SDFG&, ControlFlowRegion& r, InterstateEdge&, const std::string&) {
    r.remove_edge(edge);
    return Status::success();
  });
}

dace_status_t dace_region_list_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count, const dace_sdfg_t* sdfg,
                                     dace_id_t region) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    auto r = find_region(const_cast<SDFG&>(**s), region);
    if (!r) return r.take_error();
    write_ids(out_ids, capacity, out_count, (*r)->edge_slots());
    return Status::success();
  });
}

dace_status_t dace_interstate_edge_get_endpoints(dace_id_t* out_src, dace_id_t* out_dst, const dace_sdfg_t* sdfg,
                                                 dace_id_t region, dace_id_t edge) {
  return with_edge(sdfg, region, edge, [&](SDFG&, ControlFlowRegion& r, InterstateEdge& e, const std::string&) {
    if (out_src) *out_src = r.block(e.src) ? r.block(e.src)->id : DACE_NO_ID;
    if (out_dst) *out_dst = r.block(e.dst) ? r.block(e.dst)->id : DACE_NO_ID;
    return Status::success();
  });
}

dace_status_t dace_interstate_edge_get_condition(const char** out_condition, const dace_sdfg_t* sdfg,
                                                 dace_id_t region, dace_id_t edge) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string&) -> Status {
                     DACE_TRY(require(out_condition, "out_condition"));
                     *out_condition = keep(e.condition.code);
                     return Status::success();
                   });
}

dace_status_t dace_interstate_edge_get_assignments(const char** out_assignments, const dace_sdfg_t* sdfg,
                                                   dace_id_t region, dace_id_t edge) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string&) -> Status {
                     DACE_TRY(require(out_assignments, "out_assignments"));
                     *out_assignments = keep(join_assignments(e));
                     return Status::success();
                   });
}

dace_status_t dace_interstate_edge_assignment_count(size_t* out_count, const dace_sdfg_t* sdfg, dace_id_t region,
                                                    dace_id_t edge) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string&) -> Status {
                     DACE_TRY(require(out_count, "out_count"));
                     *out_count = e.assignments.size();
                     return Status::success();
                   });
}

dace_status_t dace_interstate_edge_get_assignment(const char** out_name, const char** out_value,
                                                  const dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                  size_t index) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string& where) -> Status {
                     if (index >= e.assignments.size())
                       return not_found(where + ": assignment index " + std::to_string(index) + " out of range (" +
                                        std::to_string(e.assignments.size()) + " assignments)");
                     if (out_name) *out_name = keep(e.assignments[index].first);
                     if (out_value) *out_value = keep(e.assignments[index].second);
                     return Status::success();
                   });
}

dace_status_t dace_interstate_edge_set_condition(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                 const char* condition) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string& where) -> Status {
                     if (!condition || !*condition) {
                       e.condition.code = "1";
                       return Status::success();
                     }
                     DACE_TRY(check_condition(condition, where, "condition"));
                     e.condition.code = trim(condition).text;
                     return Status::success();
                   });
}

dace_status_t dace_interstate_edge_set_assignments(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                   const char* assignments) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string& where) -> Status {
                     auto parsed = parse_assignments(assignments ? assignments : "", where);
                     if (!parsed) return parsed.take_error();
                     e.assignments = std::move(*parsed);
                     return Status::success();
                   });
}

dace_status_t dace_interstate_edge_add_assignment(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                  const char* name, const char* value) {
  return with_edge(sdfg, region, edge,
                   [&](SDFG&, ControlFlowRegion&, InterstateEdge& e, const std::string& where) -> Status {
                     DACE_TRY(check_identifier(name, where, "assignment target"));
                     if (!value) return invalid(where + ": assignment value is NULL");
                     DACE_TRY(check_condition(value, where, "assignment value"));
                     e.assignments.emplace_back(name, std::string(trim(value).text));
                     return Status::success();
                   });
}

}  // extern "C"
