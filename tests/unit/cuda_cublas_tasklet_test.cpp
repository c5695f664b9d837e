// DaCe's cuBLAS C++ tasklets (docs/cuda.md "cuBLAS tasklets"): the code DaCe 1.0.2's GPU
// expansions of Gemm, Gemv and Dot write into *.gpu.sdfg files, recognized by the CUDA plugin
// and lowered to its cuBLAS call. On the emulated device the call plan runs on the host, so
// each product is checked against plain C++ loops; anything the recognizer does not know
// exactly is refused naming the tasklet.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

const char* const kSetup =
    "const int __dace_cuda_device = -1;\n"
    "cublasHandle_t &__dace_cublas_handle = __state->cublas_handle.Get(__dace_cuda_device);\n"
    "cublasSetStream(__dace_cublas_handle, __dace_current_stream);\n";

struct Operand {
  std::string conn, data;
  std::vector<std::string> shape;
  ir::StorageType storage = ir::StorageType::GPU_Global;
};

// One state: the C++ tasklet `code` reading `ins` and writing `outs` (whole containers).
std::unique_ptr<ir::SDFG> cpp_tasklet_sdfg(const std::string& name, T type, const std::string& code,
                                           const std::vector<Operand>& ins, const std::vector<Operand>& outs) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  for (const char* s : {"M", "N", "K"}) g->symbols[s] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  std::vector<std::string> in_conns, out_conns;
  for (const Operand& o : ins) in_conns.push_back(o.conn);
  for (const Operand& o : outs) out_conns.push_back(o.conn);
  const int t = tasklet(s, code, in_conns, out_conns);
  auto& node = static_cast<ir::Tasklet&>(*s.node(t));
  node.code.language = ir::Language::CPP;
  node.label = "_MatMult_cublas";
  // DaCe types the connectors of its cuBLAS tasklets as pointers (they pass addresses).
  ir::DType pointer = ir::DType::of(type);
  pointer.pointer_depth = 1;
  for (auto* conns : {&node.in_connectors, &node.out_connectors})
    for (auto& [conn, dtype] : *conns) dtype = pointer;
  auto whole = [](const Operand& o) {
    std::string r = o.data + "[";
    for (size_t i = 0; i < o.shape.size(); ++i) r += (i ? ", 0:" : "0:") + o.shape[i];
    return r + "]";
  };
  for (const Operand& o : ins) {
    if (!g->arrays.count(o.data)) add_array(*g, o.data, type, o.shape);
    g->arrays.at(o.data).storage = o.storage;
    edge(s, access(s, o.data), "", t, o.conn, whole(o));
  }
  for (const Operand& o : outs) {
    if (!g->arrays.count(o.data)) add_array(*g, o.data, type, o.shape);
    g->arrays.at(o.data).storage = o.storage;
    edge(s, t, o.conn, access(s, o.data), "", whole(o));
  }
  return g;
}

template <typename V>
std::vector<V> ramp(size_t n, double scale) {
  std::vector<V> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<V>(std::cos(scale * static_cast<double>(i + 2)));
  return v;
}

Status run_with(const ir::SDFG& g, std::map<std::string, void*> arrays, int64_t m, int64_t n, int64_t k) {
  Result<CompiledProgram> p = compile_emulated(g);
  if (!p) return p.take_error();
  std::map<std::string, ArgValue> args = {{"M", ArgValue::scalar<int64_t>(m)},
                                          {"N", ArgValue::scalar<int64_t>(n)},
                                          {"K", ArgValue::scalar<int64_t>(k)}};
  for (auto& [name, ptr] : arrays) args.emplace(name, ArgValue::pointer(ptr));
  return run(*p, args);
}

Error lowering_error(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  if (m.ok()) return make_error(Code::Ok, "lowered");
  return m.error();
}

// gemm.gpu.sdfg's tasklet: row-major C (M x N) = A (M x K) @ B (K x N) as the column-major
// C^T = B^T A^T, with the runtime's device constants 1 and 0.
const std::string kGemm = std::string(kSetup) +
                          "cublasDgemm(__dace_cublas_handle,\n    CUBLAS_OP_N, CUBLAS_OP_N,\n    N, M, K,\n"
                          "    __state->cublas_handle.Constants(__dace_cuda_device).DoublePone(),\n"
                          "    (double*)_b, N,\n    (double*)_a, K,\n"
                          "    __state->cublas_handle.Constants(__dace_cuda_device).DoubleZero(),\n"
                          "    (double*)_c, N);";

