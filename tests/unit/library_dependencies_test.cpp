// plugin/library_dependencies.h: the DT_NEEDED and run-path entries of a shared object, read
// from the file itself, against binutils' `readelf -d` as the independent reference; which of
// them cannot be loaded (the render module's explanation, docs/render.md); bad files refused
// with the path named.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "plugin/library_dependencies.h"

namespace {

namespace fs = std::filesystem;
using dace::plugin::DynamicDependencies;

const fs::path& build_dir() {
  static const fs::path dir = LIBDACE_BINARY_DIR;
  return dir;
}

// A fresh folder of the running test's own, library_dependencies_cases/<test name>: ctest runs
// each test as its own process, side by side, so no test may remove a folder another uses.
fs::path fresh_case_dir() {
  const char* test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const fs::path dir = build_dir() / "tests" / "library_dependencies_cases" / test;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// `readelf -d FILE`'s "(NEEDED) Shared library: [name]" entries; nullopt-like flag when
// readelf cannot be run.
bool readelf_needed(const fs::path& file, std::vector<std::string>& needed) {
  const std::string cmd = "readelf -d '" + file.string() + "' 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return false;
  std::string out;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  if (pclose(pipe) != 0) return false;
  static const std::regex entry(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), entry); it != std::sregex_iterator(); ++it)
    needed.push_back((*it)[1]);
  return true;
}

TEST(LibraryDependencies, NeededEntriesMatchReadelf) {
  for (const fs::path& file : {build_dir() / "lib" / "libdace_rt.so",
                               build_dir() / "tests" / "render_module" / "librender_module_fake.so",
                               build_dir() / "lib" / "libdace" / "plugins" / "libdace_plugin_cpu.so"}) {
    ASSERT_TRUE(fs::exists(file)) << file;
    std::vector<std::string> expected;
    if (!readelf_needed(file, expected)) GTEST_SKIP() << "readelf (binutils) cannot be run: no reference";
    DynamicDependencies deps;
    std::string error;
    ASSERT_TRUE(dace::plugin::read_dynamic_dependencies(file.string(), deps, error)) << error;
    EXPECT_FALSE(expected.empty()) << file;
    EXPECT_EQ(deps.needed, expected) << file;
  }
}

TEST(LibraryDependencies, RunPathWithOriginIsSearchedFromTheFilesFolder) {
  // librender_module_origin.so (tests/render_module) needs librender_module_absent_dep.so and
  // has the run path $ORIGIN/deps:$ORIGIN. Copied alone into a folder, its dependency is
  // nowhere; once a copy of that library is in the folder's deps/, it is found there.
  const fs::path fixtures = build_dir() / "tests" / "render_module";
  const fs::path dir = fresh_case_dir();
  const fs::path module = dir / "module.so";
  fs::copy_file(fixtures / "librender_module_origin.so", module);
  DynamicDependencies deps;
  std::string error;
  ASSERT_TRUE(dace::plugin::read_dynamic_dependencies(module.string(), deps, error)) << error;
  EXPECT_EQ(deps.search_dirs, (std::vector<std::string>{dir.string() + "/deps", dir.string()}));
  EXPECT_EQ(dace::plugin::unloadable_dependencies(module.string()),
            std::vector<std::string>{"librender_module_absent_dep.so"});
  fs::create_directories(dir / "deps");
  fs::copy_file(fixtures / "librender_module_absent_dep.so", dir / "deps" / "librender_module_absent_dep.so");
  EXPECT_TRUE(dace::plugin::unloadable_dependencies(module.string()).empty());
}

TEST(LibraryDependencies, OnlyTheDependencyThatIsNowhereIsUnloadable) {
  // The fixture module needs librender_module_absent_dep.so and has no run path
  // (tests/render_module): outside its folder nothing finds that library; libc and the rest are
  // loadable. libdace_rt.so's dependencies (libomp, libstdc++, libc) all load.
  const fs::path fake = build_dir() / "tests" / "render_module" / "librender_module_fake.so";
  EXPECT_EQ(dace::plugin::unloadable_dependencies(fake.string()),
            std::vector<std::string>{"librender_module_absent_dep.so"});
  EXPECT_TRUE(dace::plugin::unloadable_dependencies((build_dir() / "lib" / "libdace_rt.so").string()).empty());
}

TEST(LibraryDependencies, BadFilesAreRefusedNamingThePath) {
  const fs::path dir = fresh_case_dir();
  const fs::path text = dir / "text.so";
  std::ofstream(text) << "not an object\n";
  // The first 200 bytes of a real library: a valid header whose program headers and dynamic
  // section lie past the end.
  const fs::path truncated = dir / "truncated.so";
  {
    std::ifstream in(build_dir() / "lib" / "libdace_rt.so", std::ios::binary);
    std::string head(200, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    std::ofstream(truncated, std::ios::binary) << head;
  }
  const struct {
    fs::path file;
    std::string why;
  } cases[] = {{dir / "absent.so", "cannot be opened"},
               {text, "not an ELF file"},
               {truncated, "truncated"}};
  for (const auto& c : cases) {
    DynamicDependencies deps;
    deps.needed.push_back("stale");
    std::string error;
    EXPECT_FALSE(dace::plugin::read_dynamic_dependencies(c.file.string(), deps, error)) << c.file;
    EXPECT_NE(error.find(c.file.string()), std::string::npos) << error;
    EXPECT_NE(error.find(c.why), std::string::npos) << error;
    EXPECT_TRUE(deps.needed.empty());
    EXPECT_TRUE(dace::plugin::unloadable_dependencies(c.file.string()).empty());
  }
}

}  // namespace
