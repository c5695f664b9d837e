// The scope structure a State caches (scope_parents, exit_of) stays right after every kind of
// structural edit. Random edit sequences build well-formed scoped states; the test keeps its
// own record of where it put each node (the map it placed it in) and of each map's exit, and
// after every step compares the state's answers with that record. The cache is queried
// between the single edits of a step too, so a stale cache would be seen.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <thread>
#include <vector>

#include "ir/state.h"

namespace dace::ir {
namespace {

struct Lcg {
  uint64_t x;
  int next(int n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return n <= 0 ? 0 : static_cast<int>((x >> 33) % static_cast<uint64_t>(n));
  }
};

// The test's own account of the state: each live node's enclosing map entry (-1 at top
// level), and each map entry's exit. Exits are recorded with the scope their entry is in.
struct Model {
  std::map<int, int> scope;  // node -> enclosing entry
  std::map<int, int> exit;   // entry -> exit
  std::vector<int> leaves;   // tasklets and access nodes, in creation order (removals erase)
};

class ScopeCacheFuzz {
 public:
  explicit ScopeCacheFuzz(uint64_t seed) : r_{seed} {}

  void step() {
    query();  // fill the cache, so that the edits below must drop it
    switch (r_.next(9)) {
      case 0: add_map(); break;
      case 1: case 2: add_leaf(); break;
      case 3: remove_leaf(false); break;
      case 4: remove_leaf(true); break;
      case 5: move_leaf(); break;
      case 6: drop_in_edge(); break;
      case 7: renumber_entry(); break;
      default: remove_empty_map(); break;
    }
    check();
  }

  void check() const {
    const std::vector<int>& parents = s_.scope_parents();
    ASSERT_EQ(parents.size(), static_cast<size_t>(s_.node_slots()));
    for (int id = 0; id < s_.node_slots(); ++id) {
      auto it = m_.scope.find(id);
      const int expected = it == m_.scope.end() ? -1 : it->second;
      ASSERT_EQ(parents[static_cast<size_t>(id)], expected) << "parent of node " << id;
      auto x = m_.exit.find(id);
      ASSERT_EQ(s_.exit_of(id), x == m_.exit.end() ? -1 : x->second) << "exit of node " << id;
    }
  }

  const State& state() const { return s_; }
  const Model& model() const { return m_; }

 private:
  void query() { (void)s_.scope_parents(), (void)s_.exit_of(0); }

  // A random scope: top level (-1) or one of the maps.
  int pick_scope() {
    const int n = r_.next(static_cast<int>(m_.exit.size()) + 1);
    if (n == 0) return -1;
    auto it = m_.exit.begin();
    std::advance(it, n - 1);
    return it->first;
  }

  int connect(int src, int dst) {
    DataflowEdge e;
    e.src = src;
    e.dst = dst;
    return s_.add_edge(e);
  }

  void add_map() {
    const int parent = pick_scope();
    auto entry = std::make_unique<MapEntry>();
    entry->map.params = {"i"};
    const int e = s_.add_node(std::move(entry));
    query();
    auto exit = std::make_unique<MapExit>();
    exit->entry = e;
    const int x = s_.add_node(std::move(exit));
    connect(e, x);
    if (parent >= 0) {
      query();
      connect(parent, e);
      connect(x, m_.exit.at(parent));
    }
    m_.scope[e] = parent;
    m_.scope[x] = parent;
    m_.exit[e] = x;
  }

  void add_leaf() {
    const int parent = pick_scope();
    std::unique_ptr<Node> n;
    if (r_.next(2)) n = std::make_unique<Tasklet>();
    else n = std::make_unique<AccessNode>();
    const int id = s_.add_node(std::move(n));
    if (parent >= 0) {
      query();
      connect(parent, id);
      connect(id, m_.exit.at(parent));
    }
    m_.scope[id] = parent;
    m_.leaves.push_back(id);
  }

  int pick_leaf() {
    if (m_.leaves.empty()) return -1;
    return m_.leaves[static_cast<size_t>(r_.next(static_cast<int>(m_.leaves.size())))];
  }

  void forget_leaf(int id) {
    m_.scope.erase(id);
    m_.leaves.erase(std::find(m_.leaves.begin(), m_.leaves.end(), id));
  }

  void remove_leaf(bool release) {
    const int id = pick_leaf();
    if (id < 0) return;
    if (release) {
      std::unique_ptr<Node> n = s_.release_node(id);
      ASSERT_NE(n, nullptr);
    } else {
      s_.remove_node(id);
    }
    forget_leaf(id);
  }

  // Moves a leaf into another map (or to the top level) by redirecting its edges
  // (set_edge_ends), adding or removing edges where one side has none.
  void move_leaf() {
    const int id = pick_leaf();
    if (id < 0) return;
    const int to = pick_scope();
    std::vector<int> in = s_.in_edges(id), out = s_.out_edges(id);
    if (to < 0) {
      for (int e : in) s_.remove_edge(e);
      query();
      for (int e : out) s_.remove_edge(e);
    } else {
      if (in.empty()) connect(to, id);
      else s_.set_edge_ends(in[0], to, id);
      query();
      if (out.empty()) connect(id, m_.exit.at(to));
      else s_.set_edge_ends(out[0], id, m_.exit.at(to));
    }
    m_.scope[id] = to;
  }

