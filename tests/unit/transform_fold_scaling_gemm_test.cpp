// FoldScalingIntoGemm: `P = A @ B; C = alpha * P + beta * C` (the map that auto_optimize's
// fusion leaves in gemm: three tasklets joined by scalars) becomes one Gemm with alpha and
// beta updating C in place; results against C++ loops of the formula. Refused where applying
// would change results: C is also an operand of the product, the map adds another input, the
// factor is written in the same state.
#include <gtest/gtest.h>

#include <cmath>

#include "codegen_test_builder.h"
#include "ir/equality.h"
#include "ir/sdfg.h"
#include "transform/registry.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

constexpr int64_t kN = 6;

struct Options {
  std::string result = "C";          // the container the map writes (and reads as `c`)
  bool extra_input = false;          // the map also adds D at its point
  bool factor_written = false;       // alpha is written in the same state, after the map
  std::string scale = "t1 = a * p";  // the first tasklet
  T type = T::Float64;               // element type of A, B, C, D and the product P
  bool ordering_edge = false;        // a tasklet writing omega is ordered before the map (empty memlet)
  bool dangling_input = false;       // D enters the map at IN_D, which has no OUT_D
  bool undeclared_a = false;         // the MatMul has an _a edge but no _a connector declared
};

// A, B, C, D are N x N; alpha, beta and omega Scalars. MatMul -> P -> map over (i, j):
// t1 = alpha * P[i, j]; t2 = beta * R[i, j]; R[i, j] = t1 + t2 (+ D[i, j]).
std::unique_ptr<ir::SDFG> scaled_update(const Options& o) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gemm_update";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* n : {"A", "B", "C", "D"}) add_array(*g, n, o.type, {"N", "N"});
  add_array(*g, "P", o.type, {"N", "N"}, true);
  for (const char* n : {"alpha", "beta", "omega"}) add_scalar(*g, n, T::Float64);
  for (const char* n : {"s1", "s2"}) add_scalar(*g, n, T::Float64, true);
  ir::State& s = add_state(*g, *g, "s");

  const int mm = add_matmul(s);
  if (o.undeclared_a) s.node(mm)->in_connectors.erase("_a");
  edge(s, access(s, "A"), "", mm, "_a", "A[0:N, 0:N]");
  edge(s, access(s, "B"), "", mm, "_b", "B[0:N, 0:N]");
  const int pn = access(s, "P");
  edge(s, mm, "_c", pn, "", "P[0:N, 0:N]");

  const std::string r = o.result;
  auto [e, x] = map(s, {"i", "j"}, "0:N, 0:N");
  const bool reads_alpha = o.scale.find("a *") != std::string::npos;
  const int t1 = reads_alpha ? codegen::testing::tasklet(s, o.scale, {"a", "p"}, {"t1"})
                             : codegen::testing::tasklet(s, o.scale, {"p"}, {"t1"});
  const int t2 = codegen::testing::tasklet(s, "t2 = b * c", {"b", "c"}, {"t2"});
  const int t3 = o.extra_input ? codegen::testing::tasklet(s, "o = x + y + d", {"x", "y", "d"}, {"o"})
                               : codegen::testing::tasklet(s, "o = x + y", {"x", "y"}, {"o"});
  if (reads_alpha) edge_in(s, access(s, "alpha"), e, t1, "a", "alpha[0]", "alpha[0]");
  edge_in(s, pn, e, t1, "p", "P[0:N, 0:N]", "P[i, j]");
  edge_in(s, access(s, "beta"), e, t2, "b", "beta[0]", "beta[0]");
  edge_in(s, access(s, r), e, t2, "c", r + "[0:N, 0:N]", r + "[i, j]");
  if (o.extra_input) edge_in(s, access(s, "D"), e, t3, "d", "D[0:N, 0:N]", "D[i, j]");
  const int s1 = access(s, "s1"), s2 = access(s, "s2");
  edge(s, t1, "t1", s1, "", "s1[0]");
  edge(s, s1, "", t3, "x", "s1[0]");
  edge(s, t2, "t2", s2, "", "s2[0]");
  edge(s, s2, "", t3, "y", "s2[0]");
  const int rn = access(s, r);
  edge_out(s, t3, "o", x, rn, r + "[i, j]", r + "[0:N, 0:N]");
  if (o.ordering_edge) {
    // omega = 3 must happen before the map: only the empty edge into the map says so.
    const int before = codegen::testing::tasklet(s, "w = 3.0", {}, {"w"});
    edge(s, before, "w", access(s, "omega"), "", "omega[0]");
    edge(s, before, "", e, "", "");
  }
  if (o.dangling_input) {
    s.node(e)->in_connectors["IN_D"] = ir::DType{};
    edge(s, access(s, "D"), "", e, "IN_D", "D[0:N, 0:N]");
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

struct Data {
  std::vector<double> A, B, C, D;
  double alpha = 1.75, beta = -0.5;
  Data() : A(kN * kN), B(kN * kN), C(kN * kN), D(kN * kN) {
    for (size_t k = 0; k < A.size(); ++k) {
      A[k] = static_cast<double>(k % 5) - 1.5;
      B[k] = static_cast<double>(k % 3) + 0.25;
      C[k] = static_cast<double>(k % 7) * 0.5 - 1;
      D[k] = static_cast<double>(k % 4);
    }
  }
  void run(const ir::SDFG& g) {
    Status v = analysis::validate(g);
    ASSERT_TRUE(v.ok()) << v.error().message;
    Result<CompiledProgram> p = compile(g);
    ASSERT_TRUE(p.ok()) << p.error().message;
    std::map<std::string, ArgValue> args = {
        {"A", ArgValue::pointer(A.data())},      {"B", ArgValue::pointer(B.data())},
        {"C", ArgValue::pointer(C.data())},      {"D", ArgValue::pointer(D.data())},
        {"alpha", ArgValue::scalar<double>(alpha)}, {"beta", ArgValue::scalar<double>(beta)},
        {"omega", ArgValue::scalar<double>(3.0)},   {"N", ArgValue::scalar<int64_t>(kN)}};
    Status r = codegen::testing::run(*p, args);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
};

// C = alpha * (A @ B) + beta * C by loops.
std::vector<double> expected(const Data& d, double alpha) {
  std::vector<double> r(kN * kN);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kN; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < kN; ++k) acc += d.A[static_cast<size_t>(i * kN + k)] * d.B[static_cast<size_t>(k * kN + j)];
      r[static_cast<size_t>(i * kN + j)] = alpha * acc + d.beta * d.C[static_cast<size_t>(i * kN + j)];
    }
  return r;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-12 * (1 + std::fabs(want[k]))) << "at " << k;
}

