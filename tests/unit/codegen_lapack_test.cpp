// LAPACK / linear-algebra library nodes through LAPACKE (plugins/cpu/lowering/lapack.cpp):
// results are checked against independent references computed here with plain loops
// (residuals A X - B, products L L^H, A A^-1 - I), never against LAPACK itself; strided,
// column-major and sub-block operands; int64 pivots; the info output on singular and
// indefinite matrices; and the Unsupported answers without LAPACKE.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <complex>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "lowering/lapack.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "lapack_test_support.h"
#include "plugin/registry.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using c64 = std::complex<float>;
using c128 = std::complex<double>;

constexpr const char* kSolve = "dace.libraries.linalg.nodes.solve.Solve";
constexpr const char* kInv = "dace.libraries.linalg.nodes.inv.Inv";
constexpr const char* kCholesky = "dace.libraries.linalg.nodes.cholesky.Cholesky";
constexpr const char* kGetrf = "dace.libraries.lapack.nodes.getrf.Getrf";
constexpr const char* kGetri = "dace.libraries.lapack.nodes.getri.Getri";
constexpr const char* kGetrs = "dace.libraries.lapack.nodes.getrs.Getrs";
constexpr const char* kPotrf = "dace.libraries.lapack.nodes.potrf.Potrf";
constexpr const char* kPotrs = "dace.libraries.lapack.nodes.potrs.Potrs";

template <class V>
T type_of();
template <>
T type_of<float>() { return T::Float32; }
template <>
T type_of<double>() { return T::Float64; }
template <>
T type_of<c64>() { return T::Complex64; }
template <>
T type_of<c128>() { return T::Complex128; }

template <class V>
char prefix() {
  if constexpr (std::is_same_v<V, float>) return 's';
  else if constexpr (std::is_same_v<V, double>) return 'd';
  else if constexpr (std::is_same_v<V, c64>) return 'c';
  else return 'z';
}

template <class V>
double tol() {
  return std::is_same_v<V, float> || std::is_same_v<V, c64> ? 1e-4 : 1e-11;
}

template <class V>
V conj_of(V v) {
  if constexpr (std::is_same_v<V, c64> || std::is_same_v<V, c128>) return std::conj(v);
  else return v;
}

// Deterministic values in [-1, 1] (complex ones with an imaginary part).
template <class V>
V value(int i) {
  double re = ((i * 37) % 23 - 11) / 11.0;
  if constexpr (std::is_same_v<V, c64>) return c64(static_cast<float>(re), static_cast<float>(((i * 13) % 7 - 3) / 3.0));
  else if constexpr (std::is_same_v<V, c128>) return c128(re, ((i * 13) % 7 - 3) / 3.0);
  else return static_cast<V>(re);
}

template <class V>
std::vector<V> filled(size_t n, int seed) {
  std::vector<V> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = value<V>(static_cast<int>(i) + seed);
  return v;
}

// |got - want| small relative to `scale`.
template <class V>
void expect_close(V got, V want, double scale, const std::string& what) {
  EXPECT_LE(std::abs(got - want), tol<V>() * (1 + scale)) << what;
}

int lib_node(ir::State& s, const std::string& cls, const std::vector<std::string>& ins,
             const std::vector<std::string>& outs, const std::map<std::string, std::string>& props = {},
             const std::string& implementation = "") {
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = cls.substr(cls.rfind('.') + 1);
  n->classpath = cls;
  for (const std::string& c : ins) n->in_connectors[c] = ir::DType{};
  for (const std::string& c : outs) n->out_connectors[c] = ir::DType{};
  for (const auto& [k, v] : props) n->properties[k] = v;
  n->implementation = implementation;
  return s.add_node(std::move(n));
}

std::unique_ptr<ir::SDFG> new_sdfg(const std::string& name) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  return g;
}

bool calls(const CompiledProgram& p, const std::string& fn) { return p.ir.find("@" + fn + "(") != std::string::npos; }

Result<CompiledProgram> compile_valid(const ir::SDFG& g, const LowerOptions& options) {
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return compile(g, options);
}

