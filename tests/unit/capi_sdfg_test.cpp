// C API: version, status, errors, context, SDFG lifecycle, load/save, equality, hash, validate.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "capi_test_util.h"

using capi_test::SdfgTest;

namespace {

std::string temp_dir() {
  const char* base = std::getenv("TMPDIR");
  std::string dir = std::string(base ? base : "/tmp") + "/libdace_capi_test_XXXXXX";
  char* made = mkdtemp(dir.data());
  return made ? std::string(made) : std::string("/tmp");
}

}  // namespace

TEST(CapiVersion, MacrosMatchLibrary) {
  EXPECT_EQ(dace_version_number(), static_cast<uint32_t>(DACE_VERSION_NUMBER));
  std::string expected = std::to_string(DACE_VERSION_MAJOR) + "." + std::to_string(DACE_VERSION_MINOR) + "." +
                         std::to_string(DACE_VERSION_PATCH);
  EXPECT_EQ(std::string(dace_version()), expected);
}

TEST(CapiStatus, StringsAndCodes) {
  EXPECT_STREQ(dace_status_string(DACE_OK), "ok");
  EXPECT_STREQ(dace_status_string(DACE_ERROR_NOT_FOUND), "not found");
  EXPECT_STREQ(dace_status_string(DACE_ERROR_ALREADY_EXISTS), "already exists");
  EXPECT_STREQ(dace_status_string(static_cast<dace_status_t>(1000)), "unknown status");
  EXPECT_EQ(DACE_ERROR_INTERNAL, 12);
  EXPECT_EQ(DACE_ERROR_PARSE, 5);
}

TEST(CapiStatus, LastErrorIsPerThreadAndKeptOnSuccess) {
  dace_clear_last_error();
  EXPECT_EQ(dace_last_error_status(), DACE_OK);
  EXPECT_STREQ(dace_last_error_message(), "");
  EXPECT_EQ(dace_sdfg_create(nullptr, "x"), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_last_error_status(), DACE_ERROR_INVALID_ARGUMENT);
  std::string main_message = dace_last_error_message();
  EXPECT_FALSE(main_message.empty());
  std::string other;
  std::thread t([&] { other = dace_last_error_message(); });
  t.join();
  EXPECT_EQ(other, "");
  dace_sdfg_t* s = nullptr;
  ASSERT_EQ(dace_sdfg_create(&s, "ok"), DACE_OK);
  EXPECT_EQ(std::string(dace_last_error_message()), main_message);
  dace_sdfg_release(s);
}

TEST(CapiOptions, InitFunctionsMatchMacros) {
  dace_array_options_t a;
  std::memset(&a, 0x5a, sizeof a);
  ASSERT_DACE_OK(dace_array_options_init(&a, DACE_ARRAY_OPTIONS_VERSION));
  EXPECT_EQ(a.version, 1u);
  EXPECT_EQ(a.strides, nullptr);
  EXPECT_EQ(a.storage, DACE_STORAGE_DEFAULT);
  dace_map_options_t m;
  ASSERT_DACE_OK(dace_map_options_init(&m, DACE_MAP_OPTIONS_VERSION));
  EXPECT_EQ(m.collapse, 1);
  EXPECT_EQ(m.schedule, DACE_SCHEDULE_DEFAULT);
  dace_memlet_options_t mo;
  ASSERT_DACE_OK(dace_memlet_options_init(&mo, DACE_MEMLET_OPTIONS_VERSION));
  EXPECT_EQ(mo.wcr, nullptr);
  dace_save_options_t so;
  ASSERT_DACE_OK(dace_save_options_init(&so, DACE_SAVE_OPTIONS_VERSION));
  EXPECT_EQ(so.gzip, 0);
  dace_mapped_tasklet_options_t mt;
  ASSERT_DACE_OK(dace_mapped_tasklet_options_init(&mt, DACE_MAPPED_TASKLET_OPTIONS_VERSION));
  EXPECT_EQ(mt.external_edges, 0);
  EXPECT_EQ(dace_array_options_init(nullptr, DACE_ARRAY_OPTIONS_VERSION), DACE_ERROR_INVALID_ARGUMENT);
}

