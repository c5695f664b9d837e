// The cached dependence sets (the memlets at each access node of a state, which LoopToMap's
// dependence test reads) and memlet propagation per map scope: contents derived by hand from
// the graphs built here, reuse shown by the analysis manager's counters, and invalidation
// shown by edits whose stale analyses would give a wrong answer.
#include <gtest/gtest.h>

#include "codegen_test_builder.h"
#include "transform/analysis_manager.h"
#include "transform/registry.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;
using T = ir::ScalarType;

// start -> for (i = 0; i < N; i = i + 1) { body: A[i] -> t -> A[i] (times two) } -> end.
struct InPlaceLoop {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  ir::State* body = nullptr;
  int read = -1, write = -1;  // the body's edges
  InPlaceLoop() {
    g->name = "inplace";
    g->symbols["N"] = ir::DType::of(T::Int64);
    add_array(*g, "A", T::Float64, {"N"});
    body = &add_state(*add_test_loop(*g, "for_1", "0", "(i < N)", "(i + 1)").loop, *g, "body");
    const int t = tasklet(*body, "y = x * 2", {"x"}, {"y"});
    read = edge(*body, access(*body, "A"), "", t, "x", "A[i]");
    write = edge(*body, t, "y", access(*body, "A"), "", "A[i]");
  }
};

bool same(sym::Expr a, sym::Expr b) { return sym::as_integer(sym::simplify(sym::sub(a, b))) == 0; }

TEST(TransformDependenceSets, ListTheMemletsOfEveryAccessNode) {
  InPlaceLoop l;
  // An isolated node of A, and a map whose inner access node T is fed from the entry.
  add_array(*l.g, "T", T::Float64, {"N"}, true);
  access(*l.body, "A");
  auto [entry, exit] = map(*l.body, {"j"}, "0:N");
  const int feed = access(*l.body, "A");
  const int inner = access(*l.body, "T");
  edge_in(*l.body, feed, entry, inner, "", "A[0:N]", "T[j]");
  edge(*l.body, inner, "", exit, "", "");
  AnalysisManager am;
  const DependenceSets& d = am.dependence_sets(*l.body);
  ASSERT_EQ(d.access_nodes.size(), 5u);
  // Node order: A (read), A (written), the isolated A, A feeding the map, T inside.
  const AccessNodeMemlets& r = d.access_nodes[0];
  EXPECT_EQ(r.data, "A");
  EXPECT_TRUE(r.top_level);
  ASSERT_EQ(r.memlets.size(), 1u);
  EXPECT_FALSE(r.memlets[0].write);
  ASSERT_TRUE(r.memlets[0].subset);
  EXPECT_TRUE(same(r.memlets[0].subset->dims[0].start, E("i")));
  const AccessNodeMemlets& w = d.access_nodes[1];
  ASSERT_EQ(w.memlets.size(), 1u);
  EXPECT_TRUE(w.memlets[0].write);
  EXPECT_TRUE(d.access_nodes[2].isolated);
  EXPECT_TRUE(d.access_nodes[2].memlets.empty());
  // The node feeding the map reads A[0:N] through the entry.
  ASSERT_EQ(d.access_nodes[3].memlets.size(), 1u);
  EXPECT_FALSE(d.access_nodes[3].memlets[0].write);
  EXPECT_TRUE(same(d.access_nodes[3].memlets[0].subset->dims[0].end, E("N - 1")));
  EXPECT_FALSE(d.access_nodes[3].isolated);
  const AccessNodeMemlets& t = d.access_nodes[4];
  EXPECT_EQ(t.data, "T");
  EXPECT_FALSE(t.top_level);
  EXPECT_TRUE(t.crosses_scope);
  EXPECT_TRUE(t.memlets.empty());
}

// LoopToMap asks for the body's dependence sets on every legality check: the second check of
// the same loop computes nothing and is served from the cache.
TEST(TransformDependenceSets, LoopToMapReusesThemAcrossLegalityChecks) {
  InPlaceLoop l;
  std::unique_ptr<Transformation> t = make_transformation("LoopToMap");
  AnalysisManager am;
  const std::vector<Match> matches = t->enumerate(*l.g, am);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_TRUE(t->can_be_applied(*l.g, matches[0], am)) << t->why_not();
  const int64_t computed = am.computed(), cached = am.cached();
  am.dependence_sets(*l.body);  // computed by the check above
  EXPECT_EQ(am.computed(), computed);
  EXPECT_TRUE(t->can_be_applied(*l.g, matches[0], am)) << t->why_not();
  EXPECT_EQ(am.computed(), computed);
  EXPECT_GT(am.cached(), cached + 1);
}

