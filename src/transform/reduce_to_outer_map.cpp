#include "transform/reduce_to_outer_map.h"

#include <cctype>
#include <optional>
#include <set>

#include "transform/block_placement.h"
#include "transform/map_fusion_util.h"

namespace dace::transform {
namespace {

using map_fusion::node_name;

// The one non-empty edge on each side of the node, none other; -1 when that is not so.
int only_edge(const std::vector<int>& edges, const ir::State& state) {
  int found = -1;
  for (int e : edges) {
    if (found >= 0 || state.edge(e)->memlet.is_empty()) return -1;
    found = e;
  }
  return found;
}

bool unit_step(const sym::Range& r) {
  return (!r.step || sym::as_integer(sym::simplify(r.step)) == std::optional<int64_t>(1)) &&
         (!r.tile || sym::as_integer(sym::simplify(r.tile)) == std::optional<int64_t>(1));
}

bool host_storage(ir::StorageType s) {
  using S = ir::StorageType;
  return s == S::Default || s == S::Register || s == S::CPU_Heap || s == S::CPU_Pinned || s == S::CPU_ThreadLocal;
}

struct Plan {
  int in_edge = -1, out_edge = -1;
  size_t kept = 0;  // leading dimensions of the input that the output keeps
};

// Fills `plan`; returns the reason of a refusal, empty when legal.
std::string analyze(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, int node, Plan& plan) {
  const ir::Node* n = state.node(node);
  if (!n || !is_reduce_node(*n)) return "node " + std::to_string(node) + " is not a Reduce";
  const std::string name = node_name(state, node);
  if (scopes.parent[static_cast<size_t>(node)] >= 0) return name + " is inside a scope";
  // The new map is a host map: a Reduce scheduled or implemented for a device, or reading or
  // writing device memory, must stay as it is.
  const auto& lib = static_cast<const ir::LibraryNode&>(*n);
  if (lib.schedule != ir::ScheduleType::Default && lib.schedule != ir::ScheduleType::Sequential &&
      lib.schedule != ir::ScheduleType::CPU_Multicore)
    return name + " has schedule " + ir::to_string(lib.schedule) + ", not a host schedule";
  if (!lib.implementation.empty() && lib.implementation != "pure" && lib.implementation != "pure-seq" &&
      lib.implementation != "OpenMP")
    return name + " has implementation \"" + lib.implementation + "\", not a host implementation";
  plan.in_edge = only_edge(state.in_edges(node), state);
  plan.out_edge = only_edge(state.out_edges(node), state);
  if (plan.in_edge < 0 || plan.out_edge < 0) return name + " does not have exactly one input and one output edge";
  const ir::DataflowEdge& ie = *state.edge(plan.in_edge);
  const ir::DataflowEdge& oe = *state.edge(plan.out_edge);
  for (const ir::DataflowEdge* e : {&ie, &oe}) {
    const ir::Node* end = state.node(e == &ie ? e->src : e->dst);
    if (end->kind != ir::NodeKind::Access || static_cast<const ir::AccessNode*>(end)->data != e->memlet.data)
      return name + " is not connected to access nodes of the containers its memlets name";
    if (e->memlet.other_subset || !e->memlet.wcr.empty() || e->memlet.dynamic)
      return name + ": the memlet of \"" + e->memlet.data + "\" has a second subset, a write-conflict resolution or is dynamic";
    auto desc = sdfg.arrays.find(e->memlet.data);
    if (desc == sdfg.arrays.end()) return "unknown container \"" + e->memlet.data + "\"";
    if (!host_storage(desc->second.storage))
      return name + ": \"" + e->memlet.data + "\" has storage " + ir::to_string(desc->second.storage) + ", not host memory";
  }
  if (ie.memlet.data == oe.memlet.data) return name + " reads and writes \"" + ie.memlet.data + "\"";
  const std::optional<std::vector<int64_t>> axes = reduce_axes(static_cast<const ir::LibraryNode&>(*n));
  const sym::Subset& in = ie.memlet.subset;
  const sym::Subset& out = oe.memlet.subset;
  const size_t rank = in.dims.size();
  if (!axes || axes->empty()) return name + " reduces over all axes (no kept dimension to map over)";
  plan.kept = rank - std::min(rank, axes->size());
  for (size_t a = 0; a < axes->size(); ++a)
    if ((*axes)[a] != static_cast<int64_t>(plan.kept + a))
      return name + ": the axes are not the trailing dimensions of the input in ascending order";
  if (plan.kept == 0) return name + " reduces over all axes (no kept dimension to map over)";
  if (out.dims.size() != plan.kept) return name + ": the output subset does not have one dimension per kept dimension";
  for (size_t d = 0; d < rank; ++d)
    if (!unit_step(in.dims[d])) return name + ": the input subset has a step";
  for (size_t d = 0; d < plan.kept; ++d) {
    if (!unit_step(out.dims[d])) return name + ": the output subset has a step";
    if (!same_value(sym::sub(in.dims[d].end, in.dims[d].start), sym::sub(out.dims[d].end, out.dims[d].start)))
      return name + ": kept dimension " + std::to_string(d) + " has different extents in the input and the output";
  }
  return {};
}

// "__i0", "__i1", ...: names that are no symbol, container or free symbol of the memlets.
std::vector<std::string> fresh_params(const ir::SDFG& sdfg, const ir::Memlet& in, const ir::Memlet& out, size_t n) {
  std::set<std::string> taken;
  for (const ir::Memlet* m : {&in, &out})
    for (const sym::Range& r : m->subset.dims)
      for (sym::Expr e : {r.start, r.end})
        for (const std::string& s : sym::free_symbols(e)) taken.insert(s);
  std::vector<std::string> params;
  for (int k = 0; params.size() < n; ++k) {
    const std::string p = "__i" + std::to_string(k);
    if (!taken.count(p) && !sdfg.symbols.count(p) && !sdfg.arrays.count(p)) params.push_back(p);
  }
  return params;
}

}  // namespace

bool is_reduce_node(const ir::Node& n) {
  if (n.kind != ir::NodeKind::Library) return false;
  const std::string& cls = static_cast<const ir::LibraryNode&>(n).classpath;
  // The full class path: dace.libraries.mpi.nodes.reduce.Reduce has the same short name but
  // reduces across ranks, which no transformation here may treat as a local reduction.
  return cls == "dace.libraries.standard.nodes.reduce.Reduce";
}

bool reduce_has_identity(const ir::LibraryNode& n) {
  auto it = n.properties.find("identity");
  return it != n.properties.end() && !it->second.empty() && it->second != "null";
}

std::optional<std::vector<int64_t>> reduce_axes(const ir::LibraryNode& n) {
  auto it = n.properties.find("axes");
  if (it == n.properties.end()) return std::nullopt;
  const std::string& t = it->second;
  size_t i = 0;
  auto skip = [&] {
    while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
  };
  skip();
  if (i >= t.size() || t[i] != '[') return std::nullopt;
  ++i;
  std::vector<int64_t> axes;
  skip();
  if (i < t.size() && t[i] == ']') return axes;
  while (i < t.size()) {
    skip();
    if (i >= t.size() || !std::isdigit(static_cast<unsigned char>(t[i]))) return std::nullopt;
    int64_t v = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])) && v < (int64_t{1} << 40)) v = v * 10 + (t[i++] - '0');
    axes.push_back(v);
    skip();
    if (i < t.size() && t[i] == ',') {
      ++i;
      continue;
    }
    if (i < t.size() && t[i] == ']') {
      ++i;
      skip();
      return i == t.size() ? std::optional(axes) : std::nullopt;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

void ReduceToOuterMap::state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (is_reduce_node(*state.node(id)) && scopes.parent[static_cast<size_t>(id)] < 0) out.push_back({id});
}