TEST(CudaCublasTasklet, DaceGemmTaskletMatchesLoops) {
  REQUIRE_CUDA_PLUGIN();
  const int64_t m = 6, k = 5, n = 7;
  auto g = cpp_tasklet_sdfg("cublas_gemm", T::Float64, kGemm, {{"_a", "A", {"M", "K"}}, {"_b", "B", {"K", "N"}}},
                            {{"_c", "C", {"M", "N"}}});
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::vector<double> a = ramp<double>(m * k, 0.3), b = ramp<double>(k * n, 0.8), c(m * n, std::nan(""));
  Status st = run_with(*g, {{"A", a.data()}, {"B", b.data()}, {"C", c.data()}}, m, n, k);
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t l = 0; l < k; ++l) want += a[i * k + l] * b[l * n + j];
      EXPECT_NEAR(c[i * n + j], want, 1e-13) << i << "," << j;
    }
  checked_ptx(*g);  // no kernels: an empty module ptxas accepts
}

TEST(CudaCublasTasklet, TransposedGemmWithHostScalarsMatchesLoops) {
  REQUIRE_CUDA_PLUGIN();
  // Host pointer mode, declared alpha/beta (DaCe's form for other constants); A^T: A is K x M.
  // C = 2 A^T B - 0.5 C, with C updated in place.
  const std::string code = std::string(kSetup) +
                           "cublasSetPointerMode(__dace_cublas_handle, CUBLAS_POINTER_MODE_HOST);\n"
                           "float __alpha = float(2.0);\nfloat __beta = float(-0.5);\n"
                           "cublasSgemm(__dace_cublas_handle, CUBLAS_OP_N, CUBLAS_OP_T, N, M, K, (float *)&__alpha,\n"
                           "    (float*)_b, N, (float*)_a, M, (float *)&__beta, (float*)_c, N);\n"
                           "cublasSetPointerMode(__dace_cublas_handle, CUBLAS_POINTER_MODE_DEVICE);";
  const int64_t m = 4, k = 6, n = 3;
  auto g = cpp_tasklet_sdfg("cublas_sgemm", T::Float32, code, {{"_a", "A", {"K", "M"}}, {"_b", "B", {"K", "N"}}},
                            {{"_c", "C", {"M", "N"}}});
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::vector<float> a = ramp<float>(k * m, 0.45), b = ramp<float>(k * n, 0.6), c = ramp<float>(m * n, 1.7);
  std::vector<float> want(c.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l) s += static_cast<double>(a[l * m + i]) * b[l * n + j];
      want[i * n + j] = static_cast<float>(2.0 * s - 0.5 * c[i * n + j]);
    }
  Status st = run_with(*g, {{"A", a.data()}, {"B", b.data()}, {"C", c.data()}}, m, n, k);
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i], want[i], 1e-5) << i;
}

TEST(CudaCublasTasklet, DaceGemvTaskletsBothWaysMatchLoops) {
  REQUIRE_CUDA_PLUGIN();
  // atax.gpu.sdfg's two tasklets on a row-major A (M x N): y = A x (OP_T of the column-major
  // N x M view) and z = A^T y (OP_N), host pointer mode with declared alpha and beta.
  auto gemv = [](const char* op) {
    return std::string(kSetup) +
           "cublasSetPointerMode(__dace_cublas_handle, CUBLAS_POINTER_MODE_HOST);\n"
           "            double alpha = double(1);\n            double beta = double(0);\n"
           "cublasDgemv(__dace_cublas_handle, " + op + ", N, M, (double *)&alpha, _A, N,\n"
           "             _x, 1, (double *)&beta, _y, 1);\n"
           "cublasSetPointerMode(__dace_cublas_handle, CUBLAS_POINTER_MODE_DEVICE);\n";
  };
  const int64_t m = 7, n = 5;
  auto ax = cpp_tasklet_sdfg("cublas_gemv_t", T::Float64, gemv("CUBLAS_OP_T"),
                             {{"_A", "A", {"M", "N"}}, {"_x", "X", {"N"}}}, {{"_y", "Y", {"M"}}});
  auto aty = cpp_tasklet_sdfg("cublas_gemv_n", T::Float64, gemv("CUBLAS_OP_N"),
                              {{"_A", "A", {"M", "N"}}, {"_x", "X", {"M"}}}, {{"_y", "Y", {"N"}}});
  std::vector<double> a = ramp<double>(m * n, 0.27), x = ramp<double>(n, 1.3), y(m, std::nan(""));
  Status st = run_with(*ax, {{"A", a.data()}, {"X", x.data()}, {"Y", y.data()}}, m, n, 1);
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < m; ++i) {
    double want = 0;
    for (int64_t j = 0; j < n; ++j) want += a[i * n + j] * x[j];
    EXPECT_NEAR(y[i], want, 1e-13) << i;
  }
  std::vector<double> z(n, std::nan(""));
  st = run_with(*aty, {{"A", a.data()}, {"X", y.data()}, {"Y", z.data()}}, m, n, 1);
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t j = 0; j < n; ++j) {
    double want = 0;
    for (int64_t i = 0; i < m; ++i) want += a[i * n + j] * y[i];
    EXPECT_NEAR(z[j], want, 1e-13) << j;
  }
}

