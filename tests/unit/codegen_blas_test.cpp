// MatMul-family library nodes through OpenBLAS (plugins/cpu/lowering/blas.cpp) and their loop
// fallback: results against plain triple loops in float32, float64 and complex128, and the
// generated IR checked for which path was taken.
#include <gtest/gtest.h>

#include <cctype>
#include <complex>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "blas_test_registry.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "plugin/registry.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using cplx = std::complex<double>;

const plugin::Registry& blas_registry() {
  static std::unique_ptr<plugin::Registry> r = make_blas_registry(true, true);
  return *r;
}

#define REQUIRE_OPENBLAS()                                                   \
  do {                                                                       \
    if (!openblas_in_session()) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here"; \
  } while (0)

LowerOptions with_blas() {
  LowerOptions o;
  o.registry = &blas_registry();
  return o;
}

template <class V>
T type_of();
template <>
T type_of<float>() { return T::Float32; }
template <>
T type_of<double>() { return T::Float64; }
template <>
T type_of<cplx>() { return T::Complex128; }

template <class V>
V value(int i) {
  double re = ((i * 7) % 11 - 5) * 0.25;
  if constexpr (std::is_same_v<V, cplx>) return cplx(re, ((i * 3) % 5 - 2) * 0.5);
  else return static_cast<V>(re);
}

template <class V>
std::vector<V> filled(size_t n, int seed) {
  std::vector<V> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = value<V>(static_cast<int>(i) + seed);
  return v;
}

template <class V>
double tol() {
  return std::is_same_v<V, float> ? 1e-4 : 1e-11;
}

template <class V>
void expect_near_all(const std::vector<V>& got, const std::vector<V>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_LE(std::abs(got[i] - want[i]), tol<V>() * (1 + std::abs(want[i]))) << "element " << i;
}

struct Operands {
  std::string a, b, c;  // connector names
};

Operands connectors(const std::string& cls) {
  if (cls == "Gemv") return {"_A", "_x", "_y"};
  if (cls == "Dot") return {"_x", "_y", "_result"};
  return {"_a", "_b", "_c"};
}

// One state: A, B -> library node -> C with the given memlets.
std::unique_ptr<ir::SDFG> product_sdfg(T t, const std::string& cls, const std::vector<std::string>& ashape,
                                       const std::vector<std::string>& bshape, const std::vector<std::string>& cshape,
                                       const std::string& am, const std::string& bm, const std::string& cm,
                                       const std::vector<std::pair<std::string, std::string>>& props = {},
                                       const std::string& implementation = "") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "prod";
  add_array(*g, "A", t, ashape);
  add_array(*g, "B", t, bshape);
  add_array(*g, "C", t, cshape);
  for (const auto* shape : {&ashape, &bshape, &cshape})
    for (const std::string& d : *shape)
      if (std::isalpha(static_cast<unsigned char>(d[0]))) g->symbols[d] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "mm";
  std::string dir = cls == "MatMul" ? "matmul" : cls == "Gemm" ? "gemm" : cls == "Gemv" ? "gemv" : "dot";
  n->classpath = "dace.libraries.blas.nodes." + dir + "." + cls;
  Operands c = connectors(cls);
  n->in_connectors[c.a] = ir::DType{};
  n->in_connectors[c.b] = ir::DType{};
  n->out_connectors[c.c] = ir::DType{};
  for (const auto& [k, v] : props) n->properties[k] = v;
  n->implementation = implementation;
  int lib = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", lib, c.a, am);
  edge(s, access(s, "B"), "", lib, c.b, bm);
  edge(s, lib, c.c, access(s, "C"), "", cm);
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

bool calls(const CompiledProgram& p, const std::string& fn) { return p.ir.find("@" + fn + "(") != std::string::npos; }

// Compiles a product_sdfg with `options`, checks whether its IR calls `fn` (`expect_call`),
// and runs it on arrays A, B, C with the symbol values `symbols`.
template <class V>
void run_product(const ir::SDFG& g, const std::string& fn, bool expect_call, std::vector<V>& a, std::vector<V>& b,
                 std::vector<V>& c, const std::map<std::string, int64_t>& symbols = {},
                 const LowerOptions& options = with_blas()) {
  Result<CompiledProgram> p = compile(g, options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(calls(*p, fn), expect_call) << fn;
  std::map<std::string, ArgValue> values = {
      {"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}, {"C", ArgValue::pointer(c.data())}};
  for (const auto& [name, v] : symbols) values[name] = ArgValue::scalar<int64_t>(v);
  ASSERT_TRUE(run(*p, values).ok());
}

template <class V>
char prefix() {
  return std::is_same_v<V, float> ? 's' : std::is_same_v<V, double> ? 'd' : 'z';
}

// C = alpha A B + beta C with A MxK, B KxN (row-major), sizes as symbols.
template <class V>
void gemm_case(const LowerOptions& options, bool expect_blas) {
  const int64_t M = 5, K = 7, N = 4;
  auto g = product_sdfg(type_of<V>(), "Gemm", {"M", "K"}, {"K", "N"}, {"M", "N"}, "A[0:M, 0:K]", "B[0:K, 0:N]",
                        "C[0:M, 0:N]", {{"alpha", "2.0"}, {"beta", "0.5"}});
  auto a = filled<V>(M * K, 1), b = filled<V>(K * N, 2), c = filled<V>(M * N, 3);
  std::vector<V> want = c;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      V acc{};
      for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * b[k * N + j];
      want[i * N + j] = V(2) * acc + V(0.5) * c[i * N + j];
    }
  ASSERT_NO_FATAL_FAILURE(run_product(*g, std::string("cblas_") + prefix<V>() + "gemm", expect_blas, a, b, c,
                                      {{"M", M}, {"N", N}, {"K", K}}, options));
  expect_near_all(c, want);
}

TEST(CodegenBlas, GemmThroughOpenBlas) {
  REQUIRE_OPENBLAS();
  gemm_case<float>(with_blas(), true);
  gemm_case<double>(with_blas(), true);
  gemm_case<cplx>(with_blas(), true);
}

TEST(CodegenBlas, GemmFallbackForcedByOption) {
  LowerOptions o = with_blas();
  o.use_vendor_libraries = false;
  gemm_case<float>(o, false);
  gemm_case<double>(o, false);
  gemm_case<cplx>(o, false);
}

TEST(CodegenBlas, GemmFallbackWithoutExpansionOrLibrary) {
  auto no_expansion = make_blas_registry(false, false);
  LowerOptions o;
  o.registry = no_expansion.get();
  gemm_case<double>(o, false);
  auto not_loaded = make_blas_registry(true, false);
  o.registry = not_loaded.get();
  gemm_case<double>(o, false);
  o.registry = nullptr;
  gemm_case<double>(o, false);
}

TEST(CodegenBlas, PureImplementationKeepsLoops) {
  REQUIRE_OPENBLAS();
  auto g = product_sdfg(T::Float64, "MatMul", {"3", "3"}, {"3", "3"}, {"3", "3"}, "A[0:3, 0:3]", "B[0:3, 0:3]",
                        "C[0:3, 0:3]", {}, "pure");
  Result<CompiledProgram> p = compile(*g, with_blas());
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(calls(*p, "cblas_dgemm"));
}

// Transposed and column-major operands: transA on a KxM array, B a column block of a wider
// array (row stride 9), C written into a sub-block.
template <class V>
void transposed_case() {
  const int64_t M = 4, K = 3, N = 5;
  auto g = product_sdfg(type_of<V>(), "Gemm", {"3", "4"}, {"3", "9"}, {"6", "7"}, "A[0:3, 0:4]", "B[0:3, 2:7]",
                        "C[1:5, 1:6]", {{"transA", "true"}});
  auto a = filled<V>(K * M, 4), b = filled<V>(K * 9, 5), c = filled<V>(6 * 7, 6);
  std::vector<V> want = c;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      V acc{};
      for (int64_t k = 0; k < K; ++k) acc += a[k * M + i] * b[k * 9 + 2 + j];
      want[(i + 1) * 7 + j + 1] = acc;
    }
  ASSERT_NO_FATAL_FAILURE(run_product(*g, std::string("cblas_") + prefix<V>() + "gemm", true, a, b, c));
  expect_near_all(c, want);
}

TEST(CodegenBlas, TransposedAndSubBlockOperands) {
  REQUIRE_OPENBLAS();
  transposed_case<float>();
  transposed_case<double>();
  transposed_case<cplx>();
}

// A with a column step of 2 has no CBLAS layout: the loops run instead.
TEST(CodegenBlas, NonUnitInnerStrideFallsBack) {
  REQUIRE_OPENBLAS();
  auto g = product_sdfg(T::Float64, "MatMul", {"3", "8"}, {"4", "2"}, {"3", "2"}, "A[0:3, 0:8:2]", "B[0:4, 0:2]",
                        "C[0:3, 0:2]");
  auto a = filled<double>(24, 7), b = filled<double>(8, 8);
  std::vector<double> c(6, -1.0);
  std::vector<double> want(6, 0.0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 4; ++k) want[i * 2 + j] += a[i * 8 + 2 * k] * b[k * 2 + j];
  ASSERT_NO_FATAL_FAILURE(run_product(*g, "cblas_dgemm", false, a, b, c));
  expect_near_all(c, want);
}

// 2-D x 1-D, 1-D x 2-D (strided vector), 1-D x 1-D.
template <class V>
void vector_cases() {
  const int64_t M = 6, K = 5;
  std::string g_fn = std::string("cblas_") + prefix<V>() + "gemv";
  {  // y = A x
    auto g = product_sdfg(type_of<V>(), "MatMul", {"M", "K"}, {"K"}, {"M"}, "A[0:M, 0:K]", "B[0:K]", "C[0:M]");
    auto a = filled<V>(M * K, 1), x = filled<V>(K, 2), y = filled<V>(M, 3);
    std::vector<V> want(M);
    for (int64_t i = 0; i < M; ++i)
      for (int64_t k = 0; k < K; ++k) want[i] += a[i * K + k] * x[k];
    ASSERT_NO_FATAL_FAILURE(run_product(*g, g_fn, true, a, x, y, {{"M", M}, {"K", K}}));
    expect_near_all(y, want);
  }
  {  // y = x B with x every other element of a longer vector
    auto g = product_sdfg(type_of<V>(), "MatMul", {"10"}, {"5", "6"}, {"6"}, "A[0:10:2]", "B[0:5, 0:6]", "C[0:6]");
    auto x = filled<V>(10, 4), b = filled<V>(30, 5), y = filled<V>(6, 6);
    std::vector<V> want(6);
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 5; ++k) want[j] += x[2 * k] * b[k * 6 + j];
    ASSERT_NO_FATAL_FAILURE(run_product(*g, g_fn, true, x, b, y));
    expect_near_all(y, want);
  }
  {  // dot, with alpha
    auto g = product_sdfg(type_of<V>(), "Dot", {"K"}, {"K"}, {"1"}, "A[0:K]", "B[0:K]", "C[0]");
    auto x = filled<V>(K, 7), y = filled<V>(K, 8), r = filled<V>(1, 9);
    V want{};
    for (int64_t k = 0; k < K; ++k) want += x[k] * y[k];
    const std::string dot_fn =
        std::is_same_v<V, cplx> ? std::string("cblas_zdotu_sub") : std::string("cblas_") + prefix<V>() + "dot";
    ASSERT_NO_FATAL_FAILURE(run_product(*g, dot_fn, true, x, y, r, {{"K", K}}));
    expect_near_all(r, {want});
  }
}

TEST(CodegenBlas, GemvAndDot) {
  REQUIRE_OPENBLAS();
  vector_cases<float>();
  vector_cases<double>();
  vector_cases<cplx>();
}

TEST(CodegenBlas, BatchedStaysLoops) {
  REQUIRE_OPENBLAS();
  auto g = product_sdfg(T::Float64, "MatMul", {"2", "3", "4"}, {"2", "4", "5"}, {"2", "3", "5"}, "A[0:2, 0:3, 0:4]",
                        "B[0:2, 0:4, 0:5]", "C[0:2, 0:3, 0:5]");
  auto a = filled<double>(24, 1), b = filled<double>(40, 2);
  std::vector<double> c(30, 0.0);
  std::vector<double> want(30, 0.0);
  for (int z = 0; z < 2; ++z)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 4; ++k) want[z * 15 + i * 5 + j] += a[z * 12 + i * 4 + k] * b[z * 20 + k * 5 + j];
  ASSERT_NO_FATAL_FAILURE(run_product(*g, "cblas_dgemm", false, a, b, c));
  expect_near_all(c, want);
}

