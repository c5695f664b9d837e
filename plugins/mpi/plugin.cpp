// The MPI plugin's handshake and registration (DESIGN.md §7, docs/mpi.md).
//
// It registers its runtime (runtime/dace_mpi_runtime.h; linked against libmpi, so the
// plugin only loads where libmpi does) as runtime symbols, declares ScaLAPACK as an optional
// vendor library, registers DaCe's MPI map schedule (lowering/schedule.h) and, for each DaCe
// MPI/PBLAS library node class, an implementation that lowers the node to calls into the
// runtime itself (lowering/).
#include <memory>
#include <string>

#include "libdace_plugin.h"
#include "lowering/common.h"
#include "lowering/nodes.h"
#include "lowering/pblas.h"
#include "lowering/program_state.h"
#include "lowering/schedule.h"
#include "plugin/registry.h"
#include "runtime/dace_mpi_runtime.h"

#ifndef LIBDACE_VERSION_STRING
#define LIBDACE_VERSION_STRING "0.0.0"
#endif
#ifndef DACE_MPI_SCALAPACK_LIB
#define DACE_MPI_SCALAPACK_LIB "libscalapack-openmpi.so.2.2"
#endif

namespace {

template <class Fn>
void* address_of(Fn* fn) {
  return reinterpret_cast<void*>(fn);
}

// The MPI program state (communicators, grids, BLACS grid), which the nodes and the MPI map
// schedule share under one key.
class MpiProgramState final : public dace::plugin::ProgramStateLowering {
 public:
  std::string_view program_state_key() const override { return dace::mpi::kStateKeyName; }
  dace::Status lower_program_init(dace::codegen::ProgramStateContext& context) const override {
    return dace::mpi::lower_state_init(context);
  }
  dace::Status lower_program_exit(dace::codegen::ProgramStateContext& context) const override {
    return dace::mpi::lower_state_exit(context);
  }
  dace::Status lower_program_entry(dace::codegen::ProgramStateContext& context) const override {
    return dace::mpi::lower_state_entry(context);
  }
};

class MpiNodeLowering final : public dace::plugin::LibraryExpansion {
 public:
  MpiNodeLowering(dace::mpi::NodeLowering lower, bool needs_scalapack) : lower_(lower), scalapack_(needs_scalapack) {}
  dace::Status expand(dace::transform::ExpansionContext&) const override {
    return dace::make_error(dace::Code::Unsupported, "MPI library nodes are lowered to runtime calls, not expanded");
  }
  std::string_view vendor_library() const override { return scalapack_ ? DACE_MPI_SCALAPACK_LIB : ""; }
  bool lowers_to_ir() const override { return true; }
  dace::Status lower_node(dace::codegen::LibraryNodeContext& context) const override { return lower_(context); }
  std::string_view program_state_key() const override { return dace::mpi::kStateKeyName; }
  dace::Status lower_program_init(dace::codegen::ProgramStateContext& context) const override {
    return dace::mpi::lower_state_init(context);
  }
  dace::Status lower_program_exit(dace::codegen::ProgramStateContext& context) const override {
    return dace::mpi::lower_state_exit(context);
  }
  dace::Status lower_program_entry(dace::codegen::ProgramStateContext& context) const override {
    return dace::mpi::lower_state_entry(context);
  }

 private:
  dace::mpi::NodeLowering lower_;
  bool scalapack_;
};

int32_t register_mpi(dace_plugin_registry_t* handle) {
  dace::plugin::Registry* registry = dace::plugin::Registry::from_handle(handle);
  if (registry == nullptr) return 1;
  const std::pair<const char*, void*> symbols[] = {
      {"dace_mpi_allgather", address_of(&dace_mpi_allgather)},
      {"dace_mpi_allreduce", address_of(&dace_mpi_allreduce)},
      {"dace_mpi_alltoall", address_of(&dace_mpi_alltoall)},
      {"dace_mpi_bc_gather", address_of(&dace_mpi_bc_gather)},
      {"dace_mpi_bc_scatter", address_of(&dace_mpi_bc_scatter)},
      {"dace_mpi_bcast", address_of(&dace_mpi_bcast)},
      {"dace_mpi_blacs_init", address_of(&dace_mpi_blacs_init)},
      {"dace_mpi_block_gather", address_of(&dace_mpi_block_gather)},
      {"dace_mpi_block_scatter", address_of(&dace_mpi_block_scatter)},
      {"dace_mpi_cart_create", address_of(&dace_mpi_cart_create)},
      {"dace_mpi_cart_sub", address_of(&dace_mpi_cart_sub)},
      {"dace_mpi_comm_info", address_of(&dace_mpi_comm_info)},
      {"dace_mpi_error_message", address_of(&dace_mpi_error_message)},
      {"dace_mpi_gather", address_of(&dace_mpi_gather)},
      {"dace_mpi_irecv", address_of(&dace_mpi_irecv)},
      {"dace_mpi_isend", address_of(&dace_mpi_isend)},
      {"dace_mpi_map_block", address_of(&dace_mpi_map_block)},
      {"dace_mpi_pgemm", address_of(&dace_mpi_pgemm)},
      {"dace_mpi_pgemv", address_of(&dace_mpi_pgemv)},
      {"dace_mpi_recv", address_of(&dace_mpi_recv)},
      {"dace_mpi_redistribute", address_of(&dace_mpi_redistribute)},
      {"dace_mpi_reduce", address_of(&dace_mpi_reduce)},
      {"dace_mpi_scatter", address_of(&dace_mpi_scatter)},
      {"dace_mpi_send", address_of(&dace_mpi_send)},
      {"dace_mpi_stage", address_of(&dace_mpi_stage)},
      {"dace_mpi_set_host_comm", address_of(&dace_mpi_set_host_comm)},
      {"dace_mpi_state_create", address_of(&dace_mpi_state_create)},
      {"dace_mpi_state_destroy", address_of(&dace_mpi_state_destroy)},
      {"dace_mpi_subarray_create", address_of(&dace_mpi_subarray_create)},
      {"dace_mpi_unstage", address_of(&dace_mpi_unstage)},
      {"dace_mpi_wait", address_of(&dace_mpi_wait)},
      {"dace_mpi_waitall", address_of(&dace_mpi_waitall)},
  };
  for (const auto& [name, address] : symbols)
    if (!registry->add_runtime_symbol(name, address).ok()) return 1;
  // Optional: without ScaLAPACK the PBLAS nodes are refused, the MPI nodes still work.
  if (!registry->add_vendor_library(DACE_MPI_SCALAPACK_LIB, false).ok()) return 1;
  auto state = std::make_shared<MpiProgramState>();
  if (!registry->add_schedule("MPI", std::make_shared<dace::mpi::MpiSchedule>(state)).ok()) return 1;
  for (const dace::mpi::NodeClass& c : dace::mpi::node_classes()) {
    bool pblas = dace::mpi::is_pblas_class(c.classpath);
    auto impl = std::make_shared<MpiNodeLowering>(c.lower, pblas);
    if (!registry->add_expansion(c.classpath, c.implementation, impl).ok()) return 1;
  }
  return 0;
}

const dace_plugin_info_t kInfo = {
    DACE_PLUGIN_ABI_VERSION, "mpi", LIBDACE_VERSION_STRING, DACE_PLUGIN_BUILD_ID, register_mpi,
};

}  // namespace

extern "C" const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  return abi_version == DACE_PLUGIN_ABI_VERSION ? &kInfo : nullptr;
}
