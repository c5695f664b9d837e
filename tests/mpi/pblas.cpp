// PBLAS library nodes through ScaLAPACK (DaCe's Pgemm and Pgemv, ReferenceOpenMPI), built with
// libdace.hpp and run under `mpirun -np P` for every Px x Py grid with Px * Py = P (the host
// does not link MPI). Rank r holds block (r / Py, r % Py) of each matrix (DaCe's row-major
// Cartesian order; the BLACS grid is Py x Px, column-major, as DaCe's ScaLAPACK environment).
// References are plain loops over the global matrices, which every rank can build:
//   Pgemm: each rank's block of C = A @ B (float64, complex64);
//   Pgemv: y = A @ x ("N") and y = A^T @ x ("T") on rank 0, where DaCe's descriptors put the
//   whole vectors (float64, float32, complex128); and on A dealt block-cyclically with several
//   blocks per process and a partial last block (float64, complex64);
//   BlockCyclicScatter / BlockCyclicGather of 1 x N and N x 1 matrices: the local blocks against
//   the block-cyclic selection of rank 0's matrix, the gathered matrix against it (float64).
// Buffers smaller than a grid process's local part (the global m or n passed to the node
// larger than the local arrays hold, or x shorter than n) must be refused on every rank with
// the node's message naming rank 0 (grid process (0, 0), which holds the most), the operand,
// the elements needed (counted here by a hand-written numroc) and held: without the check
// ScaLAPACK would read or write past the buffers.
// Exit 77 (skip, with the reason) when ScaLAPACK is missing.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "libdace.hpp"
#include "rank_check.h"

namespace {

using namespace mpi_test;

template <class T>
T value(int64_t i, int64_t j, int salt) {
  return static_cast<T>(static_cast<double>((i * 7 + j * 3 + salt) % 11) / 4.0 - 1.0);
}
template <>
std::complex<double> value(int64_t i, int64_t j, int salt) {
  return {value<double>(i, j, salt), value<double>(j, i, salt + 5)};
}
template <>
std::complex<float> value(int64_t i, int64_t j, int salt) {
  return {value<float>(i, j, salt), value<float>(j, i, salt + 5)};
}

template <class T>
bool close(T got, T want, double tol) {
  return std::abs(got - want) <= tol * (1.0 + std::abs(want));
}

// ScaLAPACK's numroc, by hand: the indices of [0, n) in blocks of nb dealt round-robin over p
// processes that land on process `proc`.
int64_t count_local(int64_t n, int64_t nb, int64_t proc, int64_t p) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += (i / nb) % p == proc ? 1 : 0;
  return count;
}

// What a refused call must report on this rank (empty: the call must succeed).
struct Refusal {
  std::string message;
};

// Runs the program; a refusal expected: the call must fail on this rank with the message.
// Returns whether it ran (and so the results are to be checked).
bool call_expecting(libdace::program& p, const std::vector<libdace::named_arg>& args, const Refusal& refusal,
                    const std::string& what) {
  if (refusal.message.empty()) {
    p.call(args);
    return true;
  }
  try {
    p.call(args);
    expect(false, what + ": ran, but had to be refused with \"" + refusal.message + "\"");
  } catch (const libdace::error& e) {
    const std::string got = e.what();
    const std::string want = "rank " + std::to_string(kRank) + ": " + refusal.message;
    expect(got.find(want) != std::string::npos, what + ": refused with \"" + got + "\", not \"" + want + "\"");
  }
  return false;
}

// A block-size array argument: {rows, cols}.
void add_sizes(libdace::sdfg& g, libdace::state& s, const char* name, dace_id_t node, const char* conn) {
  g.add_array(name, DACE_INT32, "2");
  dace_id_t a = s.add_access(name);
  s.add_edge(a, "", node, conn, std::string(name) + "[0:2]");
}

