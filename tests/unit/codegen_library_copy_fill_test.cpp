// CopyLibraryNode and MemsetLibraryNode (src/codegen/library_copy.cpp): contiguous operands
// become memmove/memset, strided ones loops; results against plain loops.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "ir/json/sdfg_json.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

int library(ir::State& s, const std::string& cls, const std::vector<std::string>& ins,
            const std::vector<std::string>& outs, const std::vector<std::pair<std::string, std::string>>& props = {}) {
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = cls;
  n->classpath = "dace.libraries.standard.nodes." + std::string(cls == "CopyLibraryNode" ? "copy_node." : "memset_node.") + cls;
  for (const auto& c : ins) n->in_connectors[c] = ir::DType{};
  for (const auto& c : outs) n->out_connectors[c] = ir::DType{};
  for (const auto& [k, v] : props) n->properties[k] = v;
  return s.add_node(std::move(n));
}

// B[dst] = A[src] through a CopyLibraryNode.
std::unique_ptr<ir::SDFG> copy_sdfg(T ta, T tb, const std::vector<std::string>& ashape,
                                    const std::vector<std::string>& bshape, const std::string& src,
                                    const std::string& dst) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "cp";
  add_array(*g, "A", ta, ashape);
  add_array(*g, "B", tb, bshape);
  if (ashape[0] == "N") g->symbols["N"] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  int n = library(s, "CopyLibraryNode", {"_in"}, {"_out"});
  edge(s, access(s, "A"), "", n, "_in", src);
  edge(s, n, "_out", access(s, "B"), "", dst);
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

bool has(const CompiledProgram& p, const std::string& what) { return p.ir.find(what) != std::string::npos; }

TEST(CodegenLibraryCopyFill, ContiguousCopyIsOneMemmove) {
  auto g = copy_sdfg(T::Float64, T::Float64, {"N", "4"}, {"N", "4"}, "A[0:N, 0:4]", "B[0:N, 0:4]");
  const int64_t N = 5;
  std::vector<double> a(N * 4), b(N * 4, -1.0);
  std::iota(a.begin(), a.end(), 1.0);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(has(*p, "llvm.memmove"));
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"N", ArgValue::scalar<int64_t>(N)}})
                  .ok());
  EXPECT_EQ(b, a);
}

TEST(CodegenLibraryCopyFill, StridedCopyUsesLoops) {
  // Columns 1..3 of every other row of A (6x5) into B (3x3).
  auto g = copy_sdfg(T::Int32, T::Int32, {"6", "5"}, {"3", "3"}, "A[0:6:2, 1:4]", "B[0:3, 0:3]");
  std::vector<int32_t> a(30), b(9, -1), want;
  std::iota(a.begin(), a.end(), 0);
  for (int i = 0; i < 6; i += 2)
    for (int j = 1; j < 4; ++j) want.push_back(a[i * 5 + j]);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_FALSE(has(*p, "llvm.memmove"));
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(b, want);
}

TEST(CodegenLibraryCopyFill, ReshapingAndConvertingCopy) {
  // A 2x6 block (row stride 8) into a 3x4 float32 array, row-major order, float64 -> float32.
  auto g = copy_sdfg(T::Float64, T::Float32, {"2", "8"}, {"3", "4"}, "A[0:2, 1:7]", "B[0:3, 0:4]");
  std::vector<double> a(16);
  std::iota(a.begin(), a.end(), 0.5);
  std::vector<float> b(12, -1.0f), want;
  for (int i = 0; i < 2; ++i)
    for (int j = 1; j < 7; ++j) want.push_back(static_cast<float>(a[i * 8 + j]));
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(b, want);
}

TEST(CodegenLibraryCopyFill, MismatchedElementCountsAreInvalid) {
  auto g = copy_sdfg(T::Float64, T::Float64, {"6"}, {"4"}, "A[0:6]", "B[0:4]");
  LowerOptions o;
  o.validate = false;  // the validator may reject it first; the lowering must too
  Result<CompiledProgram> p = compile(*g, o);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("CopyLibraryNode"), std::string::npos) << p.error().message;
}

std::unique_ptr<ir::SDFG> memset_sdfg(T t, const std::vector<std::string>& shape, const std::string& dst,
                                      const std::vector<std::pair<std::string, std::string>>& props = {}) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "ms";
  add_array(*g, "B", t, shape);
  if (shape[0] == "N") g->symbols["N"] = ir::DType::of(T::Int64);
  ir::State& s = add_state(*g, *g, "s");
  int n = library(s, "MemsetLibraryNode", {}, {"_out"}, props);
  edge(s, n, "_out", access(s, "B"), "", dst);
  Status v = analysis::validate(*g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return g;
}

TEST(CodegenLibraryCopyFill, MemsetSliceIsOneMemset) {
  auto g = memset_sdfg(T::Float64, {"200"}, "B[50:100]");
  std::vector<double> b(200, 1.0), want(200, 1.0);
  for (int i = 50; i < 100; ++i) want[i] = 0.0;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_TRUE(has(*p, "llvm.memset"));
  ASSERT_TRUE(run(*p, {{"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(b, want);
}

TEST(CodegenLibraryCopyFill, MemsetStridedBlockAndSymbolicShape) {
  // B[N, 2, 3]: zero B[1:N-1, 0:2, 1:3] (a strided block), N at run time.
  auto g = memset_sdfg(T::Int64, {"N", "2", "3"}, "B[1:N-1, 0:2, 1:3]");
  const int64_t N = 5;
  std::vector<int64_t> b(N * 6, 7), want = b;
  for (int64_t i = 1; i < N - 1; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 1; k < 3; ++k) want[i * 6 + j * 3 + k] = 0;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"B", ArgValue::pointer(b.data())}, {"N", ArgValue::scalar<int64_t>(N)}}).ok());
  EXPECT_EQ(b, want);
}

TEST(CodegenLibraryCopyFill, FillWithValue) {
  auto g = memset_sdfg(T::Float32, {"3", "4"}, "B[0:3, 1:3]", {{"value", "2.5"}});
  std::vector<float> b(12, 0.0f), want(12, 0.0f);
  for (int i = 0; i < 3; ++i)
    for (int j = 1; j < 3; ++j) want[i * 4 + j] = 2.5f;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(b, want);
}

// The JSON reader keeps both classes as generic library nodes with their connectors and
// properties: written and read back, the SDFG still compiles to the same behaviour.
TEST(CodegenLibraryCopyFill, SurvivesJsonRoundTrip) {
  auto g = memset_sdfg(T::Float64, {"4"}, "B[1:3]", {{"value", "1.5"}});
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(ir::json::write_sdfg(*g));
  ASSERT_TRUE(back.ok()) << back.error().message;
  Result<CompiledProgram> p = compile(**back);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<double> b(4, 0.0);
  ASSERT_TRUE(run(*p, {{"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(b, (std::vector<double>{0.0, 1.5, 1.5, 0.0}));

  auto c = copy_sdfg(T::Int32, T::Int32, {"4"}, {"4"}, "A[0:4]", "B[0:4]");
  Result<std::unique_ptr<ir::SDFG>> cback = ir::json::read_sdfg(ir::json::write_sdfg(*c));
  ASSERT_TRUE(cback.ok()) << cback.error().message;
  Result<CompiledProgram> q = compile(**cback);
  ASSERT_TRUE(q.ok()) << q.error().message;
  std::vector<int32_t> a{1, 2, 3, 4}, d(4, 0);
  ASSERT_TRUE(run(*q, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(d.data())}}).ok());
  EXPECT_EQ(d, a);
}

}  // namespace
}  // namespace dace::codegen::testing
