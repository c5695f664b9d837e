// Validation never crashes on malformed IR: dangling ids, null expressions, empty names,
// and deterministic random mutations of valid SDFGs (corpus files included).
#include <algorithm>
#include <filesystem>

#include "analysis/arguments.h"
#include "ir/json/sdfg_json.h"
#include "validate_builder.h"

namespace vtest {
namespace {

TEST(ValidateRobust, MalformedPieces) {
  Builder b = simple_map_sdfg();
  State& s = *b.g->all_states()[0];
  auto& me = static_cast<MapEntry&>(*s.node(2));
  me.map.range.dims[0].start = nullptr;
  me.map.params.clear();
  s.set_scope_entry(3, 12345);
  s.edge(0)->memlet.volume = nullptr;
  s.edge(1)->memlet.subset.dims.clear();
  s.node(4)->label = "";
  s.node(4)->in_connectors[""] = DType{};
  DataflowEdge self;
  self.src = 4;
  self.dst = 4;
  s.add_edge(self);
  DataflowEdge neg;
  neg.src = -1;
  neg.dst = -7;
  s.add_edge(neg);
  b.g->arrays["A"].shape.push_back(nullptr);
  b.g->arrays["A"].total_size = nullptr;
  b.g->arrays[""] = scalar(true);
  b.g->start_block = -5;
  auto& cond = b.block<ConditionalBlock>("c");
  cond.branches.emplace_back(std::nullopt, nullptr);
  InterstateEdge e;
  e.src = 99;
  e.dst = -3;
  b.g->add_edge(e);
  auto& nest = *static_cast<NestedSDFGNode*>(s.node(s.add_node(std::make_unique<NestedSDFGNode>())));
  nest.symbol_mapping["X"] = nullptr;
  auto errors = analysis::validate_all(*b.g, 1000);
  EXPECT_FALSE(errors.empty());
  for (const auto& err : errors) EXPECT_EQ(err.code, Code::InvalidSdfg);
  (void)analysis::argument_list(*b.g);
}

// Deterministic pseudo-random mutations: every result must validate without crashing.
struct Lcg {
  uint64_t x;
  int next(int n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return n <= 0 ? 0 : static_cast<int>((x >> 33) % static_cast<uint64_t>(n));
  }
};

void mutate_state(State& s, Lcg& r) {
  auto nodes = s.node_ids();
  auto edges = s.edge_ids();
  switch (r.next(6)) {
    case 0:
      if (!nodes.empty()) s.remove_node(nodes[r.next(static_cast<int>(nodes.size()))]);
      break;
    case 1:
      if (!edges.empty()) s.remove_edge(edges[r.next(static_cast<int>(edges.size()))]);
      break;
    case 2:
      if (!edges.empty()) {
        int id = edges[r.next(static_cast<int>(edges.size()))];
        s.set_edge_ends(id, s.edge(id)->src, r.next(s.node_slots() + 2) - 1);
      }
      break;
    case 3:
      if (!edges.empty()) {
        DataflowEdge* e = s.edge(edges[r.next(static_cast<int>(edges.size()))]);
        if (!e->memlet.subset.dims.empty()) e->memlet.subset.dims.pop_back();
        e->memlet.data = r.next(2) ? "" : e->memlet.data + "_";
      }
      break;
    case 4:
      for (int id : nodes) {
        Node* n = s.node(id);
        if (n->kind == NodeKind::MapExit) s.set_scope_entry(id, r.next(s.node_slots() + 1));
        if (n->kind == NodeKind::NestedSDFG && r.next(2)) static_cast<NestedSDFGNode*>(n)->sdfg.reset();
      }
      break;
    default:
      if (!edges.empty() && !nodes.empty()) {
        DataflowEdge e = *s.edge(edges[r.next(static_cast<int>(edges.size()))]);
        std::swap(e.src, e.dst);
        s.add_edge(e);
      }
      break;
  }
}

void mutate(SDFG& g, Lcg& r, int depth = 0) {
  for (State* s : g.all_states()) {
    for (int k = 0; k < 3; ++k) mutate_state(*s, r);
    if (depth < 3)
      for (int id : s->node_ids())
        if (s->node(id)->kind == NodeKind::NestedSDFG) {
          auto* n = static_cast<NestedSDFGNode*>(s->node(id));
          if (n->sdfg) mutate(*n->sdfg, r, depth + 1);
        }
  }
  auto edges = g.edge_slots();
  if (!edges.empty() && r.next(3) == 0) {
    InterstateEdge* e = g.edge(edges[r.next(static_cast<int>(edges.size()))]);
    e->condition.code = r.next(2) ? "(" : "zz < 1";
    e->assignments.emplace_back(r.next(2) ? "" : "A", "q +");
  }
  if (!g.arrays.empty() && r.next(2)) {
    auto it = g.arrays.begin();
    std::advance(it, r.next(static_cast<int>(g.arrays.size())));
    if (!it->second.shape.empty()) it->second.shape[0] = r.next(2) ? nullptr : sym::integer(-1);
  }
}

TEST(ValidateRobust, MutatedSimpleSdfgs) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Builder b = simple_map_sdfg();
    Lcg r{seed};
    mutate(*b.g, r);
    auto errors = analysis::validate_all(*b.g, 1000);
    for (const auto& e : errors) EXPECT_EQ(e.code, Code::InvalidSdfg);
    (void)analysis::argument_list(*b.g);
  }
}

TEST(ValidateRobust, MutatedCorpusFiles) {
  const std::string root = "/work/shared/sdfg-corpus";
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "corpus not found";
  std::vector<std::string> files;
  for (const auto& p : std::filesystem::recursive_directory_iterator(root))
    if (p.path().extension() == ".sdfg") files.push_back(p.path().string());
  std::sort(files.begin(), files.end());
  uint64_t seed = 7;
  for (const auto& f : files) {
    auto loaded = ir::json::read_sdfg_file(f);
    ASSERT_TRUE(loaded.ok()) << f;
    for (int round = 0; round < 4; ++round) {
      auto g = (*loaded)->clone_sdfg();
      Lcg r{seed++};
      mutate(*g, r);
      auto errors = analysis::validate_all(*g, 1000);
      for (const auto& e : errors) EXPECT_EQ(e.code, Code::InvalidSdfg) << f;
      (void)analysis::argument_list(*g);
    }
  }
}

}  // namespace
}  // namespace vtest
