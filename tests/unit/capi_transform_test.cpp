// The optimizer through the C API (libdace.h, "Transformations"): dace_sdfg_simplify on every
// corpus raw SDFG must still compute NumPy's outputs and give the same bytes as the optimizer
// called directly; MapFusion applied by name at a listed location must too; failed calls
// leave the SDFG byte-identical; a saved history replays to the same bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "builder/api_internal.h"
#include "capi_test_util.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/registry.h"

namespace dace::codegen::testing {
namespace {

std::string bytes_of(const dace_sdfg_t* sdfg) {
  char* json = nullptr;
  if (dace_sdfg_to_json(&json, sdfg, nullptr) != DACE_OK) return std::string("<failed: ") + dace_last_error_message();
  std::string out(json);
  dace_string_free(json);
  return out;
}

dace_sdfg_t* load(const std::string& path) {
  dace_sdfg_t* h = nullptr;
  EXPECT_EQ(dace_sdfg_load_file(&h, path.c_str()), DACE_OK) << dace_last_error_message();
  return h;
}

std::string history_of(const dace_sdfg_t* h) {
  const char* s = nullptr;
  EXPECT_EQ(dace_sdfg_history_json(&s, h), DACE_OK) << dace_last_error_message();
  return s ? s : "";
}

// Compiles the handle's SDFG and checks the kernel folder's case against NumPy's outputs.
void check_numpy(const std::string& dir, const dace_sdfg_t* h) {
  ASSERT_EQ(dace_sdfg_validate(h), DACE_OK) << dace_last_error_message();
  Result<CompiledProgram> prog = compile(*h->sdfg);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(dir, *h->sdfg, *prog);
}

std::vector<CorpusFile> raw_files() {
  std::vector<CorpusFile> out;
  for (const CorpusFile& f : simp_and_raw_files(corpus_case_dirs()))
    if (f.name.ends_with("_raw")) out.push_back(f);
  return out;
}

class CapiTransformCorpus : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CapiTransformCorpus, SimplifyMatchesNumPyAndTheDirectOptimizer) {
  const CorpusFile& cf = GetParam();
  dace_sdfg_t* h = load(cf.sdfg);
  ASSERT_NE(h, nullptr);
  ASSERT_EQ(dace_sdfg_simplify(h), DACE_OK) << dace_last_error_message();
  check_numpy(cf.dir, h);

  // The C API runs the steps on a copy and replays them: the result is what the optimizer
  // gives when called directly on the loaded file.
  Result<std::unique_ptr<ir::SDFG>> direct = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(direct.ok());
  transform::AnalysisManager am;
  ASSERT_TRUE(transform::run_pass(**direct, *transform::make_pass("simplify"), am).ok());
  EXPECT_EQ(bytes_of(h), ir::json::write_sdfg(**direct));

