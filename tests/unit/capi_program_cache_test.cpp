// The object cache, dumps and plugin discovery through the C API: which options make a new
// cache entry, hits in fresh contexts without lowering, damaged entries, deterministic IR.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "capi_program_test_util.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace {

namespace fs = std::filesystem;
using capi_test::call_axpb;
using capi_test::make_axpb;

std::string fresh_dir(const std::string& tag) {
  fs::path dir = fs::temp_directory_path() / ("libdace_capi_cache_" + tag + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir.string();
}

// Names of the cache entries (<key>.dobj) in `dir`.
std::set<std::string> entries(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".dobj") out.insert(e.path().filename().string());
  return out;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Calls an axpb program and checks B against a plain loop.
void expect_axpb(dace_program_t* p, double factor, int64_t n = 29) {
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), -1.0);
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = 0.25 * static_cast<double>(i) - 2;
  const double s = 0.5;
  ASSERT_DACE_OK(call_axpb(p, a, b, s));
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_DOUBLE_EQ(b[i], a[i] * factor + s) << i;
  }
}

dace_compile_stats_t stats_of(dace_program_t* p) {
  dace_compile_stats_t st{};
  st.version = DACE_COMPILE_STATS_VERSION;
  EXPECT_DACE_OK(dace_program_compile_stats(&st, p));
  return st;
}

// Compiles in a new context; returns the program's stats (and checks the result).
dace_compile_stats_t compile_fresh(dace_sdfg_t* sdfg, const dace_compile_options_t& o, double factor = 2) {
  dace_context_t* ctx = nullptr;
  EXPECT_DACE_OK(dace_context_create(&ctx));
  dace_program_t* p = nullptr;
  EXPECT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  dace_compile_stats_t st{};
  if (p) {
    st = stats_of(p);
    expect_axpb(p, factor);
  }
  dace_program_release(p);
  dace_context_release(ctx);
  return st;
}

TEST(CApiProgramCache, EveryCodegenOptionMakesItsOwnEntry) {
  const std::string dir = fresh_dir("options");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("axpb");
  dace_sdfg_t* other = make_axpb("axpb", "3");
  dace_sdfg_t* renamed = make_axpb("axpb_renamed");

  dace_compile_options_t base = DACE_COMPILE_OPTIONS_INIT;
  base.opt_level = 1;
  base.cache_dir = dir.c_str();
  struct Variant {
    const char* what;
    dace_compile_options_t o;
    dace_sdfg_t* sdfg;
    double factor;
  };
  std::vector<Variant> variants{{"base", base, sdfg, 2}};
  variants.push_back({"opt_level", base, sdfg, 2});
  variants.back().o.opt_level = 2;
  variants.push_back({"fast_math", base, sdfg, 2});
  variants.back().o.fast_math = 1;
  variants.push_back({"num_threads", base, sdfg, 2});
  variants.back().o.num_threads = 3;
  variants.push_back({"sdfg content", base, other, 3});
  variants.push_back({"sdfg name", base, renamed, 2});
  // The optimizer step's fingerprint is part of the key (the SDFG's hash is the input's).
  variants.push_back({"optimize", base, sdfg, 2});
  variants.back().o.optimize = "simplify";

  // First round: every variant misses and adds its own entry. Second round, the same
  // options again: hits, no new entries.
  std::set<std::string> seen;
  for (int hit : {0, 1}) {
    for (const Variant& v : variants) {
      SCOPED_TRACE(v.what);
      dace_program_t* p = nullptr;
      ASSERT_DACE_OK(dace_program_compile(&p, ctx, v.sdfg, &v.o));
      EXPECT_EQ(stats_of(p).cache_hit, hit);
      expect_axpb(p, v.factor);
      dace_program_release(p);
      if (hit) continue;
      std::set<std::string> now = entries(dir);
      EXPECT_EQ(now.size(), seen.size() + 1) << "no new cache entry";
      seen = now;
    }
  }
  EXPECT_EQ(entries(dir), seen);
  // A dump directory does not change the code: same key (the entry is rewritten, not added).
  const std::string dumps = fresh_dir("options_dump");
  dace_compile_options_t with_dump = base;
  with_dump.dump_dir = dumps.c_str();
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &with_dump));
  dace_program_release(p);
  EXPECT_EQ(entries(dir), seen);

  dace_sdfg_release(renamed);
  dace_sdfg_release(other);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
  fs::remove_all(dir);
  fs::remove_all(dumps);
}

