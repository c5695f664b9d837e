// Matrix products on GPU_Global data in host code (docs/cuda.md "Matrix products"): one
// cuBLAS gemm call through the plugin's runtime. On the emulated device the same call plan
// (runtime/gemm_plan.h: strides onto column-major operands, C^T = B^T A^T for row-major C)
// runs on the host, so these tests check the plan against plain C++ loops; the program
// lowered for the device calls dace_cuda_gemm, and libcublas is opened at run time only.
// Where a driver and a GPU are present the same programs also run on the GPU (the `device`
// instances, and DeviceProgramCallsTheRuntimesGemm), by cuBLAS, against the same loops.
#include <gtest/gtest.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <cmath>
#include <complex>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

struct Product {
  std::string cls = "dace.libraries.blas.nodes.matmul.MatMul";
  std::string a = "_a", b = "_b", c = "_c";
  std::map<std::string, std::string> properties;
};

// C = A @ B with A, B, C in GPU_Global memory; shapes as given ("M, K" ...).
std::unique_ptr<ir::SDFG> device_product(const std::string& name, T type, const Product& p,
                                         const std::vector<std::string>& a_shape, const std::vector<std::string>& b_shape,
                                         const std::vector<std::string>& c_shape) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  for (const char* s : {"M", "N", "K"}) g->symbols[s] = ir::DType::of(T::Int64);
  add_array(*g, "A", type, a_shape);
  add_array(*g, "B", type, b_shape);
  add_array(*g, "C", type, c_shape);
  for (const char* s : {"A", "B", "C"}) g->arrays.at(s).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "product";
  n->classpath = p.cls;
  for (const auto& [key, text] : p.properties) n->properties[key] = text;
  n->in_connectors[p.a] = ir::DType{};
  n->in_connectors[p.b] = ir::DType{};
  n->out_connectors[p.c] = ir::DType{};
  const int id = s.add_node(std::move(n));
  auto whole = [](const std::string& data, const std::vector<std::string>& shape) {
    std::string r = data + "[";
    for (size_t i = 0; i < shape.size(); ++i) r += (i ? ", 0:" : "0:") + shape[i];
    return r + "]";
  };
  edge(s, access(s, "A"), "", id, p.a, whole("A", a_shape));
  edge(s, access(s, "B"), "", id, p.b, whole("B", b_shape));
  edge(s, id, p.c, access(s, "C"), "", whole("C", c_shape));
  return g;
}

template <typename V>
Status run_product(const ir::SDFG& g, std::vector<V>& a, std::vector<V>& b, std::vector<V>& c, int64_t m, int64_t n,
                   int64_t k, Where where = Where::Emulated) {
  Result<CompiledProgram> p = compile_on(g, where);
  if (!p) return p.take_error();
  return run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                  {"C", ArgValue::pointer(c.data())}, {"M", ArgValue::scalar<int64_t>(m)},
                  {"N", ArgValue::scalar<int64_t>(n)}, {"K", ArgValue::scalar<int64_t>(k)}});
}

// What libcublas the runtime found ("cuBLAS X.Y.Z (library)"), or why none ("no cuBLAS: ...").
std::string blas_status() {
  auto status = reinterpret_cast<const char* (*)()>(cuda_registry()->find_runtime_symbol("dace_cuda_blas_status"));
  return status ? status() : "no cuBLAS: the plugin has no dace_cuda_blas_status";
}

// On the GPU a product needs libcublas beside the driver: a missing library skips, named.
#define REQUIRE_CUBLAS_ON_DEVICE(where)                                                                  \
  do {                                                                                                   \
    if ((where) == Where::Device && blas_status().rfind("no cuBLAS", 0) == 0)                            \
      GTEST_SKIP() << "a GPU is present but libcublas is not: " << blas_status();                        \
  } while (0)

// The products that run: on the emulated device, and on the GPU where there is one.
class CudaBlasRuns : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaBlasRuns);

template <typename V>
std::vector<V> ramp(size_t n, double scale) {
  std::vector<V> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<V>(std::sin(scale * static_cast<double>(i + 1)));
  return v;
}

