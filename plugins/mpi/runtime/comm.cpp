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

// Runs a blocking MPI operation: the call itself, or under the watchdog (DACE_MPI_TIMEOUT)
// its nonblocking form, polled until done or timed out. `what` describes it for messages.
template <class Blocking, class Start, class Describe>
int32_t guarded(State* s, Blocking blocking, Start start, bool cancellable, Describe what) {
  if (s->timeout <= 0) return mpi_status(s, blocking(), what);
  MPI_Request request = MPI_REQUEST_NULL;
  int rc = start(&request);
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, what());
  return await(s, 1, &request, nullptr, cancellable, what());
}

std::string peer_text(const char* op, const char* dir, int64_t peer, int64_t tag, int64_t count) {
  return std::string(op) + " of " + std::to_string(count) + " elements " + dir + " rank " + std::to_string(peer) +
         " (tag " + std::to_string(tag) + ")";
}

// The MPI datatype and count of a point-to-point buffer (dace_mpi_runtime.h): the element
// type, or a vector type of the blocks, freed when the layout goes (MPI keeps a type that an
// operation in flight uses).
struct Layout {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int count = 0;
  bool owned = false;
  Layout() = default;
  Layout(const Layout&) = delete;
  Layout& operator=(const Layout&) = delete;
  ~Layout() {
    if (owned) MPI_Type_free(&type);
  }
};

bool layout(State* s, const char* what, int64_t count, int64_t block, int32_t levels, const int64_t* outer,
            int32_t dtype, Layout& out) {
  if (!check(s, what, count, dtype)) return false;
  out.type = datatype(dtype);
  out.count = static_cast<int>(count);
  Strides st;
  if (!read_strides(s, what, count, block, levels, outer, st)) return false;
  if (st.outer.empty() || count == 0) return true;
  // `block` contiguous elements, then one byte-strided vector per outer dimension, innermost
  // first (each level repeats the whole type below it).
  MPI_Aint lb = 0, extent = 0;
  MPI_Type_get_extent(out.type, &lb, &extent);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  int rc = MPI_Type_contiguous(static_cast<int>(block), out.type, &t);
  for (size_t i = st.outer.size(); rc == MPI_SUCCESS && i-- > 0;) {
    MPI_Datatype level = MPI_DATATYPE_NULL;
    rc = MPI_Type_create_hvector(static_cast<int>(st.outer[i].size), 1, static_cast<MPI_Aint>(st.outer[i].stride) * extent,
                                 t, &level);
    MPI_Type_free(&t);
    t = level;
  }
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&t);
  if (rc != MPI_SUCCESS) {
    if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
    mpi_failure(s, rc, std::string(what) + ": building the strided datatype");
    return false;
  }
  out.type = t;
  out.owned = true;
  out.count = 1;
  return true;
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
  const int n = static_cast<int>(count), r = static_cast<int>(root);
  const MPI_Datatype t = datatype(dtype);
  return guarded(
      s, [&] { return MPI_Bcast(buffer, n, t, r, c); }, [&](MPI_Request* q) { return MPI_Ibcast(buffer, n, t, r, c, q); },
      false, [&] { return "MPI_Bcast from rank " + std::to_string(root); });
}

int32_t dace_mpi_allreduce(void* state, const void* in, void* out, int64_t count, int32_t dtype, int32_t o,
                           int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Allreduce", count, dtype)) return -1;
  if (op(o) == MPI_OP_NULL) return fail(s, "Allreduce: unknown operation");
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  const void* send = in == out ? MPI_IN_PLACE : in;
  const int n = static_cast<int>(count);
  const MPI_Datatype t = datatype(dtype);
  return guarded(
      s, [&] { return MPI_Allreduce(send, out, n, t, op(o), c); },
      [&](MPI_Request* q) { return MPI_Iallreduce(send, out, n, t, op(o), c, q); }, false,
      [] { return std::string("MPI_Allreduce"); });
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
  const int n = static_cast<int>(count), r = static_cast<int>(root);
  const MPI_Datatype t = datatype(dtype);
  return guarded(
      s, [&] { return MPI_Reduce(send, out, n, t, op(o), r, c); },
      [&](MPI_Request* q) { return MPI_Ireduce(send, out, n, t, op(o), r, c, q); }, false,
      [&] { return "MPI_Reduce to rank " + std::to_string(root); });
}

int32_t dace_mpi_scatter(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out, int64_t out_count,
                         int32_t out_dtype, int64_t root) {
  State* s = as_state(state);
  if (!check(s, "Scatter", in_count, in_dtype) || !check(s, "Scatter", out_count, out_dtype)) return -1;
  const int per = static_cast<int>(in_count / world_size(s)), n = static_cast<int>(out_count);
  const int r = static_cast<int>(root);
  const MPI_Datatype ti = datatype(in_dtype), to = datatype(out_dtype);
  return guarded(
      s, [&] { return MPI_Scatter(in, per, ti, out, n, to, r, s->comm); },
      [&](MPI_Request* q) { return MPI_Iscatter(in, per, ti, out, n, to, r, s->comm, q); }, false,
      [&] { return "MPI_Scatter from rank " + std::to_string(root); });
}