  // A saved history replays on the input to the same bytes.
  const std::string history = history_of(h);
  dace_sdfg_t* fresh = load(cf.sdfg);
  ASSERT_EQ(dace_sdfg_replay_history(fresh, history.c_str()), DACE_OK) << dace_last_error_message();
  EXPECT_EQ(bytes_of(fresh), bytes_of(h));
  dace_sdfg_release(fresh);
  dace_sdfg_release(h);
}

INSTANTIATE_TEST_SUITE_P(CapiTransformRaw, CapiTransformCorpus, ::testing::ValuesIn(raw_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& i) { return i.param.name; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CapiTransformCorpus);

std::string corpus_file(const std::string& kernel, const std::string& kind) {
  return std::string(LIBDACE_CORPUS_DIR) + "/" + kernel + "/" + kernel + "." + kind + ".sdfg";
}
std::string corpus_dir(const std::string& kernel) { return std::string(LIBDACE_CORPUS_DIR) + "/" + kernel; }

bool have_corpus() { return !corpus_case_dirs().empty(); }

TEST(CapiTransform, ListsTransformationsAndPasses) {
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_transformation_count(&n));
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    const char* s = nullptr;
    ASSERT_DACE_OK(dace_sdfg_transformation_name(&s, i));
    names.emplace_back(s);
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* want : {"MapFusion", "MapCollapse", "StateFusion", "simplify"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  int32_t pass = -1;
  ASSERT_DACE_OK(dace_sdfg_transformation_is_pass(&pass, "simplify"));
  EXPECT_EQ(pass, 1);
  ASSERT_DACE_OK(dace_sdfg_transformation_is_pass(&pass, "MapFusion"));
  EXPECT_EQ(pass, 0);
}

// gemm and softmax have a MapFusion match after simplify: fuse at the last listed location,
// by name with the match as properties, and compare with NumPy.
TEST(CapiTransform, MapFusionAtAListedLocationMatchesNumPy) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  for (const char* kernel : {"gemm", "softmax"}) {
    SCOPED_TRACE(kernel);
    dace_sdfg_t* h = load(corpus_file(kernel, "raw"));
    ASSERT_NE(h, nullptr);
    ASSERT_DACE_OK(dace_sdfg_simplify(h));
    const char* text = nullptr;
    ASSERT_DACE_OK(dace_sdfg_match_transformation(&text, h, "MapFusion", nullptr));
    nlohmann::json matches = nlohmann::json::parse(text);
    ASSERT_TRUE(matches.is_array());
    ASSERT_FALSE(matches.empty());
    const nlohmann::json m = matches.back();
    EXPECT_EQ(m["transformation"], "MapFusion");
    EXPECT_TRUE(m.contains("_subgraph") && m["_subgraph"].size() == 3) << m.dump();
    ASSERT_DACE_OK(dace_sdfg_apply_transformation(h, "MapFusion", m.dump().c_str()));
    // The last history entry is that match.
    nlohmann::json hist = nlohmann::json::parse(history_of(h));
    ASSERT_FALSE(hist.empty());
    EXPECT_EQ(hist.back(), m);
    check_numpy(corpus_dir(kernel), h);
    // Applying at the same place again no longer matches: an error, nothing changes.
    const std::string before = bytes_of(h);
    EXPECT_NE(dace_sdfg_apply_transformation(h, "MapFusion", m.dump().c_str()), DACE_OK);
    EXPECT_EQ(bytes_of(h), before);
    dace_sdfg_release(h);
  }
}

// With a borrowed handle of a nested SDFG out, the steps are replayed on the SDFG object
// itself (so the handle stays valid) instead of adopting the copy: same bytes, same results.
TEST(CapiTransform, SimplifyWithABorrowedNestedHandle) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  dace_sdfg_t* h = load(corpus_file("mandelbrot1", "raw"));
  ASSERT_NE(h, nullptr);
  dace_sdfg_t* nested = nullptr;
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &n, h));
  std::vector<dace_id_t> states(n);
  ASSERT_DACE_OK(dace_sdfg_list_states(states.data(), n, &n, h));
  for (dace_id_t st : states) {
    size_t m = 0;
    ASSERT_DACE_OK(dace_state_list_nodes(nullptr, 0, &m, h, st));
    std::vector<dace_id_t> nodes(m);
    ASSERT_DACE_OK(dace_state_list_nodes(nodes.data(), m, &m, h, st));
    for (dace_id_t node : nodes) {
      dace_node_kind_t kind{};
      ASSERT_DACE_OK(dace_node_get_kind(&kind, h, st, node));
      // The nested SDFG with the most states (the while loop): simplify inlines the others
      // (InlineSDFGs), which ends their borrowed handles.
      if (kind == DACE_NODE_NESTED_SDFG) {
        dace_sdfg_t* candidate = nullptr;
        ASSERT_DACE_OK(dace_node_get_nested_sdfg(&candidate, h, st, node));
        size_t mine = 0, best = 0;
        ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &mine, candidate));
        if (nested) {
          ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &best, nested));
        }
        if (!nested || mine > best) nested = candidate;
      }
    }
  }
  ASSERT_NE(nested, nullptr) << "mandelbrot1.raw has nested SDFGs";
  const char* name_before = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_name(&name_before, nested));
  const std::string nested_name = name_before;
  const ir::SDFG* object = h->sdfg;

  ASSERT_DACE_OK(dace_sdfg_simplify(h));
  EXPECT_EQ(h->sdfg, object) << "edited in place";
  const char* name_after = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_name(&name_after, nested));
  EXPECT_EQ(nested_name, name_after);

  Result<std::unique_ptr<ir::SDFG>> direct = ir::json::read_sdfg_file(corpus_file("mandelbrot1", "raw"));
  ASSERT_TRUE(direct.ok());
  transform::AnalysisManager am;
  ASSERT_TRUE(transform::run_pass(**direct, *transform::make_pass("simplify"), am).ok());
  EXPECT_EQ(bytes_of(h), ir::json::write_sdfg(**direct));
  check_numpy(corpus_dir("mandelbrot1"), h);
  dace_sdfg_release(h);
}