TEST(CApiProgramCache, SameSdfgInTwoContextsGivesTheSameKeyAndIr) {
  const std::string c1 = fresh_dir("det1"), c2 = fresh_dir("det2");
  const std::string d1 = fresh_dir("dump1"), d2 = fresh_dir("dump2");
  dace_sdfg_t* sdfg = make_axpb("axpb");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 2;
  o.cache_dir = c1.c_str();
  o.dump_dir = d1.c_str();
  compile_fresh(sdfg, o);
  // A second SDFG handle with the same content, built separately.
  dace_sdfg_t* again = make_axpb("axpb");
  o.cache_dir = c2.c_str();
  o.dump_dir = d2.c_str();
  compile_fresh(again, o);

  EXPECT_EQ(entries(c1).size(), 1u);
  EXPECT_EQ(entries(c1), entries(c2));
  const std::string ll1 = read_all(d1 + "/axpb.ll"), ll2 = read_all(d2 + "/axpb.ll");
  ASSERT_FALSE(ll1.empty());
  EXPECT_TRUE(ll1 == ll2) << "IR differs between two compiles of the same SDFG";
  const std::string s1 = read_all(d1 + "/axpb.s");
  ASSERT_FALSE(s1.empty());
  for (const char* entry : {"__dace_init_axpb", "__program_axpb", "__dace_exit_axpb"}) {
    EXPECT_NE(ll1.find(entry), std::string::npos) << entry;
    EXPECT_NE(s1.find(entry), std::string::npos) << entry;
  }
  EXPECT_EQ(s1, read_all(d2 + "/axpb.s"));
  dace_sdfg_release(again);
  dace_sdfg_release(sdfg);
  for (const auto& d : {c1, c2, d1, d2}) fs::remove_all(d);
}

// num_threads is per program: baked into its parallel_for calls, not set process-wide.
TEST(CApiProgramCache, NumThreadsIsBakedIntoEachProgram) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = make_axpb("axpb");
  std::vector<std::string> calls;
  std::vector<dace_program_t*> programs;
  for (int threads : {3, 5, 0}) {
    const std::string dumps = fresh_dir("threads" + std::to_string(threads));
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.opt_level = 0;
    o.num_threads = threads;
    o.dump_dir = dumps.c_str();
    programs.push_back(nullptr);
    ASSERT_DACE_OK(dace_program_compile(&programs.back(), ctx, sdfg, &o));
    const std::string ll = read_all(dumps + "/axpb.ll");
    size_t at = ll.find("call void @dace_cpu_parallel_for(");
    ASSERT_NE(at, std::string::npos) << ll;
    calls.push_back(ll.substr(at, ll.find('\n', at) - at));
    fs::remove_all(dumps);
  }
  // The last parameter is the thread count (codegen/options.h).
  EXPECT_NE(calls[0].find("i32 3)"), std::string::npos) << calls[0];
  EXPECT_NE(calls[1].find("i32 5)"), std::string::npos) << calls[1];
  EXPECT_NE(calls[2].find("i32 0)"), std::string::npos) << calls[2];
  // Programs with different counts coexist and compute the same.
  for (dace_program_t* p : programs) expect_axpb(p, 2, 4096);
  for (dace_program_t* p : programs) dace_program_release(p);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

TEST(CApiProgramCache, DamagedEntryFallsBackToAFullCompile) {
  const std::string dir = fresh_dir("damaged");
  dace_sdfg_t* sdfg = make_axpb("axpb");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 1;
  o.cache_dir = dir.c_str();
  EXPECT_EQ(compile_fresh(sdfg, o).cache_hit, 0);
  ASSERT_EQ(entries(dir).size(), 1u);
  const std::string file = dir + "/" + *entries(dir).begin();
  const std::string good = read_all(file);
  ASSERT_GT(good.size(), 200u);

  // Flipped bytes in the object, then a truncated file: both recompile, and the recompile
  // repairs the entry so that the next fresh context hits again.
  std::string flipped = good;
  for (size_t i = good.size() / 2; i < good.size() / 2 + 16; ++i) flipped[i] = static_cast<char>(~flipped[i]);
  for (const std::string& damaged : {flipped, good.substr(0, good.size() / 3), std::string()}) {
    write_all(file, damaged);
    dace_compile_stats_t st = compile_fresh(sdfg, o);
    EXPECT_EQ(st.cache_hit, 0);
    EXPECT_GT(st.lower_ms, 0.0);
    EXPECT_EQ(read_all(file), good);
    EXPECT_EQ(compile_fresh(sdfg, o).cache_hit, 1);
  }
  dace_sdfg_release(sdfg);
  fs::remove_all(dir);
}

