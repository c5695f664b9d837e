#include "transform/expand_transposes_to_maps.h"

#include <nlohmann/json.hpp>

#include <optional>

#include "transform/element_map.h"
#include "ir/symbolic/expr.h"

namespace dace::transform {
namespace {

constexpr const char* kTranspose = "dace.libraries.standard.nodes.transpose.Transpose";
constexpr const char* kTensorTranspose = "dace.libraries.standard.nodes.ttranspose.TensorTranspose";

std::optional<std::string> property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  if (it == n.properties.end()) return std::nullopt;
  return it->second;
}

// A JSON number (a missing or null property: `fallback`); nothing when it is something else.
std::optional<double> number(const ir::LibraryNode& n, const std::string& key, double fallback) {
  std::optional<std::string> text = property(n, key);
  if (!text) return fallback;
  nlohmann::json v = nlohmann::json::parse(*text, nullptr, false);
  if (v.is_null()) return fallback;
  if (v.is_string()) v = nlohmann::json::parse(v.get<std::string>(), nullptr, false);
  if (!v.is_number()) return std::nullopt;
  return v.get<double>();
}

std::optional<std::vector<int64_t>> int_list(const ir::LibraryNode& n, const std::string& key) {
  std::optional<std::string> text = property(n, key);
  if (!text) return std::nullopt;
  nlohmann::json v = nlohmann::json::parse(*text, nullptr, false);
  if (!v.is_array()) return std::nullopt;
  std::vector<int64_t> out;
  for (const nlohmann::json& e : v) {
    if (!e.is_number_integer()) return std::nullopt;
    out.push_back(e.get<int64_t>());
  }
  return out;
}


// The single edge at connector `conn` of node `n` (in or out), or -1.
int only_edge(const ir::State& s, int n, const std::string& conn, bool in) {
  int found = -1;
  for (int e : in ? s.in_edges(n) : s.out_edges(n)) {
    const ir::DataflowEdge* edge = s.edge(e);
    if ((in ? edge->dst_conn : edge->src_conn) != conn) continue;
    if (found >= 0) return -1;
    found = e;
  }
  return found;
}

// Transpose's permutation over a subset of any rank: its two dimensions that are not of size
// one swap places (the lowering squeezes the others); nothing when there are not two.
std::optional<std::vector<int64_t>> transpose_axes(const std::vector<sym::Expr>& sizes) {
  std::vector<int64_t> axes, wide;
  for (size_t d = 0; d < sizes.size(); ++d) {
    axes.push_back(static_cast<int64_t>(d));
    if (!has_unit_extent(sizes[d])) wide.push_back(static_cast<int64_t>(d));
  }
  if (wide.size() != 2) return std::nullopt;
  std::swap(axes[static_cast<size_t>(wide[0])], axes[static_cast<size_t>(wide[1])]);
  return axes;
}

// Expands node `n` of `s` when it qualifies; whether it did.
bool expand(ir::State& s, int n) {
  const auto& node = static_cast<const ir::LibraryNode&>(*s.node(n));
  const bool tensor = node.classpath == kTensorTranspose;
  if (!tensor && node.classpath != kTranspose) return false;
  const std::string in_conn = tensor ? "_inp_tensor" : "_inp", out_conn = tensor ? "_out_tensor" : "_out";
  if (s.in_edges(n).size() != 1 || s.out_edges(n).size() != 1) return false;
  const int ein = only_edge(s, n, in_conn, true), eout = only_edge(s, n, out_conn, false);
  if (ein < 0 || eout < 0) return false;
  const ir::DataflowEdge in = *s.edge(ein), out = *s.edge(eout);
  if (s.node(in.src)->kind != ir::NodeKind::Access || s.node(out.dst)->kind != ir::NodeKind::Access) return false;
  if (in.memlet.is_empty() || out.memlet.is_empty() || !out.memlet.wcr.empty()) return false;
  const size_t rank = in.memlet.subset.rank();
  const std::vector<sym::Expr> in_sizes = sym::size(in.memlet.subset), out_sizes = sym::size(out.memlet.subset);
  std::optional<std::vector<int64_t>> axes = tensor ? int_list(node, "axes") : transpose_axes(in_sizes);
  std::optional<double> alpha = tensor ? number(node, "alpha", 1.0) : 1.0;
  std::optional<double> beta = tensor ? number(node, "beta", 0.0) : 0.0;
  if (!axes || !alpha || !beta || *beta != 0.0 || axes->size() != rank || rank == 0) return false;
  // The input's dimensions that are not of size one get map parameters; the output's, in
  // order, are the permuted input's (unit dimensions squeezed on both sides).
  std::vector<int> param_of(rank, -1);
  ir::MapScope map;
  for (size_t d = 0; d < rank; ++d) {
    if (has_unit_extent(in_sizes[d])) continue;
    param_of[d] = static_cast<int>(map.params.size());
    map.params.push_back("__tr" + std::to_string(n) + "_" + std::to_string(d));
    map.range.dims.push_back({sym::integer(0), sym::sub(in_sizes[d], sym::integer(1)), sym::integer(1), sym::integer(1)});
  }
  std::vector<bool> seen(rank, false);
  std::vector<size_t> source;  // the input dimension each non-unit output dimension takes
  for (int64_t a : *axes) {
    if (a < 0 || a >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(a)]) return false;
    seen[static_cast<size_t>(a)] = true;
    if (param_of[static_cast<size_t>(a)] >= 0) source.push_back(static_cast<size_t>(a));
  }
  std::vector<size_t> out_dims;  // the output's non-unit dimensions
  for (size_t d = 0; d < out_sizes.size(); ++d)
    if (!has_unit_extent(out_sizes[d])) out_dims.push_back(d);
  if (out_dims.size() != source.size() || map.params.empty()) return false;
  for (size_t k = 0; k < source.size(); ++k)
    if (sym::compare(sym::simplify(out_sizes[out_dims[k]]), sym::simplify(in_sizes[source[k]])) != 0) return false;

