// What the lowering asks of the real CPU plugin: the CPU_Multicore schedule names its
// runtime entry (a runtime symbol of the same plugin) and the BLAS node classes have an
// OpenBLAS implementation tied to libopenblas; the LAPACK classes one tied to liblapacke.
#include <gtest/gtest.h>

#include "lowering/lapack.h"
#include "codegen/lower.h"
#include "codegen/registry_query.h"
#include "plugin_test_support.h"

namespace dace::plugin {
namespace {

TEST(CodegenCpuPlugin, RegistersScheduleAndBlasImplementations) {
  std::string path = testing::cpu_plugin_path();
  if (!testing::file_exists(path)) GTEST_SKIP() << "CPU plugin not built (looked for " << path << ")";
  static Registry registry;
  Result<PluginInfo> info = load_plugin(registry, path);
  ASSERT_TRUE(info.ok()) << info.error().message;

  codegen::LowerOptions o;
  o.registry = &registry;
  Result<std::string> entry = codegen::parallel_for_entry(o, "here");
  ASSERT_TRUE(entry.ok()) << entry.error().message;
  EXPECT_EQ(*entry, "dace_cpu_parallel_for");
  EXPECT_NE(registry.find_runtime_symbol(*entry), nullptr);
  EXPECT_EQ(registry.schedule_owner("CPU_Multicore"), "cpu");
  EXPECT_EQ(registry.schedule_owner("CPU_Persistent"), "cpu");
  // CPU_Multicore is the host's parallel schedule: Default maps and library rows go to it.
  EXPECT_EQ(codegen::host_parallel_schedule(o), registry.find_schedule("CPU_Multicore"));

  for (const char* cls : {"MatMul", "Gemm", "Gemv", "Dot"}) {
    auto impl = registry.find_expansion(codegen::blas_classpath(cls), "OpenBLAS");
    ASSERT_NE(impl, nullptr) << cls;
    EXPECT_EQ(impl->vendor_library(), "libopenblas.so.0");
    // Usable exactly when the loader could load libopenblas.
    EXPECT_EQ(codegen::vendor_implementation(o, codegen::blas_classpath(cls), "OpenBLAS"),
              registry.vendor_library_available("libopenblas.so.0"))
        << cls;
  }
  // The LAPACK / linalg classes: the OpenBLAS (LAPACKE) implementation, tied to liblapacke.
  for (const std::string& cls : cpu::lapack_classpaths()) {
    auto impl = registry.find_expansion(cls, "OpenBLAS");
    ASSERT_NE(impl, nullptr) << cls;
    EXPECT_EQ(impl->vendor_library(), cpu::kLapackeLibrary);
    EXPECT_EQ(cpu::lapacke_available(o, cls), registry.vendor_library_available(cpu::kLapackeLibrary)) << cls;
  }
  o.use_vendor_libraries = false;
  EXPECT_FALSE(codegen::vendor_implementation(o, codegen::blas_classpath("Gemm"), "OpenBLAS"));
  EXPECT_FALSE(cpu::lapacke_available(o, cpu::lapack_classpaths()[0]));
}

}  // namespace
}  // namespace dace::plugin