// Solve with A a sub-block of a wider array (row stride 9: used in place), B every other column
// (column step 2: staged through a temporary) and X a sub-block of a larger array.
template <class V>
void solve_case() {
  constexpr int N = 5, K = 3;
  T t = type_of<V>();
  auto g = new_sdfg("solve");
  add_array(*g, "A", t, {"5", "9"});
  add_array(*g, "B", t, {"5", "8"});
  add_array(*g, "X", t, {"7", "5"});
  ir::State& s = add_state(*g, *g, "s");
  int n = lib_node(s, kSolve, {"_ain", "_bin"}, {"_bout"});
  edge(s, access(s, "A"), "", n, "_ain", "A[0:5, 2:7]");
  edge(s, access(s, "B"), "", n, "_bin", "B[0:5, 0:6:2]");
  edge(s, n, "_bout", access(s, "X"), "", "X[1:6, 1:4]");
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(calls(*p, std::string("LAPACKE_") + prefix<V>() + "getrf"));
  EXPECT_TRUE(calls(*p, std::string("LAPACKE_") + prefix<V>() + "getrs"));

  auto a = filled<V>(5 * 9, 1), b = filled<V>(5 * 8, 2), x = filled<V>(7 * 5, 3);
  for (int i = 0; i < N; ++i) a[i * 9 + 2 + i] += V(4);  // well conditioned
  const auto a0 = a, b0 = b, x0 = x;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"X", ArgValue::pointer(x.data())}})
                  .ok());
  EXPECT_EQ(a, a0) << "Solve keeps A";
  EXPECT_EQ(b, b0) << "Solve keeps B";
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j)
      if (i < 1 || i > N || j < 1 || j > K) {
        EXPECT_EQ(x[i * 5 + j], x0[i * 5 + j]) << "outside X's block";
      }
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < K; ++k) {
      V ax{};
      for (int j = 0; j < N; ++j) ax += a[i * 9 + 2 + j] * x[(1 + j) * 5 + 1 + k];
      expect_close(ax, b[i * 8 + 2 * k], N, "(A X - B)(" + std::to_string(i) + ", " + std::to_string(k) + ")");
    }
}

TEST(CodegenLapack, SolveStridedOperandsAllTypes) {
  REQUIRE_LAPACKE();
  solve_case<float>();
  solve_case<double>();
  solve_case<c64>();
  solve_case<c128>();
}

// A vector right-hand side is one column.
TEST(CodegenLapack, SolveVectorRightHandSide) {
  REQUIRE_LAPACKE();
  auto g = new_sdfg("solve_vec");
  add_array(*g, "A", T::Float64, {"N", "N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_array(*g, "X", T::Float64, {"N"});
  g->symbols["N"] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  int n = lib_node(s, kSolve, {"_ain", "_bin"}, {"_bout"});
  edge(s, access(s, "A"), "", n, "_ain", "A[0:N, 0:N]");
  edge(s, access(s, "B"), "", n, "_bin", "B[0:N]");
  edge(s, n, "_bout", access(s, "X"), "", "X[0:N]");
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_TRUE(p.ok()) << p.error().message;
  constexpr int N = 6;
  auto a = filled<double>(N * N, 4), b = filled<double>(N, 5), x = std::vector<double>(N, 0.0);
  for (int i = 0; i < N; ++i) a[i * N + i] += 4;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"X", ArgValue::pointer(x.data())}, {"N", ArgValue::scalar<int64_t>(N)}})
                  .ok());
  for (int i = 0; i < N; ++i) {
    double ax = 0;
    for (int j = 0; j < N; ++j) ax += a[i * N + j] * x[j];
    expect_close(ax, b[i], N, "(A x - b)(" + std::to_string(i) + ")");
  }
}

