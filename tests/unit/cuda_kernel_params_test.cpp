// Kernel parameters of the CUDA plugin (docs/cuda.md, "Kernel code"): the pointer of a
// container no other parameter reaches is `noalias` (CUDA's __restrict__), so a container the
// kernel only reads is loaded through the read-only data cache (`ld.global.nc`) and ptxas may
// issue those loads ahead of the stores; a container the kernel also writes is not, and
// arguments that may alias (descriptor may_alias, option noalias_arguments off) get nothing.
// Each kernel's PTX bounds its block (`.maxntid`) by the block every launch of it uses.
// The PTX comes from the lowering (no driver needed) and ptxas must accept it.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// B[i, j] = 2 * A[i, j] + D[i, j] + B[i, j] over a GPU_Device map: A and D read only, B read
// and written.
std::unique_ptr<ir::SDFG> update_sdfg(const std::string& name) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  add_array(*g, "D", T::Float64, {"N", "M"});
  for (const char* name : {"A", "B", "D"}) g->arrays.at(name).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j"}, "0:N, 0:M", ir::ScheduleType::GPU_Device);
  int t = tasklet(s, "b = 2 * a + d + b_in", {"a", "d", "b_in"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M]", "A[i, j]");
  edge_in(s, access(s, "D"), entry, t, "d", "D[0:N, 0:M]", "D[i, j]");
  edge_in(s, access(s, "B"), entry, t, "b_in", "B[0:N, 0:M]", "B[i, j]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i, j]", "B[0:N, 0:M]");
  return g;
}

// The PTX of `g` lowered with `options` (the CUDA registry added), checked by ptxas.
std::string ptx_of(const ir::SDFG& g, const LowerOptions& options) { return checked_ptx(g, options); }

TEST(CudaKernelParams, ReadOnlyArgumentGoesThroughTheReadOnlyCache) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ptx = ptx_of(*update_sdfg("params_private"), parallel_test_options());
  EXPECT_EQ(count_of(ptx, "ld.global.nc.f64"), 2u) << ptx;  // A and D
  EXPECT_EQ(count_of(ptx, "ld.global.f64"), 1u) << ptx;     // B, which the kernel writes
  EXPECT_EQ(count_of(ptx, "st.global.f64"), 1u) << ptx;
}

TEST(CudaKernelParams, ArgumentsThatMayAliasAreLoadedPlainly) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = update_sdfg("params_may_alias");
  g->arrays.at("A").may_alias = true;
  std::string ptx = ptx_of(*g, parallel_test_options());
  EXPECT_EQ(count_of(ptx, "ld.global.nc.f64"), 1u) << ptx;  // D only
  EXPECT_EQ(count_of(ptx, "ld.global.f64"), 2u) << ptx;     // A and B

  LowerOptions no_restrict = parallel_test_options();
  no_restrict.noalias_arguments = false;
  ptx = ptx_of(*update_sdfg("params_no_restrict"), no_restrict);
  EXPECT_EQ(count_of(ptx, "ld.global.nc"), 0u) << ptx;
  EXPECT_EQ(count_of(ptx, "ld.global.f64"), 3u) << ptx;
}

TEST(CudaKernelParams, PtxBoundsEachKernelByItsLaunchBlock) {
  REQUIRE_CUDA_PLUGIN();
  std::string ptx = ptx_of(*update_sdfg("params_block_default"), parallel_test_options());
  EXPECT_EQ(count_of(ptx, ".maxntid 32, 8, 1"), 1u) << ptx;  // the 2-D default block

  std::unique_ptr<ir::SDFG> g = update_sdfg("params_block_given");
  ir::State& s = *g->all_states()[0];
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry)
      static_cast<ir::MapEntry&>(*s.node(id)).map.gpu_block_size = {E("64"), E("2"), E("1")};
  ptx = ptx_of(*g, parallel_test_options());
  EXPECT_EQ(count_of(ptx, ".maxntid 64, 2, 1"), 1u) << ptx;
}

}  // namespace
}  // namespace dace::codegen::testing