// C (LM x LN) = A (LM x LKa) @ B (LKb x LN) over the grid: m = Px*LM, n = Py*LN, k = Py*LKa.
// extra_rows > 0: the node's m is Px*LM + ME with ME = extra_rows, more rows than the local arrays hold, so
// every rank must refuse the call (A is checked first: process (0, 0) needs more of it).
template <class T>
void check_pgemm(dace_dtype_t t, int px, int py, const char* what, int64_t extra_rows = 0) {
  const int64_t M = 8, N = 4, K = 12;
  const int64_t lm = M / px, ln = N / py, lka = K / py, lkb = K / px;
  libdace::sdfg g("pgemm_t");
  for (const char* s : {"LM", "LN", "LKa", "LKb", "Px", "Py", "ME"}) g.add_symbol(s);
  g.add_array("a", t, "LM, LKa");
  g.add_array("b", t, "LKb, LN");
  g.add_array("c", t, "LM, LN");
  libdace::state s = g.add_state("s");
  dace_id_t a = s.add_access("a"), b = s.add_access("b"), c = s.add_access("c");
  dace_id_t n = s.add_library_node("pgemm", "dace.libraries.pblas.nodes.pgemm.Pgemm",
                                   "_a, _b, _a_block_sizes, _b_block_sizes", "_c", "ReferenceOpenMPI",
                                   R"({"m": "Px*LM + ME", "n": "Py*LN", "k": "Py*LKa"})");
  s.add_edge(a, "", n, "_a", "a[0:LM, 0:LKa]");
  s.add_edge(b, "", n, "_b", "b[0:LKb, 0:LN]");
  add_sizes(g, s, "sa", n, "_a_block_sizes");
  add_sizes(g, s, "sb", n, "_b_block_sizes");
  s.add_edge(n, "_c", c, "", "c[0:LM, 0:LN]");
  const int64_t pi = kRank / py, pj = kRank % py;
  std::vector<T> av(static_cast<size_t>(lm * lka)), bv(static_cast<size_t>(lkb * ln)), cv(static_cast<size_t>(lm * ln));
  for (int64_t i = 0; i < lm; ++i)
    for (int64_t k = 0; k < lka; ++k) av[static_cast<size_t>(i * lka + k)] = value<T>(pi * lm + i, pj * lka + k, 1);
  for (int64_t k = 0; k < lkb; ++k)
    for (int64_t j = 0; j < ln; ++j) bv[static_cast<size_t>(k * ln + j)] = value<T>(pi * lkb + k, pj * ln + j, 2);
  std::vector<int32_t> sa{static_cast<int32_t>(lm), static_cast<int32_t>(lka)};
  std::vector<int32_t> sb{static_cast<int32_t>(lkb), static_cast<int32_t>(ln)};
  const int64_t mg = M + extra_rows;
  Refusal refusal;
  if (extra_rows > 0) {
    // Rank 0, grid process (0, 0): its rows of A's transpose (K in blocks of LKa over Py
    // process rows) times its columns (mg in blocks of LM over Px process columns).
    const int64_t need = count_local(K, lka, 0, py) * count_local(mg, lm, 0, px);
    refusal.message = "Pgemm: the blocks of " + std::to_string(lm) + " x " + std::to_string(lka) + " of the " +
                      std::to_string(mg) + " x " + std::to_string(K) + " matrix that rank 0 holds need " +
                      std::to_string(need) + " elements of _a, which has " + std::to_string(lm * lka) +
                      " (nothing was computed)";
  }
  libdace::context ctx;
  libdace::program p(ctx, g);
  const std::string label = std::string("Pgemm ") + what + " grid " + std::to_string(px) + "x" + std::to_string(py);
  if (!call_expecting(p,
                      {{"a", libdace::array_ref<T>(av.data(), {lm, lka})},
                       {"b", libdace::array_ref<T>(bv.data(), {lkb, ln})},
                       {"c", libdace::array_ref<T>(cv.data(), {lm, ln})},
                       {"sa", libdace::array_ref<int32_t>(sa.data(), {2})},
                       {"sb", libdace::array_ref<int32_t>(sb.data(), {2})},
                       {"LM", libdace::symbol{lm}},
                       {"LN", libdace::symbol{ln}},
                       {"LKa", libdace::symbol{lka}},
                       {"LKb", libdace::symbol{lkb}},
                       {"Px", libdace::symbol{px}},
                       {"Py", libdace::symbol{py}},
                       {"ME", libdace::symbol{extra_rows}}},
                      refusal, label))
    return;
  for (int64_t i = 0; i < lm; ++i)
    for (int64_t j = 0; j < ln; ++j) {
      T want{};
      for (int64_t k = 0; k < K; ++k) want += value<T>(pi * lm + i, k, 1) * value<T>(k, pj * ln + j, 2);
      if (!close(cv[static_cast<size_t>(i * ln + j)], want, 1e-4)) {
        expect(false, label + " C block element (" + std::to_string(i) + ", " + std::to_string(j) + ")");
        return;
      }
    }
}