// An edit that makes the loop carry a dependence (iteration i now reads A[i + 1], which
// iteration i + 1 overwrites). Reported with a Modifies the dependence sets do not depend on,
// the stale sets still say "independent"; reported as a memlet change, they are dropped and
// LoopToMap refuses, as it does with a fresh analysis manager.
TEST(TransformDependenceSets, AMemletChangeDropsTheStaleSets) {
  InPlaceLoop l;
  std::unique_ptr<Transformation> t = make_transformation("LoopToMap");
  AnalysisManager am;
  const Match m = t->enumerate(*l.g, am).at(0);
  ASSERT_TRUE(t->can_be_applied(*l.g, m, am)) << t->why_not();
  l.body->edge(l.read)->memlet.subset.dims[0] = {E("i + 1"), E("i + 1"), E("1"), E("1")};
  AnalysisManager fresh;
  EXPECT_FALSE(t->can_be_applied(*l.g, m, fresh));
  EXPECT_NE(t->why_not().find("loop-carried dependence on 'A'"), std::string::npos) << t->why_not();
  am.invalidate(*l.body, Modifies::Symbols | Modifies::InterstateEdges);
  EXPECT_TRUE(t->can_be_applied(*l.g, m, am)) << "the stale sets were dropped although nothing they use changed";
  am.invalidate(*l.body, Modifies::Memlets);
  EXPECT_FALSE(t->can_be_applied(*l.g, m, am));
  EXPECT_NE(t->why_not().find("loop-carried dependence on 'A'"), std::string::npos) << t->why_not();
}

// Map j over 0:N reads A[j] and A[j + 1] through one connector and writes B[j * j] (not
// affine: the whole of B). Propagated by hand: A[0:N+1] (0 .. N inclusive), B[0:M] (its shape).
struct StencilMap {
  std::unique_ptr<ir::SDFG> g = std::make_unique<ir::SDFG>();
  ir::State* s = nullptr;
  ir::State* other = nullptr;
  int entry = -1, exit = -1, a = -1, b = -1;
  StencilMap() {
    g->name = "stencil";
    for (const char* n : {"N", "M"}) g->symbols[n] = ir::DType::of(T::Int64);
    add_array(*g, "A", T::Float64, {"N + 1"});
    add_array(*g, "B", T::Float64, {"M"});
    int slot = 0, other_slot = 0;
    s = &add_state(*g, *g, "s", &slot);
    other = &add_state(*g, *g, "other", &other_slot);
    add_interstate(*g, slot, other_slot);
    std::tie(entry, exit) = map(*s, {"j"}, "0:N");
    const int t = tasklet(*s, "y = x0 + x1", {"x0", "x1"}, {"y"});
    a = access(*s, "A");
    b = access(*s, "B");
    edge_in(*s, a, entry, t, "x0", "A[0:N+1]", "A[j]");
    edge(*s, entry, "OUT_A", t, "x1", "A[j + 1]");
    edge_out(*s, t, "y", exit, b, "B[j * j]", "B[0:M]");
  }
};

TEST(TransformScopeMemlets, PropagateTheInnerMemletsOverTheMapRange) {
  StencilMap x;
  AnalysisManager am;
  const MapMemlets* m = am.map_memlets(*x.s, x.entry);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->exit, x.exit);
  EXPECT_EQ(am.map_memlets(*x.s, x.a), nullptr);  // not a map entry
  ASSERT_EQ(m->inputs.size(), 1u);
  ASSERT_EQ(m->outputs.size(), 1u);
  const PathMemlets& in = m->inputs[0];
  EXPECT_TRUE(in.through_connector);
  EXPECT_EQ(in.inner_edges.size(), 2u);
  const ir::Memlet* a = am.propagated_memlet(*x.g, *x.s, x.entry, in.outer_edge);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->data, "A");
  EXPECT_TRUE(same(a->subset.dims[0].start, E("0")));
  EXPECT_TRUE(same(a->subset.dims[0].end, E("N")));
  const PathMemlets& out = m->outputs[0];
  EXPECT_EQ(out.inner_edges.size(), 1u);
  const ir::Memlet* b = am.propagated_memlet(*x.g, *x.s, x.entry, out.outer_edge);
  ASSERT_TRUE(b);
  EXPECT_TRUE(same(b->subset.dims[0].start, E("0")));
  EXPECT_TRUE(same(b->subset.dims[0].end, E("M - 1")));
  EXPECT_EQ(m->of_outer_edge(in.outer_edge), &in);
  EXPECT_EQ(am.propagated_memlet(*x.g, *x.s, x.entry, in.inner_edges[0]), nullptr);  // an inner edge is no path
  const int64_t computed = am.computed();
  EXPECT_EQ(am.map_memlets(*x.s, x.entry), m);
  EXPECT_EQ(am.propagated_memlet(*x.g, *x.s, x.entry, out.outer_edge), b);
  EXPECT_EQ(am.computed(), computed);
}

