#include "transform/mat_vec_pair_row_blocking.h"

#include <optional>

#include "transform/blas_classes.h"
#include "transform/block_placement.h"
#include "transform/mat_vec_pair_match.h"

namespace dace::transform {
namespace {

constexpr const char* kSum = "lambda a, b: a + b";

}  // namespace

MatVecPairRowBlocking::MatVecPairRowBlocking() { props_.bind_int("block_rows", &block_rows_); }

void MatVecPairRowBlocking::state_matches(const ir::State& state, const ScopeTree&,
                                          std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (as_class(state.node(id), kMatMulClass)) out.push_back({id});
}

bool MatVecPairRowBlocking::can_apply(const Site& site, const std::vector<int>& nodes) {
  if (block_rows_ < 1) return refuse("block_rows must be at least 1, not " + std::to_string(block_rows_));
  std::string why;
  if (!match_mat_vec_pair(site.sdfg, site.state, site.scopes, nodes[0], &why)) return refuse(why);
  return true;
}

Status MatVecPairRowBlocking::apply_at(const Site& site, const std::vector<int>& nodes) {
  if (block_rows_ < 1) return make_error(Code::InvalidArgument, "MatVecPairRowBlocking: block_rows must be at least 1");
  std::string why;
  std::optional<MatVecPair> plan = match_mat_vec_pair(site.sdfg, site.state, site.scopes, nodes[0], &why);
  if (!plan) return make_error(Code::InvalidArgument, "MatVecPairRowBlocking: " + why);
  const MatVecPair& p = *plan;
  ir::State& state = site.state;
  const ir::DataDescriptor& ad = site.sdfg.arrays.at(p.a);
  const sym::Expr one = sym::integer(1);
  const sym::Expr last_row = sym::simplify(sym::sub(ad.shape[0], one));
  const sym::Expr last_col = sym::simplify(sym::sub(ad.shape[1], one));
  const std::string ib = fresh_map_parameter(site.sdfg, state, "__row_block", {});
  // The maps' parameters are chosen before any node is added: each is fresh against the SDFG's
  // symbols and containers, this state's map parameters and the other new parameters.
  const std::string k = fresh_map_parameter(site.sdfg, state, "__k", {ib});
  const std::string j = fresh_map_parameter(site.sdfg, state, "__j", {ib, k});
  const sym::Expr b = sym::symbol(ib);
  // Rows ib .. min(ib + B - 1, M - 1): the last block may be short.
  const sym::Range rows = closed_range(b, sym::min(sym::add(b, sym::integer(block_rows_ - 1)), last_row));
  const sym::Subset a_block{{rows, closed_range(sym::integer(0), last_col)}};
  const sym::Subset t_block{{rows}};

  const int a_node = state.edge(p.first_a)->src;
  const int x_node = state.edge(p.first_x)->src;
  const int a_node_second = state.edge(p.second_a)->src;
  const ir::Memlet result_memlet = state.edge(p.second_out)->memlet;
  for (int e : {p.first_a, p.first_x, p.first_out, p.second_t, p.second_a, p.second_out}) state.remove_edge(e);
  if (a_node_second != a_node && state.in_edges(a_node_second).empty() && state.out_edges(a_node_second).empty())
    state.remove_node(a_node_second);

  // The sequential map over blocks of rows.
  auto entry = std::make_unique<ir::MapEntry>();
  entry->label = "matvec_pair_row_blocks";
  entry->map.params = {ib};
  entry->map.range.dims = {closed_range(sym::integer(0), last_row, sym::integer(block_rows_))};
  entry->map.schedule = ir::ScheduleType::Sequential;
  for (const std::string* d : {&p.a, &p.x}) {
    entry->in_connectors["IN_" + *d] = ir::DType{};
    entry->out_connectors["OUT_" + *d] = ir::DType{};
  }
  const int me = state.add_node(std::move(entry));
  auto exit = std::make_unique<ir::MapExit>();
  exit->label = "matvec_pair_row_blocks";
  exit->entry = me;
  exit->in_connectors["IN_" + p.y] = ir::DType{};
  exit->out_connectors["OUT_" + p.y] = ir::DType{};
  const int mx = state.add_node(std::move(exit));

  const sym::Subset all_a = whole(ad.shape), all_x = whole(site.sdfg.arrays.at(p.x).shape);
  const sym::Subset all_y = whole(site.sdfg.arrays.at(p.y).shape);
  state.add_edge(ir::DataflowEdge{a_node, me, "", "IN_" + p.a, subset_memlet(p.a, all_a)});
  state.add_edge(ir::DataflowEdge{x_node, me, "", "IN_" + p.x, subset_memlet(p.x, all_x)});
  state.add_edge(ir::DataflowEdge{me, p.first, "OUT_" + p.a, "_a", subset_memlet(p.a, a_block)});
  state.add_edge(ir::DataflowEdge{me, p.first, "OUT_" + p.x, "_b", subset_memlet(p.x, all_x)});
  state.add_edge(ir::DataflowEdge{p.first, p.temp, "_c", "", subset_memlet(p.t, t_block)});
  state.add_edge(ir::DataflowEdge{p.temp, p.second, "", "_a", subset_memlet(p.t, t_block)});
  state.add_edge(ir::DataflowEdge{me, p.second, "OUT_" + p.a, "_b", subset_memlet(p.a, a_block)});
  // The second product writes its block's partial sum into a transient, which a map adds to
  // y with the WCR: DaCe's MatMul expansion honours a WCR on a Gemv's output not at all.
  std::string partial = "__matvec_pair_partial";
  for (int k = 1; site.sdfg.arrays.count(partial) || site.sdfg.symbols.count(partial); ++k)
    partial = "__matvec_pair_partial" + std::to_string(k);
  {
    ir::DataDescriptor d = site.sdfg.arrays.at(p.y);
    d.transient = true;
    d.storage = ir::StorageType::Default;
    d.lifetime = ir::Lifetime::Scope;
    d.strides.clear();
    d.offset.clear();
    d.total_size = nullptr;
    d.start_offset = nullptr;
    ir::complete_defaults(d);
    site.sdfg.arrays[partial] = std::move(d);
  }
  auto pn = std::make_unique<ir::AccessNode>();
  pn->label = partial;
  pn->data = partial;
  const int part = state.add_node(std::move(pn));
  state.add_edge(ir::DataflowEdge{p.second, part, "_c", "", subset_memlet(partial, all_y)});
  auto add_entry = std::make_unique<ir::MapEntry>();
  add_entry->label = "matvec_pair_accumulate";
  add_entry->map.params = {k};
  add_entry->map.range = all_y;
  add_entry->map.schedule = ir::ScheduleType::Sequential;
  add_entry->in_connectors["IN_" + partial] = ir::DType{};
  add_entry->out_connectors["OUT_" + partial] = ir::DType{};
  const int ae = state.add_node(std::move(add_entry));
  auto add_exit = std::make_unique<ir::MapExit>();
  add_exit->label = "matvec_pair_accumulate";
  add_exit->entry = ae;
  add_exit->in_connectors["IN_" + p.y] = ir::DType{};
  add_exit->out_connectors["OUT_" + p.y] = ir::DType{};
  const int ax = state.add_node(std::move(add_exit));
  auto add = std::make_unique<ir::Tasklet>();
  add->label = "matvec_pair_add";
  add->code = ir::CodeBlock{"out = v", ir::Language::Python};
  add->in_connectors["v"] = ir::DType{};
  add->out_connectors["out"] = ir::DType{};
  const int at = state.add_node(std::move(add));
  const sym::Expr kk = sym::symbol(k);
  state.add_edge(ir::DataflowEdge{part, ae, "", "IN_" + partial, subset_memlet(partial, all_y)});
  state.add_edge(ir::DataflowEdge{ae, at, "OUT_" + partial, "v", subset_memlet(partial, sym::Subset{{closed_range(kk, kk)}})});
  state.add_edge(ir::DataflowEdge{at, ax, "out", "IN_" + p.y, subset_memlet(p.y, sym::Subset{{closed_range(kk, kk)}}, kSum)});
  state.add_edge(ir::DataflowEdge{ax, mx, "OUT_" + p.y, "IN_" + p.y, subset_memlet(p.y, all_y, kSum)});
  ir::Memlet out = result_memlet;
  out.wcr = kSum;
  state.add_edge(ir::DataflowEdge{mx, p.result, "OUT_" + p.y, "", out});

  // y[:] = 0 before the first block: a map writing zeros into a new access node of y,
  // ordered before the block map by an empty edge.
  auto init_entry = std::make_unique<ir::MapEntry>();
  init_entry->label = "matvec_pair_init";
  init_entry->map.params = {j};
  init_entry->map.range = all_y;
  const int ie = state.add_node(std::move(init_entry));
  auto init_exit = std::make_unique<ir::MapExit>();
  init_exit->label = "matvec_pair_init";
  init_exit->entry = ie;
  init_exit->in_connectors["IN_" + p.y] = ir::DType{};
  init_exit->out_connectors["OUT_" + p.y] = ir::DType{};
  const int ix = state.add_node(std::move(init_exit));
  auto zero = std::make_unique<ir::Tasklet>();
  zero->label = "matvec_pair_zero";
  zero->code = ir::CodeBlock{"out = 0", ir::Language::Python};
  zero->out_connectors["out"] = ir::DType{};
  const int zt = state.add_node(std::move(zero));
  auto y_init = std::make_unique<ir::AccessNode>();
  y_init->label = p.y;
  y_init->data = p.y;
  const int yi = state.add_node(std::move(y_init));
  const sym::Expr jj = sym::symbol(j);
  state.add_edge(ir::DataflowEdge{ie, zt, "", "", ir::Memlet{}});
  state.add_edge(ir::DataflowEdge{zt, ix, "out", "IN_" + p.y, subset_memlet(p.y, sym::Subset{{closed_range(jj, jj)}})});
  state.add_edge(ir::DataflowEdge{ix, yi, "OUT_" + p.y, "", subset_memlet(p.y, all_y)});
  state.add_edge(ir::DataflowEdge{yi, me, "", "", ir::Memlet{}});
  return Status::success();
}

}  // namespace dace::transform
