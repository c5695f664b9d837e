// The same SDFG lowers to byte-identical IR, every time, in any context.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <filesystem>

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

TEST(CodegenDeterminism, LoweringTwiceGivesIdenticalIr) {
  for (const char* kernel : {"mandelbrot1/mandelbrot1.simp.sdfg", "softmax/softmax.raw.sdfg", "crc16/crc16.simp.sdfg",
                             "dialects/dace-2.0a5/jacobi_2d.simp.sdfg"}) {
    std::string path = std::string(LIBDACE_CORPUS_DIR) + "/" + kernel;
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "corpus not found";
    Result<std::unique_ptr<ir::SDFG>> a = ir::json::read_sdfg_file(path);
    ASSERT_TRUE(a.ok()) << a.error().message;
    Result<std::unique_ptr<ir::SDFG>> b = ir::json::read_sdfg_file(path);
    ASSERT_TRUE(b.ok()) << b.error().message;
    std::string t1 = lower_text(**a);
    std::string t2 = lower_text(**a);
    std::string t3 = lower_text(**b);
    EXPECT_FALSE(t1.empty());
    EXPECT_EQ(t1, t2) << kernel;
    EXPECT_EQ(t1, t3) << kernel;
  }
}

}  // namespace
}  // namespace dace::codegen