TEST(CApiProgramCache, ForeignObjectUnderTheKeyFallsBackToAFullCompile) {
  // An intact entry whose object lacks this program's entry points (another SDFG's object
  // copied under its name) must not be used.
  const std::string dir = fresh_dir("foreign");
  dace_sdfg_t* mine = make_axpb("axpb");
  dace_sdfg_t* foreign = make_axpb("other", "5");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 1;
  o.cache_dir = dir.c_str();
  compile_fresh(mine, o);
  const std::string mine_file = dir + "/" + *entries(dir).begin();
  const std::string good = read_all(mine_file);
  compile_fresh(foreign, o, 5);
  ASSERT_EQ(entries(dir).size(), 2u);
  std::string foreign_file;
  for (const auto& e : entries(dir))
    if (dir + "/" + e != mine_file) foreign_file = dir + "/" + e;
  write_all(mine_file, read_all(foreign_file));

  dace_compile_stats_t st = compile_fresh(mine, o);
  EXPECT_EQ(st.cache_hit, 0);
  EXPECT_EQ(read_all(mine_file), good);
  EXPECT_EQ(compile_fresh(mine, o).cache_hit, 1);
  dace_sdfg_release(foreign);
  dace_sdfg_release(mine);
  fs::remove_all(dir);
}

// Corpus kernels compiled once hit the cache in every fresh context that compiles them again
// (how long a hit takes is measured by bench/bench_corpus, not asserted here).
TEST(CApiProgramCache, CorpusKernelsHitTheCacheInFreshContexts) {
  const std::string dir = fresh_dir("corpus");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 1;
  o.cache_dir = dir.c_str();
  int found = 0;
  for (const char* kernel : {"gemm", "heat_3d", "softmax"}) {
    const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/" + kernel + "/" + kernel + ".simp.sdfg";
    if (!fs::exists(path)) continue;
    ++found;
    dace_sdfg_t* sdfg = nullptr;
    ASSERT_DACE_OK(dace_sdfg_load_file(&sdfg, path.c_str()));
    for (int round = 0; round < 3; ++round) {
      dace_context_t* ctx = nullptr;
      ASSERT_DACE_OK(dace_context_create(&ctx));
      dace_program_t* p = nullptr;
      ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
      EXPECT_EQ(stats_of(p).cache_hit, round > 0 ? 1 : 0) << kernel << " round " << round;
      dace_program_release(p);
      dace_context_release(ctx);
    }
    dace_sdfg_release(sdfg);
  }
  if (found == 0) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  fs::remove_all(dir);
}

TEST(CApiProgramPlugins, NoPluginFoundNamesWhereItSearched) {
  const std::string empty = fresh_dir("noplugins");
  fs::create_directories(empty);
  dace_sdfg_t* sdfg = make_axpb("axpb");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  const std::string path = empty + ":/nonexistent/libdace-plugins";
  ASSERT_DACE_OK(dace_context_set_option(ctx, "plugin_path", path.c_str()));
  dace_program_t* p = nullptr;
  EXPECT_DACE_ERROR(dace_program_compile(&p, ctx, sdfg, nullptr), DACE_ERROR_PLUGIN_UNAVAILABLE, empty);
  EXPECT_NE(std::string(dace_last_error_message()).find("/nonexistent/libdace-plugins"), std::string::npos);
  EXPECT_EQ(p, nullptr);
  dace_context_release(ctx);

  // A file that looks like a plugin but is not one: its failure is part of the message.
  write_all(empty + "/libdace_plugin_bogus.so", "not an ELF file");
  ASSERT_DACE_OK(dace_context_create(&ctx));
  ASSERT_DACE_OK(dace_context_set_option(ctx, "plugin_path", empty.c_str()));
  EXPECT_DACE_ERROR(dace_program_compile(&p, ctx, sdfg, nullptr), DACE_ERROR_PLUGIN_UNAVAILABLE,
                    "libdace_plugin_bogus.so");
  dace_context_release(ctx);

  ASSERT_DACE_OK(dace_context_create(&ctx));
  ASSERT_DACE_OK(dace_context_set_option(ctx, "plugin_path", ""));
  EXPECT_DACE_ERROR(dace_program_compile(&p, ctx, sdfg, nullptr), DACE_ERROR_PLUGIN_UNAVAILABLE, "plugin_path");
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
  fs::remove_all(empty);
}

