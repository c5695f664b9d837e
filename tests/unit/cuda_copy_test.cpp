// Copies between host memory and GPU_Global in host code (plugins/cuda/lowering/copy.cpp,
// docs/cuda.md): contiguous blocks, pitched rows (2-D), 3-D subsets as loops of 2-D copies,
// device-to-device, and what is refused. Without a GPU the generated host code runs against
// host-memory stand-ins of the runtime's entry points (a JIT session of this test only), so
// the offsets, pitches and row counts the lowering computes are checked by the data that
// arrives, against hand-written loops; where a driver and a GPU are present the same program
// also runs against the real runtime (cuMemcpy/cuMemcpy2D on device memory). Skips, with the
// reason, when the plugin was not built, and the GPU run where there is no driver or GPU.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdlib>
#include <cstring>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// Host-memory stand-ins of the runtime: "device" memory is host memory, and each copy is
// logged (kind, 2-D or not) so tests can tell how a copy was decomposed.
struct CopyCall {
  int32_t kind;
  bool pitched;
  int64_t width, height;
};
std::vector<CopyCall>& calls() {
  static std::vector<CopyCall> log;
  return log;
}
extern "C" void* fake_malloc(int64_t bytes) { return std::calloc(1, static_cast<size_t>(bytes > 0 ? bytes : 1)); }
extern "C" int32_t fake_free(void* p) {
  std::free(p);
  return 0;
}
extern "C" int32_t fake_copy(void* dst, const void* src, int64_t bytes, int32_t kind) {
  calls().push_back({kind, false, bytes, 1});
  std::memcpy(dst, src, static_cast<size_t>(bytes));
  return 0;
}
extern "C" int32_t fake_copy_2d(void* dst, int64_t dst_pitch, const void* src, int64_t src_pitch, int64_t width,
                                int64_t height, int32_t kind) {
  calls().push_back({kind, true, width, height});
  for (int64_t r = 0; r < height; ++r)
    std::memcpy(static_cast<char*>(dst) + r * dst_pitch, static_cast<const char*>(src) + r * src_pitch,
                static_cast<size_t>(width));
  return 0;
}
extern "C" int32_t fake_memset(void* dst, int32_t byte, int64_t bytes) {
  std::memset(dst, byte, static_cast<size_t>(bytes));
  return 0;
}
extern "C" int32_t fake_ok() { return 0; }
extern "C" const char* fake_error_at(const char*) { return "fake runtime failure"; }

jit::JitSession& fake_device_session() {
  static std::unique_ptr<jit::JitSession> s = [] {
    Result<std::unique_ptr<jit::JitSession>> r = jit::JitSession::create();
    EXPECT_TRUE(r.ok());
    const std::pair<const char*, void*> fakes[] = {
        {"dace_cuda_malloc", reinterpret_cast<void*>(&fake_malloc)},
        {"dace_cuda_free", reinterpret_cast<void*>(&fake_free)},
        {"dace_cuda_copy", reinterpret_cast<void*>(&fake_copy)},
        {"dace_cuda_copy_2d", reinterpret_cast<void*>(&fake_copy_2d)},
        {"dace_cuda_memset", reinterpret_cast<void*>(&fake_memset)},
        {"dace_cuda_init", reinterpret_cast<void*>(&fake_ok)},
        {"dace_cuda_synchronize", reinterpret_cast<void*>(&fake_ok)},
        {"dace_cuda_error_at", reinterpret_cast<void*>(&fake_error_at)},
    };
    for (const auto& [name, address] : fakes) EXPECT_TRUE((*r)->define_runtime_symbol(name, address).ok()) << name;
    return std::move(*r);
  }();
  return *s;
}

// Lowers with the CUDA plugin and JIT-compiles against the stand-ins.
Result<std::unique_ptr<jit::Program>> compile_with_fake_device(const ir::SDFG& g) {
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  auto ctx = std::make_unique<llvm::LLVMContext>();
  Result<LoweredModule> lowered = lower(g, *ctx, o);
  if (!lowered) return lowered.take_error();
  Result<std::unique_ptr<jit::JitModule>> m = fake_device_session().compile(std::move(lowered->module), std::move(ctx));
  if (!m) return m.take_error();
  return jit::Program::create(std::move(*m), {lowered->init_function, lowered->program_function, lowered->exit_function},
                              lowered->arguments, lowered->init_arguments);
}

