// MPI library nodes per element type, built through libdace.hpp and run under
// `mpirun -np P` (any P >= 1): the host does not link MPI, so the plugin initialises it.
// Every rank checks its results against values computed here with plain loops:
//   for each element type the plugin maps (int8..int64, uint8..uint64, float32/64,
//   complex64/128; one template) Allreduce MPI_SUM in place, Bcast from the last rank, Reduce
//   MPI_MAX (MPI_SUM for complex) to the last rank, Scatter / Gather through rank 0,
//   Allgather, Alltoall and Send/Recv between rank pairs (any rank count); float16 refused by
//   each of these nodes, naming it. Allreduce MPI_MAX on float32, MPI_PROD on int64, MPI_MIN
//   on int32; Send/Recv (even rank counts) of
//   strided int32 slices (a column, every other element, a 2 x 2 block: MPI vector types);
//   collectives on strided subsets (staged copies): Bcast of a column, Allreduce in place on
//   every other element, Reduce column -> every other element, Scatter / Gather / Allgather
//   / Alltoall between columns and every k-th element, elements outside left alone; subsets
//   strided in two and three dimensions (Send/Recv as nested MPI vectors, Bcast, Allreduce,
//   Gather staged) and the refusal of a strided Redistribute buffer.
// The rank is passed as a scalar argument (read from the launcher's environment).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "libdace.hpp"
#include "rank_check.h"

namespace {

using namespace mpi_test;
constexpr int64_t kN = 7;

// x = op over ranks of x, in place (one container on both sides).
libdace::sdfg allreduce_sdfg(dace_dtype_t t, const char* op) {
  libdace::sdfg g("allreduce_t");
  g.add_symbol("N");
  g.add_array("x", t, "N");
  libdace::state s = g.add_state("s");
  dace_id_t in = s.add_access("x"), out = s.add_access("x");
  dace_id_t n = s.add_library_node("ar", "dace.libraries.mpi.nodes.allreduce.Allreduce", "_inbuffer", "_outbuffer", "",
                                   std::string("{\"op\": \"") + op + "\"}");
  s.add_edge(in, "", n, "_inbuffer", "x[0:N]");
  s.add_edge(n, "_outbuffer", out, "", "x[0:N]");
  return g;
}

template <class T, class Op>
void check_allreduce(dace_dtype_t t, const char* op, Op combine, T (*value)(int rank, int64_t i), const char* what) {
  libdace::context ctx;
  libdace::program p(ctx, allreduce_sdfg(t, op));
  std::vector<T> x(kN);
  for (int64_t i = 0; i < kN; ++i) x[static_cast<size_t>(i)] = value(kRank, i);
  p({{"x", libdace::array_ref<T>(x.data(), {kN})}, {"N", libdace::symbol{kN}}});
  for (int64_t i = 0; i < kN; ++i) {
    T want = value(0, i);
    for (int r = 1; r < kSize; ++r) want = combine(want, value(r, i));
    if (x[static_cast<size_t>(i)] != want) {
      expect(false, std::string("Allreduce ") + op + " " + what + " element " + std::to_string(i));
      return;
    }
  }
}

template <class T>
T small(int rank, int64_t i) {
  return static_cast<T>((rank + 1) * (i + 1) % 5 + 1);
}
// Strided buffers (MPI vector types) between the pairs (0, 1), (2, 3), ...: every rank sends
// column 1 of A[4, 5] (int32, A[0:4, 1]: 4 blocks of 1, stride 5); even ranks receive it into
// every other element of D[8] (D[0:8:2]), odd ranks into the 2 x 2 block B[1:3, 2:4] of
// B[4, 5] (2 blocks of 2, stride 5). Elements outside the subsets keep their values.
void check_strided_send_recv() {
  if (kSize % 2) return;
  libdace::sdfg g("strided_t");
  g.add_array("A", DACE_INT32, "4, 5");
  g.add_array("B", DACE_INT32, "4, 5");
  g.add_array("D", DACE_INT32, "8");
  g.add_scalar("rank", DACE_INT32);
  libdace::array_options t;
  t.transient = true;
  g.add_scalar("peer", DACE_INT32, t);
  g.add_scalar("tag", DACE_INT32, t);
  libdace::state s0 = g.add_state("peer");
  {
    dace_id_t r = s0.add_access("rank"), p = s0.add_access("peer"), tg = s0.add_access("tag");
    dace_id_t tk = s0.add_tasklet("peer_of", "r", "p, t", "p = r + 1 if r % 2 == 0 else r - 1\nt = 9");
    s0.add_edge(r, "", tk, "r", "rank[0]");
    s0.add_edge(tk, "p", p, "", "peer[0]");
    s0.add_edge(tk, "t", tg, "", "tag[0]");
  }
  auto send = [&](const char* label) {
    libdace::state s = g.add_state(label);
    dace_id_t b = s.add_access("A"), p = s.add_access("peer"), tg = s.add_access("tag");
    dace_id_t n = s.add_library_node("send", "dace.libraries.mpi.nodes.send.Send", "_buffer, _dest, _tag", "");
    s.add_edge(b, "", n, "_buffer", "A[0:4, 1]");
    s.add_edge(p, "", n, "_dest", "peer[0]");
    s.add_edge(tg, "", n, "_tag", "tag[0]");
    return s;
  };
  auto recv = [&](const char* label, const char* data, const char* subset) {
    libdace::state s = g.add_state(label);
    dace_id_t b = s.add_access(data), p = s.add_access("peer"), tg = s.add_access("tag");
    dace_id_t n = s.add_library_node("recv", "dace.libraries.mpi.nodes.recv.Recv", "_src, _tag", "_buffer");
    s.add_edge(p, "", n, "_src", "peer[0]");
    s.add_edge(tg, "", n, "_tag", "tag[0]");
    s.add_edge(n, "_buffer", b, "", subset);
    return s;
  };
  libdace::state even_send = send("even_send"), even_recv = recv("even_recv", "D", "D[0:8:2]");
  libdace::state odd_recv = recv("odd_recv", "B", "B[1:3, 2:4]"), odd_send = send("odd_send");
  libdace::state end = g.add_state("end");
  g.add_interstate_edge(s0, even_send, "rank % 2 == 0");
  g.add_interstate_edge(even_send, even_recv);
  g.add_interstate_edge(even_recv, end);
  g.add_interstate_edge(s0, odd_recv, "rank % 2 == 1");
  g.add_interstate_edge(odd_recv, odd_send);
  g.add_interstate_edge(odd_send, end);
  libdace::context ctx;
  libdace::program p(ctx, g);
  std::vector<int32_t> a(20), b(20, -1), d(8, -2);
  for (int i = 0; i < 20; ++i) a[static_cast<size_t>(i)] = 100 * kRank + i;
  p({{"A", libdace::array_ref<int32_t>(a.data(), {4, 5})}, {"B", libdace::array_ref<int32_t>(b.data(), {4, 5})},
     {"D", libdace::array_ref<int32_t>(d.data(), {8})}, {"rank", static_cast<int32_t>(kRank)}});
  const int peer = kRank % 2 == 0 ? kRank + 1 : kRank - 1;
  auto column = [&](int i) { return 100 * peer + i * 5 + 1; };  // the peer's A[i, 1]
  if (kRank % 2 == 0) {
    for (int i = 0; i < 8; ++i)
      expect(d[static_cast<size_t>(i)] == (i % 2 == 0 ? column(i / 2) : -2), "strided Recv into D[0:8:2], element " + std::to_string(i));
  } else {
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j) {
        bool inside = i >= 1 && i < 3 && j >= 2 && j < 4;
        int want = inside ? column((i - 1) * 2 + (j - 2)) : -1;
        expect(b[static_cast<size_t>(i * 5 + j)] == want,
               "strided Recv into B[1:3, 2:4], element (" + std::to_string(i) + ", " + std::to_string(j) + ")");
      }
  }
}