TEST(CApiProgramPlugins, PluginPathOptionFindsThePlugin) {
  // The build tree's plugin folder, named explicitly, works like the default search.
  const std::string dir = std::string(LIBDACE_BINARY_DIR) + "/lib/libdace/plugins";
  if (!fs::exists(dir + "/libdace_plugin_cpu.so")) GTEST_SKIP() << "no CPU plugin in " << dir;
  dace_sdfg_t* sdfg = make_axpb("axpb");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  ASSERT_DACE_OK(dace_context_set_option(ctx, "plugin_path", ("/nonexistent:" + dir).c_str()));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 0;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  expect_axpb(p, 2);
  dace_program_release(p);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

}  // namespace

namespace {

// Two programs with the same name and signature (B = 2A + s and B = 3A + s): their cache
// files swapped, each compile must miss and recompile its own code (an entry is bound to
// its key), never run the other program's.
TEST(CApiProgramCache, SwappedEntriesAreMissesNotTheOtherProgram) {
  const std::string dir = fresh_dir("swap");
  dace_sdfg_t* two = make_axpb("axpb_swap", "2");
  dace_sdfg_t* three = make_axpb("axpb_swap", "3");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 1;
  o.cache_dir = dir.c_str();
  EXPECT_EQ(compile_fresh(two, o, 2).cache_hit, 0);
  std::set<std::string> after_two = entries(dir);
  EXPECT_EQ(compile_fresh(three, o, 3).cache_hit, 0);
  std::set<std::string> all = entries(dir);
  ASSERT_EQ(after_two.size(), 1u);
  ASSERT_EQ(all.size(), 2u);
  const std::string key_two = dir + "/" + *after_two.begin();
  all.erase(*after_two.begin());
  const std::string key_three = dir + "/" + *all.begin();
  // Both are hits before the swap.
  EXPECT_EQ(compile_fresh(two, o, 2).cache_hit, 1);
  EXPECT_EQ(compile_fresh(three, o, 3).cache_hit, 1);
  const std::string bytes_two = read_all(key_two), bytes_three = read_all(key_three);
  write_all(key_two, bytes_three);
  write_all(key_three, bytes_two);
  // compile_fresh checks the results against 2A + s and 3A + s.
  EXPECT_EQ(compile_fresh(two, o, 2).cache_hit, 0);
  EXPECT_EQ(compile_fresh(three, o, 3).cache_hit, 0);
  // The recompiles rewrote both entries: hits again, each with its own code.
  EXPECT_EQ(compile_fresh(two, o, 2).cache_hit, 1);
  EXPECT_EQ(compile_fresh(three, o, 3).cache_hit, 1);
  dace_sdfg_release(two);
  dace_sdfg_release(three);
  fs::remove_all(dir);
}

}  // namespace

// A program's key lists only its own library classes' implementations: compiling a GPU program
// first (which makes the context load the CUDA plugin and its cuBLAS lowerings) must not change
// the key of a host program compiled after it in the same context.
TEST(CApiProgramCache, KeyDoesNotDependOnPluginsLoadedBefore) {
  const std::string dir = fresh_dir("history");
  dace_sdfg_t* host = make_axpb("axpb");
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 1;
  o.cache_dir = dir.c_str();
  EXPECT_EQ(compile_fresh(host, o).cache_hit, 0);
  ASSERT_EQ(entries(dir).size(), 1u);

  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* gpu = nullptr;
  const std::string gpu_path = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.gpu.sdfg";
  ASSERT_DACE_OK(dace_sdfg_load_file(&gpu, gpu_path.c_str()));
  dace_compile_options_t go = o;
  go.emulate_device = 1;
  dace_program_t* gp = nullptr;
  if (dace_program_compile(&gp, ctx, gpu, &go) != DACE_OK) {
    const std::string why = dace_last_error_message();
    dace_sdfg_release(gpu);
    dace_sdfg_release(host);
    dace_context_release(ctx);
    fs::remove_all(dir);
    GTEST_SKIP() << "the GPU program does not compile here (no CUDA plugin?): " << why;
  }
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, host, &o));
  EXPECT_EQ(stats_of(p).cache_hit, 1) << "the host program's key changed after a GPU program loaded its plugin";
  expect_axpb(p, 2);
  dace_program_release(p);
  dace_program_release(gp);
  dace_sdfg_release(gpu);
  dace_sdfg_release(host);
  dace_context_release(ctx);
  fs::remove_all(dir);
}
