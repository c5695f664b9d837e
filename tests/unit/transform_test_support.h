// Helpers of the transformation tests: compile and run an SDFG on double arrays, and apply a
// transformation by name at its first legal match.
#pragma once
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "transform/apply.h"
#include "transform/registry.h"

namespace dace::transform::testing {

// Runs `g` with the named arrays (modified in place) and int64 symbols; fails the test on
// any error.
inline void run_sdfg(const ir::SDFG& g, std::map<std::string, std::vector<double>*> arrays,
                     const std::map<std::string, int64_t>& symbols) {
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<codegen::testing::CompiledProgram> p = codegen::testing::compile(g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  std::map<std::string, codegen::testing::ArgValue> args;
  for (auto& [name, data] : arrays) args[name] = codegen::testing::ArgValue::pointer(data->data());
  for (const auto& [name, value] : symbols) args[name] = codegen::testing::ArgValue::scalar<int64_t>(value);
  Status r = codegen::testing::run(*p, args);
  ASSERT_TRUE(r.ok()) << r.error().message;
}

// Applies `name` at its first legal match; returns the match (nullopt when none applies).
inline std::optional<Match> apply_once(ir::SDFG& g, const std::string& name) {
  std::unique_ptr<Transformation> t = make_transformation(name);
  EXPECT_TRUE(t) << name;
  if (!t) return std::nullopt;
  AnalysisManager am;
  Result<std::optional<Match>> m = apply_first(g, *t, am);
  EXPECT_TRUE(m.ok()) << m.error().message;
  if (!m.ok()) return std::nullopt;
  Status v = analysis::validate(g);
  EXPECT_TRUE(v.ok()) << v.error().message;
  return *m;
}

// Whether `name` has some legal match, and the refusal reasons of the others.
inline bool applies_anywhere(ir::SDFG& g, const std::string& name, std::string* reasons = nullptr) {
  std::unique_ptr<Transformation> t = make_transformation(name);
  AnalysisManager am;
  for (const Match& m : t->enumerate(g, am)) {
    if (t->can_be_applied(g, m, am)) return true;
    if (reasons) *reasons += t->why_not() + "\n";
  }
  return false;
}

// Adds a nested SDFG node holding `inner` with the given connectors and symbol mapping
// (inner symbol -> outer expression); returns its id.
inline int add_nested(ir::State& s, std::unique_ptr<ir::SDFG> inner, std::vector<std::string> ins,
               std::vector<std::string> outs, std::map<std::string, std::string> mapping) {
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = inner->name;
  for (const auto& c : ins) nn->in_connectors[c] = ir::DType{};
  for (const auto& c : outs) nn->out_connectors[c] = ir::DType{};
  for (const auto& [k, v] : mapping) nn->symbol_mapping[k] = codegen::testing::E(v);
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  return s.add_node(std::move(nn));
}

inline int count_nodes(const ir::SDFG& g, ir::NodeKind kind) {
  int n = 0;
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids()) n += s->node(id)->kind == kind;
  return n;
}

// The loop the loop-transformation tests build at the top of `g`:
//   start -> for (var = init; cond; var = update) { } -> end
// as a LoopRegion labelled `label`, its variable declared as an int64 symbol (as LoopLifting
// leaves it). The body is empty: callers add states with add_state(*loop, g, ...).
struct TestLoop {
  ir::LoopRegion* loop = nullptr;
  int start = 0, slot = 0, end = 0;  // slots in g
};

// A LoopRegion `for (var = init; cond; var = update)` registered in `g` (not yet placed in a
// region), its variable declared in `g` as an int64 symbol.
inline std::unique_ptr<ir::LoopRegion> make_test_loop(ir::SDFG& g, const std::string& label, const std::string& var,
                                                      const std::string& init, const std::string& cond,
                                                      const std::string& update) {
  g.symbols[var] = ir::DType::of(ir::ScalarType::Int64);
  auto loop = std::make_unique<ir::LoopRegion>();
  loop->label = label;
  loop->loop_variable = var;
  loop->init_statement = ir::CodeBlock{var + " = " + init, ir::Language::Python};
  loop->loop_condition = ir::CodeBlock{cond, ir::Language::Python};
  loop->update_statement = ir::CodeBlock{var + " = " + update, ir::Language::Python};
  g.register_block(*loop);
  return loop;
}

inline TestLoop add_test_loop(ir::SDFG& g, const std::string& label, const std::string& init, const std::string& cond,
                              const std::string& update, const std::string& var = "i") {
  TestLoop t;
  codegen::testing::add_state(g, g, "start", &t.start);
  std::unique_ptr<ir::LoopRegion> loop = make_test_loop(g, label, var, init, cond, update);
  t.loop = loop.get();
  t.slot = g.add_block(std::move(loop));
  codegen::testing::add_state(g, g, "end", &t.end);
  codegen::testing::add_interstate(g, t.start, t.slot);
  codegen::testing::add_interstate(g, t.slot, t.end);
  return t;
}

// DaCe's MatMul library node (`_a`, `_b` in, `_c` out) with the given properties (JSON text),
// added to `s`; returns its id.
inline int add_matmul(ir::State& s, const std::map<std::string, std::string>& props = {}) {
  auto n = std::make_unique<ir::LibraryNode>();
  for (const auto& [k, v] : props) n->properties[k] = v;
  n->name = n->label = "_MatMult_";
  n->classpath = "dace.libraries.blas.nodes.matmul.MatMul";
  n->in_connectors["_a"] = ir::DType{};
  n->in_connectors["_b"] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  return s.add_node(std::move(n));
}

}  // namespace dace::transform::testing
