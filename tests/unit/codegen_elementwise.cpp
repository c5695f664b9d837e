#include "codegen_elementwise.h"

namespace dace::codegen::testing {

std::unique_ptr<ir::SDFG> elementwise(const std::string& name, const std::vector<Port>& ins,
                                      const std::vector<Port>& outs, const std::string& code,
                                      ir::ScheduleType schedule) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(ir::ScalarType::Int64);
  for (const Port& p : ins) add_array(*g, p.data, p.type, {"N"});
  for (const Port& p : outs) add_array(*g, p.data, p.type, {"N"});
  ir::State& s = add_state(*g, *g, "s");
  std::vector<std::string> in_conns, out_conns;
  for (const Port& p : ins) in_conns.push_back(p.conn);
  for (const Port& p : outs) out_conns.push_back(p.conn);
  auto [entry, exit] = map(s, {"i"}, "0:N", schedule);
  int t = tasklet(s, code, in_conns, out_conns);
  for (const Port& p : ins) edge_in(s, access(s, p.data), entry, t, p.conn, p.data + "[0:N]", p.data + "[i]");
  for (const Port& p : outs) edge_out(s, t, p.conn, exit, access(s, p.data), p.data + "[i]", p.data + "[0:N]");
  if (ins.empty()) edge(s, entry, "", t, "", "");
  return g;
}

}  // namespace dace::codegen::testing
