#include "transform/mat_vec_pair_match.h"

#include <cstdlib>

#include "transform/blas_classes.h"
#include "transform/block_placement.h"

namespace dace::transform {
namespace {

bool in_cpu_memory(const ir::DataDescriptor& d) {
  switch (d.storage) {
    case ir::StorageType::Default:
    case ir::StorageType::CPU_Heap:
    case ir::StorageType::CPU_Pinned:
      return true;
    default:
      return false;
  }
}

const ir::DataflowEdge* in_edge(const ir::State& state, int node, const char* conn, int* id) {
  for (int e : state.in_edges(node))
    if (state.edge(e)->dst_conn == conn) {
      *id = e;
      return state.edge(e);
    }
  return nullptr;
}

const ir::AccessNode* access_at(const ir::State& state, int node) {
  const ir::Node* n = state.node(node);
  return n && n->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(n) : nullptr;
}

bool written_in(const ir::State& state, const std::string& data) {
  for (int id : state.node_ids()) {
    const ir::AccessNode* an = access_at(state, id);
    if (an && an->data == data && !state.in_edges(id).empty()) return true;
  }
  return false;
}

int access_nodes_of(const ir::State& state, const std::string& data) {
  int k = 0;
  for (int id : state.node_ids()) {
    const ir::AccessNode* an = access_at(state, id);
    if (an && an->data == data) ++k;
  }
  return k;
}

// A plain memlet (no WCR, no other subset) covering all of `data`.
bool reads_whole(const ir::SDFG& sdfg, const ir::Memlet& m, const std::string& data) {
  return m.data == data && m.wcr.empty() && !m.other_subset && is_whole(m.subset, sdfg.arrays.at(data).shape);
}

// The node's property `key` as a number, quotes stripped; nullopt when absent, null or no number.
std::optional<double> number_property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  if (it == n.properties.end()) return std::nullopt;
  std::string v = it->second;
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end == v.c_str() || *end != '\0') return std::nullopt;
  return d;
}

bool has_property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  return it != n.properties.end() && it->second != "null";
}

// The rewrite assumes plain products C = A @ B: codegen applies alpha, beta, transA and transB
// (library_matmul.cpp), and blocking rows changes what each of them means (beta would scale a
// partial sum never initialised, a transposed operand would be read out of its rows). alpha is
// refused too unless 1: it may name a container the rewrite writes, so it is not carried over.
std::string not_plain_product(const ir::LibraryNode& n, const std::string& name) {
  if (has_property(n, "beta")) {
    std::optional<double> beta = number_property(n, "beta");
    if (!beta || *beta != 0.0) return name + " has beta " + n.properties.at("beta") + " (only 0 or none is blocked)";
  }
  if (has_property(n, "alpha")) {
    std::optional<double> alpha = number_property(n, "alpha");
    if (!alpha || *alpha != 1.0) return name + " has alpha " + n.properties.at("alpha") + " (only 1 or none is blocked)";
  }
  for (const char* key : {"transA", "transB"}) {
    auto it = n.properties.find(key);
    if (it != n.properties.end() && it->second != "false")
      return name + " has " + key + " " + it->second + " (only false or none is blocked)";
  }
  return "";
}

}  // namespace