// One collective node `cls` from `in_subset` (of array "x") to `out_subset` (of array "y";
// the same container when `y_shape` is empty), with a "root" scalar when `rooted`.
libdace::sdfg collective_sdfg(const char* name, const char* cls, dace_dtype_t t, const std::string& x_shape,
                              const std::string& y_shape, const std::string& in_subset, const std::string& out_subset,
                              bool rooted, const std::string& props = {}) {
  libdace::sdfg g(name);
  g.add_array("x", t, x_shape);
  if (!y_shape.empty()) g.add_array("y", t, y_shape);
  if (rooted) g.add_scalar("root", DACE_INT32);
  libdace::state s = g.add_state("s");
  const std::string out_name = y_shape.empty() ? "x" : "y";
  dace_id_t in = s.add_access("x"), out = s.add_access(out_name);
  dace_id_t n = s.add_library_node("c", cls, rooted ? "_inbuffer, _root" : "_inbuffer", "_outbuffer", "", props);
  s.add_edge(in, "", n, "_inbuffer", in_subset);
  if (rooted) s.add_edge(s.add_access("root"), "", n, "_root", "root[0]");
  s.add_edge(n, "_outbuffer", out, "", out_subset);
  return g;
}

// Collectives on strided subsets (a column, every k-th element), staged through contiguous
// copies: every rank against loops; elements outside the subsets must stay as they were.
void check_strided_collectives() {
  const int P = kSize, last = kSize - 1;
  libdace::context ctx;
  {  // Bcast of the column A[0:4, 1] of a 4 x 3 int32 array from the last rank.
    libdace::program p(ctx, collective_sdfg("bcast_col", "dace.libraries.mpi.nodes.bcast.Bcast", DACE_INT32, "4, 3", "",
                                            "x[0:4, 1]", "x[0:4, 1]", true));
    std::vector<int32_t> a(12);
    for (int i = 0; i < 12; ++i) a[static_cast<size_t>(i)] = 100 * kRank + i;
    p({{"x", libdace::array_ref<int32_t>(a.data(), {4, 3})}, {"root", static_cast<int32_t>(last)}});
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j)
        expect(a[static_cast<size_t>(3 * i + j)] == (j == 1 ? 100 * last : 100 * kRank) + 3 * i + j,
               "strided Bcast column element " + std::to_string(i) + ", " + std::to_string(j));
  }
  {  // Allreduce MPI_SUM in place on D[0:8:2] (float64).
    libdace::program p(ctx, collective_sdfg("allreduce_even", "dace.libraries.mpi.nodes.allreduce.Allreduce",
                                            DACE_FLOAT64, "8", "", "x[0:8:2]", "x[0:8:2]", false,
                                            "{\"op\": \"MPI_SUM\"}"));
    std::vector<double> d(8);
    for (int k = 0; k < 8; ++k) d[static_cast<size_t>(k)] = kRank + 0.5 * k;
    p({{"x", libdace::array_ref<double>(d.data(), {8})}});
    for (int k = 0; k < 8; ++k) {
      double want = kRank + 0.5 * k;
      if (k % 2 == 0) {
        want = 0;
        for (int r = 0; r < P; ++r) want += r + 0.5 * k;
      }
      expect(d[static_cast<size_t>(k)] == want, "strided Allreduce element " + std::to_string(k));
    }
  }
  {  // Reduce MPI_MAX from the column X[0:3, 0] (int64, 3 x 2) into Y[0:6:2] on the last rank.
    libdace::program p(ctx, collective_sdfg("reduce_col", "dace.libraries.mpi.nodes.reduce.Reduce", DACE_INT64, "3, 2",
                                            "6", "x[0:3, 0]", "y[0:6:2]", true, "{\"op\": \"MPI_MAX\"}"));
    auto value = [](int r, int i) { return static_cast<int64_t>((r * 7 + i * 3) % 5 - 2 * i); };
    std::vector<int64_t> x(6), y(6, -99);
    for (int i = 0; i < 3; ++i) {
      x[static_cast<size_t>(2 * i)] = value(kRank, i);
      x[static_cast<size_t>(2 * i + 1)] = 1000;  // not in the subset: must not count
    }
    p({{"x", libdace::array_ref<int64_t>(x.data(), {3, 2})}, {"y", libdace::array_ref<int64_t>(y.data(), {6})},
       {"root", static_cast<int32_t>(last)}});
    for (int k = 0; k < 6; ++k) {
      int64_t want = -99;
      if (kRank == last && k % 2 == 0) {
        want = value(0, k / 2);
        for (int r = 1; r < P; ++r) want = std::max(want, value(r, k / 2));
      }
      expect(y[static_cast<size_t>(k)] == want, "strided Reduce element " + std::to_string(k));
    }
  }
  const int64_t L = 3;
  {  // Scatter S[0:2PL:2] from rank 0 into the column T[0:L, 1] of an L x 2 array.
    const int64_t n = 2 * P * L;
    libdace::program p(ctx, collective_sdfg("scatter_s", "dace.libraries.mpi.nodes.scatter.Scatter", DACE_INT32,
                                            std::to_string(n), std::to_string(L) + ", 2", "x[0:" + std::to_string(n) + ":2]",
                                            "y[0:" + std::to_string(L) + ", 1]", true));
    std::vector<int32_t> src(static_cast<size_t>(n)), t(static_cast<size_t>(2 * L), -3);
    for (int64_t k = 0; k < n; ++k) src[static_cast<size_t>(k)] = kRank == 0 ? static_cast<int32_t>(k % 2 ? -1 : 10 * k) : -5;
    p({{"x", libdace::array_ref<int32_t>(src.data(), {n})}, {"y", libdace::array_ref<int32_t>(t.data(), {L, 2})},
       {"root", int32_t{0}}});
    for (int64_t i = 0; i < L; ++i) {
      expect(t[static_cast<size_t>(2 * i + 1)] == 10 * 2 * (kRank * L + i), "strided Scatter element " + std::to_string(i));
      expect(t[static_cast<size_t>(2 * i)] == -3, "strided Scatter left column 0 alone");
    }
  }
  {  // Gather the column T[0:L, 1] into G[0:PL, 0] of a PL x 2 array on rank 0.
    const int64_t n = P * L;
    libdace::program p(ctx, collective_sdfg("gather_g", "dace.libraries.mpi.nodes.gather.Gather", DACE_INT32,
                                            std::to_string(L) + ", 2", std::to_string(n) + ", 2",
                                            "x[0:" + std::to_string(L) + ", 1]", "y[0:" + std::to_string(n) + ", 0]", true));
    std::vector<int32_t> t(static_cast<size_t>(2 * L)), gv(static_cast<size_t>(2 * n), -8);
    for (int64_t i = 0; i < L; ++i) {
      t[static_cast<size_t>(2 * i)] = -1;
      t[static_cast<size_t>(2 * i + 1)] = static_cast<int32_t>(50 * kRank + i);
    }
    p({{"x", libdace::array_ref<int32_t>(t.data(), {L, 2})}, {"y", libdace::array_ref<int32_t>(gv.data(), {n, 2})},
       {"root", int32_t{0}}});
    for (int64_t k = 0; k < n; ++k) {
      const int32_t want0 = kRank == 0 ? static_cast<int32_t>(50 * (k / L) + k % L) : -8;
      expect(gv[static_cast<size_t>(2 * k)] == want0, "strided Gather element " + std::to_string(k));
      expect(gv[static_cast<size_t>(2 * k + 1)] == -8, "strided Gather left column 1 alone");
    }
  }
  {  // Allgather the column T[0:L, 1] into H[0:3PL:3].
    const int64_t n = 3 * P * L;
    libdace::program p(ctx, collective_sdfg("allgather_h", "dace.libraries.mpi.nodes.allgather.Allgather", DACE_INT32,
                                            std::to_string(L) + ", 2", std::to_string(n),
                                            "x[0:" + std::to_string(L) + ", 1]", "y[0:" + std::to_string(n) + ":3]", false));
    std::vector<int32_t> t(static_cast<size_t>(2 * L)), h(static_cast<size_t>(n), -4);
    for (int64_t i = 0; i < L; ++i) {
      t[static_cast<size_t>(2 * i)] = -1;
      t[static_cast<size_t>(2 * i + 1)] = static_cast<int32_t>(70 * kRank + i);
    }
    p({{"x", libdace::array_ref<int32_t>(t.data(), {L, 2})}, {"y", libdace::array_ref<int32_t>(h.data(), {n})}});
    for (int64_t k = 0; k < n; ++k) {
      const int64_t j = k / 3;
      const int32_t want = k % 3 ? -4 : static_cast<int32_t>(70 * (j / L) + j % L);
      expect(h[static_cast<size_t>(k)] == want, "strided Allgather element " + std::to_string(k));
    }
  }
  {  // Alltoall (float32) from the column U[0:2P, 0] of a 2P x 2 array into V[0:4P:2].
    const int64_t n = 2 * P;
    libdace::program p(ctx, collective_sdfg("alltoall_v", "dace.libraries.mpi.nodes.alltoall.Alltoall", DACE_FLOAT32,
                                            std::to_string(n) + ", 2", std::to_string(2 * n),
                                            "x[0:" + std::to_string(n) + ", 0]", "y[0:" + std::to_string(2 * n) + ":2]",
                                            false));
    std::vector<float> u(static_cast<size_t>(2 * n)), v(static_cast<size_t>(2 * n), -2.0f);
    for (int64_t k = 0; k < n; ++k) {
      u[static_cast<size_t>(2 * k)] = static_cast<float>(100 * kRank + k);
      u[static_cast<size_t>(2 * k + 1)] = -1.0f;
    }
    p({{"x", libdace::array_ref<float>(u.data(), {n, 2})}, {"y", libdace::array_ref<float>(v.data(), {2 * n})}});
    for (int64_t k = 0; k < 2 * n; ++k) {
      const int64_t j = k / 2, from = j / 2, e = j % 2;  // 2 elements from each rank
      const float want = k % 2 ? -2.0f : static_cast<float>(100 * from + 2 * kRank + e);
      expect(v[static_cast<size_t>(k)] == want, "strided Alltoall element " + std::to_string(k));
    }
  }
}