bool ReduceToOuterMap::can_apply(const Site& site, const std::vector<int>& nodes) {
  Plan plan;
  std::string why = analyze(site.sdfg, site.state, site.scopes, nodes[0], plan);
  return why.empty() ? true : refuse(std::move(why));
}

Status ReduceToOuterMap::apply_at(const Site& site, const std::vector<int>& nodes) {
  Plan plan;
  ir::State& state = site.state;
  const int node = nodes[0];
  if (std::string why = analyze(site.sdfg, state, site.scopes, node, plan); !why.empty())
    return make_error(Code::InvalidArgument, "ReduceToOuterMap: " + why);
  const ir::DataflowEdge ie = *state.edge(plan.in_edge);
  const ir::DataflowEdge oe = *state.edge(plan.out_edge);
  const std::vector<std::string> params = fresh_params(site.sdfg, ie.memlet, oe.memlet, plan.kept);

  auto entry = std::make_unique<ir::MapEntry>();
  entry->label = state.node(node)->label + "_map";
  entry->debuginfo = state.node(node)->debuginfo;
  entry->map.params = params;
  sym::Subset inner_in = ie.memlet.subset, inner_out = oe.memlet.subset;
  for (size_t d = 0; d < plan.kept; ++d) {
    const sym::Range& r = ie.memlet.subset.dims[d];
    entry->map.range.dims.push_back(sym::Range{r.start, r.end, sym::integer(1), sym::integer(1)});
    const sym::Expr p = sym::symbol(params[d]);
    inner_in.dims[d] = sym::Range{p, p, sym::integer(1), sym::integer(1)};
    // The output element of this point: the output's start plus the offset into the input.
    const sym::Expr o = sym::simplify(sym::add(oe.memlet.subset.dims[d].start, sym::sub(p, r.start)));
    inner_out.dims[d] = sym::Range{o, o, sym::integer(1), sym::integer(1)};
  }
  const std::string x = ie.memlet.data, y = oe.memlet.data;
  entry->in_connectors.emplace("IN_" + x, ir::DType{});
  entry->out_connectors.emplace("OUT_" + x, ir::DType{});
  const std::string label = entry->label;
  const int entry_id = state.add_node(std::move(entry));
  auto exit = std::make_unique<ir::MapExit>();
  exit->label = label;
  exit->entry = entry_id;
  exit->in_connectors.emplace("IN_" + y, ir::DType{});
  exit->out_connectors.emplace("OUT_" + y, ir::DType{});
  const int exit_id = state.add_node(std::move(exit));

  // source -> entry (the whole input, as before) -> Reduce (one row of it)
  state.set_edge_ends(plan.in_edge, ie.src, entry_id);
  state.edge(plan.in_edge)->dst_conn = "IN_" + x;
  ir::Memlet in_row = ie.memlet;
  in_row.subset = inner_in;
  in_row.guid.clear();
  state.add_edge(ir::DataflowEdge{entry_id, node, "OUT_" + x, ie.dst_conn, in_row});
  // Reduce (one element) -> exit -> destination (the whole output, as before)
  state.set_edge_ends(plan.out_edge, exit_id, oe.dst);
  state.edge(plan.out_edge)->src_conn = "OUT_" + y;
  ir::Memlet out_elem = oe.memlet;
  out_elem.subset = inner_out;
  out_elem.guid.clear();
  state.add_edge(ir::DataflowEdge{node, exit_id, oe.src_conn, "IN_" + y, out_elem});
  return Status::success();
}

}  // namespace dace::transform
