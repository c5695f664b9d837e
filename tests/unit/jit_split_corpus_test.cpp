// Parallel code generation on real programs: the largest corpus SDFGs, cut into pieces (a
// small piece size so that each has several), give byte-identical objects with one and with
// four compile threads, and the program in pieces matches NumPy on its case, at O0 (the
// first tier) and O3 (the optimized tier).
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "jit/bitcode.h"
#include "jit/object_bundle.h"

namespace dace::codegen::testing {
namespace {

std::vector<CorpusFile> big_files() {
  std::vector<CorpusFile> out;
  for (const CorpusFile& f : simp_and_raw_files(corpus_case_dirs()))
    for (const char* name : {"heat_3d.simp.sdfg", "mandelbrot1.simp.sdfg", "softmax.simp.sdfg"})
      if (f.sdfg.ends_with(std::string("/") + name)) out.push_back(f);
  return out;
}

Result<std::unique_ptr<jit::JitModule>> compile_bitcode(const std::string& bitcode, int level, int threads) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = jit::read_bitcode(bitcode, *context);
  if (!module) return module.take_error();
  jit::CompileOptions o;
  o.opt.level = level;
  o.threads = threads;
  o.piece_instructions = 200;
  o.keep_object = true;
  return session().compile(std::move(*module), std::move(context), o);
}

class CorpusSplit : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusSplit, SameObjectForAnyThreadCountAndMatchesNumPy) {
  const CorpusFile& cf = GetParam();
  auto sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ASSERT_TRUE(analysis::validate(**sdfg).ok());
  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto lowered = lower(**sdfg, *ctx, parallel_test_options());
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  const std::string bitcode = jit::write_bitcode(*lowered->module);

  for (int level : {0, 3}) {
    auto one = compile_bitcode(bitcode, level, 1);
    ASSERT_TRUE(one.ok()) << one.error().message;
    auto four = compile_bitcode(bitcode, level, 4);
    ASSERT_TRUE(four.ok()) << four.error().message;
    EXPECT_GT((*four)->stats().pieces, 1) << "level " << level;
    auto parts = jit::unbundle_objects((*four)->object_file());
    ASSERT_TRUE(parts.ok());
    EXPECT_EQ(parts->size(), static_cast<size_t>((*four)->stats().pieces));
    EXPECT_TRUE((*one)->object_file() == (*four)->object_file()) << "level " << level << ": objects differ";

    CompiledProgram compiled;
    compiled.arguments = lowered->arguments;
    compiled.init_arguments = lowered->init_arguments;
    auto program = jit::Program::create(std::move(*four),
                                        {lowered->init_function, lowered->program_function, lowered->exit_function},
                                        lowered->arguments, lowered->init_arguments);
    ASSERT_TRUE(program.ok()) << program.error().message;
    compiled.program = std::move(*program);
    run_corpus_case(cf.dir, **sdfg, compiled);
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusSplit, ::testing::ValuesIn(big_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