// Subsets strided in two and three dimensions: point-to-point as nested MPI vector types,
// collectives staged. Every rank against loops; elements outside the subsets keep their
// values.
void check_multi_strided() {
  const int P = kSize, last = kSize - 1;
  libdace::context ctx;
  if (kSize % 2 == 0) {
    // Pairs (0, 1), (2, 3), ...: A[0:4:2, 0:5:2] of a 4 x 5 int32 array (2 x 3 elements) into
    // C[0:2, 0:3, 1] of a 2 x 3 x 4 array of the peer.
    libdace::sdfg g("p2p_2d");
    g.add_array("A", DACE_INT32, "4, 5");
    g.add_array("C", DACE_INT32, "2, 3, 4");
    g.add_scalar("peer", DACE_INT32);
    g.add_scalar("tag", DACE_INT32);
    libdace::state start = g.add_state("start");
    libdace::state s0 = g.add_state("send_first"), s1 = g.add_state("recv_second");
    libdace::state r0 = g.add_state("recv_first"), r1 = g.add_state("send_second"), end = g.add_state("end");
    auto send = [&](libdace::state& s) {
      dace_id_t n = s.add_library_node("send", "dace.libraries.mpi.nodes.send.Send", "_buffer, _dest, _tag", "");
      s.add_edge(s.add_access("A"), "", n, "_buffer", "A[0:4:2, 0:5:2]");
      s.add_edge(s.add_access("peer"), "", n, "_dest", "peer[0]");
      s.add_edge(s.add_access("tag"), "", n, "_tag", "tag[0]");
    };
    auto recv = [&](libdace::state& s) {
      dace_id_t n = s.add_library_node("recv", "dace.libraries.mpi.nodes.recv.Recv", "_src, _tag", "_buffer");
      s.add_edge(s.add_access("peer"), "", n, "_src", "peer[0]");
      s.add_edge(s.add_access("tag"), "", n, "_tag", "tag[0]");
      s.add_edge(n, "_buffer", s.add_access("C"), "", "C[0:2, 0:3, 1]");
    };
    send(s0);
    recv(s1);
    recv(r0);
    send(r1);
    // Even ranks (odd peers) send first.
    g.add_interstate_edge(start, s0, "peer % 2 == 1");
    g.add_interstate_edge(s0, s1);
    g.add_interstate_edge(s1, end);
    g.add_interstate_edge(start, r0, "peer % 2 == 0");
    g.add_interstate_edge(r0, r1);
    g.add_interstate_edge(r1, end);
    libdace::program p(ctx, g);
    const int peer = kRank % 2 == 0 ? kRank + 1 : kRank - 1;
    std::vector<int32_t> a(20), c(24, -6);
    for (int i = 0; i < 20; ++i) a[static_cast<size_t>(i)] = 1000 * kRank + i;
    p({{"A", libdace::array_ref<int32_t>(a.data(), {4, 5})}, {"C", libdace::array_ref<int32_t>(c.data(), {2, 3, 4})},
       {"peer", static_cast<int32_t>(peer)}, {"tag", int32_t{5}}});
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) {
          const int32_t want = k == 1 ? 1000 * peer + (2 * i) * 5 + 2 * j : -6;
          expect(c[static_cast<size_t>(12 * i + 4 * j + k)] == want, "2-D strided Send into C[0:2, 0:3, 1], element (" +
                                                                         std::to_string(i) + ", " + std::to_string(j) +
                                                                         ", " + std::to_string(k) + ")");
        }
  }
  {  // Bcast of A[0:4:2, 0:5:2] (int32) from the last rank, in place.
    libdace::program p(ctx, collective_sdfg("bcast_2d", "dace.libraries.mpi.nodes.bcast.Bcast", DACE_INT32, "4, 5", "",
                                            "x[0:4:2, 0:5:2]", "x[0:4:2, 0:5:2]", true));
    std::vector<int32_t> a(20);
    for (int i = 0; i < 20; ++i) a[static_cast<size_t>(i)] = 100 * kRank + i;
    p({{"x", libdace::array_ref<int32_t>(a.data(), {4, 5})}, {"root", static_cast<int32_t>(last)}});
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j) {
        const bool inside = i % 2 == 0 && j % 2 == 0;
        expect(a[static_cast<size_t>(5 * i + j)] == (inside ? 100 * last : 100 * kRank) + 5 * i + j,
               "2-D strided Bcast element " + std::to_string(i) + ", " + std::to_string(j));
      }
  }
  {  // Allreduce MPI_SUM in place on X[0:3:2, 1:3, 0:5:2] of a 3 x 4 x 5 float64 array.
    libdace::program p(ctx, collective_sdfg("allreduce_3d", "dace.libraries.mpi.nodes.allreduce.Allreduce",
                                            DACE_FLOAT64, "3, 4, 5", "", "x[0:3:2, 1:3, 0:5:2]",
                                            "x[0:3:2, 1:3, 0:5:2]", false, "{\"op\": \"MPI_SUM\"}"));
    auto value = [](int r, int e) { return 0.25 * e + 10.0 * r; };
    std::vector<double> x(60);
    for (int e = 0; e < 60; ++e) x[static_cast<size_t>(e)] = value(kRank, e);
    p({{"x", libdace::array_ref<double>(x.data(), {3, 4, 5})}});
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 5; ++k) {
          const int e = 20 * i + 5 * j + k;
          double want = value(kRank, e);
          if (i % 2 == 0 && j >= 1 && j < 3 && k % 2 == 0) {
            want = 0;
            for (int r = 0; r < P; ++r) want += value(r, e);
          }
          expect(x[static_cast<size_t>(e)] == want, "3-D strided Allreduce element " + std::to_string(e));
        }
  }
  {  // Gather X[0:2, 0:4:2] (int32, 2 x 4: 4 elements) into Y[0:P, 1, 0:8:2] of P x 2 x 8 on rank 0.
    libdace::program p(ctx, collective_sdfg("gather_2d", "dace.libraries.mpi.nodes.gather.Gather", DACE_INT32, "2, 4",
                                            std::to_string(P) + ", 2, 8", "x[0:2, 0:4:2]",
                                            "y[0:" + std::to_string(P) + ", 1, 0:8:2]", true));
    std::vector<int32_t> x(8), y(static_cast<size_t>(16 * P), -9);
    for (int e = 0; e < 8; ++e) x[static_cast<size_t>(e)] = 40 * kRank + e;
    p({{"x", libdace::array_ref<int32_t>(x.data(), {2, 4})},
       {"y", libdace::array_ref<int32_t>(y.data(), {static_cast<int64_t>(P), 2, 8})}, {"root", int32_t{0}}});
    for (int r = 0; r < P; ++r)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 8; ++k) {
          int32_t want = -9;
          if (kRank == 0 && j == 1 && k % 2 == 0) {
            const int m = k / 2;                    // m-th of rank r's 4 elements, row-major over 2 x 2
            want = 40 * r + (m / 2) * 4 + (m % 2) * 2;  // x[m / 2, 2 * (m % 2)]
          }
          expect(y[static_cast<size_t>(16 * r + 8 * j + k)] == want,
                 "2-D strided Gather element (" + std::to_string(r) + ", " + std::to_string(j) + ", " +
                     std::to_string(k) + ")");
        }
  }
}

