// Every *.opt.sdfg of the corpus (DaCe's auto_optimize output, with BLAS nodes expanded into
// C++ tasklets that call CBLAS): those that compile run on their case.json and must match
// NumPy; those that do not must fail with Unsupported naming the element, and the list of
// them is fixed below so that a change in either direction shows up.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include "lowering/multicore.h"
#include "lowering/vendor_lowering.h"
#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "parallel_for_calls.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "plugin/registry.h"

namespace dace::codegen::testing {
namespace {

namespace fs = std::filesystem;

std::vector<CorpusFile> opt_files() {
  std::vector<CorpusFile> out;
  for (const fs::path& d : corpus_case_dirs()) {
    std::string kernel = d.filename().string();
    fs::path f = d / (kernel + ".opt.sdfg");
    if (fs::exists(f)) out.push_back({f.string(), d.string(), kernel});
  }
  return out;
}

// Kernels whose opt.sdfg libdace cannot compile yet, with a piece of the expected message.
const std::map<std::string, std::string>& expected_unsupported() {
  static const std::map<std::string, std::string> m = {};
  return m;
}

// The CPU plugin's registrations (CPU_Multicore, OpenBLAS) with libopenblas loaded into the
// test session; null when libopenblas is not installed.
const plugin::Registry* cpu_registry() {
  static std::unique_ptr<plugin::Registry> r = []() -> std::unique_ptr<plugin::Registry> {
    if (!dlopen("libopenblas.so.0", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE)) return nullptr;
    if (!session().add_library("libopenblas.so.0").ok()) return nullptr;
    auto reg = std::make_unique<plugin::Registry>("cpu");
    (void)cpu::register_schedules(*reg);
    (void)cpu::register_cpp_tasklets(*reg);
    (void)cpu::register_blas(*reg);
    (void)reg->add_vendor_library("libopenblas.so.0", false);
    reg->set_vendor_library_status("libopenblas.so.0", true, "");
    return reg;
  }();
  return r.get();
}

class CorpusOpt : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusOpt, CompilesAndMatchesNumPyOrIsUnsupported) {
  const CorpusFile& cf = GetParam();
  const plugin::Registry* registry = cpu_registry();
  if (!registry) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  Status valid = analysis::validate(**sdfg);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  LowerOptions options;
  options.registry = registry;
  Result<CompiledProgram> prog = compile(**sdfg, options);
  auto expected = expected_unsupported().find(cf.name);
  if (!prog.ok()) {
    std::printf("[ opt.sdfg ] %s: not compiled: %s\n", cf.name.c_str(), prog.error().message.c_str());
    EXPECT_EQ(prog.error().code, Code::Unsupported) << prog.error().message;
    // The message names the element by path (sdfg "..." / state "..." / node ...).
    EXPECT_NE(prog.error().message.find("sdfg \""), std::string::npos) << prog.error().message;
    ASSERT_NE(expected, expected_unsupported().end()) << cf.name << " no longer compiles: " << prog.error().message;
    EXPECT_NE(prog.error().message.find(expected->second), std::string::npos) << prog.error().message;
    return;
  }
  EXPECT_EQ(expected, expected_unsupported().end()) << cf.name << " compiles now: update expected_unsupported()";
  run_corpus_case(cf.dir, **sdfg, *prog);
}

// Sets the code of every C++ tasklet of `g` (nested SDFGs included) to `code`; returns how many.
int replace_cpp_code(ir::SDFG& g, const std::string& code) {
  int n = 0;
  for (ir::State* st : g.all_states())
    for (int id : st->node_ids()) {
      ir::Node* node = st->node(id);
      if (node->kind == ir::NodeKind::Tasklet) {
        auto* t = static_cast<ir::Tasklet*>(node);
        if (t->code.language == ir::Language::CPP) {
          t->code.code = code;
          ++n;
        }
      } else if (node->kind == ir::NodeKind::NestedSDFG) {
        n += replace_cpp_code(*static_cast<ir::NestedSDFGNode*>(node)->sdfg, code);
      }
    }
  return n;
}

// Other C++ code, or the same calls without OpenBLAS, is Unsupported naming the tasklet.
TEST(CorpusOptErrors, UnrecognizedCppTaskletsAreUnsupported) {
  fs::path file = fs::path(LIBDACE_CORPUS_DIR) / "gemm" / "gemm.opt.sdfg";
  if (!fs::exists(file)) GTEST_SKIP() << "corpus not found";
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(file.string());
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  LowerOptions no_blas;  // no registry: no OpenBLAS
  Result<CompiledProgram> p = compile(**sdfg, no_blas);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find("Tasklet \"_MatMult_gemm\""), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("OpenBLAS"), std::string::npos) << p.error().message;

