// A complex value passed to a kernel by value (plugins/cuda/lowering/kernel.cpp): a complex128
// symbol assigned on the host (from a host array, as NPBench's contour_integral after
// `--auto gpu`) scales GPU_Global arrays inside a GPU_Device map beside a float64 symbol. On
// the emulated device and on a GPU against std::complex loops; the PTX declares the value as
// one 16-byte parameter, and ptxas accepts it for sm_80 and sm_90.
#include <gtest/gtest.h>

#include <complex>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using c128 = std::complex<double>;

// R[i] = z * X[i] and S[i] = Y[i] * w in one GPU_Device map; z (complex128) and w (float64)
// symbols assigned from the host array P on the edge into the map's state.
std::unique_ptr<ir::SDFG> complex_symbol_kernel() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "complex_param";
  add_array(*g, "P", T::Complex128, {"2"});
  for (const char* a : {"X", "Y", "R", "S"}) {
    add_array(*g, a, T::Complex128, {"N"});
    g->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["z"] = ir::DType::of(T::Complex128);
  g->symbols["w"] = ir::DType::of(T::Float64);
  int init = 0, body = 0;
  add_state(*g, *g, "init", &init);
  ir::State& s = add_state(*g, *g, "body", &body);
  add_interstate(*g, init, body, "1", {{"z", "P[0]"}, {"w", "2.5"}});
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  int x = access(s, "X"), y = access(s, "Y");
  int t1 = tasklet(s, "o = z * a", {"a"}, {"o"});
  edge_in(s, x, entry, t1, "a", "X[0:N]", "X[i]");
  edge_out(s, t1, "o", exit, access(s, "R"), "R[i]", "R[0:N]");
  int t2 = tasklet(s, "o = b * w", {"b"}, {"o"});
  edge_in(s, y, entry, t2, "b", "Y[0:N]", "Y[i]");
  edge_out(s, t2, "o", exit, access(s, "S"), "S[i]", "S[0:N]");
  return g;
}

class CudaComplexParam : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaComplexParam);

TEST_P(CudaComplexParam, ComplexSymbolReachesTheKernelByValue) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = complex_symbol_kernel();
  Status valid = analysis::validate(*g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  constexpr int N = 300;  // two blocks, the second partly idle
  std::vector<c128> pv = {c128(0.75, -1.5), c128(9, 9)}, xv(N), yv(N), r(N), sv(N);
  for (int i = 0; i < N; ++i) {
    xv[i] = c128(i * 0.5 - 3, 1.0 / (i + 1));
    yv[i] = c128(-i, i * 0.25);
  }
  Status st = run(*p, {{"P", ArgValue::pointer(pv.data())},
                       {"X", ArgValue::pointer(xv.data())},
                       {"Y", ArgValue::pointer(yv.data())},
                       {"R", ArgValue::pointer(r.data())},
                       {"S", ArgValue::pointer(sv.data())},
                       {"N", ArgValue::scalar<int64_t>(N)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int i = 0; i < N; ++i) {
    EXPECT_LE(std::abs(r[i] - pv[0] * xv[i]), 1e-12) << i;
    EXPECT_LE(std::abs(sv[i] - yv[i] * 2.5), 1e-12) << i;
  }
  const std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find(".param .align 8 .b8"), std::string::npos) << "the complex value as one aggregate parameter";
}

// R[i] = c * X[i] + d with c, d complex128 host Scalars (passed by value, 16 bytes each, into
// slots beside the device pointers that follow them) and X, R GPU_Global arrays.
std::unique_ptr<ir::SDFG> complex_scalar_kernel() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "complex_scalar_param";
  add_scalar(*g, "c", T::Complex128);
  add_scalar(*g, "d", T::Complex128);
  for (const char* a : {"X", "R"}) {
    add_array(*g, a, T::Complex128, {"N"});
    g->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  g->symbols["N"] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  int t = tasklet(s, "o = cc * x + dd", {"cc", "x", "dd"}, {"o"});
  edge_in(s, access(s, "c"), entry, t, "cc", "c[0]", "c[0]");
  edge_in(s, access(s, "X"), entry, t, "x", "X[0:N]", "X[i]");
  edge_in(s, access(s, "d"), entry, t, "dd", "d[0]", "d[0]");
  edge_out(s, t, "o", exit, access(s, "R"), "R[i]", "R[0:N]");
  return g;
}

TEST_P(CudaComplexParam, ComplexHostScalarsReachTheKernelByValue) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = complex_scalar_kernel();
  Status valid = analysis::validate(*g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  constexpr int N = 100;
  c128 c(1.25, -0.5), d(-3, 7.5);
  std::vector<c128> xv(N), r(N);
  for (int i = 0; i < N; ++i) xv[i] = c128(i * 0.25 - 2, 3.0 / (i + 1));
  Status st = run(*p, {{"c", ArgValue::scalar<c128>(c)},
                       {"d", ArgValue::scalar<c128>(d)},
                       {"X", ArgValue::pointer(xv.data())},
                       {"R", ArgValue::pointer(r.data())},
                       {"N", ArgValue::scalar<int64_t>(N)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int i = 0; i < N; ++i) EXPECT_LE(std::abs(r[i] - (c * xv[i] + d)), 1e-12) << i;
  checked_ptx(*g);
}

}  // namespace
}  // namespace dace::codegen::testing