const ir::LibraryNode* only_gemm(const ir::SDFG& g) {
  const ir::State& s = *g.all_states().front();
  const ir::LibraryNode* found = nullptr;
  for (int id : s.node_ids()) {
    EXPECT_NE(s.node(id)->kind, ir::NodeKind::MapEntry) << "a map is left";
    if (s.node(id)->kind == ir::NodeKind::Library) found = static_cast<const ir::LibraryNode*>(s.node(id));
  }
  return found;
}

TEST(TransformFoldScalingIntoGemm, ScaledUpdateBecomesOneGemmInPlace) {
  std::unique_ptr<ir::SDFG> g = scaled_update({});
  ASSERT_TRUE(apply_once(*g, "FoldScalingIntoGemm"));
  const ir::LibraryNode* gemm = only_gemm(*g);
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->classpath, "dace.libraries.blas.nodes.gemm.Gemm");
  EXPECT_EQ(gemm->properties.at("alpha"), "\"alpha\"");
  EXPECT_EQ(gemm->properties.at("beta"), "\"beta\"");
  EXPECT_EQ(gemm->implementation, "OpenBLAS");  // DaCe's pure Gemm takes numbers only
  EXPECT_EQ(g->arrays.count("P"), 0u) << "the product's temporary is left";
  // It erased containers (P, s1, s2) and nodes: it must report both.
  const Modifies reported = make_transformation("FoldScalingIntoGemm")->modifies();
  EXPECT_TRUE(any(reported & Modifies::Descriptors));
  EXPECT_TRUE(any(reported & Modifies::AccessNodes));
  Data d;
  const std::vector<double> want = expected(d, d.alpha);
  d.run(*g);
  expect_close(d.C, want);
}