// Inv of a column-major A (strides 1, N: staged) into a padded row-major block (in place).
template <class V>
void inv_case() {
  constexpr int N = 4;
  T t = type_of<V>();
  auto g = new_sdfg("inv");
  add_array(*g, "A", t, {"4", "4"});
  g->arrays["A"].strides = {E("1"), E("4")};
  add_array(*g, "B", t, {"4", "6"});
  ir::State& s = add_state(*g, *g, "s");
  int n = lib_node(s, kInv, {"_ain"}, {"_aout"});
  edge(s, access(s, "A"), "", n, "_ain", "A[0:4, 0:4]");
  edge(s, n, "_aout", access(s, "B"), "", "B[0:4, 1:5]");
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(calls(*p, std::string("LAPACKE_") + prefix<V>() + "getri"));
  auto a = filled<V>(N * N, 6), b = filled<V>(N * 6, 7);
  for (int i = 0; i < N; ++i) a[i + i * N] += V(3);
  const auto b0 = b;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}}).ok());
  for (int i = 0; i < N; ++i) {
    EXPECT_EQ(b[i * 6], b0[i * 6]);
    EXPECT_EQ(b[i * 6 + 5], b0[i * 6 + 5]);
    for (int j = 0; j < N; ++j) {
      V prod{};
      for (int k = 0; k < N; ++k) prod += a[i + k * N] * b[k * 6 + 1 + j];
      expect_close(prod, V(i == j ? 1 : 0), N, "(A A^-1)(" + std::to_string(i) + ", " + std::to_string(j) + ")");
    }
  }
}

TEST(CodegenLapack, InvColumnMajorInputAllTypes) {
  REQUIRE_LAPACKE();
  inv_case<float>();
  inv_case<double>();
  inv_case<c64>();
  inv_case<c128>();
}

// A Hermitian positive definite n x n matrix, row-major: Q Q^H + n I.
template <class V>
std::vector<V> hpd(int n, int seed) {
  auto q = filled<V>(static_cast<size_t>(n * n), seed);
  std::vector<V> a(static_cast<size_t>(n * n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      V acc = i == j ? V(static_cast<float>(n)) : V{};
      for (int k = 0; k < n; ++k) acc += q[i * n + k] * conj_of(q[j * n + k]);
      a[i * n + j] = acc;
    }
  return a;
}

// Cholesky, lower (A = L L^H) or upper (A = U^H U); the other triangle of the output is zero
// even where the output held other values.
template <class V>
void cholesky_case(bool lower) {
  constexpr int N = 6;
  T t = type_of<V>();
  auto g = new_sdfg("chol");
  add_array(*g, "A", t, {"6", "6"});
  add_array(*g, "L", t, {"6", "6"});
  ir::State& s = add_state(*g, *g, "s");
  int n = lib_node(s, kCholesky, {"_a"}, {"_b"}, {{"lower", lower ? "true" : "false"}});
  edge(s, access(s, "A"), "", n, "_a", "A[0:6, 0:6]");
  edge(s, n, "_b", access(s, "L"), "", "L[0:6, 0:6]");
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(calls(*p, std::string("LAPACKE_") + prefix<V>() + "potrf"));
  auto a = hpd<V>(N, 8), l = filled<V>(N * N, 9);
  const auto a0 = a;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"L", ArgValue::pointer(l.data())}}).ok());
  EXPECT_EQ(a, a0);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      if (lower ? j > i : j < i) {
        EXPECT_EQ(l[i * N + j], V{}) << i << ", " << j;
      }
      V prod{};
      for (int k = 0; k < N; ++k)
        prod += lower ? l[i * N + k] * conj_of(l[j * N + k]) : conj_of(l[k * N + i]) * l[k * N + j];
      expect_close(prod, a0[i * N + j], N * N, "factor product (" + std::to_string(i) + ", " + std::to_string(j) + ")");
    }
}

TEST(CodegenLapack, CholeskyLowerAndUpper) {
  REQUIRE_LAPACKE();
  for (bool lower : {true, false}) {
    cholesky_case<float>(lower);
    cholesky_case<double>(lower);
    cholesky_case<c64>(lower);
    cholesky_case<c128>(lower);
  }
}

