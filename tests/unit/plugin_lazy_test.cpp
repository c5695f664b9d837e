// Lazy plugin loading (plugin/deferred.h, docs/plugins.md "Lazy loading"): a plugin with a
// manifest is discovered but not loaded, is loaded when a program needs what the manifest
// lists, and fails then with the statuses and messages of an eager load. Through the C API,
// a compile that needs neither MPI nor CUDA leaves their plugins unloaded.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "builder/api_internal.h"
#include "capi_program_test_util.h"
#include "jit/program_key.h"
#include "jit/session.h"
#include "pipeline/compile.h"
#include "plugin/build_id.h"
#include "plugin/deferred.h"
#include "plugin/loader.h"
#include "plugin/manifest.h"
#include "plugin_test_support.h"

namespace dace::plugin {
namespace {

namespace fs = std::filesystem;
using testing::file_exists;
using testing::test_plugin;

std::string scratch_dir(const std::string& tag) { return testing::scratch_dir("libdace_lazy_test", tag); }

// Copies test plugin `mode` into `dir` as libdace_plugin_<file_name>.so, with a manifest
// naming `manifest_name` (empty: no manifest) and the schedule TestPar; returns its path.
std::string install(const std::string& dir, const std::string& mode, const std::string& file_name,
                    const std::string& manifest_name) {
  const std::string so = dir + "/libdace_plugin_" + file_name + ".so";
  fs::copy_file(test_plugin(mode), so, fs::copy_options::overwrite_existing);
  if (!manifest_name.empty())
    std::ofstream(manifest_path_for(so)) << "plugin " << manifest_name << "\nversion 1.2.3\nbuild "
                                         << build_id() << "\nschedule TestPar\n";
  return so;
}

PluginNeeds needs_schedule(const std::string& name) {
  PluginNeeds n;
  n.schedules = {"Default", name};
  return n;
}

class PluginLazy : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!file_exists(test_plugin("good")))
      GTEST_SKIP() << "test plugins not built (" << test_plugin("good") << ")";
  }
};

TEST_F(PluginLazy, ManifestDefersTheLoadUntilNeeded) {
  const std::string dir = scratch_dir("defer");
  const std::string so = install(dir, "good", "test_good", "test_good");
  Registry registry;
  DeferredPlugins deferred;
  DiscoveryReport report = discover_plugins_lazily(registry, {dir}, deferred);
  EXPECT_TRUE(report.loaded.empty());
  EXPECT_TRUE(report.failed.empty());
  EXPECT_TRUE(registry.plugins().empty());
  ASSERT_EQ(deferred.pending().size(), 1u);
  EXPECT_EQ(deferred.pending()[0].path, so);
  EXPECT_EQ(deferred.pending()[0].manifest.name, "test_good");

  int loaded_calls = 0;
  auto count = [&](const PluginInfo& info) {
    EXPECT_EQ(info.name, "test_good");
    ++loaded_calls;
    return Status::success();
  };
  // A program of host schedules only does not load it.
  ASSERT_TRUE(deferred.load_needed(registry, needs_schedule("CPU_Multicore"), count).ok());
  EXPECT_EQ(loaded_calls, 0);
  EXPECT_FALSE(registry.has_plugin("test_good"));
  // One that uses its schedule does, once.
  Status s = deferred.load_needed(registry, needs_schedule("TestPar"), count);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(loaded_calls, 1);
  EXPECT_TRUE(registry.has_plugin("test_good"));
  EXPECT_NE(registry.find_schedule("TestSeq"), nullptr);  // everything it registers came in
  EXPECT_NE(registry.find_runtime_symbol("test_plugin_answer"), nullptr);
  EXPECT_TRUE(deferred.pending().empty());
  ASSERT_TRUE(deferred.load_needed(registry, needs_schedule("TestPar"), count).ok());
  EXPECT_EQ(loaded_calls, 1);
  fs::remove_all(dir);
}

TEST_F(PluginLazy, WithoutManifestOrWithABrokenOneTheLoadIsImmediate) {
  const std::string dir = scratch_dir("eager");
  install(dir, "good", "test_good", "");
  // Sorted after test_good, so it is the one that meets the conflict.
  const std::string broken = install(dir, "conflict", "test_zconflict", "");
  std::ofstream(manifest_path_for(broken)) << "plugin test_conflict\nflavour x\n";
  Registry registry;
  DeferredPlugins deferred;
  DiscoveryReport report = discover_plugins_lazily(registry, {dir}, deferred);
  EXPECT_TRUE(deferred.pending().empty());
  EXPECT_TRUE(registry.has_plugin("test_good"));
  // The broken manifest's plugin was loaded now, and failed now as it always did.
  ASSERT_EQ(report.failed.size(), 1u);
  EXPECT_EQ(report.failed[0].message.rfind("plugin \"" + broken + "\": ", 0), 0u) << report.failed[0].message;
  fs::remove_all(dir);
}

