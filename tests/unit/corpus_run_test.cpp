// Runs every DaCe-written SDFG of the corpus (*.simp.sdfg, *.raw.sdfg and the 2.0a5 dialect
// files) on its case.json inputs and compares with the outputs NumPy computed.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"

namespace dace::codegen::testing {
namespace {

namespace fs = std::filesystem;

std::vector<CorpusFile> corpus_files() { return simp_and_raw_files(corpus_case_dirs()); }

class CorpusRun : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusRun, MatchesNumPy) {
  const CorpusFile& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  Status valid = analysis::validate(**sdfg);
  ASSERT_TRUE(valid.ok()) << valid.error().message;

  Result<CompiledProgram> prog = compile(**sdfg);
  ASSERT_TRUE(prog.ok()) << prog.error().message;

  run_corpus_case(cf.dir, **sdfg, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusRun, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