// A registry without CPU_Multicore: parallel maps fail with a message naming the map.
TEST(CodegenBlas, MissingMulticoreScheduleIsAnError) {
  plugin::Registry empty("none");
  auto g = std::make_unique<ir::SDFG>();
  g->name = "par";
  add_array(*g, "A", T::Float64, {"8"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:8", ir::ScheduleType::CPU_Multicore);
  int t = tasklet(s, "o = 1.0", {}, {"o"});
  edge(s, entry, "", t, "", "");
  edge_out(s, t, "o", exit, access(s, "A"), "A[i]", "A[0:8]");
  LowerOptions o;
  o.registry = &empty;
  Result<CompiledProgram> p = compile(*g, o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::PluginUnavailable);
  EXPECT_NE(p.error().message.find("CPU_Multicore"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("MapEntry"), std::string::npos) << p.error().message;
}

// default_num_threads reaches the runtime call of maps that leave omp_num_threads at 0;
// a map's own omp_num_threads wins.
TEST(CodegenBlas, DefaultNumThreadsIsBakedIn) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "threads";
  add_array(*g, "A", T::Float64, {"8"});
  add_array(*g, "B", T::Float64, {"8"});
  ir::State& s = add_state(*g, *g, "s");
  auto [e1, x1] = map(s, {"i"}, "0:8", ir::ScheduleType::CPU_Multicore);
  int t1 = tasklet(s, "o = 1.0", {}, {"o"});
  edge(s, e1, "", t1, "", "");
  edge_out(s, t1, "o", x1, access(s, "A"), "A[i]", "A[0:8]");
  auto [e2, x2] = map(s, {"i"}, "0:8", ir::ScheduleType::CPU_Multicore);
  static_cast<ir::MapEntry*>(s.node(e2))->map.omp_num_threads = 2;
  int t2 = tasklet(s, "o = 2.0", {}, {"o"});
  edge(s, e2, "", t2, "", "");
  edge_out(s, t2, "o", x2, access(s, "B"), "B[i]", "B[0:8]");
  LowerOptions o;
  o.registry = &blas_registry();
  o.default_num_threads = 3;
  Result<CompiledProgram> p = compile(*g, o);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_NE(p->ir.find("i32 0, i32 3)"), std::string::npos) << p->ir;
  EXPECT_NE(p->ir.find("i32 0, i32 2)"), std::string::npos) << p->ir;
  std::vector<double> a(8, 0.0), b(8, 0.0);
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(a, std::vector<double>(8, 1.0));
  EXPECT_EQ(b, std::vector<double>(8, 2.0));
}

TEST(CodegenBlas, OptionsFingerprintReflectsBlasAndThreads) {
  LowerOptions o;
  std::string plain = options_fingerprint(o);
  o.registry = &blas_registry();
  std::string blas = options_fingerprint(o);
  EXPECT_NE(plain, blas);
  o.default_num_threads = 4;
  EXPECT_NE(blas, options_fingerprint(o));
  EXPECT_EQ(options_fingerprint(o), options_fingerprint(o));
}


// Gemm's alpha and beta named rather than numbers (what FoldScalingIntoGemm writes): alpha a
// Scalar container, beta the node's scalar input connector `_beta`; C read through `_cin`
// and written in place. Results against loops, with OpenBLAS and with the loop nest.
std::unique_ptr<ir::SDFG> named_factor_gemm(const std::string& alpha) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "named_gemm";
  for (const char* d : {"M", "K", "N"}) g->symbols[d] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"M", "K"});
  add_array(*g, "B", T::Float64, {"K", "N"});
  add_array(*g, "C", T::Float64, {"M", "N"});
  add_scalar(*g, "alpha", T::Float64);
  add_scalar(*g, "b0", T::Float64);
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "gemm";
  n->classpath = "dace.libraries.blas.nodes.gemm.Gemm";
  for (const char* c : {"_a", "_b", "_cin", "_beta"}) n->in_connectors[c] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  n->properties["alpha"] = alpha;
  n->properties["beta"] = "\"_beta\"";
  n->implementation = "OpenBLAS";
  const int lib = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", lib, "_a", "A[0:M, 0:K]");
  edge(s, access(s, "B"), "", lib, "_b", "B[0:K, 0:N]");
  edge(s, access(s, "C"), "", lib, "_cin", "C[0:M, 0:N]");
  edge(s, access(s, "b0"), "", lib, "_beta", "b0[0]");
  edge(s, lib, "_c", access(s, "C"), "", "C[0:M, 0:N]");
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

