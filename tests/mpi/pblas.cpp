// PBLAS library nodes through ScaLAPACK (DaCe's Pgemm and Pgemv, ReferenceOpenMPI), built with
// libdace.hpp and run under `mpirun -np P` for every Px x Py grid with Px * Py = P (the host
// does not link MPI). Rank r holds block (r / Py, r % Py) of each matrix (DaCe's row-major
// Cartesian order; the BLACS grid is Py x Px, column-major, as DaCe's ScaLAPACK environment).
// References are plain loops over the global matrices, which every rank can build:
//   Pgemm: each rank's block of C = A @ B (float64, complex64);
//   Pgemv: y = A @ x ("N") and y = A^T @ x ("T") on rank 0, where DaCe's descriptors put the
//   whole vectors (float64, float32, complex128).
// Exit 77 (skip, with the reason) when ScaLAPACK is missing.
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

// A block-size array argument: {rows, cols}.
void add_sizes(libdace::sdfg& g, libdace::state& s, const char* name, dace_id_t node, const char* conn) {
  g.add_array(name, DACE_INT32, "2");
  dace_id_t a = s.add_access(name);
  s.add_edge(a, "", node, conn, std::string(name) + "[0:2]");
}

// C (LM x LN) = A (LM x LKa) @ B (LKb x LN) over the grid: m = Px*LM, n = Py*LN, k = Py*LKa.
template <class T>
void check_pgemm(dace_dtype_t t, int px, int py, const char* what) {
  const int64_t M = 8, N = 4, K = 12;
  const int64_t lm = M / px, ln = N / py, lka = K / py, lkb = K / px;
  libdace::sdfg g("pgemm_t");
  for (const char* s : {"LM", "LN", "LKa", "LKb", "Px", "Py"}) g.add_symbol(s);
  g.add_array("a", t, "LM, LKa");
  g.add_array("b", t, "LKb, LN");
  g.add_array("c", t, "LM, LN");
  libdace::state s = g.add_state("s");
  dace_id_t a = s.add_access("a"), b = s.add_access("b"), c = s.add_access("c");
  dace_id_t n = s.add_library_node("pgemm", "dace.libraries.pblas.nodes.pgemm.Pgemm",
                                   "_a, _b, _a_block_sizes, _b_block_sizes", "_c", "ReferenceOpenMPI",
                                   R"({"m": "Px*LM", "n": "Py*LN", "k": "Py*LKa"})");
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
  libdace::context ctx;
  libdace::program p(ctx, g);
  p({{"a", libdace::array_ref<T>(av.data(), {lm, lka})}, {"b", libdace::array_ref<T>(bv.data(), {lkb, ln})},
     {"c", libdace::array_ref<T>(cv.data(), {lm, ln})}, {"sa", libdace::array_ref<int32_t>(sa.data(), {2})},
     {"sb", libdace::array_ref<int32_t>(sb.data(), {2})}, {"LM", libdace::symbol{lm}}, {"LN", libdace::symbol{ln}},
     {"LKa", libdace::symbol{lka}}, {"LKb", libdace::symbol{lkb}}, {"Px", libdace::symbol{px}},
     {"Py", libdace::symbol{py}}});
  for (int64_t i = 0; i < lm; ++i)
    for (int64_t j = 0; j < ln; ++j) {
      T want{};
      for (int64_t k = 0; k < K; ++k) want += value<T>(pi * lm + i, k, 1) * value<T>(k, pj * ln + j, 2);
      if (!close(cv[static_cast<size_t>(i * ln + j)], want, 1e-4)) {
        expect(false, std::string("Pgemm ") + what + " grid " + std::to_string(px) + "x" + std::to_string(py) +
                          " C block element (" + std::to_string(i) + ", " + std::to_string(j) + ")");
        return;
      }
    }
}