// y = A @ x (transa "N") or A^T @ x ("T"), A global (Px*LM) x (Py*LN) in LM x LN blocks.
// extra_cols > 0: the node's n is Py*LN + NE with NE = extra_cols, more columns than A's local arrays hold;
// short_x > 0: x holds that many elements fewer than the product reads. Either must be refused
// on every rank.
template <class T>
void check_pgemv(dace_dtype_t t, int px, int py, bool transposed, const char* what, int64_t extra_cols = 0,
                 int64_t short_x = 0) {
  const int64_t M = 12, N = 8;
  const int64_t lm = M / px, ln = N / py;
  const int64_t ng = N + extra_cols;
  const int64_t xlen = transposed ? M : ng, ylen = transposed ? ng : M;
  const int64_t xheld = xlen - short_x;
  libdace::sdfg g("pgemv_t");
  for (const char* s : {"LM", "LN", "Px", "Py", "NE", "XL", "YL"}) g.add_symbol(s);
  g.add_array("a", t, "LM, LN");
  g.add_array("x", t, "XL");
  g.add_array("y", t, "YL");
  libdace::state s = g.add_state("s");
  dace_id_t a = s.add_access("a"), x = s.add_access("x"), y = s.add_access("y");
  std::string props = std::string(R"({"m": "Px*LM", "n": "Py*LN + NE", "transa": ")") + (transposed ? "T" : "N") + "\"}";
  dace_id_t n = s.add_library_node("pgemv", "dace.libraries.pblas.nodes.pgemv.Pgemv",
                                   "_a, _b, _a_block_sizes, _b_block_sizes", "_c", "ReferenceOpenMPI", props);
  s.add_edge(a, "", n, "_a", "a[0:LM, 0:LN]");
  s.add_edge(x, "", n, "_b", "x[0:XL]");
  add_sizes(g, s, "sa", n, "_a_block_sizes");
  add_sizes(g, s, "sx", n, "_b_block_sizes");
  s.add_edge(n, "_c", y, "", "y[0:YL]");
  const int64_t pi = kRank / py, pj = kRank % py;
  std::vector<T> av(static_cast<size_t>(lm * ln)), xv(static_cast<size_t>(xheld)), yv(static_cast<size_t>(ylen));
  for (int64_t i = 0; i < lm; ++i)
    for (int64_t j = 0; j < ln; ++j) av[static_cast<size_t>(i * ln + j)] = value<T>(pi * lm + i, pj * ln + j, 3);
  for (int64_t i = 0; i < xheld; ++i) xv[static_cast<size_t>(i)] = value<T>(i, 0, 4);
  std::vector<int32_t> sa{static_cast<int32_t>(lm), static_cast<int32_t>(ln)}, sx{static_cast<int32_t>(xlen), 1};
  Refusal refusal;
  if (extra_cols > 0) {
    // Rank 0: its rows of A's transpose (ng in blocks of LN over Py) times its columns (M in
    // blocks of LM over Px).
    const int64_t need = count_local(ng, ln, 0, py) * count_local(M, lm, 0, px);
    refusal.message = "Pgemv: the blocks of " + std::to_string(lm) + " x " + std::to_string(ln) + " of the " +
                      std::to_string(M) + " x " + std::to_string(ng) + " matrix that rank 0 holds need " +
                      std::to_string(need) + " elements of _a, which has " + std::to_string(lm * ln) +
                      " (nothing was computed)";
  } else if (short_x > 0) {
    refusal.message = "Pgemv: the whole vector of " + std::to_string(xlen) + " elements needs " +
                      std::to_string(xlen) + " elements of _b on rank 0, which has " + std::to_string(xheld) +
                      " (nothing was computed)";
  }
  libdace::context ctx;
  libdace::program p(ctx, g);
  const std::string label = std::string("Pgemv ") + (transposed ? "T " : "N ") + what + " grid " +
                            std::to_string(px) + "x" + std::to_string(py);
  if (!call_expecting(p,
                      {{"a", libdace::array_ref<T>(av.data(), {lm, ln})},
                       {"x", libdace::array_ref<T>(xv.data(), {xheld})},
                       {"y", libdace::array_ref<T>(yv.data(), {ylen})},
                       {"sa", libdace::array_ref<int32_t>(sa.data(), {2})},
                       {"sx", libdace::array_ref<int32_t>(sx.data(), {2})},
                       {"LM", libdace::symbol{lm}},
                       {"LN", libdace::symbol{ln}},
                       {"Px", libdace::symbol{px}},
                       {"Py", libdace::symbol{py}},
                       {"NE", libdace::symbol{extra_cols}},
                       {"XL", libdace::symbol{xheld}},
                       {"YL", libdace::symbol{ylen}}},
                      refusal, label))
    return;
  if (kRank != 0) return;
  for (int64_t r = 0; r < ylen; ++r) {
    T want{};
    for (int64_t k = 0; k < xlen; ++k)
      want += (transposed ? value<T>(k, r, 3) : value<T>(r, k, 3)) * value<T>(k, 0, 4);
    if (!close(yv[static_cast<size_t>(r)], want, 1e-4)) {
      expect(false, label + " y[" + std::to_string(r) + "]");
      return;
    }
  }
}

