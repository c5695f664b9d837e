// FoldScalingIntoGemm, matrix-vector form: `P = A @ x` (or `x @ A`); `y = alpha * P + beta * y`
// becomes one Gemv (`_A`, `_x`, y read through `_cin` and written in place through `_y`,
// transA for x @ A), also when the map writes a temporary copied into y; results
// against C++ loops of the formula, by the loop nest and through OpenBLAS. Refused where
// applying would change results (y is an operand, another input, a factor written in the
// state) and for a vector-vector product (DaCe's Dot has no alpha and beta).
#include <gtest/gtest.h>

#include <cmath>

#include "blas_test_registry.h"
#include "codegen_test_builder.h"
#include "ir/equality.h"
#include "ir/sdfg.h"
#include "plugin/registry.h"
#include "transform/registry.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

// A is M x K: distinct sizes, so a wrong transpose reads out of shape and shows.
constexpr int64_t kM = 5, kK = 7;

struct Options {
  bool vector_times_matrix = false;  // P = x @ A (x of length M, P of length K)
  bool dot = false;                  // P = u @ v, two vectors of length K (P of length 1)
  std::string result = "y";          // the container the map writes (and reads as `c`)
  bool extra_input = false;          // the map also adds d at its point
  bool factor_written = false;       // alpha is written in the same state, after the map
  std::string scale = "t1 = a * p";  // the first tasklet
  // The map writes a transient Tmp, copied whole into the result afterwards (DaCe's
  // `y[:] = y + alpha * (A @ x)`).
  bool through_temp = false;
  bool temp_read_again = false;      // Tmp is also copied into d
  bool second_writer = false;        // a tasklet also writes y[0] into the map's result node
};

// The product's length and the names of its operands.
int64_t product_length(const Options& o) { return o.dot ? 1 : o.vector_times_matrix ? kK : kM; }

