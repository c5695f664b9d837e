// dace_cpu_parallel_for_nd: a collapsed N-D map on top of the 1-D scheduler.
//
// A piece [a, b) of the row-major linearized box is cut into rectangular sub-boxes: the
// partial row at the start, whole rows in the middle, the partial row at the end,
// recursively per dimension. The body then runs ordinary nested loops.
#include <cstdint>

#include "dace_cpu_runtime.h"

namespace {

struct Box {
  dace_cpu_box_fn body;
  void* closure;
  int nd;
  int64_t begin[DACE_CPU_MAX_DIMS];
  uint64_t extent[DACE_CPU_MAX_DIMS];
  uint64_t stride[DACE_CPU_MAX_DIMS];  // points per index of dimension d (row-major)
};

int64_t at(const Box& box, int d, uint64_t offset) {
  return static_cast<int64_t>(static_cast<uint64_t>(box.begin[d]) + offset);
}

// Emits the box with dimension `dim` spanning [from, to) and every later dimension full.
void emit_rows(const Box& box, int dim, uint64_t from, uint64_t to, int64_t* lo, int64_t* hi) {
  lo[dim] = at(box, dim, from);
  hi[dim] = at(box, dim, to);
  for (int d = dim + 1; d < box.nd; ++d) {
    lo[d] = box.begin[d];
    hi[d] = at(box, d, box.extent[d]);
  }
  box.body(box.closure, lo, hi);
}

// Covers the offsets [a, b) (0 <= a < b <= extent[dim] * stride[dim]) of the sub-space of
// dimensions dim.., with lo/hi of the earlier dimensions already fixed by the caller.
void emit(const Box& box, int dim, uint64_t a, uint64_t b, int64_t* lo, int64_t* hi) {
  uint64_t s = box.stride[dim];
  uint64_t ia = a / s, ra = a % s, ib = b / s, rb = b % s;
  if (ia == ib) {  // inside one index of this dimension
    lo[dim] = at(box, dim, ia);
    hi[dim] = at(box, dim, ia + 1);
    emit(box, dim + 1, ra, rb, lo, hi);
    return;
  }
  if (ra != 0) {  // the partial row at the start
    lo[dim] = at(box, dim, ia);
    hi[dim] = at(box, dim, ia + 1);
    emit(box, dim + 1, ra, s, lo, hi);
    ++ia;
  }
  if (ia < ib) emit_rows(box, dim, ia, ib, lo, hi);
  if (rb != 0) {  // the partial row at the end
    lo[dim] = at(box, dim, ib);
    hi[dim] = at(box, dim, ib + 1);
    emit(box, dim + 1, 0, rb, lo, hi);
  }
}

void run_piece(void* closure, int64_t a, int64_t b) {
  const Box& box = *static_cast<const Box*>(closure);
  int64_t lo[DACE_CPU_MAX_DIMS];
  int64_t hi[DACE_CPU_MAX_DIMS];
  emit(box, 0, static_cast<uint64_t>(a), static_cast<uint64_t>(b), lo, hi);
}

}  // namespace

extern "C" int32_t dace_cpu_parallel_for_nd(dace_cpu_box_fn body, void* closure, int32_t ndims,
                                            const int64_t* begin, const int64_t* end,
                                            int64_t chunk, int32_t schedule,
                                            int32_t num_threads) {
  if (body == nullptr || begin == nullptr || end == nullptr || ndims < 1 ||
      ndims > DACE_CPU_MAX_DIMS)
    return DACE_CPU_EINVAL;
  Box box{body, closure, ndims, {}, {}, {}};
  for (int d = 0; d < ndims; ++d) {
    if (end[d] <= begin[d]) return DACE_CPU_OK;  // empty box
    box.begin[d] = begin[d];
    box.extent[d] = static_cast<uint64_t>(end[d]) - static_cast<uint64_t>(begin[d]);
  }
  uint64_t total = 1;
  for (int d = ndims - 1; d >= 0; --d) {
    box.stride[d] = total;
    if (__builtin_mul_overflow(total, box.extent[d], &total) ||
        total > static_cast<uint64_t>(INT64_MAX))
      return DACE_CPU_ERANGE;
  }
  // At the last dimension the stride is 1, so the recursion in emit() always ends there.
  dace_cpu_parallel_for(run_piece, &box, 0, static_cast<int64_t>(total), chunk, schedule,
                        num_threads);
  return DACE_CPU_OK;
}
