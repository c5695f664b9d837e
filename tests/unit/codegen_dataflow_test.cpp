// Data movement: copies between access nodes (other_subset, reshapes, strided), views,
// transients inside scopes, tasklet-to-tasklet edges, nested SDFGs with symbol mapping,
// persistent transients kept across calls.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

void expect_valid(const ir::SDFG& g) {
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
}

TEST(CodegenDataflow, CopyWithOtherSubset) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "copy";
  add_array(*g, "A", T::Float64, {"10"});
  add_array(*g, "B", T::Float64, {"6"});
  ir::State& s = add_state(*g, *g, "s");
  edge(s, access(s, "A"), "", access(s, "B"), "", "A[2:6] -> [1:5]");
  expect_valid(*g);
  std::vector<double> a(10), b(6, -1.0);
  std::iota(a.begin(), a.end(), 0.0);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}}).ok());
  EXPECT_EQ(b, (std::vector<double>{-1, 2, 3, 4, 5, -1}));
}

TEST(CodegenDataflow, StridedAndReshapingCopies) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "reshape";
  add_array(*g, "A", T::Int32, {"4", "6"});
  add_array(*g, "B", T::Int32, {"3", "2"});  // every other column of rows 1..3 -> 3x2? no: a 2x3 block reshaped
  add_array(*g, "C", T::Int32, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  int a = access(s, "A");
  // A[1:3, 0:6:2] is a 2x3 block; it lands in B (3x2) row-major.
  edge(s, a, "", access(s, "B"), "", "A[1:3, 0:6:2] -> [0:3, 0:2]");
  // Column 5 of A into C.
  edge(s, a, "", access(s, "C"), "", "A[0:4, 5] -> [0:4]");
  expect_valid(*g);
  std::vector<int32_t> av(24), bv(6, -1), cv(4, -1);
  std::iota(av.begin(), av.end(), 0);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(av.data())}, {"B", ArgValue::pointer(bv.data())},
                       {"C", ArgValue::pointer(cv.data())}})
                  .ok());
  // Block rows 1..2, columns 0, 2, 4: 6, 8, 10, 12, 14, 16.
  EXPECT_EQ(bv, (std::vector<int32_t>{6, 8, 10, 12, 14, 16}));
  EXPECT_EQ(cv, (std::vector<int32_t>{5, 11, 17, 23}));
}

// V views row 2 of A (an ArrayView with stride 1); a map writes V[j] = j, which lands in A.
TEST(CodegenDataflow, ViewWritesThroughToViewedArray) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "view";
  add_array(*g, "A", T::Float64, {"4", "5"});
  add_view(*g, "V", T::Float64, {"5"}, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"j"}, "0:5", ir::ScheduleType::Sequential);
  int t = tasklet(s, "o = j + 0.5", {}, {"o"});
  edge(s, entry, "", t, "", "");
  int v = access(s, "V");
  edge_out(s, t, "o", exit, v, "V[j]", "V[0:5]");
  s.node(v)->out_connectors["views"] = ir::DType{};
  edge(s, v, "views", access(s, "A"), "", "A[2, 0:5]");
  expect_valid(*g);
  std::vector<double> a(20, 0.0);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}}).ok());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(a[i * 5 + j], i == 2 ? j + 0.5 : 0.0);
}

// A scalar transient inside a parallel map (per-thread storage) between two tasklets, and a
// direct tasklet -> tasklet edge.
TEST(CodegenDataflow, ScopeLocalTransientAndTaskletChain) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "local";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "B", T::Float64, {"N"});
  add_scalar(*g, "tmp", T::Float64, true);
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
  int t1 = tasklet(s, "o = a * 2", {"a"}, {"o"});
  int t2 = tasklet(s, "o = x + 1", {"x"}, {"o"});
  int t3 = tasklet(s, "o = y * y", {"y"}, {"o"});
  edge_in(s, access(s, "A"), entry, t1, "a", "A[0:N]", "A[i]");
  int tmp = access(s, "tmp");
  edge(s, t1, "o", tmp, "", "tmp[0]");
  edge(s, tmp, "", t2, "x", "tmp[0]");
  edge(s, t2, "o", t3, "y", "");
  edge_out(s, t3, "o", exit, access(s, "B"), "B[i]", "B[0:N]");
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 300;
  std::vector<double> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>(i) * 0.5;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}})
                  .ok());
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(b[i], (a[i] * 2 + 1) * (a[i] * 2 + 1));
}