void named_factor_case(const LowerOptions& options, bool expect_blas) {
  const int64_t M = 5, K = 7, N = 4;
  const double alpha = 1.5, beta = -0.75;
  auto g = named_factor_gemm("\"alpha\"");
  auto a = filled<double>(M * K, 1), b = filled<double>(K * N, 2), c = filled<double>(M * N, 3);
  std::vector<double> want = c;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * b[k * N + j];
      want[i * N + j] = alpha * acc + beta * c[i * N + j];
    }
  Result<CompiledProgram> p = compile(*g, options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(calls(*p, "cblas_dgemm"), expect_blas);
  std::map<std::string, ArgValue> values = {{"A", ArgValue::pointer(a.data())},  {"B", ArgValue::pointer(b.data())},
                                            {"C", ArgValue::pointer(c.data())},  {"alpha", ArgValue::scalar<double>(alpha)},
                                            {"b0", ArgValue::scalar<double>(beta)}, {"M", ArgValue::scalar<int64_t>(M)},
                                            {"N", ArgValue::scalar<int64_t>(N)}, {"K", ArgValue::scalar<int64_t>(K)}};
  ASSERT_TRUE(run(*p, values).ok());
  expect_near_all(c, want);
}

TEST(CodegenBlas, NamedAlphaAndBetaUpdateCInPlaceThroughOpenBlas) {
  REQUIRE_OPENBLAS();
  named_factor_case(with_blas(), true);
}

