#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "libdace_plugin.h"
#include "plugin/build_id.h"
#include "plugin/loader.h"
#include "plugin_test_support.h"

namespace dace::plugin {
namespace {

using testing::test_plugin;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Expects PluginUnavailable naming the path and every given reason fragment.
void expect_unavailable(const Result<PluginInfo>& result, const std::string& path,
                        std::initializer_list<std::string> reasons) {
  ASSERT_FALSE(result.ok()) << path;
  EXPECT_EQ(result.error().code, Code::PluginUnavailable);
  EXPECT_TRUE(contains(result.error().message, path)) << result.error().message;
  for (const std::string& reason : reasons)
    EXPECT_TRUE(contains(result.error().message, reason))
        << "missing \"" << reason << "\" in: " << result.error().message;
}

// Nothing at all may be registered after a failed load into a fresh registry.
void expect_empty(const Registry& r) {
  EXPECT_TRUE(r.plugins().empty());
  EXPECT_TRUE(r.schedule_names().empty());
  EXPECT_TRUE(r.storage_names().empty());
  EXPECT_TRUE(r.transformation_names().empty());
  EXPECT_TRUE(r.runtime_symbols().empty());
  EXPECT_TRUE(r.vendor_libraries().empty());
}

std::string scratch_dir(const std::string& tag) { return testing::scratch_dir("libdace_plugin_test", tag); }

TEST(PluginBuildId, IsNonEmptyAndStable) {
  ASSERT_NE(build_id(), nullptr);
  EXPECT_GT(std::string(build_id()).size(), 0u);
  EXPECT_STREQ(build_id(), build_id());
}

TEST(PluginLoader, GoodPluginRegistersEverything) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  Result<PluginInfo> info = load_plugin(r, test_plugin("good"));
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->name, "test_good");
  EXPECT_EQ(info->version, "1.2.3");
  EXPECT_EQ(info->build_id, build_id());
  EXPECT_EQ(info->abi_version, DACE_PLUGIN_ABI_VERSION);
  EXPECT_TRUE(std::filesystem::path(info->path).is_absolute());

  EXPECT_EQ(r.schedule_names(), (std::vector<std::string>{"TestPar", "TestSeq"}));
  EXPECT_EQ(r.schedule_owner("TestPar"), "test_good");
  EXPECT_NE(r.find_storage("TestHeap"), nullptr);
  EXPECT_NE(r.find_copy("TestHeap", "CPU_Heap"), nullptr);
  EXPECT_NE(r.find_expansion("test.nodes.Gemm", "pure"), nullptr);
  ASSERT_NE(r.find_transformation("TestTransform"), nullptr);
  EXPECT_EQ(r.find_transformation("TestTransform")->create(), nullptr);

  // The runtime symbol is a real function of the plugin.
  void* answer = r.find_runtime_symbol("test_plugin_answer");
  ASSERT_NE(answer, nullptr);
  EXPECT_EQ(reinterpret_cast<int64_t (*)()>(answer)(), 42);

  // Vendor libraries: the present one loaded, the absent optional one recorded as such.
  EXPECT_TRUE(r.vendor_library_available("libm.so.6"));
  EXPECT_FALSE(r.vendor_library_available("libdace_test_absent_vendor.so.1"));
  std::vector<VendorLibrary> libs = r.vendor_libraries();
  ASSERT_EQ(libs.size(), 2u);
  EXPECT_EQ(libs[0].name, "libdace_test_absent_vendor.so.1");
  EXPECT_FALSE(libs[0].required);
  EXPECT_TRUE(contains(libs[0].error, "libdace_test_absent_vendor.so.1")) << libs[0].error;
  EXPECT_EQ(libs[0].owner, "test_good");

  ASSERT_EQ(r.plugins().size(), 1u);
  EXPECT_TRUE(r.has_plugin("test_good"));
}

TEST(PluginLoader, LoadingTheSamePluginTwiceIsANoop) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  ASSERT_TRUE(load_plugin(r, test_plugin("good")).ok());
  // Also through another spelling of the path.
  std::string other = testing::test_plugin_dir() + "/./libdace_plugin_test_good.so";
  Result<PluginInfo> again = load_plugin(r, other);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->name, "test_good");
  EXPECT_EQ(r.plugins().size(), 1u);
  EXPECT_EQ(r.schedule_names().size(), 2u);
}

TEST(PluginLoader, OneRegistryPerContext) {
  DACE_REQUIRE_TEST_PLUGINS();
  // The same plugin registers again into a second registry (one per libdace context).
  Registry a, b;
  ASSERT_TRUE(load_plugin(a, test_plugin("good")).ok());
  ASSERT_TRUE(load_plugin(b, test_plugin("good")).ok());
  EXPECT_EQ(a.find_runtime_symbol("test_plugin_answer"), b.find_runtime_symbol("test_plugin_answer"));
}

TEST(PluginLoader, MissingFile) {
  Registry r;
  std::string path = "/nonexistent/dir/libdace_plugin_nothing.so";
  expect_unavailable(load_plugin(r, path), path, {"file not found"});
  expect_unavailable(load_plugin(r, ""), "", {"empty path"});
  expect_empty(r);
}

TEST(PluginLoader, DirectoryIsNotAPlugin) {
  Registry r;
  std::string dir = scratch_dir("dir");
  expect_unavailable(load_plugin(r, dir), dir, {"not a regular file"});
  std::filesystem::remove_all(dir);
}