// The BLACS grid's extents Px and Py are free symbols of DaCe's PBLAS programs (their tasklets
// read them); a program whose nodes do not use them gets them through an argument's shape.
void add_grid_argument(libdace::sdfg& g) { g.add_array("grid", DACE_INT32, "Py, Px"); }

// The global index of local index `l` of a dimension cut into blocks of nb dealt round-robin
// over p processes, on process `proc` (the inverse of count_local's dealing).
int64_t global_index(int64_t l, int64_t nb, int64_t proc, int64_t p) { return (l / nb) * p * nb + proc * nb + l % nb; }

// Pgemv on block-cyclic A: the global M x N A in BR x BC blocks dealt over the grid, so that a
// process holds several blocks of a dimension and the last block is partial (or a process holds
// less than one block). Each rank's buffer holds its part as the block-cyclic scatter writes
// it: the row-major (local rows of A) x (local columns of A), local rows numroc(M, BR) over the
// Px process columns and local columns numroc(N, BC) over the Py process rows (hand-written
// count_local), flat, so that a rank holding nothing still passes one element.
template <class T>
void check_pgemv_cyclic(dace_dtype_t t, int px, int py, bool transposed, int64_t M, int64_t N, int64_t br, int64_t bc,
                        const char* what) {
  const int64_t pi = kRank / py, pj = kRank % py;
  const int64_t lr = count_local(M, br, pi, px), lc = count_local(N, bc, pj, py);
  const int64_t held = std::max<int64_t>(1, lr * lc);
  const int64_t xlen = transposed ? M : N, ylen = transposed ? N : M;
  libdace::sdfg g("pgemv_cyclic_t");
  for (const char* s : {"AL", "GM", "GN", "Px", "Py", "XL", "YL"}) g.add_symbol(s);
  add_grid_argument(g);
  g.add_array("a", t, "AL");
  g.add_array("x", t, "XL");
  g.add_array("y", t, "YL");
  libdace::state s = g.add_state("s");
  dace_id_t a = s.add_access("a"), x = s.add_access("x"), y = s.add_access("y");
  std::string props = std::string(R"({"m": "GM", "n": "GN", "transa": ")") + (transposed ? "T" : "N") + "\"}";
  dace_id_t n = s.add_library_node("pgemv", "dace.libraries.pblas.nodes.pgemv.Pgemv",
                                   "_a, _b, _a_block_sizes, _b_block_sizes", "_c", "ReferenceOpenMPI", props);
  s.add_edge(a, "", n, "_a", "a[0:AL]");
  s.add_edge(x, "", n, "_b", "x[0:XL]");
  add_sizes(g, s, "sa", n, "_a_block_sizes");
  add_sizes(g, s, "sx", n, "_b_block_sizes");
  s.add_edge(n, "_c", y, "", "y[0:YL]");
  std::vector<T> av(static_cast<size_t>(held)), xv(static_cast<size_t>(xlen)), yv(static_cast<size_t>(ylen));
  for (int64_t i = 0; i < lr; ++i)
    for (int64_t j = 0; j < lc; ++j)
      av[static_cast<size_t>(i * lc + j)] = value<T>(global_index(i, br, pi, px), global_index(j, bc, pj, py), 5);
  for (int64_t i = 0; i < xlen; ++i) xv[static_cast<size_t>(i)] = value<T>(i, 0, 6);
  std::vector<int32_t> sa{static_cast<int32_t>(br), static_cast<int32_t>(bc)}, sx{static_cast<int32_t>(xlen), 1};
  libdace::context ctx;
  libdace::program p(ctx, g);
  const std::string label = std::string("Pgemv ") + (transposed ? "T " : "N ") + what + " grid " + std::to_string(px) +
                            "x" + std::to_string(py);
  std::vector<int32_t> grid(static_cast<size_t>(px * py));
  p.call({{"grid", libdace::array_ref<int32_t>(grid.data(), {py, px})},
          {"a", libdace::array_ref<T>(av.data(), {held})},
          {"x", libdace::array_ref<T>(xv.data(), {xlen})},
          {"y", libdace::array_ref<T>(yv.data(), {ylen})},
          {"sa", libdace::array_ref<int32_t>(sa.data(), {2})},
          {"sx", libdace::array_ref<int32_t>(sx.data(), {2})},
          {"AL", libdace::symbol{held}},
          {"GM", libdace::symbol{M}},
          {"GN", libdace::symbol{N}},
          {"Px", libdace::symbol{px}},
          {"Py", libdace::symbol{py}},
          {"XL", libdace::symbol{xlen}},
          {"YL", libdace::symbol{ylen}}});
  if (kRank != 0) return;
  for (int64_t r = 0; r < ylen; ++r) {
    T want{};
    for (int64_t k = 0; k < xlen; ++k) want += (transposed ? value<T>(k, r, 5) : value<T>(r, k, 5)) * value<T>(k, 0, 6);
    if (!close(yv[static_cast<size_t>(r)], want, 1e-4)) {
      expect(false, label + " y[" + std::to_string(r) + "]");
      return;
    }
  }
}

