// LoopToMap in the GPU pipeline (gpu_loop_to_map.h): a loop around a large matrix-matrix
// product stays a loop (each product one device call), while loops around small constant
// products or matrix-vector products still become maps. `for b: C[b] = A[b] @ W` is checked
// against hand-written C++ loops on the CPU and, after the whole auto_optimize_gpu pipeline,
// on the emulated device; doitgen's raw SDFG against the corpus's NumPy output.
#include <gtest/gtest.h>

#include <cctype>

#include "corpus_case.h"
#include "cuda_emulation_support.h"
#include "ir/json/sdfg_json.h"
#include "transform/gpu_loop_to_map.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

// for b in range(B): C[b, :, :] = A[b, :, :] @ W   (A: B x N x K, W: K x M or K, C: B x N x M
// or B x N). Sizes are symbols unless `constant` gives them as numbers.
struct Batched {
  std::string n = "N", k = "K", m = "M";
  bool vector = false;  // W is a vector: C[b] = A[b] @ w
  T type = T::Float64;
  std::string cin;      // a Gemm (alpha 1, beta 1) reading C through _cin from this container
};

std::unique_ptr<ir::SDFG> batched_product(const Batched& o) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "batched_mm";
  for (const std::string& s : {std::string("B"), o.n, o.k, o.m})
    if (!std::isdigit(static_cast<unsigned char>(s[0]))) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "A", o.type, {"B", o.n, o.k});
  if (o.vector) {
    add_array(*g, "W", o.type, {o.k});
    add_array(*g, "C", o.type, {"B", o.n});
  } else {
    add_array(*g, "W", o.type, {o.k, o.m});
    add_array(*g, "C", o.type, {"B", o.n, o.m});
  }
  TestLoop l = add_test_loop(*g, "batches", "0", "b < B", "b + 1", "b");
  ir::State& s = add_state(*l.loop, *g, "product");
  auto n = std::make_unique<ir::LibraryNode>();
  n->name = n->label = "_MatMult_";
  n->classpath = "dace.libraries.blas.nodes.matmul.MatMul";
  n->in_connectors["_a"] = ir::DType{};
  n->in_connectors["_b"] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  if (!o.cin.empty()) {
    n->classpath = "dace.libraries.blas.nodes.gemm.Gemm";
    n->properties["alpha"] = "1";
    n->properties["beta"] = "1";
    n->properties["cin"] = "true";
    n->in_connectors["_cin"] = ir::DType{};
    if (o.cin != "C") add_array(*g, o.cin, o.type, {"B", o.n, o.m});
  }
  const int mm = s.add_node(std::move(n));
  if (!o.cin.empty()) edge(s, access(s, o.cin), "", mm, "_cin", o.cin + "[b, 0:" + o.n + ", 0:" + o.m + "]");
  edge(s, access(s, "A"), "", mm, "_a", "A[b, 0:" + o.n + ", 0:" + o.k + "]");
  if (o.vector) {
    edge(s, access(s, "W"), "", mm, "_b", "W[0:" + o.k + "]");
    edge(s, mm, "_c", access(s, "C"), "", "C[b, 0:" + o.n + "]");
  } else {
    edge(s, access(s, "W"), "", mm, "_b", "W[0:" + o.k + ", 0:" + o.m + "]");
    edge(s, mm, "_c", access(s, "C"), "", "C[b, 0:" + o.n + ", 0:" + o.m + "]");
  }
  return g;
}

const ir::ControlFlowRegion& only_loop(const ir::SDFG& g) {
  for (int slot : g.block_slots())
    if (g.block(slot)->kind == ir::BlockKind::Loop) return static_cast<const ir::ControlFlowRegion&>(*g.block(slot));
  ADD_FAILURE() << "no loop";
  return g;
}

int count_loops(const ir::ControlFlowRegion& r) {
  int n = 0;
  for (int slot : r.block_slots()) {
    const ir::ControlFlowBlock* b = r.block(slot);
    if (b->kind == ir::BlockKind::Loop) n += 1 + count_loops(static_cast<const ir::ControlFlowRegion&>(*b));
  }
  return n;
}

Result<bool> run_gpu_loop_to_map(ir::SDFG& g) {
  AnalysisManager am;
  return run_pass(g, *make_gpu_loop_to_map_pass(), am);
}

constexpr int64_t kB = 3, kN = 5, kK = 4, kM = 6;

struct Data {
  std::vector<double> A, W, C;
};

Data inputs(bool vector) {
  Data d;
  d.A.resize(kB * kN * kK);
  d.W.resize(vector ? kK : kK * kM);
  d.C.assign(vector ? kB * kN : kB * kN * kM, -7.0);
  for (size_t i = 0; i < d.A.size(); ++i) d.A[i] = 0.25 * static_cast<double>(i % 11) - 1.0;
  for (size_t i = 0; i < d.W.size(); ++i) d.W[i] = 0.5 * static_cast<double>(i % 7) - 1.5;
  return d;
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
}

