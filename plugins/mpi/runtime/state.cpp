// Program state: MPI initialisation, the duplicated host communicator, process grids and
// subarray types (DaCe's ProcessGrid / SubArray semantics, dace/distr_types.py).
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>

#include "internal.h"

namespace dace_mpi {

namespace {

thread_local const void* host_comm = nullptr;
bool initialised_here = false;

// The last failure without a state (or before one existed), and the messages handed to
// generated code: kept for the life of the process, since the host reads them after the call
// that failed returned (failures are rare: a few strings).
std::mutex messages_mutex;
std::string last_failure;
std::deque<std::string> handed_out;

void finalize_if_ours() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initialised_here && !finalized) MPI_Finalize();
}

bool ensure_mpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return true;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return false;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) return false;
  initialised_here = true;
  std::atexit(finalize_if_ours);
  return true;
}

void fill_grid(Grid& g, int ndims) {
  MPI_Comm_set_errhandler(g.comm, MPI_ERRORS_RETURN);
  MPI_Comm_group(g.comm, &g.group);
  MPI_Comm_rank(g.comm, &g.rank);
  MPI_Comm_size(g.comm, &g.size);
  g.coords.assign(static_cast<size_t>(ndims), 0);
  if (ndims > 0) MPI_Cart_coords(g.comm, g.rank, ndims, g.coords.data());
}

}  // namespace

int32_t fail(State* s, const std::string& what) {
  if (s) {
    s->error = what;
    return -1;
  }
  int rank = -1, init = 0, finalized = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&finalized);
  if (init && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  {
    std::lock_guard<std::mutex> lock(messages_mutex);
    last_failure = what;
  }
  std::fprintf(stderr, "dace mpi (rank %d): %s\n", rank, what.c_str());
  std::fflush(stderr);
  return -1;
}

bool fits_int(int64_t v) { return v >= 0 && v <= INT32_MAX; }

MPI_Datatype datatype(int32_t code) {
  switch (code) {
    case DACE_MPI_BOOL: return MPI_C_BOOL;
    case DACE_MPI_INT8: return MPI_INT8_T;
    case DACE_MPI_INT16: return MPI_INT16_T;
    case DACE_MPI_INT32: return MPI_INT32_T;
    case DACE_MPI_INT64: return MPI_INT64_T;
    case DACE_MPI_UINT8: return MPI_UINT8_T;
    case DACE_MPI_UINT16: return MPI_UINT16_T;
    case DACE_MPI_UINT32: return MPI_UINT32_T;
    case DACE_MPI_UINT64: return MPI_UINT64_T;
    case DACE_MPI_FLOAT32: return MPI_FLOAT;
    case DACE_MPI_FLOAT64: return MPI_DOUBLE;
    case DACE_MPI_COMPLEX64: return MPI_C_FLOAT_COMPLEX;
    case DACE_MPI_COMPLEX128: return MPI_C_DOUBLE_COMPLEX;
    default: return MPI_DATATYPE_NULL;
  }
}

MPI_Op op(int32_t code) {
  switch (code) {
    case DACE_MPI_SUM: return MPI_SUM;
    case DACE_MPI_PROD: return MPI_PROD;
    case DACE_MPI_MIN: return MPI_MIN;
    case DACE_MPI_MAX: return MPI_MAX;
    case DACE_MPI_LAND: return MPI_LAND;
    case DACE_MPI_LOR: return MPI_LOR;
    case DACE_MPI_LXOR: return MPI_LXOR;
    case DACE_MPI_BAND: return MPI_BAND;
    case DACE_MPI_BOR: return MPI_BOR;
    case DACE_MPI_BXOR: return MPI_BXOR;
    default: return MPI_OP_NULL;
  }
}

MPI_Comm grid_comm(const State* s, int32_t g) {
  if (g < 0) return s->comm;
  if (static_cast<size_t>(g) >= s->grids.size() || !s->grids[static_cast<size_t>(g)].valid) return MPI_COMM_NULL;
  return s->grids[static_cast<size_t>(g)].comm;
}

}  // namespace dace_mpi

using namespace dace_mpi;

