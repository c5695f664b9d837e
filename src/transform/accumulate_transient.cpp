#include "transform/accumulate_transient.h"

namespace dace::transform {

using local_storage::Direction;

void AccumulateTransient::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  local_storage::pair_matches(state, Direction::Out, true, out);
}

bool AccumulateTransient::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::State& s = site.state;
  const int a = nodes[0], b = nodes[1];
  if (s.node(a)->kind != ir::NodeKind::MapExit || s.node(b)->kind != ir::NodeKind::MapExit)
    return refuse("nodes " + std::to_string(a) + " and " + std::to_string(b) + " are not two map exits");
  const int inner_entry = site.scopes.partner[static_cast<size_t>(a)];
  const int outer_entry = site.scopes.partner[static_cast<size_t>(b)];
  if (inner_entry < 0 || outer_entry < 0 || site.scopes.parent[static_cast<size_t>(inner_entry)] != outer_entry)
    return refuse("the map of exit " + std::to_string(a) + " is not directly inside the map of exit " + std::to_string(b));
  const int e = local_storage::chosen_edge(s, a, b, array_, true);
  if (e < 0)
    return refuse("no edge " + (array_.empty() ? std::string("with a WCR") : "of '" + array_ + "'") + " from exit " +
                  std::to_string(a) + " to exit " + std::to_string(b));
  const std::string why = local_storage::edge_problem(site.sdfg, s, site.scopes, Direction::Out, a, b, e, true, nullptr);
  if (!why.empty()) return refuse(why);
  if (!identity_ || identity_->empty())
    return refuse("no identity: the transient of '" + s.edge(e)->memlet.data + "' would start uninitialized");
  if (!sym::parse(*identity_).ok()) return refuse("identity '" + *identity_ + "' does not parse");
  return true;
}

Status AccumulateTransient::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& s = site.state;
  const int a = nodes[0], b = nodes[1];
  const int inner_entry = site.scopes.partner[static_cast<size_t>(a)];
  const int outer_entry = site.scopes.partner[static_cast<size_t>(b)];
  const int e = local_storage::chosen_edge(s, a, b, array_, true);
  std::vector<int> tree;
  local_storage::edge_problem(site.sdfg, s, site.scopes, Direction::Out, a, b, e, true, &tree);
  std::string name;
  local_storage::insert_transient(site.sdfg, s, Direction::Out, e, tree, "trans_", &name);

  // acctrans_init: map _o0.. over the transient's shape writing `identity`, ordered before
  // the inner map by an empty edge from its access node.
  const ir::DataDescriptor& d = site.sdfg.arrays.at(name);
  auto entry_node = std::make_unique<ir::MapEntry>();
  entry_node->label = "acctrans_init_map";
  sym::Subset element, whole;
  for (size_t k = 0; k < d.shape.size(); ++k) {
    const std::string p = "_o" + std::to_string(k);
    const sym::Expr last = sym::simplify(sym::sub(d.shape[k], sym::integer(1)));
    entry_node->map.params.push_back(p);
    entry_node->map.range.dims.push_back({sym::integer(0), last, sym::integer(1), sym::integer(1)});
    element.dims.push_back({sym::symbol(p), sym::symbol(p), sym::integer(1), sym::integer(1)});
    whole.dims.push_back({sym::integer(0), last, sym::integer(1), sym::integer(1)});
  }
  const int ie = s.add_node(std::move(entry_node));
  auto exit_node = std::make_unique<ir::MapExit>();
  exit_node->label = "acctrans_init_map";
  exit_node->entry = ie;
  exit_node->in_connectors.emplace("IN_" + name, ir::DType{});
  exit_node->out_connectors.emplace("OUT_" + name, ir::DType{});
  const int ix = s.add_node(std::move(exit_node));
  auto tasklet = std::make_unique<ir::Tasklet>();
  tasklet->label = "acctrans_init";
  tasklet->code = ir::CodeBlock{"out = " + *identity_, ir::Language::Python};
  tasklet->out_connectors["out"] = ir::DType{};
  const int t = s.add_node(std::move(tasklet));
  auto access = std::make_unique<ir::AccessNode>();
  access->label = name;
  access->data = name;
  const int init = s.add_node(std::move(access));

  ir::Memlet write_one, write_all;
  write_one.data = write_all.data = name;
  write_one.subset = element;
  write_all.subset = whole;
  s.add_edge(ir::DataflowEdge{outer_entry, ie, "", "", ir::Memlet{}});
  s.add_edge(ir::DataflowEdge{ie, t, "", "", ir::Memlet{}});
  s.add_edge(ir::DataflowEdge{t, ix, "out", "IN_" + name, write_one});
  s.add_edge(ir::DataflowEdge{ix, init, "OUT_" + name, "", write_all});
  s.add_edge(ir::DataflowEdge{init, inner_entry, "", "", ir::Memlet{}});
  return Status::success();
}

}  // namespace dace::transform