// Outer: B[i*2 : i*2+2] = inner(A[i*2 : i*2+2], K = i + 10) for i in 0:N; inner SDFG writes
// y[k] = x[k] * K + k.
TEST(CodegenDataflow, NestedSdfgWithSymbolMapping) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = "inner";
  inner->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*inner, "x", T::Float64, {"2"});
  add_array(*inner, "y", T::Float64, {"2"});
  {
    ir::State& is = add_state(*inner, *inner, "is");
    auto [entry, exit] = map(is, {"k"}, "0:2", ir::ScheduleType::Sequential);
    int t = tasklet(is, "o = v * K + k", {"v"}, {"o"});
    edge_in(is, access(is, "x"), entry, t, "v", "x[0:2]", "x[k]");
    edge_out(is, t, "o", exit, access(is, "y"), "y[k]", "y[0:2]");
  }
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"2*N"});
  add_array(*g, "B", T::Float64, {"2*N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"i"}, "0:N", ir::ScheduleType::CPU_Multicore);
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = "inner";
  nn->in_connectors["x"] = ir::DType{};
  nn->out_connectors["y"] = ir::DType{};
  nn->symbol_mapping["K"] = E("i + 10");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  int nsdfg = s.add_node(std::move(nn));
  edge_in(s, access(s, "A"), entry, nsdfg, "x", "A[0:2*N]", "A[2*i:2*i+2]");
  edge_out(s, nsdfg, "y", exit, access(s, "B"), "B[2*i:2*i+2]", "B[0:2*N]");
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 25;
  std::vector<double> a(2 * n), b(2 * n);
  for (int64_t i = 0; i < 2 * n; ++i) a[i] = 1.0 + static_cast<double>(i);
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}})
                  .ok());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < 2; ++k)
      EXPECT_EQ(b[2 * i + k], a[2 * i + k] * static_cast<double>(i + 10) + static_cast<double>(k));
}

// P is Persistent (zeroed by init through setzero): it survives between program calls of
// one init/exit pair, so the counter counts calls.
TEST(CodegenDataflow, PersistentTransientSurvivesCalls) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "persist";
  add_array(*g, "P", T::Int64, {"1"}, true, ir::Lifetime::Persistent);
  add_array(*g, "Out", T::Int64, {"1"});
  int s0 = 0, s1 = 0;
  ir::State& st = add_state(*g, *g, "count", &s0);
  {
    int t = tasklet(st, "o = p + 1", {"p"}, {"o"});
    int pin = access(st, "P");
    static_cast<ir::AccessNode*>(st.node(pin))->setzero = true;
    edge(st, pin, "", t, "p", "P[0]");
    edge(st, t, "o", access(st, "P"), "", "P[0]");
  }
  ir::State& st2 = add_state(*g, *g, "publish", &s1);
  edge(st2, access(st2, "P"), "", access(st2, "Out"), "", "P[0] -> [0]");
  add_interstate(*g, s0, s1);
  expect_valid(*g);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int64_t> out{-1};
  ASSERT_TRUE(run_calls(*p, {{"Out", ArgValue::pointer(out.data())}}, 4).ok());
  EXPECT_EQ(out[0], 4);
  ASSERT_TRUE(run_calls(*p, {{"Out", ArgValue::pointer(out.data())}}, 1).ok());
  EXPECT_EQ(out[0], 1);  // a new init starts from zero again
}