// Host arrays A[6, 8] and A3[3, 4, 5] (inputs), B[6, 8], C[6], D[3, 2, 2], E[2, 4, 3]
// (outputs), and device transients G[5, 10], Gc[6], G3[3, 4, 5], G4[2, 4, 3]:
//   s1: A[1:4, 2:7] -> G[0:3, 3:8]          host -> device, rows at two different pitches
//   s2: G[0:3, 3:8] -> B[2:5, 0:5]          device -> host, pitched
//   s3: A[0:6, 7] -> Gc                     a column: rows of one element
//   s4: Gc -> C                             contiguous
//   s5: A3 -> G3                            whole array, one block
//   s6: G3[0:3, 1:3, 0:2] -> D              3-D: a loop of 2-D copies
//   s7: G3[1:3, 0:4, 2:5] -> G4             device -> device, 3-D
//   s8: G4 -> E                             contiguous
std::unique_ptr<ir::SDFG> copies_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "gpu_copies";
  add_array(*g, "A", T::Float64, {"6", "8"});
  add_array(*g, "A3", T::Float64, {"3", "4", "5"});
  add_array(*g, "B", T::Float64, {"6", "8"});
  add_array(*g, "C", T::Float64, {"6"});
  add_array(*g, "D", T::Float64, {"3", "2", "2"});
  add_array(*g, "E", T::Float64, {"2", "4", "3"});
  add_array(*g, "G", T::Float64, {"5", "10"}, true);
  add_array(*g, "Gc", T::Float64, {"6"}, true);
  add_array(*g, "G3", T::Float64, {"3", "4", "5"}, true);
  add_array(*g, "G4", T::Float64, {"2", "4", "3"}, true);
  for (const char* n : {"G", "Gc", "G3", "G4"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  const std::vector<std::tuple<const char*, const char*, const char*>> steps = {
      {"A", "G", "A[1:4, 2:7] -> [0:3, 3:8]"}, {"G", "B", "G[0:3, 3:8] -> [2:5, 0:5]"},
      {"A", "Gc", "A[0:6, 7] -> [0:6]"},      {"Gc", "C", "Gc[0:6]"},
      {"A3", "G3", "A3[0:3, 0:4, 0:5]"},      {"G3", "D", "G3[0:3, 1:3, 0:2] -> [0:3, 0:2, 0:2]"},
      {"G3", "G4", "G3[1:3, 0:4, 2:5] -> [0:2, 0:4, 0:3]"}, {"G4", "E", "G4[0:2, 0:4, 0:3]"},
  };
  int prev = -1;
  for (size_t i = 0; i < steps.size(); ++i) {
    int slot = 0;
    ir::State& s = add_state(*g, *g, "s" + std::to_string(i + 1), &slot);
    auto [from, to, memlet] = steps[i];
    edge(s, access(s, from), "", access(s, to), "", memlet);
    if (prev >= 0) add_interstate(*g, prev, slot);
    prev = slot;
  }
  return g;
}

// The inputs of copies_sdfg and what its outputs must hold, from hand-written loops.
struct CopiesCase {
  std::vector<double> a = std::vector<double>(48), a3 = std::vector<double>(60), b = std::vector<double>(48, -1.0),
                      c = std::vector<double>(6, -1.0), d = std::vector<double>(12, -1.0),
                      e = std::vector<double>(24, -1.0);
  CopiesCase() {
    for (size_t i = 0; i < a.size(); ++i) a[i] = 1.0 + static_cast<double>(i);
    for (size_t i = 0; i < a3.size(); ++i) a3[i] = 100.0 + static_cast<double>(i);
  }
  std::map<std::string, ArgValue> values() {
    return {{"A", ArgValue::pointer(a.data())}, {"A3", ArgValue::pointer(a3.data())},
            {"B", ArgValue::pointer(b.data())}, {"C", ArgValue::pointer(c.data())},
            {"D", ArgValue::pointer(d.data())}, {"E", ArgValue::pointer(e.data())}};
  }
  void expect_copied() const {
    std::vector<double> want_b(48, -1.0), want_c(6), want_d(12), want_e(24);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) want_b[(2 + i) * 8 + j] = a[(1 + i) * 8 + 2 + j];
    for (int i = 0; i < 6; ++i) want_c[i] = a[i * 8 + 7];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) want_d[(i * 2 + j) * 2 + k] = a3[(i * 4 + 1 + j) * 5 + k];
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 3; ++k) want_e[(i * 4 + j) * 3 + k] = a3[((1 + i) * 4 + j) * 5 + 2 + k];
    EXPECT_EQ(b, want_b);
    EXPECT_EQ(c, want_c);
    EXPECT_EQ(d, want_d);
    EXPECT_EQ(e, want_e);
  }
};

