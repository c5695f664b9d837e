// Collectives, point-to-point messages and block distribution: the semantics of DaCe's MPI
// library node expansions (dace/libraries/mpi/nodes), on the program's communicators.
#include <cstring>

#include "internal.h"

using namespace dace_mpi;

namespace {

// Checks shared by every call; returns the communicator or MPI_COMM_NULL after printing.
bool check(State* s, const char* what, int64_t count, int32_t dtype) {
  if (!s) {
    fail(nullptr, std::string(what) + ": the program's MPI state is missing (init failed?)");
    return false;
  }
  if (!fits_int(count)) {
    fail(s, std::string(what) + ": element count " + std::to_string(count) + " does not fit MPI's int");
    return false;
  }
  if (datatype(dtype) == MPI_DATATYPE_NULL) {
    fail(s, std::string(what) + ": element type code " + std::to_string(dtype) + " has no MPI type");
    return false;
  }
  return true;
}

int world_size(const State* s) {
  int n = 1;
  MPI_Comm_size(s->comm, &n);
  return n;
}

MPI_Request* request_slot(void* p) {
  static_assert(sizeof(MPI_Request) <= 8, "DaCe's MPI_Request elements are 8-byte slots here");
  return static_cast<MPI_Request*>(p);
}

}  // namespace

extern "C" {

int32_t dace_mpi_bcast(void* state, void* buffer, int64_t count, int32_t dtype, int64_t root, int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Bcast", count, dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  return MPI_Bcast(buffer, static_cast<int>(count), datatype(dtype), static_cast<int>(root), c);
}

int32_t dace_mpi_allreduce(void* state, const void* in, void* out, int64_t count, int32_t dtype, int32_t o,
                           int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Allreduce", count, dtype)) return -1;
  if (op(o) == MPI_OP_NULL) return fail(s, "Allreduce: unknown operation");
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  const void* send = in == out ? MPI_IN_PLACE : in;
  return MPI_Allreduce(send, out, static_cast<int>(count), datatype(dtype), op(o), c);
}

int32_t dace_mpi_reduce(void* state, const void* in, void* out, int64_t count, int32_t dtype, int32_t o, int64_t root,
                        int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Reduce", count, dtype)) return -1;
  if (op(o) == MPI_OP_NULL) return fail(s, "Reduce: unknown operation");
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  int me = 0;
  MPI_Comm_rank(c, &me);
  // In place (one buffer): the root reduces into it, the others send it.
  const void* send = (in == out && me == root) ? MPI_IN_PLACE : in;
  return MPI_Reduce(send, out, static_cast<int>(count), datatype(dtype), op(o), static_cast<int>(root), c);
}

int32_t dace_mpi_scatter(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out, int64_t out_count,
                         int32_t out_dtype, int64_t root) {
  State* s = as_state(state);
  if (!check(s, "Scatter", in_count, in_dtype) || !check(s, "Scatter", out_count, out_dtype)) return -1;
  int n = world_size(s);
  return MPI_Scatter(in, static_cast<int>(in_count / n), datatype(in_dtype), out, static_cast<int>(out_count),
                     datatype(out_dtype), static_cast<int>(root), s->comm);
}

int32_t dace_mpi_gather(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out, int64_t out_count,
                        int32_t out_dtype, int64_t root) {
  State* s = as_state(state);
  if (!check(s, "Gather", in_count, in_dtype) || !check(s, "Gather", out_count, out_dtype)) return -1;
  int n = world_size(s);
  return MPI_Gather(in, static_cast<int>(in_count), datatype(in_dtype), out, static_cast<int>(out_count / n),
                    datatype(out_dtype), static_cast<int>(root), s->comm);
}

int32_t dace_mpi_allgather(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                           int64_t out_count, int32_t out_dtype, int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Allgather", in_count, in_dtype) || !check(s, "Allgather", out_count, out_dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  int n = 1;
  MPI_Comm_size(c, &n);
  return MPI_Allgather(in, static_cast<int>(in_count), datatype(in_dtype), out, static_cast<int>(out_count / n),
                       datatype(out_dtype), c);
}

int32_t dace_mpi_alltoall(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                          int64_t out_count, int32_t out_dtype, int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Alltoall", in_count, in_dtype) || !check(s, "Alltoall", out_count, out_dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  int n = 1;
  MPI_Comm_size(c, &n);
  // DaCe sends and receives in_count / ranks elements per rank.
  if (out_count < in_count) return fail(s, "Alltoall: the output holds fewer elements than the input");
  return MPI_Alltoall(in, static_cast<int>(in_count / n), datatype(in_dtype), out, static_cast<int>(in_count / n),
                      datatype(out_dtype), c);
}

int32_t dace_mpi_send(void* state, const void* buffer, int64_t count, int32_t dtype, int64_t dest, int64_t tag,
                      int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Send", count, dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  return MPI_Send(buffer, static_cast<int>(count), datatype(dtype), static_cast<int>(dest), static_cast<int>(tag), c);
}

int32_t dace_mpi_recv(void* state, void* buffer, int64_t count, int32_t dtype, int64_t source, int64_t tag,
                      int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Recv", count, dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  return MPI_Recv(buffer, static_cast<int>(count), datatype(dtype), static_cast<int>(source), static_cast<int>(tag), c,
                  MPI_STATUS_IGNORE);
}

