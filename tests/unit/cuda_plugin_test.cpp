// The CUDA plugin (plugins/cuda, docs/cuda.md) on any machine: it loads without a driver,
// reports why there is no device, lowers GPU_Device maps over GPU_Global arrays to PTX that
// ptxas accepts (sm_80 and sm_90), and a program that needs the device fails with a status
// instead of crashing; with a driver and a GPU it names the device and runs the programs on
// it against loops. Skips, with the reason, when the plugin was not built (no CUDA toolkit)
// or ptxas is absent; the driver-less checks skip where a driver is installed, the device
// checks where there is no driver or no GPU.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

bool driver_installed() {
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  if (h) return true;
  h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  return h != nullptr;  // left open: the plugin opens it the same way
}

// B[i, j] = 2 * A[i, j] + exp(A[i, j]) * C over a GPU_Device map; A, B in GPU_Global, C a
// host scalar (passed by value to the kernel).
std::unique_ptr<ir::SDFG> device_map_sdfg(ir::StorageType a_storage = ir::StorageType::GPU_Global) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gpu_map";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "M"});
  add_array(*g, "B", T::Float64, {"N", "M"});
  add_scalar(*g, "C", T::Float64);
  g->arrays.at("A").storage = a_storage;
  g->arrays.at("B").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i", "j"}, "0:N, 0:M", ir::ScheduleType::GPU_Device);
  int t = tasklet(s, "b = 2 * a + exp(a) * c", {"a", "c"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N, 0:M]", "A[i, j]");
  edge_in(s, access(s, "C"), entry, t, "c", "C[0]", "C[0]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i, j]", "B[0:N, 0:M]");
  return g;
}

LowerOptions cuda_options(const std::string& device_dir = "") {
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  o.device_code_dir = device_dir;
  return o;
}

TEST(CudaPlugin, LoadsAndRegistersWithoutTouchingTheDriver) {
  REQUIRE_CUDA_PLUGIN();
  plugin::Registry& r = *cuda_registry();
  EXPECT_EQ(r.schedule_owner("GPU_Device"), "cuda");
  EXPECT_NE(r.find_storage("GPU_Global"), nullptr);
  for (const char* s : {"dace_cuda_init", "dace_cuda_launch", "dace_cuda_malloc", "dace_cuda_copy",
                        "dace_cuda_copy_2d", "dace_cuda_memset", "dace_cuda_status"})
    EXPECT_NE(r.find_runtime_symbol(s), nullptr) << s;
}

TEST(CudaPlugin, ReportsNoDriverAndFailsCleanly) {
  REQUIRE_CUDA_PLUGIN();
  if (driver_installed()) GTEST_SKIP() << "a CUDA driver is installed here; the driver-less path is not reachable";
  plugin::Registry& r = *cuda_registry();
  auto status = reinterpret_cast<const char* (*)()>(r.find_runtime_symbol("dace_cuda_status"));
  auto init = reinterpret_cast<int32_t (*)()>(r.find_runtime_symbol("dace_cuda_init"));
  auto malloc_fn = reinterpret_cast<void* (*)(int64_t)>(r.find_runtime_symbol("dace_cuda_malloc"));
  auto error = reinterpret_cast<const char* (*)()>(r.find_runtime_symbol("dace_cuda_error"));
  EXPECT_EQ(std::string(status()).rfind("no CUDA driver: ", 0), 0u) << status();
  EXPECT_NE(init(), 0);
  EXPECT_EQ(malloc_fn(64), nullptr);
  EXPECT_EQ(std::string(error()).rfind("no CUDA driver", 0), 0u) << error();

  // A whole GPU program compiles (to PTX and host code) and then refuses to run.
  std::unique_ptr<ir::SDFG> g = device_map_sdfg();
  for (const auto& s : r.runtime_symbols()) (void)session().define_runtime_symbol(s.name, s.address);
  Result<CompiledProgram> p = compile(*g, cuda_options());
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<double> a(6, 1.0), b(6, 0.0);
  double c = 1.0;
  Status run_status = run(*p, {{"A", ArgValue::pointer(a.data())},
                               {"B", ArgValue::pointer(b.data())},
                               {"C", ArgValue::scalar<double>(c)},
                               {"N", ArgValue::scalar<int64_t>(2)},
                               {"M", ArgValue::scalar<int64_t>(3)}});
  ASSERT_FALSE(run_status.ok());
  // Init's status record says why (not a bare "init failed"): the SDFG, then the runtime's text.
  EXPECT_EQ(run_status.error().code, Code::RuntimeError);
  EXPECT_NE(run_status.error().message.find("sdfg " + g->name + ": CUDA device: no CUDA driver"), std::string::npos)
      << run_status.error().message;
  EXPECT_EQ(b, std::vector<double>(6, 0.0));  // nothing ran, nothing was written
}

TEST(CudaPlugin, DeviceMapLowersToPtxThatPtxasAccepts) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = device_map_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::string dir = temp_dir("map");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, cuda_options(dir));
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::string host = module_text(*m->module);
  EXPECT_NE(host.find("call i32 @dace_cuda_launch"), std::string::npos);
  EXPECT_NE(host.find("call i32 @dace_cuda_init"), std::string::npos);
  EXPECT_NE(host.find("@dace_cuda_argument_in"), std::string::npos);  // A and B: used in place or mirrored
  std::string ptx_file = dir + "/gpu_map.ptx";
  std::string ptx = read_file(ptx_file);
  ASSERT_FALSE(ptx.empty()) << "no PTX written to " << ptx_file;
  EXPECT_NE(ptx.find(".visible .entry __dace_kernel_gpu_map"), std::string::npos) << ptx.substr(0, 400);
  EXPECT_NE(ptx.find("%ctaid.y"), std::string::npos);  // 2-D map: a 2-D grid
  // The PTX text is embedded in the host module for the launch.
  EXPECT_NE(host.find("__dace_cuda_ptx.gpu_map"), std::string::npos);
  if (ptxas().empty()) GTEST_SKIP() << "ptxas not found (set DACE_PTXAS); PTX not checked";
  EXPECT_EQ(ptxas_check(ptx_file, "sm_80"), "");
  EXPECT_EQ(ptxas_check(ptx_file, "sm_90"), "");
  std::filesystem::remove_all(dir);
}