// A Reference set to A or B depending on a branch, then read through.
TEST(CodegenDataflow, ReferenceSetInBranches) {
  for (int64_t which : {0, 1}) {
    auto g = std::make_unique<ir::SDFG>();
    g->name = "refs";
    g->symbols["w"] = ir::DType::of(T::Int64);
    add_array(*g, "A", T::Float64, {"4"});
    add_array(*g, "B", T::Float64, {"4"});
    add_array(*g, "Out", T::Float64, {"4"});
    ir::DataDescriptor ref = g->arrays["A"];
    ref.kind = ir::DataKind::Reference;
    ref.json_type = "Reference";
    ref.transient = true;
    g->arrays["ref"] = ref;
    int s0 = 0, sa = 0, sb = 0, sr = 0;
    add_state(*g, *g, "start", &s0);
    ir::State& a = add_state(*g, *g, "seta", &sa);
    ir::State& b = add_state(*g, *g, "setb", &sb);
    ir::State& r = add_state(*g, *g, "read", &sr);
    int ra = access(a, "ref");
    a.node(ra)->in_connectors["set"] = ir::DType{};
    edge(a, access(a, "A"), "", ra, "set", "A[0:4]");
    int rb = access(b, "ref");
    b.node(rb)->in_connectors["set"] = ir::DType{};
    edge(b, access(b, "B"), "", rb, "set", "B[1:4]");
    edge(r, access(r, "ref"), "", access(r, "Out"), "", "ref[0:3] -> [0:3]");
    add_interstate(*g, s0, sa, "w == 0");
    add_interstate(*g, s0, sb, "w != 0");
    add_interstate(*g, sa, sr);
    add_interstate(*g, sb, sr);
    Result<CompiledProgram> p = compile(*g);
    ASSERT_TRUE(p.ok()) << p.error().message;
    std::vector<double> av{1, 2, 3, 4}, bv{10, 20, 30, 40}, out(4, 0.0);
    ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(av.data())}, {"B", ArgValue::pointer(bv.data())},
                         {"Out", ArgValue::pointer(out.data())}, {"w", ArgValue::scalar<int64_t>(which)}})
                    .ok());
    if (which == 0) EXPECT_EQ(out, (std::vector<double>{1, 2, 3, 0}));
    else EXPECT_EQ(out, (std::vector<double>{20, 30, 40, 0}));
  }
}

// CSR row sums with a dynamic map range: the inner map runs over row[i] : row[i+1], read
// through map-entry connectors.
TEST(CodegenDataflow, DynamicMapRange) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "csr";
  g->symbols["H"] = ir::DType::of(T::Int64);
  g->symbols["NNZ"] = ir::DType::of(T::Int64);
  add_array(*g, "row", T::Int32, {"H + 1"});
  add_array(*g, "val", T::Float64, {"NNZ"});
  add_array(*g, "out", T::Float64, {"H"});
  ir::State& s = add_state(*g, *g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:H", ir::ScheduleType::Default);
  auto [ie, ix] = map(s, {"j"}, "rb:re", ir::ScheduleType::Sequential);
  int t = tasklet(s, "o = v", {"v"}, {"o"});
  s.node(oe)->in_connectors["IN_row"] = ir::DType{};
  s.node(oe)->out_connectors["OUT_row"] = ir::DType{};
  s.node(ie)->in_connectors["rb"] = ir::DType::of(T::Int32);
  s.node(ie)->in_connectors["re"] = ir::DType::of(T::Int32);
  edge(s, access(s, "row"), "", oe, "IN_row", "row[0:H+1]");
  edge(s, oe, "OUT_row", ie, "rb", "row[i]");
  edge(s, oe, "OUT_row", ie, "re", "row[i+1]");
  int val = access(s, "val");
  s.node(oe)->in_connectors["IN_val"] = ir::DType{};
  s.node(oe)->out_connectors["OUT_val"] = ir::DType{};
  s.node(ie)->in_connectors["IN_val"] = ir::DType{};
  s.node(ie)->out_connectors["OUT_val"] = ir::DType{};
  edge(s, val, "", oe, "IN_val", "val[0:NNZ]");
  edge(s, oe, "OUT_val", ie, "IN_val", "val[0:NNZ]");
  edge(s, ie, "OUT_val", t, "v", "val[j]");
  s.node(ix)->in_connectors["IN_out"] = ir::DType{};
  s.node(ix)->out_connectors["OUT_out"] = ir::DType{};
  s.node(ox)->in_connectors["IN_out"] = ir::DType{};
  s.node(ox)->out_connectors["OUT_out"] = ir::DType{};
  edge(s, t, "o", ix, "IN_out", "out[i]", "lambda a, b: a + b");
  edge(s, ix, "OUT_out", ox, "IN_out", "out[i]", "lambda a, b: a + b");
  edge(s, ox, "OUT_out", access(s, "out"), "", "out[0:H]", "lambda a, b: a + b");
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::vector<int32_t> row{0, 2, 2, 5, 6};
  std::vector<double> v{1, 2, 3, 4, 5, 6}, out(4, 0.0);
  ASSERT_TRUE(run(*p, {{"row", ArgValue::pointer(row.data())}, {"val", ArgValue::pointer(v.data())},
                       {"out", ArgValue::pointer(out.data())}, {"H", ArgValue::scalar<int64_t>(4)},
                       {"NNZ", ArgValue::scalar<int64_t>(6)}})
                  .ok());
  EXPECT_EQ(out, (std::vector<double>{3, 0, 12, 6}));
}

}  // namespace
}  // namespace dace::codegen::testing
