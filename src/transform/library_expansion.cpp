#include "transform/library_expansion.h"

#include <map>

#include "transform/apply.h"
#include "transform/blas_classes.h"
#include "transform/expand_gemm_pblas.h"

namespace dace::transform {
namespace {


// The edge at an input (output) connector, or -1.
int edge_at(const ir::State& s, int node, const std::string& conn, bool input) {
  for (int e : input ? s.in_edges(node) : s.out_edges(node))
    if ((input ? s.edge(e)->dst_conn : s.edge(e)->src_conn) == conn) return e;
  return -1;
}

// Dimensions of a memlet's subset that are not provably of size one (DaCe's squeeze).
int squeezed_rank(const ir::Memlet& m) {
  int rank = 0;
  for (sym::Expr size : sym::size(m.subset)) rank += sym::as_integer(sym::simplify(size)) != 1;
  return rank;
}

struct Specialization {
  std::string short_class;  // Gemm, BatchedMatMul, Gemv, Dot
  std::string suffix;       // of the new node's name
  std::map<std::string, std::string> rename;  // connector renames
  bool trans_a = false;
};

// What the node specializes to, or nullopt with `why`.
std::optional<Specialization> specialization(const ir::State& s, int node, std::string& why) {
  const int a = edge_at(s, node, "_a", true), b = edge_at(s, node, "_b", true), c = edge_at(s, node, "_c", false);
  if (a < 0 || b < 0 || c < 0) {
    why = "MatMul node " + std::to_string(node) + " lacks an edge at _a, _b or _c";
    return std::nullopt;
  }
  const int ra = squeezed_rank(s.edge(a)->memlet), rb = squeezed_rank(s.edge(b)->memlet);
  if (ra == 2 && rb == 2) return Specialization{"Gemm", "gemm", {}, false};
  if (rb == 3 && (ra == 2 || ra == 3)) return Specialization{"BatchedMatMul", "bmm", {}, false};
  if (ra == 2 && rb == 1) return Specialization{"Gemv", "gemv", {{"_a", "_A"}, {"_b", "_x"}, {"_c", "_y"}}, false};
  if (ra == 1 && rb == 2) return Specialization{"Gemv", "gemvt", {{"_a", "_x"}, {"_b", "_A"}, {"_c", "_y"}}, true};
  if (ra == 1 && rb == 1) return Specialization{"Dot", "dot", {{"_a", "_x"}, {"_b", "_y"}, {"_c", "_result"}}, false};
  why = "MatMul node " + std::to_string(node) + " multiplies operands of ranks " + std::to_string(ra) + " and " +
        std::to_string(rb) + ", which DaCe does not specialize";
  return std::nullopt;
}

std::string classpath_of(const std::string& short_class) {
  if (short_class == "Gemm") return std::string(kGemmClass);
  if (short_class == "Gemv") return "dace.libraries.blas.nodes.gemv.Gemv";
  if (short_class == "Dot") return "dace.libraries.blas.nodes.dot.Dot";
  return "dace.libraries.blas.nodes.batched_matmul.BatchedMatMul";
}

bool is_sum_wcr(const std::string& wcr) {
  auto squeeze = [](const std::string& t) {
    std::string out;
    for (char ch : t)
      if (ch != ' ' && ch != '(' && ch != ')') out += ch;
    return out;
  };
  // "lambda a, b: a + b" in any spelling of the two names.
  const std::string w = squeeze(wcr);
  const size_t colon = w.find(':');
  if (w.rfind("lambda", 0) != 0 || colon == std::string::npos) return false;
  const std::string params = w.substr(6, colon - 6);
  const size_t comma = params.find(',');
  if (comma == std::string::npos) return false;
  const std::string x = params.substr(0, comma), y = params.substr(comma + 1);
  const std::string body = w.substr(colon + 1);
  return body == x + "+" + y || body == y + "+" + x;
}

}  // namespace

void SpecializeMatMul::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int n : state.node_ids())
    if (as_class(state.node(n), kMatMulClass)) out.push_back({n});
}

bool SpecializeMatMul::can_apply(const Site& site, const std::vector<int>& nodes) {
  const ir::LibraryNode* n = as_class(site.state.node(nodes[0]), kMatMulClass);
  if (!n) return refuse("node " + std::to_string(nodes[0]) + " is not a MatMul library node");
  if (!n->implementation.empty() && n->implementation != "specialize")
    return refuse("MatMul node " + std::to_string(nodes[0]) + " has implementation '" + n->implementation +
                  "', not 'specialize'");
  std::string why;
  if (!specialization(site.state, nodes[0], why)) return refuse(why);
  return true;
}

Status SpecializeMatMul::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::State& s = site.state;
  const int old_id = nodes[0];
  std::string why;
  const std::optional<Specialization> spec = specialization(s, old_id, why);
  if (!spec) return make_error(Code::Internal, "SpecializeMatMul: " + why);
  const auto& old = static_cast<const ir::LibraryNode&>(*s.node(old_id));
  auto node = std::make_unique<ir::LibraryNode>();
  node->name = old.name + spec->suffix;
  node->label = node->name;
  node->classpath = classpath_of(spec->short_class);
  node->schedule = old.schedule;
  auto renamed = [&](const std::string& conn) {
    auto it = spec->rename.find(conn);
    return it == spec->rename.end() ? conn : it->second;
  };
  for (const auto& [conn, type] : old.in_connectors) node->in_connectors[renamed(conn)] = type;
  for (const auto& [conn, type] : old.out_connectors) node->out_connectors[renamed(conn)] = type;
  auto prop = [&](const char* key, const char* fallback) {
    auto it = old.properties.find(key);
    return it == old.properties.end() ? std::string(fallback) : it->second;
  };
  node->properties["alpha"] = prop("alpha", "1");
  node->properties["beta"] = prop("beta", "0");
  if (spec->short_class == "Gemm") {
    bool cin = old.in_connectors.count("_cin") > 0;
    const int c = edge_at(s, old_id, "_c", false);
    if (!s.edge(c)->memlet.wcr.empty() && is_sum_wcr(s.edge(c)->memlet.wcr)) {
      node->properties["beta"] = "1.0";
      cin = false;
    }
    node->properties["cin"] = cin ? "true" : "false";
  }
  if (spec->trans_a) node->properties["transA"] = "true";

  const std::vector<int> ins = s.in_edges(old_id), outs = s.out_edges(old_id);
  const int id = s.add_node(std::move(node));
  for (int e : ins) {
    ir::DataflowEdge* edge = s.edge(e);
    edge->dst_conn = renamed(edge->dst_conn);
    s.set_edge_ends(e, edge->src, id);
  }
  for (int e : outs) {
    ir::DataflowEdge* edge = s.edge(e);
    edge->src_conn = renamed(edge->src_conn);
    s.set_edge_ends(e, id, edge->dst);
  }
  s.remove_node(old_id);
  return Status::success();
}

Modifies ExpandLibraryNodes::modifies() const {
  return SpecializeMatMul().modifies() | ExpandGemmPBLAS().modifies();
}

Result<bool> ExpandLibraryNodes::apply(ir::SDFG& sdfg, AnalysisManager& am) {
  SpecializeMatMul specialize;
  Result<int> n = apply_repeated(sdfg, specialize, am);
  if (!n.ok()) return n.take_error();
  // Gemm's PBLAS implementation (a specialized MatMul keeps no implementation, as in DaCe).
  ExpandGemmPBLAS pblas;
  Result<int> distributed = apply_repeated(sdfg, pblas, am);
  if (!distributed.ok()) return distributed.take_error();
  return *n + *distributed > 0;
}

}  // namespace dace::transform
