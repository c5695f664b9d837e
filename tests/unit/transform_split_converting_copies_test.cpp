// SplitConvertingCopies on a hand-built program whose copies convert element types between
// memories: host float64 -> device int64 (converted on the host into a staging transient, then
// copied), device int64 -> device float32 (a GPU_Device map converting each element), device
// float32 -> host float64 (copied into a staging transient, then converted on the host). Run on
// the emulated device against C++ conversions (truncation toward zero, as NumPy's astype); the
// kernel's PTX goes through ptxas. Without the pass the CUDA plugin refuses such copies.
#include <gtest/gtest.h>

#include <cmath>

#include "codegen_test_builder.h"
#include "cuda_emulation_support.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

std::unique_ptr<ir::SDFG> program() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "converting_copies";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "R", T::Float64, {"N"});
  add_array(*g, "G", T::Int64, {"N"}, true);
  add_array(*g, "F", T::Float32, {"N"}, true);
  g->arrays.at("G").storage = ir::StorageType::GPU_Global;
  g->arrays.at("F").storage = ir::StorageType::GPU_Global;
  int s1 = 0, s2 = 0, s3 = 0;
  ir::State& in = add_state(*g, *g, "to_device", &s1);
  edge(in, access(in, "A"), "", access(in, "G"), "", "A[0:N]");
  ir::State& mid = add_state(*g, *g, "on_device", &s2);
  edge(mid, access(mid, "G"), "", access(mid, "F"), "", "G[0:N]");
  ir::State& out = add_state(*g, *g, "to_host", &s3);
  edge(out, access(out, "F"), "", access(out, "R"), "", "F[0:N]");
  add_interstate(*g, s1, s2);
  add_interstate(*g, s2, s3);
  return g;
}

TEST(TransformSplitConvertingCopies, ConversionsAcrossMemoriesRunOnTheHostOrInAKernel) {
  REQUIRE_CUDA_PLUGIN();
  {
    auto unsplit = program();
    Result<CompiledProgram> refused = compile_emulated(*unsplit);
    ASSERT_FALSE(refused.ok()) << "the plugin copies bytes; an unsplit converting copy must be refused";
    EXPECT_NE(refused.error().message.find("converts"), std::string::npos) << refused.error().message;
  }
  auto g = program();
  std::unique_ptr<Pass> p = make_pass("SplitConvertingCopies");
  ASSERT_TRUE(p);
  AnalysisManager am;
  Result<bool> r = p->apply(*g, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(*r);
  EXPECT_TRUE(g->arrays.count("G_staged")) << "host transient of G's type before the copy to the device";
  EXPECT_TRUE(g->arrays.count("F_staged")) << "host transient of F's type after the copy from the device";
  EXPECT_EQ(g->arrays.at("G_staged").dtype, g->arrays.at("G").dtype);
  EXPECT_EQ(g->arrays.at("G_staged").storage, ir::StorageType::Default);
  size_t kernels = 0;
  for (const ir::State* s : g->all_states())
    for (int n : s->node_ids())
      if (s->node(n)->kind == ir::NodeKind::MapEntry &&
          static_cast<const ir::MapEntry*>(s->node(n))->map.schedule == ir::ScheduleType::GPU_Device)
        ++kernels;
  EXPECT_EQ(kernels, 1u);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> prog = compile_emulated(*g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  const int64_t n = 41;
  std::vector<double> a(static_cast<size_t>(n)), out(static_cast<size_t>(n), -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.75 * static_cast<double>(i - 20) + 0.3;
  Status st = run(*prog, {{"A", ArgValue::pointer(a.data())}, {"R", ArgValue::pointer(out.data())},
                          {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i) {
    const double want = static_cast<double>(static_cast<float>(static_cast<int64_t>(a[static_cast<size_t>(i)])));
    EXPECT_EQ(out[static_cast<size_t>(i)], want) << i << ": " << a[static_cast<size_t>(i)];
  }
  checked_ptx(*g);
}

// A caller's array that runs backwards (stride -1, NumPy's A[::-1]) copied to a C-order
// device array and back: the runtime copies forwards, so the host rearranges the elements
// through the staging transient; R[i] = 2 * A[i] + i by a kernel in between.
TEST(TransformSplitConvertingCopies, BackwardsHostArrayIsStagedOnTheHost) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "backwards_copy";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  g->arrays.at("A").strides = {sym::integer(-1)};
  add_array(*g, "R", T::Float64, {"N"});
  add_array(*g, "G", T::Float64, {"N"}, true);
  add_array(*g, "H", T::Float64, {"N"}, true);
  g->arrays.at("G").storage = ir::StorageType::GPU_Global;
  g->arrays.at("H").storage = ir::StorageType::GPU_Global;
  int s1 = 0, s2 = 0, s3 = 0;
  ir::State& in = add_state(*g, *g, "to_device", &s1);
  edge(in, access(in, "A"), "", access(in, "G"), "", "A[0:N]");
  ir::State& k = add_state(*g, *g, "kernel", &s2);
  auto [entry, exit] = map(k, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  int t = codegen::testing::tasklet(k, "h = 2 * x + i", {"x"}, {"h"});
  edge_in(k, access(k, "G"), entry, t, "x", "G[0:N]", "G[i]");
  edge_out(k, t, "h", exit, access(k, "H"), "H[i]", "H[0:N]");
  ir::State& out = add_state(*g, *g, "to_host", &s3);
  edge(out, access(out, "H"), "", access(out, "R"), "", "H[0:N]");
  add_interstate(*g, s1, s2);
  add_interstate(*g, s2, s3);
  std::unique_ptr<Pass> p = make_pass("SplitConvertingCopies");
  AnalysisManager am;
  Result<bool> r = p->apply(*g, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_TRUE(*r);
  EXPECT_TRUE(g->arrays.count("G_staged"));
  EXPECT_FALSE(g->arrays.count("H_staged")) << "R runs forwards: its copy needs no staging";
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> prog = compile_emulated(*g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  const int64_t n = 29;
  std::vector<double> buffer(static_cast<size_t>(n)), out_r(static_cast<size_t>(n), -1.0);
  for (int64_t i = 0; i < n; ++i) buffer[static_cast<size_t>(i)] = 1.5 * static_cast<double>(i) - 4.0;
  // A[i] lives at buffer[n - 1 - i]: the caller passes the address of A[0], the last element.
  Status st = run(*prog, {{"A", ArgValue::pointer(buffer.data() + n - 1)}, {"R", ArgValue::pointer(out_r.data())},
                          {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i)
    EXPECT_EQ(out_r[static_cast<size_t>(i)], 2 * buffer[static_cast<size_t>(n - 1 - i)] + static_cast<double>(i)) << i;
}

}  // namespace
}  // namespace dace::transform::testing
