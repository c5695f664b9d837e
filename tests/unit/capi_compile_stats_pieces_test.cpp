// Parallel code generation in dace_compile_stats_t (version 4): `pieces`/`threads` of the
// first tier and `optimized_pieces`/`optimized_threads` of the optimized tier. References:
// a program far below the split threshold is one piece on one thread; for a split program
// both tiers' pieces are counted in the cache entry (a bundle of one ELF object per piece of
// the optimized tier, read with the bundle reader, not with the statistics; the first tier is
// cut by the same rule from the same module), and the threads are what DACE_JIT_THREADS
// allows, at most one per piece.
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "builder/api_internal.h"
#include "capi_program_test_util.h"
#include "jit/object_bundle.h"
#include "jit/object_cache.h"
#include "jit/session.h"
#include "scoped_env.h"

namespace {

namespace fs = std::filesystem;
using capi_test::make_axpb;
using test_support::ScopedEnv;

dace_compile_stats_t stats_of(dace_program_t* p) {
  dace_compile_stats_t st{};
  st.version = DACE_COMPILE_STATS_VERSION;
  EXPECT_DACE_OK(dace_program_compile_stats(&st, p));
  return st;
}

TEST(CApiCompileStatsPieces, SmallProgramIsOnePieceOnOneThreadInBothTiers) {
  dace_sdfg_t* sdfg = make_axpb("axpb_pieces");
  for (int tiered : {0, 1}) {
    dace_context_t* ctx = nullptr;
    ASSERT_DACE_OK(dace_context_create(&ctx));
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.tiered = tiered;
    o.wait_optimized = 1;
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
    const dace_compile_stats_t st = stats_of(p);
    ASSERT_LT(st.lowered_instructions, 3000u) << "the test needs a module below the split threshold";
    EXPECT_EQ(st.pieces, 1) << "tiered " << tiered;
    EXPECT_EQ(st.threads, 1) << "tiered " << tiered;
    if (tiered) {  // without tiers the optimized pair is the first pair by definition
      EXPECT_EQ(st.optimized_pieces, 1);
      EXPECT_EQ(st.optimized_threads, 1);
    }
    dace_program_release(p);
    dace_context_release(ctx);
  }
  dace_sdfg_release(sdfg);
}

TEST(CApiCompileStatsPieces, VersionThreeCallerGetsNoVersionFourFields) {
  dace_sdfg_t* sdfg = make_axpb("axpb_pieces_v3");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.tiered = 0;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  dace_compile_stats_t st{};
  st.version = 3;
  st.pieces = st.threads = st.optimized_pieces = st.optimized_threads = -7;
  ASSERT_DACE_OK(dace_program_compile_stats(&st, p));
  EXPECT_EQ(st.pieces, -7) << "a version 3 struct ends before the version 4 fields";
  EXPECT_EQ(st.optimized_threads, -7);
  dace_program_release(p);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

TEST(CApiCompileStatsPieces, SplitProgramCountsTheCachedPiecesAndItsThreads) {
  const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/heat_3d/heat_3d.simp.sdfg";
  if (!fs::exists(path)) GTEST_SKIP() << "no corpus file " << path;
  const fs::path dir = fs::temp_directory_path() / ("libdace_stats_pieces_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  // Small pieces, so that heat_3d is cut into several; two threads whatever the machine has.
  ScopedEnv piece_size("DACE_JIT_PIECE_INSTRUCTIONS", "500");
  ScopedEnv threads("DACE_JIT_THREADS", "2");
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_file(&sdfg, path.c_str()));
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  const std::string dir_text = dir.string();
  o.cache_dir = dir_text.c_str();
  o.wait_optimized = 1;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  const dace_compile_stats_t st = stats_of(p);
  EXPECT_EQ(st.tiered, 1);
  EXPECT_EQ(st.tier, 2);

  // The cache holds the optimized tier: one entry, a bundle of one object per piece.
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".dobj") entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  std::string target_id;
  {
    std::lock_guard<std::mutex> lock(ctx->jit_mutex);
    target_id = ctx->session->target().id();
  }
  dace::jit::ObjectCache cache(dir_text, target_id);
  auto object = cache.load(entries[0].stem().string());
  ASSERT_TRUE(object.ok() && object->has_value());
  auto parts = dace::jit::unbundle_objects(**object);
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  ASSERT_GT(parts->size(), 1u) << "heat_3d should be split at 500 instructions per piece";
  EXPECT_EQ(st.optimized_pieces, static_cast<int32_t>(parts->size()));
  EXPECT_EQ(st.optimized_threads, 2);
  // The first tier is cut by the same rule from the same module, so into as many pieces.
  EXPECT_EQ(st.pieces, static_cast<int32_t>(parts->size()));
  EXPECT_EQ(st.threads, 2);

  // A second context hits the cache: nothing compiled, no pieces.
  dace_context_t* ctx2 = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx2));
  dace_program_t* hit = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&hit, ctx2, sdfg, &o));
  const dace_compile_stats_t hs = stats_of(hit);
  EXPECT_EQ(hs.cache_hit, 1);
  EXPECT_EQ(hs.pieces, 0);
  EXPECT_EQ(hs.threads, 0);
  dace_program_release(hit);
  dace_context_release(ctx2);

  dace_program_release(p);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
  fs::remove_all(dir);
}

}  // namespace