TEST(CudaCublasTasklet, DaceDotTaskletWithStrideMatchesLoop) {
  REQUIRE_CUDA_PLUGIN();
  const std::string code = std::string(kSetup) + "cublasDdot(__dace_cublas_handle, N, _x, 2, _y,\n    1, _result);";
  const int64_t n = 9;
  auto g = cpp_tasklet_sdfg("cublas_dot", T::Float64, code, {{"_x", "X", {"2 * N"}}, {"_y", "Y", {"N"}}},
                            {{"_result", "R", {"1"}}});
  std::vector<double> x = ramp<double>(2 * n, 0.9), y = ramp<double>(n, 0.35), r(1, std::nan(""));
  Status st = run_with(*g, {{"X", x.data()}, {"Y", y.data()}, {"R", r.data()}}, 1, n, 1);
  ASSERT_TRUE(st.ok()) << st.error().message;
  double want = 0;
  for (int64_t i = 0; i < n; ++i) want += x[2 * i] * y[i];
  EXPECT_NEAR(r[0], want, 1e-13);
}

void expect_refused(const ir::SDFG& g, const std::string& why) {
  Error e = lowering_error(g);
  ASSERT_NE(e.code, Code::Ok) << "lowered: " << why;
  EXPECT_EQ(e.code, Code::Unsupported) << e.message;
  EXPECT_NE(e.message.find("_MatMult_cublas"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(why), std::string::npos) << e.message;
}

TEST(CudaCublasTasklet, UnrecognizedCodeIsRefusedNamingTheTasklet) {
  REQUIRE_CUDA_PLUGIN();
  const std::vector<Operand> ins = {{"_a", "A", {"M", "K"}}, {"_b", "B", {"K", "N"}}};
  const std::vector<Operand> outs = {{"_c", "C", {"M", "N"}}};
  // A complex product (not lowered).
  std::string z = kGemm;
  z.replace(z.find("cublasDgemm"), 11, "cublasZgemm");
  expect_refused(*cpp_tasklet_sdfg("cublas_z", T::Float64, z, ins, outs), "cublasZgemm");
  // A statement DaCe's expansion does not write.
  std::string math = kGemm;
  math.insert(math.find("cublasDgemm"), "cublasSetMathMode(__dace_cublas_handle, CUBLAS_TF32_TENSOR_OP_MATH);\n");
  expect_refused(*cpp_tasklet_sdfg("cublas_math", T::Float64, math, ins, outs), "cublasSetMathMode");
  // Device constants read while the handle is in host pointer mode.
  std::string mode = kGemm;
  mode.insert(mode.find("cublasDgemm"), "cublasSetPointerMode(__dace_cublas_handle, CUBLAS_POINTER_MODE_HOST);\n");
  mode += "\ncublasSetPointerMode(__dace_cublas_handle, CUBLAS_POINTER_MODE_DEVICE);";
  expect_refused(*cpp_tasklet_sdfg("cublas_mode", T::Float64, mode, ins, outs), "host pointer mode");
  // An operand in host memory: cuBLAS would dereference a host pointer on the device.
  std::vector<Operand> host_b = ins;
  host_b[1].storage = ir::StorageType::CPU_Heap;
  expect_refused(*cpp_tasklet_sdfg("cublas_host", T::Float64, kGemm, host_b, outs), "not GPU_Global");
  // A float cast on a double product.
  std::string cast = kGemm;
  cast.replace(cast.find("(double*)_b"), 11, "(float*)_b");
  expect_refused(*cpp_tasklet_sdfg("cublas_cast", T::Float64, cast, ins, outs), "(float*)_b");
}

}  // namespace
}  // namespace dace::codegen::testing