// Getrf in place with int64 pivots and an info output, then Getrs on them: pivots are
// LAPACK's (1-based, ipiv[i] >= i + 1), info is 0, and B becomes A^-1 B.
template <class V>
void getrf_getrs_case() {
  constexpr int N = 5, K = 2;
  T t = type_of<V>();
  auto g = new_sdfg("getrf_getrs");
  add_array(*g, "A", t, {"5", "5"});
  add_array(*g, "P", T::Int64, {"5"});
  add_array(*g, "B", t, {"5", "2"});
  add_array(*g, "info", T::Int32, {"2"});
  ir::State& s = add_state(*g, *g, "s");
  int f = lib_node(s, kGetrf, {"_xin"}, {"_xout", "_ipiv", "_res"});
  int a2 = access(s, "A"), piv = access(s, "P");
  edge(s, access(s, "A"), "", f, "_xin", "A[0:5, 0:5]");
  edge(s, f, "_xout", a2, "", "A[0:5, 0:5]");
  edge(s, f, "_ipiv", piv, "", "P[0:5]");
  edge(s, f, "_res", access(s, "info"), "", "info[0]");
  int r = lib_node(s, kGetrs, {"_a", "_rhs_in", "_ipiv"}, {"_rhs_out", "_res"});
  edge(s, a2, "", r, "_a", "A[0:5, 0:5]");
  edge(s, piv, "", r, "_ipiv", "P[0:5]");
  edge(s, access(s, "B"), "", r, "_rhs_in", "B[0:5, 0:2]");
  edge(s, r, "_rhs_out", access(s, "B"), "", "B[0:5, 0:2]");
  edge(s, r, "_res", access(s, "info"), "", "info[1]");
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto a = filled<V>(N * N, 10), b = filled<V>(N * K, 11);
  for (int i = 0; i < N; ++i) a[i * N + (i + 2) % N] += V(3);  // nonsingular, and pivoting happens
  std::vector<int64_t> pivots(N, -7);
  std::vector<int32_t> info = {-1, -1};
  const auto a0 = a, b0 = b;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"P", ArgValue::pointer(pivots.data())},
                       {"B", ArgValue::pointer(b.data())}, {"info", ArgValue::pointer(info.data())}})
                  .ok());
  EXPECT_EQ(info, (std::vector<int32_t>{0, 0}));
  for (int i = 0; i < N; ++i) {
    EXPECT_GE(pivots[i], i + 1);
    EXPECT_LE(pivots[i], N);
  }
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < K; ++k) {
      V ax{};
      for (int j = 0; j < N; ++j) ax += a0[i * N + j] * b[j * K + k];
      expect_close(ax, b0[i * K + k], N, "(A X - B)(" + std::to_string(i) + ", " + std::to_string(k) + ")");
    }
}

TEST(CodegenLapack, GetrfGetrsInt64Pivots) {
  REQUIRE_LAPACKE();
  getrf_getrs_case<double>();
  getrf_getrs_case<c64>();
}

// Getrf + Getri in place on int32 pivots; a singular A reports info > 0 (DaCe passes
// LAPACK's info through _res and does not raise).
Result<CompiledProgram> getrf_getri_program() {
  auto g = new_sdfg("getrf_getri");
  add_array(*g, "A", T::Float64, {"N", "N"});
  add_array(*g, "P", T::Int32, {"N"});
  add_array(*g, "info", T::Int64, {"2"});
  g->symbols["N"] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  int f = lib_node(s, kGetrf, {"_xin"}, {"_xout", "_ipiv", "_res"});
  int a2 = access(s, "A"), piv = access(s, "P");
  edge(s, access(s, "A"), "", f, "_xin", "A[0:N, 0:N]");
  edge(s, f, "_xout", a2, "", "A[0:N, 0:N]");
  edge(s, f, "_ipiv", piv, "", "P[0:N]");
  edge(s, f, "_res", access(s, "info"), "", "info[0]");
  int r = lib_node(s, kGetri, {"_xin", "_ipiv"}, {"_xout", "_res"});
  edge(s, a2, "", r, "_xin", "A[0:N, 0:N]");
  edge(s, piv, "", r, "_ipiv", "P[0:N]");
  edge(s, r, "_xout", access(s, "A"), "", "A[0:N, 0:N]");
  edge(s, r, "_res", access(s, "info"), "", "info[1]");
  return compile_valid(*g, with_lapack());
}