TEST(CudaPlugin, HostArrayInsideKernelIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = device_map_sdfg(ir::StorageType::CPU_Heap);
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, cuda_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("\"A\" (storage CPU_Heap) lives in host memory"), std::string::npos)
      << m.error().message;
}

// T = A + 1 in one kernel, B = 2 * T in another; T is a transient in GPU_Global.
std::unique_ptr<ir::SDFG> two_kernels_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "two_kernels";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float32, {"N"});
  add_array(*g, "B", T::Float32, {"N"});
  add_array(*g, "T", T::Float32, {"N"}, true);
  for (const char* n : {"A", "B", "T"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [e1, x1] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  int t1 = tasklet(s, "t = a + 1", {"a"}, {"t"});
  edge_in(s, access(s, "A"), e1, t1, "a", "A[0:N]", "A[i]");
  int tmp = access(s, "T");
  edge_out(s, t1, "t", x1, tmp, "T[i]", "T[0:N]");
  auto [e2, x2] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  int t2 = tasklet(s, "b = 2 * t", {"t"}, {"b"});
  edge_in(s, tmp, e2, t2, "t", "T[0:N]", "T[i]");
  edge_out(s, t2, "b", x2, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

TEST(CudaPlugin, TransientGlobalArrayIsDeviceMemoryForTheCall) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = two_kernels_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::string dir = temp_dir("transient");
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, cuda_options(dir));
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::string host = module_text(*m->module);
  // A, B taken in (in place or mirrored), T allocated; all three released; two launches.
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t p = host.find(what); p != std::string::npos; p = host.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("call ptr @dace_cuda_argument_in"), 2u);
  EXPECT_EQ(count("call i32 @dace_cuda_argument_out"), 2u);
  EXPECT_EQ(count("call ptr @dace_cuda_malloc"), 1u);
  EXPECT_EQ(count("call i32 @dace_cuda_free"), 1u);
  EXPECT_EQ(count("call i32 @dace_cuda_launch"), 2u);
  EXPECT_NE(host.find("%T.device = call ptr @dace_cuda_malloc"), std::string::npos);  // T lives on the device
  std::string ptx_file = dir + "/two_kernels.ptx";
  std::string ptx = read_file(ptx_file);
  ASSERT_FALSE(ptx.empty());
  if (ptxas().empty()) GTEST_SKIP() << "ptxas not found (set DACE_PTXAS); PTX not checked";
  EXPECT_EQ(ptxas_check(ptx_file, "sm_90"), "");
  std::filesystem::remove_all(dir);
}

TEST(CudaPlugin, WithADeviceReportsItAndRunsKernelsOnIt) {
  REQUIRE_CUDA_PLUGIN();
  REQUIRE_CUDA_DEVICE();
  plugin::Registry& r = *cuda_registry();
  auto status = reinterpret_cast<const char* (*)()>(r.find_runtime_symbol("dace_cuda_status"));
  auto init = reinterpret_cast<int32_t (*)()>(r.find_runtime_symbol("dace_cuda_init"));
  auto error = reinterpret_cast<const char* (*)()>(r.find_runtime_symbol("dace_cuda_error"));
  const std::string s = status();
  EXPECT_NE(s.find(", sm_"), std::string::npos) << s;  // "<name>, sm_XY, driver X.Y"
  ASSERT_EQ(init(), 0) << error();

  // The 2-D map with exp and a host scalar, against loops (libdevice's exp: a few ulps).
  std::unique_ptr<ir::SDFG> g = device_map_sdfg();
  Result<CompiledProgram> p = compile_for_device(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 67, m = 45;  // neither a multiple of the 32 x 8 block
  std::vector<double> a(n * m), b(n * m, -1.0);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.003 * static_cast<double>(k) - 2.0;
  const double c = -1.25;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                       {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::scalar<double>(c)},
                       {"N", ArgValue::scalar<int64_t>(n)},
                       {"M", ArgValue::scalar<int64_t>(m)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t k = 0; k < a.size(); ++k) {
    const double want = 2 * a[k] + std::exp(a[k]) * c;
    EXPECT_NEAR(b[k], want, 1e-13 * std::max(1.0, std::abs(want))) << k;
  }

  // Two kernels through a transient in device memory.
  std::unique_ptr<ir::SDFG> g2 = two_kernels_sdfg();
  Result<CompiledProgram> p2 = compile_for_device(*g2);
  ASSERT_TRUE(p2.ok()) << p2.error().message;
  std::vector<float> x(1000), y(1000, -1.0f);
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k) * 0.25f;
  st = run(*p2, {{"A", ArgValue::pointer(x.data())}, {"B", ArgValue::pointer(y.data())},
                 {"N", ArgValue::scalar<int64_t>(1000)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t k = 0; k < x.size(); ++k) EXPECT_EQ(y[k], 2.0f * (x[k] + 1.0f)) << k;
}

TEST(CudaPlugin, DeviceMapWithoutPluginIsUnsupported) {
  std::unique_ptr<ir::SDFG> g = device_map_sdfg();
  llvm::LLVMContext ctx;
  LowerOptions o = parallel_test_options();
  plugin::Registry empty;
  o.registry = &empty;
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("GPU_Device"), std::string::npos) << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
