// DaCe's MPI map schedule (dace/codegen/targets/mpi.py): the map's outermost dimension is
// distributed over the ranks of the program communicator, each rank running its own block
// of iterations (DaCe: the one iteration `start + rank * step`); inner dimensions run as
// loops on every rank. Inside the map the symbols __dace_comm_rank and __dace_comm_size are
// the rank and the size of that communicator, as DaCe's MPITransformMap uses them.
#pragma once
#include <memory>

#include "plugin/interfaces.h"

namespace dace::mpi {

class MpiSchedule final : public plugin::ScheduleLowering {
 public:
  // `state`: the implementation that creates the MPI program state (the library nodes').
  explicit MpiSchedule(std::shared_ptr<const plugin::ProgramStateLowering> state) : state_(std::move(state)) {}
  Status lower_scope(codegen::ScopeContext& context) const override;
  std::shared_ptr<const plugin::ProgramStateLowering> program_state() const override { return state_; }

 private:
  std::shared_ptr<const plugin::ProgramStateLowering> state_;
};

}  // namespace dace::mpi
