// Which WCR writes out of a parallel map need an atomic update (codegen/tasklet_emit.cpp,
// conflicted()): only an index tuple that is injective over the parallel parameters, with each
// parameter alone in a point dimension, may stay a plain read-modify-write. `b[i + j]` from a
// 2-D parallel map reaches one element from several threads ((0, 1) and (1, 0)), so it must
// be atomic; `b[i, j]` and `b[j]` from a 1-D map over j keep their plain update.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// One WCR sum `out[write] += 1` (B of shape `shape`) from a CPU_Multicore map over `params`
// in 0:N each, with `collapse` of them parallel and `threads` threads.
std::unique_ptr<ir::SDFG> wcr_counter(const std::vector<std::string>& params, int64_t collapse,
                                      const std::vector<std::string>& shape, const std::string& write,
                                      int64_t threads = 0) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "wcr_conflict";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "B", T::Int64, shape);
  ir::State& s = add_state(*g, *g, "s");
  std::string ranges;
  for (size_t k = 0; k < params.size(); ++k) ranges += (k ? ", " : "") + std::string("0:N");
  auto [entry, exit] = map(s, params, ranges, ir::ScheduleType::CPU_Multicore);
  auto& m = static_cast<ir::MapEntry*>(s.node(entry))->map;
  m.collapse = collapse;
  m.omp_num_threads = threads;
  int t = tasklet(s, "o = 1", {}, {"o"});
  edge(s, entry, "", t, "", "");
  std::string whole;
  for (size_t k = 0; k < shape.size(); ++k) whole += (k ? ", " : "") + std::string("0:") + shape[k];
  edge_out(s, t, "o", exit, access(s, "B"), "B[" + write + "]", "B[" + whole + "]", "lambda a, b: a + b");
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

// An atomic read-modify-write: atomicrmw, or the compare-and-swap loop of other operators.
bool has_atomic(const std::string& ir) {
  return ir.find("atomicrmw") != std::string::npos || ir.find("cmpxchg") != std::string::npos;
}

TEST(CodegenWcrConflict, SumOfTwoParallelParamsIsAtomic) {
  // Both parameters parallel (collapse 2) and i parallel with j its thread's inner loop.
  for (int64_t collapse : {2, 1}) {
    const std::string ir = lower_with_cpu_schedules(*wcr_counter({"i", "j"}, collapse, {"2*N"}, "i + j"));
    EXPECT_TRUE(has_atomic(ir)) << "B[i + j] from a 2-D parallel map (collapse " << collapse << ") is a plain update";
  }
}

TEST(CodegenWcrConflict, ParameterSharingADimensionIsAtomic) {
  // j shares its dimension with i, and a product is not affine.
  for (const std::string write : {"i, i + j", "i*j, 0"}) {
    const std::string ir = lower_with_cpu_schedules(*wcr_counter({"i", "j"}, 2, {"N*N", "2*N"}, write));
    EXPECT_TRUE(has_atomic(ir)) << "B[" << write << "] from a 2-D parallel map is a plain update";
  }
}

TEST(CodegenWcrConflict, InjectiveIndicesStayPlain) {
  EXPECT_FALSE(has_atomic(lower_with_cpu_schedules(*wcr_counter({"i", "j"}, 2, {"N", "N"}, "i, j"))))
      << "B[i, j] has one thread per element";
  EXPECT_FALSE(has_atomic(lower_with_cpu_schedules(*wcr_counter({"j"}, 1, {"N"}, "j"))))
      << "B[j] from a 1-D map over j has one thread per element";
  EXPECT_FALSE(has_atomic(lower_with_cpu_schedules(*wcr_counter({"i", "j"}, 2, {"2*N + 1", "N"}, "2*i + 1, j"))))
      << "B[2*i + 1, j] has one thread per element";
}

// B[i + j] += 1 over (i, j) in [0, 200)^2 on 2 threads: element k counts the pairs with
// i + j = k, min(k + 1, 399 - k) (never more than 200).
TEST(CodegenWcrConflict, DiagonalCountsMatchHandDerived) {
  const int64_t n = 200;
  std::unique_ptr<ir::SDFG> g = wcr_counter({"i", "j"}, 2, {"2*N"}, "i + j", 2);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int64_t> b(static_cast<size_t>(2 * n), 0);
  ASSERT_TRUE(run(*p, {{"B", ArgValue::pointer(b.data())}, {"N", ArgValue::scalar<int64_t>(n)}}).ok());
  for (int64_t k = 0; k < 2 * n; ++k)
    EXPECT_EQ(b[static_cast<size_t>(k)], std::max<int64_t>(0, std::min({k + 1, 2 * n - 1 - k, n}))) << "B[" << k << "]";
}

}  // namespace
}  // namespace dace::codegen::testing
