// Consume scopes: the body runs once per element of the stream, including elements the body
// pushes back; pe_index is 0 (one processing element); a quiescence condition ends the loop
// early; malformed scopes fail with the element's path.
#include <gtest/gtest.h>

#include <vector>

#include "analysis/validate.h"
#include "codegen_stream_support.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

TEST(CodegenConsume, DaceFileSumOfSquares) {
  Result<CompiledProgram> p = compile_stream_test_file("stream_sumsq.sdfg");
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<double> a = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, out = {0.0};
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"out", ArgValue::pointer(out.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(out[0], 285.0);  // 0 + 1 + 4 + ... + 81
  std::vector<double> b = {-1.5, 2.5, 0.5, 3, -2, 1, 1, 1, 0, 4};
  out = {10.0};  // WCR adds to what is there
  r = run(*p, {{"A", ArgValue::pointer(b.data())}, {"out", ArgValue::pointer(out.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(out[0], 10.0 + 2.25 + 6.25 + 0.25 + 9 + 4 + 1 + 1 + 1 + 0 + 16);
}

TEST(CodegenConsume, DaceFileCountdownProcessesPushedElements) {
  Result<CompiledProgram> p = compile_stream_test_file("stream_countdown.sdfg");
  ASSERT_TRUE(p.ok()) << p.error().message;
  // A value v is popped, then v-1, ..., 0: v + 1 pops each.
  std::vector<int64_t> a = {3, 0, 5}, count = {0};
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"count", ArgValue::pointer(count.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(count[0], 4 + 1 + 6);
  a = {0, 0, 0};
  count = {0};
  r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"count", ArgValue::pointer(count.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(count[0], 3);
}

// fill: A[0:2] -> S. consume (pe p): pop x; count += 1 + 100 * p; if x > 0 push x - 1;
// last[0] = x (the last element processed). Optional quiescence condition.
std::unique_ptr<ir::SDFG> countdown(const std::string& condition) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "countdown";
  add_array(*g, "A", T::Int32, {"2"});
  add_array(*g, "count", T::Int64, {"1"});
  add_array(*g, "last", T::Int32, {"1"});
  add_stream(*g, "S", T::Int32);
  int s1, s2;
  ir::State& a = add_state(*g, *g, "fill", &s1);
  edge(a, access(a, "A"), "", access(a, "S"), "", "A[0:2]");
  ir::State& b = add_state(*g, *g, "work", &s2);
  auto [ce, cx] = consume(b, "p", condition);
  int t = tasklet(b, "c = 1 + 100 * p\nl = x\nif x > 0:\n    s = x - 1", {"x"}, {"c", "l", "s"});
  edge(b, access(b, "S"), "", ce, "IN_stream", "S[0]");
  edge(b, ce, "OUT_stream", t, "x", "S[0]");
  edge_out(b, t, "c", cx, access(b, "count"), "count[0]", "count[0]", "lambda a, b: a + b");
  edge_out(b, t, "l", cx, access(b, "last"), "last[0]", "last[0]");
  edge_out(b, t, "s", cx, access(b, "S"), "S[0]", "S[0]");
  add_interstate(*g, s1, s2);
  return g;
}

TEST(CodegenConsume, SequentialPeIndexIsZeroAndOrderIsFifo) {
  auto g = countdown("");
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int32_t> a = {2, 1}, last = {-1};
  std::vector<int64_t> count = {0};
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"count", ArgValue::pointer(count.data())},
                      {"last", ArgValue::pointer(last.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  // FIFO: 2, 1 | 1 (from 2), 0 (from 1) | 0 (from 1): five pops, the last one 0.
  EXPECT_EQ(count[0], 5);
  EXPECT_EQ(last[0], 0);
}

TEST(CodegenConsume, QuiescenceConditionStopsEarly) {
  auto g = countdown("count[0] >= 3");
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int32_t> a = {5, 7}, last = {-1};
  std::vector<int64_t> count = {0};
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())}, {"count", ArgValue::pointer(count.data())},
                      {"last", ArgValue::pointer(last.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  // Pops 5, 7, 4 (pushed by 5); then count is 3 and the condition holds.
  EXPECT_EQ(count[0], 3);
  EXPECT_EQ(last[0], 4);
}

TEST(CodegenConsume, MissingStreamEdgeIsInvalidAndNamed) {
  auto g = countdown("");
  ir::State& b = *static_cast<ir::State*>(g->block(1));
  for (int e : b.edge_ids())
    if (b.edge(e)->dst_conn == "IN_stream") {
      b.edge(e)->dst_conn = "IN_other";
      ir::Node* entry = b.node(b.edge(e)->dst);
      entry->in_connectors.erase("IN_stream");
      entry->in_connectors["IN_other"] = ir::DType{};
    }
  Result<CompiledProgram> p = compile(*g);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::InvalidSdfg);
  // Validation (run by compile) or the lowering: either names the consume scope by path.
  EXPECT_NE(p.error().message.find("state \"work\" / node 0 (ConsumeEntry \"c\")"), std::string::npos)
      << p.error().message;
}

TEST(CodegenConsume, ConsumingAnArrayIsInvalidAndNamed) {
  auto g = countdown("");
  ir::State& b = *static_cast<ir::State*>(g->block(1));
  for (int e : b.edge_ids())
    if (b.edge(e)->dst_conn == "IN_stream") {
      b.edge(e)->memlet.data = "A";
      static_cast<ir::AccessNode*>(b.node(b.edge(e)->src))->data = "A";
    } else if (b.edge(e)->src_conn == "OUT_stream") {
      b.edge(e)->memlet.data = "A";
    }
  Result<CompiledProgram> p = compile(*g);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::InvalidSdfg);
  EXPECT_NE(p.error().message.find("\"A\", which is not a stream"), std::string::npos) << p.error().message;
}

}  // namespace
}  // namespace dace::codegen::testing