int32_t dace_mpi_gather(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out, int64_t out_count,
                        int32_t out_dtype, int64_t root) {
  State* s = as_state(state);
  if (!check(s, "Gather", in_count, in_dtype) || !check(s, "Gather", out_count, out_dtype)) return -1;
  const int n = static_cast<int>(in_count), per = static_cast<int>(out_count / world_size(s));
  const int r = static_cast<int>(root);
  const MPI_Datatype ti = datatype(in_dtype), to = datatype(out_dtype);
  return guarded(
      s, [&] { return MPI_Gather(in, n, ti, out, per, to, r, s->comm); },
      [&](MPI_Request* q) { return MPI_Igather(in, n, ti, out, per, to, r, s->comm, q); }, false,
      [&] { return "MPI_Gather to rank " + std::to_string(root); });
}

int32_t dace_mpi_allgather(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                           int64_t out_count, int32_t out_dtype, int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Allgather", in_count, in_dtype) || !check(s, "Allgather", out_count, out_dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  int ranks = 1;
  MPI_Comm_size(c, &ranks);
  const int n = static_cast<int>(in_count), per = static_cast<int>(out_count / ranks);
  const MPI_Datatype ti = datatype(in_dtype), to = datatype(out_dtype);
  return guarded(
      s, [&] { return MPI_Allgather(in, n, ti, out, per, to, c); },
      [&](MPI_Request* q) { return MPI_Iallgather(in, n, ti, out, per, to, c, q); }, false,
      [] { return std::string("MPI_Allgather"); });
}

int32_t dace_mpi_alltoall(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                          int64_t out_count, int32_t out_dtype, int32_t grid) {
  State* s = as_state(state);
  if (!check(s, "Alltoall", in_count, in_dtype) || !check(s, "Alltoall", out_count, out_dtype)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  int ranks = 1;
  MPI_Comm_size(c, &ranks);
  // DaCe sends and receives in_count / ranks elements per rank.
  if (out_count < in_count) return fail(s, "Alltoall: the output holds fewer elements than the input");
  const int per = static_cast<int>(in_count / ranks);
  const MPI_Datatype ti = datatype(in_dtype), to = datatype(out_dtype);
  return guarded(
      s, [&] { return MPI_Alltoall(in, per, ti, out, per, to, c); },
      [&](MPI_Request* q) { return MPI_Ialltoall(in, per, ti, out, per, to, c, q); }, false,
      [] { return std::string("MPI_Alltoall"); });
}

int32_t dace_mpi_send(void* state, const void* buffer, int64_t count, int64_t block, int32_t levels,
                      const int64_t* outer, int32_t dtype,
                      int64_t dest, int64_t tag, int32_t grid) {
  State* s = as_state(state);
  Layout l;
  if (!layout(s, "Send", count, block, levels, outer, dtype, l)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  const int d = static_cast<int>(dest), tg = static_cast<int>(tag);
  return guarded(
      s, [&] { return MPI_Send(buffer, l.count, l.type, d, tg, c); },
      [&](MPI_Request* q) { return MPI_Isend(buffer, l.count, l.type, d, tg, c, q); }, true,
      [&] { return peer_text("MPI_Send", "to", dest, tag, count); });
}

int32_t dace_mpi_recv(void* state, void* buffer, int64_t count, int64_t block, int32_t levels,
                      const int64_t* outer, int32_t dtype,
                      int64_t source, int64_t tag, int32_t grid) {
  State* s = as_state(state);
  Layout l;
  if (!layout(s, "Recv", count, block, levels, outer, dtype, l)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) return 0;
  const int src = static_cast<int>(source), tg = static_cast<int>(tag);
  return guarded(
      s, [&] { return MPI_Recv(buffer, l.count, l.type, src, tg, c, MPI_STATUS_IGNORE); },
      [&](MPI_Request* q) { return MPI_Irecv(buffer, l.count, l.type, src, tg, c, q); }, true,
      [&] { return peer_text("MPI_Recv", "from", source, tag, count); });
}

int32_t dace_mpi_isend(void* state, const void* buffer, int64_t count, int64_t block, int32_t levels,
                      const int64_t* outer, int32_t dtype,
                       int64_t dest, int64_t tag, int32_t grid, void* request) {
  State* s = as_state(state);
  Layout l;
  if (!layout(s, "Isend", count, block, levels, outer, dtype, l)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) {
    *request_slot(request) = MPI_REQUEST_NULL;
    return 0;
  }
  int rc = MPI_Isend(buffer, l.count, l.type, static_cast<int>(dest), static_cast<int>(tag), c, request_slot(request));
  return mpi_status(s, rc, [&] { return peer_text("MPI_Isend", "to", dest, tag, count); });
}

int32_t dace_mpi_irecv(void* state, void* buffer, int64_t count, int64_t block, int32_t levels,
                      const int64_t* outer, int32_t dtype,
                       int64_t source, int64_t tag, int32_t grid, void* request) {
  State* s = as_state(state);
  Layout l;
  if (!layout(s, "Irecv", count, block, levels, outer, dtype, l)) return -1;
  MPI_Comm c = grid_comm(s, grid);
  if (c == MPI_COMM_NULL) {
    *request_slot(request) = MPI_REQUEST_NULL;
    return 0;
  }
  int rc = MPI_Irecv(buffer, l.count, l.type, static_cast<int>(source), static_cast<int>(tag), c, request_slot(request));
  return mpi_status(s, rc, [&] { return peer_text("MPI_Irecv", "from", source, tag, count); });
}

int32_t dace_mpi_wait(void* state, void* request, int32_t* tag, int32_t* source) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "Wait: the program's MPI state is missing (init failed?)");
  MPI_Status st;
  st.MPI_TAG = MPI_ANY_TAG;
  st.MPI_SOURCE = MPI_ANY_SOURCE;
  int32_t rc = await(s, 1, request_slot(request), &st, true, "MPI_Wait");
  if (tag) *tag = st.MPI_TAG;
  if (source) *source = st.MPI_SOURCE;
  return rc;
}

