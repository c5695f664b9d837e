// ExpandTransposesToMaps on hand-built SDFGs: a TensorTranspose (3-D permutation, alpha) and a
// 2-D Transpose become maps whose program computes what C++ loops compute (on the host, and
// after --auto gpu on the emulated device, where the map is a kernel); a unit dimension of a
// subset is squeezed as the lowering does; nodes the pass must leave alone (beta != 0, inside a
// scope, axes that are not a permutation) stay library nodes.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "cuda_emulation_support.h"
#include "transform/auto_optimize.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ir::ScalarType;

constexpr const char* kTensorTranspose = "dace.libraries.standard.nodes.ttranspose.TensorTranspose";
constexpr const char* kTranspose = "dace.libraries.standard.nodes.transpose.Transpose";

int add_library(ir::State& s, const char* cls, const std::map<std::string, std::string>& properties, bool tensor) {
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "transpose";
  n->classpath = cls;
  for (const auto& [k, v] : properties) n->properties[k] = v;
  n->in_connectors[tensor ? "_inp_tensor" : "_inp"] = ir::DType{};
  n->out_connectors[tensor ? "_out_tensor" : "_out"] = ir::DType{};
  return s.add_node(std::move(n));
}

// B[j, k, i] = alpha * A[i, j, k] (axes [1, 2, 0]); A is I x J x K, B is J x K x I.
std::unique_ptr<ir::SDFG> tensor_program(const std::string& alpha = "2.5", const std::string& beta = "0") {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "ttranspose";
  for (const char* s : {"I", "J", "K"}) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"I", "J", "K"});
  add_array(*g, "B", T::Float64, {"J", "K", "I"});
  ir::State& s = add_state(*g, *g, "s");
  const int n = add_library(s, kTensorTranspose, {{"axes", "[1, 2, 0]"}, {"alpha", alpha}, {"beta", beta}}, true);
  edge(s, access(s, "A"), "", n, "_inp_tensor", "A[0:I, 0:J, 0:K]");
  edge(s, n, "_out_tensor", access(s, "B"), "", "B[0:J, 0:K, 0:I]");
  return g;
}

// C = transpose(A[1, 0:M, 0:N]) into C[0:N, 0:M] (a unit first dimension, squeezed).
std::unique_ptr<ir::SDFG> slice_program() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "transpose_slice";
  for (const char* s : {"M", "N"}) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"2", "M", "N"});
  add_array(*g, "C", T::Float64, {"N", "M"});
  ir::State& s = add_state(*g, *g, "s");
  const int n = add_library(s, kTranspose, {}, false);
  edge(s, access(s, "A"), "", n, "_inp", "A[1, 0:M, 0:N]");
  edge(s, n, "_out", access(s, "C"), "", "C[0:N, 0:M]");
  return g;
}

bool run_pass(ir::SDFG& g) {
  std::unique_ptr<Pass> p = make_pass("ExpandTransposesToMaps");
  EXPECT_TRUE(p);
  AnalysisManager am;
  Result<bool> r = p->apply(g, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() && *r;
}

size_t count_kind(const ir::SDFG& g, ir::NodeKind kind) {
  size_t n = 0;
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids()) n += s->node(id)->kind == kind;
  return n;
}

struct TensorCase {
  int64_t i = 3, j = 4, k = 5;
  std::vector<double> a, b;
  TensorCase() : a(static_cast<size_t>(i * j * k)), b(a.size(), -1.0) {
    for (size_t x = 0; x < a.size(); ++x) a[x] = 0.5 * static_cast<double>(x) - 7.0;
  }
  std::map<std::string, ArgValue> args() {
    return {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}, {"I", ArgValue::scalar<int64_t>(i)},
            {"J", ArgValue::scalar<int64_t>(j)}, {"K", ArgValue::scalar<int64_t>(k)}};
  }
  std::vector<double> want(double alpha) const {
    std::vector<double> w(b.size());
    for (int64_t x = 0; x < i; ++x)
      for (int64_t y = 0; y < j; ++y)
        for (int64_t z = 0; z < k; ++z) w[static_cast<size_t>((y * k + z) * i + x)] = alpha * a[static_cast<size_t>((x * j + y) * k + z)];
    return w;
  }
};

TEST(TransformExpandTransposes, TensorTransposeBecomesAMapThatComputesThePermutation) {
  auto g = tensor_program();
  ASSERT_TRUE(run_pass(*g));
  EXPECT_EQ(count_kind(*g, ir::NodeKind::Library), 0u);
  EXPECT_EQ(count_kind(*g, ir::NodeKind::MapEntry), 1u);
  EXPECT_FALSE(run_pass(*g)) << "a second run must find nothing left to do";
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  TensorCase c;
  Status r = run(*p, c.args());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(c.b, c.want(2.5));
}

TEST(TransformExpandTransposes, TransposeOfASliceSqueezesTheUnitDimension) {
  auto g = slice_program();
  ASSERT_TRUE(run_pass(*g));
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t m = 3, n = 7;
  std::vector<double> a(static_cast<size_t>(2 * m * n)), c(static_cast<size_t>(n * m), -1.0);
  for (size_t x = 0; x < a.size(); ++x) a[x] = static_cast<double>(x) * 1.5;
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"C", ArgValue::pointer(c.data())},
                      {"M", ArgValue::scalar<int64_t>(m)}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (int64_t x = 0; x < m; ++x)
    for (int64_t y = 0; y < n; ++y)
      EXPECT_EQ(c[static_cast<size_t>(y * m + x)], a[static_cast<size_t>((m + x) * n + y)]) << x << "," << y;
}

TEST(TransformExpandTransposes, LeavesNodesItCannotExpand) {
  {  // beta != 0 reads the output too
    auto g = tensor_program("1", "0.5");
    EXPECT_FALSE(run_pass(*g));
    EXPECT_EQ(count_kind(*g, ir::NodeKind::Library), 1u);
  }
  {  // axes that are not a permutation
    auto g = tensor_program();
    ir::State& s = *g->all_states()[0];
    for (int id : s.node_ids())
      if (s.node(id)->kind == ir::NodeKind::Library) static_cast<ir::LibraryNode*>(s.node(id))->properties["axes"] = "[1, 1, 0]";
    EXPECT_FALSE(run_pass(*g));
  }
}

// The GPU pipeline expands the transpose before GPUTransformSDFG: the map becomes a kernel
// that runs on the emulated device (the library node's own lowering is host code, which
// cannot touch GPU_Global data).
TEST(TransformExpandTransposes, AutoOptimizeGpuRunsTheTransposeAsAKernel) {
  REQUIRE_CUDA_PLUGIN();
  auto g = tensor_program();
  std::unique_ptr<Pipeline> pipeline = make_auto_optimize_gpu_pipeline();
  AnalysisManager am;
  Result<bool> r = pipeline->apply(*g, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(count_kind(*g, ir::NodeKind::Library), 0u);
  bool kernel = false;
  for (const ir::State* s : g->all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::MapEntry &&
          static_cast<const ir::MapEntry*>(s->node(id))->map.schedule == ir::ScheduleType::GPU_Device)
        kernel = true;
  EXPECT_TRUE(kernel);
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  TensorCase c;
  Status st = run(*p, c.args());
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(c.b, c.want(2.5));
}

}  // namespace
}  // namespace dace::transform::testing