TEST(CapiTransform, RepeatedCountsAndReplays) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  dace_sdfg_t* h = load(corpus_file("gemm", "raw"));
  ASSERT_NE(h, nullptr);
  ASSERT_DACE_OK(dace_sdfg_simplify(h));
  int32_t n = -1;
  ASSERT_DACE_OK(dace_sdfg_apply_transformation_repeated(&n, h, "MapFusion", nullptr));
  EXPECT_GE(n, 1);
  ASSERT_DACE_OK(dace_sdfg_apply_transformation_repeated(&n, h, "MapFusion", "{}"));
  EXPECT_EQ(n, 0);
  check_numpy(corpus_dir("gemm"), h);

  const std::string history = history_of(h);
  dace_sdfg_t* fresh = load(corpus_file("gemm", "raw"));
  ASSERT_DACE_OK(dace_sdfg_replay_history(fresh, history.c_str()));
  EXPECT_EQ(bytes_of(fresh), bytes_of(h));
  EXPECT_EQ(history_of(fresh), history);
  dace_sdfg_release(fresh);
  dace_sdfg_release(h);
}

TEST(CapiTransform, ErrorsLeaveTheSdfgByteIdentical) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  dace_sdfg_t* h = load(corpus_file("softmax", "raw"));
  ASSERT_NE(h, nullptr);
  ASSERT_DACE_OK(dace_sdfg_apply_transformation(h, "StateFusion", nullptr));  // some history first
  const std::string before = bytes_of(h);
  char hash_before[65] = {};
  ASSERT_DACE_OK(dace_sdfg_hash(hash_before, h));

  EXPECT_DACE_ERROR(dace_sdfg_apply_transformation(h, "NoSuch", nullptr), DACE_ERROR_NOT_FOUND, "MapFusion");
  EXPECT_DACE_ERROR(dace_sdfg_apply_transformation(h, "MapFusion", "{\"x\": 1}"), DACE_ERROR_INVALID_ARGUMENT, "\"x\"");
  EXPECT_DACE_ERROR(dace_sdfg_apply_transformation(h, "MapFusion", "{"), DACE_ERROR_PARSE, "JSON");
  EXPECT_DACE_ERROR(
      dace_sdfg_apply_transformation(h, "MapFusion", "{\"cfg_id\": 0, \"state_id\": 0, \"_subgraph\": {\"0\": 0, \"1\": 1, \"2\": 500}}"),
      DACE_ERROR_INVALID_ARGUMENT, "node 0");
  EXPECT_DACE_ERROR(dace_sdfg_apply_transformation(h, "MapFusion", "{\"cfg_id\": 9, \"_subgraph\": {\"0\": 0}}"),
                    DACE_ERROR_INVALID_ARGUMENT, "cfg_id 9");
  // A history whose first steps apply and whose last one does not: nothing is kept.
  const std::string bad = "[{\"type\": \"Pass\", \"transformation\": \"simplify\"}, "
                          "{\"type\": \"PatternTransformation\", \"transformation\": \"StateFusion\", \"cfg_id\": 0, "
                          "\"state_id\": -1, \"_subgraph\": {\"0\": 400, \"1\": 401}}]";
  EXPECT_DACE_ERROR(dace_sdfg_replay_history(h, bad.c_str()), DACE_ERROR_INVALID_ARGUMENT, "no block with id 400");
  EXPECT_EQ(bytes_of(h), before);
  char hash_after[65] = {};
  ASSERT_DACE_OK(dace_sdfg_hash(hash_after, h));
  EXPECT_STREQ(hash_after, hash_before);

  // The SDFG still works after the failed calls.
  ASSERT_DACE_OK(dace_sdfg_simplify(h));
  check_numpy(corpus_dir("softmax"), h);
  dace_sdfg_release(h);
}