TEST_P(CudaBlasRuns, MatMulOfRowMajorMatricesMatchesLoops) {
  REQUIRE_CUDA_TARGET();
  REQUIRE_CUBLAS_ON_DEVICE(GetParam());
  const int64_t m = 5, k = 7, n = 3;
  std::unique_ptr<ir::SDFG> g = device_product("cuda_matmul", T::Float64, Product{}, {"M", "K"}, {"K", "N"}, {"M", "N"});
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::vector<double> a = ramp<double>(m * k, 0.3), b = ramp<double>(k * n, 0.7), c(m * n, std::nan(""));
  Status st = run_product(*g, a, b, c, m, n, k, GetParam());  // beta 0: C's NaNs are never read
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double want = 0;
      for (int64_t l = 0; l < k; ++l) want += a[i * k + l] * b[l * n + j];
      EXPECT_NEAR(c[i * n + j], want, 1e-13) << i << "," << j;
    }
  checked_ptx(*g);  // a program without kernels: an empty module ptxas accepts
}

TEST_P(CudaBlasRuns, GemmWithTransposedAAlphaAndBetaMatchesLoops) {
  REQUIRE_CUDA_TARGET();
  REQUIRE_CUBLAS_ON_DEVICE(GetParam());
  // C = 2 * A^T @ B + 0.5 * C with A stored K x M.
  Product p;
  p.cls = "dace.libraries.blas.nodes.gemm.Gemm";
  p.properties = {{"transA", "true"}, {"alpha", "2.0"}, {"beta", "0.5"}};
  const int64_t m = 4, k = 6, n = 5;
  std::unique_ptr<ir::SDFG> g = device_product("cuda_gemm_t", T::Float32, p, {"K", "M"}, {"K", "N"}, {"M", "N"});
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::vector<float> a = ramp<float>(k * m, 0.4), b = ramp<float>(k * n, 0.9), c = ramp<float>(m * n, 1.3);
  std::vector<float> want(c.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l) s += static_cast<double>(a[l * m + i]) * b[l * n + j];
      want[i * n + j] = static_cast<float>(2.0 * s + 0.5 * c[i * n + j]);
    }
  Status st = run_product(*g, a, b, c, m, n, k, GetParam());
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i], want[i], 1e-5) << i;
}

// Complex products (cublasZgemm / cublasCgemm on a GPU; the same plan with std::complex in
// emulation): C = A @ B in complex128, and C = 2 * A^T @ B + 0.5 * C in complex64, against
// std::complex loops.
TEST_P(CudaBlasRuns, ComplexProductsMatchLoops) {
  REQUIRE_CUDA_TARGET();
  REQUIRE_CUBLAS_ON_DEVICE(GetParam());
  using Z = std::complex<double>;
  using Cf = std::complex<float>;
  const int64_t m = 4, k = 6, n = 3;
  auto complex_ramp = [](size_t count, double scale) {
    std::vector<Z> v(count);
    for (size_t i = 0; i < count; ++i)
      v[i] = Z(std::sin(scale * static_cast<double>(i + 1)), std::cos(0.7 * scale * static_cast<double>(i)));
    return v;
  };
  {
    std::unique_ptr<ir::SDFG> g = device_product("cuda_zmatmul", T::Complex128, Product{}, {"M", "K"}, {"K", "N"}, {"M", "N"});
    ASSERT_TRUE(analysis::validate(*g).ok());
    std::vector<Z> a = complex_ramp(m * k, 0.3), b = complex_ramp(k * n, 0.8), c(m * n, Z(std::nan(""), 0));
    Status st = run_product(*g, a, b, c, m, n, k, GetParam());
    ASSERT_TRUE(st.ok()) << st.error().message;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Z want = 0;
        for (int64_t l = 0; l < k; ++l) want += a[i * k + l] * b[l * n + j];
        EXPECT_NEAR(std::abs(c[i * n + j] - want), 0.0, 1e-13) << i << "," << j;
      }
    checked_ptx(*g);
  }
  {
    Product p;
    p.cls = "dace.libraries.blas.nodes.gemm.Gemm";
    p.properties = {{"transA", "true"}, {"alpha", "2.0"}, {"beta", "0.5"}};
    std::unique_ptr<ir::SDFG> g = device_product("cuda_cgemm_t", T::Complex64, p, {"K", "M"}, {"K", "N"}, {"M", "N"});
    ASSERT_TRUE(analysis::validate(*g).ok());
    std::vector<Z> a64 = complex_ramp(k * m, 0.4), b64 = complex_ramp(k * n, 0.9), c64 = complex_ramp(m * n, 1.3);
    std::vector<Cf> a(a64.begin(), a64.end()), b(b64.begin(), b64.end()), c(c64.begin(), c64.end()), want(c.size());
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        Z s = 0;
        for (int64_t l = 0; l < k; ++l) s += Z(a[l * m + i]) * Z(b[l * n + j]);
        want[i * n + j] = Cf(2.0 * s + 0.5 * Z(c[i * n + j]));
      }
    Status st = run_product(*g, a, b, c, m, n, k, GetParam());
    ASSERT_TRUE(st.ok()) << st.error().message;
    for (size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(std::abs(c[i] - want[i]), 0.0, 1e-5) << i;
  }
}