// A (M x K), u and v (K), w (M); y and d of the product's length; alpha, beta, omega Scalars.
// MatMul -> P -> map over i: t1 = alpha * P[i]; t2 = beta * y[i]; y[i] = t1 + t2 (+ d[i]).
std::unique_ptr<ir::SDFG> scaled_update(const Options& o) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gemv_update";
  for (const char* n : {"M", "K", "L"}) g->symbols[n] = ir::DType::of(T::Int64);  // L: the product's length
  // y = alpha * (A @ u) + beta * u needs a square A of the product's length.
  const bool into_operand = o.result == "u";
  const std::string rows = into_operand ? "L" : "M", cols = into_operand ? "L" : "K";
  add_array(*g, "A", T::Float64, {rows, cols});
  add_array(*g, "u", T::Float64, {cols});
  add_array(*g, "v", T::Float64, {"K"});
  add_array(*g, "w", T::Float64, {"M"});
  for (const char* n : {"y", "d"}) add_array(*g, n, T::Float64, {"L"});
  add_array(*g, "P", T::Float64, {"L"}, true);
  if (o.through_temp) add_array(*g, "Tmp", T::Float64, {"L"}, true);
  for (const char* n : {"alpha", "beta", "omega"}) add_scalar(*g, n, T::Float64);
  for (const char* n : {"s1", "s2"}) add_scalar(*g, n, T::Float64, true);
  ir::State& s = add_state(*g, *g, "s");

  const int mm = add_matmul(s);
  if (o.dot) {
    edge(s, access(s, "u"), "", mm, "_a", "u[0:K]");
    edge(s, access(s, "v"), "", mm, "_b", "v[0:K]");
  } else if (o.vector_times_matrix) {
    edge(s, access(s, "w"), "", mm, "_a", "w[0:M]");
    edge(s, access(s, "A"), "", mm, "_b", "A[0:M, 0:K]");
  } else {
    edge(s, access(s, "A"), "", mm, "_a", "A[0:" + rows + ", 0:" + cols + "]");
    edge(s, access(s, into_operand ? "u" : "v"), "", mm, "_b", into_operand ? "u[0:L]" : "v[0:K]");
  }
  const int pn = access(s, "P");
  edge(s, mm, "_c", pn, "", "P[0:L]");

  const std::string r = o.result;
  auto [e, x] = map(s, {"i"}, "0:L");
  const bool reads_alpha = o.scale.find("a *") != std::string::npos;
  const int t1 = reads_alpha ? codegen::testing::tasklet(s, o.scale, {"a", "p"}, {"t1"})
                             : codegen::testing::tasklet(s, o.scale, {"p"}, {"t1"});
  const int t2 = codegen::testing::tasklet(s, "t2 = b * c", {"b", "c"}, {"t2"});
  const int t3 = o.extra_input ? codegen::testing::tasklet(s, "o = x + y + d", {"x", "y", "d"}, {"o"})
                               : codegen::testing::tasklet(s, "o = x + y", {"x", "y"}, {"o"});
  if (reads_alpha) edge_in(s, access(s, "alpha"), e, t1, "a", "alpha[0]", "alpha[0]");
  edge_in(s, pn, e, t1, "p", "P[0:L]", "P[i]");
  edge_in(s, access(s, "beta"), e, t2, "b", "beta[0]", "beta[0]");
  edge_in(s, access(s, r), e, t2, "c", r + "[0:L]", r + "[i]");
  if (o.extra_input) edge_in(s, access(s, "d"), e, t3, "d", "d[0:L]", "d[i]");
  const int s1 = access(s, "s1"), s2 = access(s, "s2");
  edge(s, t1, "t1", s1, "", "s1[0]");
  edge(s, s1, "", t3, "x", "s1[0]");
  edge(s, t2, "t2", s2, "", "s2[0]");
  edge(s, s2, "", t3, "y", "s2[0]");
  const int rn = access(s, r);
  if (o.through_temp) {
    const int tmp = access(s, "Tmp");
    edge_out(s, t3, "o", x, tmp, "Tmp[i]", "Tmp[0:L]");
    edge(s, tmp, "", rn, "", "Tmp[0:L] -> [0:L]");
    if (o.temp_read_again) edge(s, tmp, "", access(s, "d"), "", "Tmp[0:L] -> [0:L]");
  } else {
    edge_out(s, t3, "o", x, rn, r + "[i]", r + "[0:L]");
  }
  if (o.second_writer) {
    const int put = codegen::testing::tasklet(s, "w = v", {"v"}, {"w"});
    edge(s, access(s, "omega"), "", put, "v", "omega[0]");
    edge(s, put, "w", rn, "", r + "[0]");
  }
  if (o.factor_written) {
    // alpha = omega, ordered after the update.
    const int copy = codegen::testing::tasklet(s, "w = v", {"v"}, {"w"});
    edge(s, access(s, "omega"), "", copy, "v", "omega[0]");
    edge(s, rn, "", copy, "", "");
    edge(s, copy, "w", access(s, "alpha"), "", "alpha[0]");
  }
  return g;
}

const plugin::Registry* blas_registry() {
  static std::unique_ptr<plugin::Registry> r = make_blas_registry(true, true);
  return r.get();
}

struct Data {
  std::vector<double> A, u, v, w, y, d;
  double alpha = 1.75, beta = -0.5;
  int64_t L;
  explicit Data(int64_t length) : A(kM * kK), u(kK), v(kK), w(kM), y(length), d(length), L(length) {
    for (size_t k = 0; k < A.size(); ++k) A[k] = static_cast<double>(k % 5) - 1.5;
    for (size_t k = 0; k < u.size(); ++k) u[k] = static_cast<double>(k % 3) + 0.25;
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<double>(k % 4) - 0.75;
    for (size_t k = 0; k < w.size(); ++k) w[k] = static_cast<double>(k % 2) * 1.5 - 0.5;
    for (size_t k = 0; k < y.size(); ++k) y[k] = static_cast<double>(k % 7) * 0.5 - 1;
    for (size_t k = 0; k < d.size(); ++k) d[k] = static_cast<double>(k % 4);
  }
  // Runs `g`; `ir` receives the program's LLVM IR.
  void run(const ir::SDFG& g, const codegen::LowerOptions& options, std::string* ir = nullptr) {
    Status valid = analysis::validate(g);
    ASSERT_TRUE(valid.ok()) << valid.error().message;
    Result<CompiledProgram> p = compile(g, options);
    ASSERT_TRUE(p.ok()) << p.error().message;
    if (ir) *ir = p->ir;
    std::map<std::string, ArgValue> args = {
        {"A", ArgValue::pointer(A.data())}, {"u", ArgValue::pointer(u.data())},
        {"v", ArgValue::pointer(v.data())}, {"w", ArgValue::pointer(w.data())},
        {"y", ArgValue::pointer(y.data())}, {"d", ArgValue::pointer(d.data())},
        {"alpha", ArgValue::scalar<double>(alpha)}, {"beta", ArgValue::scalar<double>(beta)},
        {"omega", ArgValue::scalar<double>(3.0)}, {"M", ArgValue::scalar<int64_t>(kM)},
        {"K", ArgValue::scalar<int64_t>(kK)},       {"L", ArgValue::scalar<int64_t>(L)}};
    Status r = codegen::testing::run(*p, args);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
};

// y = alpha * (A @ v) + beta * y, or alpha * (w @ A) + beta * y, by loops.
std::vector<double> expected(const Data& d, bool vector_times_matrix, double alpha) {
  std::vector<double> r(d.y.size());
  for (size_t i = 0; i < r.size(); ++i) {
    double acc = 0;
    if (vector_times_matrix)
      for (size_t m = 0; m < static_cast<size_t>(kM); ++m) acc += d.w[m] * d.A[m * kK + i];
    else
      for (size_t k = 0; k < static_cast<size_t>(kK); ++k) acc += d.A[i * kK + k] * d.v[k];
    r[i] = alpha * acc + d.beta * d.y[i];
  }
  return r;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-12 * (1 + std::fabs(want[k]))) << "at " << k;
}