  // With the CPU plugin's schedules but not its C++ tasklet lowering nothing claims the call.
  plugin::Registry bare("cpu");
  ASSERT_TRUE(cpu::register_schedules(bare).ok());
  LowerOptions none;
  none.registry = &bare;
  Result<CompiledProgram> r = compile(**sdfg, none);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::Unsupported);
  EXPECT_NE(r.error().message.find("Tasklet \"_MatMult_gemm\""), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("C++ tasklet \"cblas_dgemm("), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("lowered by no loaded plugin"), std::string::npos) << r.error().message;

  if (!cpu_registry()) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  LowerOptions options;
  options.registry = cpu_registry();
  {
    // Code that names no vendor call is no plugin's.
    ASSERT_GT(replace_cpp_code(**sdfg, "printf(\"%d\", 1);"), 0);
    Result<CompiledProgram> q = compile(**sdfg, options);
    ASSERT_FALSE(q.ok());
    EXPECT_EQ(q.error().code, Code::Unsupported);
    EXPECT_NE(q.error().message.find("lowered by no loaded plugin"), std::string::npos) << q.error().message;
    EXPECT_NE(q.error().message.find("Tasklet"), std::string::npos) << q.error().message;
  }
  for (const char* code : {"cblas_dgemm(CblasRowMajor);", "int x = 0; cblas_ddot(1, _a, 1, _b, 1);",
                           "cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NJ, NI, NK, alpha, _b, NJ, _a, NK, "
                           "double(0), _c, NJ);"}) {
    ASSERT_GT(replace_cpp_code(**sdfg, code), 0);
    Result<CompiledProgram> q = compile(**sdfg, options);
    ASSERT_FALSE(q.ok()) << code;
    EXPECT_EQ(q.error().code, Code::Unsupported) << code;
    EXPECT_NE(q.error().message.find("not a recognized CBLAS call"), std::string::npos) << q.error().message;
    EXPECT_NE(q.error().message.find("Tasklet"), std::string::npos) << q.error().message;
  }
}

// DaCe's doitgen: a CPU_Multicore map over r (Default schedule) whose body is one C++ tasklet
// calling cblas_dgemm. Each iteration is a whole product, so the map gets the dynamic schedule
// (plugins/cpu/lowering/parallel_map.cpp, map_schedule), not static blocks. The parallel_for
// sits between dace_cpu_vendor_threads_begin and end (OpenBLAS single-threaded in the team).
TEST(CorpusOptSchedules, BlasCallPerIterationIsDynamic) {
  fs::path dir = fs::path(LIBDACE_CORPUS_DIR) / "doitgen";
  if (!fs::exists(dir / "doitgen.opt.sdfg")) GTEST_SKIP() << "corpus not found";
  if (!cpu_registry()) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file((dir / "doitgen.opt.sdfg").string());
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  LowerOptions options;
  options.registry = cpu_registry();
  Result<CompiledProgram> prog = compile(**sdfg, options);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  EXPECT_NE(prog->ir.find("@cblas_dgemm("), std::string::npos);
  EXPECT_EQ(parallel_for_schedules(prog->ir), std::vector<int>{1});
  const size_t begin = prog->ir.find("call i32 @dace_cpu_vendor_threads_begin(");
  const size_t fork = prog->ir.find("call void @dace_cpu_parallel_for(");
  const size_t end = prog->ir.find("call void @dace_cpu_vendor_threads_end(");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  EXPECT_LT(begin, fork);
  EXPECT_LT(fork, end);
  run_corpus_case(dir.string(), **sdfg, *prog);
  EXPECT_EQ(open_vendor_thread_regions(), 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusOpt, ::testing::ValuesIn(opt_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
