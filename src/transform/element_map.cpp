#include "transform/element_map.h"

#include <optional>

#include "ir/edit.h"

namespace dace::transform {

bool has_unit_extent(const sym::Expr& extent) {
  return sym::as_integer(sym::simplify(extent)) == std::optional<int64_t>(1);
}

ir::Memlet element_memlet(const std::string& data, const std::vector<sym::Expr>& index) {
  ir::Memlet m;
  m.data = data;
  for (const sym::Expr& i : index) m.subset.dims.push_back({i, i, sym::integer(1), sym::integer(1)});
  return m;
}

void add_element_map(ir::State& state, const std::string& label, ir::MapScope map, const std::string& code,
                     const ElementMapEnd& in, const ElementMapEnd& out) {
  auto tasklet = std::make_unique<ir::Tasklet>();
  tasklet->label = label + "_element";
  tasklet->code = ir::CodeBlock{code, ir::Language::Python};
  tasklet->in_connectors["__inp"] = ir::DType{};
  tasklet->out_connectors["__out"] = ir::DType{};
  const int t = state.add_node(std::move(tasklet));
  auto [entry, exit] = ir::add_map(state, label + "_map", std::move(map));
  ir::ensure_connector(*state.node(entry), false, "IN___inp");
  ir::ensure_connector(*state.node(entry), true, "OUT___inp");
  ir::ensure_connector(*state.node(exit), false, "IN___out");
  ir::ensure_connector(*state.node(exit), true, "OUT___out");
  auto fresh = [](ir::Memlet m) {
    m.guid.clear();
    return m;
  };
  state.add_edge(ir::DataflowEdge{in.node, entry, in.conn, "IN___inp", fresh(in.outer)});
  state.add_edge(ir::DataflowEdge{entry, t, "OUT___inp", "__inp", fresh(in.inner)});
  state.add_edge(ir::DataflowEdge{t, exit, "__out", "IN___out", fresh(out.inner)});
  state.add_edge(ir::DataflowEdge{exit, out.node, "OUT___out", out.conn, fresh(out.outer)});
}

}  // namespace dace::transform