TEST(CodegenBlas, NamedAlphaAndBetaUpdateCInPlaceByLoops) {
  LowerOptions o = with_blas();
  o.use_vendor_libraries = false;
  named_factor_case(o, false);
}

// beta named and 0 at run time: as in BLAS (and DaCe's Gemm), C is not read, so the NaN it
// holds does not reach the result; by the loop nest, against alpha * A B by C++ loops.
TEST(CodegenBlas, RunTimeBetaZeroIgnoresNanInCByLoops) {
  const int64_t M = 4, K = 3, N = 5;
  const double alpha = 1.5;
  auto g = named_factor_gemm("\"alpha\"");
  auto a = filled<double>(M * K, 1), b = filled<double>(K * N, 2);
  std::vector<double> c(M * N, std::numeric_limits<double>::quiet_NaN()), want(M * N);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * b[k * N + j];
      want[i * N + j] = alpha * acc;
    }
  LowerOptions o = with_blas();
  o.use_vendor_libraries = false;
  Result<CompiledProgram> p = compile(*g, o);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(calls(*p, "cblas_dgemm"));
  std::map<std::string, ArgValue> values = {{"A", ArgValue::pointer(a.data())},  {"B", ArgValue::pointer(b.data())},
                                            {"C", ArgValue::pointer(c.data())},  {"alpha", ArgValue::scalar<double>(alpha)},
                                            {"b0", ArgValue::scalar<double>(0.0)}, {"M", ArgValue::scalar<int64_t>(M)},
                                            {"N", ArgValue::scalar<int64_t>(N)}, {"K", ArgValue::scalar<int64_t>(K)}};
  ASSERT_TRUE(run(*p, values).ok());
  expect_near_all(c, want);
}

