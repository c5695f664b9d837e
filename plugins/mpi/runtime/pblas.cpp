// PBLAS through ScaLAPACK (reference, libscalapack-openmpi): the BLACS grid of the program
// state and DaCe's Pgemm. ScaLAPACK ships no header: its C and Fortran entry points are
// resolved with dlsym from the vendor library the plugin declared (loaded by libdace's
// plugin loader; dlopen here only finds it again).
#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "internal.h"

#ifndef DACE_MPI_SCALAPACK_LIB
#define DACE_MPI_SCALAPACK_LIB "libscalapack-openmpi.so.2.2"
#endif

namespace dace_mpi {

namespace {

struct ScaLapack {
  int (*sys2blacs)(MPI_Comm) = nullptr;
  void (*gridinit)(int*, const char*, int, int) = nullptr;
  void (*gridinfo)(int, int*, int*, int*, int*) = nullptr;
  void (*gridexit)(int) = nullptr;
  void (*free_handle)(int) = nullptr;
  int (*numroc)(const int*, const int*, const int*, const int*, const int*) = nullptr;
  void (*descinit)(int*, const int*, const int*, const int*, const int*, const int*, const int*, const int*,
                   const int*, int*) = nullptr;
  using Gemm = void (*)(const char*, const char*, const int*, const int*, const int*, const void*, const void*,
                        const int*, const int*, const int*, const void*, const int*, const int*, const int*,
                        const void*, void*, const int*, const int*, const int*);
  Gemm gemm[4] = {nullptr, nullptr, nullptr, nullptr};  // s, d, c, z
  using Gemv = void (*)(const char*, const int*, const int*, const void*, const void*, const int*, const int*,
                        const int*, const void*, const int*, const int*, const int*, const int*, const void*, void*,
                        const int*, const int*, const int*, const int*);
  Gemv gemv[4] = {nullptr, nullptr, nullptr, nullptr};
  using Geadd = void (*)(const char*, const int*, const int*, const void*, const void*, const int*, const int*,
                         const int*, const void*, void*, const int*, const int*, const int*);
  Geadd geadd[4] = {nullptr, nullptr, nullptr, nullptr};
  std::string error;
};

template <class F>
void bind(void* lib, const char* name, F& out, std::string& error) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  if (!out && error.empty()) error = std::string("symbol ") + name + " not found in " DACE_MPI_SCALAPACK_LIB;
}

const ScaLapack& scalapack() {
  static ScaLapack s;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen(DACE_MPI_SCALAPACK_LIB, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!lib) {
      const char* e = dlerror();
      s.error = std::string(DACE_MPI_SCALAPACK_LIB " cannot be loaded: ") + (e ? e : "unknown error");
      return;
    }
    bind(lib, "Csys2blacs_handle", s.sys2blacs, s.error);
    bind(lib, "Cblacs_gridinit", s.gridinit, s.error);
    bind(lib, "Cblacs_gridinfo", s.gridinfo, s.error);
    bind(lib, "Cblacs_gridexit", s.gridexit, s.error);
    bind(lib, "Cfree_blacs_system_handle", s.free_handle, s.error);
    bind(lib, "numroc_", s.numroc, s.error);
    bind(lib, "descinit_", s.descinit, s.error);
    const char* gemms[4] = {"psgemm_", "pdgemm_", "pcgemm_", "pzgemm_"};
    for (int i = 0; i < 4; ++i) bind(lib, gemms[i], s.gemm[i], s.error);
    const char* gemvs[4] = {"psgemv_", "pdgemv_", "pcgemv_", "pzgemv_"};
    for (int i = 0; i < 4; ++i) bind(lib, gemvs[i], s.gemv[i], s.error);
    const char* geadds[4] = {"psgeadd_", "pdgeadd_", "pcgeadd_", "pzgeadd_"};
    for (int i = 0; i < 4; ++i) bind(lib, geadds[i], s.geadd[i], s.error);
  });
  return s;
}

