#include "transform/nest_region.h"

#include <map>

#include "analysis/arguments.h"
#include "analysis/memlet_propagation.h"
#include "transform/assigned_symbols.h"

namespace dace::transform {
namespace {

ir::DType symbol_type(const ir::SDFG& owner, const std::string& s) {
  auto it = owner.symbols.find(s);
  return it != owner.symbols.end() ? it->second : ir::DType::of(ir::ScalarType::Int64);
}

}  // namespace

std::unique_ptr<ir::State> nest_region(ir::SDFG& owner, const ir::ControlFlowRegion& region, const NestingPlan& plan) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = plan.label;
  inner->using_explicit_control_flow = owner.using_explicit_control_flow;
  inner->constants = owner.constants;
  std::map<int, int> slots;
  for (int b : region.block_slots()) slots[b] = inner->add_block(region.block(b)->clone());
  for (int es : region.edge_slots()) {
    ir::InterstateEdge e = *region.edge(es);
    e.src = slots.at(e.src);
    e.dst = slots.at(e.dst);
    inner->add_edge(std::move(e));
  }
  if (region.start_block >= 0) inner->start_block = slots.at(region.start_block);
  ir::relink_parents(*inner);
  inner->for_each_block([&](ir::ControlFlowBlock& b) { inner->register_block(b); });

  for (const std::set<std::string>* names : {&plan.inputs, &plan.outputs})
    for (const std::string& d : *names) {
      ir::DataDescriptor desc = owner.arrays.at(d);
      desc.transient = false;
      inner->arrays[d] = std::move(desc);
    }
  for (const std::string& d : plan.moved) {
    inner->arrays[d] = owner.arrays.at(d);
    owner.arrays.erase(d);
  }

  std::set<std::string> assigned;
  for (int es : region.edge_slots())
    for (const auto& [lhs, rhs] : region.edge(es)->assignments) assigned.insert(lhs);
  for (int b : region.block_slots()) assigned.merge(assigned_symbols(*region.block(b)));
  for (const std::string& s : assigned) inner->symbols[s] = symbol_type(owner, s);

  auto node = std::make_unique<ir::NestedSDFGNode>();
  node->label = plan.label;
  for (const std::string& s : analysis::free_symbols(*inner)) {
    if (assigned.count(s)) continue;
    inner->symbols[s] = symbol_type(owner, s);
    node->symbol_mapping[s] = sym::symbol(s);
  }
  for (const std::string& d : plan.inputs) node->in_connectors[d] = ir::DType{};
  for (const std::string& d : plan.outputs) node->out_connectors[d] = ir::DType{};
  node->sdfg = std::move(inner);
  node->sdfg->parent_node = node.get();

  auto st = std::make_unique<ir::State>();
  st->label = plan.label;
  const int n = st->add_node(std::move(node));
  auto access = [&](const std::string& d) {
    auto a = std::make_unique<ir::AccessNode>();
    a->data = d;
    a->label = d;
    return st->add_node(std::move(a));
  };
  auto whole = [&](const std::string& d) {
    ir::Memlet m;
    m.data = d;
    m.subset = analysis::whole_subset(owner.arrays.at(d));
    return m;
  };
  for (const std::string& d : plan.inputs) st->add_edge(ir::DataflowEdge{access(d), n, "", d, whole(d)});
  for (const std::string& d : plan.outputs) st->add_edge(ir::DataflowEdge{n, access(d), d, "", whole(d)});
  return st;
}

}  // namespace dace::transform