const ir::LibraryNode* only_library_node(const ir::SDFG& g) {
  const ir::State& s = *g.all_states().front();
  const ir::LibraryNode* found = nullptr;
  for (int id : s.node_ids()) {
    EXPECT_NE(s.node(id)->kind, ir::NodeKind::MapEntry) << "a map is left";
    if (s.node(id)->kind == ir::NodeKind::Library) found = static_cast<const ir::LibraryNode*>(s.node(id));
  }
  return found;
}

// The connector each data container reaches the node through.
std::map<std::string, std::string> inputs_by_data(const ir::SDFG& g, const ir::LibraryNode* n) {
  const ir::State& s = *g.all_states().front();
  std::map<std::string, std::string> out;
  for (int id : s.node_ids())
    if (s.node(id) == n)
      for (int e : s.in_edges(id)) out[s.edge(e)->memlet.data] = s.edge(e)->dst_conn;
  return out;
}

void folds_and_matches(bool vector_times_matrix, bool through_blas, bool through_temp = false) {
  if (through_blas && !openblas_in_session()) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  Options o;
  o.vector_times_matrix = vector_times_matrix;
  o.through_temp = through_temp;
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  ASSERT_TRUE(apply_once(*g, "FoldScalingIntoGemm"));
  const ir::LibraryNode* gemv = only_library_node(*g);
  ASSERT_NE(gemv, nullptr);
  EXPECT_EQ(gemv->classpath, "dace.libraries.blas.nodes.gemv.Gemv");
  EXPECT_EQ(gemv->properties.at("alpha"), "\"alpha\"");
  EXPECT_EQ(gemv->properties.at("beta"), "\"beta\"");
  EXPECT_EQ(gemv->properties.at("transA"), vector_times_matrix ? "true" : "false");
  EXPECT_EQ(gemv->implementation, "OpenBLAS");  // DaCe's pure Gemv takes numbers only, and no _cin
  const std::map<std::string, std::string> want_inputs =
      vector_times_matrix ? std::map<std::string, std::string>{{"A", "_A"}, {"w", "_x"}, {"y", "_cin"}}
                          : std::map<std::string, std::string>{{"A", "_A"}, {"v", "_x"}, {"y", "_cin"}};
  EXPECT_EQ(inputs_by_data(*g, gemv), want_inputs);
  EXPECT_EQ(g->arrays.count("P"), 0u) << "the product's temporary is left";
  EXPECT_EQ(g->arrays.count("s1"), 0u) << "the map's intermediate is left";
  EXPECT_EQ(g->arrays.count("Tmp"), 0u) << "the copied temporary is left";

  Data d(product_length(o));
  const std::vector<double> want = expected(d, vector_times_matrix, d.alpha);
  codegen::LowerOptions options;
  options.registry = blas_registry();
  options.use_vendor_libraries = through_blas;
  std::string ir;
  ASSERT_NO_FATAL_FAILURE(d.run(*g, options, &ir));
  EXPECT_EQ(ir.find("@cblas_dgemv(") != std::string::npos, through_blas);
  expect_close(d.y, want);
}