TEST(PluginLoader, NotASharedObject) {
  Registry r;
  std::string dir = scratch_dir("bogus");
  std::string path = dir + "/libdace_plugin_bogus.so";
  std::ofstream(path) << "this is not an ELF file\n";
  // The loader's own text says what is wrong with the file.
  expect_unavailable(load_plugin(r, path), path, {"cannot be loaded", "libdace_plugin_bogus.so:"});
  expect_empty(r);
  std::filesystem::remove_all(dir);
}

TEST(PluginLoader, MissingVendorLibraryOfTheSharedObject) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("missing_vendor");
  expect_unavailable(load_plugin(r, path), path,
                     {"cannot be loaded", "libdace_test_absent_vendor.so.1"});
  expect_empty(r);
}

TEST(PluginLoader, MissingQuerySymbol) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("no_query");
  expect_unavailable(load_plugin(r, path), path, {"does not export dace_plugin_query"});
  expect_empty(r);
}

TEST(PluginLoader, AbiVersionMismatch) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("wrong_abi");
  expect_unavailable(load_plugin(r, path), path,
                     {"plugin ABI version 999", "expects " + std::to_string(DACE_PLUGIN_ABI_VERSION)});
  expect_empty(r);
}

TEST(PluginLoader, BuildIdMismatch) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("wrong_build_id");
  expect_unavailable(load_plugin(r, path), path,
                     {"test_wrong_build_id", "\"some-other-libdace-build\"",
                      "this libdace is build \"" + std::string(build_id()) + "\""});
  expect_empty(r);
}

TEST(PluginLoader, FailingRegisterFunctionLeavesNothing) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("failing");
  expect_unavailable(load_plugin(r, path), path, {"register function returned 7"});
  expect_empty(r);
}

TEST(PluginLoader, IgnoredFailedRegistrationStillFails) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("bad_registration");
  expect_unavailable(load_plugin(r, path), path, {"registration failed", "test_bad_registration"});
  expect_empty(r);
}

TEST(PluginLoader, RequiredVendorLibraryMissing) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  std::string path = test_plugin("needs_vendor");
  expect_unavailable(load_plugin(r, path), path,
                     {"required vendor library \"libdace_test_absent_vendor.so.1\""});
  expect_empty(r);
}

TEST(PluginLoader, ConflictWithAnotherPluginLeavesNothingOfIt) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  ASSERT_TRUE(load_plugin(r, test_plugin("good")).ok());
  std::string path = test_plugin("conflict");
  expect_unavailable(load_plugin(r, path), path,
                     {"schedule \"TestPar\"", "\"test_conflict\"", "\"test_good\""});
  EXPECT_EQ(r.find_schedule("ConflictOnly"), nullptr);
  EXPECT_EQ(r.schedule_owner("TestPar"), "test_good");
  EXPECT_EQ(r.plugins().size(), 1u);

  // In a registry without the good plugin, the same plugin loads fine.
  Registry alone;
  ASSERT_TRUE(load_plugin(alone, path).ok());
  EXPECT_NE(alone.find_schedule("ConflictOnly"), nullptr);
}

TEST(PluginLoader, FailedLoadDoesNotDisturbEarlierPlugins) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  ASSERT_TRUE(load_plugin(r, test_plugin("good")).ok());
  std::vector<std::string> before = r.schedule_names();
  for (const char* bad : {"failing", "bad_registration", "needs_vendor", "wrong_abi",
                          "wrong_build_id", "no_query", "missing_vendor"})
    EXPECT_FALSE(load_plugin(r, test_plugin(bad)).ok()) << bad;
  EXPECT_EQ(r.schedule_names(), before);
  EXPECT_EQ(r.plugins().size(), 1u);
  EXPECT_EQ(r.runtime_symbols().size(), 1u);
}

TEST(PluginLoader, LookupsProceedWhileLoading) {
  DACE_REQUIRE_TEST_PLUGINS();
  Registry r;
  ASSERT_TRUE(r.add_schedule("Sequential", std::make_shared<testing::NoopSchedule>()).ok());
  std::atomic<bool> done{false};
  std::atomic<long> lookups{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      while (!done.load()) {
        EXPECT_NE(r.find_schedule("Sequential"), nullptr);
        std::vector<std::string> names = r.schedule_names();
        // All or nothing: either both schedules of the good plugin or neither.
        bool par = std::find(names.begin(), names.end(), "TestPar") != names.end();
        bool seq = std::find(names.begin(), names.end(), "TestSeq") != names.end();
        EXPECT_EQ(par, seq);
        lookups.fetch_add(1);
      }
    });
  }
  // Two loaders of the same plugin race: exactly one registers, the other is a no-op.
  std::vector<std::thread> loaders;
  std::atomic<int> ok{0};
  for (int t = 0; t < 2; ++t) {
    loaders.emplace_back([&] {
      while (lookups.load() < 2) std::this_thread::yield();  // the readers are running
      if (load_plugin(r, test_plugin("good")).ok()) ok.fetch_add(1);
      (void)load_plugin(r, test_plugin("failing"));
    });
  }
  for (std::thread& l : loaders) l.join();
  done.store(true);
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(ok.load(), 2);
  EXPECT_EQ(r.plugins().size(), 1u);
  EXPECT_EQ(r.schedule_names(), (std::vector<std::string>{"Sequential", "TestPar", "TestSeq"}));
  EXPECT_GT(lookups.load(), 0);
}

}  // namespace
}  // namespace dace::plugin
