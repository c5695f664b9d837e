// StageHostLibraryNodes on hand-built SDFGs after GPUTransformSDFG's storage choice: a
// Cholesky node (LAPACK: host only) between GPU_Global containers reads a host copy of its
// input, copied from the device container before it, and writes a host copy of its output,
// copied to the device container after it; its schedule is the host's; nodes with a device
// implementation (MatMul) and nodes on host data are left alone. (Runs of such programs on the
// emulated device against NumPy: ctest npbench.auto_gpu, cholesky2 and contour_integral.)
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/stage_host_library_nodes.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

// G (GPU_Global) -> library node `cls` -> H (GPU_Global transient), N x N float64.
std::unique_ptr<ir::SDFG> program(const std::string& cls, ir::StorageType storage) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "staged";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "G", T::Float64, {"N", "N"});
  add_array(*g, "H", T::Float64, {"N", "N"}, true);
  g->arrays.at("G").storage = storage;
  g->arrays.at("H").storage = storage;
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "node";
  n->classpath = cls;
  n->schedule = ir::ScheduleType::GPU_Default;
  const bool matmul = cls.find("MatMul") != std::string::npos;
  n->in_connectors[matmul ? "_a" : "_a"] = ir::DType{};
  if (matmul) n->in_connectors["_b"] = ir::DType{};
  n->out_connectors[matmul ? "_c" : "_b"] = ir::DType{};
  const int id = s.add_node(std::move(n));
  edge(s, access(s, "G"), "", id, "_a", "G[0:N, 0:N]");
  if (matmul) edge(s, access(s, "G"), "", id, "_b", "G[0:N, 0:N]");
  edge(s, id, matmul ? "_c" : "_b", access(s, "H"), "", "H[0:N, 0:N]");
  return g;
}

bool run_pass(ir::SDFG& g) {
  std::unique_ptr<Pass> p = make_pass("StageHostLibraryNodes");
  EXPECT_TRUE(p);
  AnalysisManager am;
  Result<bool> r = p->apply(g, am);
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() && *r;
}

constexpr const char* kCholesky = "dace.libraries.linalg.nodes.cholesky.Cholesky";

TEST(TransformStageHostLibraryNodes, CholeskyOnDeviceDataReadsAndWritesHostCopies) {
  auto g = program(kCholesky, ir::StorageType::GPU_Global);
  ASSERT_TRUE(run_pass(*g));
  ASSERT_TRUE(g->arrays.count("G_host") && g->arrays.count("H_host"));
  EXPECT_EQ(g->arrays.at("G_host").storage, ir::StorageType::Default);
  EXPECT_TRUE(g->arrays.at("G_host").transient);
  EXPECT_EQ(g->arrays.at("G_host").shape, g->arrays.at("G").shape);
  const ir::State& s = *g->all_states()[0];
  int node = -1;
  for (int n : s.node_ids())
    if (s.node(n)->kind == ir::NodeKind::Library) node = n;
  ASSERT_GE(node, 0);
  EXPECT_EQ(static_cast<const ir::LibraryNode*>(s.node(node))->schedule, ir::ScheduleType::Default);
  auto data_of = [&](int n) { return static_cast<const ir::AccessNode*>(s.node(n))->data; };
  // G -> G_host -> node -> H_host -> H, each copy covering the node's subset.
  ASSERT_EQ(s.in_edges(node).size(), 1u);
  const ir::DataflowEdge* in = s.edge(s.in_edges(node)[0]);
  EXPECT_EQ(data_of(in->src), "G_host");
  EXPECT_EQ(in->memlet.data, "G_host");
  ASSERT_EQ(s.in_edges(in->src).size(), 1u);
  const ir::DataflowEdge* copy_in = s.edge(s.in_edges(in->src)[0]);
  EXPECT_EQ(data_of(copy_in->src), "G");
  EXPECT_EQ(ir::to_string(copy_in->memlet), "G[0:N, 0:N]");
  ASSERT_EQ(s.out_edges(node).size(), 1u);
  const ir::DataflowEdge* out = s.edge(s.out_edges(node)[0]);
  EXPECT_EQ(data_of(out->dst), "H_host");
  ASSERT_EQ(s.out_edges(out->dst).size(), 1u);
  const ir::DataflowEdge* copy_out = s.edge(s.out_edges(out->dst)[0]);
  EXPECT_EQ(data_of(copy_out->dst), "H");
  EXPECT_EQ(ir::to_string(copy_out->memlet), "H_host[0:N, 0:N]");
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(run_pass(*g)) << "a second run must find nothing left to do";
}

TEST(TransformStageHostLibraryNodes, LeavesDeviceImplementationsAndHostData) {
  auto matmul = program("dace.libraries.blas.nodes.matmul.MatMul", ir::StorageType::GPU_Global);
  EXPECT_FALSE(run_pass(*matmul));
  EXPECT_EQ(matmul->arrays.count("G_host"), 0u);
  auto host = program(kCholesky, ir::StorageType::Default);
  EXPECT_FALSE(run_pass(*host));
  EXPECT_EQ(host->arrays.count("G_host"), 0u);
  EXPECT_TRUE(host_only_library("dace.libraries.lapack.nodes.getrf.Getrf"));
  EXPECT_FALSE(host_only_library("dace.libraries.blas.nodes.gemm.Gemm"));
}

}  // namespace
}  // namespace dace::transform::testing