TEST(TransformFoldScalingIntoGemv, MatrixTimesVectorBecomesOneGemvByLoops) { folds_and_matches(false, false); }
TEST(TransformFoldScalingIntoGemv, MatrixTimesVectorBecomesOneGemvThroughOpenBlas) { folds_and_matches(false, true); }
TEST(TransformFoldScalingIntoGemv, VectorTimesMatrixBecomesATransposedGemvByLoops) { folds_and_matches(true, false); }
TEST(TransformFoldScalingIntoGemv, VectorTimesMatrixBecomesATransposedGemvThroughOpenBlas) {
  folds_and_matches(true, true);
}

// y = y + alpha * (A @ v) as DaCe writes it: through a temporary copied into y.
TEST(TransformFoldScalingIntoGemv, ResultCopiedFromATemporaryFoldsByLoops) { folds_and_matches(false, false, true); }
TEST(TransformFoldScalingIntoGemv, ResultCopiedFromATemporaryFoldsThroughOpenBlas) {
  folds_and_matches(true, true, true);
}

TEST(TransformFoldScalingIntoGemv, NumericFactorFoldsAsANumber) {
  Options o;
  o.scale = "t1 = 2.5 * p";
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  ASSERT_TRUE(apply_once(*g, "FoldScalingIntoGemm"));
  const ir::LibraryNode* gemv = only_library_node(*g);
  ASSERT_NE(gemv, nullptr);
  EXPECT_EQ(gemv->properties.at("alpha"), "2.5");
  Data d(kM);
  const std::vector<double> want = expected(d, false, 2.5);
  ASSERT_NO_FATAL_FAILURE(d.run(*g, codegen::LowerOptions{}));
  expect_close(d.y, want);
}

// Refused with `reason`, and the SDFG is left as it was.
void expect_refused(const Options& o, const std::string& reason) {
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  const std::unique_ptr<ir::SDFG> before = g->clone_sdfg();
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "FoldScalingIntoGemm", &why)) << reason;
  EXPECT_NE(why.find(reason), std::string::npos) << why;
  std::string difference;
  EXPECT_TRUE(ir::structurally_equal(*g, *before, &difference)) << difference;
}

// u = alpha * (A @ u) + beta * u: ?gemv would overwrite u while reading it.
TEST(TransformFoldScalingIntoGemv, RefusedWhenTheResultIsTheVectorOperand) {
  Options o;
  o.result = "u";
  expect_refused(o, "is also an operand");
}

// The same through the temporary: u is read by the product and would be overwritten by ?gemv.
TEST(TransformFoldScalingIntoGemv, RefusedWhenTheCopiedResultIsTheVectorOperand) {
  Options o;
  o.result = "u";
  o.through_temp = true;
  expect_refused(o, "is also an operand");
}

// Tmp also feeds d: it must stay, so the map cannot go.
TEST(TransformFoldScalingIntoGemv, RefusedWhenTheTemporaryHasAnotherReader) {
  Options o;
  o.through_temp = true;
  o.temp_read_again = true;
  expect_refused(o, "neither the product");
}

// y[0] = omega lands in the same access node as the map's result: the Gemv would write y
// unordered with it.
TEST(TransformFoldScalingIntoGemv, RefusedWhenTheResultNodeHasASecondWriter) {
  Options o;
  o.second_writer = true;
  expect_refused(o, "is written elsewhere");
}

TEST(TransformFoldScalingIntoGemv, RefusedWhenTheMapHasAnotherInput) {
  Options o;
  o.extra_input = true;  // + d[i]: no Gemv computes that
  expect_refused(o, "neither the product");
}

TEST(TransformFoldScalingIntoGemv, RefusedWhenTheFactorIsWrittenInTheState) {
  Options o;
  o.factor_written = true;
  expect_refused(o, "is written in this state");
}

TEST(TransformFoldScalingIntoGemv, RefusedWhenTheProductIsSquared) {
  Options o;
  o.scale = "t1 = a * p * p";
  expect_refused(o, "multiplies the product");
}

// DaCe's Dot writes x . y alone: no node takes alpha and beta for a vector-vector product.
TEST(TransformFoldScalingIntoGemv, RefusedForAVectorVectorProduct) {
  Options o;
  o.dot = true;
  expect_refused(o, "multiplies two vectors");
}

}  // namespace
}  // namespace dace::transform::testing