// The handle's history entries, each as compact JSON text.
std::vector<std::string> entries_of(const dace_sdfg_t* h) {
  std::vector<std::string> out;
  for (const auto& e : nlohmann::json::parse(history_of(h))) out.push_back(e.dump());
  return out;
}

// dace_sdfg_revert_history(k) gives the bytes of the input with only the first n - k steps
// applied, built here by applying each entry by name through the C API (an entry is valid
// properties: its location); also on a handle loaded from the saved JSON.
TEST(CapiTransform, RevertEqualsTheFirstStepsAlsoAfterSaveAndLoad) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  const std::string raw = corpus_file("gemm", "raw");
  dace_sdfg_t* h = load(raw);
  ASSERT_NE(h, nullptr);
  ASSERT_DACE_OK(dace_sdfg_simplify(h));
  ASSERT_DACE_OK(dace_sdfg_apply_transformation_repeated(nullptr, h, "MapFusion", nullptr));
  const std::vector<std::string> entries = entries_of(h);
  const size_t n = entries.size();
  ASSERT_GE(n, 3u);
  const std::string saved = bytes_of(h);
  for (size_t k : {size_t{1}, size_t{2}, n / 2, n}) {
    SCOPED_TRACE("revert " + std::to_string(k) + " of " + std::to_string(n));
    dace_sdfg_t* expected = load(raw);
    for (size_t i = 0; i + k < n; ++i) {
      const std::string name = nlohmann::json::parse(entries[i])["transformation"];
      ASSERT_DACE_OK(dace_sdfg_apply_transformation(expected, name.c_str(), entries[i].c_str()));
    }
    dace_sdfg_t* copy = nullptr;
    ASSERT_DACE_OK(dace_sdfg_clone(&copy, h));
    ASSERT_DACE_OK(dace_sdfg_revert_history(copy, k));
    EXPECT_EQ(bytes_of(copy), bytes_of(expected));
    dace_sdfg_t* reloaded = nullptr;
    ASSERT_DACE_OK(dace_sdfg_load_string(&reloaded, saved.c_str()));
    ASSERT_DACE_OK(dace_sdfg_revert_history(reloaded, k));
    EXPECT_EQ(bytes_of(reloaded), bytes_of(expected));
    EXPECT_EQ(entries_of(reloaded).size(), n - k);
    dace_sdfg_release(reloaded);
    dace_sdfg_release(copy);
    dace_sdfg_release(expected);
  }
  // The reverted SDFG still computes NumPy's outputs, and can be optimized again.
  ASSERT_DACE_OK(dace_sdfg_revert_history(h, 1));
  check_numpy(corpus_dir("gemm"), h);
  ASSERT_DACE_OK(dace_sdfg_apply_transformation_repeated(nullptr, h, "MapFusion", nullptr));
  EXPECT_EQ(bytes_of(h), saved);
  dace_sdfg_release(h);
}