TEST(CapiContext, OptionsRoundTrip) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  ASSERT_DACE_OK(dace_context_set_option(ctx, "opt_level", "3"));
  const char* v = nullptr;
  ASSERT_DACE_OK(dace_context_get_option(&v, ctx, "opt_level"));
  EXPECT_STREQ(v, "3");
  ASSERT_DACE_OK(dace_context_set_option(ctx, "opt_level", nullptr));
  EXPECT_DACE_ERROR(dace_context_get_option(&v, ctx, "opt_level"), DACE_ERROR_NOT_FOUND, "opt_level");
  EXPECT_EQ(dace_context_set_option(nullptr, "a", "b"), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_context_set_option(ctx, "", "b"), DACE_ERROR_INVALID_ARGUMENT);
  dace_context_release(ctx);
  dace_context_release(nullptr);
}

TEST(CapiContext, UsableFromManyThreads) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([ctx, i] {
      std::string key = "k" + std::to_string(i);
      for (int j = 0; j < 200; ++j) {
        EXPECT_EQ(dace_context_set_option(ctx, key.c_str(), std::to_string(j).c_str()), DACE_OK);
        const char* v = nullptr;
        EXPECT_EQ(dace_context_get_option(&v, ctx, key.c_str()), DACE_OK);
        EXPECT_EQ(std::string(v), std::to_string(j));
      }
    });
  for (auto& t : threads) t.join();
  dace_context_release(ctx);
}

TEST(CapiSdfg, CreateNameAndErrors) {
  dace_sdfg_t* s = nullptr;
  EXPECT_DACE_ERROR(dace_sdfg_create(&s, "1abc"), DACE_ERROR_INVALID_ARGUMENT, "\"1abc\"");
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(dace_sdfg_create(&s, nullptr), DACE_ERROR_INVALID_ARGUMENT);
  ASSERT_DACE_OK(dace_sdfg_create(&s, "prog"));
  const char* name = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_name(&name, s));
  EXPECT_STREQ(name, "prog");
  ASSERT_DACE_OK(dace_sdfg_set_name(s, "renamed"));
  ASSERT_DACE_OK(dace_sdfg_get_name(&name, s));
  EXPECT_STREQ(name, "renamed");
  EXPECT_EQ(dace_sdfg_set_name(s, "no spaces"), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_get_name(nullptr, s), DACE_ERROR_INVALID_ARGUMENT);
  dace_sdfg_release(s);
}

TEST_F(SdfgTest, BorrowedStringsStayValidWithinOneCall) {
  const char* src_conn = nullptr;
  const char* dst_conn = nullptr;
  dace_id_t a = -1, t = -1, e = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a, sdfg, state, "B"));
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "t", "x", "y", "y = x", DACE_LANGUAGE_PYTHON));
  ASSERT_DACE_OK(dace_state_add_edge(&e, sdfg, state, a, nullptr, t, "x", "B[0]", nullptr));
  dace_id_t s = -1, d = -1;
  ASSERT_DACE_OK(dace_edge_get_endpoints(&s, &src_conn, &d, &dst_conn, sdfg, state, e));
  EXPECT_EQ(s, a);
  EXPECT_EQ(d, t);
  EXPECT_STREQ(src_conn, "");
  EXPECT_STREQ(dst_conn, "x");
}

TEST_F(SdfgTest, CloneIsDeepAndEqual) {
  dace_sdfg_t* copy = nullptr;
  ASSERT_DACE_OK(dace_sdfg_clone(&copy, sdfg));
  int32_t eq = 0;
  ASSERT_DACE_OK(dace_sdfg_equal(&eq, nullptr, sdfg, copy));
  EXPECT_EQ(eq, 1);
  ASSERT_DACE_OK(dace_sdfg_add_symbol(copy, "K", DACE_INT32));
  const char* diff = nullptr;
  ASSERT_DACE_OK(dace_sdfg_equal(&eq, &diff, sdfg, copy));
  EXPECT_EQ(eq, 0);
  EXPECT_NE(std::string(diff), "");
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_symbol_count(&n, sdfg));
  EXPECT_EQ(n, 2u);
  dace_sdfg_release(copy);
  EXPECT_EQ(dace_sdfg_clone(nullptr, sdfg), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_clone(&copy, nullptr), DACE_ERROR_INVALID_ARGUMENT);
}