  // A leaf inside a map keeps its scope with only the edge into the exit.
  void drop_in_edge() {
    const int id = pick_leaf();
    if (id < 0 || m_.scope.at(id) < 0) return;
    const std::vector<int> in = s_.in_edges(id), out = s_.out_edges(id);
    if (in.empty() || out.empty()) return;
    s_.remove_edge(in[0]);
  }

  // Replaces a map's entry by a copy under a new id: the edges move over (set_edge_ends), the
  // exit is pointed at the copy (set_scope_entry), the old entry goes.
  void renumber_entry() {
    const int old = pick_scope();
    if (old < 0) return;
    const int x = m_.exit.at(old);
    const int fresh = s_.add_node(s_.node(old)->clone());
    query();
    for (int e : s_.in_edges(old)) s_.set_edge_ends(e, s_.edge(e)->src, fresh);
    for (int e : s_.out_edges(old)) s_.set_edge_ends(e, fresh, s_.edge(e)->dst);
    query();
    s_.set_scope_entry(x, fresh);
    // The exit belongs to the copy now, before anything else changes.
    ASSERT_EQ(s_.exit_of(fresh), x);
    ASSERT_EQ(s_.exit_of(old), -1);
    s_.remove_node(old);
    for (auto& [node, scope] : m_.scope)
      if (scope == old) scope = fresh;
    m_.scope[fresh] = m_.scope.at(old);
    m_.scope.erase(old);
    m_.exit.erase(old);
    m_.exit[fresh] = x;
  }

  void remove_empty_map() {
    const int e = pick_scope();
    if (e < 0) return;
    for (const auto& [node, scope] : m_.scope)
      if (scope == e) return;  // not empty
    const int x = m_.exit.at(e);
    s_.remove_node(x);
    query();
    s_.remove_node(e);
    m_.scope.erase(e);
    m_.scope.erase(x);
    m_.exit.erase(e);
  }

  Lcg r_;
  State s_;
  Model m_;
};

TEST(StateScopeCache, RandomEditSequencesKeepItRight) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    ScopeCacheFuzz fuzz(seed);
    for (int i = 0; i < 150; ++i) {
      fuzz.step();
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// A scope pair without edges: removing or releasing the exit alone must show (no edge removal
// drops the cache on the way).
TEST(StateScopeCache, UnconnectedExitRemovedOrReleased) {
  for (bool release : {false, true}) {
    State s;
    const int e = s.add_node(std::make_unique<MapEntry>());
    auto exit = std::make_unique<MapExit>();
    exit->entry = e;
    const int x = s.add_node(std::move(exit));
    ASSERT_EQ(s.exit_of(e), x);
    if (release) (void)s.release_node(x);
    else s.remove_node(x);
    EXPECT_EQ(s.exit_of(e), -1) << (release ? "release_node" : "remove_node");
  }
}

// A copy starts with its own cache and answers for its own graph.
TEST(StateScopeCache, CopiesAnswerForThemselves) {
  ScopeCacheFuzz fuzz(7);
  for (int i = 0; i < 60; ++i) fuzz.step();
  State copy(fuzz.state());
  EXPECT_EQ(copy.scope_parents(), fuzz.state().scope_parents());
  // Edit the copy: the original's answers stay.
  const std::vector<int> before = fuzz.state().scope_parents();
  for (int id : copy.node_ids())
    if (copy.node(id)->is_scope_entry()) copy.remove_node(id);
  EXPECT_EQ(fuzz.state().scope_parents(), before);
  fuzz.check();
}

// An exit's entry written through the node pointer: touch() makes the state forget what it
// knew. (A write without touch() is documented as not seen.)
TEST(StateScopeCache, TouchAfterADirectWrite) {
  State s;
  const int e1 = s.add_node(std::make_unique<MapEntry>());
  const int e2 = s.add_node(std::make_unique<MapEntry>());
  auto exit = std::make_unique<MapExit>();
  exit->entry = e1;
  const int x = s.add_node(std::move(exit));
  EXPECT_EQ(s.exit_of(e1), x);
  EXPECT_EQ(s.exit_of(e2), -1);
  static_cast<MapExit*>(s.node(x))->entry = e2;
  s.touch();
  EXPECT_EQ(s.exit_of(e1), -1);
  EXPECT_EQ(s.exit_of(e2), x);
}

// The first query after an edit may come from several threads at once (readers of a const
// SDFG); all see the same, complete answer.
TEST(StateScopeCache, ConcurrentFirstQueries) {
  ScopeCacheFuzz fuzz(11);
  for (int i = 0; i < 200; ++i) fuzz.step();
  const std::vector<int> expected = fuzz.state().scope_parents();
  for (int round = 0; round < 20; ++round) {
    State s(fuzz.state());  // a fresh, empty cache
    std::vector<std::vector<int>> seen(4);
    std::vector<std::thread> readers;
    for (auto& out : seen) readers.emplace_back([&s, &out] { out = s.scope_parents(); });
    for (auto& t : readers) t.join();
    for (const auto& out : seen) EXPECT_EQ(out, expected);
  }
}

}  // namespace
}  // namespace dace::ir