TEST(CodegenLapack, GetrfGetriInverseAndSingularInfo) {
  REQUIRE_LAPACKE();
  Result<CompiledProgram> p = getrf_getri_program();
  ASSERT_TRUE(p.ok()) << p.error().message;
  constexpr int N = 5;
  auto a = filled<double>(N * N, 12);
  for (int i = 0; i < N; ++i) a[i * N + i] += 3;
  const auto a0 = a;
  std::vector<int32_t> pivots(N, 0);
  std::vector<int64_t> info = {-1, -1};
  auto args = [&] {
    return std::map<std::string, ArgValue>{{"A", ArgValue::pointer(a.data())},
                                           {"P", ArgValue::pointer(pivots.data())},
                                           {"info", ArgValue::pointer(info.data())},
                                           {"N", ArgValue::scalar<int64_t>(N)}};
  };
  ASSERT_TRUE(run(*p, args()).ok());
  EXPECT_EQ(info, (std::vector<int64_t>{0, 0}));
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double prod = 0;
      for (int k = 0; k < N; ++k) prod += a0[i * N + k] * a[k * N + j];
      expect_close(prod, i == j ? 1.0 : 0.0, N, "A A^-1");
    }
  // Column 2 zero: U(2, 2) = 0, so getrf's info is 3 (1-based) and getri's too.
  a = filled<double>(N * N, 13);
  for (int i = 0; i < N; ++i) a[i * N + 2] = 0;
  ASSERT_TRUE(run(*p, args()).ok());
  EXPECT_GT(info[0], 0);
  EXPECT_GT(info[1], 0);
}

// Potrf (upper, in place) then Potrs: B becomes A^-1 B; an indefinite A reports info > 0.
TEST(CodegenLapack, PotrfPotrsAndIndefiniteInfo) {
  REQUIRE_LAPACKE();
  constexpr int N = 4, K = 3;
  auto g = new_sdfg("potrf_potrs");
  add_array(*g, "A", T::Complex128, {"4", "4"});
  add_array(*g, "B", T::Complex128, {"4", "3"});
  add_array(*g, "info", T::Int32, {"2"});
  ir::State& s = add_state(*g, *g, "s");
  int f = lib_node(s, kPotrf, {"_xin"}, {"_xout", "_res"}, {{"lower", "false"}});
  int a2 = access(s, "A");
  edge(s, access(s, "A"), "", f, "_xin", "A[0:4, 0:4]");
  edge(s, f, "_xout", a2, "", "A[0:4, 0:4]");
  edge(s, f, "_res", access(s, "info"), "", "info[0]");
  int r = lib_node(s, kPotrs, {"_a", "_bin"}, {"_bout", "_res"}, {{"lower", "false"}});
  edge(s, a2, "", r, "_a", "A[0:4, 0:4]");
  edge(s, access(s, "B"), "", r, "_bin", "B[0:4, 0:3]");
  edge(s, r, "_bout", access(s, "B"), "", "B[0:4, 0:3]");
  edge(s, r, "_res", access(s, "info"), "", "info[1]");
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(calls(*p, "LAPACKE_zpotrs"));
  auto a = hpd<c128>(N, 14), b = filled<c128>(N * K, 15);
  const auto a0 = a, b0 = b;
  std::vector<int32_t> info = {-1, -1};
  auto args = [&] {
    return std::map<std::string, ArgValue>{{"A", ArgValue::pointer(a.data())},
                                           {"B", ArgValue::pointer(b.data())},
                                           {"info", ArgValue::pointer(info.data())}};
  };
  ASSERT_TRUE(run(*p, args()).ok());
  EXPECT_EQ(info, (std::vector<int32_t>{0, 0}));
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < K; ++k) {
      c128 ax{};
      for (int j = 0; j < N; ++j) ax += a0[i * N + j] * b[j * K + k];
      expect_close(ax, b0[i * K + k], N * N, "(A X - B)");
    }
  a = hpd<c128>(N, 16);
  a[2 * N + 2] = -100.0;  // no longer positive definite
  ASSERT_TRUE(run(*p, args()).ok());
  EXPECT_GT(info[0], 0);
}