TEST_P(CudaBlasRuns, MatrixVectorProductsBothWaysMatchLoops) {
  REQUIRE_CUDA_TARGET();
  REQUIRE_CUBLAS_ON_DEVICE(GetParam());
  const int64_t m = 9, k = 4;
  // y = A @ x (A: M x K) and z = x @ A (x: M, A: M x K), as atax has them.
  std::unique_ptr<ir::SDFG> gv = device_product("cuda_gemv", T::Float64, Product{}, {"M", "K"}, {"K"}, {"M"});
  std::unique_ptr<ir::SDFG> vg = device_product("cuda_vecmat", T::Float64, Product{}, {"M"}, {"M", "K"}, {"K"});
  ASSERT_TRUE(analysis::validate(*gv).ok());
  ASSERT_TRUE(analysis::validate(*vg).ok());
  std::vector<double> a = ramp<double>(m * k, 0.21), x = ramp<double>(k, 1.1), y(m, -1.0);
  Status st = run_product(*gv, a, x, y, m, 1, k, GetParam());
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < m; ++i) {
    double want = 0;
    for (int64_t l = 0; l < k; ++l) want += a[i * k + l] * x[l];
    EXPECT_NEAR(y[i], want, 1e-13) << i;
  }
  std::vector<double> v = ramp<double>(m, 0.57), a2 = ramp<double>(m * k, 0.33), z(k, -1.0);
  st = run_product(*vg, v, a2, z, m, 1, k, GetParam());
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t j = 0; j < k; ++j) {
    double want = 0;
    for (int64_t i = 0; i < m; ++i) want += v[i] * a2[i * k + j];
    EXPECT_NEAR(z[j], want, 1e-13) << j;
  }
}

TEST(CudaBlas, DeviceProgramCallsTheRuntimesGemm) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = device_product("cuda_matmul_dev", T::Float64, Product{}, {"M", "K"}, {"K", "N"}, {"M", "N"});
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::string host;
  llvm::raw_string_ostream os(host);
  m->module->print(os, nullptr);
  EXPECT_NE(host.find("call i32 @dace_cuda_gemm"), std::string::npos);
  EXPECT_NE(host.find("call i32 @dace_cuda_init"), std::string::npos) << "init does not check for a device";
  // libcublas is opened by the runtime at the first product, never at load time: report it.
  const std::string s = blas_status();
  EXPECT_TRUE(s.rfind("cuBLAS ", 0) == 0 || s.rfind("no cuBLAS: ", 0) == 0) << s;

  // On a GPU the program runs: the product by cuBLAS on device memory, against loops.
  REQUIRE_CUDA_DEVICE();
  REQUIRE_CUBLAS_ON_DEVICE(Where::Device);
  Result<CompiledProgram> p = compile_for_device(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t rows = 33, inner = 70, cols = 17;  // not multiples of any tile
  std::vector<double> a = ramp<double>(rows * inner, 0.3), b = ramp<double>(inner * cols, 0.7);
  std::vector<double> c(rows * cols, std::nan(""));
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::pointer(c.data())}, {"M", ArgValue::scalar<int64_t>(rows)},
                       {"N", ArgValue::scalar<int64_t>(cols)}, {"K", ArgValue::scalar<int64_t>(inner)}});
  ASSERT_TRUE(st.ok()) << st.error().message << " (" << s << ")";
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double want = 0;
      for (int64_t l = 0; l < inner; ++l) want += a[i * inner + l] * b[l * cols + j];
      EXPECT_NEAR(c[i * cols + j], want, 1e-12) << i << "," << j;
    }
}

