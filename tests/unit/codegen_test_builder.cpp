#include "codegen_test_builder.h"

#include <gtest/gtest.h>

#include "ir/memlet.h"

namespace dace::codegen::testing {

sym::Expr E(const std::string& text) {
  Result<sym::Expr> e = sym::parse(text);
  EXPECT_TRUE(e.ok()) << text;
  return e.ok() ? *e : sym::integer(0);
}

void add_array(ir::SDFG& g, const std::string& name, ir::ScalarType t, const std::vector<std::string>& shape,
               bool transient, ir::Lifetime lifetime) {
  ir::DataDescriptor d;
  d.kind = ir::DataKind::Array;
  d.dtype = ir::DType::of(t);
  for (const auto& s : shape) d.shape.push_back(E(s));
  d.transient = transient;
  d.lifetime = lifetime;
  ir::complete_defaults(d);
  g.arrays[name] = d;
}

void add_scalar(ir::SDFG& g, const std::string& name, ir::ScalarType t, bool transient) {
  ir::DataDescriptor d;
  d.kind = ir::DataKind::Scalar;
  d.dtype = ir::DType::of(t);
  d.transient = transient;
  ir::complete_defaults(d);
  g.arrays[name] = d;
}

void add_view(ir::SDFG& g, const std::string& name, ir::ScalarType t, const std::vector<std::string>& shape,
              const std::vector<std::string>& strides) {
  ir::DataDescriptor d;
  d.kind = ir::DataKind::View;
  d.json_type = "ArrayView";
  d.dtype = ir::DType::of(t);
  for (const auto& s : shape) d.shape.push_back(E(s));
  for (const auto& s : strides) d.strides.push_back(E(s));
  d.transient = true;
  ir::complete_defaults(d);
  g.arrays[name] = d;
}

ir::State& add_state(ir::ControlFlowRegion& r, ir::SDFG& g, const std::string& label, int* slot) {
  auto st = std::make_unique<ir::State>();
  st->label = label;
  ir::State* p = st.get();
  g.register_block(*p);
  int s = r.add_block(std::move(st));
  if (slot) *slot = s;
  return *p;
}

void add_interstate(ir::ControlFlowRegion& r, int src, int dst, const std::string& condition,
                    std::vector<std::pair<std::string, std::string>> assignments) {
  ir::InterstateEdge e;
  e.src = src;
  e.dst = dst;
  e.condition.code = condition;
  e.assignments = std::move(assignments);
  r.add_edge(std::move(e));
}

int access(ir::State& s, const std::string& data) {
  auto n = std::make_unique<ir::AccessNode>();
  n->data = data;
  n->label = data;
  return s.add_node(std::move(n));
}

int tasklet(ir::State& s, const std::string& code, const std::vector<std::string>& ins,
            const std::vector<std::string>& outs) {
  auto t = std::make_unique<ir::Tasklet>();
  t->label = "t";
  t->code.code = code;
  for (const auto& i : ins) t->in_connectors[i] = ir::DType{};
  for (const auto& o : outs) t->out_connectors[o] = ir::DType{};
  return s.add_node(std::move(t));
}

std::pair<int, int> map(ir::State& s, const std::vector<std::string>& params, const std::string& ranges,
                        ir::ScheduleType schedule) {
  auto en = std::make_unique<ir::MapEntry>();
  en->label = "m";
  en->map.params = params;
  Result<sym::Subset> r = sym::parse_subset(ranges);
  EXPECT_TRUE(r.ok()) << ranges;
  if (r.ok()) en->map.range = *r;
  en->map.schedule = schedule;
  int entry = s.add_node(std::move(en));
  auto ex = std::make_unique<ir::MapExit>();
  ex->label = "m";
  ex->entry = entry;
  int exit = s.add_node(std::move(ex));
  return {entry, exit};
}

int edge(ir::State& s, int src, const std::string& src_conn, int dst, const std::string& dst_conn,
         const std::string& memlet, const std::string& wcr) {
  ir::DataflowEdge e;
  e.src = src;
  e.dst = dst;
  e.src_conn = src_conn;
  e.dst_conn = dst_conn;
  Result<ir::Memlet> m = ir::parse_memlet(memlet);
  EXPECT_TRUE(m.ok()) << memlet;
  if (m.ok()) e.memlet = *m;
  e.memlet.wcr = wcr;
  return s.add_edge(std::move(e));
}

void edge_in(ir::State& s, int src, int entry, int dst, const std::string& dst_conn, const std::string& outer,
             const std::string& inner) {
  Result<ir::Memlet> m = ir::parse_memlet(outer);
  std::string data = m.ok() ? m->data : "x";
  s.node(entry)->in_connectors["IN_" + data] = ir::DType{};
  s.node(entry)->out_connectors["OUT_" + data] = ir::DType{};
  edge(s, src, "", entry, "IN_" + data, outer);
  edge(s, entry, "OUT_" + data, dst, dst_conn, inner);
}

void edge_out(ir::State& s, int src, const std::string& src_conn, int exit, int dst, const std::string& inner,
              const std::string& outer, const std::string& wcr) {
  Result<ir::Memlet> m = ir::parse_memlet(outer);
  std::string data = m.ok() ? m->data : "x";
  s.node(exit)->in_connectors["IN_" + data] = ir::DType{};
  s.node(exit)->out_connectors["OUT_" + data] = ir::DType{};
  edge(s, src, src_conn, exit, "IN_" + data, inner, wcr);
  edge(s, exit, "OUT_" + data, dst, "", outer, wcr);
}

}  // namespace dace::codegen::testing
