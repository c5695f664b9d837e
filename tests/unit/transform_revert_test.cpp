// Reverting the last k steps of a history (transform/revert.h): the result must be
// byte-identical to the input with only the first n - k steps applied, built here step by step
// with the transformations themselves (not through replay or revert); also when the optimized
// SDFG went through a save and load first. The original is stored as DaCe's `orig_sdfg` (the
// SDFG object before the first step); errors leave nothing changed.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/history.h"
#include "transform/registry.h"
#include "transform/revert.h"
#include "transform/simplify.h"

namespace dace::transform::testing {
namespace {

std::string corpus_file(const std::string& kernel) {
  return std::string(LIBDACE_CORPUS_DIR) + "/" + kernel + "/" + kernel + ".raw.sdfg";
}

std::unique_ptr<ir::SDFG> load(const std::string& path) {
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(path);
  EXPECT_TRUE(g.ok()) << g.error().message;
  return g.ok() ? std::move(*g) : nullptr;
}

// simplify, then MapFusion, TrivialMapElimination and MapCollapse repeatedly: passes and
// pattern entries mixed.
void optimize(ir::SDFG& g) {
  AnalysisManager am;
  ASSERT_TRUE(run_pass(g, *make_simplify_pipeline(), am).ok());
  for (const char* name : {"MapFusion", "TrivialMapElimination", "MapCollapse"}) {
    Result<int> n = apply_repeated(g, *make_transformation(name), am);
    ASSERT_TRUE(n.ok()) << n.error().message;
  }
}

// The independent construction: the input with `count` of `entries` applied one by one,
// each pattern entry at its recorded location, each pass run again.
std::string with_first_steps(const std::string& path, const std::vector<HistoryEntry>& entries, size_t count) {
  std::unique_ptr<ir::SDFG> g = load(path);
  if (!g) return "<unreadable>";
  AnalysisManager am;
  for (size_t i = 0; i < count; ++i) {
    const HistoryEntry& e = entries[i];
    if (e.kind == HistoryEntry::Kind::Pattern) {
      std::unique_ptr<Transformation> t = make_transformation(e.transformation);
      EXPECT_TRUE(t->properties().set_from_json(e.properties).ok());
      Status s = apply_at(*g, *t, e.match, am);
      EXPECT_TRUE(s.ok()) << i << ": " << s.error().message;
    } else {
      std::unique_ptr<Pass> p = make_pass(e.transformation);
      EXPECT_TRUE(p->properties().set_from_json(e.properties).ok());
      Result<bool> changed = run_pass(*g, *p, am);
      EXPECT_TRUE(changed.ok() && *changed) << i << ": " << e.transformation;
    }
  }
  return ir::json::write_sdfg(*g);
}

class RevertCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(RevertCorpus, RevertingKStepsEqualsApplyingTheFirstNMinusK) {
  const std::string path = corpus_file(GetParam());
  std::unique_ptr<ir::SDFG> g = load(path);
  if (!g) GTEST_SKIP() << "no corpus file " << path;
  optimize(*g);
  const std::vector<HistoryEntry> history = history_of(*g);
  const size_t n = history.size();
  // atax simplifies in two StateFusion steps, as in DaCe; the others take more.
  ASSERT_GE(n, 2u);
  const std::string optimized = ir::json::write_sdfg(*g);
  // Saved and loaded: the original and the history travel with the file.
  Result<std::unique_ptr<ir::SDFG>> reread = ir::json::read_sdfg(optimized);
  ASSERT_TRUE(reread.ok()) << reread.error().message;
  std::unique_ptr<ir::SDFG> loaded = std::move(*reread);

  std::vector<size_t> ks{0, 1, 2, n / 2, n - 1, n};
  for (size_t k : ks) {
    SCOPED_TRACE("revert " + std::to_string(k) + " of " + std::to_string(n));
    const std::string expected = with_first_steps(path, history, n - k);
    for (const ir::SDFG* from : {g.get(), loaded.get()}) {
      Result<std::unique_ptr<ir::SDFG>> r = reverted(*from, k);
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_EQ(ir::json::write_sdfg(**r), expected);
      EXPECT_EQ(history_size(**r), n - k);
      Status v = analysis::validate(**r);
      EXPECT_TRUE(v.ok()) << v.error().message;
    }
  }
  // The source is untouched, and reverting all steps gives the input as it was read.
  EXPECT_EQ(ir::json::write_sdfg(*g), optimized);
  EXPECT_EQ(ir::json::write_sdfg(**reverted(*loaded, n)), ir::json::write_sdfg(*load(path)));
}

INSTANTIATE_TEST_SUITE_P(Corpus, RevertCorpus, ::testing::Values("gemm", "jacobi_2d", "atax", "syrk"));

TEST(TransformRevert, OriginalIsDaceOrigSdfgBeforeTheFirstStep) {
  std::unique_ptr<ir::SDFG> g = load(corpus_file("gemm"));
  if (!g) GTEST_SKIP() << "no corpus";
  const std::string input = ir::json::write_sdfg(*g);
  EXPECT_FALSE(original_of(*g));
  optimize(*g);
  // In the file: attributes.orig_sdfg is the whole SDFG object before the first step, with
  // no history and no original of its own (what DaCe's append_transformation stores).
  nlohmann::json file = nlohmann::json::parse(ir::json::write_sdfg(*g));
  const nlohmann::json& orig = file["attributes"]["orig_sdfg"];
  ASSERT_TRUE(orig.is_object());
  EXPECT_EQ(orig["type"], "SDFG");
  EXPECT_EQ(orig, nlohmann::json::parse(input));
  EXPECT_FALSE(orig["attributes"].contains("transformation_hist"));
  EXPECT_FALSE(orig["attributes"].contains("orig_sdfg"));
  // Later steps keep the first original.
  const std::string first = *original_of(*g);
  AnalysisManager am;
  ASSERT_TRUE(run_pass(*g, *make_simplify_pipeline(), am).ok());
  EXPECT_EQ(*original_of(*g), first);
}

TEST(TransformRevert, DaceStringFormOfTheOriginalIsRead) {
  std::unique_ptr<ir::SDFG> g = load(corpus_file("gemm"));
  if (!g) GTEST_SKIP() << "no corpus";
  optimize(*g);
  const size_t n = history_size(*g);
  const std::string expected = ir::json::write_sdfg(**reverted(*g, n));
  // Older DaCe stored the original as a string holding its JSON; it reads both.
  g->extra[kOriginalKey] = nlohmann::json(*original_of(*g)).dump();
  Result<std::unique_ptr<ir::SDFG>> r = reverted(*g, n);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**r), expected);
}

