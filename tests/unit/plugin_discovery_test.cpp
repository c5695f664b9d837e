#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "plugin/loader.h"
#include "plugin_test_support.h"
#include "scoped_env.h"

namespace dace::plugin {
namespace {

namespace fs = std::filesystem;
using test_support::ScopedEnv;
using testing::test_plugin;

std::string scratch_dir(const std::string& tag) { return testing::scratch_dir("libdace_discovery_test", tag); }

void touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(PluginDiscovery, PluginFilesAreMatchedAndSorted) {
  std::string dir = scratch_dir("files");
  touch(dir + "/libdace_plugin_b.so");
  touch(dir + "/libdace_plugin_a.so");
  touch(dir + "/libdace_plugin_.so");      // no name between prefix and suffix
  touch(dir + "/libdace_plugin_c.so.1");   // versioned names are not plugins
  touch(dir + "/libdace_other.so");
  touch(dir + "/plugin_d.so");
  fs::create_directories(dir + "/libdace_plugin_dir.so");
  EXPECT_EQ(plugin_files_in(dir), (std::vector<std::string>{dir + "/libdace_plugin_a.so",
                                                            dir + "/libdace_plugin_b.so"}));
  EXPECT_TRUE(plugin_files_in(dir + "/does-not-exist").empty());
  fs::remove_all(dir);
}

TEST(PluginDiscovery, SearchDirsFollowDacePluginPath) {
  ScopedEnv env("DACE_PLUGIN_PATH", "/first/dir::/second/dir:");
  std::vector<std::string> dirs = plugin_search_dirs();
  ASSERT_GE(dirs.size(), 2u);
  EXPECT_EQ(dirs[0], "/first/dir");
  EXPECT_EQ(dirs[1], "/second/dir");
  // Anything after them is the default folder next to libdace.
  for (size_t i = 2; i < dirs.size(); ++i) EXPECT_EQ(dirs[i], default_plugin_dir());
}

TEST(PluginDiscovery, DefaultDirIsNextToLibdace) {
  std::string dir = default_plugin_dir();
  ASSERT_FALSE(dir.empty());
  fs::path p(dir);
  EXPECT_TRUE(p.is_absolute());
  EXPECT_EQ(p.filename(), "plugins");
  EXPECT_EQ(p.parent_path().filename(), "libdace");
}

TEST(PluginDiscovery, LoadsFromDacePluginPathAndReportsFailures) {
  DACE_REQUIRE_TEST_PLUGINS();
  std::string one = scratch_dir("one");
  std::string two = scratch_dir("two");
  fs::create_symlink(test_plugin("good"), one + "/libdace_plugin_a_good.so");
  fs::create_symlink(test_plugin("wrong_abi"), one + "/libdace_plugin_b_abi.so");
  touch(one + "/not_a_plugin.txt");
  fs::create_symlink(test_plugin("good"), two + "/libdace_plugin_good_again.so");

  ScopedEnv env("DACE_PLUGIN_PATH", one + ":" + two);
  Registry r;
  DiscoveryReport report = discover_plugins(r);

  // In order: the good plugin, then its second copy as a no-op (any later entries come
  // from the default folder).
  ASSERT_GE(report.loaded.size(), 2u);
  EXPECT_EQ(report.loaded[0].name, "test_good");
  EXPECT_EQ(report.loaded[0].path, one + "/libdace_plugin_a_good.so");
  EXPECT_EQ(report.loaded[1].name, "test_good");
  EXPECT_TRUE(r.has_plugin("test_good"));
  EXPECT_NE(r.find_schedule("TestPar"), nullptr);

  ASSERT_GE(report.failed.size(), 1u);
  EXPECT_EQ(report.failed[0].code, Code::PluginUnavailable);
  EXPECT_NE(report.failed[0].message.find(one + "/libdace_plugin_b_abi.so"), std::string::npos)
      << report.failed[0].message;
  EXPECT_FALSE(r.has_plugin("test_wrong_abi"));

  fs::remove_all(one);
  fs::remove_all(two);
}

TEST(PluginDiscovery, ExplicitDirectoriesOnly) {
  DACE_REQUIRE_TEST_PLUGINS();
  std::string dir = scratch_dir("explicit");
  fs::create_symlink(test_plugin("failing"), dir + "/libdace_plugin_failing.so");
  fs::create_symlink(test_plugin("good"), dir + "/libdace_plugin_good.so");
  Registry r;
  DiscoveryReport report = discover_plugins(r, {dir});
  ASSERT_EQ(report.loaded.size(), 1u);
  EXPECT_EQ(report.loaded[0].name, "test_good");
  ASSERT_EQ(report.failed.size(), 1u);
  EXPECT_NE(report.failed[0].message.find("libdace_plugin_failing.so"), std::string::npos);
  EXPECT_EQ(r.plugins().size(), 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dace::plugin
