// LowerOptions::bounds_check against the corpus: with the checks on, every DaCe-written
// kernel (simp, raw, 2.0a5 dialect) still matches NumPy's outputs (no false positives);
// with them off the IR is the same text as without the option and has no check in it.
#include <gtest/gtest.h>

#include "analysis/validate.h"
#include "codegen/registry_query.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"

namespace dace::codegen::testing {
namespace {

class CorpusBoundsCheck : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusBoundsCheck, MatchesNumPyWithChecks) {
  const CorpusFile& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  LowerOptions options = parallel_test_options();
  options.bounds_check = true;
  Result<CompiledProgram> prog = compile(**sdfg, options);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(cf.dir, **sdfg, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusBoundsCheck, ::testing::ValuesIn(simp_and_raw_files(corpus_case_dirs())),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

// Zero cost when off: the IR of a kernel with many memlets (copies, library nodes, maps) is
// the same text with the option explicitly off as with the default options, and has no
// check block; on, it has them, and the lowering fingerprint (cache key) differs.
TEST(BoundsCheckOff, IrIsIdenticalAndHasNoChecks) {
  const std::vector<std::filesystem::path> dirs = corpus_case_dirs();
  if (dirs.empty()) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  int kernels = 0;
  for (const char* kernel : {"gemm", "jacobi_2d", "softmax", "atax"}) {
    const std::string path = std::string(LIBDACE_CORPUS_DIR) + "/" + kernel + "/" + kernel + ".simp.sdfg";
    if (!std::filesystem::exists(path)) continue;
    ++kernels;
    SCOPED_TRACE(path);
    Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(path);
    ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
    LowerOptions defaults = parallel_test_options();
    LowerOptions off = defaults;
    off.bounds_check = false;
    LowerOptions on = defaults;
    on.bounds_check = true;
    Result<CompiledProgram> a = compile(**sdfg, defaults), b = compile(**sdfg, off), c = compile(**sdfg, on);
    ASSERT_TRUE(a.ok() && b.ok() && c.ok());
    EXPECT_EQ(a->ir, b->ir);
    EXPECT_EQ(a->ir.find("bounds."), std::string::npos);
    EXPECT_NE(c->ir.find("bounds.fail"), std::string::npos);
    EXPECT_NE(options_fingerprint(off), options_fingerprint(on));
    EXPECT_EQ(options_fingerprint(off), options_fingerprint(defaults));
  }
  EXPECT_GT(kernels, 0);
}

}  // namespace
}  // namespace dace::codegen::testing