// y = A @ x (transa "N") or A^T @ x ("T"), A global (Px*LM) x (Py*LN) in LM x LN blocks.
template <class T>
void check_pgemv(dace_dtype_t t, int px, int py, bool transposed, const char* what) {
  const int64_t M = 12, N = 8;
  const int64_t lm = M / px, ln = N / py;
  const int64_t xlen = transposed ? M : N, ylen = transposed ? N : M;
  libdace::sdfg g("pgemv_t");
  for (const char* s : {"LM", "LN", "Px", "Py"}) g.add_symbol(s);
  g.add_array("a", t, "LM, LN");
  g.add_array("x", t, transposed ? "Px*LM" : "Py*LN");
  g.add_array("y", t, transposed ? "Py*LN" : "Px*LM");
  libdace::state s = g.add_state("s");
  dace_id_t a = s.add_access("a"), x = s.add_access("x"), y = s.add_access("y");
  std::string props = std::string(R"({"m": "Px*LM", "n": "Py*LN", "transa": ")") + (transposed ? "T" : "N") + "\"}";
  dace_id_t n = s.add_library_node("pgemv", "dace.libraries.pblas.nodes.pgemv.Pgemv",
                                   "_a, _b, _a_block_sizes, _b_block_sizes", "_c", "ReferenceOpenMPI", props);
  s.add_edge(a, "", n, "_a", "a[0:LM, 0:LN]");
  s.add_edge(x, "", n, "_b", transposed ? "x[0:Px*LM]" : "x[0:Py*LN]");
  add_sizes(g, s, "sa", n, "_a_block_sizes");
  add_sizes(g, s, "sx", n, "_b_block_sizes");
  s.add_edge(n, "_c", y, "", transposed ? "y[0:Py*LN]" : "y[0:Px*LM]");
  const int64_t pi = kRank / py, pj = kRank % py;
  std::vector<T> av(static_cast<size_t>(lm * ln)), xv(static_cast<size_t>(xlen)), yv(static_cast<size_t>(ylen));
  for (int64_t i = 0; i < lm; ++i)
    for (int64_t j = 0; j < ln; ++j) av[static_cast<size_t>(i * ln + j)] = value<T>(pi * lm + i, pj * ln + j, 3);
  for (int64_t i = 0; i < xlen; ++i) xv[static_cast<size_t>(i)] = value<T>(i, 0, 4);
  std::vector<int32_t> sa{static_cast<int32_t>(lm), static_cast<int32_t>(ln)}, sx{static_cast<int32_t>(xlen), 1};
  libdace::context ctx;
  libdace::program p(ctx, g);
  p({{"a", libdace::array_ref<T>(av.data(), {lm, ln})}, {"x", libdace::array_ref<T>(xv.data(), {xlen})},
     {"y", libdace::array_ref<T>(yv.data(), {ylen})}, {"sa", libdace::array_ref<int32_t>(sa.data(), {2})},
     {"sx", libdace::array_ref<int32_t>(sx.data(), {2})}, {"LM", libdace::symbol{lm}}, {"LN", libdace::symbol{ln}},
     {"Px", libdace::symbol{px}}, {"Py", libdace::symbol{py}}});
  if (kRank != 0) return;
  for (int64_t r = 0; r < ylen; ++r) {
    T want{};
    for (int64_t k = 0; k < xlen; ++k)
      want += (transposed ? value<T>(k, r, 3) : value<T>(r, k, 3)) * value<T>(k, 0, 4);
    if (!close(yv[static_cast<size_t>(r)], want, 1e-4)) {
      expect(false, std::string("Pgemv ") + (transposed ? "T " : "N ") + what + " grid " + std::to_string(px) + "x" +
                        std::to_string(py) + " y[" + std::to_string(r) + "]");
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
    std::printf("rank %d of %d: Pgemm and Pgemv match the loops on %zu grid(s)\n", kRank, kSize, grids.size());
  return failures == 0 ? 0 : 1;
}