// ---- Every node for every element type DaCe's MPI nodes accept ----

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};

// Rank r's element i: distinct for r < 4 and i < 8, and small enough that a sum over four
// ranks stays exact in int8; complex values use both parts.
template <class T>
T typed_value(int rank, int64_t i) {
  const int64_t re = 8 * rank + i % 8 + 1;
  if constexpr (is_complex<T>::value)
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(-(rank + 2 * i)));
  else
    return static_cast<T>(re);
}

// A buffer argument: a (connector, memlet) pair; the container is the memlet's data.
using Port = std::pair<std::string, std::string>;

// One state holding library node `label` of class dace.libraries.mpi.nodes.`cls`, its inputs
// read from and its outputs written to their containers.
libdace::state node_state(libdace::sdfg& g, const std::string& label, const char* cls, const std::vector<Port>& ins,
                          const std::vector<Port>& outs, const std::string& props = {}) {
  libdace::state s = g.add_state(label);
  auto names = [](const std::vector<Port>& ports) {
    std::string out;
    for (const Port& p : ports) out += (out.empty() ? "" : ", ") + p.first;
    return out;
  };
  auto data = [](const Port& p) { return p.second.substr(0, p.second.find('[')); };
  const std::string classpath = std::string("dace.libraries.mpi.nodes.") + cls;
  dace_id_t n = s.add_library_node(label, classpath, names(ins), names(outs), "", props);
  for (const Port& p : ins) s.add_edge(s.add_access(data(p)), "", n, p.first, p.second);
  for (const Port& p : outs) s.add_edge(n, p.first, s.add_access(data(p)), "", p.second);
  return s;
}

