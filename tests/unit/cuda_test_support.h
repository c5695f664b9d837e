// Shared by the CUDA plugin's tests: the plugin loaded once per test binary, ptxas, files.
#pragma once
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "plugin/loader.h"
#include "plugin/registry.h"
#include "plugin_test_support.h"

namespace dace::codegen::testing {

inline std::string cuda_plugin_path() {
  if (const char* env = std::getenv("LIBDACE_TEST_CUDA_PLUGIN")) return env;
  return plugin::default_plugin_dir() + "/libdace_plugin_cuda.so";
}

// One registry with the CUDA plugin for the whole test binary (plugins are never unloaded).
inline plugin::Registry* cuda_registry() {
  static plugin::Registry registry;
  static bool loaded = [] {
    if (!plugin::testing::file_exists(cuda_plugin_path())) return false;
    Result<plugin::PluginInfo> info = plugin::load_plugin(registry, cuda_plugin_path());
    EXPECT_TRUE(info.ok()) << info.error().message;
    return info.ok();
  }();
  return loaded ? &registry : nullptr;
}

// The entry point `name` of the CUDA plugin's runtime symbol table as a function pointer of
// type Fn (null when the plugin lacks it); the registry must be loaded (REQUIRE_CUDA_PLUGIN).
template <class Fn>
Fn cuda_runtime_entry(const char* name) {
  return reinterpret_cast<Fn>(cuda_registry()->find_runtime_symbol(name));
}

#define REQUIRE_CUDA_PLUGIN()                                                                           \
  do {                                                                                                  \
    if (!::dace::codegen::testing::cuda_registry())                                                     \
      GTEST_SKIP() << "CUDA plugin not built (no CUDA toolkit; looked for "                             \
                   << ::dace::codegen::testing::cuda_plugin_path() << ")";                              \
  } while (0)

// "" when a CUDA driver is installed and lists a GPU (programs must run on the device), else
// why not: the runtime's own status ("no CUDA driver: ...", "no CUDA device (driver X)").
// A listed device that then fails to open is no reason to skip: the test runs and fails.
inline std::string cuda_device_absence() {
  plugin::Registry* r = cuda_registry();
  if (!r) return "CUDA plugin not built";
  auto status = reinterpret_cast<const char* (*)()>(r->find_runtime_symbol("dace_cuda_status"));
  if (!status) return "the CUDA plugin has no dace_cuda_status";
  const std::string s = status();
  return s.rfind("no CUDA", 0) == 0 ? s : "";
}

// Skips (with the reason) a test that needs a GPU where there is no driver or device.
#define REQUIRE_CUDA_DEVICE()                                                                  \
  do {                                                                                         \
    const std::string why_no_device = ::dace::codegen::testing::cuda_device_absence();         \
    if (!why_no_device.empty()) GTEST_SKIP() << "not run on a GPU: " << why_no_device;         \
  } while (0)

inline std::string ptxas() {
  if (const char* env = std::getenv("DACE_PTXAS")) return env;
  return plugin::testing::file_exists("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs ptxas on `ptx_file` for `arch`; "" when accepted, else its output.
inline std::string ptxas_check(const std::string& ptx_file, const std::string& arch) {
  std::string cmd = ptxas() + " -arch=" + arch + " -o /dev/null " + ptx_file + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return "cannot run " + cmd;
  std::string out;
  char buf[512];
  while (fgets(buf, sizeof buf, p)) out += buf;
  int rc = pclose(p);
  return rc == 0 ? "" : "ptxas " + arch + " failed (" + std::to_string(rc) + "): " + out;
}

inline std::string temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("dace_cuda_test_" + name + "_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace dace::codegen::testing
