// Element ids across save and load, and a content hash that depends on content only: not on
// the holes removals leave in slots, nor on the order containers, symbols, blocks and nodes
// were added in. A read SDFG holds its elements at the file's ids (slot == JSON index).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "codegen_test_builder.h"
#include "ir/equality.h"
#include "ir/json/sdfg_json.h"

namespace dace::ir {
namespace {

using namespace codegen::testing;
using codegen::testing::tasklet;  // not the dace::tasklet namespace
using T = ScalarType;

// A state "work" with a map A -> map(tasklet) -> B; a loop region holding a state with a
// tasklet; with `holes`, removed blocks, nodes, edges and interstate edges come first or in
// between, so slots and the file's ids differ. The two builds also add containers, symbols
// and states in different orders. Both have the same content.
std::unique_ptr<SDFG> build(bool holes) {
  auto g = std::make_unique<SDFG>();
  g->name = "compact";
  int gone = -1;
  if (holes) {
    add_state(*g, *g, "gone", &gone);
    add_array(*g, "B", T::Float64, {"N"});
    add_array(*g, "A", T::Float64, {"N"});
    g->symbols["N"] = DType::of(T::Int64);
  } else {
    g->symbols["N"] = DType::of(T::Int64);
    add_array(*g, "A", T::Float64, {"N"});
    add_array(*g, "B", T::Float64, {"N"});
  }
  int s0 = 0, s1 = 0;
  add_state(*g, *g, "init", &s0);
  State& s = add_state(*g, *g, "work", &s1);
  if (holes) {
    add_interstate(*g, gone, s0);
    g->remove_block(gone);  // and its edge
    const int stray = tasklet(s, "x = 1", {}, {"x"});
    const int stray_b = access(s, "B");
    edge(s, stray, "x", stray_b, "", "B[0]");
    s.remove_node(stray);  // and its edge; B stays until later
    s.remove_node(stray_b);
  }
  add_interstate(*g, s0, s1);
  int a = access(s, "A");
  auto [entry, exit] = map(s, {"i"}, "0:N");
  if (holes) s.remove_edge(edge(s, a, "", entry, "", ""));
  int t = tasklet(s, "b = a * 2", {"a"}, {"b"});
  edge_in(s, a, entry, t, "a", "A[0:N]", "A[i]");
  edge_out(s, t, "b", exit, access(s, "B"), "B[i]", "B[0:N]");

  auto loop = std::make_unique<LoopRegion>();
  loop->label = "loop";
  loop->loop_variable = "k";
  loop->init_statement = CodeBlock{"k = 0", Language::Python};
  loop->loop_condition = CodeBlock{"k < 3", Language::Python};
  loop->update_statement = CodeBlock{"k = k + 1", Language::Python};
  g->register_block(*loop);
  LoopRegion& body = *loop;
  const int l = g->add_block(std::move(loop));
  add_interstate(*g, s1, l);
  if (holes) {
    int spare = 0;
    add_state(body, *g, "spare", &spare);
    body.remove_block(spare);
  }
  State& inner = add_state(body, *g, "inner", nullptr);
  edge(inner, tasklet(inner, "c = 5", {}, {"c"}), "c", access(inner, "B"), "", "B[0]");
  return g;
}

// Every block, node and edge by id: what a host holding ids sees.
std::string ids_of(const SDFG& g) {
  std::string out;
  g.for_each_block([&](const ControlFlowBlock& b) {
    out += "block " + std::to_string(b.id) + " " + b.label + "\n";
    if (b.kind != BlockKind::State) return;
    const auto& st = static_cast<const State&>(b);
    for (int n : st.node_ids()) out += "  node " + std::to_string(n) + " " + st.node(n)->label + "\n";
    for (int e : st.edge_ids())
      out += "  edge " + std::to_string(e) + " " + std::to_string(st.edge(e)->src) + "->" +
             std::to_string(st.edge(e)->dst) + "\n";
  });
  return out;
}

std::unique_ptr<SDFG> reloaded(const SDFG& g) {
  Result<std::unique_ptr<SDFG>> back = json::read_sdfg(json::write_sdfg(g));
  EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.error().message);
  return back.ok() ? std::move(*back) : nullptr;
}

TEST(IdsAndHash, SaveLoadSaveIsByteIdenticalAndKeepsIds) {
  auto g = build(/*holes=*/true);
  auto once = reloaded(*g);
  ASSERT_TRUE(once);
  auto twice = reloaded(*once);
  ASSERT_TRUE(twice);
  EXPECT_EQ(json::write_sdfg(*once), json::write_sdfg(*g));
  EXPECT_EQ(json::write_sdfg(*twice), json::write_sdfg(*once));
  EXPECT_EQ(ids_of(*twice), ids_of(*once));
  EXPECT_EQ(twice->next_block_id(), once->next_block_id());
  // Hand-derived file ids: "gone" went, so "init" is block 0, "work" 1, the loop 2 and its
  // state "inner" 3 (the spare one went); the stray nodes went, so A is node 0 of "work".
  const auto* work = static_cast<const State*>(once->find_block(1));
  ASSERT_NE(work, nullptr);
  EXPECT_EQ(work->label, "work");
  EXPECT_EQ(once->find_block(3)->label, "inner");
  EXPECT_EQ(once->next_block_id(), 4);
  EXPECT_EQ(work->node_ids(), (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(work->node(0)->kind, NodeKind::Access);
  EXPECT_EQ(work->edge_ids(), (std::vector<int>{0, 1, 2, 3}));
  // The map exit still names its entry, and the scopes are the same.
  const int exit = work->exit_of(1);
  ASSERT_GE(exit, 0);
  EXPECT_EQ(work->node(exit)->kind, NodeKind::MapExit);
}

TEST(IdsAndHash, HashDependsOnContentOnly) {
  auto plain = build(/*holes=*/false);
  auto holey = build(/*holes=*/true);
  // Different build orders (containers, symbols, blocks) and holes: the same content.
  EXPECT_EQ(content_hash(*holey), content_hash(*plain));
  EXPECT_TRUE(structurally_equal(*holey, *plain));
  EXPECT_NE(ids_of(*holey), ids_of(*plain));  // in memory, different slots and block ids

  // An SDFG with removed elements hashes like its compacted copy (the read-back file: dense
  // slots), which holds its elements at the ids of the SDFG built without removals.
  auto compacted = reloaded(*holey);
  ASSERT_TRUE(compacted);
  EXPECT_EQ(content_hash(*compacted), content_hash(*holey));
  EXPECT_EQ(ids_of(*compacted), ids_of(*plain));
  EXPECT_EQ(json::write_sdfg(*compacted), json::write_sdfg(*plain));

  // Content does count: one changed tasklet changes the hash.
  auto* work = static_cast<State*>(compacted->block(1));
  for (int n : work->node_ids())
    if (work->node(n)->kind == NodeKind::Tasklet) static_cast<Tasklet*>(work->node(n))->code.code = "b = a * 3";
  EXPECT_NE(content_hash(*compacted), content_hash(*plain));
}

}  // namespace
}  // namespace dace::ir