// s, d, c, z: the index of the p?gemm / p?gemv entry points; -1 for other types.
int blas_index(int32_t dtype) {
  switch (dtype) {
    case DACE_MPI_FLOAT32: return 0;
    case DACE_MPI_FLOAT64: return 1;
    case DACE_MPI_COMPLEX64: return 2;
    case DACE_MPI_COMPLEX128: return 3;
    default: return -1;
  }
}

// The scalar 1 in the element type of BLAS index `which` (complex: imaginary part 0); the
// zero-initialised buffer is 0.
void set_one(int which, unsigned char* out) {
  if (which == 0 || which == 2) {
    const float f = 1.0f;
    std::memcpy(out, &f, sizeof f);
  } else {
    const double d = 1.0;
    std::memcpy(out, &d, sizeof d);
  }
}

// One operand of a collective PBLAS call, row-major as the program sees it: a rows x cols
// matrix (a vector: 1 x length) cut into brows x bcols blocks over the BLACS grid, or held
// whole by grid process (0, 0) (`whole`: blocks of the whole matrix), and the elements this
// rank's buffer holds.
struct Operand {
  const char* conn;
  int64_t rows, cols, brows, bcols;
  bool whole, vector;
  int64_t held;
};

// The elements of `op` that ScaLAPACK reads or writes on this grid process: the local part of
// the column-major transpose (cols x rows in bcols x brows blocks), numroc(cols) * numroc(rows).
// More blocks land on some processes when a block size does not divide the matrix evenly
// over the grid; a whole matrix is on process (0, 0) only.
int64_t local_elements(const State* s, const Operand& op) {
  const ScaLapack& lib = scalapack();
  const int rows = static_cast<int>(op.cols), cols = static_cast<int>(op.rows);
  const int brows = static_cast<int>(op.bcols), bcols = static_cast<int>(op.brows);
  const int zero = 0;
  const int64_t local_rows = lib.numroc(&rows, &brows, &s->myprow, &zero, &s->prows);
  const int64_t local_cols = lib.numroc(&cols, &bcols, &s->mypcol, &zero, &s->pcols);
  return local_rows * local_cols;
}

// What a rank found: nothing (kind 0), a size that is not a positive int (kind -1, `need`
// the size), or operand kind - 1 short of elements (needed, held).
struct Verdict {
  int64_t kind = 0, need = 0, held = 0;
};

Verdict examine(const State* s, const std::vector<Operand>& ops) {
  for (const Operand& op : ops)
    for (int64_t v : {op.rows, op.cols, op.brows, op.bcols})
      if (!fits_int(v) || v <= 0) return {-1, v, 0};
  if (s->myprow < 0) return {};  // outside the BLACS grid: holds nothing
  for (size_t i = 0; i < ops.size(); ++i) {
    const int64_t need = local_elements(s, ops[i]);
    if (need > ops[i].held) return {static_cast<int64_t>(i) + 1, need, ops[i].held};
  }
  return {};
}

std::string describe_shortfall(const char* what, const Operand& op, int rank, const Verdict& v, const char* undone) {
  const std::string shape = op.vector ? "vector of " + std::to_string(op.cols) + " elements"
                                      : std::to_string(op.rows) + " x " + std::to_string(op.cols) + " matrix";
  const std::string tail = ", which has " + std::to_string(v.held) + " (nothing was " + undone + ")";
  if (op.whole)
    return std::string(what) + ": the whole " + shape + " needs " + std::to_string(v.need) + " elements of " +
           op.conn + " on rank " + std::to_string(rank) + tail;
  const std::string blocks = op.vector ? std::to_string(op.bcols) + " elements"
                                       : std::to_string(op.brows) + " x " + std::to_string(op.bcols);
  return std::string(what) + ": the blocks of " + blocks + " of the " + shape + " that rank " + std::to_string(rank) +
         " holds need " + std::to_string(v.need) + " elements of " + op.conn + tail;
}

