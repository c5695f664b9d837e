// MapFusion on hand-built SDFGs: fused results are compared with plain C++ loops; fusions
// that would change results (neighbour reads, different ranges, WCR) are refused with a
// reason; kept intermediates are still written; the same input gives the same bytes.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "ir/json/sdfg_json.h"
#include "transform/map_fusion.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

// Named one by one: `dace::tasklet` (a namespace) would make a using-directive ambiguous.
using codegen::testing::access;
using codegen::testing::add_array;
using codegen::testing::add_interstate;
using codegen::testing::add_state;
using codegen::testing::edge;
using codegen::testing::edge_in;
using codegen::testing::edge_out;
using codegen::testing::map;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// Applies MapFusion at its first legal match; validates.
std::optional<Match> fuse_once(ir::SDFG& g) {
  MapFusion t;
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, t, am);
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return std::nullopt;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return *m;
}

// The refusal reasons of every match (empty when one applies).
std::string refusals(ir::SDFG& g, int* matches = nullptr) {
  MapFusion t;
  AnalysisManager am;
  std::string out;
  const std::vector<Match> all = t.enumerate(g, am);
  if (matches) *matches = static_cast<int>(all.size());
  for (const Match& m : all) {
    if (t.can_be_applied(g, m, am)) return "";
    out += t.why_not() + "\n";
  }
  return out;
}

// T[i] = A[i] * 2 over i; B[j] = T[j + shift] + 1 over j (same range 0:N - cut).
struct Chain {
  std::string second_param = "j";
  std::string second_range = "0:N";
  std::string read = "T[j]";
  std::string read_outer = "T[0:N]";
  bool t_transient = true;
  std::string wcr;
  std::string write = "T[i]";
};

std::unique_ptr<ir::SDFG> chain(const Chain& c) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "mf_chain";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["M"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"N"}, c.t_transient);
  add_array(*g, "B", T::Float64, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  auto [e1, x1] = map(s, {"i"}, "0:N");
  auto [e2, x2] = map(s, {c.second_param}, c.second_range);
  const int t1 = tasklet(s, "t = a * 2", {"a"}, {"t"});
  const int t2 = tasklet(s, "b = t + 1", {"t"}, {"b"});
  const int tn = access(s, "T");
  edge_in(s, access(s, "A"), e1, t1, "a", "A[0:N]", "A[i]");
  edge_out(s, t1, "t", x1, tn, c.write, c.wcr.empty() ? "T[0:N]" : "T[0]", c.wcr);
  edge_in(s, tn, e2, t2, "t", c.read_outer, c.read);
  edge_out(s, t2, "b", x2, access(s, "B"), "B[" + c.second_param + "]", "B[0:N]");
  return g;
}

int count_maps(const ir::SDFG& g) { return count_nodes(g, ir::NodeKind::MapEntry); }

TEST(TransformMapFusion, FusesAChainAndRemovesTheIntermediate) {
  auto g = chain({});
  const int64_t n = 7;
  std::vector<double> a(n), t(n, 0), b(n, 0), expect(n);
  for (int64_t i = 0; i < n; ++i) a[i] = 0.25 * static_cast<double>(i * i) - 1;
  for (int64_t i = 0; i < n; ++i) expect[i] = a[i] * 2 + 1;

  ASSERT_TRUE(fuse_once(*g));
  EXPECT_EQ(count_maps(*g), 1);
  EXPECT_EQ(count_nodes(*g, ir::NodeKind::MapExit), 1);
  EXPECT_FALSE(g->arrays.count("T")) << "an intermediate used nowhere else is removed";
  ASSERT_TRUE(g->arrays.count("__map_fusion_T"));
  EXPECT_EQ(g->arrays.at("__map_fusion_T").kind, ir::DataKind::Scalar);
  EXPECT_TRUE(g->arrays.at("__map_fusion_T").transient);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}, {"M", n}});
  EXPECT_EQ(b, expect);
  EXPECT_EQ(refusals(*g), "") << "no pattern is left";
}

