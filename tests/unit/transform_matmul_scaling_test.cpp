// MatMulScalingToOutput: `T = s * X; R = T @ Y` becomes `P = X @ Y; R = s * P` (the factor
// on either operand), checked against C++ loops of the original formula; refused where the
// scaled copy has another reader, where the map does more than multiply, and where the
// factor is written in the same state (each refusal would change results if applied).
#include <gtest/gtest.h>

#include <cmath>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

constexpr int64_t kN = 5, kK = 7, kM = 3;

struct Options {
  bool scale_b = false;           // scale the right operand instead of the left one
  std::string code = "t = s * x";  // the scaling tasklet
  bool second_reader = false;     // T is also copied into Z
  bool factor_written = false;    // the factor is written in the same state, after the product
};

// X is N x K, Y is K x M, R is N x M, alpha and omega are one-element arrays; the tasklet
// multiplies its connector s (alpha) with x (the scaled operand).
std::unique_ptr<ir::SDFG> scaled_product(const Options& o) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "scaled_mm";
  for (const char* n : {"N", "K", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "X", T::Float64, {"N", "K"});
  add_array(*g, "Y", T::Float64, {"K", "M"});
  add_array(*g, "R", T::Float64, {"N", "M"});
  add_array(*g, "alpha", T::Float64, {"1"});
  add_array(*g, "omega", T::Float64, {"1"});
  const std::string scaled = o.scale_b ? "Y" : "X";
  const std::string shape = o.scale_b ? "K, M" : "N, K";
  add_array(*g, "T", T::Float64, o.scale_b ? std::vector<std::string>{"K", "M"} : std::vector<std::string>{"N", "K"}, true);
  add_array(*g, "Z", T::Float64, o.scale_b ? std::vector<std::string>{"K", "M"} : std::vector<std::string>{"N", "K"});
  ir::State& s = add_state(*g, *g, "s");
  const std::string range = o.scale_b ? "0:K, 0:M" : "0:N, 0:K";
  auto [e, x] = map(s, {"i", "j"}, range);
  const int t = codegen::testing::tasklet(s, o.code, {"s", "x"}, {"t"});
  edge_in(s, access(s, "alpha"), e, t, "s", "alpha[0]", "alpha[0]");
  edge_in(s, access(s, scaled), e, t, "x", scaled + "[" + range + "]", scaled + "[i, j]");
  const int tn = access(s, "T");
  edge_out(s, t, "t", x, tn, "T[i, j]", "T[" + range + "]");

  const int mm = add_matmul(s);
  if (o.scale_b) {
    edge(s, access(s, "X"), "", mm, "_a", "X[0:N, 0:K]");
    edge(s, tn, "", mm, "_b", "T[0:K, 0:M]");
  } else {
    edge(s, tn, "", mm, "_a", "T[0:N, 0:K]");
    edge(s, access(s, "Y"), "", mm, "_b", "Y[0:K, 0:M]");
  }
  const int rn = access(s, "R");
  edge(s, mm, "_c", rn, "", "R[0:N, 0:M]");
  if (o.second_reader) edge(s, tn, "", access(s, "Z"), "", "T[" + range + "]");
  if (o.factor_written) {
    // alpha = omega, ordered after the product.
    const int copy = codegen::testing::tasklet(s, "o = v", {"v"}, {"o"});
    edge(s, access(s, "omega"), "", copy, "v", "omega[0]");
    edge(s, rn, "", copy, "", "");
    edge(s, copy, "o", access(s, "alpha"), "", "alpha[0]");
  }
  return g;
}

