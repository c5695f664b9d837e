// Plugin manifests (plugin/manifest.h): parsing, refusals naming the line, which program
// needs match a manifest, and that the bundled plugins' manifests list exactly what the
// plugins register (a stale manifest would leave a plugin unloaded that a program needs).
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "plugin/loader.h"
#include "plugin/manifest.h"
#include "plugin/registry.h"
#include "plugin_test_support.h"

namespace dace::plugin {
namespace {

using testing::file_exists;

const char kManifest[] =
    "# comment\n"
    "plugin demo\n"
    "version 1.0\n"
    "\n"
    "build abc-123\n"
    "storage DemoHeap\n"
    "schedule DemoPar\n"
    "library demo.nodes.Gemm Demo (device)\n"
    "library-prefix demo.mpi.\n"
    "tasklet-code demoBlas\n";

TEST(PluginManifest, ParsesEveryEntry) {
  Result<PluginManifest> m = parse_manifest(kManifest, "demo.manifest");
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "demo");
  EXPECT_EQ(m->version, "1.0");
  EXPECT_EQ(m->build_id, "abc-123");
  EXPECT_EQ(m->schedules, std::set<std::string>{"DemoPar"});
  EXPECT_EQ(m->storages, std::set<std::string>{"DemoHeap"});
  // The implementation is the rest of the line, spaces included.
  EXPECT_EQ(m->libraries, (std::set<std::pair<std::string, std::string>>{{"demo.nodes.Gemm", "Demo (device)"}}));
  EXPECT_EQ(m->library_prefixes, std::set<std::string>{"demo.mpi."});
  EXPECT_EQ(m->tasklet_code, std::set<std::string>{"demoBlas"});
}

TEST(PluginManifest, CanonicalTextIgnoresOrderAndComments) {
  const std::string reordered =
      "tasklet-code demoBlas\nlibrary-prefix demo.mpi.\nlibrary demo.nodes.Gemm Demo (device)\n"
      "schedule DemoPar\nstorage DemoHeap\n# another comment\nbuild abc-123\nversion 1.0\nplugin demo\n";
  Result<PluginManifest> a = parse_manifest(kManifest, "a");
  Result<PluginManifest> b = parse_manifest(reordered, "b");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->canonical_text(), b->canonical_text());
  EXPECT_EQ(a->canonical_text(),
            "plugin demo\nversion 1.0\nbuild abc-123\nschedule DemoPar\nstorage DemoHeap\n"
            "library demo.nodes.Gemm Demo (device)\nlibrary-prefix demo.mpi.\ntasklet-code demoBlas\n");
}

TEST(PluginManifest, RefusalsNameTheFileAndLine) {
  struct Case {
    std::string text, message;
  };
  const Case cases[] = {
      {"plugin a\nversion 1\nbuild b\nflavour x\n", "plugin manifest \"m\": line 4: unknown entry \"flavour\""},
      {"plugin a\nplugin b\n", "plugin manifest \"m\": line 2: entry \"plugin\" repeated"},
      {"plugin a\nversion\n", "plugin manifest \"m\": line 2: entry \"version\" has no value"},
      {"plugin a\nversion 1\nbuild b\nlibrary x.Y\n",
       "plugin manifest \"m\": line 4: entry \"library\" needs a class path and an implementation"},
      {"version 1\nbuild b\n", "plugin manifest \"m\": no \"plugin\" entry"},
      {"plugin a\nbuild b\n", "plugin manifest \"m\": no \"version\" entry"},
      {"plugin a\nversion 1\n", "plugin manifest \"m\": no \"build\" entry"},
  };
  for (const Case& c : cases) {
    Result<PluginManifest> m = parse_manifest(c.text, "m");
    ASSERT_FALSE(m.ok()) << c.text;
    EXPECT_EQ(m.error().code, Code::InvalidArgument);
    EXPECT_EQ(m.error().message, c.message);
  }
}