TEST_F(SdfgTest, JsonStringRoundTrip) {
  dace_id_t t = -1;
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&t, nullptr, nullptr, sdfg, state, "double", "i=0:N", "x: B[i]",
                                               "y = 2 * x", "y: B[i]", nullptr));
  char* json = nullptr;
  ASSERT_DACE_OK(dace_sdfg_to_json(&json, sdfg, nullptr));
  ASSERT_NE(json, nullptr);
  EXPECT_NE(std::string(json).find("\"double\""), std::string::npos);
  dace_sdfg_t* back = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_string(&back, json));
  dace_string_free(json);
  int32_t eq = 0;
  ASSERT_DACE_OK(dace_sdfg_equal(&eq, nullptr, sdfg, back));
  EXPECT_EQ(eq, 1);
  char h1[65], h2[65];
  ASSERT_DACE_OK(dace_sdfg_hash(h1, sdfg));
  ASSERT_DACE_OK(dace_sdfg_hash(h2, back));
  EXPECT_STREQ(h1, h2);
  EXPECT_EQ(std::strlen(h1), 64u);
  EXPECT_EQ(std::string(h1).find_first_not_of("0123456789abcdef"), std::string::npos);
  dace_sdfg_release(back);
}

TEST_F(SdfgTest, CompactAndGzipBuffers) {
  dace_save_options_t o = DACE_SAVE_OPTIONS_INIT;
  o.compact = 1;
  char* json = nullptr;
  ASSERT_DACE_OK(dace_sdfg_to_json(&json, sdfg, &o));
  EXPECT_EQ(std::string(json).find('\n'), std::string::npos);
  dace_string_free(json);
  o.gzip = 1;
  EXPECT_EQ(dace_sdfg_to_json(&json, sdfg, &o), DACE_ERROR_INVALID_ARGUMENT);
  void* data = nullptr;
  size_t size = 0;
  ASSERT_DACE_OK(dace_sdfg_save_buffer(&data, &size, sdfg, &o));
  ASSERT_GT(size, 2u);
  EXPECT_EQ(static_cast<unsigned char*>(data)[0], 0x1f);  // gzip magic
  EXPECT_EQ(static_cast<unsigned char*>(data)[1], 0x8b);
  dace_sdfg_t* back = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_buffer(&back, data, size));
  dace_buffer_free(data);
  int32_t eq = 0;
  ASSERT_DACE_OK(dace_sdfg_equal(&eq, nullptr, sdfg, back));
  EXPECT_EQ(eq, 1);
  dace_sdfg_release(back);
  o.version = 77;
  EXPECT_DACE_ERROR(dace_sdfg_save_buffer(&data, &size, sdfg, &o), DACE_ERROR_INVALID_ARGUMENT, "version 77");
}

TEST_F(SdfgTest, FileRoundTripPlainAndGzip) {
  std::string dir = temp_dir();
  for (const char* ext : {".sdfg", ".sdfgz"}) {
    std::string path = dir + "/t" + ext;
    ASSERT_DACE_OK(dace_sdfg_save_file(sdfg, path.c_str(), nullptr));
    std::ifstream f(path, std::ios::binary);
    int first = f.get();
    EXPECT_EQ(first, std::string(ext) == ".sdfgz" ? 0x1f : '{');
    dace_sdfg_t* back = nullptr;
    ASSERT_DACE_OK(dace_sdfg_load_file(&back, path.c_str()));
    int32_t eq = 0;
    ASSERT_DACE_OK(dace_sdfg_equal(&eq, nullptr, sdfg, back));
    EXPECT_EQ(eq, 1) << ext;
    dace_sdfg_release(back);
    std::remove(path.c_str());
  }
  dace_sdfg_t* none = nullptr;
  EXPECT_DACE_ERROR(dace_sdfg_load_file(&none, (dir + "/missing.sdfg").c_str()), DACE_ERROR_IO, "missing.sdfg");
  EXPECT_EQ(none, nullptr);
  std::remove(dir.c_str());
}

TEST(CapiLoad, MalformedJsonIsParseError) {
  dace_sdfg_t* s = nullptr;
  EXPECT_EQ(dace_sdfg_load_string(&s, "{\"type\": \"SDFG\", "), DACE_ERROR_PARSE);
  EXPECT_GT(dace_last_error_column(), 0);
  EXPECT_EQ(s, nullptr);
  EXPECT_EQ(dace_sdfg_load_string(&s, nullptr), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_load_buffer(&s, nullptr, 3), DACE_ERROR_INVALID_ARGUMENT);
}

