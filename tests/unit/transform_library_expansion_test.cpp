// SpecializeMatMul and ExpandLibraryNodes on hand-built MatMul nodes: each product becomes
// the node DaCe's MatMul expansion makes (Gemm, Gemv with or without transA, Dot) with DaCe's
// connector names, and computes what C++ loops compute. Refused: a MatMul whose
// implementation is not "specialize" and operand ranks DaCe does not specialize.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/sdfg.h"
#include "transform/history.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

constexpr int64_t kN = 3, kM = 4;

// out = a @ b through a MatMul node; A is N x M, x is M, y is N, B is M x N.
std::unique_ptr<ir::SDFG> matmul(const std::string& a, const std::string& b, const std::string& out,
                                 const std::string& implementation = "") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "mm";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"M", "N"});
  add_array(*g, "C", T::Float64, {"N", "N"});
  add_array(*g, "T3", T::Float64, {"2", "N", "M"});
  add_array(*g, "x", T::Float64, {"M"});
  add_array(*g, "y", T::Float64, {"N"});
  add_array(*g, "u", T::Float64, {"N"});
  add_array(*g, "v", T::Float64, {"M"});
  add_array(*g, "d", T::Float64, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->name = n->label = "_MatMult_";
  n->classpath = "dace.libraries.blas.nodes.matmul.MatMul";
  n->implementation = implementation;
  n->in_connectors["_a"] = ir::DType{};
  n->in_connectors["_b"] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  const int mm = s.add_node(std::move(n));
  auto whole = [&](const std::string& data) {
    std::string m = data + "[";
    const std::vector<sym::Expr>& shape = g->arrays.at(data).shape;
    for (size_t k = 0; k < shape.size(); ++k) m += (k ? ", 0:" : "0:") + sym::to_string(shape[k]);
    return m + "]";
  };
  edge(s, access(s, a), "", mm, "_a", whole(a));
  edge(s, access(s, b), "", mm, "_b", whole(b));
  edge(s, mm, "_c", access(s, out), "", whole(out));
  return g;
}

const ir::LibraryNode* only_library_node(const ir::SDFG& g) {
  const ir::LibraryNode* found = nullptr;
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::Library) {
        EXPECT_EQ(found, nullptr);
        found = static_cast<const ir::LibraryNode*>(s->node(id));
      }
  return found;
}

struct Data {
  std::vector<double> A, B, C, T3, x, y, u, v, d;
  Data()
      : A(kN * kM), B(kM * kN), C(kN * kN, 0), T3(2 * kN * kM, 0), x(kM), y(kN), u(kN, 0), v(kM, 0), d(1, 0) {
    for (size_t k = 0; k < A.size(); ++k) A[k] = static_cast<double>(k % 5) - 1.5;
    for (size_t k = 0; k < B.size(); ++k) B[k] = static_cast<double>(k % 3) + 0.25;
    for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<double>(k) - 1;
    for (size_t k = 0; k < y.size(); ++k) y[k] = 2.0 - static_cast<double>(k);
  }
  void run(const ir::SDFG& g) {
    run_sdfg(g, {{"A", &A}, {"B", &B}, {"C", &C}, {"T3", &T3}, {"x", &x}, {"y", &y}, {"u", &u}, {"v", &v}, {"d", &d}},
             {{"N", kN}, {"M", kM}});
  }
  double a(int64_t i, int64_t j) const { return A[static_cast<size_t>(i * kM + j)]; }
};

TEST(TransformSpecializeMatMul, MatrixTimesMatrixBecomesGemm) {
  std::unique_ptr<ir::SDFG> g = matmul("A", "B", "C");
  ASSERT_TRUE(apply_once(*g, "SpecializeMatMul"));
  const ir::LibraryNode* n = only_library_node(*g);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->classpath, "dace.libraries.blas.nodes.gemm.Gemm");
  EXPECT_EQ(n->name, "_MatMult_gemm");
  EXPECT_EQ(n->properties.at("cin"), "false");
  Data d;
  d.run(*g);
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kN; ++j) {
      double want = 0;
      for (int64_t k = 0; k < kM; ++k) want += d.a(i, k) * d.B[static_cast<size_t>(k * kN + j)];
      EXPECT_DOUBLE_EQ(d.C[static_cast<size_t>(i * kN + j)], want);
    }
}