TEST(TransformMapFusion, RefusesANeighbourRead) {
  // B[j] = T[j + 1] + 1: iteration j needs what iteration j + 1 of the first map writes.
  Chain c;
  c.second_range = "0:N - 1";
  c.read = "T[j + 1]";
  c.read_outer = "T[1:N]";
  c.write = "T[i]";
  auto g = chain(c);
  // Make both ranges equal so that only the neighbour access decides.
  for (ir::State* s : g->all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::MapEntry)
        static_cast<ir::MapEntry*>(s->node(id))->map.range = *sym::parse_subset("0:N - 1");
  int matches = 0;
  const std::string why = refusals(*g, &matches);
  EXPECT_EQ(matches, 1);
  EXPECT_NE(why.find("reads T[i + 1]"), std::string::npos) << why;
  EXPECT_NE(why.find("does not write"), std::string::npos) << why;
  EXPECT_FALSE(fuse_once(*g));
}

TEST(TransformMapFusion, RefusesDifferentRanges) {
  Chain c;
  c.second_range = "0:M";
  auto g = chain(c);
  const std::string why = refusals(*g);
  EXPECT_NE(why.find("the map ranges differ"), std::string::npos) << why;
}

TEST(TransformMapFusion, RefusesAWriteConflictResolution) {
  // T[0] += A[i] over i, then B[j] = T[0] + 1: every iteration of the second map needs the
  // complete sum.
  Chain c;
  c.write = "T[0]";
  c.wcr = "lambda a, b: a + b";
  c.read = "T[0]";
  c.read_outer = "T[0]";
  auto g = chain(c);
  const std::string why = refusals(*g);
  EXPECT_NE(why.find("write-conflict resolution"), std::string::npos) << why;
}

TEST(TransformMapFusion, KeepsANonTransientIntermediateAsOutput) {
  Chain c;
  c.t_transient = false;
  auto g = chain(c);
  const int64_t n = 5;
  std::vector<double> a(n), t(n, 0), b(n, 0), expect_t(n), expect_b(n);
  for (int64_t i = 0; i < n; ++i) a[i] = 3.0 - static_cast<double>(i);
  for (int64_t i = 0; i < n; ++i) expect_t[i] = a[i] * 2, expect_b[i] = a[i] * 2 + 1;

  ASSERT_TRUE(fuse_once(*g));
  EXPECT_EQ(count_maps(*g), 1);
  ASSERT_TRUE(g->arrays.count("T"));
  // T is still written, from the fused map's exit.
  const auto* s = static_cast<const ir::State*>(g->block(0));
  bool written = false;
  for (int id : s->node_ids()) {
    const ir::Node* node = s->node(id);
    if (node->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode*>(node)->data == "T")
      for (int e : s->in_edges(id)) written |= s->node(s->edge(e)->src)->kind == ir::NodeKind::MapExit;
  }
  EXPECT_TRUE(written);
  run_sdfg(*g, {{"A", &a}, {"T", &t}, {"B", &b}}, {{"N", n}, {"M", n}});
  EXPECT_EQ(t, expect_t);
  EXPECT_EQ(b, expect_b);
}

TEST(TransformMapFusion, KeepsATransientReadInALaterState) {
  auto g = chain({});
  // A second state copies T to C: T must survive the fusion.
  add_array(*g, "C", T::Float64, {"N"});
  int s0 = 0, s1 = 0;
  for (int slot : g->block_slots()) s0 = slot;
  ir::State& later = add_state(*g, *g, "later", &s1);
  add_interstate(*g, s0, s1);
  auto [e, x] = map(later, {"k"}, "0:N");
  const int t = tasklet(later, "c = t", {"t"}, {"c"});
  edge_in(later, access(later, "T"), e, t, "t", "T[0:N]", "T[k]");
  edge_out(later, t, "c", x, access(later, "C"), "C[k]", "C[0:N]");

  const int64_t n = 6;
  std::vector<double> a(n), b(n, 0), cc(n, 0), expect_b(n), expect_c(n);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>(i) + 0.5;
  for (int64_t i = 0; i < n; ++i) expect_c[i] = a[i] * 2, expect_b[i] = a[i] * 2 + 1;
  ASSERT_TRUE(fuse_once(*g));
  EXPECT_TRUE(g->arrays.count("T"));
  run_sdfg(*g, {{"A", &a}, {"B", &b}, {"C", &cc}}, {{"N", n}, {"M", n}});
  EXPECT_EQ(b, expect_b);
  EXPECT_EQ(cc, expect_c);
}