TEST(TransformFoldScalingIntoGemm, NumericFactorFoldsAsANumber) {
  Options o;
  o.scale = "t1 = 2.5 * p";
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  ASSERT_TRUE(apply_once(*g, "FoldScalingIntoGemm"));
  const ir::LibraryNode* gemm = only_gemm(*g);
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->properties.at("alpha"), "2.5");
  Data d;
  const std::vector<double> want = expected(d, 2.5);
  d.run(*g);
  expect_close(d.C, want);
}

TEST(TransformFoldScalingIntoGemm, RefusedWhenTheResultIsAnOperand) {
  Options o;
  o.result = "A";  // A = alpha * (A @ B) + beta * A: BLAS would overwrite A while reading it
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "FoldScalingIntoGemm", &why));
  EXPECT_NE(why.find("is also an operand"), std::string::npos) << why;
}

TEST(TransformFoldScalingIntoGemm, RefusedWhenTheMapHasAnotherInput) {
  Options o;
  o.extra_input = true;  // + D[i, j]: no Gemm computes that
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "FoldScalingIntoGemm", &why));
  EXPECT_NE(why.find("neither the product"), std::string::npos) << why;
}

TEST(TransformFoldScalingIntoGemm, RefusedWhenTheFactorIsWrittenInTheState) {
  Options o;
  o.factor_written = true;
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "FoldScalingIntoGemm", &why));
  EXPECT_NE(why.find("is written in this state"), std::string::npos) << why;
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
  // Nor does applying change it (apply_once needs a valid SDFG: an IN_ without OUT_ or an
  // undeclared connector is caught by validation first).
  if (analysis::validate(*g).ok()) {
    EXPECT_FALSE(apply_once(*g, "FoldScalingIntoGemm"));
  }
}

// Removing the map would drop the edge that orders `omega = 3` before it.
TEST(TransformFoldScalingIntoGemm, RefusedWhenAnEmptyEdgeOrdersSomethingBeforeTheMap) {
  Options o;
  o.ordering_edge = true;
  expect_refused(o, "is not the outer side of an input its result uses");
}

TEST(TransformFoldScalingIntoGemm, RefusedWhenTheMapHasAnInputWithoutInnerSide) {
  Options o;
  o.dangling_input = true;
  expect_refused(o, "connector \"IN_D\"");
}

// The Gemm's _cin takes _a's declared type: without a declaration there is none to take.
TEST(TransformFoldScalingIntoGemm, RefusedWhenTheMatMulDeclaresNoA) {
  Options o;
  o.undeclared_a = true;
  expect_refused(o, "does not declare its connectors _a, _b and _c");
}

// C = 2.5 * (A @ B) + beta * C over int64 is a map of int64 casts; ?gemm is floating point.
TEST(TransformFoldScalingIntoGemm, RefusedForAnIntegerProduct) {
  Options o;
  o.type = T::Int64;
  o.scale = "t1 = 2.5 * p";
  expect_refused(o, "has element type int64, not floating point");
}

TEST(TransformFoldScalingIntoGemm, RefusedWhenTheProductIsSquared) {
  Options o;
  o.scale = "t1 = a * p * p";
  std::unique_ptr<ir::SDFG> g = scaled_update(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "FoldScalingIntoGemm", &why));
  EXPECT_NE(why.find("multiplies the product"), std::string::npos) << why;
}

}  // namespace
}  // namespace dace::transform::testing