std::optional<MatVecPair> match_mat_vec_pair(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes,
                                             int first, std::string* why) {
  auto fail = [&](std::string w) -> std::optional<MatVecPair> {
    *why = std::move(w);
    return std::nullopt;
  };
  const auto matmul = [&](int id) { return as_class(state.node(id), kMatMulClass); };
  const std::string p_name = "MatMul " + std::to_string(first);
  if (!matmul(first)) return fail("node " + std::to_string(first) + " is not a MatMul");
  if (scopes.parent[static_cast<size_t>(first)] >= 0) return fail(p_name + " is inside a scope");
  if (std::string w = not_plain_product(*matmul(first), p_name); !w.empty()) return fail(w);
  MatVecPair p;
  p.first = first;
  if (state.in_edges(first).size() != 2 || state.out_edges(first).size() != 1)
    return fail(p_name + " does not have exactly the edges _a, _b and _c");

  const ir::DataflowEdge* ea = in_edge(state, first, "_a", &p.first_a);
  const ir::DataflowEdge* ex = in_edge(state, first, "_b", &p.first_x);
  if (!ea || !ex) return fail(p_name + " lacks an input _a or _b");
  const ir::AccessNode* an = access_at(state, ea->src);
  const ir::AccessNode* xn = access_at(state, ex->src);
  if (!an || !xn) return fail(p_name + " does not read its operands from access nodes");
  p.a = an->data;
  p.x = xn->data;
  const ir::DataDescriptor& ad = sdfg.arrays.at(p.a);
  const ir::DataDescriptor& xd = sdfg.arrays.at(p.x);
  if (ad.kind != ir::DataKind::Array || ad.shape.size() != 2) return fail("\"" + p.a + "\" is not a 2-D array");
  if (xd.kind != ir::DataKind::Array || xd.shape.size() != 1) return fail("\"" + p.x + "\" is not a vector");
  if (!reads_whole(sdfg, ea->memlet, p.a) || !reads_whole(sdfg, ex->memlet, p.x))
    return fail(p_name + " does not read all of \"" + p.a + "\" and \"" + p.x + "\"");

  p.first_out = state.out_edges(first)[0];
  const ir::DataflowEdge& eo = *state.edge(p.first_out);
  const ir::AccessNode* tn = access_at(state, eo.dst);
  if (eo.src_conn != "_c" || !tn) return fail(p_name + " does not write _c into an access node");
  p.temp = eo.dst;
  p.t = tn->data;
  const ir::DataDescriptor& td = sdfg.arrays.at(p.t);
  if (!td.transient || td.kind != ir::DataKind::Array || td.shape.size() != 1)
    return fail("\"" + p.t + "\" is not a transient vector");
  if (!reads_whole(sdfg, eo.memlet, p.t)) return fail(p_name + " does not write all of \"" + p.t + "\"");
  if (state.in_edges(p.temp).size() != 1 || state.out_edges(p.temp).size() != 1)
    return fail("\"" + p.t + "\" has other readers or writers in this state");

  p.second_t = state.out_edges(p.temp)[0];
  const ir::DataflowEdge& et = *state.edge(p.second_t);
  p.second = et.dst;
  const std::string q_name = "MatMul " + std::to_string(p.second);
  if (!matmul(p.second) || et.dst_conn != "_a")
    return fail("\"" + p.t + "\" is not the left operand of a MatMul");
  if (scopes.parent[static_cast<size_t>(p.second)] >= 0) return fail(q_name + " is inside a scope");
  if (std::string w = not_plain_product(*matmul(p.second), q_name); !w.empty()) return fail(w);
  if (!reads_whole(sdfg, et.memlet, p.t)) return fail(q_name + " does not read all of \"" + p.t + "\"");
  if (state.in_edges(p.second).size() != 2 || state.out_edges(p.second).size() != 1)
    return fail(q_name + " does not have exactly the edges _a, _b and _c");
  const ir::DataflowEdge* eb = in_edge(state, p.second, "_b", &p.second_a);
  const ir::AccessNode* bn = eb ? access_at(state, eb->src) : nullptr;
  if (!bn || bn->data != p.a)
    return fail(q_name + " does not read \"" + p.a + "\" from an access node as its right operand");
  if (!reads_whole(sdfg, eb->memlet, p.a)) return fail(q_name + " does not read all of \"" + p.a + "\"");

  p.second_out = state.out_edges(p.second)[0];
  const ir::DataflowEdge& ey = *state.edge(p.second_out);
  const ir::AccessNode* yn = access_at(state, ey.dst);
  if (ey.src_conn != "_c" || !yn) return fail(q_name + " does not write _c into an access node");
  p.result = ey.dst;
  p.y = yn->data;
  const ir::DataDescriptor& yd = sdfg.arrays.at(p.y);
  if (yd.kind != ir::DataKind::Array || yd.shape.size() != 1) return fail("\"" + p.y + "\" is not a vector");
  if (!reads_whole(sdfg, ey.memlet, p.y)) return fail(q_name + " does not write all of \"" + p.y + "\" (or has a WCR)");

  // Shapes: t has A's rows, x and y its columns.
  if (!same_value(td.shape[0], ad.shape[0]) || !same_value(xd.shape[0], ad.shape[1]) ||
      !same_value(yd.shape[0], ad.shape[1]))
    return fail("the shapes of \"" + p.a + "\", \"" + p.x + "\", \"" + p.t + "\" and \"" + p.y + "\" do not fit");
  const ir::DType dt = ad.dtype;
  if (dt.pointer_depth != 0 || (dt.scalar != ir::ScalarType::Float32 && dt.scalar != ir::ScalarType::Float64))
    return fail("\"" + p.a + "\" is not of float32 or float64");
  for (const std::string* d : {&p.x, &p.t, &p.y})
    if (!(sdfg.arrays.at(*d).dtype == dt)) return fail("\"" + *d + "\" differs from \"" + p.a + "\" in element type");
  for (const std::string* d : {&p.a, &p.x, &p.t, &p.y})
    if (!in_cpu_memory(sdfg.arrays.at(*d))) return fail("\"" + *d + "\" is not in CPU memory");
  if (p.y == p.a || p.y == p.x || p.y == p.t || p.x == p.a || p.t == p.a || p.t == p.x)
    return fail("the operands of " + p_name + " and " + q_name + " are not distinct containers");

  // The products now read A and x while y is being written, block after block.
  if (written_in(state, p.a)) return fail("\"" + p.a + "\" is written in this state");
  if (written_in(state, p.x)) return fail("\"" + p.x + "\" is written in this state");
  // y is set to zero first and accumulated: nothing else in the state may touch it before.
  if (access_nodes_of(state, p.y) != 1 || state.in_edges(p.result).size() != 1)
    return fail("\"" + p.y + "\" has another access node or writer in this state");
  return p;
}

std::string fresh_map_parameter(const ir::SDFG& sdfg, const ir::State& state, const std::string& base,
                                const std::set<std::string>& taken) {
  std::set<std::string> used = taken;
  for (const auto& [n, _] : sdfg.symbols) used.insert(n);
  for (const auto& [n, _] : sdfg.arrays) used.insert(n);
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (n->kind == ir::NodeKind::MapEntry)
      for (const std::string& q : static_cast<const ir::MapEntry*>(n)->map.params) used.insert(q);
  }
  std::string name = base;
  for (int k = 1; used.count(name); ++k) name = base + std::to_string(k);
  return name;
}

ir::Memlet subset_memlet(const std::string& data, sym::Subset subset, const std::string& wcr) {
  ir::Memlet m;
  m.data = data;
  m.subset = std::move(subset);
  m.wcr = wcr;
  return m;
}

sym::Range closed_range(sym::Expr start, sym::Expr end, sym::Expr step) {
  return sym::Range{sym::simplify(std::move(start)), sym::simplify(std::move(end)), std::move(step), sym::integer(1)};
}

}  // namespace dace::transform