// Without LAPACKE the node is Unsupported, naming its class and why: without a plugin's
// implementation (the test registry without it, a registry without the expansion) that a
// plugin's vendor implementation is needed (the core names no plugin); with it but the
// library not loaded, or vendor libraries off, liblapacke.so.3. "pure" has no lowering.
TEST(CodegenLapack, WithoutLapackeUnsupportedNamingClassAndLibrary) {
  auto g = new_sdfg("solve");
  add_array(*g, "A", T::Float64, {"3", "3"});
  add_array(*g, "B", T::Float64, {"3", "3"});
  ir::State& s = add_state(*g, *g, "s");
  int n = lib_node(s, kInv, {"_ain"}, {"_aout"});
  edge(s, access(s, "A"), "", n, "_ain", "A[0:3, 0:3]");
  edge(s, n, "_aout", access(s, "B"), "", "B[0:3, 0:3]");
  auto no_expansion = make_lapack_registry(false, false);
  auto not_loaded = make_lapack_registry(true, false);
  LowerOptions off;
  off.registry = &lapack_registry();
  off.use_vendor_libraries = false;
  std::vector<LowerOptions> cases(3);
  cases[1].registry = no_expansion.get();
  cases[2].registry = not_loaded.get();
  cases.push_back(off);
  const char* reasons[] = {"a plugin's vendor implementation", "a plugin's vendor implementation", "liblapacke.so.3",
                           "liblapacke.so.3"};
  for (size_t i = 0; i < cases.size(); ++i) {
    Result<CompiledProgram> p = compile_valid(*g, cases[i]);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, Code::Unsupported);
    EXPECT_NE(p.error().message.find(kInv), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find(reasons[i]), std::string::npos) << p.error().message;
  }
  static_cast<ir::LibraryNode*>(s.node(n))->implementation = "pure";
  Result<CompiledProgram> p = compile_valid(*g, with_lapack());
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find("no pure"), std::string::npos) << p.error().message;
}

// Operands LAPACK has no routine for: integer matrices, mixed types, 3-D operands.
TEST(CodegenLapack, RefusesOtherOperands) {
  REQUIRE_LAPACKE();
  struct Case {
    T a, b;
    std::vector<std::string> shape;
    std::string memlet, message;
  };
  for (const Case& c : {Case{T::Int32, T::Int32, {"3", "3"}, "[0:3, 0:3]", "not int32"},
                        Case{T::Float64, T::Float32, {"3", "3"}, "[0:3, 0:3]", "different types"},
                        Case{T::Float64, T::Float64, {"2", "3", "3"}, "[0:2, 0:3, 0:3]", "3-dimensional"}}) {
    auto g = new_sdfg("inv");
    add_array(*g, "A", c.a, c.shape);
    add_array(*g, "B", c.b, c.shape);
    ir::State& s = add_state(*g, *g, "s");
    int n = lib_node(s, kInv, {"_ain"}, {"_aout"});
    edge(s, access(s, "A"), "", n, "_ain", "A" + c.memlet);
    edge(s, n, "_aout", access(s, "B"), "", "B" + c.memlet);
    Result<CompiledProgram> p = compile_valid(*g, with_lapack());
    ASSERT_FALSE(p.ok()) << c.message;
    EXPECT_EQ(p.error().code, Code::Unsupported);
    EXPECT_NE(p.error().message.find(c.message), std::string::npos) << p.error().message;
  }
}

}  // namespace
}  // namespace dace::codegen::testing
