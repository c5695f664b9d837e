// dace_program_ptx / dace_program_ptx_count (the C API's PTX of a program's GPU kernels):
// the text is the file `dace compile --ptx-out` takes from the dump folder, byte for byte,
// also from the fast tier and from the object cache (later compiles of the same process: the
// host's process-wide switch of loop strength reduction once changed their PTX, docs/jit.md);
// programs without PTX and indices past
// the modules are refused with a status that says which. Compiling for the GPU needs the
// plugin and LLVM's NVPTX backend, no driver.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "capi_program_test_util.h"
#include "cuda_test_support.h"
#include "libdace.h"
#include "test_paths.h"

namespace {

using dace::codegen::testing::cuda_plugin_path;
using dace::codegen::testing::read_file;
using dace::codegen::testing::temp_dir;

const std::string kSyrk = std::string(LIBDACE_CORPUS_DIR) + "/syrk/syrk.gpu.sdfg";

#define REQUIRE_PLUGIN_AND_CORPUS()                                                                  \
  do {                                                                                               \
    REQUIRE_CUDA_PLUGIN();                                                                           \
    if (!std::filesystem::exists(kSyrk)) GTEST_SKIP() << "corpus SDFG " << kSyrk << " not found";    \
  } while (0)

// A context that finds the CUDA plugin; `cache_dir` ("" = none) for its compiles.
struct Compiler {
  dace_context_t* ctx = nullptr;
  std::string cache_dir;
  explicit Compiler(std::string cache = "") : cache_dir(std::move(cache)) {
    EXPECT_EQ(dace_context_create(&ctx), DACE_OK);
    const std::string dir = std::filesystem::path(cuda_plugin_path()).parent_path().string();
    EXPECT_EQ(dace_context_set_option(ctx, "plugin_path", dir.c_str()), DACE_OK);
  }
  ~Compiler() { dace_context_release(ctx); }
  dace_program_t* compile(dace_sdfg_t* sdfg, const std::string& dump_dir = "", int32_t tiered = 1, int32_t emulate = 0) {
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.tiered = tiered;
    o.emulate_device = emulate;
    if (!dump_dir.empty()) o.dump_dir = dump_dir.c_str();
    if (!cache_dir.empty()) o.cache_dir = cache_dir.c_str();
    dace_program_t* p = nullptr;
    EXPECT_EQ(dace_program_compile(&p, ctx, sdfg, &o), DACE_OK) << dace_last_error_message();
    return p;
  }
};

dace_sdfg_t* load(const std::string& file) {
  dace_sdfg_t* g = nullptr;
  EXPECT_EQ(dace_sdfg_load_file(&g, file.c_str()), DACE_OK) << dace_last_error_message();
  return g;
}

size_t ptx_count(const dace_program_t* p) {
  size_t n = 99;
  EXPECT_EQ(dace_program_ptx_count(&n, p), DACE_OK) << dace_last_error_message();
  return n;
}

std::string ptx_text(const dace_program_t* p) {
  const char* text = nullptr;
  size_t size = 0;
  EXPECT_EQ(dace_program_ptx(&text, &size, p, 0), DACE_OK) << dace_last_error_message();
  if (!text) return "";
  EXPECT_EQ(text[size], '\0');
  return std::string(text, size);
}

TEST(CudaProgramPtx, TextIsThePtxOutFileFromEveryCompilePath) {
  REQUIRE_PLUGIN_AND_CORPUS();
  dace_sdfg_t* g = load(kSyrk);
  ASSERT_NE(g, nullptr);
  const char* name = nullptr;
  ASSERT_EQ(dace_sdfg_get_name(&name, g), DACE_OK);
  const std::string sdfg_name = name;

  // A dump folder is what `dace compile --ptx-out` reads <sdfg>.ptx from.
  const std::string dump = temp_dir("program_ptx_dump");
  Compiler plain;
  dace_program_t* dumped = plain.compile(g, dump);
  ASSERT_NE(dumped, nullptr);
  const std::string file = read_file(dump + "/" + sdfg_name + ".ptx");
  ASSERT_FALSE(file.empty()) << "no " << sdfg_name << ".ptx in " << dump;
  EXPECT_EQ(ptx_count(dumped), 1u);
  EXPECT_EQ(ptx_text(dumped), file);
  EXPECT_NE(file.find(".visible .entry __dace_kernel_"), std::string::npos);
  dace_program_release(dumped);

  // Without a dump: the first tier's module holds the same text (read at compile time).
  dace_program_t* tiered = plain.compile(g);
  ASSERT_NE(tiered, nullptr);
  EXPECT_EQ(ptx_text(tiered), file);
  dace_program_release(tiered);

  // From the object cache: the text comes with the cached object.
  const std::string cache = temp_dir("program_ptx_cache");
  {
    Compiler cached(cache);
    dace_program_t* miss = cached.compile(g, "", /*tiered=*/0);
    ASSERT_NE(miss, nullptr);
    dace_program_t* hit = cached.compile(g, "", /*tiered=*/0);
    ASSERT_NE(hit, nullptr);
    dace_compile_stats_t s{};
    s.version = DACE_COMPILE_STATS_VERSION;
    ASSERT_EQ(dace_program_compile_stats(&s, hit), DACE_OK);
    EXPECT_EQ(s.cache_hit, 1);
    EXPECT_EQ(ptx_text(miss), file);
    EXPECT_EQ(ptx_text(hit), file);
    dace_program_release(miss);
    dace_program_release(hit);
  }
  dace_sdfg_release(g);
  std::filesystem::remove_all(dump);
  std::filesystem::remove_all(cache);
}

TEST(CudaProgramPtx, ProgramsWithoutPtxSaySo) {
  REQUIRE_PLUGIN_AND_CORPUS();
  Compiler c;
  dace_sdfg_t* cpu = capi_test::make_axpb("ptx_none_axpb");
  dace_sdfg_t* gpu = load(kSyrk);
  ASSERT_NE(gpu, nullptr);
  dace_program_t* host_only = c.compile(cpu);
  dace_program_t* emulated = c.compile(gpu, "", 1, /*emulate=*/1);
  ASSERT_NE(host_only, nullptr);
  ASSERT_NE(emulated, nullptr);
  for (dace_program_t* p : {host_only, emulated}) {
    EXPECT_EQ(ptx_count(p), 0u);
    const char* text = "untouched";
    size_t size = 7;
    EXPECT_EQ(dace_program_ptx(&text, &size, p, 0), DACE_ERROR_NOT_FOUND);
    EXPECT_NE(std::string(dace_last_error_message()).find("no PTX module"), std::string::npos)
        << dace_last_error_message();
    EXPECT_STREQ(text, "untouched");
    EXPECT_EQ(size, 7u);
  }
  dace_program_release(host_only);
  dace_program_release(emulated);
  dace_sdfg_release(cpu);
  dace_sdfg_release(gpu);
}

TEST(CudaProgramPtx, BadIndexAndMissingPointersAreNamed) {
  REQUIRE_PLUGIN_AND_CORPUS();
  Compiler c;
  dace_sdfg_t* g = load(kSyrk);
  ASSERT_NE(g, nullptr);
  dace_program_t* p = c.compile(g);
  ASSERT_NE(p, nullptr);
  const char* text = nullptr;
  EXPECT_EQ(dace_program_ptx(&text, nullptr, p, 1), DACE_ERROR_NOT_FOUND);
  EXPECT_NE(std::string(dace_last_error_message()).find("index 1 out of range (the program holds 1)"), std::string::npos)
      << dace_last_error_message();
  EXPECT_EQ(text, nullptr);
  EXPECT_EQ(dace_program_ptx(nullptr, nullptr, p, 0), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dace_last_error_message()).find("out_text"), std::string::npos) << dace_last_error_message();
  EXPECT_EQ(dace_program_ptx(&text, nullptr, nullptr, 0), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_program_ptx_count(nullptr, p), DACE_ERROR_INVALID_ARGUMENT);
  size_t n = 0;
  EXPECT_EQ(dace_program_ptx_count(&n, nullptr), DACE_ERROR_INVALID_ARGUMENT);
  // Without out_size the text is still given (NUL-terminated).
  EXPECT_EQ(dace_program_ptx(&text, nullptr, p, 0), DACE_OK);
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(std::string(text).rfind("//", 0), 0u);
  dace_program_release(p);
  dace_sdfg_release(g);
}

}  // namespace