// Allreduce (MPI_SUM, in place) -> Bcast (in place, from `last`) -> Reduce (to `last`; MPI_MAX,
// MPI_SUM for complex types) -> Scatter, Gather (root `first`) -> Allgather -> Alltoall ->
// Send/Recv between the pairs (0, 1), (2, 3), ...: `role` 0 sends first, 1 receives first, 2
// (the last rank of an odd count) takes no part. Vectors of N elements, blocks of L per rank.
libdace::sdfg typed_nodes_sdfg(dace_dtype_t t, bool complex_type) {
  libdace::sdfg g("typed_nodes");
  for (const char* s : {"N", "L", "P"}) g.add_symbol(s);
  for (const char* a : {"ar", "bc", "rx", "ry", "so", "si"}) g.add_array(a, t, "N");
  for (const char* a : {"sl", "gl", "agx"}) g.add_array(a, t, "L");
  for (const char* a : {"sa", "gb", "agy", "a2x", "a2y"}) g.add_array(a, t, "P*L");
  for (const char* s : {"first", "last", "peer", "role", "tag"}) g.add_scalar(s, DACE_INT32);
  const std::string reduce_op = complex_type ? "MPI_SUM" : "MPI_MAX";
  std::vector<libdace::state> chain{
      node_state(g, "allreduce", "allreduce.Allreduce", {{"_inbuffer", "ar[0:N]"}},
                 {{"_outbuffer", "ar[0:N]"}}, "{\"op\": \"MPI_SUM\"}"),
      node_state(g, "bcast", "bcast.Bcast", {{"_inbuffer", "bc[0:N]"}, {"_root", "last[0]"}},
                 {{"_outbuffer", "bc[0:N]"}}),
      node_state(g, "reduce", "reduce.Reduce", {{"_inbuffer", "rx[0:N]"}, {"_root", "last[0]"}},
                 {{"_outbuffer", "ry[0:N]"}}, "{\"op\": \"" + reduce_op + "\"}"),
      node_state(g, "scatter", "scatter.Scatter", {{"_inbuffer", "sa[0:P*L]"}, {"_root", "first[0]"}},
                 {{"_outbuffer", "sl[0:L]"}}),
      node_state(g, "gather", "gather.Gather", {{"_inbuffer", "gl[0:L]"}, {"_root", "first[0]"}},
                 {{"_outbuffer", "gb[0:P*L]"}}),
      node_state(g, "allgather", "allgather.Allgather", {{"_inbuffer", "agx[0:L]"}},
                 {{"_outbuffer", "agy[0:P*L]"}}),
      node_state(g, "alltoall", "alltoall.Alltoall", {{"_inbuffer", "a2x[0:P*L]"}},
                 {{"_outbuffer", "a2y[0:P*L]"}})};
  for (size_t i = 1; i < chain.size(); ++i) g.add_interstate_edge(chain[i - 1], chain[i]);
  auto send = [&](const char* label) {
    return node_state(g, label, "send.Send", {{"_buffer", "so[0:N]"}, {"_dest", "peer[0]"}, {"_tag", "tag[0]"}}, {});
  };
  auto recv = [&](const char* label) {
    return node_state(g, label, "recv.Recv", {{"_src", "peer[0]"}, {"_tag", "tag[0]"}}, {{"_buffer", "si[0:N]"}});
  };
  libdace::state send_first = send("send_first"), recv_second = recv("recv_second");
  libdace::state recv_first = recv("recv_first"), send_second = send("send_second"), end = g.add_state("end");
  g.add_interstate_edge(chain.back(), send_first, "role == 0");
  g.add_interstate_edge(send_first, recv_second);
  g.add_interstate_edge(recv_second, end);
  g.add_interstate_edge(chain.back(), recv_first, "role == 1");
  g.add_interstate_edge(recv_first, send_second);
  g.add_interstate_edge(send_second, end);
  g.add_interstate_edge(chain.back(), end, "role == 2");
  return g;
}

