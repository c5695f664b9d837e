// WCR writes out of GPU_Device maps (codegen/tasklet_emit.cpp, conflicted()): `B[i + j]` from
// a 2-D kernel map reaches one element from several threads ((0, 1) and (1, 0)) and must be an
// atom.* in the PTX; `B[i, j]` and `B[j]` from a 1-D kernel over j keep their plain store.
// The B[i + j] kernel also runs (emulated, and on the GPU where there is one) against
// hand-derived diagonal counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// B[write] += 1 from a GPU_Device map over `params` in 0:N each; B of shape `shape`.
std::unique_ptr<ir::SDFG> gpu_wcr_counter(const std::string& name, const std::vector<std::string>& params,
                                          const std::vector<std::string>& shape, const std::string& write) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Int64, shape);
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  std::string ranges;
  for (size_t k = 0; k < params.size(); ++k) ranges += (k ? ", " : "") + std::string("0:N");
  auto [entry, exit] = map(s, params, ranges, S::GPU_Device);
  int t = tasklet(s, "o = 1", {}, {"o"});
  edge(s, entry, "", t, "", "");
  std::string whole;
  for (size_t k = 0; k < shape.size(); ++k) whole += (k ? ", " : "") + std::string("0:") + shape[k];
  edge_out(s, t, "o", exit, access(s, "B"), "B[" + write + "]", "B[" + whole + "]", "lambda a, b: a + b");
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

bool has_atom(const std::string& ptx) { return ptx.find("atom.") != std::string::npos; }

TEST(CudaWcrConflict, SumOfTwoKernelParamsIsAtomic) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ptx = checked_ptx(*gpu_wcr_counter("wcr_diag", {"i", "j"}, {"2*N"}, "i + j"));
  EXPECT_TRUE(has_atom(ptx)) << "B[i + j] from a 2-D kernel map is a plain update";
}

TEST(CudaWcrConflict, InjectiveIndicesStayPlain) {
  REQUIRE_CUDA_PLUGIN();
  EXPECT_FALSE(has_atom(checked_ptx(*gpu_wcr_counter("wcr_2d", {"i", "j"}, {"N", "N"}, "i, j"))))
      << "B[i, j] has one thread per element";
  EXPECT_FALSE(has_atom(checked_ptx(*gpu_wcr_counter("wcr_1d", {"j"}, {"N"}, "j"))))
      << "B[j] from a 1-D kernel over j has one thread per element";
}

class CudaWcrConflictRun : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaWcrConflictRun);

// B[i + j] += 1 over (i, j) in [0, 48)^2: element k counts the pairs with i + j = k,
// min(k + 1, 95 - k).
TEST_P(CudaWcrConflictRun, DiagonalCountsMatchHandDerived) {
  REQUIRE_CUDA_TARGET();
  const int64_t n = 48;
  std::unique_ptr<ir::SDFG> g = gpu_wcr_counter("wcr_diag_run", {"i", "j"}, {"2*N"}, "i + j");
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int64_t> b(static_cast<size_t>(2 * n), 0);
  Status st = run(*p, {{"B", ArgValue::pointer(b.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t k = 0; k < 2 * n; ++k)
    EXPECT_EQ(b[static_cast<size_t>(k)], std::max<int64_t>(0, std::min(k + 1, 2 * n - 1 - k))) << "B[" << k << "]";
}

}  // namespace
}  // namespace dace::codegen::testing