struct Data {
  std::vector<double> X, Y, R, alpha{1.75}, omega{-3.0}, Z;
  Data() : X(kN * kK), Y(kK * kM), R(kN * kM, -1), Z(std::max(kN * kK, kK * kM), 0) {
    for (size_t k = 0; k < X.size(); ++k) X[k] = static_cast<double>(k % 5) - 1.5;
    for (size_t k = 0; k < Y.size(); ++k) Y[k] = static_cast<double>(k % 3) + 0.25;
  }
  void run(const ir::SDFG& g) {
    run_sdfg(g, {{"X", &X}, {"Y", &Y}, {"R", &R}, {"alpha", &alpha}, {"omega", &omega}, {"Z", &Z}}, {{"N", kN}, {"K", kK}, {"M", kM}});
  }
};

// R = (s X) Y or X (s Y) by loops, as the untransformed SDFG computes it.
std::vector<double> expected(const Data& d, bool scale_b) {
  std::vector<double> r(kN * kM, 0);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kM; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < kK; ++k) {
        double x = d.X[static_cast<size_t>(i * kK + k)], y = d.Y[static_cast<size_t>(k * kM + j)];
        acc += scale_b ? x * (d.alpha[0] * y) : (d.alpha[0] * x) * y;
      }
      r[static_cast<size_t>(i * kM + j)] = acc;
    }
  return r;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], 1e-12 * (1 + std::fabs(want[k]))) << "at " << k;
}

// The MatMul reads `operand` from X or Y directly, and no map reads them any more.
void expect_moved(const ir::SDFG& g, const std::string& conn, const std::string& data) {
  const ir::State& s = *g.all_states().front();
  bool found = false;
  for (int id : s.node_ids()) {
    if (s.node(id)->kind != ir::NodeKind::Library) continue;
    for (int e : s.in_edges(id))
      if (s.edge(e)->dst_conn == conn) {
        EXPECT_EQ(s.edge(e)->memlet.data, data);
        found = true;
      }
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(g.arrays.at("T").shape.size(), 2u);
  EXPECT_EQ(sym::to_string(g.arrays.at("T").shape[0]), "N");
  EXPECT_EQ(sym::to_string(g.arrays.at("T").shape[1]), "M");
}

TEST(TransformMatMulScalingToOutput, LeftFactorMovesBehindTheProduct) {
  std::unique_ptr<ir::SDFG> g = scaled_product({});
  ASSERT_TRUE(apply_once(*g, "MatMulScalingToOutput"));
  expect_moved(*g, "_a", "X");
  Data d;
  d.run(*g);
  expect_close(d.R, expected(d, false));
}

TEST(TransformMatMulScalingToOutput, RightFactorMovesBehindTheProduct) {
  Options o;
  o.scale_b = true;
  o.code = "t = (x * s)";
  std::unique_ptr<ir::SDFG> g = scaled_product(o);
  ASSERT_TRUE(apply_once(*g, "MatMulScalingToOutput"));
  expect_moved(*g, "_b", "Y");
  Data d;
  d.run(*g);
  expect_close(d.R, expected(d, true));
}

TEST(TransformMatMulScalingToOutput, RefusedWhenTheScaledCopyHasAnotherReader) {
  Options o;
  o.second_reader = true;
  std::unique_ptr<ir::SDFG> g = scaled_product(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MatMulScalingToOutput", &why));
  EXPECT_NE(why.find("used elsewhere"), std::string::npos) << why;
}

TEST(TransformMatMulScalingToOutput, RefusedWhenTheMapIsNotAProduct) {
  Options o;
  o.code = "t = s + x";
  std::unique_ptr<ir::SDFG> g = scaled_product(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MatMulScalingToOutput", &why));
  EXPECT_NE(why.find("not one multiplication"), std::string::npos) << why;
}

TEST(TransformMatMulScalingToOutput, RefusedWhenTheFactorIsWrittenInTheState) {
  Options o;
  o.factor_written = true;
  std::unique_ptr<ir::SDFG> g = scaled_product(o);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "MatMulScalingToOutput", &why));
  EXPECT_NE(why.find("is written in this state"), std::string::npos) << why;
}

}  // namespace
}  // namespace dace::transform::testing
