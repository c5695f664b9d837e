// The LAPACKE C++ tasklets of DaCe's auto-optimized SDFGs (plugins/cpu/lowering/lapacke_tasklet.cpp),
// on the DaCe-written tests/data/linalg/*/*.opt.sdfgz: DaCe's exact text compiles into the
// same LAPACKE call; variants of it, and the calls without LAPACKE, are Unsupported naming the
// tasklet and why. (tests/scripts/frontend_cases.sh runs the same files against NumPy.)
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "ir/json/sdfg_json.h"
#include "lapack_test_support.h"

namespace dace::codegen::testing {
namespace {

namespace fs = std::filesystem;

fs::path linalg_dir() { return fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "linalg"; }

std::unique_ptr<ir::SDFG> load(const std::string& kernel) {
  fs::path f = linalg_dir() / kernel / (kernel + ".opt.sdfgz");
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(f.string());
  EXPECT_TRUE(g.ok()) << f << ": " << g.error().message;
  if (!g.ok()) return nullptr;
  Status v = analysis::validate(**g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return std::move(*g);
}

// The C++ tasklets of `g` (nested SDFGs included) whose code contains `marker`.
std::vector<ir::Tasklet*> cpp_tasklets(ir::SDFG& g, const std::string& marker) {
  std::vector<ir::Tasklet*> out;
  for (ir::State* st : g.all_states())
    for (int id : st->node_ids()) {
      ir::Node* node = st->node(id);
      if (node->kind == ir::NodeKind::Tasklet) {
        auto* t = static_cast<ir::Tasklet*>(node);
        if (t->code.language == ir::Language::CPP && t->code.code.find(marker) != std::string::npos) out.push_back(t);
      } else if (node->kind == ir::NodeKind::NestedSDFG) {
        for (ir::Tasklet* t : cpp_tasklets(*static_cast<ir::NestedSDFGNode*>(node)->sdfg, marker)) out.push_back(t);
      }
    }
  return out;
}

bool calls(const CompiledProgram& p, const std::string& fn) { return p.ir.find("@" + fn + "(") != std::string::npos; }

TEST(CodegenLapackTasklet, DaceWrittenCallsCompileToTheSameLapackeCalls) {
  REQUIRE_LAPACKE();
  struct Case {
    const char* kernel;
    std::vector<std::string> functions;
  };
  for (const Case& c : {Case{"linalg_solve", {"LAPACKE_dgetrf", "LAPACKE_dgetrs"}},
                        Case{"linalg_solve_f32", {"LAPACKE_sgetrf", "LAPACKE_sgetrs"}},
                        Case{"linalg_solve_c128", {"LAPACKE_zgetrf", "LAPACKE_zgetrs"}},
                        Case{"linalg_inv", {"LAPACKE_dgetrf", "LAPACKE_dgetri"}},
                        Case{"linalg_cholesky", {"LAPACKE_dpotrf"}},
                        Case{"linalg_cholesky_f32", {"LAPACKE_spotrf"}}}) {
    std::unique_ptr<ir::SDFG> g = load(c.kernel);
    ASSERT_NE(g, nullptr);
    ASSERT_FALSE(cpp_tasklets(*g, "LAPACKE_").empty()) << c.kernel;
    Result<CompiledProgram> p = compile(*g, with_lapack());
    ASSERT_TRUE(p.ok()) << c.kernel << ": " << p.error().message;
    for (const std::string& fn : c.functions) EXPECT_TRUE(calls(*p, fn)) << c.kernel << " " << fn;
  }
}

TEST(CodegenLapackTasklet, WithoutLapackeUnsupportedNamingCallAndLibrary) {
  std::unique_ptr<ir::SDFG> g = load("linalg_solve");
  ASSERT_NE(g, nullptr);
  auto not_loaded = make_lapack_registry(true, false);
  std::vector<LowerOptions> cases(2);
  cases[1].registry = not_loaded.get();
  for (const LowerOptions& o : cases) {
    Result<CompiledProgram> p = compile(*g, o);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, Code::Unsupported);
    EXPECT_NE(p.error().message.find("LAPACKE_dgetr"), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find("liblapacke.so.3"), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find("Tasklet"), std::string::npos) << p.error().message;
  }
}

// Each variant replaces DaCe's getrf call in linalg_solve (connectors _xin, _ipiv, _res).
TEST(CodegenLapackTasklet, VariantsAreRefusedWithTheReason) {
  REQUIRE_LAPACKE();
  struct Variant {
    std::string code, reason;
  };
  const std::vector<Variant> variants = {
      {"_res = LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _ipiv);", "is not one of"},
      {"_res = LAPACKE_xgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _ipiv);", "is not one of"},
      {"_res = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N);", "takes 6 arguments, got 5"},
      {"_res = LAPACKE_dgetrf(CblasRowMajor, N, N, _xin, N, _ipiv);", "is not a LAPACK layout"},
      {"_res = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, N, N, _nope, N, _ipiv);", "\"_nope\" is not a connector"},
      {"_res = LAPACKE_sgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _ipiv);", "holds float64, not float32"},
      {"_res = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _xin);", "holds float64, not int32"},
      {"_res = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _ipiv); _res = 0;", "not a single function call"},
      {"int info; _res = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, N, N, _xin, N, _ipiv);", "assignment to \"int info; _res\""},
  };
  for (const Variant& v : variants) {
    std::unique_ptr<ir::SDFG> g = load("linalg_solve");
    ASSERT_NE(g, nullptr);
    std::vector<ir::Tasklet*> getrf = cpp_tasklets(*g, "LAPACKE_dgetrf");
    ASSERT_EQ(getrf.size(), 1u);
    getrf[0]->code.code = v.code;
    Result<CompiledProgram> p = compile(*g, with_lapack());
    ASSERT_FALSE(p.ok()) << v.code;
    EXPECT_EQ(p.error().code, Code::Unsupported) << v.code;
    EXPECT_NE(p.error().message.find("not a recognized LAPACKE call"), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find(v.reason), std::string::npos) << v.code << "\n" << p.error().message;
  }
  // A character argument must be a literal.
  std::unique_ptr<ir::SDFG> g = load("linalg_cholesky");
  ASSERT_NE(g, nullptr);
  std::vector<ir::Tasklet*> potrf = cpp_tasklets(*g, "LAPACKE_dpotrf");
  ASSERT_EQ(potrf.size(), 1u);
  potrf[0]->code.code = "_res = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, uplo, N, _xin, N);";
  Result<CompiledProgram> p = compile(*g, with_lapack());
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("is not a character literal"), std::string::npos) << p.error().message;
}

// Cholesky's mapped zeroing tasklet `_out = (__i < __j) ? 0 : _inp;`: other selects of that
// shape work too; operands that are neither numbers nor input connectors are refused.
TEST(CodegenLapackTasklet, CholeskyZeroingSelect) {
  REQUIRE_LAPACKE();
  std::unique_ptr<ir::SDFG> g = load("linalg_cholesky");
  ASSERT_NE(g, nullptr);
  std::vector<ir::Tasklet*> zero = cpp_tasklets(*g, "?");
  ASSERT_EQ(zero.size(), 1u);
  EXPECT_EQ(zero[0]->code.code, "_out = (__i < __j) ? 0 : _inp;");
  zero[0]->code.code = "_out = (__i >= __j) ? _inp : 0.0;";
  Result<CompiledProgram> p = compile(*g, with_lapack());
  EXPECT_TRUE(p.ok()) << p.error().message;
  for (const char* bad : {"_out = (__i < __j) ? 0 : _nope;", "_out = (__i < __j) ? 0 : _out;",
                          "_out = (__i < __j) ? 0 : _inp + 1;"}) {
    zero[0]->code.code = bad;
    Result<CompiledProgram> q = compile(*g, with_lapack());
    ASSERT_FALSE(q.ok()) << bad;
    EXPECT_EQ(q.error().code, Code::Unsupported) << bad;
    EXPECT_NE(q.error().message.find("not a recognized LAPACKE call"), std::string::npos) << q.error().message;
  }
}

}  // namespace
}  // namespace dace::codegen::testing