// DaCe's auto_optimize output keeps DaCe's history (library expansions) and original. All
// steps revert to that original with nothing to replay; reverting fewer would replay entries
// of a kind we do not have, which is refused naming the entry.
TEST(TransformRevert, DaceWrittenOriginalIsRevertedTo) {
  const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/atax/atax.opt.sdfg";
  std::unique_ptr<ir::SDFG> g = load(path);
  if (!g) GTEST_SKIP() << "no corpus";
  const size_t n = history_size(*g);
  ASSERT_EQ(n, 4u);  // SpecializeMatMul x2, ExpandGemvOpenBLAS x2 (DaCe's ExpandTransformation)
  ASSERT_TRUE(original_of(*g));
  // The reference: DaCe's orig_sdfg object of the file, read on its own.
  nlohmann::json file = nlohmann::json::parse(std::ifstream(path));
  Result<std::unique_ptr<ir::SDFG>> dace_original = ir::json::read_sdfg(file["attributes"]["orig_sdfg"].dump());
  ASSERT_TRUE(dace_original.ok()) << dace_original.error().message;
  Result<std::unique_ptr<ir::SDFG>> all = reverted(*g, n);
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**all), ir::json::write_sdfg(**dace_original));
  EXPECT_EQ(history_size(**all), 0u);
  // DaCe's original still computes NumPy's outputs.
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile(**all);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(std::string(LIBDACE_CORPUS_DIR) + "/atax", **all, *prog);

  Result<std::unique_ptr<ir::SDFG>> some = reverted(*g, 1);
  ASSERT_FALSE(some.ok());
  EXPECT_EQ(some.error().code, Code::Unsupported);
  EXPECT_NE(some.error().message.find("history entry 0"), std::string::npos) << some.error().message;
}

TEST(TransformRevert, ErrorsNameTheProblemAndChangeNothing) {
  std::unique_ptr<ir::SDFG> g = load(corpus_file("gemm"));
  if (!g) GTEST_SKIP() << "no corpus";
  // Nothing recorded: reverting 0 steps is a copy, 1 is too many.
  Result<std::unique_ptr<ir::SDFG>> none = reverted(*g, 1);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, Code::InvalidArgument);
  EXPECT_NE(none.error().message.find("history holds 0"), std::string::npos) << none.error().message;
  ASSERT_TRUE(reverted(*g, 0).ok());

  optimize(*g);
  const size_t n = history_size(*g);
  const std::string before = ir::json::write_sdfg(*g);
  Result<std::unique_ptr<ir::SDFG>> too_many = reverted(*g, n + 1);
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().code, Code::InvalidArgument);
  EXPECT_NE(too_many.error().message.find("history holds " + std::to_string(n)), std::string::npos);

  // A history without an original (a file written before originals were stored).
  std::unique_ptr<ir::SDFG> no_original = g->clone_sdfg();
  no_original->extra.erase(kOriginalKey);
  Result<std::unique_ptr<ir::SDFG>> missing = reverted(*no_original, 1);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Code::NotFound);
  EXPECT_NE(missing.error().message.find("orig_sdfg"), std::string::npos) << missing.error().message;

  // An unreadable original, and an entry of a type that cannot be replayed.
  std::unique_ptr<ir::SDFG> broken = g->clone_sdfg();
  broken->extra[kOriginalKey] = "{\"type\": \"SDFG\"}";
  Result<std::unique_ptr<ir::SDFG>> unreadable = reverted(*broken, 1);
  ASSERT_FALSE(unreadable.ok());
  EXPECT_NE(unreadable.error().message.find("original (orig_sdfg) is unreadable"), std::string::npos)
      << unreadable.error().message;
  std::unique_ptr<ir::SDFG> foreign = g->clone_sdfg();
  std::string& hist = foreign->extra["transformation_hist"];
  hist.insert(1, "{\"type\":\"ExpandTransformation\",\"transformation\":\"Expand\"},");
  Result<std::unique_ptr<ir::SDFG>> unsupported = reverted(*foreign, 1);
  ASSERT_FALSE(unsupported.ok());
  EXPECT_EQ(unsupported.error().code, Code::Unsupported);
  EXPECT_NE(unsupported.error().message.find("history entry 0"), std::string::npos) << unsupported.error().message;

  EXPECT_EQ(ir::json::write_sdfg(*g), before);
}

}  // namespace
}  // namespace dace::transform::testing