TEST(CapiTransform, RevertErrorsLeaveTheSdfgByteIdentical) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  dace_sdfg_t* h = load(corpus_file("softmax", "raw"));
  ASSERT_NE(h, nullptr);
  EXPECT_DACE_ERROR(dace_sdfg_revert_history(h, 1), DACE_ERROR_INVALID_ARGUMENT, "history holds 0");
  ASSERT_DACE_OK(dace_sdfg_simplify(h));
  const size_t n = entries_of(h).size();
  const std::string before = bytes_of(h);
  EXPECT_DACE_ERROR(dace_sdfg_revert_history(h, n + 1), DACE_ERROR_INVALID_ARGUMENT,
                    "history holds " + std::to_string(n));
  EXPECT_EQ(bytes_of(h), before);
  ASSERT_DACE_OK(dace_sdfg_revert_history(h, 0));
  EXPECT_EQ(bytes_of(h), before);

  // A saved history without its original (as files written before originals were kept).
  nlohmann::json j = nlohmann::json::parse(before);
  j["attributes"].erase("orig_sdfg");
  dace_sdfg_t* bare = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_string(&bare, j.dump().c_str()));
  const std::string bare_before = bytes_of(bare);
  EXPECT_DACE_ERROR(dace_sdfg_revert_history(bare, 1), DACE_ERROR_NOT_FOUND, "orig_sdfg");
  EXPECT_EQ(bytes_of(bare), bare_before);
  dace_sdfg_release(bare);

  // A kept entry that no longer applies on the original: named, nothing changes.
  j = nlohmann::json::parse(before);
  j["attributes"]["transformation_hist"][0] = nlohmann::json::parse(
      "{\"type\": \"PatternTransformation\", \"transformation\": \"StateFusion\", \"cfg_id\": 0, "
      "\"state_id\": -1, \"_subgraph\": {\"0\": 400, \"1\": 401}}");
  dace_sdfg_t* stale = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_string(&stale, j.dump().c_str()));
  const std::string stale_before = bytes_of(stale);
  EXPECT_DACE_ERROR(dace_sdfg_revert_history(stale, 1), DACE_ERROR_INVALID_ARGUMENT, "history entry 0 (StateFusion)");
  EXPECT_EQ(bytes_of(stale), stale_before);
  dace_sdfg_release(stale);
  dace_sdfg_release(h);
}

// Borrowed handles of nested SDFGs point into the tree that a revert replaces: afterwards
// they answer with an error instead of reading freed memory (run under ASan in CI).
TEST(CapiTransform, RevertRetiresBorrowedNestedHandles) {
  if (!have_corpus()) GTEST_SKIP() << "no corpus";
  dace_sdfg_t* h = load(corpus_file("mandelbrot1", "raw"));
  ASSERT_NE(h, nullptr);
  ASSERT_DACE_OK(dace_sdfg_simplify(h));
  dace_sdfg_t* nested = nullptr;
  size_t count = 0;
  ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &count, h));
  std::vector<dace_id_t> states(count);
  ASSERT_DACE_OK(dace_sdfg_list_states(states.data(), count, &count, h));
  for (dace_id_t st : states) {
    size_t nn = 0;
    ASSERT_DACE_OK(dace_state_list_nodes(nullptr, 0, &nn, h, st));
    std::vector<dace_id_t> nodes(nn);
    ASSERT_DACE_OK(dace_state_list_nodes(nodes.data(), nn, &nn, h, st));
    for (dace_id_t n : nodes)
      if (!nested && dace_node_get_nested_sdfg(&nested, h, st, n) != DACE_OK) nested = nullptr;
  }
  ASSERT_NE(nested, nullptr) << "mandelbrot1 has nested SDFGs";
  const char* name = nullptr;
  ASSERT_DACE_OK(dace_sdfg_get_name(&name, nested));
  ASSERT_DACE_OK(dace_sdfg_revert_history(h, 1));
  EXPECT_DACE_ERROR(dace_sdfg_get_name(&name, nested), DACE_ERROR_INVALID_ARGUMENT, "stale");
  check_numpy(corpus_dir("mandelbrot1"), h);
  dace_sdfg_release(h);
}

