// GPU_Global array arguments (docs/cuda.md "Arguments"): a pointer to device memory (what a
// __cuda_array_interface__ object or DaCe's convention passes) is used in place, with no
// copy; host memory is mirrored on the device for the call. On the emulated device, device
// memory is what its malloc handed out, and the runtime counts the arguments it copied; on
// a GPU (where a driver lists one) the arguments are cuMemAlloc blocks. Results against
// C++ loops.
#include <gtest/gtest.h>

#include "analysis/validate.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// B[i] = 3 * A[i] + i over a GPU_Device map; A and B GPU_Global arguments.
std::unique_ptr<ir::SDFG> scale_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gpu_arguments";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  for (const char* c : {"A", "B"}) g->arrays.at(c).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::GPU_Device);
  int t = tasklet(s, "b = 3 * a + i", {"a"}, {"b"});
  edge_in(s, access(s, "A"), entry, t, "a", "A[0:N]", "A[i]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

template <class F>
F runtime(const char* name) {
  return reinterpret_cast<F>(cuda_registry()->find_runtime_symbol(name));
}

std::vector<double> expected(const std::vector<double>& a) {
  std::vector<double> b(a.size());
  for (size_t i = 0; i < a.size(); ++i) b[i] = 3 * a[i] + static_cast<double>(i);
  return b;
}

TEST(CudaArguments, EmulatedDeviceMemoryIsUsedInPlaceAndHostMemoryCopied) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = scale_sdfg();
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile_emulated(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto malloc_fn = runtime<void* (*)(int64_t)>("dace_cuda_emu_malloc");
  auto free_fn = runtime<int32_t (*)(void*)>("dace_cuda_emu_free");
  auto copied = runtime<int64_t (*)()>("dace_cuda_emu_arguments_copied");
  ASSERT_TRUE(malloc_fn && free_fn && copied);
  const int64_t n = 300;
  std::vector<double> a(n);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i % 17);

  // Device memory (the emulated device's own blocks): no argument is copied.
  auto* da = static_cast<double*>(malloc_fn(n * 8));
  auto* db = static_cast<double*>(malloc_fn(n * 8));
  ASSERT_TRUE(da && db);
  std::copy(a.begin(), a.end(), da);
  std::fill(db, db + n, -1.0);
  const int64_t before = copied();
  Status st = run(*p, {{"A", ArgValue::pointer(da)}, {"B", ArgValue::pointer(db)}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(copied(), before) << "an argument in device memory was copied";
  EXPECT_EQ(std::vector<double>(db, db + n), expected(a));

  // Host memory: both arguments are mirrored (and B comes back).
  std::vector<double> hb(n, -1.0);
  st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(hb.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(copied(), before + 2);
  EXPECT_EQ(hb, expected(a));
  free_fn(da);
  free_fn(db);
}

TEST(CudaArguments, OnTheGpuDevicePointersAreUsedInPlace) {
  REQUIRE_CUDA_PLUGIN();
  REQUIRE_CUDA_DEVICE();
  std::unique_ptr<ir::SDFG> g = scale_sdfg();
  Result<CompiledProgram> p = compile_for_device(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  auto malloc_fn = runtime<void* (*)(int64_t)>("dace_cuda_malloc");
  auto free_fn = runtime<int32_t (*)(void*)>("dace_cuda_free");
  auto copy = runtime<int32_t (*)(void*, const void*, int64_t, int32_t)>("dace_cuda_copy");
  auto error = runtime<const char* (*)()>("dace_cuda_error");
  const int64_t n = 1000;
  std::vector<double> a(n), b(n, -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.25 * static_cast<double>(i % 29);
  void* da = malloc_fn(n * 8);
  void* db = malloc_fn(n * 8);
  ASSERT_TRUE(da && db) << error();
  ASSERT_EQ(copy(da, a.data(), n * 8, 1), 0) << error();
  Status st = run(*p, {{"A", ArgValue::pointer(da)}, {"B", ArgValue::pointer(db)}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_EQ(copy(b.data(), db, n * 8, 2), 0) << error();
  EXPECT_EQ(b, expected(a));
  free_fn(da);
  free_fn(db);
}

}  // namespace
}  // namespace dace::codegen::testing
