// Simplify inside a nested SDFG that sits in a map: its states fused, dead states, dataflow
// and symbols removed, and the body inlined once it is a single state, as DaCe 1.0.2 does.
// The inputs and DaCe's own results come from tests/data/nested_simplify/generate.py (DaCe
// 1.0.2's SDFG.simplify() on the same input); the structure of our result, SDFG by SDFG,
// must equal DaCe's, and the result must compute what a plain loop computes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "ir/json/sdfg_json.h"
#include "transform/simplify.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "nested_simplify";

std::unique_ptr<ir::SDFG> read(const fs::path& file) {
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(file.string());
  EXPECT_TRUE(g.ok()) << file << ": " << (g.ok() ? "" : g.error().message);
  return g.ok() ? std::move(*g) : nullptr;
}

// One line per SDFG of the tree, outer first: states, dataflow nodes, interstate edges,
// containers and symbols.
void structure(const ir::SDFG& g, std::vector<std::string>& out) {
  size_t states = 0, nodes = 0, edges = g.edge_slots().size();
  std::vector<const ir::SDFG*> nested;
  g.for_each_block([&](const ir::ControlFlowBlock& b) {
    if (b.kind == ir::BlockKind::Loop || b.kind == ir::BlockKind::Region)
      edges += static_cast<const ir::ControlFlowRegion&>(b).edge_slots().size();
  });
  for (const ir::State* s : g.all_states()) {
    ++states;
    for (int id : s->node_ids()) {
      ++nodes;
      if (s->node(id)->kind == ir::NodeKind::NestedSDFG)
        nested.push_back(static_cast<const ir::NestedSDFGNode*>(s->node(id))->sdfg.get());
    }
  }
  std::string line = g.name + ": states " + std::to_string(states) + ", nodes " + std::to_string(nodes) +
                     ", interstate edges " + std::to_string(edges) + ", containers";
  for (const auto& [name, desc] : g.arrays) line += " " + name;
  line += ", symbols";
  for (const auto& [name, type] : g.symbols) line += " " + name;
  out.push_back(line);
  for (const ir::SDFG* n : nested)
    if (n) structure(*n, out);
}

std::vector<std::string> structure(const ir::SDFG& g) {
  std::vector<std::string> out;
  structure(g, out);
  return out;
}

class NestedSimplify : public ::testing::TestWithParam<const char*> {};

TEST_P(NestedSimplify, StructureEqualsDaCesAndResultsAPlainLoop) {
  const std::string name = GetParam();
  std::unique_ptr<ir::SDFG> g = read(kRoot / (name + ".sdfgz"));
  std::unique_ptr<ir::SDFG> dace = read(kRoot / (name + ".dace.sdfgz"));
  ASSERT_TRUE(g && dace);
  const std::vector<std::string> before = structure(*g);
  ASSERT_EQ(before.size(), 2u) << "the generated cases changed: a map around one nested SDFG";
  AnalysisManager am;
  Result<bool> simp = run_pass(*g, *make_simplify_pipeline(), am);
  ASSERT_TRUE(simp.ok()) << simp.error().message;
  EXPECT_TRUE(*simp);
  const std::vector<std::string> ours = structure(*g), theirs = structure(*dace);
  EXPECT_NE(before, theirs) << "DaCe's simplify changed nothing: the case tests nothing";
  EXPECT_EQ(ours, theirs);

  // body: b = 2 a + 1, or 2 a - 1 in `branchy` when N <= 5.
  for (int64_t n : {3, 7}) {
    std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), 0), want(static_cast<size_t>(n));
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = 0.5 * static_cast<double>(i) + 1;
      want[i] = 2 * a[i] + (name == "branchy" && n <= 5 ? -1 : 1);
    }
    run_sdfg(*g, {{"A", &a}, {"B", &b}}, {{"N", n}});
    EXPECT_EQ(b, want) << "N = " << n;
  }
}

INSTANTIATE_TEST_SUITE_P(DaCeWritten, NestedSimplify, ::testing::Values("fusable", "branchy"));

}  // namespace
}  // namespace dace::transform::testing