  std::vector<sym::Expr> in_index, out_index;
  for (size_t d = 0; d < rank; ++d) {
    const sym::Expr start = in.memlet.subset.dims[d].start;
    in_index.push_back(param_of[d] < 0 ? start : sym::add(start, sym::symbol(map.params[static_cast<size_t>(param_of[d])])));
  }
  for (size_t d = 0; d < out_sizes.size(); ++d) out_index.push_back(out.memlet.subset.dims[d].start);
  for (size_t k = 0; k < source.size(); ++k)
    out_index[out_dims[k]] = sym::add(out_index[out_dims[k]], sym::symbol(map.params[static_cast<size_t>(param_of[source[k]])]));

  const std::string label = node.label.empty() ? node.name : node.label;
  map.schedule = ir::ScheduleType::Default;
  nlohmann::json scale = *alpha;
  const std::string code = *alpha == 1.0 ? "__out = __inp" : "__out = " + scale.dump() + " * __inp";
  s.remove_node(n);  // and its two edges
  add_element_map(s, label, std::move(map), code,
                  ElementMapEnd{in.src, in.src_conn, in.memlet, element_memlet(in.memlet.data, in_index)},
                  ElementMapEnd{out.dst, out.dst_conn, out.memlet, element_memlet(out.memlet.data, out_index)});
  return true;
}

}  // namespace

Result<bool> ExpandTransposesToMaps::apply(ir::SDFG& sdfg, AnalysisManager&) {
  bool changed = false;
  for (ir::State* s : sdfg.all_states()) {
    const std::vector<int> parents = s->scope_parents();
    for (int n : s->node_ids())
      if (parents[n] < 0 && s->node(n)->kind == ir::NodeKind::Library && expand(*s, n)) changed = true;
  }
  return changed;
}

}  // namespace dace::transform
