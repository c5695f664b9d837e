// MatVecPairFusedRows: `t = A @ x; y = t @ A` becomes a parallel map over chunks of rows of A,
// per group of rows their dot products and an update of the chunk's partial y, and a Reduce
// of the partials into y. Results against C++ loops of A^T (A x), y starting as NaN (the Reduce must set
// every element), for odd sizes, a short last chunk, one row, and fewer rows than a chunk;
// refused where t is used elsewhere (applied, the other reader would find t gone), where
// the second product reads another matrix or the first reads other rows (applied anyway,
// both would compute something else), and for chunk_rows 0; each refusal leaves the SDFG's
// bytes unchanged. Map parameters are fresh against symbols of the same names.
#include <gtest/gtest.h>

#include <string>

#include "ir/json/sdfg_json.h"
#include "matvec_pair_test_support.h"
#include "transform/map_utils.h"

namespace dace::transform::testing {
namespace {

using T = ir::ScalarType;

// Applies MatVecPairFusedRows with `chunk_rows` at its first legal match; false when none.
bool apply_fused(ir::SDFG& g, int64_t chunk_rows) {
  std::unique_ptr<Transformation> t = make_transformation("MatVecPairFusedRows");
  EXPECT_TRUE(t);
  if (!t) return false;
  EXPECT_TRUE(t->properties().set_from_json("{\"chunk_rows\": " + std::to_string(chunk_rows) + "}").ok());
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, *t, am);
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok() || !m->has_value()) return false;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return true;
}

// Nodes of `kind` (library nodes: of class `classpath`) in the SDFG's only state.
int count(const ir::SDFG& g, ir::NodeKind kind, const std::string& classpath = "") {
  int n = 0;
  const ir::State& s = *g.all_states()[0];
  for (int id : s.node_ids()) {
    const ir::Node* node = s.node(id);
    if (node->kind != kind) continue;
    if (kind == ir::NodeKind::Library && static_cast<const ir::LibraryNode*>(node)->classpath != classpath) continue;
    ++n;
  }
  return n;
}

// Every match is refused with a reason containing `want`; applying at each one fails and
// leaves the SDFG's bytes as they were.
void expect_refused_everywhere(ir::SDFG& g, const std::string& want, int64_t chunk_rows = 128) {
  const std::string before = ir::json::write_sdfg(g);
  std::unique_ptr<Transformation> t = make_transformation("MatVecPairFusedRows");
  ASSERT_TRUE(t->properties().set_from_json("{\"chunk_rows\": " + std::to_string(chunk_rows) + "}").ok());
  AnalysisManager am;
  const std::vector<Match> matches = t->enumerate(g, am);
  EXPECT_EQ(matches.size(), 2u);
  std::string why;
  for (const Match& m : matches) {
    EXPECT_FALSE(t->can_be_applied(g, m, am));
    why += t->why_not() + "\n";
    EXPECT_FALSE(apply_at(g, *t, m, am).ok());
    EXPECT_EQ(ir::json::write_sdfg(g), before);
  }
  EXPECT_NE(why.find(want), std::string::npos) << why;
}

struct Case {
  int64_t m, n, chunk_rows;
};

TEST(TransformMatVecFusedRows, ChunksOfRowsGiveTheProductsResult) {
  // Rows go in groups of 4, the rest of a chunk one by one. 37 rows in chunks of 16, 16 and 5
  // (four groups; a group and a row); one row; fewer rows than a chunk (5: a group and a row;
  // 7: a group and three rows); 300 rows in chunks of 128, 128 and 44; chunks of one row; 8
  // rows in chunks of 3 (3, 3, 2: single rows only).
  for (const Case& c : {Case{37, 23, 16}, Case{1, 7, 16}, Case{5, 9, 128}, Case{300, 31, 128}, Case{6, 3, 1}, Case{8, 5, 3}, Case{7, 4, 128}}) {
    SCOPED_TRACE("M " + std::to_string(c.m) + ", N " + std::to_string(c.n) + ", chunk_rows " + std::to_string(c.chunk_rows));
    MatVecPairOptions o;
    auto g = matvec_pair(o);
    ASSERT_TRUE(apply_fused(*g, c.chunk_rows));
    EXPECT_EQ(count(*g, ir::NodeKind::Library, "dace.libraries.blas.nodes.matmul.MatMul"), 0);
    EXPECT_EQ(count(*g, ir::NodeKind::Library, "dace.libraries.standard.nodes.reduce.Reduce"), 1);
    EXPECT_EQ(g->arrays.count("t"), 0u) << "t is no longer written";
    MatVecPairData d = matvec_pair_inputs(o, c.m, c.n);
    const std::vector<double> want = matvec_pair_reference(d, o);
    run_matvec_pair(*g, d);
    expect_matches(d.y, want);
    EXPECT_FALSE(applies_anywhere(*g, "MatVecPairFusedRows"));  // no MatMul left
  }
}