// T[i] = A[i + shift] * 2, then A[j] = T[j] + 1: the second map writes what the first reads.
std::unique_ptr<ir::SDFG> in_place(int shift) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "mf_in_place";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N"});
  add_array(*g, "T", T::Float64, {"N"}, true);
  ir::State& s = add_state(*g, *g, "s");
  auto [e1, x1] = map(s, {"i"}, "0:N - 1");
  auto [e2, x2] = map(s, {"j"}, "0:N - 1");
  const int t1 = tasklet(s, "t = a * 2", {"a"}, {"t"});
  const int t2 = tasklet(s, "b = t + 1", {"t"}, {"b"});
  const int tn = access(s, "T");
  const std::string read = shift ? "A[i + " + std::to_string(shift) + "]" : "A[i]";
  edge_in(s, access(s, "A"), e1, t1, "a", shift ? "A[1:N]" : "A[0:N - 1]", read);
  edge_out(s, t1, "t", x1, tn, "T[i]", "T[0:N - 1]");
  edge_in(s, tn, e2, t2, "t", "T[0:N - 1]", "T[j]");
  edge_out(s, t2, "b", x2, access(s, "A"), "A[j]", "A[0:N - 1]");
  return g;
}

TEST(TransformMapFusion, FusesAPointwiseInPlaceUpdate) {
  auto g = in_place(0);
  const int64_t n = 6;
  std::vector<double> a(n), expect(n);
  for (int64_t i = 0; i < n; ++i) a[i] = static_cast<double>(i) * 1.5;
  expect = a;
  for (int64_t i = 0; i < n - 1; ++i) expect[i] = a[i] * 2 + 1;
  ASSERT_TRUE(fuse_once(*g)) << refusals(*g);
  run_sdfg(*g, {{"A", &a}}, {{"N", n}});
  EXPECT_EQ(a, expect);
}

TEST(TransformMapFusion, RefusesReadingWhatTheFusedMapOverwrites) {
  // Fused, iteration i would read A[i + 1] while iteration i + 1 writes it.
  auto g = in_place(1);
  const std::string why = refusals(*g);
  EXPECT_NE(why.find("the first map reads \"A\" and the second writes it at different elements"), std::string::npos)
      << why;
}

TEST(TransformMapFusion, RefusesRenamingAParameterUsedInCode) {
  auto g = chain({});
  for (ir::State* s : g->all_states())
    for (int id : s->node_ids())
      if (auto* t = dynamic_cast<ir::Tasklet*>(s->node(id)); t && t->code.code == "b = t + 1") t->code.code = "b = t + j";
  const std::string why = refusals(*g);
  EXPECT_NE(why.find("parameter \"j\" of the second map occurs in the code"), std::string::npos) << why;
}

TEST(TransformMapFusion, RefusesAKeptIntermediateReadAgainDownstream) {
  // T is non-transient and read again by a third map after the second: DaCe's strict
  // dataflow keeps such chains unfused.
  Chain c;
  c.t_transient = false;
  auto g = chain(c);
  ir::State& s = *g->all_states()[0];
  add_array(*g, "C", T::Float64, {"N"});
  int b_node = -1;
  for (int id : s.node_ids())
    if (auto* a = dynamic_cast<ir::AccessNode*>(s.node(id)); a && a->data == "B") b_node = id;
  auto [e, x] = map(s, {"k"}, "0:N");
  const int t = tasklet(s, "c = t", {"t"}, {"c"});
  const int t_again = access(s, "T");
  edge(s, b_node, "", t_again, "", "");  // ordering: after B is written
  edge_in(s, t_again, e, t, "t", "T[0:N]", "T[k]");
  edge_out(s, t, "c", x, access(s, "C"), "C[k]", "C[0:N]");
  const std::string why = refusals(*g);
  EXPECT_NE(why.find("accessed again downstream"), std::string::npos) << why;
}

