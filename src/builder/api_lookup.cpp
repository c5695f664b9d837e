// Id and name lookups for the C API; every miss names the element and where it was sought.
#include "builder/api_internal.h"

namespace dace::capi {

using namespace dace::ir;

Result<SDFG*> sdfg_of(dace_sdfg_t* h) {
  if (!h) return invalid("sdfg handle is NULL");
  if (!h->sdfg) return invalid("sdfg handle is stale: a nested SDFG of an SDFG that was reverted since");
  h->sdfg->touch();  // the call may write through any pointer into the tree
  return h->sdfg;
}

Result<const SDFG*> sdfg_of(const dace_sdfg_t* h) {
  if (!h) return invalid("sdfg handle is NULL");
  if (!h->sdfg) return invalid("sdfg handle is stale: a nested SDFG of an SDFG that was reverted since");
  return static_cast<const SDFG*>(h->sdfg);
}

Result<ControlFlowBlock*> find_block(SDFG& sdfg, dace_id_t id) {
  if (id == DACE_ROOT_REGION) return static_cast<ControlFlowBlock*>(&sdfg);
  ControlFlowBlock* b = id >= 0 ? sdfg.find_block(id) : nullptr;
  if (!b) return not_found(path_of(sdfg) + " / block " + std::to_string(id) + ": no such block");
  return b;
}

Result<ControlFlowRegion*> find_region(SDFG& sdfg, dace_id_t id) {
  auto b = find_block(sdfg, id);
  if (!b) return b.take_error();
  ControlFlowBlock* block = *b;
  switch (block->kind) {
    case BlockKind::SDFG:
    case BlockKind::Region:
    case BlockKind::Loop:
      return static_cast<ControlFlowRegion*>(block);
    default:
      return invalid(path_of(sdfg, *block) + " (block " + std::to_string(id) + "): a " + to_string(block->kind) +
                     " is not a control-flow region" +
                     (block->kind == BlockKind::Conditional ? "; add blocks to one of its branches" : ""));
  }
}

Result<State*> find_state(SDFG& sdfg, dace_id_t id) {
  auto b = find_block(sdfg, id);
  if (!b) return b.take_error();
  if ((*b)->kind != BlockKind::State)
    return invalid((id == DACE_ROOT_REGION ? path_of(sdfg) : path_of(sdfg, **b)) + " (block " + std::to_string(id) +
                   "): a " + to_string((*b)->kind) + " is not a state");
  return static_cast<State*>(*b);
}

Result<Node*> find_node(SDFG& sdfg, State& state, dace_id_t id) {
  Node* n = state.node(id);
  if (!n) return not_found(path_of(sdfg, state) + " / node " + std::to_string(id) + ": no such node");
  return n;
}

Result<DataflowEdge*> find_edge(SDFG& sdfg, State& state, dace_id_t id) {
  DataflowEdge* e = state.edge(id);
  if (!e) return not_found(path_of(sdfg, state) + " / edge " + std::to_string(id) + ": no such edge");
  return e;
}

Result<InterstateEdge*> find_interstate_edge(SDFG& sdfg, ControlFlowRegion& region, dace_id_t id) {
  InterstateEdge* e = region.edge(id);
  if (!e)
    return not_found(region_path(sdfg, region) + " / interstate edge " + std::to_string(id) +
                     ": no such interstate edge");
  return e;
}

Result<DataDescriptor*> find_data(SDFG& sdfg, const char* name) {
  DACE_TRY(require(name, "data name"));
  auto it = sdfg.arrays.find(name);
  if (it == sdfg.arrays.end()) return not_found(path_of_data(sdfg, name) + ": no such data container");
  return &it->second;
}

std::string region_path(const SDFG& sdfg, const ControlFlowRegion& region) {
  return &region == &sdfg ? path_of(sdfg) : path_of(sdfg, region);
}

std::string new_node_path(const SDFG& sdfg, const State& state, NodeKind kind, std::string_view label) {
  return path_of(sdfg, state) + " / node " + std::to_string(state.node_slots()) + " (" + to_string(kind) + " " +
         quoted(label) + ")";
}

namespace {

template <class E>
Result<E> enum_in_range(int v, E last, const std::string& where, const char* what) {
  if (v < 0 || v > static_cast<int>(last))
    return invalid(where + ": " + what + " value " + std::to_string(v) + " is out of range");
  return static_cast<E>(v);
}

}  // namespace

static_assert(DACE_STORAGE_SNITCH_SSR == static_cast<int>(StorageType::Snitch_SSR));
static_assert(DACE_STORAGE_CPU_HEAP == static_cast<int>(StorageType::CPU_Heap));
static_assert(DACE_STORAGE_GPU_GLOBAL == static_cast<int>(StorageType::GPU_Global));
static_assert(DACE_SCHEDULE_SNITCH_MULTICORE == static_cast<int>(ScheduleType::Snitch_Multicore));
static_assert(DACE_SCHEDULE_CPU_MULTICORE == static_cast<int>(ScheduleType::CPU_Multicore));
static_assert(DACE_SCHEDULE_GPU_DEVICE == static_cast<int>(ScheduleType::GPU_Device));
static_assert(DACE_LIFETIME_EXTERNAL == static_cast<int>(Lifetime::External));
static_assert(DACE_LIFETIME_PERSISTENT == static_cast<int>(Lifetime::Persistent));
static_assert(DACE_OMP_SCHEDULE_GUIDED == static_cast<int>(OmpSchedule::Guided));
static_assert(DACE_LANGUAGE_MLIR == static_cast<int>(Language::MLIR));
static_assert(DACE_LANGUAGE_CPP == static_cast<int>(Language::CPP));
static_assert(DACE_COMPLEX128 == static_cast<int>(ScalarType::Complex128));
static_assert(DACE_FLOAT64 == static_cast<int>(ScalarType::Float64));
static_assert(DACE_DTYPE_UNKNOWN == static_cast<int>(ScalarType::Unknown));
static_assert(DACE_DATA_REFERENCE == static_cast<int>(DataKind::Reference));
static_assert(DACE_BLOCK_SDFG == static_cast<int>(BlockKind::SDFG));
static_assert(DACE_BLOCK_RETURN == static_cast<int>(BlockKind::Return));
static_assert(DACE_NODE_LIBRARY == static_cast<int>(NodeKind::Library));
static_assert(DACE_NODE_CONSUME_EXIT == static_cast<int>(NodeKind::ConsumeExit));

Result<StorageType> to_storage(const dace_storage_t& v, const std::string& where) {
  return enum_in_range(enum_bits(v), StorageType::Snitch_SSR, where, "storage");
}
Result<ScheduleType> to_schedule(const dace_schedule_t& v, const std::string& where) {
  return enum_in_range(enum_bits(v), ScheduleType::Snitch_Multicore, where, "schedule");
}
Result<Lifetime> to_lifetime(const dace_lifetime_t& v, const std::string& where) {
  return enum_in_range(enum_bits(v), Lifetime::External, where, "lifetime");
}
Result<OmpSchedule> to_omp_schedule(const dace_omp_schedule_t& v, const std::string& where) {
  return enum_in_range(enum_bits(v), OmpSchedule::Guided, where, "omp_schedule");
}
Result<Language> to_language(const dace_language_t& v, const std::string& where) {
  return enum_in_range(enum_bits(v), Language::MLIR, where, "language");
}
Result<ScalarType> to_scalar(const dace_dtype_t& v, const std::string& where) {
  // Unknown is not a type one can declare a container or symbol with.
  return enum_in_range(enum_bits(v), ScalarType::Complex128, where, "dtype");
}
std::string dtype_label(const dace_dtype_t& v) {
  const int bits = enum_bits(v);
  if (bits >= 0 && bits <= static_cast<int>(ScalarType::Complex128))
    return scalar_type_name(static_cast<ScalarType>(bits));
  return std::to_string(bits) + " (no such dace_dtype_t)";
}

}  // namespace dace::capi
