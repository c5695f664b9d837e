// Stream containers: Array -> Stream -> Array copies keep FIFO order, partial pops leave the
// rest queued for later states, tasklets push (every assignment) and pop (one element per
// execution), parallel pushes lose nothing, and unsupported uses fail with the element's path.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "analysis/validate.h"
#include "codegen_stream_support.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

TEST(CodegenStream, DaceFileArrayToStreamToArrayKeepsOrder) {
  std::vector<float> a = {5.5f, -3.0f, 9.25f, 1.0f, 7.0f}, b(5, 0.0f);
  Status r = run_stream_test_file("stream_copy.sdfg",
                                  {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(b, a);
}

// State 1: A[0:5] -> S. State 2: S -> B[0:2] (first two). State 3: S -> C[0:5] (the other
// three; C[3:5] keeps its values because the stream runs empty).
TEST(CodegenStream, PartialPopsLeaveTheRestForLaterStates) {
  ir::SDFG g;
  g.name = "partial";
  add_array(g, "A", T::Int32, {"5"});
  add_array(g, "B", T::Int32, {"2"});
  add_array(g, "C", T::Int32, {"5"});
  add_stream(g, "S", T::Int32);
  int s1, s2, s3;
  ir::State& a = add_state(g, g, "fill", &s1);
  edge(a, access(a, "A"), "", access(a, "S"), "", "A[0:5]");
  ir::State& b = add_state(g, g, "take2", &s2);
  edge(b, access(b, "S"), "", access(b, "B"), "", "B[0:2]");
  ir::State& c = add_state(g, g, "rest", &s3);
  edge(c, access(c, "S"), "", access(c, "C"), "", "C[0:5]");
  add_interstate(g, s1, s2);
  add_interstate(g, s2, s3);
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile(g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int32_t> av = {10, 20, 30, 40, 50}, bv(2, -1), cv(5, -1);
  Status r = run(*p, {{"A", ArgValue::pointer(av.data())}, {"B", ArgValue::pointer(bv.data())},
                      {"C", ArgValue::pointer(cv.data())}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(bv, (std::vector<int32_t>{10, 20}));
  EXPECT_EQ(cv, (std::vector<int32_t>{30, 40, 50, -1, -1}));
}

// Map 1 pushes 2*A[i] (and, when A[i] is odd, also A[i] + 1000: two assignments, two
// pushes); map 2 pops one element per iteration into B[j].
std::unique_ptr<ir::SDFG> push_pop(ir::ScheduleType push_schedule) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "push_pop";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Int64, {"N"});
  add_array(*g, "B", T::Int64, {"M"});
  add_stream(*g, "S", T::Int64);
  int s1, s2;
  ir::State& a = add_state(*g, *g, "push", &s1);
  auto [me, mx] = map(a, {"i"}, "0:N", push_schedule);
  int t = tasklet(a, "s = 2 * x\nif x % 2 == 1:\n    s = x + 1000", {"x"}, {"s"});
  edge_in(a, access(a, "A"), me, t, "x", "A[0:N]", "A[i]");
  edge_out(a, t, "s", mx, access(a, "S"), "S[0]", "S[0]");
  ir::State& b = add_state(*g, *g, "pop", &s2);
  auto [pe, px] = map(b, {"j"}, "0:M", ir::ScheduleType::Sequential);
  int u = tasklet(b, "y = v", {"v"}, {"y"});
  edge_in(b, access(b, "S"), pe, u, "v", "S[0]", "S[0]");
  edge_out(b, u, "y", px, access(b, "B"), "B[j]", "B[0:M]");
  add_interstate(*g, s1, s2);
  return g;
}

TEST(CodegenStream, TaskletsPushAtEveryAssignmentAndPopOncePerExecution) {
  auto g = push_pop(ir::ScheduleType::Sequential);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int64_t> av = {1, 2, 3, 4}, bv(8, -7);
  Status r = run(*p, {{"A", ArgValue::pointer(av.data())}, {"B", ArgValue::pointer(bv.data())},
                      {"N", ArgValue::scalar<int64_t>(4)}, {"M", ArgValue::scalar<int64_t>(8)}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  // 1 -> 2, 1001; 2 -> 4; 3 -> 6, 1003; 4 -> 8; then two pops of an empty stream give 0.
  EXPECT_EQ(bv, (std::vector<int64_t>{2, 1001, 4, 6, 1003, 8, 0, 0}));
}

TEST(CodegenStream, ParallelPushesLoseNothing) {
  auto g = push_pop(ir::ScheduleType::CPU_Multicore);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 3000;  // many buffer growths while threads push
  std::vector<int64_t> av(n), expected;
  for (int64_t i = 0; i < n; ++i) {
    av[i] = i;
    expected.push_back(2 * i);
    if (i % 2 == 1) expected.push_back(i + 1000);
  }
  std::vector<int64_t> bv(expected.size(), -7);
  Status r = run(*p, {{"A", ArgValue::pointer(av.data())}, {"B", ArgValue::pointer(bv.data())},
                      {"N", ArgValue::scalar<int64_t>(n)},
                      {"M", ArgValue::scalar<int64_t>(static_cast<int64_t>(expected.size()))}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::sort(bv.begin(), bv.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(bv, expected);  // order between threads is unspecified, contents are not
}

TEST(CodegenStream, StreamArgumentIsUnsupportedAndNamed) {
  auto g = stream_test_file("stream_copy.sdfg");
  ASSERT_TRUE(g);
  g->arrays.at("S").transient = false;
  Result<CompiledProgram> p = compile(*g);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find("S"), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("stream arguments"), std::string::npos) << p.error().message;
}

TEST(CodegenStream, IndexedStreamConnectorIsUnsupportedAndNamed) {
  auto g = push_pop(ir::ScheduleType::Sequential);
  ir::State& s = *static_cast<ir::State*>(g->block(0));
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Tasklet) static_cast<ir::Tasklet*>(s.node(id))->code.code = "s[0] = x";
  Result<CompiledProgram> p = compile(*g);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find("stream connector \"s\""), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("push"), std::string::npos) << p.error().message;  // the state's label
}

}  // namespace
}  // namespace dace::codegen::testing