// Runs typed_nodes_sdfg for element type T and checks every buffer on every rank against
// loops over typed_value; elements a node must not write keep the value T{}.
template <class T>
void check_typed_nodes(dace_dtype_t t, const char* type_name, libdace::context& ctx) {
  constexpr bool complex_type = is_complex<T>::value;
  const int P = kSize, first = 0, last = kSize - 1;
  const int64_t N = 5, L = 2, PL = P * L;
  const int peer = kRank ^ 1, role = peer >= P ? 2 : kRank % 2;
  auto v = [](int r, int64_t i) { return typed_value<T>(r, i); };
  std::vector<T> ar(N), bc(N), rx(N), ry(N), so(N), si(N), sl(L), gl(L), agx(L), sa(PL), gb(PL), agy(PL), a2x(PL),
      a2y(PL);
  for (int64_t i = 0; i < N; ++i) ar[i] = bc[i] = rx[i] = so[i] = v(kRank, i);
  for (int64_t i = 0; i < L; ++i) gl[i] = agx[i] = v(kRank, i);
  for (int64_t k = 0; k < PL; ++k) {
    sa[k] = kRank == first ? v(static_cast<int>(k / L), k % L) : T{};
    a2x[k] = v(kRank, k);
  }
  const std::vector<T> rx0 = rx;
  libdace::program p(ctx, typed_nodes_sdfg(t, complex_type));
  auto ref = [](std::vector<T>& b) { return libdace::array_ref<T>(b.data(), {static_cast<int64_t>(b.size())}); };
  p({{"ar", ref(ar)}, {"bc", ref(bc)}, {"rx", ref(rx)}, {"ry", ref(ry)}, {"so", ref(so)}, {"si", ref(si)},
     {"sl", ref(sl)}, {"gl", ref(gl)}, {"agx", ref(agx)}, {"sa", ref(sa)}, {"gb", ref(gb)}, {"agy", ref(agy)},
     {"a2x", ref(a2x)}, {"a2y", ref(a2y)}, {"first", int32_t{first}}, {"last", static_cast<int32_t>(last)},
     {"peer", static_cast<int32_t>(peer)}, {"role", static_cast<int32_t>(role)}, {"tag", int32_t{11}},
     {"N", libdace::symbol{N}}, {"L", libdace::symbol{L}}, {"P", libdace::symbol{static_cast<int64_t>(P)}}});
  const std::string of = std::string(" ") + type_name + " element ";
  const std::string reduce_op = complex_type ? "MPI_SUM" : "MPI_MAX";
  for (int64_t i = 0; i < N; ++i) {
    T sum = v(0, i), reduced = v(0, i);
    for (int r = 1; r < P; ++r) {
      sum = static_cast<T>(sum + v(r, i));
      if constexpr (complex_type)
        reduced = sum;
      else
        reduced = std::max(reduced, v(r, i));
    }
    const std::string at = of + std::to_string(i);
    expect(ar[i] == sum, "Allreduce MPI_SUM" + at);
    expect(bc[i] == v(last, i), "Bcast" + at);
    expect(rx[i] == rx0[i], "Reduce left its input alone," + at);
    expect(ry[i] == (kRank == last ? reduced : T{}), "Reduce " + reduce_op + at);
    expect(si[i] == (role == 2 ? T{} : v(peer, i)), "Send/Recv" + at);
  }
  for (int64_t i = 0; i < L; ++i) expect(sl[i] == v(kRank, i), "Scatter" + of + std::to_string(i));
  for (int64_t k = 0; k < PL; ++k) {
    const int from = static_cast<int>(k / L);
    const std::string at = of + std::to_string(k);
    expect(gb[k] == (kRank == first ? v(from, k % L) : T{}), "Gather" + at);
    expect(agy[k] == v(from, k % L), "Allgather" + at);
    expect(a2y[k] == v(from, kRank * L + k % L), "Alltoall" + at);  // block kRank of rank `from`
  }
}

