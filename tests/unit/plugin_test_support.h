// Shared helpers of the plugin tests: where the test plugins and the CPU plugin live, and
// trivial implementations of the registry's interfaces.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <unistd.h>

#include "plugin/loader.h"
#include "plugin/registry.h"

namespace dace::plugin::testing {

// Test plugins (tests/plugins) are built by CMake into <build>/test_plugins; a hand build
// points LIBDACE_TEST_PLUGIN_DIR at its own folder.
// An empty folder of this process's own under the temporary directory, named after the
// test file (`prefix`) and the test (`tag`); emptied first if a previous run left it.
inline std::string scratch_dir(const std::string& prefix, const std::string& tag) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / (prefix + "_" + tag + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline std::string test_plugin_dir() {
  if (const char* env = std::getenv("LIBDACE_TEST_PLUGIN_DIR")) return env;
#ifdef LIBDACE_BINARY_DIR
  return std::string(LIBDACE_BINARY_DIR) + "/test_plugins";
#else
  return "";
#endif
}

inline std::string test_plugin(const std::string& name) {
  return test_plugin_dir() + "/libdace_plugin_test_" + name + ".so";
}

// The CPU plugin sits in the default plugin folder next to libdace.so.
inline std::string cpu_plugin_path() {
  if (const char* env = std::getenv("LIBDACE_TEST_CPU_PLUGIN")) return env;
  return default_plugin_dir() + "/libdace_plugin_cpu.so";
}

inline bool file_exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

struct NoopSchedule : ScheduleLowering {
  Status lower_scope(codegen::ScopeContext&) const override { return Status::success(); }
};
struct NoopStorage : StorageLowering {
  Status lower_allocation(codegen::AllocationContext&) const override { return Status::success(); }
  Status lower_deallocation(codegen::AllocationContext&) const override {
    return Status::success();
  }
};
struct NoopCopy : CopyLowering {
  Status lower_copy(codegen::CopyContext&) const override { return Status::success(); }
};
struct NoopExpansion : LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
};
struct NoopFactory : TransformationFactory {
  std::shared_ptr<transform::Transformation> create() const override { return nullptr; }
};

}  // namespace dace::plugin::testing

#define DACE_REQUIRE_TEST_PLUGINS()                                                       \
  do {                                                                                    \
    if (!::dace::plugin::testing::file_exists(::dace::plugin::testing::test_plugin("good"))) \
      GTEST_SKIP() << "test plugins not built (looked in \""                              \
                   << ::dace::plugin::testing::test_plugin_dir() << "\")";                \
  } while (0)
