// Contiguous copies of strided collective buffers (dace_mpi_stage / dace_mpi_unstage).
#include <cstring>

#include "internal.h"

using namespace dace_mpi;

namespace {

// The element size of `dtype` and whether the layout is one of `count` elements in blocks of
// `block`, `stride` apart; false (recorded) otherwise.
bool staging_layout(State* s, const char* what, int32_t slot, int64_t count, int64_t block, int64_t stride,
                    int32_t dtype, size_t& elem) {
  if (slot < 0 || slot > 1) {
    fail(s, std::string(what) + ": no staging slot " + std::to_string(slot));
    return false;
  }
  MPI_Datatype t = datatype(dtype);
  int size = 0;
  if (t == MPI_DATATYPE_NULL || MPI_Type_size(t, &size) != MPI_SUCCESS || size <= 0) {
    fail(s, std::string(what) + ": unknown element type code " + std::to_string(dtype));
    return false;
  }
  if (count < 0 || block <= 0 || count % block != 0 || stride < block) {
    fail(s, std::string(what) + ": " + std::to_string(count) + " elements in blocks of " + std::to_string(block) +
                " every " + std::to_string(stride) + " elements is no vector layout");
    return false;
  }
  elem = static_cast<size_t>(size);
  return true;
}

}  // namespace

extern "C" {

int32_t dace_mpi_stage(void* state, int32_t slot, const void* buffer, int64_t count, int64_t block, int64_t stride,
                       int32_t dtype, void** staged) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "staging a strided buffer: no program state");
  size_t elem = 0;
  if (!staging_layout(s, "staging a strided buffer", slot, count, block, stride, dtype, elem)) return -1;
  std::vector<char>& copy = s->staging[slot];
  copy.resize(static_cast<size_t>(count) * elem + 1);  // never empty: data() is a valid pointer
  const char* from = static_cast<const char*>(buffer);
  const size_t run = static_cast<size_t>(block) * elem;
  for (int64_t b = 0; b < count / block; ++b)
    std::memcpy(copy.data() + static_cast<size_t>(b) * run, from + static_cast<size_t>(b * stride) * elem, run);
  *staged = copy.data();
  return 0;
}

int32_t dace_mpi_unstage(void* state, int32_t slot, void* buffer, int64_t count, int64_t block, int64_t stride,
                         int32_t dtype) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "unstaging a strided buffer: no program state");
  size_t elem = 0;
  if (!staging_layout(s, "unstaging a strided buffer", slot, count, block, stride, dtype, elem)) return -1;
  const std::vector<char>& copy = s->staging[slot];
  if (copy.size() < static_cast<size_t>(count) * elem) return fail(s, "unstaging a strided buffer: the slot is smaller");
  char* to = static_cast<char*>(buffer);
  const size_t run = static_cast<size_t>(block) * elem;
  for (int64_t b = 0; b < count / block; ++b)
    std::memcpy(to + static_cast<size_t>(b * stride) * elem, copy.data() + static_cast<size_t>(b) * run, run);
  return 0;
}

}  // extern "C"