// float16 has no MPI datatype: each node refuses it at compile time, naming itself and the type.
void check_float16_refused(libdace::context& ctx) {
  struct Refused {
    const char* label;
    const char* cls;
    std::vector<Port> ins, outs;
  };
  const std::vector<Refused> nodes{
      {"allreduce_f16", "allreduce.Allreduce", {{"_inbuffer", "x[0:4]"}}, {{"_outbuffer", "x[0:4]"}}},
      {"bcast_f16", "bcast.Bcast", {{"_inbuffer", "x[0:4]"}, {"_root", "root[0]"}}, {{"_outbuffer", "x[0:4]"}}},
      {"reduce_f16", "reduce.Reduce", {{"_inbuffer", "x[0:4]"}, {"_root", "root[0]"}}, {{"_outbuffer", "y[0:4]"}}},
      {"scatter_f16", "scatter.Scatter", {{"_inbuffer", "y[0:4]"}, {"_root", "root[0]"}}, {{"_outbuffer", "x[0:4]"}}},
      {"gather_f16", "gather.Gather", {{"_inbuffer", "x[0:4]"}, {"_root", "root[0]"}}, {{"_outbuffer", "y[0:4]"}}},
      {"allgather_f16", "allgather.Allgather", {{"_inbuffer", "x[0:4]"}}, {{"_outbuffer", "y[0:4]"}}},
      {"alltoall_f16", "alltoall.Alltoall", {{"_inbuffer", "x[0:4]"}}, {{"_outbuffer", "y[0:4]"}}},
      {"send_f16", "send.Send", {{"_buffer", "x[0:4]"}, {"_dest", "root[0]"}, {"_tag", "root[0]"}}, {}},
      {"recv_f16", "recv.Recv", {{"_src", "root[0]"}, {"_tag", "root[0]"}}, {{"_buffer", "x[0:4]"}}}};
  for (const Refused& r : nodes) {
    libdace::sdfg g("refuse_f16");
    g.add_array("x", DACE_FLOAT16, "4");
    g.add_array("y", DACE_FLOAT16, "4");
    g.add_scalar("root", DACE_INT32);
    node_state(g, r.label, r.cls, r.ins, r.outs, "{\"op\": \"MPI_SUM\"}");
    const std::string what = std::string(r.label) + " refuses float16";
    try {
      libdace::program prog(ctx, g);
      expect(false, what);
    } catch (const libdace::error& e) {
      const std::string m = e.what();
      const std::string node = std::string("LibraryNode \"") + r.label + "\"";  // not just its state's name
      expect(e.code() == DACE_ERROR_UNSUPPORTED && m.find(node) != std::string::npos &&
                 m.find("float16") != std::string::npos,
             what + " (" + m + ")");
    }
  }
}

