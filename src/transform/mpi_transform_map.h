// MPITransformMap (DaCe's name and semantics, dace/transformation/dataflow/mpi.py): a
// one-dimensional map is distributed over MPI ranks. Its dimension `i = a:b` is strip-mined
// with the tile size `count / __dace_comm_size` (DaCe's divides_evenly: the ranks must divide
// the iteration count), the new outer map `mpi_i = a:b:T` gets the MPI schedule (each rank
// runs its tile, plugins/mpi) and the original map, now Sequential, runs over one tile. Each
// block the outer map passes in is first copied into a local transient `trans_X`
// (InLocalStorage) and each block it passes out is written through one (OutLocalStorage), the
// "local view" of DaCe's docstring. `__dace_comm_size` is declared as an int32 symbol, as
// DaCe does; the MPI schedule binds it (and __dace_comm_rank) inside the map.
// Refused as DaCe refuses: maps of more than one dimension, maps already MPI, maps inside a
// map that is neither Default nor Sequential, dynamic range inputs, WCR outputs. Refused
// besides, where DaCe would compute something else or fail later: a step other than 1 (DaCe's
// tiles ignore it), an iteration count that is a sum (DaCe writes the tile size as the text
// "(" + count + "/__dace_comm_size)", which divides only the last term), a parameter named
// like the new one's source of truth (`__dace_comm_size`), and any local copy InLocalStorage
// or OutLocalStorage would refuse on the strip-mined map (checked on a copy of the SDFG).
#pragma once
#include "transform/transformation.h"

namespace dace::transform {

class MPITransformMap : public SingleStateTransformation {
 public:
  std::string_view name() const override { return "MPITransformMap"; }
  Modifies modifies() const override {
    return Modifies::Scopes | Modifies::Memlets | Modifies::AccessNodes | Modifies::Descriptors | Modifies::Symbols;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // map_entry
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;

 private:
  // Why the map cannot be distributed (empty when it can), from the map alone.
  std::string map_problem(const Site& site, int entry) const;
  // Distributes the map at `entry` of `state`; an error (the SDFG then partly changed) says
  // which step refused. can_apply runs it on a copy.
  static Status distribute(ir::SDFG& sdfg, ir::State& state, int entry);
};

}  // namespace dace::transform