// Before a collective PBLAS call (p?geadd, p?gemm, p?gemv), the ranks agree that every
// operand fits: ScaLAPACK writes and reads past a buffer smaller than its local part, and a
// rank that failed alone would leave the others waiting inside ScaLAPACK. One small
// MPI_Allgather over the program's communicator (ranks outside the BLACS grid included, so
// every rank takes the same branch); then every rank fails, naming the first rank with a bad
// size or an operand short of elements, or every rank goes on. `undone` ends the message
// ("copied", "computed").
int32_t agree_operands_fit(State* s, const char* what, const char* undone, const std::vector<Operand>& ops) {
  const Verdict v = examine(s, ops);
  int64_t mine[3] = {v.kind, v.need, v.held};
  std::vector<int64_t> all(3 * static_cast<size_t>(s->size));
  const std::string gather = std::string(what) + ": MPI_Allgather of the buffer sizes";
  int rc = MPI_SUCCESS;
  if (s->timeout <= 0) {
    rc = MPI_Allgather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, s->comm);
  } else {
    MPI_Request request = MPI_REQUEST_NULL;
    rc = MPI_Iallgather(mine, 3, MPI_INT64_T, all.data(), 3, MPI_INT64_T, s->comm, &request);
    if (rc == MPI_SUCCESS)
      if (int32_t st = await(s, 1, &request, nullptr, false, gather)) return st;
  }
  if (rc != MPI_SUCCESS) return mpi_failure(s, rc, gather);
  for (int r = 0; r < s->size; ++r) {
    const Verdict theirs{all[3 * static_cast<size_t>(r)], all[3 * static_cast<size_t>(r) + 1],
                         all[3 * static_cast<size_t>(r) + 2]};
    if (theirs.kind == 0) continue;
    if (theirs.kind < 0 || theirs.kind > static_cast<int64_t>(ops.size()))
      return fail(s, std::string(what) + ": size " + std::to_string(theirs.need) + " on rank " + std::to_string(r) +
                         " (nothing was " + undone + ")");
    return fail(s, describe_shortfall(what, ops[static_cast<size_t>(theirs.kind - 1)], r, theirs, undone));
  }
  return 0;
}

// The two descriptors of a block-cyclic scatter or gather of a row-major rows x cols matrix
// (see dace_mpi_runtime.h): `whole`, the matrix as one block on grid process (0, 0), and
// `blocks`, its rows x cols blocks brows x bcols over the grid. Both describe the
// column-major transpose (cols x rows), which is what the row-major buffers are.
int32_t block_cyclic_descriptors(State* s, const char* what, int64_t rows, int64_t cols, int64_t brows,
                                 int64_t bcols, int whole[9], int blocks[9]) {
  const ScaLapack& lib = scalapack();
  const int m = static_cast<int>(cols), n = static_cast<int>(rows);
  const int mb = static_cast<int>(bcols), nb = static_cast<int>(brows);
  const int zero = 0;
  const int local_rows = lib.numroc(&m, &mb, &s->myprow, &zero, &s->prows);
  const int whole_lld = std::max(1, m), blocks_lld = std::max(1, local_rows);
  int info = 0;
  lib.descinit(whole, &m, &n, &m, &n, &zero, &zero, &s->blacs_context, &whole_lld, &info);
  if (info != 0) return fail(s, std::string(what) + ": descinit of the whole matrix: info " + std::to_string(info));
  lib.descinit(blocks, &m, &n, &mb, &nb, &zero, &zero, &s->blacs_context, &blocks_lld, &info);
  if (info != 0) return fail(s, std::string(what) + ": descinit of the blocks: info " + std::to_string(info));
  return 0;
}

// dst := src between two descriptors of the same cols x rows matrix (p?geadd, beta 0).
int32_t block_cyclic_copy(State* s, const char* what, int32_t dtype, const void* src, const int src_desc[9],
                          void* dst, const int dst_desc[9]) {
  const int which = blas_index(dtype);
  if (which < 0)
    return fail(s, std::string(what) + ": element type code " + std::to_string(dtype) + " (float or complex only)");
  const ScaLapack& lib = scalapack();
  const int one = 1;
  alignas(16) unsigned char alpha[16] = {}, beta[16] = {};
  set_one(which, alpha);
  lib.geadd[which]("N", &src_desc[2], &src_desc[3], alpha, src, &one, &one, src_desc, beta, dst, &one, &one, dst_desc);
  return 0;
}