TEST(PluginManifest, NeededByWhatAProgramUses) {
  Result<PluginManifest> m = parse_manifest(kManifest, "demo.manifest");
  ASSERT_TRUE(m.ok());
  PluginNeeds none;
  none.schedules = {"Default", "CPU_Multicore", "Sequential"};
  none.storages = {"Default", "CPU_Heap", "Register"};
  none.library_nodes = {{"demo.nodes.Gemm", "pure"}, {"demo.nodesX", "Demo (device)"}, {"other.demo.mpi.Send", "MPI"}};
  none.cpp_tasklet_code = {"out = in * 2;", "cblas_dgemm(...);"};
  EXPECT_FALSE(m->needed_by(none));
  EXPECT_FALSE(m->needed_by(PluginNeeds{}));

  PluginNeeds schedule = none;
  schedule.schedules.insert("DemoPar");
  EXPECT_TRUE(m->needed_by(schedule));
  PluginNeeds storage = none;
  storage.storages.insert("DemoHeap");
  EXPECT_TRUE(m->needed_by(storage));
  PluginNeeds library = none;
  library.library_nodes.emplace("demo.nodes.Gemm", "Demo (device)");
  EXPECT_TRUE(m->needed_by(library));
  PluginNeeds prefix = none;
  prefix.library_nodes.emplace("demo.mpi.nodes.Send", "");
  EXPECT_TRUE(m->needed_by(prefix));
  PluginNeeds tasklet = none;
  tasklet.cpp_tasklet_code.push_back("demoBlasDgemm(handle, ...);");
  EXPECT_TRUE(m->needed_by(tasklet));
}

TEST(PluginManifest, PathBesideThePlugin) {
  EXPECT_EQ(manifest_path_for("/x/libdace_plugin_mpi.so"), "/x/libdace_plugin_mpi.manifest");
  EXPECT_EQ(manifest_path_for("/x/plugin"), "/x/plugin.manifest");
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every DaCe 1.0.2 library class (tests/data/library_nodes), to ask the registry which
// implementations a plugin registered for each.
std::vector<std::string> dace_library_classes() {
  std::vector<std::string> out;
  std::ifstream in(std::string(LIBDACE_SOURCE_DIR) + "/tests/data/library_nodes/dace_1_0_2_classes.txt");
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line.substr(0, line.find_first_of(" \t")));
  return out;
}

// The bundled plugins that have a manifest list exactly the schedules and storages they
// register, and cover every library implementation and C++ tasklet lowering they register.
TEST(PluginManifest, BundledManifestsMatchTheirPlugins) {
  const std::vector<std::string> classes = dace_library_classes();
  ASSERT_GT(classes.size(), 40u);
  int checked = 0;
  for (const char* name : {"mpi", "cuda"}) {
    const std::string so = default_plugin_dir() + "/libdace_plugin_" + name + ".so";
    if (!file_exists(so)) {
      std::cout << "[  SKIPPED ] plugin " << name << " is not built (" << so << ")\n";
      continue;
    }
    const std::string path = manifest_path_for(so);
    ASSERT_TRUE(file_exists(path)) << "the build writes a manifest beside " << so;
    Result<PluginManifest> m = parse_manifest(read_text(path), path);
    ASSERT_TRUE(m.ok()) << m.error().message;
    Registry registry;
    Result<PluginInfo> info = load_plugin(registry, so);
    ASSERT_TRUE(info.ok()) << info.error().message;
    EXPECT_EQ(m->name, info->name);
    EXPECT_EQ(m->version, info->version);
    EXPECT_EQ(m->build_id, info->build_id);
    const std::vector<std::string> schedules = registry.schedule_names(), storages = registry.storage_names();
    EXPECT_EQ(std::set<std::string>(schedules.begin(), schedules.end()), m->schedules) << name;
    EXPECT_EQ(std::set<std::string>(storages.begin(), storages.end()), m->storages) << name;
    std::vector<std::string> ask = classes;
    for (const auto& [cls, impl] : m->libraries) ask.push_back(cls);
    for (const std::string& cls : ask) {
      for (const std::string& impl : registry.expansion_implementations(cls)) {
        PluginNeeds node;
        node.library_nodes.emplace(cls, impl);
        EXPECT_TRUE(m->needed_by(node)) << name << " registers " << cls << " \"" << impl << "\", its manifest misses it";
      }
    }
    for (const auto& [cls, impl] : m->libraries)
      EXPECT_NE(registry.find_expansion(cls, impl), nullptr) << name << "'s manifest lists " << cls << " " << impl;
    EXPECT_EQ(registry.cpp_tasklets().empty(), m->tasklet_code.empty()) << name;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "neither the MPI nor the CUDA plugin is built";
}

}  // namespace
}  // namespace dace::plugin