// BlockCyclicScatter then BlockCyclicGather of a 1 x N (column_vector false) or N x 1 matrix,
// a two-dimensional container, in blocks of 1 x NB or NB x 1: a matrix, not a vector, though
// its memlet squeezes to one dimension. The scatter lays the rows x cols matrix out as every
// matrix: local rows numroc(rows, brows) over the Px process columns, local columns
// numroc(cols, bcols) over the Py process rows (hand-written count_local / global_index), so
// the 1 x N matrix is cut into blocks of NB (not 1) over the process rows and the N x 1 matrix
// over the process columns. Every rank's local buffer must hold the selection from rank 0's
// matrix; the gather must give rank 0 its matrix back and leave the others' output untouched.
void check_bc_thin_matrix(int px, int py, bool column, int64_t len, int64_t nb) {
  const int64_t rows = column ? len : 1, cols = column ? 1 : len;
  const int64_t brows = column ? nb : 1, bcols = column ? 1 : nb;
  const int64_t pi = kRank / py, pj = kRank % py;
  const int64_t lr = count_local(rows, brows, pi, px), lc = count_local(cols, bcols, pj, py);
  const int64_t held = std::max<int64_t>(1, lr * lc);
  libdace::sdfg g("bc_thin_t");
  // The unit dimension is the literal 1 (a symbol equal to 1 is not squeezed), as in DaCe's
  // programs: the memlet squeezes to one dimension of N elements.
  for (const char* s : {"N", "LL", "Px", "Py"}) g.add_symbol(s);
  add_grid_argument(g);
  const std::string shape = column ? "N, 1" : "1, N", range = column ? "[0:N, 0]" : "[0, 0:N]";
  g.add_array("whole", DACE_FLOAT64, shape);
  g.add_array("back", DACE_FLOAT64, shape);
  g.add_array("local", DACE_FLOAT64, "LL");
  libdace::state s = g.add_state("s");
  dace_id_t w = s.add_access("whole"), l = s.add_access("local");
  dace_id_t sc = s.add_library_node("scatter", "dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter",
                                    "_inbuffer, _block_sizes", "_outbuffer", "ReferenceOpenMPI", "{}");
  s.add_edge(w, "", sc, "_inbuffer", "whole" + range);
  add_sizes(g, s, "bs", sc, "_block_sizes");
  s.add_edge(sc, "_outbuffer", l, "", "local[0:LL]");
  libdace::state s2 = g.add_state("s2");
  g.add_interstate_edge(s, s2);
  dace_id_t l2 = s2.add_access("local"), b = s2.add_access("back");
  dace_id_t ga = s2.add_library_node("gather", "dace.libraries.pblas.nodes.pgeadd.BlockCyclicGather",
                                     "_inbuffer, _block_sizes", "_outbuffer", "ReferenceOpenMPI", "{}");
  s2.add_edge(l2, "", ga, "_inbuffer", "local[0:LL]");
  add_sizes(g, s2, "bs2", ga, "_block_sizes");
  s2.add_edge(ga, "_outbuffer", b, "", "back" + range);
  // Rank r's matrix differs from rank 0's (salt r): only rank 0's is scattered.
  std::vector<double> wv(static_cast<size_t>(len)), bv(static_cast<size_t>(len), -7.0), lv(static_cast<size_t>(held));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) wv[static_cast<size_t>(i * cols + j)] = value<double>(i, j, 7 + kRank);
  std::vector<int32_t> bs{static_cast<int32_t>(brows), static_cast<int32_t>(bcols)};
  libdace::context ctx;
  libdace::program p(ctx, g);
  const std::string label = std::string("BlockCyclicScatter/Gather of the ") + std::to_string(rows) + " x " +
                            std::to_string(cols) + " matrix in " + std::to_string(brows) + " x " +
                            std::to_string(bcols) + " blocks, grid " + std::to_string(px) + "x" + std::to_string(py);
  std::vector<int32_t> grid(static_cast<size_t>(px * py));
  p.call({{"grid", libdace::array_ref<int32_t>(grid.data(), {py, px})},
          {"whole", libdace::array_ref<double>(wv.data(), {rows, cols})},
          {"back", libdace::array_ref<double>(bv.data(), {rows, cols})},
          {"local", libdace::array_ref<double>(lv.data(), {held})},
          {"bs", libdace::array_ref<int32_t>(bs.data(), {2})},
          {"bs2", libdace::array_ref<int32_t>(bs.data(), {2})},
          {"N", libdace::symbol{len}},
          {"LL", libdace::symbol{held}},
          {"Px", libdace::symbol{px}},
          {"Py", libdace::symbol{py}}});
  for (int64_t i = 0; i < lr; ++i)
    for (int64_t j = 0; j < lc; ++j) {
      const double want = value<double>(global_index(i, brows, pi, px), global_index(j, bcols, pj, py), 7);
      if (lv[static_cast<size_t>(i * lc + j)] != want) {
        expect(false, label + ": local element (" + std::to_string(i) + ", " + std::to_string(j) + ")");
        return;
      }
    }
  for (int64_t k = 0; k < len; ++k) {
    const double want = kRank == 0 ? wv[static_cast<size_t>(k)] : -7.0;
    if (bv[static_cast<size_t>(k)] != want) {
      expect(false, label + ": gathered element " + std::to_string(k));
      return;
    }
  }
}

}  // namespace