TEST(CudaCopy, HostDeviceCopiesMoveTheSubsetsTheMemletsName) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = copies_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<std::unique_ptr<jit::Program>> p = compile_with_fake_device(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  CopiesCase data;
  calls().clear();
  std::map<std::string, ArgValue> values = data.values();
  std::vector<ArgValue> ordered;
  for (const auto& arg : (*p)->arguments()) ordered.push_back(values.at(arg.name));
  ASSERT_TRUE((*p)->call(ordered).ok());
  ASSERT_TRUE((*p)->reset().ok());
  data.expect_copied();

  // How each copy was decomposed: s1, s2 one 2-D copy of 3 rows of 40 bytes; s3 six rows of
  // 8 bytes; s4, s5 one block; s6 three 2-D copies (one per outer index) of 2 rows of 16
  // bytes; s7 one 2-D copy of 8 rows of 24 bytes (its outer dimension steps by whole
  // row blocks on both sides: 20 = 4 * 5 and 12 = 4 * 3 elements); s8 one block.
  const int h2d = 1, d2h = 2, d2d = 3;  // DACE_CUDA_HOST_TO_DEVICE ... (runtime/dace_cuda_runtime.h)
  std::vector<std::tuple<int32_t, bool, int64_t, int64_t>> got;
  for (const CopyCall& k : calls()) got.emplace_back(k.kind, k.pitched, k.width, k.height);
  std::vector<std::tuple<int32_t, bool, int64_t, int64_t>> want = {
      {h2d, true, 40, 3}, {d2h, true, 40, 3}, {h2d, true, 8, 6},   {d2h, false, 48, 1},
      {h2d, false, 480, 1}, {d2h, true, 16, 2}, {d2h, true, 16, 2}, {d2h, true, 16, 2},
      {d2d, true, 24, 8}, {d2h, false, 192, 1}};
  EXPECT_EQ(got, want);
}

TEST(CudaCopy, OnTheDeviceTheSameCopiesMoveTheSameData) {
  REQUIRE_CUDA_PLUGIN();
  REQUIRE_CUDA_DEVICE();
  std::unique_ptr<ir::SDFG> g = copies_sdfg();
  Result<CompiledProgram> p = compile_for_device(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  CopiesCase data;
  Status st = run(*p, data.values());
  ASSERT_TRUE(st.ok()) << st.error().message;
  data.expect_copied();
}

// A[0:4] (host) -> G (GPU_Global) -> B (host), the second copy as given by `wcr` / `b_type`.
std::unique_ptr<ir::SDFG> round_trip_sdfg(const std::string& wcr, T b_type) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "round_trip";
  add_array(*g, "A", T::Float64, {"4"});
  add_array(*g, "B", b_type, {"4"});
  add_array(*g, "G", T::Float64, {"4"}, true);
  g->arrays.at("G").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  int gn = access(s, "G");
  edge(s, access(s, "A"), "", gn, "", "A[0:4]");
  edge(s, gn, "", access(s, "B"), "", "G[0:4]", wcr);
  return g;
}

TEST(CudaCopy, CopiesBetweenMemoriesThatWouldComputeAreRefused) {
  REQUIRE_CUDA_PLUGIN();
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  {
    // The copy runs as a DMA transfer: accumulating into B cannot be expressed.
    std::unique_ptr<ir::SDFG> g = round_trip_sdfg("lambda a, b: a + b", T::Float64);
    llvm::LLVMContext ctx;
    Result<LoweredModule> m = lower(*g, ctx, o);
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error().code, Code::Unsupported);
    EXPECT_NE(m.error().message.find("(\"G\" -> \"B\") cannot resolve write conflicts"), std::string::npos)
        << m.error().message;
  }
  {
    // Nor can converting float64 to float32 on the way.
    std::unique_ptr<ir::SDFG> g = round_trip_sdfg("", T::Float32);
    llvm::LLVMContext ctx;
    Result<LoweredModule> m = lower(*g, ctx, o);
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.error().code, Code::Unsupported);
    EXPECT_NE(m.error().message.find("converts float64 (\"G\") to float32 (\"B\")"), std::string::npos)
        << m.error().message;
  }
  {
    // The same copy without either is lowered (the refusals above are about them alone).
    std::unique_ptr<ir::SDFG> g = round_trip_sdfg("", T::Float64);
    llvm::LLVMContext ctx;
    Result<LoweredModule> m = lower(*g, ctx, o);
    ASSERT_TRUE(m.ok()) << m.error().message;
  }
}

TEST(CudaCopy, WithoutThePluginHostDeviceCopiesAreUnsupported) {
  std::unique_ptr<ir::SDFG> g = round_trip_sdfg("", T::Float64);
  g->arrays.at("G").transient = true;
  LowerOptions o = parallel_test_options();
  plugin::Registry empty;
  o.registry = &empty;
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("GPU_Global"), std::string::npos) << m.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