int32_t dace_mpi_waitall(void* state, int64_t count, void* requests) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "Waitall: the program's MPI state is missing (init failed?)");
  if (!fits_int(count)) return fail(s, "Waitall: request count " + std::to_string(count));
  return await(s, static_cast<int>(count), request_slot(requests), nullptr, true,
               "MPI_Waitall of " + std::to_string(count) + " requests");
}

int32_t dace_mpi_block_scatter(void* state, const void* in, void* out, int64_t out_count, int32_t dtype,
                               int32_t subarray, int32_t scatter_grid, int32_t bcast_grid) {
  State* s = as_state(state);
  if (!check(s, "BlockScatter", out_count, dtype)) return -1;
  if (subarray < 0 || static_cast<size_t>(subarray) >= s->subarrays.size())
    return fail(s, "BlockScatter: unknown subarray type");
  const SubArray& a = s->subarrays[static_cast<size_t>(subarray)];
  const int n = static_cast<int>(out_count);
  const MPI_Datatype t = datatype(dtype);
  MPI_Comm c = grid_comm(s, scatter_grid);
  if (c != MPI_COMM_NULL) {
    int32_t rc = guarded(
        s, [&] { return MPI_Scatterv(in, a.counts.data(), a.displs.data(), a.type, out, n, t, 0, c); },
        [&](MPI_Request* q) { return MPI_Iscatterv(in, a.counts.data(), a.displs.data(), a.type, out, n, t, 0, c, q); },
        false, [] { return std::string("BlockScatter: MPI_Scatterv"); });
    if (rc != 0) return rc;
  }
  if (bcast_grid >= 0) {
    MPI_Comm b = grid_comm(s, bcast_grid);
    if (b != MPI_COMM_NULL)
      return guarded(
          s, [&] { return MPI_Bcast(out, n, t, 0, b); }, [&](MPI_Request* q) { return MPI_Ibcast(out, n, t, 0, b, q); },
          false, [] { return std::string("BlockScatter: MPI_Bcast"); });
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
  auto reduce = [&](const void* send, void* recv, int root) {
    return guarded(
        s, [&] { return MPI_Reduce(send, recv, n, t, MPI_SUM, root, r); },
        [&](MPI_Request* q) { return MPI_Ireduce(send, recv, n, t, MPI_SUM, root, r, q); }, false,
        [] { return std::string("BlockGather: MPI_Reduce"); });
  };
  if (g != MPI_COMM_NULL) {
    // The ranks of the gather grid first sum the partial blocks of their reduction grid
    // (they are its roots), then gather the blocks.
    if (r != MPI_COMM_NULL) {
      int root = 0;
      MPI_Comm_rank(r, &root);
      int32_t rc = reduce(MPI_IN_PLACE, in, root);
      if (rc != 0) return rc;
    }
    return guarded(
        s, [&] { return MPI_Gatherv(in, n, t, out, a.counts.data(), a.displs.data(), a.type, 0, g); },
        [&](MPI_Request* q) { return MPI_Igatherv(in, n, t, out, a.counts.data(), a.displs.data(), a.type, 0, g, q); },
        false, [] { return std::string("BlockGather: MPI_Gatherv"); });
  }
  if (r != MPI_COMM_NULL) return reduce(in, nullptr, 0);
  return 0;
}

}  // extern "C"