TEST(CudaBlas, IntegerProductOnDeviceIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = device_product("cuda_matmul_int", T::Int32, Product{}, {"M", "K"}, {"K", "N"}, {"M", "N"});
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*g, ctx, emulated_options());
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("LibraryNode \"product\""), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("float32, float64, complex64 and complex128"), std::string::npos) << m.error().message;
}

// Gemm C = alpha * A @ B + beta * C whose alpha names container `alpha_data` and whose beta
// is input connector `_beta`, reading `beta_data[0]`.
std::unique_ptr<ir::SDFG> named_factor_product(ir::StorageType alpha_storage, bool alpha_transient,
                                               ir::StorageType beta_storage) {
  Product p;
  p.cls = "dace.libraries.blas.nodes.gemm.Gemm";
  p.properties = {{"alpha", "\"al\""}, {"beta", "\"_beta\""}};
  std::unique_ptr<ir::SDFG> g = device_product("cuda_named_gemm", T::Float64, p, {"M", "K"}, {"K", "N"}, {"M", "N"});
  add_scalar(*g, "al", T::Float64, alpha_transient);
  g->arrays.at("al").storage = alpha_storage;
  add_array(*g, "be", T::Float64, {"1"});
  g->arrays.at("be").storage = beta_storage;
  ir::State& s = *g->all_states().front();
  int product = -1;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Library) product = id;
  auto& n = static_cast<ir::LibraryNode&>(*s.node(product));
  n.in_connectors["_cin"] = ir::DType{};
  n.in_connectors["_beta"] = ir::DType{};
  edge(s, access(s, "C"), "", product, "_cin", "C[0:M, 0:N]");
  edge(s, access(s, "be"), "", product, "_beta", "be[0]");
  return g;
}

Status lower_emulated(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  return m ? Status::success() : Status(m.take_error());
}

// A named alpha/beta is read by host code before the cuBLAS call: one in device memory (a
// transient Scalar GPUTransformSDFG moved to GPU_Global, a GPU_Global array behind the _beta
// connector) is refused at compile time, naming the node and the factor.
TEST(CudaBlas, NamedFactorInDeviceMemoryIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  const ir::StorageType gpu = ir::StorageType::GPU_Global, host = ir::StorageType::CPU_Heap;
  std::unique_ptr<ir::SDFG> ga = named_factor_product(gpu, /*alpha_transient=*/true, host);
  Status a = lower_emulated(*ga);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, Code::Unsupported);
  EXPECT_NE(a.error().message.find("LibraryNode \"product\""), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("alpha \"al\" reads \"al\" in GPU_Global memory"), std::string::npos)
      << a.error().message;
  std::unique_ptr<ir::SDFG> gb = named_factor_product(host, /*alpha_transient=*/false, gpu);
  Status b = lower_emulated(*gb);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("LibraryNode \"product\""), std::string::npos) << b.error().message;
  EXPECT_NE(b.error().message.find("beta \"_beta\" reads \"be\" in GPU_Global memory"), std::string::npos)
      << b.error().message;
}

// Factors in host memory run: alpha a Scalar argument (by value in host memory, whatever its
// storage says), beta read from a host array through _beta. Against C++ loops.
TEST(CudaBlas, NamedFactorsInHostMemoryRunEmulated) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = named_factor_product(ir::StorageType::GPU_Global, /*alpha_transient=*/false,
                                                     ir::StorageType::CPU_Heap);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  const int64_t m = 4, k = 6, n = 5;
  const double alpha = 1.5, beta = -0.25;
  std::vector<double> a = ramp<double>(m * k, 0.4), b = ramp<double>(k * n, 0.9), c = ramp<double>(m * n, 1.3);
  std::vector<double> be{beta}, want(c.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l) s += a[i * k + l] * b[l * n + j];
      want[i * n + j] = alpha * s + beta * c[i * n + j];
    }
  Result<CompiledProgram> p = compile_on(*g, Where::Emulated);
  ASSERT_TRUE(p.ok()) << p.error().message;
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::pointer(c.data())}, {"al", ArgValue::scalar<double>(alpha)},
                       {"be", ArgValue::pointer(be.data())}, {"M", ArgValue::scalar<int64_t>(m)},
                       {"N", ArgValue::scalar<int64_t>(n)}, {"K", ArgValue::scalar<int64_t>(k)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (size_t i = 0; i < c.size(); ++i) EXPECT_NEAR(c[i], want[i], 1e-12) << i;
}

}  // namespace
}  // namespace dace::codegen::testing