// The failures of a needed plugin are load_plugin's, word for word: what an eager discovery
// reported for the same file.
TEST_F(PluginLazy, NeededPluginFailsAsAnEagerLoadWould) {
  if (!file_exists(test_plugin("wrong_build_id"))) GTEST_SKIP() << "wrong_build_id test plugin not built";
  const std::string dir = scratch_dir("fail");
  const std::string wrong_build = install(dir, "wrong_build_id", "a_wrong_build", "a_wrong_build");
  const std::string vanished = install(dir, "good", "b_vanished", "b_vanished");
  const std::string misnamed = install(dir, "good", "c_misnamed", "c_misnamed");

  Registry eager;
  DiscoveryReport eager_report = discover_plugins(eager, {dir});
  ASSERT_EQ(eager_report.failed.size(), 1u);  // wrong build id; the two good copies: one loads, one no-op

  Registry registry;
  DeferredPlugins deferred;
  ASSERT_TRUE(discover_plugins_lazily(registry, {dir}, deferred).failed.empty());
  ASSERT_EQ(deferred.pending().size(), 3u);
  auto none = [](const PluginInfo&) { return Status::success(); };

  PluginNeeds needs = needs_schedule("TestPar");
  // Loaded in name order: the wrong build id comes first and stops the load.
  Status s = deferred.load_needed(registry, needs, none);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::PluginUnavailable);
  EXPECT_EQ(s.error().message, eager_report.failed[0].message);
  EXPECT_NE(s.error().message.find("was built for libdace build"), std::string::npos) << s.error().message;
  EXPECT_EQ(deferred.pending().size(), 3u);

  // Without it: the file removed after discovery is "file not found".
  fs::remove(wrong_build);
  fs::remove(vanished);
  s = deferred.load_needed(registry, needs, none);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::PluginUnavailable);
  EXPECT_EQ(s.error().message, "plugin \"" + wrong_build + "\": file not found");

  // A manifest naming another plugin than the one its file holds (test_good) is refused.
  Registry fresh;
  DeferredPlugins only_misnamed;
  only_misnamed.add({misnamed, deferred.pending()[2].manifest, ""});
  s = only_misnamed.load_needed(fresh, needs, none);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::PluginUnavailable);
  EXPECT_EQ(s.error().message,
            "plugin \"" + misnamed + "\": its manifest names plugin \"c_misnamed\", the plugin is \"test_good\"");
  fs::remove_all(dir);
}

// A manifest naming another plugin than its file holds is refused before that plugin
// registers anything: its schedules and runtime symbols do not stay behind in the registry
// (where a program could lower against them without the session having its symbols).
TEST_F(PluginLazy, AMisnamedManifestRegistersNothing) {
  const std::string dir = scratch_dir("misnamed");
  const std::string so = install(dir, "good", "test_good", "not_test_good");
  Registry registry;
  DeferredPlugins deferred;
  ASSERT_TRUE(discover_plugins_lazily(registry, {dir}, deferred).failed.empty());
  for (int attempt = 0; attempt < 2; ++attempt) {
    Status s = deferred.load_needed(registry, needs_schedule("TestPar"), nullptr);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, Code::PluginUnavailable);
    EXPECT_EQ(s.error().message,
              "plugin \"" + so + "\": its manifest names plugin \"not_test_good\", the plugin is \"test_good\"");
    EXPECT_TRUE(registry.plugins().empty()) << "attempt " << attempt;
    EXPECT_EQ(registry.find_schedule("TestSeq"), nullptr) << "attempt " << attempt;
    EXPECT_EQ(registry.find_runtime_symbol("test_plugin_answer"), nullptr) << "attempt " << attempt;
    EXPECT_EQ(deferred.pending().size(), 1u);
  }
  fs::remove_all(dir);
}

