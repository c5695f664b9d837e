// Internals of the C API (include/libdace.h): handle structs, the guard that turns Status and
// exceptions into dace_status_t plus the thread-local error record, borrowed-string storage,
// and lookups of ids that produce path-naming errors.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "ir/path.h"
#include "ir/result.h"
#include "ir/sdfg.h"
#include "ir/json/json_error.h"
#include "libdace.h"

namespace dace::jit {
class JitSession;
class Program;
}
namespace dace::plugin {
class Registry;
class DeferredPlugins;
}

struct dace_context {
  mutable std::mutex mutex;
  std::map<std::string, std::string> options;
  // Created by the first successful dace_program_compile (api_program.cpp), under jit_mutex.
  // shared_ptr: their deleters are bound where the types are complete.
  std::mutex jit_mutex;
  std::shared_ptr<dace::jit::JitSession> session;
  std::shared_ptr<dace::plugin::Registry> registry;
  // Plugins with a manifest, loaded into `registry` when a program needs them.
  std::shared_ptr<dace::plugin::DeferredPlugins> deferred_plugins;
  // jit::plugins_fingerprint of `registry` plus the deferred plugins' names, versions and
  // build ids, computed once (part of every cache key).
  std::string plugins_fingerprint;
  // Tests only (pipeline::CompileRequest::before_optimized_install), read under jit_mutex:
  // holds each tiered program's swap until it returns.
  std::function<void()> before_optimized_install;
};

struct dace_sdfg {
  std::unique_ptr<dace::ir::SDFG> owned;  // null for borrowed (nested) handles
  dace::ir::SDFG* sdfg = nullptr;
  dace_sdfg* root = nullptr;              // the owning handle; holds the nested-handle cache
  // Borrowed handles of nested SDFGs, created on demand and kept until the root is released,
  // so that a host may compare and keep them; the mutex lets readers on several threads ask.
  std::mutex nested_mutex;
  std::map<const dace::ir::SDFG*, std::unique_ptr<dace_sdfg>> nested;
  // Borrowed handles whose SDFG a revert replaced (dace_sdfg_revert_history): kept, with a
  // null `sdfg`, so that a host still holding one gets an error instead of a dangling pointer.
  std::vector<std::unique_ptr<dace_sdfg>> retired_nested;
  // This handle's content hash and the SDFG's last_change() it was computed at (for a
  // nested SDFG's handle, the larger of its own and its root's; hash_memo.cpp). Every call that gets mutable access to an SDFG touches it (sdfg_of), so
  // the IR's change stamps cover what the C API writes through element pointers.
  std::mutex hash_mutex;
  uint64_t hash_stamp = 0;
  std::string hash;
};

namespace dace::capi {

// The compiled program behind a handle (tests read its tier state: jit::TierState).
const jit::Program& jit_program_of(const dace_program_t& program);

// Records `error` as this thread's last error and returns its status. Never throws.
dace_status_t record(Error error) noexcept;

// Borrowed strings: valid until the next guarded call on this thread (see the header).
void clear_strings() noexcept;
const char* keep(std::string s);

template <class F>
dace_status_t guard(F&& body) noexcept {
  try {
    clear_strings();
    Status s = body();
    if (s.ok()) return DACE_OK;
    return record(s.take_error());
  } catch (const std::bad_alloc&) {
    return record(make_error(Code::OutOfMemory, "out of memory"));
  } catch (const std::exception& e) {
    return record(make_error(Code::Internal, std::string("internal error: ") + dace::ir::json::json_error_reason(e)));
  } catch (...) {
    return record(make_error(Code::Internal, "internal error: unknown exception"));
  }
}

inline Error invalid(std::string message) { return make_error(Code::InvalidArgument, std::move(message)); }
inline Error not_found(std::string message) { return make_error(Code::NotFound, std::move(message)); }
inline Error exists(std::string message) { return make_error(Code::AlreadyExists, std::move(message)); }

// NULL checks of required pointer arguments; `what` names the parameter.
Status require(const void* p, const char* what);

// Mutable access marks the SDFG changed (ir::SDFG::touch); use the const overload for reads.
Result<ir::SDFG*> sdfg_of(dace_sdfg_t* h);
Result<const ir::SDFG*> sdfg_of(const dace_sdfg_t* h);

// ir::content_hash of the handle's SDFG, recomputed only after the tree changed: the JIT's
// cache key needs it on every compile, and hashing writes the whole canonical JSON.
std::string content_hash_of(const dace_sdfg_t* h);

// Blocks by SDFG-wide id. DACE_ROOT_REGION is the SDFG itself.
Result<ir::ControlFlowBlock*> find_block(ir::SDFG& sdfg, dace_id_t id);
Result<ir::ControlFlowRegion*> find_region(ir::SDFG& sdfg, dace_id_t id);
Result<ir::State*> find_state(ir::SDFG& sdfg, dace_id_t id);
Result<ir::Node*> find_node(ir::SDFG& sdfg, ir::State& state, dace_id_t id);
Result<ir::DataflowEdge*> find_edge(ir::SDFG& sdfg, ir::State& state, dace_id_t id);
Result<ir::InterstateEdge*> find_interstate_edge(ir::SDFG& sdfg, ir::ControlFlowRegion& region, dace_id_t id);
Result<ir::DataDescriptor*> find_data(ir::SDFG& sdfg, const char* name);

// Path of a region for messages (the SDFG's own path for the root).
std::string region_path(const ir::SDFG& sdfg, const ir::ControlFlowRegion& region);
// Path of a node about to be added (its future slot), e.g. `... / node 4 (Tasklet "t")`.
std::string new_node_path(const ir::SDFG& sdfg, const ir::State& state, ir::NodeKind kind, std::string_view label);

// Enum arguments are read by their bits: a host may pass any int, and reading an
// out-of-range value through the enum type would be undefined behaviour in C++.
template <class E>
int enum_bits(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "C API enums are 32-bit (see *_MAX_ENUM)");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// Enum range checks; `where` names the element for the message.
Result<ir::StorageType> to_storage(const dace_storage_t& v, const std::string& where);
Result<ir::ScheduleType> to_schedule(const dace_schedule_t& v, const std::string& where);
Result<ir::Lifetime> to_lifetime(const dace_lifetime_t& v, const std::string& where);
Result<ir::OmpSchedule> to_omp_schedule(const dace_omp_schedule_t& v, const std::string& where);
Result<ir::Language> to_language(const dace_language_t& v, const std::string& where);
Result<ir::ScalarType> to_scalar(const dace_dtype_t& v, const std::string& where);
// DaCe's name of a C API dtype ("float64"), or its number when no such dtype exists.
std::string dtype_label(const dace_dtype_t& v);

// Two-call idiom for id lists.
template <class Ids>
void write_ids(dace_id_t* out, size_t capacity, size_t* out_count, const Ids& ids) {
  size_t i = 0;
  for (auto id : ids) {
    if (out && i < capacity) out[i] = static_cast<dace_id_t>(id);
    ++i;
  }
  *out_count = i;
}

inline std::string str_or_empty(const char* s) { return s ? std::string(s) : std::string(); }

}  // namespace dace::capi