// r = alpha * (x . y) + beta * r with beta named (a Scalar container read at run time):
// the dot-product form of Gemm. beta 0 at run time must ignore r (NaN there stays out), a
// nonzero beta scales it; against C++ loops, through cblas_ddot and through the loop nest.
void named_beta_dot_case(const LowerOptions& options, bool expect_blas, double beta, double r0) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "named_beta_dot";
  g->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*g, "X", T::Float64, {"K"});
  add_array(*g, "Y", T::Float64, {"K"});
  add_array(*g, "R", T::Float64, {"1"});
  add_scalar(*g, "b0", T::Float64);
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "dot";
  n->classpath = "dace.libraries.blas.nodes.gemm.Gemm";
  for (const char* c : {"_a", "_b"}) n->in_connectors[c] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  n->properties["alpha"] = "2";
  n->properties["beta"] = "\"b0\"";
  n->implementation = "OpenBLAS";
  const int lib = s.add_node(std::move(n));
  edge(s, access(s, "X"), "", lib, "_a", "X[0:K]");
  edge(s, access(s, "Y"), "", lib, "_b", "Y[0:K]");
  edge(s, lib, "_c", access(s, "R"), "", "R[0]");
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;

  const int64_t K = 9;
  auto x = filled<double>(K, 1), y = filled<double>(K, 2);
  double acc = 0;
  for (int64_t k = 0; k < K; ++k) acc += x[k] * y[k];
  const double want = beta == 0.0 ? 2 * acc : 2 * acc + beta * r0;
  double r = r0;
  Result<CompiledProgram> p = compile(*g, options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(calls(*p, "cblas_ddot"), expect_blas);
  std::map<std::string, ArgValue> values = {{"X", ArgValue::pointer(x.data())}, {"Y", ArgValue::pointer(y.data())},
                                            {"R", ArgValue::pointer(&r)}, {"b0", ArgValue::scalar<double>(beta)},
                                            {"K", ArgValue::scalar<int64_t>(K)}};
  ASSERT_TRUE(run(*p, values).ok());
  EXPECT_NEAR(r, want, 1e-12 * (1 + std::abs(want)));
}