TEST(CapiLoad, CorpusFileLoadsValidatesAndRoundTrips) {
  const char* corpus = std::getenv("LIBDACE_CORPUS_DIR");
#ifdef LIBDACE_CORPUS_DIR
  std::string dir = corpus ? corpus : LIBDACE_CORPUS_DIR;
#else
  std::string dir = corpus ? corpus : "../shared/sdfg-corpus";
#endif
  std::string path = dir + "/jacobi_2d/jacobi_2d.simp.sdfg";
  if (!std::ifstream(path)) GTEST_SKIP() << "corpus not found at " << path;
  dace_sdfg_t* s = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_file(&s, path.c_str()));
  EXPECT_DACE_OK(dace_sdfg_validate(s));
  char* json = nullptr;
  ASSERT_DACE_OK(dace_sdfg_to_json(&json, s, nullptr));
  dace_sdfg_t* back = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_string(&back, json));
  dace_string_free(json);
  int32_t eq = 0;
  ASSERT_DACE_OK(dace_sdfg_equal(&eq, nullptr, s, back));
  EXPECT_EQ(eq, 1);
  const char* args = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_arguments(&args, s));
  EXPECT_NE(std::string(args).find("A"), std::string::npos);
  dace_sdfg_release(back);
  dace_sdfg_release(s);
}

TEST_F(SdfgTest, ValidateReportsElementPath) {
  dace_id_t t = -1;
  // A tasklet whose input connector has no edge is invalid.
  ASSERT_DACE_OK(dace_state_add_tasklet(&t, sdfg, state, "lonely", "a", "", "pass", DACE_LANGUAGE_PYTHON));
  EXPECT_DACE_ERROR(dace_sdfg_validate(sdfg), DACE_ERROR_INVALID_SDFG, "sdfg \"t\" / state \"s0\"");
  EXPECT_EQ(dace_sdfg_validate(nullptr), DACE_ERROR_INVALID_ARGUMENT);
}

TEST_F(SdfgTest, FreeSymbolsAndArguments) {
  const char* syms = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_free_symbols(&syms, sdfg));
  EXPECT_STREQ(syms, "M, N");  // used in the shape of A, sorted
  const char* args = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_arguments(&args, sdfg));
  // Arrays by name, then scalars and symbols together by name.
  EXPECT_STREQ(args, "A, B, M, N, s");
}

TEST_F(SdfgTest, HashChangesWithContent) {
  char h1[65], h2[65];
  ASSERT_DACE_OK(dace_sdfg_hash(h1, sdfg));
  ASSERT_DACE_OK(dace_data_set_storage(sdfg, "A", DACE_STORAGE_CPU_HEAP));
  ASSERT_DACE_OK(dace_sdfg_hash(h2, sdfg));
  EXPECT_STRNE(h1, h2);
  EXPECT_EQ(dace_sdfg_hash(nullptr, sdfg), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_hash(h1, nullptr), DACE_ERROR_INVALID_ARGUMENT);
}

TEST(CapiThreads, DistinctSdfgsOnDistinctThreads) {
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&ok, i] {
      dace_sdfg_t* s = nullptr;
      if (dace_sdfg_create(&s, ("p" + std::to_string(i)).c_str()) != DACE_OK) return;
      bool good = dace_sdfg_add_symbol(s, "N", DACE_INT64) == DACE_OK;
      good = good && dace_sdfg_add_array(s, "A", DACE_FLOAT64, "N", nullptr) == DACE_OK;
      dace_id_t st = -1;
      good = good && dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "s") == DACE_OK;
      for (int k = 0; k < 20 && good; ++k)
        good = dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, s, st, "t", "i=0:N", "a: A[i]", "b = a + 1",
                                             "b: A[i]", nullptr) == DACE_OK;
      char h[65];
      good = good && dace_sdfg_hash(h, s) == DACE_OK;
      ok[i] = good ? 1 : 0;
      dace_sdfg_release(s);
    });
  for (auto& t : threads) t.join();
  for (int v : ok) EXPECT_EQ(v, 1);
}
