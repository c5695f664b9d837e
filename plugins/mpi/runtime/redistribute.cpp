// DaCe's Redistribute (dace/libraries/mpi/nodes/redistribute.py, dace.distr_types.RedistrArray):
// an array block-distributed by one subarray descriptor (array_a: blocks of subshape over a
// process grid) is redistributed into the blocks of another (array_b). Every rank that holds
// a block of a sends each rank of b's grid the rectangle where their blocks overlap; every
// rank that holds a block of b receives its rectangles; overlaps with itself are copied.
// Local blocks are dense row-major arrays of the subarray's subshape.
#include <algorithm>
#include <cstring>

#include "internal.h"

using namespace dace_mpi;

namespace {

// Redistribute's messages carry their own tag, so that they never match a receive of the
// program's own Send/Recv nodes that is still pending on the same communicator (MPI
// guarantees tags up to 32767).
constexpr int kRedistributeTag = 32766;

struct Interval {
  int64_t lo = 0, hi = 0;  // global indices [lo, hi)
  int block = 0;           // the other distribution's block index along the dimension
};

// One side of the redistribution as this rank sees it.
struct Side {
  const SubArray* array = nullptr;
  const Grid* grid = nullptr;
  int grid_index = -1;
  // Per array dimension: the grid dimension it is cut over (-1: a grid dimension of extent 1
  // that no array dimension uses is coordinate 0).
  std::vector<int> dims_of_grid;
};

// The rank in the program communicator of the process at `coords` of grid `g`: grids are
// created without reordering (rank = row-major coordinates); a sub-grid's other parent
// coordinates are those of its exact_grid rank.
bool program_rank(const State* s, int g, const std::vector<int>& coords, int& rank, std::string& why) {
  const Grid& grid = s->grids[static_cast<size_t>(g)];
  if (grid.parent < 0) {
    int64_t r = 0;
    for (size_t d = 0; d < grid.dims.size(); ++d) r = r * grid.dims[d] + coords[d];
    rank = static_cast<int>(r);
    return true;
  }
  if (grid.exact_rank < 0) {
    why = "a sub-grid without exact_grid has several copies; Redistribute needs one (set exact_grid)";
    return false;
  }
  const Grid& parent = s->grids[static_cast<size_t>(grid.parent)];
  std::vector<int> pc(parent.dims.size(), 0);
  int64_t rest = grid.exact_rank;
  for (size_t d = parent.dims.size(); d-- > 0;) {
    pc[d] = static_cast<int>(rest % parent.dims[d]);
    rest /= parent.dims[d];
  }
  for (size_t d = 0, j = 0; d < pc.size() && d < grid.remain.size(); ++d)
    if (grid.remain[d]) pc[d] = coords[j++];
  return program_rank(s, grid.parent, pc, rank, why);
}

// Checks one side's descriptor against the other's and maps its dimensions to its grid.
bool describe(State* s, int32_t id, const char* name, size_t ndims, Side& out) {
  if (id < 0 || static_cast<size_t>(id) >= s->subarrays.size() || s->subarrays[static_cast<size_t>(id)].grid < 0) {
    fail(s, std::string("Redistribute: ") + name + " is not a subarray type of the program");
    return false;
  }
  out.array = &s->subarrays[static_cast<size_t>(id)];
  out.grid_index = out.array->grid;
  out.grid = &s->grids[static_cast<size_t>(out.grid_index)];
  const SubArray& a = *out.array;
  if (a.shape.size() != ndims || a.subshape.size() != ndims || a.correspondence.size() != ndims) {
    fail(s, std::string("Redistribute: ") + name + " has " + std::to_string(a.shape.size()) +
                " dimensions, the other subarray " + std::to_string(ndims));
    return false;
  }
  std::vector<int> users(out.grid->dims.size(), 0);
  for (size_t d = 0; d < ndims; ++d) {
    int c = a.correspondence[d];
    if (a.subshape[d] <= 0 || !fits_int(a.subshape[d]) || c < 0 || static_cast<size_t>(c) >= users.size()) {
      fail(s, std::string("Redistribute: ") + name + ": dimension " + std::to_string(d) + " has block " +
                  std::to_string(a.subshape[d]) + " over grid dimension " + std::to_string(c));
      return false;
    }
    ++users[static_cast<size_t>(c)];
  }
  for (size_t c = 0; c < users.size(); ++c)
    if (users[c] > 1 || (users[c] == 0 && out.grid->dims[c] != 1)) {
      fail(s, std::string("Redistribute: ") + name + ": grid dimension " + std::to_string(c) +
                  " must tile exactly one array dimension (replicated blocks are not supported)");
      return false;
    }
  out.dims_of_grid = a.correspondence;
  return true;
}

int64_t elements(const SubArray& a) {
  int64_t n = 1;
  for (int64_t b : a.subshape) n *= b;
  return n;
}

// The blocks of `other` that overlap this rank's block of `mine` along array dimension d,
// with the overlapping global interval (clipped to the array and to `other`'s grid).
std::vector<Interval> overlaps(const Side& mine, const Side& other, size_t d) {
  const int64_t n = mine.array->shape[d];
  const int64_t bm = mine.array->subshape[d], bo = other.array->subshape[d];
  const int coord = mine.grid->coords[static_cast<size_t>(mine.dims_of_grid[d])];
  const int extent = other.grid->dims[static_cast<size_t>(other.dims_of_grid[d])];
  const int64_t lo = coord * bm, hi = std::min(n, (coord + 1) * bm);
  std::vector<Interval> out;
  if (lo >= hi) return out;
  for (int64_t j = lo / bo; j <= (hi - 1) / bo && j < extent; ++j)
    out.push_back({std::max(lo, j * bo), std::min(hi, (j + 1) * bo), static_cast<int>(j)});
  return out;
}

// Calls `visit(rect)` for every combination of one overlap per dimension.
template <class Visit>
void each_rectangle(const std::vector<std::vector<Interval>>& per_dim, Visit visit) {
  for (const auto& v : per_dim)
    if (v.empty()) return;
  std::vector<size_t> at(per_dim.size(), 0);
  std::vector<Interval> rect(per_dim.size());
  for (;;) {
    for (size_t d = 0; d < per_dim.size(); ++d) rect[d] = per_dim[d][at[d]];
    visit(rect);
    size_t d = per_dim.size();
    while (d-- > 0) {
      if (++at[d] < per_dim[d].size()) break;
      at[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

// The grid coordinates (of `other`'s grid) of the blocks a rectangle names.
std::vector<int> coords_of(const Side& other, const std::vector<Interval>& rect) {
  std::vector<int> c(other.grid->dims.size(), 0);
  for (size_t d = 0; d < rect.size(); ++d) c[static_cast<size_t>(other.dims_of_grid[d])] = rect[d].block;
  return c;
}

// The rectangle as an MPI subarray type of a local block of `side`.
int rectangle_type(const Side& side, const std::vector<Interval>& rect, MPI_Datatype base, MPI_Datatype* out) {
  const size_t n = rect.size();
  std::vector<int> sizes(n), subsizes(n), starts(n);
  for (size_t d = 0; d < n; ++d) {
    const int64_t b = side.array->subshape[d];
    sizes[d] = static_cast<int>(b);
    subsizes[d] = static_cast<int>(rect[d].hi - rect[d].lo);
    starts[d] = static_cast<int>(rect[d].lo - side.grid->coords[static_cast<size_t>(side.dims_of_grid[d])] * b);
  }
  int rc = MPI_Type_create_subarray(static_cast<int>(n), sizes.data(), subsizes.data(), starts.data(), MPI_ORDER_C,
                                    base, out);
  return rc == MPI_SUCCESS ? MPI_Type_commit(out) : rc;
}

// Copies the rectangle from this rank's block of `from` to its block of `to`.
void copy_rectangle(const Side& from, const char* in, const Side& to, char* out, const std::vector<Interval>& rect,
                    size_t elem) {
  const size_t n = rect.size();
  std::vector<int64_t> in_stride(n), out_stride(n), in_at(n), out_at(n), size(n);
  int64_t si = 1, so = 1;
  for (size_t d = n; d-- > 0;) {
    in_stride[d] = si;
    out_stride[d] = so;
    si *= from.array->subshape[d];
    so *= to.array->subshape[d];
    in_at[d] = rect[d].lo - from.grid->coords[static_cast<size_t>(from.dims_of_grid[d])] * from.array->subshape[d];
    out_at[d] = rect[d].lo - to.grid->coords[static_cast<size_t>(to.dims_of_grid[d])] * to.array->subshape[d];
    size[d] = rect[d].hi - rect[d].lo;
  }
  // Rows of the innermost dimension, the outer dimensions counted by an odometer.
  std::vector<int64_t> idx(n, 0);
  for (;;) {
    int64_t i = 0, o = 0;
    for (size_t d = 0; d < n; ++d) {
      const int64_t k = (d + 1 == n ? 0 : idx[d]);
      i += (in_at[d] + k) * in_stride[d];
      o += (out_at[d] + k) * out_stride[d];
    }
    std::memcpy(out + o * static_cast<int64_t>(elem), in + i * static_cast<int64_t>(elem),
                static_cast<size_t>(size[n - 1]) * elem);
    size_t d = n - 1;
    while (d-- > 0) {
      if (++idx[d] < size[d]) break;
      idx[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

struct PendingTypes {
  std::vector<MPI_Datatype> types;
  ~PendingTypes() {
    for (MPI_Datatype& t : types) MPI_Type_free(&t);
  }
};

}  // namespace

extern "C" {

int32_t dace_mpi_redistribute(void* state, int32_t array_a, int32_t array_b, const void* in, int64_t in_count,
                              void* out, int64_t out_count, int32_t dtype) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "Redistribute: the program's MPI state is missing (init failed?)");
  const MPI_Datatype base = datatype(dtype);
  if (base == MPI_DATATYPE_NULL) return fail(s, "Redistribute: element type code " + std::to_string(dtype));
  if (array_a < 0 || static_cast<size_t>(array_a) >= s->subarrays.size())
    return fail(s, "Redistribute: array_a is not a subarray type of the program");
  Side a, b;
  const size_t ndims = s->subarrays[static_cast<size_t>(array_a)].shape.size();
  if (!describe(s, array_a, "array_a", ndims, a) || !describe(s, array_b, "array_b", ndims, b)) return -1;
  for (size_t d = 0; d < ndims; ++d)
    if (a.array->shape[d] != b.array->shape[d])
      return fail(s, "Redistribute: array_a and array_b describe arrays of different shapes (dimension " +
                         std::to_string(d) + ": " + std::to_string(a.array->shape[d]) + " and " +
                         std::to_string(b.array->shape[d]) + ")");
  const bool sends = a.grid->valid, receives = b.grid->valid;
  if (sends && in_count < elements(*a.array))
    return fail(s, "Redistribute: the input buffer has " + std::to_string(in_count) + " elements, a block of array_a " +
                       std::to_string(elements(*a.array)));
  if (receives && out_count < elements(*b.array))
    return fail(s, "Redistribute: the output buffer has " + std::to_string(out_count) +
                       " elements, a block of array_b " + std::to_string(elements(*b.array)));
  int elem = 0;
  MPI_Type_size(base, &elem);

  std::vector<MPI_Request> requests;
  PendingTypes types;
  std::string why;
  int rc = MPI_SUCCESS;
  std::string failed_op;
  auto post = [&](const Side& mine, const Side& other, bool send) {
    std::vector<std::vector<Interval>> per_dim;
    for (size_t d = 0; d < ndims; ++d) per_dim.push_back(overlaps(mine, other, d));
    each_rectangle(per_dim, [&](const std::vector<Interval>& rect) {
      if (rc != MPI_SUCCESS || !why.empty()) return;
      int peer = -1;
      if (!program_rank(s, other.grid_index, coords_of(other, rect), peer, why)) return;
      if (peer == s->rank) {
        // Copied once, by the receiving side.
        if (!send) copy_rectangle(other, static_cast<const char*>(in), mine, static_cast<char*>(out), rect,
                                  static_cast<size_t>(elem));
        return;
      }
      MPI_Datatype t = MPI_DATATYPE_NULL;
      rc = rectangle_type(mine, rect, base, &t);
      if (rc != MPI_SUCCESS) {
        failed_op = "MPI_Type_create_subarray";
        return;
      }
      types.types.push_back(t);
      requests.push_back(MPI_REQUEST_NULL);
      rc = send ? MPI_Isend(in, 1, t, peer, kRedistributeTag, s->comm, &requests.back())
                : MPI_Irecv(out, 1, t, peer, kRedistributeTag, s->comm, &requests.back());
      if (rc != MPI_SUCCESS) failed_op = std::string(send ? "MPI_Isend to rank " : "MPI_Irecv from rank ") +
                                         std::to_string(peer);
    });
  };
  if (receives) post(b, a, false);
  if (sends) post(a, b, true);
  if (!why.empty()) {
    // Nothing was posted that could complete wrongly: the sides are described the same way on
    // every rank, so every rank fails here.
    return fail(s, "Redistribute: " + why);
  }
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, "Redistribute: " + failed_op);  // posted ones stay pending
  return await(s, static_cast<int>(requests.size()), requests.data(), nullptr, true,
               "Redistribute: " + std::to_string(requests.size()) + " messages");
}

}  // extern "C"