// T[i, k] = A[i, k] * 2 over i and an inner k = 0:4; then B[j, k] = T[j, 3 - k] + T[j, k]:
// each outer iteration produces a 4-element block, which becomes a small array.
std::unique_ptr<ir::SDFG> blocks() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "mf_blocks";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "4"});
  add_array(*g, "T", T::Float64, {"N", "4"}, true);
  add_array(*g, "B", T::Float64, {"N", "4"});
  ir::State& s = add_state(*g, *g, "s");
  auto [o1, ox1] = map(s, {"i"}, "0:N");
  auto [i1, ix1] = map(s, {"k"}, "0:4");
  auto [o2, ox2] = map(s, {"j"}, "0:N");
  auto [i2, ix2] = map(s, {"k"}, "0:4");
  const int t1 = tasklet(s, "t = a * 2", {"a"}, {"t"});
  const int t2 = tasklet(s, "b = x + y", {"x", "y"}, {"b"});
  const int tn = access(s, "T");
  auto conns = [&](int n, const std::string& x) {
    s.node(n)->in_connectors["IN_" + x] = ir::DType{};
    s.node(n)->out_connectors["OUT_" + x] = ir::DType{};
  };
  conns(o1, "A"), conns(i1, "A"), conns(ix1, "T"), conns(ox1, "T");
  conns(o2, "T"), conns(i2, "T"), conns(ix2, "B"), conns(ox2, "B");
  edge(s, access(s, "A"), "", o1, "IN_A", "A[0:N, 0:4]");
  edge(s, o1, "OUT_A", i1, "IN_A", "A[i, 0:4]");
  edge(s, i1, "OUT_A", t1, "a", "A[i, k]");
  edge(s, t1, "t", ix1, "IN_T", "T[i, k]");
  edge(s, ix1, "OUT_T", ox1, "IN_T", "T[i, 0:4]");
  edge(s, ox1, "OUT_T", tn, "", "T[0:N, 0:4]");
  edge(s, tn, "", o2, "IN_T", "T[0:N, 0:4]");
  edge(s, o2, "OUT_T", i2, "IN_T", "T[j, 0:4]");
  edge(s, i2, "OUT_T", t2, "x", "T[j, 3 - k]");
  edge(s, i2, "OUT_T", t2, "y", "T[j, k]");
  edge(s, t2, "b", ix2, "IN_B", "B[j, k]");
  edge(s, ix2, "OUT_B", ox2, "IN_B", "B[j, 0:4]");
  edge(s, ox2, "OUT_B", access(s, "B"), "", "B[0:N, 0:4]");
  return g;
}

TEST(TransformMapFusion, ShrinksABlockIntermediateToASmallArray) {
  auto g = blocks();
  const int64_t n = 5;
  std::vector<double> a(n * 4), b(n * 4, 0), expect(n * 4);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i % 7) - 2.5;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = 0; k < 4; ++k) expect[i * 4 + k] = a[i * 4 + 3 - k] * 2 + a[i * 4 + k] * 2;
  std::vector<double> before(n * 4, 0);
  run_sdfg(*g, {{"A", &a}, {"B", &before}}, {{"N", n}});
  ASSERT_EQ(before, expect);

  std::optional<Match> m = fuse_once(*g);
  ASSERT_TRUE(m) << refusals(*g);
  EXPECT_EQ(count_maps(*g), 3);  // one outer map, two inner maps
  ASSERT_TRUE(g->arrays.count("__map_fusion_T"));
  const ir::DataDescriptor& small = g->arrays.at("__map_fusion_T");
  EXPECT_EQ(small.kind, ir::DataKind::Array);
  ASSERT_EQ(small.shape.size(), 2u);
  EXPECT_EQ(sym::as_integer(small.shape[0]), 1);
  EXPECT_EQ(sym::as_integer(small.shape[1]), 4);
  run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
  EXPECT_EQ(b, expect);
}

TEST(TransformMapFusion, RefusesAReadOfAnotherIterationsBlock) {
  auto g = blocks();
  // The second map reads row j + 0 of its own block but also T[N - 1 - j, k]: refused.
  ir::State& s = *g->all_states()[0];
  for (int e : s.edge_ids()) {
    ir::DataflowEdge* edge = s.edge(e);
    if (edge->dst_conn == "x") edge->memlet = *ir::parse_memlet("T[N - 1 - j, k]");
    if (edge->src_conn == "OUT_T" && edge->dst_conn == "IN_T" && edge->memlet.subset.dims.size() == 2 &&
        sym::to_string(edge->memlet.subset) == "j, 0:4")
      edge->memlet = *ir::parse_memlet("T[0:N, 0:4]");
  }
  const std::string why = refusals(*g);
  EXPECT_NE(why.find("does not write"), std::string::npos) << why;
}

