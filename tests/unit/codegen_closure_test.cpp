// Closures of outlined CPU_Multicore bodies (src/codegen/parallel_map.cpp): a captured value
// wider than one 8-byte slot (a complex128 symbol, as DaCe's auto_optimize leaves in NPBench's
// coninteg: `z = int_pts[idx]` on an interstate edge, read in a parallel map) takes
// consecutive slots, so the captures after it keep their own. Results against plain loops.
#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using c128 = std::complex<double>;

// R[i] = z * X[i] and S[i] = Y[i] * w in one parallel map, with z (complex128) and
// w (float64) symbols assigned from P on the edge into the map's state.
TEST(CodegenClosure, ComplexSymbolTakesTwoSlots) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "closure";
  add_array(*g, "P", T::Complex128, {"2"});
  for (const char* a : {"X", "Y", "R", "S"}) add_array(*g, a, T::Complex128, {"N"});
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["z"] = ir::DType::of(T::Complex128);
  g->symbols["w"] = ir::DType::of(T::Float64);
  int init = 0, body = 0;
  add_state(*g, *g, "init", &init);
  ir::State& s = add_state(*g, *g, "body", &body);
  add_interstate(*g, init, body, "1", {{"z", "P[0]"}, {"w", "2.5"}});
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
  int x = access(s, "X"), y = access(s, "Y");
  int t1 = tasklet(s, "o = z * a", {"a"}, {"o"});
  edge_in(s, x, entry, t1, "a", "X[0:N]", "X[i]");
  edge_out(s, t1, "o", exit, access(s, "R"), "R[i]", "R[0:N]");
  int t2 = tasklet(s, "o = b * w", {"b"}, {"o"});
  edge_in(s, y, entry, t2, "b", "Y[0:N]", "Y[i]");
  edge_out(s, t2, "o", exit, access(s, "S"), "S[i]", "S[0:N]");
  Result<CompiledProgram> p = compile(*g, LowerOptions{});
  ASSERT_TRUE(p.ok()) << p.error().message;
  constexpr int N = 37;
  std::vector<c128> pv = {c128(0.75, -1.5), c128(9, 9)}, xv(N), yv(N), r(N), sv(N);
  for (int i = 0; i < N; ++i) {
    xv[i] = c128(i * 0.5 - 3, 1.0 / (i + 1));
    yv[i] = c128(-i, i * 0.25);
  }
  ASSERT_TRUE(run(*p, {{"P", ArgValue::pointer(pv.data())},
                       {"X", ArgValue::pointer(xv.data())},
                       {"Y", ArgValue::pointer(yv.data())},
                       {"R", ArgValue::pointer(r.data())},
                       {"S", ArgValue::pointer(sv.data())},
                       {"N", ArgValue::scalar<int64_t>(N)}})
                  .ok());
  for (int i = 0; i < N; ++i) {
    EXPECT_LE(std::abs(r[i] - pv[0] * xv[i]), 1e-12) << i;
    EXPECT_LE(std::abs(sv[i] - yv[i] * 2.5), 1e-12) << i;
  }
}

}  // namespace
}  // namespace dace::codegen::testing
