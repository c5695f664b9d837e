// The lowering emits no index or size arithmetic with an identity operand (`x - 0`, `x * 1`,
// `or false, c`, an overflow-checked `x * 1`): the first tier (LLVM O0) compiles every
// instruction the lowering emits, and NumPy programs had hundreds of them (map trip counts,
// addresses, allocation sizes). The corpus programs' results are checked against NumPy by the
// CorpusRun and CorpusTiers tests; this one checks the shape of the IR.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "codegen/lower.h"
#include "codegen_test_support.h"
#include "cpu_test_registry.h"
#include "ir/json/sdfg_json.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace dace::codegen {
namespace {

std::string lower_text(const ir::SDFG& g) { return testing::lower_with_cpu_schedules(g); }

// Lines of `text` matching `pattern`.
std::vector<std::string> matching_lines(const std::string& text, const std::regex& pattern) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, pattern)) out.push_back(line);
  return out;
}

TEST(CodegenIndexArithmetic, NoIdentityOperationsInCorpusPrograms) {
  const std::vector<std::pair<const char*, std::regex>> identities = {
      {"x - 0", std::regex(R"(= sub i64 [%\w.]+, 0$)")},
      {"x + 0", std::regex(R"(= add (nsw )?i64 ([%\w.]+, 0|0, [%\w.]+)$)")},
      {"x * 1", std::regex(R"(= mul (nsw )?i64 ([%\w.]+, 1|1, [%\w.]+)$)")},
      {"or false", std::regex(R"(= or i1 (false, [%\w.]+|[%\w.]+, false)$)")},
      {"checked x * 1", std::regex(R"(@llvm\.smul\.with\.overflow\.i64\((i64 1,|i64 [%\w.]+, i64 1\)))")},
      {"checked x + 0", std::regex(R"(@llvm\.sadd\.with\.overflow\.i64\((i64 0,|i64 [%\w.]+, i64 0\)))")},
  };
  for (const char* kernel : {"heat_3d/heat_3d.raw.sdfg", "heat_3d/heat_3d.simp.sdfg", "jacobi_2d/jacobi_2d.raw.sdfg",
                             "gemm/gemm.simp.sdfg", "mandelbrot1/mandelbrot1.opt.sdfg", "crc16/crc16.opt.sdfg"}) {
    std::string path = std::string(LIBDACE_CORPUS_DIR) + "/" + kernel;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "corpus not found at " << LIBDACE_CORPUS_DIR;
    Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(path);
    ASSERT_TRUE(g.ok()) << g.error().message;
    std::string text = lower_text(**g);
    ASSERT_FALSE(text.empty()) << kernel;
    for (const auto& [what, pattern] : identities) {
      std::vector<std::string> lines = matching_lines(text, pattern);
      EXPECT_TRUE(lines.empty()) << kernel << ": " << lines.size() << " times " << what << ", e.g. " << lines.front();
    }
  }
}

}  // namespace
}  // namespace dace::codegen