// A plugin that discovery loaded from a file without a manifest (another directory of the
// search path) is not loaded again from the file with one when a program needs it: that would
// open a second copy and define its runtime symbols in the JIT session a second time
// (AlreadyExists, on every compile that needs it). The session here is the C API's: the
// symbols of the plugins loaded at discovery, then those of each plugin loaded later.
TEST_F(PluginLazy, APluginLoadedFromAnotherDirectoryIsNotLoadedAgain) {
  const std::string with_manifest = scratch_dir("twice_a");
  const std::string without_manifest = scratch_dir("twice_b");
  install(with_manifest, "good", "test_good", "test_good");
  install(without_manifest, "good", "test_good", "");
  Registry registry;
  DeferredPlugins deferred;
  ASSERT_TRUE(discover_plugins_lazily(registry, {with_manifest, without_manifest}, deferred).failed.empty());
  ASSERT_TRUE(registry.has_plugin("test_good"));
  ASSERT_EQ(deferred.pending().size(), 1u);
  auto session = jit::JitSession::create(jit::SessionOptions{});
  ASSERT_TRUE(session.ok()) << session.error().message;
  for (const auto& sym : registry.runtime_symbols())
    ASSERT_TRUE((*session)->define_runtime_symbol(sym.name, sym.address).ok()) << sym.name;
  int defined_later = 0;
  auto define_its_symbols = [&](const PluginInfo& info) -> Status {
    for (const auto& sym : registry.runtime_symbols())
      if (sym.owner == info.name) {
        DACE_TRY((*session)->define_runtime_symbol(sym.name, sym.address));
        ++defined_later;
      }
    return Status::success();
  };
  for (int program = 0; program < 2; ++program) {
    Status s = deferred.load_needed(registry, needs_schedule("TestPar"), define_its_symbols);
    EXPECT_TRUE(s.ok()) << "program " << program << ": " << s.error().message;
  }
  EXPECT_EQ(defined_later, 0);
  EXPECT_TRUE(deferred.pending().empty());
  fs::remove_all(with_manifest);
  fs::remove_all(without_manifest);
}

// The deferred plugins' part of the cache key names each by its manifest and its file's size
// and modification time, and does not change when one is loaded, so a program's key does not
// depend on what was compiled before it.
TEST_F(PluginLazy, FingerprintIsFixedAtDiscovery) {
  const std::string dir = scratch_dir("fingerprint");
  install(dir, "good", "test_good", "test_good");
  Registry registry;
  DeferredPlugins deferred;
  discover_plugins_lazily(registry, {dir}, deferred);
  const std::string before = deferred.fingerprint();
  const std::vector<DeferredPlugin> found = deferred.pending();
  ASSERT_EQ(found.size(), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(found[0].path.c_str(), &st), 0);
  const std::string stamp = std::to_string(static_cast<long long>(st.st_size)) + " " +
                            std::to_string(static_cast<long long>(st.st_mtim.tv_sec)) + "." +
                            std::to_string(static_cast<long long>(st.st_mtim.tv_nsec));
  EXPECT_EQ(before, "deferred plugin test_good 1.2.3 " + std::string(build_id()) + " file " + stamp + "\n");
  ASSERT_TRUE(deferred.load_needed(registry, needs_schedule("TestPar"), nullptr).ok());
  EXPECT_EQ(deferred.fingerprint(), before);
  fs::remove_all(dir);
}

// A plugin rebuilt under the same version and build id (the build id hashes only the core's
// headers) changes the key: its runtime symbols may differ, so cached objects must not match.
TEST_F(PluginLazy, FingerprintChangesWhenThePluginFileChanges) {
  const std::string dir = scratch_dir("fingerprint_rebuilt");
  install(dir, "good", "test_good", "test_good");
  std::string first;
  {
    Registry registry;
    DeferredPlugins deferred;
    discover_plugins_lazily(registry, {dir}, deferred);
    first = deferred.fingerprint();
    ASSERT_EQ(deferred.pending().size(), 1u);
    const std::string so = deferred.pending()[0].path;
    std::ofstream(so, std::ios::app) << std::string(64, '\0');  // same library, other bytes
  }
  Registry registry;
  DeferredPlugins deferred;
  discover_plugins_lazily(registry, {dir}, deferred);
  EXPECT_NE(deferred.fingerprint(), first);
  fs::remove_all(dir);
}