extern "C" {

void dace_mpi_set_host_comm(const void* comm) { host_comm = comm; }

const char* dace_mpi_error_message(void* state, const char* where) {
  State* s = as_state(state);
  std::lock_guard<std::mutex> lock(messages_mutex);
  std::string cause = s && !s->error.empty() ? s->error : last_failure;
  if (cause.empty()) cause = "the MPI runtime failed";
  std::string rank = s ? "rank " + std::to_string(s->rank) + ": " : "";
  handed_out.push_back(std::string(where ? where : "") + ": " + rank + cause);
  return handed_out.back().c_str();
}

void* dace_mpi_state_create(int32_t grids, int32_t subarrays) {
  if (grids < 0 || subarrays < 0) return nullptr;
  if (!ensure_mpi()) {
    fail(nullptr, "MPI could not be initialised (or was finalised already)");
    return nullptr;
  }
  double timeout = 0;
  std::string bad_timeout;
  if (!timeout_from_environment(timeout, bad_timeout)) {
    fail(nullptr, bad_timeout);
    return nullptr;
  }
  MPI_Comm base = host_comm ? *static_cast<const MPI_Comm*>(host_comm) : MPI_COMM_WORLD;
  auto* s = new State();
  s->timeout = timeout;
  if (base == MPI_COMM_NULL || MPI_Comm_dup(base, &s->comm) != MPI_SUCCESS) {
    fail(nullptr, "the host communicator cannot be duplicated");
    delete s;
    return nullptr;
  }
  // MPI errors on the program's communicators (and those made from them) return codes,
  // which become the failing node's status, instead of aborting every rank.
  MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(s->comm, &s->rank);
  MPI_Comm_size(s->comm, &s->size);
  s->grids.resize(static_cast<size_t>(grids));
  s->subarrays.resize(static_cast<size_t>(subarrays));
  return s;
}

int32_t dace_mpi_state_destroy(void* state) {
  State* s = as_state(state);
  if (!s) return 0;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) {
    blacs_release(s);
    for (SubArray& a : s->subarrays)
      if (a.type != MPI_DATATYPE_NULL) MPI_Type_free(&a.type);
    // Sub-grids before their parents.
    for (size_t i = s->grids.size(); i-- > 0;) {
      Grid& g = s->grids[i];
      if (g.group != MPI_GROUP_NULL) MPI_Group_free(&g.group);
      if (g.comm != MPI_COMM_NULL) MPI_Comm_free(&g.comm);
    }
    if (s->comm != MPI_COMM_NULL) MPI_Comm_free(&s->comm);
  }
  delete s;
  return 0;
}

int32_t dace_mpi_cart_create(void* state, int32_t grid, int32_t ndims, const int64_t* dims) {
  State* s = as_state(state);
  if (!s || grid < 0 || static_cast<size_t>(grid) >= s->grids.size() || ndims <= 0)
    return fail(s, "invalid process grid");
  Grid& g = s->grids[static_cast<size_t>(grid)];
  int64_t points = 1;
  g.dims.clear();
  for (int32_t i = 0; i < ndims; ++i) {
    if (!fits_int(dims[i]) || dims[i] == 0) return fail(s, "process grid dimension " + std::to_string(dims[i]));
    g.dims.push_back(static_cast<int>(dims[i]));
    points *= dims[i];
  }
  int size = 0;
  MPI_Comm_size(s->comm, &size);
  if (points > size)
    return fail(s, "a process grid of " + std::to_string(points) + " processes needs at least that many ranks, the "
                                                                 "communicator has " + std::to_string(size));
  std::vector<int> periods(static_cast<size_t>(ndims), 0);
  int rc = MPI_Cart_create(s->comm, ndims, g.dims.data(), periods.data(), 0, &g.comm);
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, "MPI_Cart_create");
  if (g.comm != MPI_COMM_NULL) {
    fill_grid(g, ndims);
    g.valid = true;
  }
  return 0;
}

int32_t dace_mpi_cart_sub(void* state, int32_t grid, int32_t parent, int32_t parent_ndims, const int32_t* remain,
                          int64_t exact_rank) {
  State* s = as_state(state);
  if (!s || grid < 0 || parent < 0 || static_cast<size_t>(grid) >= s->grids.size() ||
      static_cast<size_t>(parent) >= s->grids.size() || parent_ndims <= 0)
    return fail(s, "invalid sub-grid");
  Grid& g = s->grids[static_cast<size_t>(grid)];
  const Grid& p = s->grids[static_cast<size_t>(parent)];
  g.valid = false;
  g.dims.clear();
  g.parent = parent;
  g.exact_rank = exact_rank;
  std::vector<int> keep(static_cast<size_t>(parent_ndims));
  for (int32_t i = 0; i < parent_ndims; ++i) {
    keep[static_cast<size_t>(i)] = remain[i] ? 1 : 0;
    if (remain[i] && static_cast<size_t>(i) < p.dims.size()) g.dims.push_back(p.dims[static_cast<size_t>(i)]);
  }
  g.remain = keep;
  if (!p.valid) return 0;
  int rc = MPI_Cart_sub(p.comm, keep.data(), &g.comm);
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, "MPI_Cart_sub");
  fill_grid(g, static_cast<int>(g.dims.size()));
  if (exact_rank < 0) {
    g.valid = true;
    return 0;
  }
  int from = static_cast<int>(exact_rank), to = MPI_UNDEFINED;
  rc = MPI_Group_translate_ranks(p.group, 1, &from, g.group, &to);
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, "MPI_Group_translate_ranks");
  g.valid = to != MPI_UNDEFINED && to != MPI_PROC_NULL;
  return 0;
}

