// Optional vendor libraries are loaded on first use (plugin/registry.h, `deferred`): compiling
// a program without BLAS nodes leaves OpenBLAS untried (and, in a process that had not loaded
// it, not loaded), and a program with a MatMul node loads it during lowering and calls it —
// results against a plain C++ loop. Listings still report every library's real status.
#include <dlfcn.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "builder/api_internal.h"
#include "capi_program_test_util.h"
#include "plugin/registry.h"

namespace {

namespace fs = std::filesystem;
using capi_test::make_axpb;

constexpr const char* kOpenBlas = "libopenblas.so.0";

const dace::plugin::VendorLibrary* find_lib(const std::vector<dace::plugin::VendorLibrary>& libs) {
  for (const auto& l : libs)
    if (l.name == kOpenBlas) return &l;
  return nullptr;
}

std::vector<dace::plugin::VendorLibrary> known(dace_context_t* ctx) {
  std::lock_guard<std::mutex> lock(ctx->jit_mutex);
  return ctx->registry->known_vendor_libraries();
}

TEST(PluginVendorDeferred, ProgramWithoutBlasLeavesOpenBlasUntriedAndMatMulLoadsIt) {
  const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg";
  if (!fs::exists(path)) GTEST_SKIP() << "no corpus file " << path;
  const bool loaded_before = dlopen(kOpenBlas, RTLD_NOW | RTLD_NOLOAD) != nullptr;

  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;  // no cache dir
  o.tiered = 0;
  dace_sdfg_t* axpb = make_axpb("axpb_no_blas");
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, axpb, &o));
  dace_program_release(p);
  dace_sdfg_release(axpb);
  {
    const auto libs = known(ctx);
    const auto* lib = find_lib(libs);
    ASSERT_NE(lib, nullptr) << "the CPU plugin declares " << kOpenBlas;
    EXPECT_TRUE(lib->deferred) << "a program without BLAS nodes must not load OpenBLAS";
    EXPECT_FALSE(lib->available);
  }
  if (!loaded_before) {
    EXPECT_EQ(dlopen(kOpenBlas, RTLD_NOW | RTLD_NOLOAD), nullptr) << "OpenBLAS was loaded anyway";
  }

  // gemm: C = alpha * A @ B + beta * C, the product a MatMul library node.
  dace_sdfg_t* gemm = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_file(&gemm, path.c_str()));
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, gemm, &o));
  const auto libs = known(ctx);
  const auto* lib = find_lib(libs);
  ASSERT_NE(lib, nullptr);
  EXPECT_FALSE(lib->deferred) << "lowering a MatMul asks for OpenBLAS";
  if (!lib->available) GTEST_SKIP() << "OpenBLAS is not installed: " << lib->error;
  EXPECT_NE(dlopen(kOpenBlas, RTLD_NOW | RTLD_NOLOAD), nullptr);

  const int64_t ni = 7, nj = 5, nk = 6;
  std::vector<double> a(ni * nk), b(nk * nj), c(ni * nj);
  for (int64_t i = 0; i < ni * nk; ++i) a[i] = static_cast<double>(i % 5) - 2;
  for (int64_t i = 0; i < nk * nj; ++i) b[i] = static_cast<double>(i % 7) - 3;
  for (int64_t i = 0; i < ni * nj; ++i) c[i] = static_cast<double>(i % 3);
  const double alpha = 1.5, beta = 1.2;
  std::vector<double> expect(c);
  for (int64_t i = 0; i < ni; ++i)
    for (int64_t j = 0; j < nj; ++j) {
      double s = 0;
      for (int64_t k = 0; k < nk; ++k) s += a[i * nk + k] * b[k * nj + j];
      expect[i * nj + j] = alpha * s + beta * c[i * nj + j];
    }
  const int64_t shape_a[2] = {ni, nk}, shape_b[2] = {nk, nj}, shape_c[2] = {ni, nj};
  const char* names[5] = {"alpha", "beta", "A", "B", "C"};
  dace_arg_t args[5]{};
  args[0].kind = args[1].kind = DACE_ARG_FLOAT;
  args[0].value.f = alpha;
  args[1].value.f = beta;
  args[2].kind = args[3].kind = args[4].kind = DACE_ARG_ARRAY;
  args[2].value.array = {a.data(), DACE_FLOAT64, 2, shape_a, nullptr};
  args[3].value.array = {b.data(), DACE_FLOAT64, 2, shape_b, nullptr};
  args[4].value.array = {c.data(), DACE_FLOAT64, 2, shape_c, nullptr};
  ASSERT_DACE_OK(dace_program_call(p, names, args, 5));
  for (int64_t i = 0; i < ni * nj; ++i) EXPECT_NEAR(c[i], expect[i], 1e-12 * (1 + std::fabs(expect[i]))) << i;

  dace_program_release(p);
  dace_sdfg_release(gemm);
  dace_context_release(ctx);
}

}  // namespace
