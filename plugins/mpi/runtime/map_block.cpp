// The MPI map schedule's runtime side: the rank and size a map's code sees, and the block of
// iterations this rank runs.
#include "internal.h"

using namespace dace_mpi;

extern "C" {

int32_t dace_mpi_comm_info(void* state, int64_t* out) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "MPI map: no program state");
  out[0] = s->rank;
  out[1] = s->size;
  return 0;
}

int32_t dace_mpi_map_block(void* state, int64_t start, int64_t end, int64_t step, int32_t one_per_rank, int64_t* out) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "MPI map: no program state");
  if (step == 0)
    return fail(s, "MPI map range " + std::to_string(start) + ":" + std::to_string(end) +
                       " has step 0 (a tile size computed from __dace_comm_size with fewer iterations than ranks?)");
  // Inclusive end, as DaCe's ranges: the number of iterations, 0 when the range is empty.
  int64_t count = 0;
  if (step > 0 && end >= start) count = (end - start) / step + 1;
  if (step < 0 && start >= end) count = (start - end) / -step + 1;
  const int64_t size = s->size, rank = s->rank;
  // The tiles of a map MPITransformMap distributed: N / P floors when P does not divide N,
  // giving more tiles than ranks and a last tile past the end of the range.
  if (one_per_rank && count != size)
    return fail(s, "MPI map range " + std::to_string(start) + ":" + std::to_string(end) + ":" + std::to_string(step) +
                       " has " + std::to_string(count) + " tiles for " + std::to_string(size) +
                       " ranks: its tile size divides by __dace_comm_size, so the ranks must divide the iteration "
                       "count (MPITransformMap's divides_evenly)");
  const int64_t chunk = count / size, extra = count % size;
  out[0] = rank * chunk + (rank < extra ? rank : extra);
  out[1] = chunk + (rank < extra ? 1 : 0);
  return 0;
}

}  // extern "C"
