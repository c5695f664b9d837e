// Strided buffer layouts (read_strides) and the contiguous copies of strided collective
// buffers (dace_mpi_stage / dace_mpi_unstage).
#include <cstring>

#include "internal.h"

using namespace dace_mpi;

namespace {

// The element size of `dtype` and the layout; false (recorded) when either is invalid.
bool staging_layout(State* s, const char* what, int32_t slot, int64_t count, int64_t block, int32_t levels,
                    const int64_t* outer, int32_t dtype, size_t& elem, Strides& st) {
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
  elem = static_cast<size_t>(size);
  return read_strides(s, what, count, block, levels, outer, st);
}

// Calls copy(element offset of the block in the strided buffer, its index among the blocks)
// for every contiguous block, in row-major order of the outer dimensions.
template <class Copy>
void each_block(const Strides& st, Copy copy) {
  std::vector<int64_t> at(st.outer.size(), 0);
  for (int64_t n = 0;; ++n) {
    int64_t offset = 0;
    for (size_t d = 0; d < at.size(); ++d) offset += at[d] * st.outer[d].stride;
    copy(offset, n);
    size_t d = at.size();
    while (d-- > 0) {
      if (++at[d] < st.outer[d].size) break;
      at[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

}  // namespace

namespace dace_mpi {

bool read_strides(State* s, const char* what, int64_t count, int64_t block, int32_t levels, const int64_t* outer,
                  Strides& out) {
  out.block = block;
  out.outer.clear();
  int64_t total = block;
  bool ok = block > 0 && levels >= 0 && (levels == 0 || outer);
  for (int32_t i = 0; ok && i < levels; ++i) {
    const int64_t size = outer[2 * i], stride = outer[2 * i + 1];
    ok = size > 0 && stride > 0 && fits_int(size) && fits_int(stride);
    out.outer.push_back({size, stride});
    total *= size;
  }
  if ((ok && total == count) || (count == 0 && levels == 0)) return true;
  std::string text = std::string(what) + ": " + std::to_string(count) + " elements in blocks of " + std::to_string(block);
  for (const Strides::Level& l : out.outer)
    text += " x " + std::to_string(l.size) + " (stride " + std::to_string(l.stride) + ")";
  fail(s, text + " is no strided layout");
  return false;
}

}  // namespace dace_mpi

extern "C" {

int32_t dace_mpi_stage(void* state, int32_t slot, const void* buffer, int64_t count, int64_t block, int32_t levels,
                       const int64_t* outer, int32_t dtype, void** staged) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "staging a strided buffer: no program state");
  size_t elem = 0;
  Strides st;
  if (!staging_layout(s, "staging a strided buffer", slot, count, block, levels, outer, dtype, elem, st)) return -1;
  std::vector<char>& copy = s->staging[slot];
  copy.resize(static_cast<size_t>(count) * elem + 1);  // never empty: data() is a valid pointer
  const char* from = static_cast<const char*>(buffer);
  const size_t run = static_cast<size_t>(block) * elem;
  if (count > 0)
    each_block(st, [&](int64_t offset, int64_t n) {
      std::memcpy(copy.data() + static_cast<size_t>(n) * run, from + static_cast<size_t>(offset) * elem, run);
    });
  *staged = copy.data();
  return 0;
}

int32_t dace_mpi_unstage(void* state, int32_t slot, void* buffer, int64_t count, int64_t block, int32_t levels,
                         const int64_t* outer, int32_t dtype) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "unstaging a strided buffer: no program state");
  size_t elem = 0;
  Strides st;
  if (!staging_layout(s, "unstaging a strided buffer", slot, count, block, levels, outer, dtype, elem, st)) return -1;
  const std::vector<char>& copy = s->staging[slot];
  if (copy.size() < static_cast<size_t>(count) * elem) return fail(s, "unstaging a strided buffer: the slot is smaller");
  char* to = static_cast<char*>(buffer);
  const size_t run = static_cast<size_t>(block) * elem;
  if (count > 0)
    each_block(st, [&](int64_t offset, int64_t n) {
      std::memcpy(to + static_cast<size_t>(offset) * elem, copy.data() + static_cast<size_t>(n) * run, run);
    });
  return 0;
}

}  // extern "C"
