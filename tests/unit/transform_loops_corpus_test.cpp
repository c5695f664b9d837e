// The loop transformations on the corpus: LoopRegions exist only after LoopLifting, so
// CorpusOptimize (raw and simp SDFGs as DaCe wrote them) never matches LoopUnroll or
// MoveLoopIntoMap. Here every corpus SDFG is lifted first; then each of them is applied alone
// at every legal match (partial LoopUnroll by 3 at the first), and the result must validate, compile and compute NumPy's outputs.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/loop_lifting.h"
#include "transform/registry.h"
#include "transform/simplify.h"

namespace dace::codegen::testing {
namespace {

// Lifts (and simplifies) `cf`, then applies each loop transformation alone at every legal match.
void check_loop_transformations(const CorpusFile& cf, bool simplified) {
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  transform::AnalysisManager am;
  transform::PatternPass lifting(std::make_unique<transform::LoopLifting>());
  ASSERT_TRUE(transform::run_pass(**sdfg, lifting, am).ok());
  // Simplify fuses the states of loop bodies, which both transformations need.
  if (simplified) {
    ASSERT_TRUE(transform::run_pass(**sdfg, *transform::make_simplify_pipeline(), am).ok());
  }
  // LoopUnroll by 3 (partial) matches every lifted loop: its first legal match is enough.
  struct Case {
    const char* name;
    const char* props;
    size_t max_matches;
  };
  for (const Case& c : {Case{"LoopUnroll", "{}", 1000}, Case{"LoopUnroll", R"({"count": 3})", 1},
                        Case{"MoveLoopIntoMap", "{}", 1000}}) {
    const std::string name = std::string(c.name) + (std::string(c.props) == "{}" ? "" : c.props);
    auto t = transform::make_transformation(c.name);
    ASSERT_TRUE(t->properties().set_from_json(c.props).ok());
    std::vector<transform::Match> legal;
    std::string reasons;
    for (const transform::Match& m : t->enumerate(**sdfg, am)) {
      if (legal.size() >= c.max_matches) break;
      if (t->can_be_applied(**sdfg, m, am))
        legal.push_back(m);
      else
        reasons += "\n    refused: " + t->why_not();
    }
    std::printf("[ lifted%s ] %s: %s at %zu legal matches%s\n", simplified ? "+simplified" : "", cf.name.c_str(), name.c_str(),
                legal.size(), reasons.c_str());
    for (const transform::Match& m : legal) {
      SCOPED_TRACE(name + " at " + transform::to_string(m) + (simplified ? " (simplified)" : ""));
      std::unique_ptr<ir::SDFG> g = (*sdfg)->clone_sdfg();
      transform::AnalysisManager gam;
      Status a = transform::apply_at(*g, *t, m, gam);
      ASSERT_TRUE(a.ok()) << a.error().message;
      Status valid = analysis::validate(*g);
      ASSERT_TRUE(valid.ok()) << valid.error().message;
      Result<CompiledProgram> prog = compile(*g);
      ASSERT_TRUE(prog.ok()) << prog.error().message;
      run_corpus_case(cf.dir, *g, *prog);
    }
  }
}

class LoopTransformationsCorpus : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(LoopTransformationsCorpus, EachLiftedLoopTransformationMatchesNumPy) {
  check_loop_transformations(GetParam(), false);
  check_loop_transformations(GetParam(), true);
}

INSTANTIATE_TEST_SUITE_P(Corpus, LoopTransformationsCorpus,
                         ::testing::ValuesIn(simp_and_raw_files(corpus_case_dirs())),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) {
                           std::string s = info.param.name;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace dace::codegen::testing