// Computed per map and per path on first request: a state with two maps computes the paths of
// the one asked for and propagates only the path asked for, not the other map's nor the other path.
TEST(TransformScopeMemlets, ComputedPerMapAndPerPathOnFirstRequest) {
  StencilMap x;
  auto [entry2, exit2] = map(*x.s, {"k"}, "0:N");
  const int t2 = tasklet(*x.s, "y = x", {"x"}, {"y"});
  edge_in(*x.s, access(*x.s, "A"), entry2, t2, "x", "A[0:N]", "A[k]");
  edge_out(*x.s, t2, "y", exit2, access(*x.s, "B"), "B[k]", "B[0:N]");
  AnalysisManager am;
  am.scope_tree(*x.s);
  int64_t computed = am.computed();
  const MapMemlets* m = am.map_memlets(*x.s, x.entry);
  ASSERT_TRUE(m);
  EXPECT_EQ(am.computed(), computed + 1);  // this map's paths, nothing else
  ASSERT_TRUE(am.propagated_memlet(*x.g, *x.s, x.entry, m->inputs.at(0).outer_edge));
  EXPECT_EQ(am.computed(), computed + 2);  // one path propagated
  const MapMemlets* m2 = am.map_memlets(*x.s, entry2);
  ASSERT_TRUE(m2);
  EXPECT_EQ(am.computed(), computed + 3);
  EXPECT_EQ(m2->exit, exit2);
  const ir::Memlet* b = am.propagated_memlet(*x.g, *x.s, entry2, m2->outputs.at(0).outer_edge);
  ASSERT_TRUE(b);
  EXPECT_TRUE(same(b->subset.dims[0].end, E("N - 1")));  // B[k] over k in 0:N
  EXPECT_EQ(am.computed(), computed + 4);
}

// B's shape is an input of the propagation (the non-affine write covers the whole of B).
// Descriptors belong to the SDFG: a transformation in another state that reports Descriptors
// drops this state's propagation too, and the recomputed one shows the new shape. The map's
// paths do not depend on descriptors and stay.
TEST(TransformScopeMemlets, ADescriptorChangeAnywhereDropsThem) {
  StencilMap x;
  AnalysisManager am;
  const int out = am.map_memlets(*x.s, x.entry)->outputs.at(0).outer_edge;
  am.propagated_memlet(*x.g, *x.s, x.entry, out);
  x.g->arrays.at("B").shape = {E("2 * M")};
  am.invalidate(*x.other, Modifies::Memlets);  // another state's memlets: kept
  EXPECT_TRUE(same(am.propagated_memlet(*x.g, *x.s, x.entry, out)->subset.dims[0].end, E("M - 1")));
  am.invalidate(*x.other, Modifies::Descriptors);
  const int64_t computed = am.computed();
  EXPECT_TRUE(same(am.propagated_memlet(*x.g, *x.s, x.entry, out)->subset.dims[0].end, E("2 * M - 1")));
  EXPECT_EQ(am.computed(), computed + 1);  // the propagation again, not the paths
  am.invalidate(*x.s, Modifies::Memlets);  // this state's memlets: scope tree, paths and propagation go
  am.propagated_memlet(*x.g, *x.s, x.entry, out);
  EXPECT_EQ(am.computed(), computed + 4);
}

// The propagation is keyed by (sdfg, state): the descriptors come from the sdfg argument, so
// the same state given with another SDFG (B twice as long) is propagated against that one's
// shapes, and the first entry stays as it was.
TEST(TransformScopeMemlets, KeyedByTheSdfgAsWellAsTheState) {
  StencilMap x;
  AnalysisManager am;
  ir::SDFG other;
  other.name = "other";
  other.symbols = x.g->symbols;
  other.arrays = x.g->arrays;
  other.arrays.at("B").shape = {E("2 * M")};
  const int out = am.map_memlets(*x.s, x.entry)->outputs.at(0).outer_edge;
  auto end = [&](const ir::SDFG& g) { return am.propagated_memlet(g, *x.s, x.entry, out)->subset.dims[0].end; };
  EXPECT_TRUE(same(end(*x.g), E("M - 1")));
  EXPECT_TRUE(same(end(other), E("2 * M - 1")));
  EXPECT_TRUE(same(end(*x.g), E("M - 1")));
  am.invalidate(*x.s, Modifies::Memlets);  // drops the state's entries under both SDFGs
  const int64_t computed = am.computed();
  end(*x.g);
  end(other);
  EXPECT_GE(am.computed(), computed + 2);
}

}  // namespace
}  // namespace dace::transform::testing
