// Test-local helpers to build small SDFGs with the internal C++ API (validation and
// argument-list tests).
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "ir/sdfg.h"

namespace vtest {

using namespace dace;
using namespace dace::ir;

inline sym::Expr E(std::string_view text) {
  auto r = sym::parse(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : sym::integer(0);
}

inline sym::Subset S(std::string_view text) {
  auto r = sym::parse_subset(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : sym::Subset{};
}

inline DataDescriptor array(const std::vector<std::string>& shape, bool transient = false,
                            ScalarType t = ScalarType::Float64) {
  DataDescriptor d;
  d.kind = DataKind::Array;
  d.dtype = DType::of(t);
  for (const auto& s : shape) d.shape.push_back(E(s));
  d.transient = transient;
  complete_defaults(d);
  return d;
}

inline DataDescriptor scalar(bool transient = false, ScalarType t = ScalarType::Float64) {
  DataDescriptor d;
  d.kind = DataKind::Scalar;
  d.dtype = DType::of(t);
  d.transient = transient;
  complete_defaults(d);
  return d;
}

struct Builder {
  std::unique_ptr<SDFG> owned;
  SDFG* g;

  explicit Builder(const std::string& name) : owned(std::make_unique<SDFG>()), g(owned.get()) { g->name = name; }

  void symbol(const std::string& name, ScalarType t = ScalarType::Int64) { g->symbols[name] = DType::of(t); }
  void data(const std::string& name, DataDescriptor d) { g->arrays[name] = std::move(d); }

  // Adds a block to `region` (the SDFG by default) and returns it.
  template <class T = State>
  T& block(const std::string& label, ControlFlowRegion* region = nullptr) {
    auto b = std::make_unique<T>();
    b->label = label;
    g->register_block(*b);
    T& ref = *b;
    (region ? region : g)->add_block(std::move(b));
    return ref;
  }
  int slot(const ControlFlowBlock& b, const ControlFlowRegion* region = nullptr) const {
    return (region ? region : g)->slot_of(&b);
  }
  int interstate(const ControlFlowBlock& from, const ControlFlowBlock& to, const std::string& cond = "1",
                 std::vector<std::pair<std::string, std::string>> assignments = {},
                 ControlFlowRegion* region = nullptr) {
    ControlFlowRegion* r = region ? region : g;
    InterstateEdge e;
    e.src = r->slot_of(&from);
    e.dst = r->slot_of(&to);
    e.condition.code = cond;
    e.assignments = std::move(assignments);
    return r->add_edge(std::move(e));
  }

  static int access(State& s, const std::string& data) {
    auto n = std::make_unique<AccessNode>();
    n->data = data;
    n->label = data;
    return s.add_node(std::move(n));
  }
  static int tasklet(State& s, const std::string& label, const std::vector<std::string>& ins,
                     const std::vector<std::string>& outs, const std::string& code,
                     Language lang = Language::Python) {
    auto t = std::make_unique<Tasklet>();
    t->label = label;
    for (const auto& c : ins) t->in_connectors[c] = DType{};
    for (const auto& c : outs) t->out_connectors[c] = DType{};
    t->code = CodeBlock{code, lang};
    return s.add_node(std::move(t));
  }
  // Returns {entry, exit}.
  static std::pair<int, int> map(State& s, const std::string& label, const std::vector<std::string>& params,
                                 const std::string& range) {
    auto entry = std::make_unique<MapEntry>();
    entry->label = label;
    entry->map.params = params;
    entry->map.range = S(range);
    int e = s.add_node(std::move(entry));
    auto exit = std::make_unique<MapExit>();
    exit->label = label;
    exit->entry = e;
    int x = s.add_node(std::move(exit));
    return {e, x};
  }
  static void conn_in(State& s, int node, const std::string& c) { s.node(node)->in_connectors[c] = DType{}; }
  static void conn_out(State& s, int node, const std::string& c) { s.node(node)->out_connectors[c] = DType{}; }

  // Memlet text as in DaCe ("A[i, 0:N]", "A" = whole container, "" = empty).
  int edge(State& s, int src, const std::string& src_conn, int dst, const std::string& dst_conn,
           const std::string& memlet) {
    auto m = parse_memlet(memlet);
    EXPECT_TRUE(m.ok()) << memlet;
    DataflowEdge e;
    e.src = src;
    e.dst = dst;
    e.src_conn = src_conn;
    e.dst_conn = dst_conn;
    if (m.ok()) e.memlet = *m;
    auto it = g->arrays.find(e.memlet.data);
    if (it != g->arrays.end() && e.memlet.subset.rank() == 0) {
      for (auto d : it->second.shape)
        e.memlet.subset.dims.push_back({sym::integer(0), sym::sub(d, sym::integer(1)), sym::integer(1), sym::integer(1)});
    }
    return s.add_edge(std::move(e));
  }
};

// A valid one-state SDFG: B[i] = A[i] + 1 over a map of N elements.
inline Builder simple_map_sdfg(const std::string& name = "simple") {
  Builder b(name);
  b.symbol("N");
  b.data("A", array({"N"}));
  b.data("B", array({"N"}));
  State& s = b.block("s");
  int a = Builder::access(s, "A");
  int out = Builder::access(s, "B");
  auto [me, mx] = Builder::map(s, "m", {"i"}, "0:N");
  int t = Builder::tasklet(s, "t", {"a"}, {"b"}, "b = a + 1");
  Builder::conn_in(s, me, "IN_A");
  Builder::conn_out(s, me, "OUT_A");
  Builder::conn_in(s, mx, "IN_B");
  Builder::conn_out(s, mx, "OUT_B");
  b.edge(s, a, "", me, "IN_A", "A[0:N]");
  b.edge(s, me, "OUT_A", t, "a", "A[i]");
  b.edge(s, t, "b", mx, "IN_B", "B[i]");
  b.edge(s, mx, "OUT_B", out, "", "B[0:N]");
  return b;
}

inline std::string all_messages(const std::vector<Error>& errors) {
  std::string out;
  for (const auto& e : errors) out += "  " + e.message + "\n";
  return out;
}

// The SDFG is invalid and one of the reported violations is exactly `message` (path: rule).
inline void expect_error(const SDFG& g, const std::string& message) {
  Status st = analysis::validate(g);
  ASSERT_FALSE(st.ok()) << "expected: " << message;
  EXPECT_EQ(st.error().code, Code::InvalidSdfg);
  auto errors = analysis::validate_all(g);
  bool found = false;
  for (const auto& e : errors) {
    EXPECT_EQ(e.code, Code::InvalidSdfg);
    if (e.message == message) found = true;
  }
  EXPECT_TRUE(found) << "expected: " << message << "\ngot:\n" << all_messages(errors);
}

inline void expect_valid(const SDFG& g) {
  auto errors = analysis::validate_all(g);
  EXPECT_TRUE(errors.empty()) << all_messages(errors);
}

}  // namespace vtest
