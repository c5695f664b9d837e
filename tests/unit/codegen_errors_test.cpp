// Inputs the lowering cannot compile give a status naming the element, never a crash.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <filesystem>

#include "codegen/lower.h"
#include "codegen_elementwise.h"
#include "codegen_test_support.h"
#include "cpu_test_registry.h"
#include "ir/json/sdfg_json.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

Result<LoweredModule> lower_it(const ir::SDFG& g, bool validate = true) {
  static llvm::LLVMContext ctx;
  LowerOptions o;
  o.registry = &cpu_schedule_registry();
  o.validate = validate;
  return lower(g, ctx, o);
}

TEST(CodegenErrors, CppTaskletIsUnsupported) {
  auto g = elementwise("cpp", {{"a", "A", T::Float64}}, {{"b", "B", T::Float64}}, "b = a;");
  for (int id : static_cast<ir::State*>(g->block(0))->node_ids()) {
    ir::Node* n = static_cast<ir::State*>(g->block(0))->node(id);
    if (n->kind == ir::NodeKind::Tasklet) static_cast<ir::Tasklet*>(n)->code.language = ir::Language::CPP;
  }
  Result<LoweredModule> m = lower_it(*g);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find("Tasklet"), std::string::npos) << m.error().message;
}

TEST(CodegenErrors, BadTaskletCodeIsAnError) {
  // A syntax error and a type error (unknown attribute).
  for (const char* code : {"b = a +", "b = a.foo"}) {
    auto g = elementwise("bad", {{"a", "A", T::Float64}}, {{"b", "B", T::Float64}}, code);
    Result<LoweredModule> m = lower_it(*g, false);
    ASSERT_FALSE(m.ok()) << code;
    EXPECT_NE(m.error().message.find("Tasklet"), std::string::npos) << m.error().message;
  }
}

TEST(CodegenErrors, GpuStorageIsUnsupported) {
  auto g = elementwise("gpu", {{"a", "A", T::Float64}}, {{"b", "B", T::Float64}}, "b = a");
  add_array(*g, "G", T::Float64, {"N"}, true);
  g->arrays["G"].storage = ir::StorageType::GPU_Global;
  Result<LoweredModule> m = lower_it(*g, false);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
}

// Every corpus file, including the auto-optimized ones with C++ tasklets and the 0.14
// dialect (GPU schedules, references), either lowers to verified IR or is rejected.
TEST(CodegenErrors, EveryCorpusFileLowersOrIsRejected) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(LIBDACE_CORPUS_DIR, ec)) GTEST_SKIP() << "corpus not found";
  int lowered = 0, rejected = 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(LIBDACE_CORPUS_DIR, ec))
    if (e.path().extension() == ".sdfg") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(f.string());
    if (!g.ok()) continue;  // the reader's business
    Result<LoweredModule> m = lower_it(**g, false);
    if (m.ok()) {
      ++lowered;
    } else {
      ++rejected;
      EXPECT_NE(m.error().code, Code::Internal) << f << ": " << m.error().message;
    }
  }
  EXPECT_GE(lowered, 28);
  (void)rejected;
}

}  // namespace
}  // namespace dace::codegen::testing
