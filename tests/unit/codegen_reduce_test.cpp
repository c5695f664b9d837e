// Reduce over the last axis, compiled: sums (whose additions may be reordered to vectorize,
// as DaCe's -ffast-math build and NumPy's pairwise summation do), max and min (NaN propagates,
// as in NumPy's max/min) against plain C++ loops over the same data.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// B[0:R] = reduce(wcr, A[0:R, 0:C], axes=[1], identity)
std::unique_ptr<ir::SDFG> reduce_rows(T type, const std::string& wcr, const std::string& identity) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "reduce_rows";
  g->symbols["R"] = ir::DType::of(T::Int64);
  g->symbols["C"] = ir::DType::of(T::Int64);
  add_array(*g, "A", type, {"R", "C"});
  add_array(*g, "B", type, {"R"});
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "reduce";
  n->classpath = "dace.libraries.standard.nodes.reduce.Reduce";
  n->properties["axes"] = "[1]";
  n->properties["wcr"] = "\"" + wcr + "\"";
  n->properties["identity"] = identity;
  n->in_connectors["_in"] = ir::DType{};
  n->out_connectors["_out"] = ir::DType{};
  const int id = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", id, "_in", "A[0:R, 0:C]");
  edge(s, id, "_out", access(s, "B"), "", "B[0:R]");
  return g;
}

template <typename F>
std::vector<F> run_rows(const ir::SDFG& g, std::vector<F> a, int64_t rows, int64_t cols) {
  std::vector<F> b(static_cast<size_t>(rows), F(-7));
  Result<CompiledProgram> p = compile(g);
  EXPECT_TRUE(p.ok()) << p.error().message;
  if (!p.ok()) return b;
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                      {"R", ArgValue::scalar<int64_t>(rows)}, {"C", ArgValue::scalar<int64_t>(cols)}});
  EXPECT_TRUE(r.ok()) << r.error().message;
  return b;
}

TEST(CodegenReduce, SumOfEachRowMatchesASequentialSum) {
  const int64_t rows = 3, cols = 1003;  // not a multiple of any vector width
  std::vector<double> a(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * static_cast<double>(i)) * 10.0 + 0.001 * static_cast<double>(i % 17);
  std::vector<double> b = run_rows(*reduce_rows(T::Float64, "(lambda a, b: (a + b))", "0"), a, rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    double want = 0;
    for (int64_t c = 0; c < cols; ++c) want += a[static_cast<size_t>(r * cols + c)];
    EXPECT_NEAR(b[static_cast<size_t>(r)], want, 1e-11 * cols) << "row " << r;
  }
}

TEST(CodegenReduce, MaxAndMinAreExactAndPropagateNaN) {
  const int64_t rows = 4, cols = 517;
  std::vector<float> a(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(std::cos(1.3 * static_cast<double>(i)) * 100.0);
  a[static_cast<size_t>(2 * cols + 200)] = std::numeric_limits<float>::quiet_NaN();  // row 2 holds a NaN
  std::vector<float> mx = run_rows(*reduce_rows(T::Float32, "(lambda a, b: max(a, b))", "-9999"), a, rows, cols);
  std::vector<float> mn = run_rows(*reduce_rows(T::Float32, "(lambda a, b: min(a, b))", "9999"), a, rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    float hi = -9999.0f, lo = 9999.0f;
    bool nan = false;
    for (int64_t c = 0; c < cols; ++c) {
      const float v = a[static_cast<size_t>(r * cols + c)];
      nan = nan || std::isnan(v);
      hi = v > hi ? v : hi;
      lo = v < lo ? v : lo;
    }
    if (nan) {
      EXPECT_TRUE(std::isnan(mx[static_cast<size_t>(r)])) << "row " << r << ": NumPy's max is NaN";
      EXPECT_TRUE(std::isnan(mn[static_cast<size_t>(r)])) << "row " << r << ": NumPy's min is NaN";
    } else {
      EXPECT_EQ(mx[static_cast<size_t>(r)], hi) << "row " << r;
      EXPECT_EQ(mn[static_cast<size_t>(r)], lo) << "row " << r;
    }
  }
}

}  // namespace
}  // namespace dace::codegen::testing
