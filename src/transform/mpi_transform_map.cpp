#include "transform/mpi_transform_map.h"

#include "transform/local_storage.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"
#include "transform/strip_mining.h"

namespace dace::transform {
namespace {

constexpr const char* kCommSize = "__dace_comm_size";

std::string map_name(const ir::State& state, int entry) {
  return "map \"" + state.node(entry)->label + "\" (node " + std::to_string(entry) + ")";
}

// DaCe's tile size, "(" + str(count) + "/__dace_comm_size)", means count / P only when the
// count is one term: a sum such as N - 2 would read N - 2/P.
bool tile_text_divides_count(sym::Expr count) { return count->op != sym::Op::Add; }

// The position of `state` among the SDFG's states (the same in a copy of the SDFG).
size_t state_index(ir::SDFG& sdfg, const ir::State& state) {
  std::vector<ir::State*> states = sdfg.all_states();
  for (size_t i = 0; i < states.size(); ++i)
    if (states[i] == &state) return i;
  return states.size();
}

// One local copy (InLocalStorage / OutLocalStorage) on the edge of `array` between `a` and
// `b`, with the legality of the transformation of that name (local_storage::legal_edge).
Status local_copy(ir::SDFG& sdfg, ir::State& state, local_storage::Direction dir, int a, int b,
                  const std::string& array) {
  const char* what = dir == local_storage::Direction::In ? "InLocalStorage" : "OutLocalStorage";
  const ScopeTree scopes = ScopeTree::compute(state);
  std::vector<int> tree;
  std::string why;
  const int e = local_storage::legal_edge(sdfg, state, scopes, dir, a, b, array, &tree, why);
  if (e < 0) return make_error(Code::InvalidArgument, std::string(what) + " of '" + array + "': " + why);
  local_storage::insert_transient(sdfg, state, dir, e, tree, "trans_", nullptr);
  return Status::success();
}

}  // namespace

void MPITransformMap::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  map_entry_matches(state, out);
}

std::string MPITransformMap::map_problem(const Site& site, int entry_id) const {
  const ir::MapEntry* entry = as_map_entry(site.state.node(entry_id));
  if (!entry) return "node " + std::to_string(entry_id) + " is not a map entry";
  const std::string name = map_name(site.state, entry_id);
  const ir::MapScope& map = entry->map;
  if (map.params.size() != 1 || map.range.dims.size() != 1) return name + " is not one-dimensional";
  if (map.schedule == ir::ScheduleType::MPI) return name + " is already scheduled MPI";
  for (int p = site.scopes.parent[static_cast<size_t>(entry_id)]; p >= 0; p = site.scopes.parent[static_cast<size_t>(p)]) {
    const ir::MapEntry* outer = as_map_entry(site.state.node(p));
    if (!outer) return name + " is inside a scope that is not a map (node " + std::to_string(p) + ")";
    if (outer->map.schedule != ir::ScheduleType::Default && outer->map.schedule != ir::ScheduleType::Sequential)
      return name + " is inside " + map_name(site.state, p) + " of schedule " + ir::to_string(outer->map.schedule);
  }
  const int exit_id = site.scopes.exit_of(entry_id);
  if (exit_id < 0) return name + " has no exit";
  if (has_dynamic_inputs(site.state, entry_id)) return name + " has dynamic range inputs";
  for (int e : site.state.out_edges(exit_id))
    if (!site.state.edge(e)->memlet.wcr.empty()) return name + " writes with a WCR (the MPI schedule has none)";
  const sym::Range& r = map.range.dims[0];
  if (sym::as_integer(r.step) != 1) return name + " has step " + sym::to_string(r.step) + " (DaCe's tiles ignore it)";
  const sym::Expr count = sym::size(sym::Subset{{r}})[0];
  if (!tile_text_divides_count(count))
    return name + " has " + sym::to_string(count) +
           " iterations, a sum: DaCe's tile size text \"(" + sym::to_string(count) + "/__dace_comm_size)\" divides its last term only";
  if (map.params[0] == kCommSize) return name + " has a parameter named " + kCommSize;
  return {};
}

Status MPITransformMap::distribute(ir::SDFG& sdfg, ir::State& state, int entry_id) {
  ScopeTree scopes = ScopeTree::compute(state);
  const int exit_id = scopes.exit_of(entry_id);
  auto* entry = static_cast<ir::MapEntry*>(state.node(entry_id));
  const sym::Range r = entry->map.range.dims[0];
  const std::string& p = entry->map.params[0];

  // Strip-mining (DaCe: StripMining with dim_idx -1, new_dim_prefix "mpi", divides_evenly;
  // the outer map then scheduled MPI). The tile size count / __dace_comm_size is not
  // provably positive, which StripMining's own check asks for; the MPI runtime checks it.
  const sym::Expr count = sym::size(sym::Subset{{r}})[0];
  const sym::Expr tile = sym::truediv(count, sym::symbol(kCommSize));
  const std::string param = strip_mining::new_parameter(sdfg, state, scopes, entry_id, "mpi", p);
  const auto [outer_range, inner_range] = strip_mining::normal_ranges(r, param, tile, true);
  if (!sdfg.symbols.count(kCommSize)) sdfg.symbols[kCommSize] = ir::DType::of(ir::ScalarType::Int32);
  // What the outer map passes into the inner one, before the local copies change the edges.
  std::vector<std::string> inputs;
  const auto [outer_entry, outer_exit] = strip_mining::apply(sdfg, state, entry_id, exit_id, 0, param, outer_range,
                                                             inner_range, ir::ScheduleType::MPI, entry->label);
  for (int e : state.in_edges(entry_id)) {
    const ir::DataflowEdge* edge = state.edge(e);
    if (edge->src == outer_entry && !edge->memlet.is_empty()) inputs.push_back(edge->memlet.data);
  }
  for (const std::string& x : inputs)
    DACE_TRY(local_copy(sdfg, state, local_storage::Direction::In, outer_entry, entry_id, x));
  std::vector<std::string> outputs;
  for (int e : state.out_edges(outer_exit))
    if (!state.edge(e)->memlet.is_empty()) outputs.push_back(state.edge(e)->memlet.data);
  for (const std::string& x : outputs)
    DACE_TRY(local_copy(sdfg, state, local_storage::Direction::Out, exit_id, outer_exit, x));
  return Status::success();
}

bool MPITransformMap::can_apply(const Site& site, const std::vector<int>& nodes) {
  std::string why = map_problem(site, nodes[0]);
  if (!why.empty()) return refuse(why);
  // The local copies' legality depends on the strip-mined map: try it on a copy.
  std::unique_ptr<ir::SDFG> copy = site.sdfg.clone_sdfg();
  std::vector<ir::State*> states = copy->all_states();
  const size_t index = state_index(site.sdfg, site.state);
  if (index >= states.size()) return refuse("the state of " + map_name(site.state, nodes[0]) + " is not found in a copy");
  Status s = distribute(*copy, *states[index], nodes[0]);
  if (!s.ok()) return refuse(map_name(site.state, nodes[0]) + ": " + s.error().message);
  return true;
}

Status MPITransformMap::apply_at(const Site& site, const std::vector<int>& nodes) {
  std::string why = map_problem(site, nodes[0]);
  if (!why.empty()) return make_error(Code::InvalidArgument, "MPITransformMap: " + why);
  return distribute(site.sdfg, site.state, nodes[0]);
}

}  // namespace dace::transform