int main() {
  if (12 % kSize != 0 || 8 % kSize != 0) {
    std::printf("SKIP: run with 1, 2 or 4 ranks (this world has %d)\n", kSize);
    return 77;
  }
  std::vector<std::pair<int, int>> grids;
  for (int px = 1; px <= kSize; ++px)
    if (kSize % px == 0) grids.emplace_back(px, kSize / px);
  try {
    for (auto [px, py] : grids) {
      check_pgemm<double>(DACE_FLOAT64, px, py, "float64");
      check_pgemm<std::complex<float>>(DACE_COMPLEX64, px, py, "complex64");
      for (bool tr : {false, true}) {
        check_pgemv<double>(DACE_FLOAT64, px, py, tr, "float64");
        check_pgemv<float>(DACE_FLOAT32, px, py, tr, "float32");
        check_pgemv<std::complex<double>>(DACE_COMPLEX128, px, py, tr, "complex128");
      }
      // Buffers too small for the local parts: refused on every rank before ScaLAPACK runs.
      check_pgemm<double>(DACE_FLOAT64, px, py, "float64, m beyond the local arrays", px);
      check_pgemv<double>(DACE_FLOAT64, px, py, false, "float64, n beyond the local arrays", py);
      check_pgemv<float>(DACE_FLOAT32, px, py, true, "float32, x one element short", 0, 1);
      // Several blocks per process and a partial last block (17 x 19 in 3 x 2 blocks), and one
      // block wider than the matrix (9 x 3 in 2 x 4 blocks: A's leading dimension is 3, not 4).
      for (bool tr : {false, true}) {
        check_pgemv_cyclic<double>(DACE_FLOAT64, px, py, tr, 17, 19, 3, 2, "float64, block-cyclic 17 x 19");
        check_pgemv_cyclic<std::complex<float>>(DACE_COMPLEX64, px, py, tr, 9, 3, 2, 4,
                                                "complex64, block-cyclic 9 x 3");
      }
      // 1 x 13 and 13 x 1 matrices (two-dimensional containers) in blocks of 3: matrices, not vectors.
      for (bool column : {false, true}) check_bc_thin_matrix(px, py, column, 13, 3);
    }
  } catch (const libdace::error& e) {
    std::string m = e.what();
    if (m.find("scalapack") != std::string::npos && m.find("cannot be loaded") != std::string::npos) {
      std::printf("SKIP: ScaLAPACK is not installed: %s\n", m.c_str());
      return 77;
    }
    expect(false, m);
  } catch (const std::exception& e) {
    expect(false, e.what());
  }
  if (failures == 0)
    std::printf("rank %d of %d: Pgemm and Pgemv match the loops and refuse too small buffers on %zu grid(s)\n",
                kRank, kSize, grids.size());
  return failures == 0 ? 0 : 1;
}
