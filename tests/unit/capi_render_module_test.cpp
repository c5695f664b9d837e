// How dace_sdfg_render reports a renderer module it cannot use (docs/render.md): the module
// is looked for once per process in <folder of libdace.so>/libdace/, so each case runs in a
// child process (render_module_probe, tests/render_module) against a copy of libdace.so in
// a folder of its own (a link found first through LD_LIBRARY_PATH), with in its libdace/ folder
//   - nothing: "not there ... built or installed without", naming the path looked at;
//   - a module whose library is missing (fake_module.c needs absent_dep.c, not copied): "there
//     but cannot be loaded", naming the module's path and the missing library, and not
//     claiming a build without Graphviz;
//   - (Graphviz builds) the real module: drawn, which shows the copy is the libdace.so used.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "libdace.h"

namespace {

namespace fs = std::filesystem;

const fs::path& build_dir() {
  static const fs::path dir = LIBDACE_BINARY_DIR;
  return dir;
}

// A folder holding libdace.so under its SONAME, and libdace/ (empty). A symbolic link, as in
// an installed tree (libdace.so.0 -> libdace.so.X.Y.Z): libdace locates itself by the path
// the loader opened (dladdr), not by the link's target, and a copy would be 200 MB.
fs::path copy_of_libdace(const std::string& name) {
  const fs::path root = build_dir() / "tests" / "render_module_cases" / name;
  fs::remove_all(root);
  fs::create_directories(root / "lib" / "libdace");
  fs::create_symlink(fs::canonical(build_dir() / "lib" / "libdace.so.0"), root / "lib" / "libdace.so.0");
  return root / "lib";
}

// The probe's one line ("status N: message") with `lib` first on the library path.
std::string probe_with(const fs::path& lib) {
  const fs::path probe = build_dir() / "tests" / "render_module" / "render_module_probe";
  const std::string cmd = "LD_LIBRARY_PATH='" + lib.string() + "' '" + probe.string() + "' 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return "popen failed";
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  const int rc = pclose(pipe);
  if (rc != 0) out += " (probe exit status " + std::to_string(rc) + ")";
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kUnsupported = "status " + std::to_string(DACE_ERROR_UNSUPPORTED) + ": ";

TEST(CapiRenderModule, AbsentModuleIsReportedAsABuildWithoutTheRenderer) {
  const fs::path lib = copy_of_libdace("absent");
  const std::string out = probe_with(lib);
  const std::string module = (lib / "libdace" / "libdace_render.so").string();
  EXPECT_EQ(out.rfind(kUnsupported, 0), 0u) << out;
  EXPECT_TRUE(has(out, module + ", which is not there")) << out;
  EXPECT_TRUE(has(out, "built or installed without")) << out;
}

TEST(CapiRenderModule, ModuleWithAMissingLibraryNamesTheModuleAndTheLibrary) {
  const fs::path lib = copy_of_libdace("missing_library");
  const fs::path module = lib / "libdace" / "libdace_render.so";
  fs::copy_file(build_dir() / "tests" / "render_module" / "librender_module_fake.so", module);
  const std::string out = probe_with(lib);
  EXPECT_EQ(out.rfind(kUnsupported, 0), 0u) << out;
  EXPECT_TRUE(has(out, module.string() + ", which is there but cannot be loaded")) << out;
  EXPECT_TRUE(has(out, "the library librender_module_absent_dep.so it needs is missing or cannot be loaded")) << out;
  EXPECT_FALSE(has(out, "built or installed without")) << out;
}

TEST(CapiRenderModule, RealModuleNextToTheCopyDraws) {
  const fs::path real = build_dir() / "lib" / "libdace" / "libdace_render.so";
#ifdef LIBDACE_HAVE_GRAPHVIZ
  ASSERT_TRUE(fs::exists(real)) << "a Graphviz build has " << real;
#else
  if (!fs::exists(real)) GTEST_SKIP() << "no renderer module in this build (configured without Graphviz): " << real;
#endif
  const fs::path lib = copy_of_libdace("present");
  fs::create_symlink(fs::canonical(real), lib / "libdace" / "libdace_render.so");
  const std::string out = probe_with(lib);
  EXPECT_EQ(out, "status " + std::to_string(DACE_OK) + ": drawn\n");
}

}  // namespace