int32_t dace_mpi_isend(void* state, const void* buffer, int64_t count, int32_t dtype, int64_t dest, int64_t tag,
                       int32_t grid, void* request) {
  State* s = as_state(state);
  if (!check(s, "Isend", count, dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) {
    *request_slot(request) = MPI_REQUEST_NULL;
    return 0;
  }
  return MPI_Isend(buffer, static_cast<int>(count), datatype(dtype), static_cast<int>(dest), static_cast<int>(tag), c,
                   request_slot(request));
}

int32_t dace_mpi_irecv(void* state, void* buffer, int64_t count, int32_t dtype, int64_t source, int64_t tag,
                       int32_t grid, void* request) {
  State* s = as_state(state);
  if (!check(s, "Irecv", count, dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) {
    *request_slot(request) = MPI_REQUEST_NULL;
    return 0;
  }
  return MPI_Irecv(buffer, static_cast<int>(count), datatype(dtype), static_cast<int>(source), static_cast<int>(tag), c,
                   request_slot(request));
}

int32_t dace_mpi_wait(void* state, void* request, int32_t* tag, int32_t* source) {
  (void)state;
  MPI_Status st;
  int rc = MPI_Wait(request_slot(request), &st);
  if (tag) *tag = st.MPI_TAG;
  if (source) *source = st.MPI_SOURCE;
  return rc;
}

int32_t dace_mpi_waitall(void* state, int64_t count, void* requests) {
  State* s = as_state(state);
  if (!fits_int(count)) return fail(s, "Waitall: request count " + std::to_string(count));
  return MPI_Waitall(static_cast<int>(count), request_slot(requests), MPI_STATUSES_IGNORE);
}

int32_t dace_mpi_block_scatter(void* state, const void* in, void* out, int64_t out_count, int32_t dtype,
                               int32_t subarray, int32_t scatter_grid, int32_t bcast_grid) {
  State* s = as_state(state);
  if (!check(s, "BlockScatter", out_count, dtype)) return -1;
  if (subarray < 0 || static_cast<size_t>(subarray) >= s->subarrays.size())
    return fail(s, "BlockScatter: unknown subarray type");
  const SubArray& a = s->subarrays[static_cast<size_t>(subarray)];
  MPI_Comm c = grid_comm(s, scatter_grid);
  if (c != MPI_COMM_NULL) {
    int rc = MPI_Scatterv(in, a.counts.data(), a.displs.data(), a.type, out, static_cast<int>(out_count),
                          datatype(dtype), 0, c);
    if (rc != MPI_SUCCESS) return rc;
  }
  if (bcast_grid >= 0) {
    MPI_Comm b = grid_comm(s, bcast_grid);
    if (b != MPI_COMM_NULL) return MPI_Bcast(out, static_cast<int>(out_count), datatype(dtype), 0, b);
  }
  return 0;
}

int32_t dace_mpi_block_gather(void* state, void* in, void* out, int64_t in_count, int32_t dtype, int32_t subarray,
                              int32_t gather_grid, int32_t reduce_grid) {
  State* s = as_state(state);
  if (!check(s, "BlockGather", in_count, dtype)) return -1;
  if (subarray < 0 || static_cast<size_t>(subarray) >= s->subarrays.size())
    return fail(s, "BlockGather: unknown subarray type");
  const SubArray& a = s->subarrays[static_cast<size_t>(subarray)];
  MPI_Comm g = grid_comm(s, gather_grid);
  MPI_Comm r = reduce_grid >= 0 ? grid_comm(s, reduce_grid) : MPI_COMM_NULL;
  const int n = static_cast<int>(in_count);
  const MPI_Datatype t = datatype(dtype);
  if (g != MPI_COMM_NULL) {
    // The ranks of the gather grid first sum the partial blocks of their reduction grid
    // (they are its roots), then gather the blocks.
    if (r != MPI_COMM_NULL) {
      int root = 0;
      MPI_Comm_rank(r, &root);
      int rc = MPI_Reduce(MPI_IN_PLACE, in, n, t, MPI_SUM, root, r);
      if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_Gatherv(in, n, t, out, a.counts.data(), a.displs.data(), a.type, 0, g);
  }
  if (r != MPI_COMM_NULL) return MPI_Reduce(in, nullptr, n, t, MPI_SUM, 0, r);
  return 0;
}

}  // extern "C"
