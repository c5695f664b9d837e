// Build ids of loaded binaries (jit/binary_id.h) against what binutils' readelf reads from
// the files: libdace's own, a loaded plugin's (also through another spelling of its path),
// and none for files that are not loaded; the plugins' fingerprint in cache keys carries it.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <string>

#include "jit/binary_id.h"
#include "jit/program_key.h"
#include "plugin/loader.h"
#include "plugin/registry.h"
#include "plugin_test_support.h"

namespace dace::jit {
namespace {

// readelf's "Build ID: <hex>" line for `path`; nullopt when readelf cannot be run.
std::optional<std::string> readelf_build_id(const std::string& path) {
  FILE* pipe = popen(("readelf -n '" + path + "' 2>/dev/null").c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  if (pclose(pipe) != 0) return std::nullopt;
  const std::string tag = "Build ID: ";
  size_t at = out.find(tag);
  if (at == std::string::npos) return "";
  at += tag.size();
  return out.substr(at, out.find_first_of(" \n", at) - at);
}

TEST(JitBinaryId, LibdaceIsTheLinkersBuildIdOfLibdaceSo) {
  const std::string path = std::string(LIBDACE_BINARY_DIR) + "/lib/libdace.so";
  std::optional<std::string> expected = readelf_build_id(path);
  if (!expected) GTEST_SKIP() << "readelf (binutils) cannot read " << path;
  ASSERT_FALSE(expected->empty()) << path << " was linked without --build-id";
  EXPECT_EQ(libdace_binary_id(), *expected);
}

TEST(JitBinaryId, LoadedPluginByAnySpellingOfItsPath) {
  const std::string path = plugin::testing::cpu_plugin_path();
  if (!plugin::testing::file_exists(path)) GTEST_SKIP() << "CPU plugin not built (looked for " << path << ")";
  std::optional<std::string> expected = readelf_build_id(path);
  if (!expected) GTEST_SKIP() << "readelf (binutils) cannot read " << path;
  static plugin::Registry registry;
  Result<plugin::PluginInfo> info = plugin::load_plugin(registry, path);
  ASSERT_TRUE(info.ok()) << info.error().message;
  ASSERT_FALSE(expected->empty());
  EXPECT_EQ(loaded_binary_id(path), *expected);
  const std::string dir = path.substr(0, path.rfind('/'));
  EXPECT_EQ(loaded_binary_id(dir + "/../plugins/." + path.substr(path.rfind('/'))), *expected);
  EXPECT_NE(plugins_fingerprint(registry).find(" binary " + *expected + "\n"), std::string::npos)
      << plugins_fingerprint(registry);
  EXPECT_NE(*expected, libdace_binary_id());
}

TEST(JitBinaryId, NoIdForFilesThatAreNotLoaded) {
  EXPECT_EQ(loaded_binary_id(std::string(LIBDACE_SOURCE_DIR) + "/README.md"), "");
  EXPECT_EQ(loaded_binary_id(std::string(LIBDACE_SOURCE_DIR) + "/no/such/file.so"), "");
  EXPECT_EQ(loaded_binary_id(""), "");
}

}  // namespace
}  // namespace dace::jit