// A hand-built SDFG: two maps in sequence over a transient; MapFusion removes the transient
// and the result computes B = (A + 1) * 2 (checked against a loop here).
TEST(CapiTransform, MapFusionOnABuiltSdfg) {
  dace_sdfg_t* s = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&s, "two_maps"));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(s, "N", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_array(s, "A", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_array(s, "B", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_transient(s, "T", DACE_FLOAT64, "N", nullptr));
  dace_id_t st = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "main"));
  dace_id_t a = -1, t = -1, b = -1;
  ASSERT_DACE_OK(dace_state_add_access(&a, s, st, "A"));
  ASSERT_DACE_OK(dace_state_add_access(&t, s, st, "T"));
  ASSERT_DACE_OK(dace_state_add_access(&b, s, st, "B"));
  dace_id_t tk = -1, en = -1, ex = -1;
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&tk, &en, &ex, s, st, "inc", "i=0:N", "x: A[i]", "y = x + 1", "y: T[i]",
                                               nullptr));
  dace_id_t e = -1;
  ASSERT_DACE_OK(dace_state_add_edge(&e, s, st, a, nullptr, en, "IN_A", "A[0:N]", nullptr));
  ASSERT_DACE_OK(dace_state_add_edge(&e, s, st, ex, "OUT_T", t, nullptr, "T[0:N]", nullptr));
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&tk, &en, &ex, s, st, "dbl", "j=0:N", "x: T[j]", "y = x * 2", "y: B[j]",
                                               nullptr));
  ASSERT_DACE_OK(dace_state_add_edge(&e, s, st, t, nullptr, en, "IN_T", "T[0:N]", nullptr));
  ASSERT_DACE_OK(dace_state_add_edge(&e, s, st, ex, "OUT_B", b, nullptr, "B[0:N]", nullptr));
  ASSERT_DACE_OK(dace_sdfg_validate(s));

  int32_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_apply_transformation_repeated(&n, s, "MapFusion", nullptr));
  EXPECT_EQ(n, 1);
  ASSERT_DACE_OK(dace_sdfg_validate(s));
  size_t count = 0;
  ASSERT_DACE_OK(dace_state_list_nodes(nullptr, 0, &count, s, st));
  EXPECT_LT(count, 9u);  // one map scope fewer (and T gone or shrunk)

  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_program_t* prog = nullptr;
  dace_compile_options_t co = DACE_COMPILE_OPTIONS_INIT;
  co.opt_level = 1;
  if (dace_program_compile(&prog, ctx, s, &co) != DACE_OK) {
    const std::string why = dace_last_error_message();
    dace_context_release(ctx);
    dace_sdfg_release(s);
    GTEST_SKIP() << "cannot compile here: " << why;
  }
  std::vector<double> A = {1, 2, 3, 4, 5}, B(5, -1);
  int64_t shape[1] = {5};
  dace_arg_t args[2] = {};
  args[0].kind = DACE_ARG_ARRAY;
  args[0].value.array = {A.data(), DACE_FLOAT64, 1, shape, nullptr};
  args[1].kind = DACE_ARG_ARRAY;
  args[1].value.array = {B.data(), DACE_FLOAT64, 1, shape, nullptr};
  const char* names[2] = {"A", "B"};
  ASSERT_DACE_OK(dace_program_call(prog, names, args, 2));
  for (size_t i = 0; i < A.size(); ++i) EXPECT_DOUBLE_EQ(B[i], (A[i] + 1) * 2) << i;
  dace_program_release(prog);
  dace_context_release(ctx);
  dace_sdfg_release(s);
}

}  // namespace
}  // namespace dace::codegen::testing
