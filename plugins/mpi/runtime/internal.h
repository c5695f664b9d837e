// What the runtime files share: the program state behind the void* of dace_mpi_runtime.h.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dace_mpi_runtime.h"

namespace dace_mpi {

// DaCe's ProcessGrid fields (__state-><grid>_comm, _group, _rank, _size, _dims, _coords, _valid).
struct Grid {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Group group = MPI_GROUP_NULL;
  int rank = MPI_PROC_NULL;
  int size = 0;
  bool valid = false;
  std::vector<int> dims, coords;
  // A sub-grid: its parent's index, the parent dimensions it keeps and the parent rank of
  // DaCe's exact_grid (-1: none). Redistribute finds peers' ranks from them.
  int parent = -1;
  std::vector<int> remain;
  int64_t exact_rank = -1;
};

// DaCe's SubArray fields (the resized block type, counts, displacements).
struct SubArray {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::vector<int> counts, displs;
  // The distribution itself, kept on every rank (also where the grid is not valid), for
  // Redistribute: array dimension d is cut in blocks of subshape[d] over grid dimension
  // correspondence[d].
  int grid = -1;
  std::vector<int64_t> shape, subshape;
  std::vector<int> correspondence;
};

struct State {
  MPI_Comm comm = MPI_COMM_NULL;  // the host's communicator, duplicated
  int rank = 0, size = 1;
  std::vector<Grid> grids;
  std::vector<SubArray> subarrays;
  bool blacs = false;
  int blacs_context = -1, prows = 0, pcols = 0, myprow = -1, mypcol = -1;
  // The watchdog of blocking operations (DACE_MPI_TIMEOUT, seconds; 0: none, plain blocking
  // MPI calls) and the message of the last failure (what dace_mpi_error_message reports).
  double timeout = 0;
  std::string error;
  // Contiguous copies of strided collective buffers (dace_mpi_stage), one per operand slot,
  // kept between calls and freed with the state.
  std::vector<char> staging[2];
};

// A buffer's layout (dace_mpi_runtime.h): `block` contiguous elements repeated over outer
// dimensions of (size, stride in elements), outermost first; none: contiguous.
struct Strides {
  struct Level {
    int64_t size = 0, stride = 0;
  };
  int64_t block = 0;
  std::vector<Level> outer;
};
// Reads and checks a layout of `count` elements (block times the outer sizes); false
// (recorded, naming `what`) when it is not one.
bool read_strides(State* s, const char* what, int64_t count, int64_t block, int32_t levels, const int64_t* outer,
                  Strides& out);

inline State* as_state(void* p) { return static_cast<State*>(p); }

// Records `what` as the state's last failure (and the process's, for failures without a
// state, which are also printed as "dace mpi (rank R): what") and returns -1.
int32_t fail(State* s, const std::string& what);
// MPI_SUCCESS: 0. Else records "<what()>: <MPI's error string>" and returns the MPI code.
// `what` describes the operation; it runs only on failure.
int32_t mpi_failure(State* s, int rc, const std::string& what);
template <class Describe>
int32_t mpi_status(State* s, int rc, Describe what) {
  return rc == MPI_SUCCESS ? 0 : mpi_failure(s, rc, what());
}
// Completes `n` requests (watchdog.cpp): MPI_Waitall without a timeout; with one, MPI_Testall
// polling until they complete or DACE_MPI_TIMEOUT passes, then a failure saying what did not
// complete (receives and sends are cancelled; collectives cannot be). `statuses` may be null.
int32_t await(State* s, int n, MPI_Request* requests, MPI_Status* statuses, bool cancellable,
              const std::string& what);
// The watchdog timeout DACE_MPI_TIMEOUT asks for (seconds, >= 0); false when it is not a
// number (the message says why).
bool timeout_from_environment(double& seconds, std::string& message);
MPI_Datatype datatype(int32_t code);  // MPI_DATATYPE_NULL for an unknown code
MPI_Op op(int32_t code);              // MPI_OP_NULL for an unknown code
// The communicator of grid `g` (-1: the program's); MPI_COMM_NULL when the grid does not
// exist or is not valid on this rank.
MPI_Comm grid_comm(const State* s, int32_t g);
bool fits_int(int64_t v);
// Releases the BLACS grid (pblas.cpp).
void blacs_release(State* s);

}  // namespace dace_mpi