// C[b, i, j] = sum_k A[b, i, k] * W[k, j], written out.
std::vector<double> expected_product(const Data& d) {
  std::vector<double> c(kB * kN * kM, 0.0);
  for (int64_t b = 0; b < kB; ++b)
    for (int64_t i = 0; i < kN; ++i)
      for (int64_t j = 0; j < kM; ++j) {
        double acc = 0.0;
        for (int64_t k = 0; k < kK; ++k) acc += d.A[(b * kN + i) * kK + k] * d.W[k * kM + j];
        c[(b * kN + i) * kM + j] = acc;
      }
  return c;
}

TEST(GpuLoopToMap, LoopAroundSymbolicMatrixProductStaysALoop) {
  std::unique_ptr<ir::SDFG> g = batched_product({});
  EXPECT_TRUE(holds_large_matrix_product(only_loop(*g)));
  // Plain LoopToMap would map it (so the loop survives only by the product rule).
  EXPECT_TRUE(applies_anywhere(*g, "LoopToMap"));
  Result<bool> changed = run_gpu_loop_to_map(*g);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_FALSE(*changed);
  EXPECT_EQ(count_loops(*g), 1);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 0);
  Data d = inputs(false);
  run_sdfg(*g, {{"A", &d.A}, {"W", &d.W}, {"C", &d.C}}, {{"B", kB}, {"N", kN}, {"K", kK}, {"M", kM}});
  expect_near_all(d.C, expected_product(d));
}

// C[b] = A[b] @ W + C[b] as one Gemm updating C in place (what FoldScalingIntoGemm writes):
// cuBLAS takes it, so the loop stays; with C read from another container it does not.
TEST(GpuLoopToMap, LoopAroundInPlaceGemmUpdateStaysALoop) {
  Batched o;
  o.cin = "C";
  std::unique_ptr<ir::SDFG> g = batched_product(o);
  EXPECT_TRUE(holds_large_matrix_product(only_loop(*g)));
  Result<bool> changed = run_gpu_loop_to_map(*g);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_FALSE(*changed);
  EXPECT_EQ(count_loops(*g), 1);
  Data d = inputs(false);
  std::vector<double> want = expected_product(d);
  for (size_t i = 0; i < want.size(); ++i) want[i] += d.C[i];
  run_sdfg(*g, {{"A", &d.A}, {"W", &d.W}, {"C", &d.C}}, {{"B", kB}, {"N", kN}, {"K", kK}, {"M", kM}});
  expect_near_all(d.C, want);

  o.cin = "D";
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*batched_product(o))));
}

// The bare class name counts as DaCe's MatMul; another library's class of that name does not.
TEST(GpuLoopToMap, OnlyDaceBlasClassesCount) {
  std::unique_ptr<ir::SDFG> g = batched_product({});
  const auto& s = static_cast<const ir::State&>(*only_loop(*g).block(only_loop(*g).block_slots().front()));
  ir::LibraryNode* mm = nullptr;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Library)
      mm = const_cast<ir::LibraryNode*>(static_cast<const ir::LibraryNode*>(s.node(id)));
  ASSERT_NE(mm, nullptr);
  mm->classpath = "MatMul";
  EXPECT_TRUE(holds_large_matrix_product(only_loop(*g)));
  mm->classpath = "mylib.nodes.MatMul";
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*g)));
}

TEST(GpuLoopToMap, LoopAroundSmallConstantProductBecomesAMap) {
  // 5 * 4 * 6 multiply-adds per iteration: one thread per iteration pays.
  std::unique_ptr<ir::SDFG> g = batched_product({"5", "4", "6", false, T::Float64, ""});
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*g)));
  Result<bool> changed = run_gpu_loop_to_map(*g);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_TRUE(*changed);
  EXPECT_EQ(count_loops(*g), 0);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 1);
  Data d = inputs(false);
  run_sdfg(*g, {{"A", &d.A}, {"W", &d.W}, {"C", &d.C}}, {{"B", kB}});
  expect_near_all(d.C, expected_product(d));
}

TEST(GpuLoopToMap, LoopAroundConstantProductAtTheThresholdStaysALoop) {
  // 32 * 32 * 32 multiply-adds: the first size counted as large.
  std::unique_ptr<ir::SDFG> g = batched_product({"32", "32", "32", false, T::Float64, ""});
  EXPECT_TRUE(holds_large_matrix_product(only_loop(*g)));
  std::unique_ptr<ir::SDFG> below = batched_product({"32", "32", "31", false, T::Float64, ""});
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*below)));
}

TEST(GpuLoopToMap, LoopAroundMatrixVectorProductBecomesAMap) {
  std::unique_ptr<ir::SDFG> g = batched_product({"N", "K", "M", true, T::Float64, ""});
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*g)));
  Result<bool> changed = run_gpu_loop_to_map(*g);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_TRUE(*changed);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 1);
  Data d = inputs(true);
  run_sdfg(*g, {{"A", &d.A}, {"W", &d.W}, {"C", &d.C}}, {{"B", kB}, {"N", kN}, {"K", kK}});
  for (int64_t b = 0; b < kB; ++b)
    for (int64_t i = 0; i < kN; ++i) {
      double acc = 0.0;
      for (int64_t k = 0; k < kK; ++k) acc += d.A[(b * kN + i) * kK + k] * d.W[k];
      EXPECT_NEAR(d.C[b * kN + i], acc, 1e-12) << b << ", " << i;
    }
}