void copy_descriptor(const int in[9], int32_t* out) {
  if (out)
    for (int i = 0; i < 9; ++i) out[i] = in[i];
}

}  // namespace

void blacs_release(State* s) {
  if (!s->blacs) return;
  const ScaLapack& lib = scalapack();
  if (lib.gridexit && s->myprow >= 0) lib.gridexit(s->blacs_context);
  s->blacs = false;
}

}  // namespace dace_mpi

using namespace dace_mpi;

extern "C" {

int32_t dace_mpi_blacs_init(void* state, int64_t prows, int64_t pcols) {
  State* s = as_state(state);
  if (!s) return fail(nullptr, "BLACS grid: the program's MPI state is missing");
  const ScaLapack& lib = scalapack();
  if (!lib.error.empty()) return fail(s, "BLACS grid: " + lib.error);
  if (!fits_int(prows) || !fits_int(pcols) || prows == 0 || pcols == 0)
    return fail(s, "BLACS grid " + std::to_string(prows) + " x " + std::to_string(pcols));
  int size = 0;
  MPI_Comm_size(s->comm, &size);
  if (prows * pcols > size)
    return fail(s, "a BLACS grid of " + std::to_string(prows) + " x " + std::to_string(pcols) +
                       " processes needs at least that many ranks, the communicator has " + std::to_string(size));
  // A BLACS context over the program's communicator (not BLACS' default MPI_COMM_WORLD).
  int handle = lib.sys2blacs(s->comm);
  s->blacs_context = handle;
  lib.gridinit(&s->blacs_context, "C", static_cast<int>(prows), static_cast<int>(pcols));
  lib.free_handle(handle);
  lib.gridinfo(s->blacs_context, &s->prows, &s->pcols, &s->myprow, &s->mypcol);
  s->blacs = true;
  return 0;
}

int32_t dace_mpi_pgemm(void* state, int32_t dtype, const void* a, const void* b, void* c, int64_t m, int64_t n,
                       int64_t k, int64_t a_rows, int64_t a_cols, int64_t b_rows, int64_t b_cols, int64_t a_count,
                       int64_t b_count, int64_t c_count) {
  State* s = as_state(state);
  if (!s || !s->blacs) return fail(s, "Pgemm: no BLACS grid (init failed?)");
  const int which = blas_index(dtype);
  if (which < 0) return fail(s, "Pgemm: element type code " + std::to_string(dtype) + " (float or complex only)");
  // C's blocks are a_rows x b_cols (DaCe's expansion derives them so).
  if (int32_t rc = agree_operands_fit(s, "Pgemm", "computed",
                                      {{"_a", m, k, a_rows, a_cols, false, false, a_count},
                                       {"_b", k, n, b_rows, b_cols, false, false, b_count},
                                       {"_c", m, n, a_rows, b_cols, false, false, c_count}}))
    return rc;
  if (s->myprow < 0) return 0;  // outside the BLACS grid
  const ScaLapack& lib = scalapack();
  // Row-major blocks are column-major blocks of the transposes: C^T (n x m) = B^T A^T.
  const int gc_rows = static_cast<int>(n), gc_cols = static_cast<int>(m);
  const int ga_rows = static_cast<int>(k), ga_cols = static_cast<int>(m);
  const int gb_rows = static_cast<int>(n), gb_cols = static_cast<int>(k);
  const int lc_rows = static_cast<int>(b_cols), lc_cols = static_cast<int>(a_rows);
  const int la_rows = static_cast<int>(a_cols), la_cols = static_cast<int>(a_rows);
  const int lb_rows = static_cast<int>(b_cols), lb_cols = static_cast<int>(b_rows);
  const int zero = 0, one = 1;
  auto lld = [&](int rows, int block) { return std::max(1, lib.numroc(&rows, &block, &s->myprow, &zero, &s->prows)); };
  const int c_lld = lld(gc_rows, lc_rows), a_lld = lld(ga_rows, la_rows), b_lld = lld(gb_rows, lb_rows);
  int desc_a[9], desc_b[9], desc_c[9], info = 0;
  lib.descinit(desc_c, &gc_rows, &gc_cols, &lc_rows, &lc_cols, &zero, &zero, &s->blacs_context, &c_lld, &info);
  if (info != 0) return fail(s, "Pgemm: descinit of C: info " + std::to_string(info));
  lib.descinit(desc_a, &ga_rows, &ga_cols, &la_rows, &la_cols, &zero, &zero, &s->blacs_context, &a_lld, &info);
  if (info != 0) return fail(s, "Pgemm: descinit of A: info " + std::to_string(info));
  lib.descinit(desc_b, &gb_rows, &gb_cols, &lb_rows, &lb_cols, &zero, &zero, &s->blacs_context, &b_lld, &info);
  if (info != 0) return fail(s, "Pgemm: descinit of B: info " + std::to_string(info));
  // alpha = 1, beta = 0 in the element type (complex: imaginary part 0).
  alignas(16) unsigned char alpha[16] = {}, beta[16] = {};
  set_one(which, alpha);
  lib.gemm[which]("N", "N", &gc_rows, &gc_cols, &ga_rows, alpha, b, &one, &one, desc_b, a, &one, &one, desc_a, beta, c,
                  &one, &one, desc_c);
  return 0;
}

int32_t dace_mpi_pgemv(void* state, int32_t dtype, int32_t transa, const void* a, const void* x, void* y, int64_t m,
                       int64_t n, int64_t a_rows, int64_t a_cols, int64_t a_count, int64_t x_count, int64_t y_count) {
  State* s = as_state(state);
  if (!s || !s->blacs) return fail(s, "Pgemv: no BLACS grid (init failed?)");
  const int which = blas_index(dtype);
  if (which < 0) return fail(s, "Pgemv: element type code " + std::to_string(dtype) + " (float or complex only)");
  // x and y are whole vectors on grid process (0, 0).
  const int64_t x_elems = transa ? m : n, y_elems = transa ? n : m;
  if (int32_t rc = agree_operands_fit(s, "Pgemv", "computed",
                                      {{"_a", m, n, a_rows, a_cols, false, false, a_count},
                                       {"_b", 1, x_elems, 1, x_elems, true, true, x_count},
                                       {"_c", 1, y_elems, 1, y_elems, true, true, y_count}}))
    return rc;
  if (s->myprow < 0) return 0;  // outside the BLACS grid
  const ScaLapack& lib = scalapack();
  // The row-major m x n A is the column-major n x m A^T: y = A x is A^T-column-major
  // transposed times x ("T"), y = A^T x is it untransposed ("N").
  const char trans = transa ? 'N' : 'T';
  const int ga_rows = static_cast<int>(n), ga_cols = static_cast<int>(m);
  const int y_len = trans == 'N' ? ga_rows : ga_cols, x_len = trans == 'N' ? ga_cols : ga_rows;
  const int la_rows = static_cast<int>(a_cols), la_cols = static_cast<int>(a_rows);
  const int zero = 0, one = 1;
  // x and y: one block holding the whole vector, on process row and column 0. A's leading
  // dimension is its local row count (numroc), as Pgemm's and as the block-cyclic scatter lays
  // the blocks out: not the block size, which is too small where a process row holds several
  // blocks (descinit fails there only) and too large where it holds one partial block.
  auto lld = [&](int rows, int block) { return std::max(1, lib.numroc(&rows, &block, &s->myprow, &zero, &s->prows)); };
  const int y_lld = lld(y_len, y_len), x_lld = lld(x_len, x_len), a_lld = lld(ga_rows, la_rows);
  int desc_a[9], desc_x[9], desc_y[9], info = 0;
  lib.descinit(desc_y, &y_len, &one, &y_len, &one, &zero, &zero, &s->blacs_context, &y_lld, &info);
  if (info != 0) return fail(s, "Pgemv: descinit of y: info " + std::to_string(info));
  lib.descinit(desc_a, &ga_rows, &ga_cols, &la_rows, &la_cols, &zero, &zero, &s->blacs_context, &a_lld, &info);
  if (info != 0) return fail(s, "Pgemv: descinit of A: info " + std::to_string(info));
  lib.descinit(desc_x, &x_len, &one, &x_len, &one, &zero, &zero, &s->blacs_context, &x_lld, &info);
  if (info != 0) return fail(s, "Pgemv: descinit of x: info " + std::to_string(info));
  alignas(16) unsigned char alpha[16] = {}, beta[16] = {};
  set_one(which, alpha);
  lib.gemv[which](&trans, &ga_rows, &ga_cols, alpha, a, &one, &one, desc_a, x, &one, &one, desc_x, &one, beta, y, &one,
                  &one, desc_y, &one);
  return 0;
}

namespace {

// BlockCyclicScatter (whole matrix of grid process (0, 0) -> local blocks, descriptors written
// when given) and BlockCyclicGather (back): the same checks, in the same order, before anything
// is copied or written.
int32_t block_cyclic_transfer(void* state, bool scatter, int32_t dtype, const void* in, void* out, int64_t rows,
                              int64_t cols, int64_t brows, int64_t bcols, int64_t in_count, int64_t out_count,
                              int32_t* gdesc, int32_t* ldesc) {
  State* s = as_state(state);
  const char* what = scatter ? "BlockCyclicScatter" : "BlockCyclicGather";
  if (!s || !s->blacs) return fail(s, std::string(what) + ": no BLACS grid (init failed?)");
  // Everything that can fail is checked before the descriptors are written.
  if (blas_index(dtype) < 0)
    return fail(s, std::string(what) + ": element type code " + std::to_string(dtype) + " (float or complex only)");
  // The local blocks' buffer first, then the whole matrix's. A vector is the 1 x n matrix in
  // blocks of 1 x b (the lowering passes it so).
  const bool vector = rows == 1 && brows == 1;
  const Operand blocks{scatter ? "_outbuffer" : "_inbuffer", rows, cols, brows, bcols, false, vector,
                       scatter ? out_count : in_count};
  const Operand whole{scatter ? "_inbuffer" : "_outbuffer", rows, cols, rows, cols, true, vector,
                      scatter ? in_count : out_count};
  if (int32_t rc = agree_operands_fit(s, what, "copied", {blocks, whole})) return rc;
  if (s->myprow < 0) return 0;  // outside the BLACS grid
  int whole_desc[9], blocks_desc[9];
  if (int32_t rc = block_cyclic_descriptors(s, what, rows, cols, brows, bcols, whole_desc, blocks_desc)) return rc;
  if (gdesc) copy_descriptor(whole_desc, gdesc);
  if (ldesc) copy_descriptor(blocks_desc, ldesc);
  return scatter ? block_cyclic_copy(s, what, dtype, in, whole_desc, out, blocks_desc)
                 : block_cyclic_copy(s, what, dtype, in, blocks_desc, out, whole_desc);
}

}  // namespace

int32_t dace_mpi_bc_scatter(void* state, int32_t dtype, const void* in, void* out, int64_t rows, int64_t cols,
                            int64_t brows, int64_t bcols, int64_t in_count, int64_t out_count, int32_t* gdesc,
                            int32_t* ldesc) {
  return block_cyclic_transfer(state, true, dtype, in, out, rows, cols, brows, bcols, in_count, out_count, gdesc,
                               ldesc);
}

int32_t dace_mpi_bc_gather(void* state, int32_t dtype, const void* in, void* out, int64_t rows, int64_t cols,
                           int64_t brows, int64_t bcols, int64_t in_count, int64_t out_count) {
  return block_cyclic_transfer(state, false, dtype, in, out, rows, cols, brows, bcols, in_count, out_count, nullptr,
                               nullptr);
}

}  // extern "C"