// Through the C API with the bundled plugins: a CPU program loads neither the MPI nor the
// CUDA plugin (the discovery used to load all three); an MPI program loads the MPI plugin.
TEST(PluginLazyCApi, CpuProgramLoadsOnlyTheCpuPlugin) {
  const std::string dir = default_plugin_dir();
  const bool have_mpi = file_exists(dir + "/libdace_plugin_mpi.so");
  const bool have_cuda = file_exists(dir + "/libdace_plugin_cuda.so");
  if (!have_mpi && !have_cuda) GTEST_SKIP() << "neither the MPI nor the CUDA plugin is built in " << dir;
  dace_context_t* ctx = nullptr;
  ASSERT_EQ(dace_context_create(&ctx), DACE_OK);
  ASSERT_EQ(dace_context_set_option(ctx, "plugin_path", dir.c_str()), DACE_OK);
  dace_sdfg_t* sdfg = capi_test::make_axpb("lazy_axpb", "2");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.tiered = 0;
  dace_program_t* p = nullptr;
  ASSERT_EQ(dace_program_compile(&p, ctx, sdfg, &o), DACE_OK) << dace_last_error_message();
  {
    std::lock_guard<std::mutex> lock(ctx->jit_mutex);
    EXPECT_TRUE(ctx->registry->has_plugin("cpu"));
    EXPECT_FALSE(ctx->registry->has_plugin("mpi")) << "the MPI plugin was loaded for a CPU program";
    EXPECT_FALSE(ctx->registry->has_plugin("cuda")) << "the CUDA plugin was loaded for a CPU program";
  }
  std::vector<double> a{1, 2, 3}, b(3);
  ASSERT_EQ(capi_test::call_axpb(p, a, b, 0.5), DACE_OK);
  EXPECT_EQ(b, (std::vector<double>{2.5, 4.5, 6.5}));
  dace_program_release(p);
  dace_sdfg_release(sdfg);

  if (have_mpi) {
    const std::string file = std::string(LIBDACE_CORPUS_DIR) + "-mpi/bcast_scale/bcast_scale.simp.sdfg";
    dace_sdfg_t* mpi_sdfg = nullptr;
    ASSERT_EQ(dace_sdfg_load_file(&mpi_sdfg, file.c_str()), DACE_OK) << dace_last_error_message();
    dace_program_t* mp = nullptr;
    EXPECT_EQ(dace_program_compile(&mp, ctx, mpi_sdfg, &o), DACE_OK) << dace_last_error_message();
    {
      std::lock_guard<std::mutex> lock(ctx->jit_mutex);
      EXPECT_TRUE(ctx->registry->has_plugin("mpi")) << "an MPI program did not load the MPI plugin";
      EXPECT_FALSE(ctx->registry->has_plugin("cuda"));
    }
    dace_program_release(mp);
    dace_sdfg_release(mpi_sdfg);
  }
  dace_context_release(ctx);
}

// The library classes every discovered manifest declares, loaded or not, reach the lowering's
// options (the refusal of a class no plugin lowers reads them: codegen/library_nodes.cpp).
TEST(PluginLazyDeclarations, ManifestLibraryEntriesReachTheLowerOptions) {
  const std::string head = "plugin P\nversion 1\nbuild b\n";
  Result<PluginManifest> a = parse_manifest(head + "library-prefix dace.libraries.mpi.\nlibrary-prefix dace.libraries.pblas.\n", "a");
  Result<PluginManifest> b = parse_manifest("plugin Q\nversion 1\nbuild b\nlibrary dace.libraries.fft.nodes.fft.FFT Demo\n"
                                            "library-prefix dace.libraries.mpi.\nschedule S\n", "b");
  ASSERT_TRUE(a.ok() && b.ok());
  auto deferred = std::make_shared<DeferredPlugins>();
  deferred->add({"/nowhere/libdace_plugin_q.so", *b, "missing"});
  deferred->add({"/nowhere/libdace_plugin_p.so", *a, "missing"});
  const std::vector<std::string> want = {"dace.libraries.fft.nodes.fft.FFT", "dace.libraries.mpi.",
                                         "dace.libraries.pblas."};
  EXPECT_EQ(deferred->declared_library_classes(), want);
  pipeline::Backend backend;
  backend.deferred = deferred;
  EXPECT_EQ(pipeline::lower_options(pipeline::CompileRequest{}, backend).declared_library_classes, want);
  backend.deferred = nullptr;
  EXPECT_TRUE(pipeline::lower_options(pipeline::CompileRequest{}, backend).declared_library_classes.empty());
}

}  // namespace
}  // namespace dace::plugin