TEST(GpuLoopToMap, LoopAroundIntegerProductBecomesAMap) {
  // cuBLAS has no integer product: such a product stays in the thread, as LoopToMap puts it.
  Batched o;
  o.type = T::Int64;
  std::unique_ptr<ir::SDFG> g = batched_product(o);
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*g)));
  Result<bool> changed = run_gpu_loop_to_map(*g);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_TRUE(*changed);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapEntry), 1);
}

TEST(GpuLoopToMap, LoopAroundBatchedProductBecomesAMap) {
  // C[b] = A[b] @ W where every A[b] is itself a stack of matrices (a 3-D operand): not one
  // device gemm, so the loop is mapped as LoopToMap would.
  std::unique_ptr<ir::SDFG> g = batched_product({});
  EXPECT_TRUE(holds_large_matrix_product(only_loop(*g)));
  g->symbols["L"] = ir::DType::of(T::Int64);
  g->arrays.at("A").shape = {E("B"), E("L"), E("N"), E("K")};
  ir::ControlFlowRegion& loop = const_cast<ir::ControlFlowRegion&>(only_loop(*g));
  auto& s = static_cast<ir::State&>(*loop.block(loop.block_slots().front()));
  for (int e : s.edge_ids())
    if (s.edge(e)->dst_conn == "_a") {
      Result<ir::Memlet> m = ir::parse_memlet("A[b, 0:L, 0:N, 0:K]");
      ASSERT_TRUE(m.ok());
      s.edge(e)->memlet = *m;
    }
  EXPECT_FALSE(holds_large_matrix_product(only_loop(*g)));
}

// Whether a MatMul node sits inside a GPU_Device map of `g` or of an SDFG nested in one.
bool product_in_kernel(const ir::SDFG& g, bool inside = false) {
  for (const ir::State* s : g.all_states()) {
    const std::vector<int> parents = s->scope_parents();
    for (int id : s->node_ids()) {
      bool in_kernel = inside;
      for (int p = parents[static_cast<size_t>(id)]; p >= 0 && !in_kernel; p = parents[static_cast<size_t>(p)])
        in_kernel = s->node(p)->kind == ir::NodeKind::MapEntry &&
                    static_cast<const ir::MapEntry*>(s->node(p))->map.schedule == ir::ScheduleType::GPU_Device;
      const ir::Node* n = s->node(id);
      if (n->kind == ir::NodeKind::Library && in_kernel) return true;
      if (n->kind == ir::NodeKind::NestedSDFG)
        if (const auto* nested = static_cast<const ir::NestedSDFGNode*>(n);
            nested->sdfg && product_in_kernel(*nested->sdfg, in_kernel))
          return true;
    }
  }
  return false;
}

Result<bool> run_auto_optimize_gpu(ir::SDFG& g) {
  AnalysisManager am;
  return run_pass(g, *make_pass("auto_optimize_gpu"), am);
}

TEST(GpuLoopToMap, AutoOptimizeGpuRunsEachBatchAsOneDeviceProductEmulated) {
  std::unique_ptr<ir::SDFG> g = batched_product({});
  Result<bool> ran = run_auto_optimize_gpu(*g);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_FALSE(product_in_kernel(*g));
  EXPECT_EQ(count_loops(*g), 1);
  REQUIRE_CUDA_PLUGIN();
  Result<CompiledProgram> prog = compile_emulated(*g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  Data d = inputs(false);
  Status r = codegen::testing::run(*prog, {{"A", ArgValue::pointer(d.A.data())},
                                           {"W", ArgValue::pointer(d.W.data())},
                                           {"C", ArgValue::pointer(d.C.data())},
                                           {"B", ArgValue::scalar<int64_t>(kB)},
                                           {"N", ArgValue::scalar<int64_t>(kN)},
                                           {"K", ArgValue::scalar<int64_t>(kK)},
                                           {"M", ArgValue::scalar<int64_t>(kM)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_near_all(d.C, expected_product(d));
}

TEST(GpuLoopToMap, DoitgenProductsRunOnTheDeviceNotInsideAThreadEmulated) {
  if (corpus_case_dirs().empty()) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  const std::string dir = std::string(LIBDACE_CORPUS_DIR) + "/doitgen";
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(dir + "/doitgen.raw.sdfg");
  ASSERT_TRUE(g.ok()) << g.error().message;
  Result<bool> ran = run_auto_optimize_gpu(**g);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  EXPECT_FALSE(product_in_kernel(**g)) << "doitgen's MatMul runs inside a GPU thread";
  EXPECT_EQ(count_loops(**g), 1);
  REQUIRE_CUDA_PLUGIN();
  Result<CompiledProgram> prog = compile_emulated(**g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(dir, **g, *prog);
}

}  // namespace
}  // namespace dace::transform::testing