// Inside an outer map over k, T[i, 0:k] is written per iteration of i and read back as
// T[j, 0:k]: the block's size is the outer parameter k, which would become a free symbol of
// the SDFG in the new per-iteration container's shape. Refused.
TEST(TransformMapFusion, RefusesABlockSizedByAnEnclosingParameter) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "mf_outer_sized";
  g->symbols["N"] = ir::DType::of(T::Int64);
  g->symbols["K"] = ir::DType::of(T::Int64);
  add_array(*g, "A", T::Float64, {"N", "K"});
  add_array(*g, "T", T::Float64, {"N", "K"}, true);
  add_array(*g, "B", T::Float64, {"K", "N", "K"});
  ir::State& s = add_state(*g, *g, "s");
  auto [ko, kx] = map(s, {"k"}, "1:K + 1");
  auto [o1, ox1] = map(s, {"i"}, "0:N");
  auto [i1, ix1] = map(s, {"m"}, "0:k");
  auto [o2, ox2] = map(s, {"j"}, "0:N");
  auto [i2, ix2] = map(s, {"m"}, "0:k");
  const int t1 = tasklet(s, "t = a * 2", {"a"}, {"t"});
  const int t2 = tasklet(s, "b = x + 1", {"x"}, {"b"});
  const int tn = access(s, "T");
  auto conns = [&](int n, const std::string& x) {
    s.node(n)->in_connectors["IN_" + x] = ir::DType{};
    s.node(n)->out_connectors["OUT_" + x] = ir::DType{};
  };
  conns(ko, "A"), conns(o1, "A"), conns(i1, "A"), conns(ix1, "T"), conns(ox1, "T");
  conns(o2, "T"), conns(i2, "T"), conns(ix2, "B"), conns(ox2, "B"), conns(kx, "B");
  edge(s, access(s, "A"), "", ko, "IN_A", "A[0:N, 0:K]");
  edge(s, ko, "OUT_A", o1, "IN_A", "A[0:N, 0:k]");
  edge(s, o1, "OUT_A", i1, "IN_A", "A[i, 0:k]");
  edge(s, i1, "OUT_A", t1, "a", "A[i, m]");
  edge(s, t1, "t", ix1, "IN_T", "T[i, m]");
  edge(s, ix1, "OUT_T", ox1, "IN_T", "T[i, 0:k]");
  edge(s, ox1, "OUT_T", tn, "", "T[0:N, 0:k]");
  edge(s, tn, "", o2, "IN_T", "T[0:N, 0:k]");
  edge(s, o2, "OUT_T", i2, "IN_T", "T[j, 0:k]");
  edge(s, i2, "OUT_T", t2, "x", "T[j, m]");
  edge(s, t2, "b", ix2, "IN_B", "B[k - 1, j, m]");
  edge(s, ix2, "OUT_B", ox2, "IN_B", "B[k - 1, j, 0:k]");
  edge(s, ox2, "OUT_B", kx, "IN_B", "B[k - 1, 0:N, 0:k]");
  edge(s, kx, "OUT_B", access(s, "B"), "", "B[0:K, 0:N, 0:K]");
  ASSERT_TRUE(analysis::validate(*g).ok());
  int matches = 0;
  const std::string why = refusals(*g, &matches);
  EXPECT_GE(matches, 1);
  EXPECT_NE(why.find("depends on \"k\""), std::string::npos) << why;
}

TEST(TransformMapFusion, SameInputSameBytes) {
  std::string first;
  for (int run = 0; run < 3; ++run) {
    auto g = blocks();
    ASSERT_TRUE(fuse_once(*g));
    const std::string text = ir::json::write_sdfg(*g);
    if (run == 0) first = text;
    EXPECT_EQ(text, first);
    Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(text);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(ir::json::write_sdfg(**back), text);
  }
}

}  // namespace
}  // namespace dace::transform::testing