TEST(TransformSpecializeMatMul, MatrixVectorAndVectorMatrixBecomeGemv) {
  std::unique_ptr<ir::SDFG> g = matmul("A", "x", "u");
  ASSERT_TRUE(apply_once(*g, "SpecializeMatMul"));
  const ir::LibraryNode* n = only_library_node(*g);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->classpath, "dace.libraries.blas.nodes.gemv.Gemv");
  EXPECT_TRUE(n->in_connectors.count("_A") && n->in_connectors.count("_x") && n->out_connectors.count("_y"));
  Data d;
  d.run(*g);
  for (int64_t i = 0; i < kN; ++i) {
    double want = 0;
    for (int64_t k = 0; k < kM; ++k) want += d.a(i, k) * d.x[static_cast<size_t>(k)];
    EXPECT_DOUBLE_EQ(d.u[static_cast<size_t>(i)], want);
  }
  // y @ A = A^T y: Gemv with transA, A at _A.
  std::unique_ptr<ir::SDFG> h = matmul("y", "A", "v");
  ASSERT_TRUE(apply_once(*h, "SpecializeMatMul"));
  n = only_library_node(*h);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->name, "_MatMult_gemvt");
  EXPECT_EQ(n->properties.at("transA"), "true");
  Data e;
  e.run(*h);
  for (int64_t j = 0; j < kM; ++j) {
    double want = 0;
    for (int64_t i = 0; i < kN; ++i) want += e.y[static_cast<size_t>(i)] * e.a(i, j);
    EXPECT_DOUBLE_EQ(e.v[static_cast<size_t>(j)], want);
  }
}

TEST(TransformSpecializeMatMul, VectorTimesVectorBecomesDotThroughThePass) {
  std::unique_ptr<ir::SDFG> g = matmul("x", "v", "d");
  std::unique_ptr<Pass> p = make_pass("ExpandLibraryNodes");
  ASSERT_TRUE(p);
  AnalysisManager am;
  Result<bool> changed = run_pass(*g, *p, am);
  ASSERT_TRUE(changed.ok() && *changed);
  const ir::LibraryNode* n = only_library_node(*g);
  ASSERT_TRUE(n);
  EXPECT_EQ(n->classpath, "dace.libraries.blas.nodes.dot.Dot");
  EXPECT_TRUE(n->out_connectors.count("_result"));
  Data d;
  d.v = {0.5, 1, -2, 3};
  d.run(*g);
  double want = 0;
  for (size_t k = 0; k < d.x.size(); ++k) want += d.x[k] * d.v[k];
  EXPECT_DOUBLE_EQ(d.d[0], want);
  // Recorded under the expansion's name, as DaCe does.
  const std::vector<HistoryEntry> hist = history_of(*g);
  ASSERT_EQ(hist.size(), 1u);
  EXPECT_EQ(hist[0].transformation, "SpecializeMatMul");
}

TEST(TransformSpecializeMatMul, HonorsTheImplementationAndRefusesOtherRanks) {
  std::unique_ptr<ir::SDFG> g = matmul("A", "B", "C", "pure");
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "SpecializeMatMul", &why));
  EXPECT_NE(why.find("implementation 'pure'"), std::string::npos) << why;
  std::unique_ptr<ir::SDFG> h = matmul("T3", "x", "C");
  why.clear();
  EXPECT_FALSE(applies_anywhere(*h, "SpecializeMatMul", &why));
  EXPECT_NE(why.find("ranks 3 and 1"), std::string::npos) << why;
}

}  // namespace
}  // namespace dace::transform::testing