TEST(CodegenBlas, DotWithRunTimeBetaZeroIgnoresNanThroughOpenBlas) {
  REQUIRE_OPENBLAS();
  named_beta_dot_case(with_blas(), true, 0.0, std::numeric_limits<double>::quiet_NaN());
}

TEST(CodegenBlas, DotWithRunTimeBetaZeroIgnoresNanByLoops) {
  LowerOptions o = with_blas();
  o.use_vendor_libraries = false;
  named_beta_dot_case(o, false, 0.0, std::numeric_limits<double>::quiet_NaN());
}

TEST(CodegenBlas, DotWithRunTimeBetaScalesTheOldResultThroughOpenBlas) {
  REQUIRE_OPENBLAS();
  named_beta_dot_case(with_blas(), true, -0.75, 2.5);
}

// for i in 0:L: C[i] = i * (A[i] @ B), a Gemm inside a map whose alpha names the map's
// parameter (bound by the map, not an SDFG symbol). Against C++ loops.
void map_parameter_alpha_case(const LowerOptions& options, bool expect_blas) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "map_alpha_gemm";
  for (const char* d : {"L", "M", "K", "N"}) g->symbols[d] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"L", "M", "K"});
  add_array(*g, "B", T::Float64, {"K", "N"});
  add_array(*g, "C", T::Float64, {"L", "M", "N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:L", ir::ScheduleType::Sequential);
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "gemm";
  n->classpath = "dace.libraries.blas.nodes.gemm.Gemm";
  for (const char* c : {"_a", "_b"}) n->in_connectors[c] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  n->properties["alpha"] = "\"i\"";
  n->properties["beta"] = "0";
  n->implementation = "OpenBLAS";
  const int lib = s.add_node(std::move(n));
  edge_in(s, access(s, "A"), entry, lib, "_a", "A[0:L, 0:M, 0:K]", "A[i, 0:M, 0:K]");
  edge_in(s, access(s, "B"), entry, lib, "_b", "B[0:K, 0:N]", "B[0:K, 0:N]");
  edge_out(s, lib, "_c", exit, access(s, "C"), "C[i, 0:M, 0:N]", "C[0:L, 0:M, 0:N]");
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;

  const int64_t L = 3, M = 4, K = 5, N = 2;
  auto a = filled<double>(L * M * K, 1), b = filled<double>(K * N, 2);
  std::vector<double> c(L * M * N, -7.0), want(L * M * N);
  for (int64_t l = 0; l < L; ++l)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += a[(l * M + i) * K + k] * b[k * N + j];
        want[(l * M + i) * N + j] = static_cast<double>(l) * acc;
      }
  Result<CompiledProgram> p = compile(*g, options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(calls(*p, "cblas_dgemm"), expect_blas);
  std::map<std::string, ArgValue> values = {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                                            {"C", ArgValue::pointer(c.data())}, {"L", ArgValue::scalar<int64_t>(L)},
                                            {"M", ArgValue::scalar<int64_t>(M)}, {"N", ArgValue::scalar<int64_t>(N)},
                                            {"K", ArgValue::scalar<int64_t>(K)}};
  ASSERT_TRUE(run(*p, values).ok());
  expect_near_all(c, want);
}

