// MapFusion on DaCe-written SDFGs (DaCe 1.0.2 files, and 2.0a5 ones where the corpus has
// them): every kernel's simp SDFG is fused at each legal match, one at a time from the
// original, and then repeatedly; the raw SDFG is simplified and fused repeatedly. Every result must validate, survive a JSON round trip unchanged, and
// still compute NumPy's outputs (case.json).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/map_fusion.h"
#include "transform/simplify.h"

namespace dace::codegen::testing {
namespace {

namespace fs = std::filesystem;

// The corpus kernels; or, when LIBDACE_MAP_FUSION_CASES names a folder of cases in the same
// layout (e.g. the NPBench cases tests/scripts/npbench_cases.sh generates), those instead.
std::vector<fs::path> case_dirs() {
  const char* other = std::getenv("LIBDACE_MAP_FUSION_CASES");
  return other && *other ? case_dirs_under(other) : corpus_case_dirs();
}

std::vector<CorpusFile> files() { return simp_and_raw_files(case_dirs()); }

// Validates, checks the JSON round trip, compiles and runs the case.
void check_runs(const CorpusFile& cf, const ir::SDFG& g) {
  Status valid = analysis::validate(g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  const std::string text = ir::json::write_sdfg(g);
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**back), text);
  Result<CompiledProgram> prog = compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(cf.dir, g, *prog);
}

class CorpusMapFusion : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusMapFusion, FusedMatchesNumPy) {
  const CorpusFile& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> loaded = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const bool raw = cf.name.ends_with("_raw");
  if (raw) {
    transform::AnalysisManager am;
    auto simplify = transform::make_simplify_pipeline();
    Result<bool> r = transform::run_pass(**loaded, *simplify, am);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  const ir::SDFG& original = **loaded;

  // Each legal match on its own, from the original.
  int matches = 0, legal = 0;
  std::string reasons;
  if (!raw) {
    transform::MapFusion probe;
    transform::AnalysisManager am0;
    std::unique_ptr<ir::SDFG> scratch = original.clone_sdfg();
    const std::vector<transform::Match> all = probe.enumerate(*scratch, am0);
    matches = static_cast<int>(all.size());
    for (const transform::Match& m : all) {
      std::unique_ptr<ir::SDFG> g = original.clone_sdfg();
      transform::MapFusion t;
      transform::AnalysisManager am;
      if (!t.can_be_applied(*g, m, am)) {
        reasons += "  " + t.why_not() + "\n";
        continue;
      }
      ++legal;
      Status s = transform::apply_at(*g, t, m, am);
      ASSERT_TRUE(s.ok()) << s.error().message;
      SCOPED_TRACE("MapFusion at " + transform::to_string(m));
      check_runs(cf, *g);
    }
  }

  // Repeatedly, to a fixed point.
  std::unique_ptr<ir::SDFG> g = original.clone_sdfg();
  transform::MapFusion t;
  transform::AnalysisManager am;
  Result<int> n = transform::apply_repeated(*g, t, am);
  ASSERT_TRUE(n.ok()) << n.error().message;
  check_runs(cf, *g);
  // Determinism: the same input fuses to the same bytes (history included).
  std::unique_ptr<ir::SDFG> again = original.clone_sdfg();
  transform::MapFusion t2;
  transform::AnalysisManager am2;
  ASSERT_TRUE(transform::apply_repeated(*again, t2, am2).ok());
  EXPECT_EQ(ir::json::write_sdfg(*again), ir::json::write_sdfg(*g));
  std::printf("[ mapfusion ] %s: %d matches, %d legal alone, %d applied repeatedly\n%s", cf.name.c_str(), matches,
              legal, *n, reasons.c_str());
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusMapFusion, ::testing::ValuesIn(files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
