#include "transform/map_utils.h"

namespace dace::transform {

bool is_gpu_schedule(ir::ScheduleType s) {
  using S = ir::ScheduleType;
  return s == S::GPU_Default || s == S::GPU_Device || s == S::GPU_ThreadBlock || s == S::GPU_ThreadBlock_Dynamic ||
         s == S::GPU_Persistent;
}

bool single_iteration(const sym::Range& r) {
  if (!r.start || !r.end) return false;
  if (r.start == r.end) return true;
  return sym::as_integer(sym::simplify(sym::sub(r.end, r.start))) == 0;
}

bool has_dynamic_inputs(const ir::State& state, int entry) {
  for (int e : state.in_edges(entry)) {
    const ir::DataflowEdge& edge = *state.edge(e);
    if (!edge.memlet.is_empty() && !edge.dst_conn.starts_with("IN_")) return true;
  }
  return false;
}

std::string connector_suffix(const std::string& conn, const char* prefix) {
  const std::string p(prefix);
  return conn.starts_with(p) ? conn.substr(p.size()) : std::string();
}

}  // namespace dace::transform