TEST(CodegenBlas, AlphaNamingAMapParameterByLoops) {
  LowerOptions o = with_blas();
  o.use_vendor_libraries = false;
  map_parameter_alpha_case(o, false);
}

TEST(CodegenBlas, AlphaNamingAMapParameterThroughOpenBlas) {
  REQUIRE_OPENBLAS();
  map_parameter_alpha_case(with_blas(), true);
}

// DaCe's Gemv: y = alpha * op(A) x + beta * y_in, where y_in reaches the input connector `_y`
// (DaCe names Gemv's input and output alike). With `in_place` the input is the output's
// container (what FoldScalingIntoGemm writes: one ?gemv); otherwise another container Y0,
// which the product must read (it used to read the output instead). Against C++ loops.
void gemv_with_y_input_case(const LowerOptions& options, bool in_place, bool trans_a, bool expect_blas) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gemv_y_in";
  for (const char* d : {"M", "K"}) g->symbols[d] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"M", "K"});
  const char* x_len = trans_a ? "M" : "K";
  const char* y_len = trans_a ? "K" : "M";
  add_array(*g, "X", T::Float64, {x_len});
  add_array(*g, "Y", T::Float64, {y_len});
  add_array(*g, "Y0", T::Float64, {y_len});
  add_scalar(*g, "alpha", T::Float64);
  add_scalar(*g, "beta", T::Float64);
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "gemv";
  n->classpath = "dace.libraries.blas.nodes.gemv.Gemv";
  for (const char* c : {"_A", "_x", "_y"}) n->in_connectors[c] = ir::DType{};
  n->out_connectors["_y"] = ir::DType{};
  n->properties["alpha"] = "\"alpha\"";
  n->properties["beta"] = "\"beta\"";
  n->properties["transA"] = trans_a ? "true" : "false";
  n->implementation = "OpenBLAS";
  const int lib = s.add_node(std::move(n));
  const std::string yin = in_place ? "Y" : "Y0";
  edge(s, access(s, "A"), "", lib, "_A", "A[0:M, 0:K]");
  edge(s, access(s, "X"), "", lib, "_x", std::string("X[0:") + x_len + "]");
  edge(s, access(s, yin), "", lib, "_y", yin + "[0:" + y_len + "]");
  edge(s, lib, "_y", access(s, "Y"), "", std::string("Y[0:") + y_len + "]");
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;

  const int64_t M = 5, K = 7;
  const double alpha = 1.25, beta = -0.5;
  const int64_t ylen = trans_a ? K : M;
  auto a = filled<double>(M * K, 1), x = filled<double>(trans_a ? M : K, 2);
  auto y = filled<double>(ylen, 3), y0 = filled<double>(ylen, 4);
  const std::vector<double>& old_y = in_place ? y : y0;
  std::vector<double> want(ylen);
  for (int64_t i = 0; i < ylen; ++i) {
    double acc = 0;
    if (trans_a)
      for (int64_t m = 0; m < M; ++m) acc += a[m * K + i] * x[m];
    else
      for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * x[k];
    want[i] = alpha * acc + beta * old_y[i];
  }
  Result<CompiledProgram> p = compile(*g, options);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(calls(*p, "cblas_dgemv"), expect_blas);
  std::map<std::string, ArgValue> values = {
      {"A", ArgValue::pointer(a.data())},       {"X", ArgValue::pointer(x.data())},
      {"Y", ArgValue::pointer(y.data())},       {"Y0", ArgValue::pointer(y0.data())},
      {"alpha", ArgValue::scalar<double>(alpha)}, {"beta", ArgValue::scalar<double>(beta)},
      {"M", ArgValue::scalar<int64_t>(M)},      {"K", ArgValue::scalar<int64_t>(K)}};
  ASSERT_TRUE(run(*p, values).ok());
  expect_near_all(y, want);
}