// Applied to equal SDFGs, the rewrite writes equal bytes.
TEST(TransformMatVecFusedRows, SameBytesEveryTime) {
  auto g = matvec_pair({}), h = matvec_pair({});
  ASSERT_TRUE(apply_fused(*g, 128));
  ASSERT_TRUE(apply_fused(*h, 128));
  EXPECT_EQ(ir::json::write_sdfg(*g), ir::json::write_sdfg(*h));
}

// A second state copies t into an output: t must stay written, so the rewrite is refused
// (applied, it would erase t's descriptor under the reader of the second state).
TEST(TransformMatVecFusedRows, RefusedWhenTIsReadElsewhere) {
  MatVecPairOptions o;
  auto g = matvec_pair(o);
  codegen::testing::add_array(*g, "t_out", T::Float64, {"M"});
  int first = 0, second = 0;
  for (int slot : g->block_slots()) first = slot;
  ir::State& s2 = codegen::testing::add_state(*g, *g, "s2", &second);
  codegen::testing::add_interstate(*g, first, second);
  codegen::testing::edge(s2, codegen::testing::access(s2, "t"), "", codegen::testing::access(s2, "t_out"), "", "t[0:M]");
  expect_refused_everywhere(*g, "\"t\" is accessed elsewhere (state \"s2\")");
}

TEST(TransformMatVecFusedRows, RefusedWhenTheSecondProductReadsAnotherMatrix) {
  MatVecPairOptions o;
  o.other_matrix = true;
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "does not read \"A\"");
}

TEST(TransformMatVecFusedRows, RefusedWhenTheProductsReadDifferentRows) {
  MatVecPairOptions o;
  o.shifted_rows = true;
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 1 does not read all of \"A\" and \"x\"");
}

TEST(TransformMatVecFusedRows, RefusedWhenAProductHasBeta) {
  MatVecPairOptions o;
  o.second_props["beta"] = "\"1\"";
  auto g = matvec_pair(o);
  expect_refused_everywhere(*g, "MatMul 2 has beta");
}

TEST(TransformMatVecFusedRows, RefusedForChunksOfNoRows) {
  auto g = matvec_pair({});
  expect_refused_everywhere(*g, "chunk_rows must be at least 1, not 0", 0);
}

// Symbols named like the new maps' parameters: the rewrite picks other names and the result
// stays y = A^T (A x).
TEST(TransformMatVecFusedRows, MapParametersAvoidTheSDFGsSymbols) {
  for (const char* cols : {"__chunk", "__row_groups", "__last_rows_axpy_col", "__matvec_dot"}) {
    MatVecPairOptions o;
    o.cols = cols;
    auto g = matvec_pair(o);
    ASSERT_TRUE(apply_fused(*g, 4)) << cols;
    const ir::State& s = *g->all_states()[0];
    for (int id : s.node_ids()) {
      if (const auto* me = as_map_entry(s.node(id))) {
        for (const std::string& q : me->map.params) EXPECT_NE(q, cols) << me->label;
      }
    }
    MatVecPairData d = matvec_pair_inputs(o, 11, 6);
    const std::vector<double> want = matvec_pair_reference(d, o);
    run_matvec_pair(*g, d, cols);
    expect_matches(d.y, want);
  }
}

}  // namespace
}  // namespace dace::transform::testing