void check_every_type() {
  libdace::context ctx;
  check_typed_nodes<int8_t>(DACE_INT8, "int8", ctx);
  check_typed_nodes<int16_t>(DACE_INT16, "int16", ctx);
  check_typed_nodes<int32_t>(DACE_INT32, "int32", ctx);
  check_typed_nodes<int64_t>(DACE_INT64, "int64", ctx);
  check_typed_nodes<uint8_t>(DACE_UINT8, "uint8", ctx);
  check_typed_nodes<uint16_t>(DACE_UINT16, "uint16", ctx);
  check_typed_nodes<uint32_t>(DACE_UINT32, "uint32", ctx);
  check_typed_nodes<uint64_t>(DACE_UINT64, "uint64", ctx);
  check_typed_nodes<float>(DACE_FLOAT32, "float32", ctx);
  check_typed_nodes<double>(DACE_FLOAT64, "float64", ctx);
  check_typed_nodes<std::complex<float>>(DACE_COMPLEX64, "complex64", ctx);
  check_typed_nodes<std::complex<double>>(DACE_COMPLEX128, "complex128", ctx);
  check_float16_refused(ctx);
}

// A node that takes contiguous buffers only (Redistribute: subarray blocks) refuses a
// strided subset at compile time, naming the connector.
void check_strided_refusal() {
  libdace::sdfg g("refuse_t");
  g.add_array("A", DACE_INT32, "4, 5");
  g.add_array("B", DACE_INT32, "4, 5");
  libdace::state s = g.add_state("s");
  dace_id_t n = s.add_library_node("n", "dace.libraries.mpi.nodes.redistribute.Redistribute", "_inp_buffer",
                                   "_out_buffer", "", "{\"redistr\": \"r\"}");
  s.add_edge(s.add_access("A"), "", n, "_inp_buffer", "A[0:4:2, 0:5:2]");
  s.add_edge(n, "_out_buffer", s.add_access("B"), "", "B[0:4, 0:5]");
  const std::string want = "connector \"_inp_buffer\": the subset of \"A\" is not contiguous";
  try {
    libdace::context ctx;
    libdace::program prog(ctx, g);
    expect(false, "refused: " + want);
  } catch (const libdace::error& e) {
    expect(e.code() == DACE_ERROR_UNSUPPORTED && std::string(e.what()).find(want) != std::string::npos,
           "refused: " + want + " (" + e.what() + ")");
  }
}

}  // namespace

int main() {
  try {
    check_allreduce<float>(DACE_FLOAT32, "MPI_MAX", [](float a, float b) { return std::max(a, b); }, small<float>, "float32");
    check_allreduce<int64_t>(DACE_INT64, "MPI_PROD", [](int64_t a, int64_t b) { return a * b; }, small<int64_t>, "int64");
    check_allreduce<int32_t>(DACE_INT32, "MPI_MIN", [](int32_t a, int32_t b) { return std::min(a, b); }, small<int32_t>, "int32");
    check_every_type();
    check_strided_send_recv();
    check_strided_collectives();
    check_multi_strided();
    check_strided_refusal();
  } catch (const std::exception& e) {
    expect(false, e.what());
  }
  if (failures == 0) std::printf("rank %d of %d: all MPI node checks passed\n", kRank, kSize);
  return failures == 0 ? 0 : 1;
}