TEST(CodegenBlas, GemvUpdatesYInPlaceThroughOpenBlas) {
  REQUIRE_OPENBLAS();
  gemv_with_y_input_case(with_blas(), true, false, true);
  gemv_with_y_input_case(with_blas(), true, true, true);
}

// Y0 is not Y: the run-time place test takes the loops, which read Y0.
TEST(CodegenBlas, GemvReadsItsYInputWhenItIsAnotherContainer) {
  gemv_with_y_input_case(with_blas(), false, false, openblas_in_session());
  gemv_with_y_input_case(with_blas(), false, true, openblas_in_session());
  LowerOptions o = with_blas();
  o.use_vendor_libraries = false;
  gemv_with_y_input_case(o, false, false, false);
}

// alpha "2 * alpha" is no number and no name: refused naming it (it used to become 1).
TEST(CodegenBlas, AlphaThatIsNeitherNumberNorNameIsRefused) {
  auto g = named_factor_gemm("\"2 * alpha\"");
  Result<CompiledProgram> p = compile(*g, with_blas());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("alpha \"2 * alpha\" is neither a number nor a name"), std::string::npos)
      << p.error().message;
  auto h = named_factor_gemm("\"gamma\"");
  Result<CompiledProgram> q = compile(*h, with_blas());
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.error().message.find("\"gamma\" names no input connector"), std::string::npos) << q.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
