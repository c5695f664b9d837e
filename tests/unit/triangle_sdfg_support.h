// One SDFG shared by the map tests: C[i, j] = i * 100 + j for j <= i, an outer map over the
// rows (0:N) and an inner map over each row's first i + 1 elements (a triangle).
#pragma once
#include <memory>
#include <string>

#include "codegen_test_builder.h"

namespace dace::codegen::testing {

struct TriangleSdfg {
  std::unique_ptr<ir::SDFG> sdfg;
  ir::State* state = nullptr;  // the SDFG's only state
  int outer_entry = -1;
};

inline TriangleSdfg triangle_sdfg(const std::string& name, ir::ScheduleType outer, ir::ScheduleType inner) {
  using T = ir::ScalarType;
  TriangleSdfg out;
  out.sdfg = std::make_unique<ir::SDFG>();
  ir::SDFG& g = *out.sdfg;
  g.name = name;
  g.symbols["N"] = ir::DType::of(T::Int64);
  add_array(g, "C", T::Int64, {"N", "N"});
  ir::State& s = add_state(g, g, "s");
  auto [oe, ox] = map(s, {"i"}, "0:N", outer);
  auto [ie, ix] = map(s, {"j"}, "0:i+1", inner);
  int t = tasklet(s, "c = i * 100 + j", {}, {"c"});
  edge(s, oe, "", ie, "", "");
  edge(s, ie, "", t, "", "");
  s.node(ix)->in_connectors["IN_C"] = ir::DType{};
  s.node(ix)->out_connectors["OUT_C"] = ir::DType{};
  s.node(ox)->in_connectors["IN_C"] = ir::DType{};
  s.node(ox)->out_connectors["OUT_C"] = ir::DType{};
  edge(s, t, "c", ix, "IN_C", "C[i, j]");
  edge(s, ix, "OUT_C", ox, "IN_C", "C[i, 0:i+1]");
  edge(s, ox, "OUT_C", access(s, "C"), "", "C[0:N, 0:N]");
  out.state = &s;
  out.outer_entry = oe;
  return out;
}

}  // namespace dace::codegen::testing