int32_t dace_mpi_subarray_create(void* state, int32_t id, int32_t grid, int32_t dtype, int32_t ndims,
                                 const int64_t* shape, const int64_t* subshape, const int32_t* correspondence) {
  State* s = as_state(state);
  if (!s || id < 0 || static_cast<size_t>(id) >= s->subarrays.size() || grid < 0 ||
      static_cast<size_t>(grid) >= s->grids.size() || ndims <= 0)
    return fail(s, "invalid subarray type");
  const Grid& g = s->grids[static_cast<size_t>(grid)];
  SubArray& spec = s->subarrays[static_cast<size_t>(id)];
  spec.grid = grid;
  spec.shape.assign(shape, shape + ndims);
  spec.subshape.assign(subshape, subshape + ndims);
  spec.correspondence.assign(correspondence, correspondence + ndims);
  if (!g.valid) return 0;  // DaCe creates the type only where its grid is valid
  MPI_Datatype base = datatype(dtype);
  if (base == MPI_DATATYPE_NULL) return fail(s, "subarray element type code " + std::to_string(dtype));
  std::vector<int> sizes, subsizes, extents;
  for (int32_t i = 0; i < ndims; ++i) {
    if (!fits_int(shape[i]) || !fits_int(subshape[i]) || subshape[i] == 0 || subshape[i] > shape[i])
      return fail(s, "subarray block " + std::to_string(subshape[i]) + " of dimension " + std::to_string(shape[i]));
    int c = correspondence[i];
    if (c < 0 || static_cast<size_t>(c) >= g.dims.size()) return fail(s, "subarray correspondence out of the grid");
    sizes.push_back(static_cast<int>(shape[i]));
    subsizes.push_back(static_cast<int>(subshape[i]));
    extents.push_back(g.dims[static_cast<size_t>(c)]);
  }
  int elem = 0;
  MPI_Type_size(base, &elem);
  // The block type, resized so that displacements count in units of one block row
  // (subshape[last] elements): every block start is a multiple of it.
  const int unit = subsizes.back();
  std::vector<int> origin(static_cast<size_t>(ndims), 0);
  MPI_Datatype block = MPI_DATATYPE_NULL;
  SubArray& a = s->subarrays[static_cast<size_t>(id)];
  int rc = MPI_Type_create_subarray(ndims, sizes.data(), subsizes.data(), origin.data(), MPI_ORDER_C, base, &block);
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, "MPI_Type_create_subarray");
  rc = MPI_Type_create_resized(block, 0, static_cast<MPI_Aint>(unit) * elem, &a.type);
  MPI_Type_free(&block);
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, "MPI_Type_create_resized");
  MPI_Type_commit(&a.type);
  // Rank i of the grid gets the block whose index is i unravelled row-major over the grid
  // extents of the array's dimensions (DaCe's enumeration); its start in elements is
  // sum_d block_d * subshape_d * (product of the array's later dimensions).
  a.counts.assign(static_cast<size_t>(g.size), 1);
  a.displs.assign(static_cast<size_t>(g.size), 0);
  for (int r = 0; r < g.size; ++r) {
    int64_t rest = r, start = 0, row = 1;
    for (int32_t d = ndims - 1; d >= 0; --d) {
      int64_t b = rest % extents[static_cast<size_t>(d)];
      rest /= extents[static_cast<size_t>(d)];
      start += b * subsizes[static_cast<size_t>(d)] * row;
      row *= sizes[static_cast<size_t>(d)];
    }
    a.displs[static_cast<size_t>(r)] = static_cast<int>(start / unit);
  }
  return 0;
}

}  // extern "C"
