// Rules of NestedSDFG nodes (DaCe's NestedSDFG.validate) and recursion into the nested SDFG.
#include "analysis/arguments.h"
#include "analysis/validate_code.h"
#include "analysis/validate_state_info.h"

namespace dace::analysis::detail {

namespace {

// Data of the access node at the far end of a memlet path, or "" when it is not one.
std::string end_data(const StateInfo& info, int edge, bool source) {
  auto path = info.memlet_path(edge);
  const ir::DataflowEdge* e = info.state.edge(source ? path.front() : path.back());
  const ir::Node* n = info.state.node(source ? e->src : e->dst);
  if (!n || n->kind != ir::NodeKind::Access) return "";
  return static_cast<const ir::AccessNode*>(n)->data;
}

}  // namespace

void validate_nested_sdfg(SdfgContext& ctx, const StateInfo& info, int id) {
  const ir::State& state = info.state;
  const auto& node = static_cast<const ir::NestedSDFGNode&>(*state.node(id));
  std::string path = ctx.node_path(state, id);
  if (!is_valid_name(node.label)) ctx.error(path, "invalid nested SDFG name");
  if (!node.sdfg) {
    ctx.error(path, "nested SDFG node holds no SDFG");
    return;
  }
  const ir::SDFG& inner = *node.sdfg;
  if (inner.parent_node != &node) ctx.error(path, "the nested SDFG's parent node pointer does not point to this node");

  std::set<std::string> connectors;
  for (const auto& [c, t] : node.in_connectors) connectors.insert(c);
  for (const auto& [c, t] : node.out_connectors) connectors.insert(c);
  for (const auto& c : connectors) {
    auto it = inner.arrays.find(c);
    std::string cpath = path + " / connector " + ir::quoted(c);
    if (it == inner.arrays.end())
      ctx.error(cpath, "connector has no data descriptor of the same name in the nested SDFG");
    else if (it->second.transient)
      ctx.error(cpath, "connector's data descriptor in the nested SDFG is transient");
  }
  for (const auto& [name, desc] : inner.arrays)
    if (!desc.transient && !connectors.count(name))
      ctx.error(path, "non-transient data " + ir::quoted(name) + " of the nested SDFG has no connector");

  // An in-out connector must read and write the same outer data.
  for (const auto& [c, t] : node.in_connectors) {
    if (!node.out_connectors.count(c)) continue;
    std::set<std::string> inputs, outputs;
    for (int e : info.in[id])
      if (state.edge(e)->dst_conn == c) inputs.insert(end_data(info, e, true));
    for (int e : info.out[id])
      if (state.edge(e)->src_conn == c) outputs.insert(end_data(info, e, false));
    inputs.erase("");
    outputs.erase("");
    for (const auto& in : inputs)
      if (!outputs.count(in))
        ctx.error(path + " / connector " + ir::quoted(c),
                  "in-out connector reads " + ir::quoted(in) + " but writes " + names_list(outputs));
  }

  std::set<std::string> outer_defined = info.defined_at(id);
  for (const auto& [inner_sym, value] : node.symbol_mapping) {
    std::string spath = path + " / symbol mapping " + ir::quoted(inner_sym);
    if (!value) {
      ctx.error(spath, "symbol mapping has a null expression");
      continue;
    }
    std::set<std::string> undefined;
    for (const auto& s : sym::free_symbols(value))
      if (!outer_defined.count(s) && !ctx.is_data(s)) undefined.insert(s);
    if (!undefined.empty()) ctx.error(spath, "undefined symbol " + names_list(undefined) + " in symbol mapping");
  }
  std::set<std::string> missing;
  for (const auto& s : free_symbols(inner))
    if (!connectors.count(s) && !node.symbol_mapping.count(s)) missing.insert(s);
  if (!missing.empty()) ctx.error(path, "symbol " + names_list(missing) + " of the nested SDFG is not in its symbol mapping");

  if (ctx.full()) return;
  if (ctx.depth + 1 > kMaxDepth) {
    ctx.error(path, "nested SDFGs are nested too deeply");
    return;
  }
  SdfgContext sub(ctx.sink, inner);
  sub.prefix = path + " / ";
  sub.holder = &node;
  sub.in_gpu = info.in_gpu(id) || is_gpu_schedule(node.schedule);
  sub.in_default = info.in_default(id);
  sub.depth = ctx.depth + 1;
  validate_sdfg(sub);
}

}  // namespace dace::analysis::detail
