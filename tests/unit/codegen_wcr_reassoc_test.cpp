// A WCR sum of float32/float64 values may reassociate (codegen/wcr.cpp): its non-atomic update
// carries `reassoc`, so a sequential map summing into one scalar becomes a vector reduction
// at O3 (it was a scalar chain, one addition per FP-add latency). Other WCR operators keep
// their order. The sum is checked against a C++ loop (to a relative 1e-12: the order of the
// additions is allowed to change).
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// out[0] = (wcr over j of) x[j] * y[j], as a sequential map writing into a scalar s with the
// WCR lambda `wcr`, s set to `init` first.
std::unique_ptr<ir::SDFG> dot(const std::string& wcr, const std::string& init) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "wcr_dot";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "x", T::Float64, {"N"});
  add_array(*g, "y", T::Float64, {"N"});
  add_array(*g, "out", T::Float64, {"1"});
  add_scalar(*g, "s", T::Float64, true);
  ir::State& st = add_state(*g, *g, "s0");
  const int zero = tasklet(st, "o = " + init, {}, {"o"});
  const int s0 = access(st, "s");
  edge(st, zero, "o", s0, "", "s[0]");
  auto [entry, exit] = map(st, {"j"}, "0:N", ir::ScheduleType::Sequential);
  edge(st, s0, "", entry, "", "");
  const int t = tasklet(st, "o = a * b", {"a", "b"}, {"o"});
  edge_in(st, access(st, "x"), entry, t, "a", "x[0:N]", "x[j]");
  edge_in(st, access(st, "y"), entry, t, "b", "y[0:N]", "y[j]");
  const int s1 = access(st, "s");
  edge_out(st, t, "o", exit, s1, "s[0]", "s[0]", wcr);
  const int copy = tasklet(st, "o = v", {"v"}, {"o"});
  edge(st, s1, "", copy, "v", "s[0]");
  edge(st, copy, "o", access(st, "out"), "", "out[0]");
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

// The optimized IR of `g` (O3, host CPU).
std::string optimized_ir(const ir::SDFG& g) {
  auto ctx = std::make_unique<llvm::LLVMContext>();
  Result<LoweredModule> m = lower(g, *ctx, parallel_test_options());
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return "";
  jit::CompileOptions o;
  o.keep_ir = true;
  auto jm = session().compile(std::move(m->module), std::move(ctx), o);
  EXPECT_TRUE(jm.ok()) << jm.error().message;
  return jm.ok() ? (*jm)->optimized_ir() : "";
}

TEST(CodegenWcrReassoc, SumIntoAScalarVectorizes) {
  auto g = dot("lambda a, b: a + b", "0");
  EXPECT_NE(lower_with_cpu_schedules(*g).find("fadd reassoc double"), std::string::npos);
  const std::string ir = optimized_ir(*g);
  EXPECT_NE(ir.find("x double>"), std::string::npos) << "the sum stayed scalar:\n" << ir;

  const int64_t n = 1001;
  std::vector<double> x(n), y(n), out(1, -1.0);
  double want = 0;
  for (int64_t j = 0; j < n; ++j) {
    x[j] = std::sin(0.37 * static_cast<double>(j));
    y[j] = 1.0 / static_cast<double>(j + 3);
    want += x[j] * y[j];
  }
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"x", ArgValue::pointer(x.data())},
                       {"y", ArgValue::pointer(y.data())},
                       {"out", ArgValue::pointer(out.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}})
                  .ok());
  EXPECT_NEAR(out[0], want, 1e-12 * std::abs(want));
}

// A product keeps its order: no `reassoc`, no vector reduction.
TEST(CodegenWcrReassoc, ProductKeepsItsOrder) {
  auto g = dot("lambda a, b: a * b", "1");
  EXPECT_EQ(lower_with_cpu_schedules(*g).find("reassoc"), std::string::npos);
  EXPECT_EQ(optimized_ir(*g).find("x double>"), std::string::npos);
}

}  // namespace
}  // namespace dace::codegen::testing
