#include "transform/expand_gemm_pblas.h"

#include <cstdlib>

#include "transform/blas_classes.h"
#include "transform/map_fusion_util.h"

namespace dace::transform {
namespace {

const ir::LibraryNode* as_product(const ir::Node* n) {
  if (const ir::LibraryNode* l = as_class(n, kGemmClass)) return l;
  return as_class(n, kMatMulClass);
}

std::string node_name(const ir::State& s, int id) {
  return "node " + std::to_string(id) + " (\"" + s.node(id)->label + "\")";
}

// A property's JSON text without the quotes of a string ("" when absent or null).
std::string property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  if (it == n.properties.end() || it->second == "null") return {};
  std::string v = it->second;
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
  return v;
}

// Whether a numeric property (alpha, beta) is provably `want` (absent: `fallback`).
bool number_is(const ir::LibraryNode& n, const std::string& key, double fallback, double want) {
  const std::string v = property(n, key);
  if (v.empty()) return fallback == want;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  return end && end != v.c_str() && *end == '\0' && d == want;
}

bool scalapack_type(ir::ScalarType t) {
  return t == ir::ScalarType::Float32 || t == ir::ScalarType::Float64 || t == ir::ScalarType::Complex64 ||
         t == ir::ScalarType::Complex128;
}

bool provably_zero(const sym::Expr& e) { return !e || sym::prove(sym::eq(e, sym::integer(0))) == std::optional<bool>(true); }

// Default (C-order) strides, no offset (unset fields are DaCe's defaults).
bool c_contiguous(const ir::DataDescriptor& d) {
  if (!d.strides.empty()) {
    const std::vector<sym::Expr> want = ir::default_strides(d.shape);
    if (d.strides.size() != want.size()) return false;
    for (size_t k = 0; k < want.size(); ++k)
      if (sym::prove(sym::eq(d.strides[k], want[k])) != std::optional<bool>(true)) return false;
  }
  for (const sym::Expr& o : d.offset)
    if (!provably_zero(o)) return false;
  return provably_zero(d.start_offset);
}

std::string exprs_text(const std::vector<sym::Expr>& v) {
  std::string out = "[";
  for (size_t k = 0; k < v.size(); ++k) out += (k ? ", " : "") + sym::to_string(v[k]);
  return out + "]";
}

// One operand: the edge at the connector, and the sizes (rows, cols) of the matrix it names.
struct Operand {
  int edge = -1;
  std::string data;
  sym::Expr rows, cols;
};

// The operand at `conn`, or an empty optional with `why`. The edge's other end is an access
// node or, for a node inside a map, that map's entry (inputs) or exit (outputs).
std::optional<Operand> operand(const ir::SDFG& sdfg, const ir::State& s, const ScopeTree& scopes, int node,
                               const std::string& conn, bool input, std::string& why) {
  const std::string where = node_name(s, node) + " connector " + conn;
  Operand op;
  int count = 0;
  for (int e : input ? s.in_edges(node) : s.out_edges(node))
    if ((input ? s.edge(e)->dst_conn : s.edge(e)->src_conn) == conn) op.edge = e, ++count;
  if (count != 1) {
    why = where + " has " + std::to_string(count) + " edges, not one";
    return std::nullopt;
  }
  const ir::DataflowEdge& edge = *s.edge(op.edge);
  const int other = input ? edge.src : edge.dst;
  const ir::Node* end = s.node(other);
  const int scope = scopes.parent[static_cast<size_t>(node)];
  const bool through_scope = scope >= 0 && other == (input ? scope : scopes.exit_of(scope));
  if (end->kind != ir::NodeKind::Access && !through_scope) {
    why = where + " is not connected to an access node" +
          (scope >= 0 ? std::string(" or to its map's ") + (input ? "entry" : "exit") : "");
    return std::nullopt;
  }
  op.data = end->kind == ir::NodeKind::Access ? static_cast<const ir::AccessNode*>(end)->data : edge.memlet.data;
  if (op.data.empty() || edge.memlet.data != op.data || !edge.memlet.wcr.empty() || edge.memlet.other_subset) {
    why = where + ": the memlet must name \"" + (op.data.empty() ? edge.memlet.data : op.data) +
          "\" without WCR or other subset";
    return std::nullopt;
  }
  auto it = sdfg.arrays.find(op.data);
  if (it == sdfg.arrays.end() || it->second.kind != ir::DataKind::Array) {
    why = where + ": \"" + op.data + "\" is not an Array";
    return std::nullopt;
  }
  const ir::DataDescriptor& d = it->second;
  if (!scalapack_type(d.dtype.scalar) || d.dtype.pointer_depth != 0) {
    why = where + ": \"" + op.data + "\" has element type " + ir::to_string(d.dtype) +
          " (ScaLAPACK: float32, float64, complex64, complex128)";
    return std::nullopt;
  }
  // One whole matrix: the scatter and gather read and write it as one contiguous row-major
  // matrix. That is the whole container, or (a product in a map: `A[i] @ B[i]`) one index in
  // each dimension before the last two, which the subset covers whole.
  const sym::Subset& sub = edge.memlet.subset;
  const size_t rank = d.shape.size();
  bool whole = sub.dims.size() == rank;
  for (size_t k = 0; whole && k < rank; ++k) {
    const sym::Range& r = sub.dims[k];
    if (rank > 2 && k + 2 < rank) {
      whole = provably_zero(sym::simplify(sym::sub(r.end, r.start)));
      continue;
    }
    whole = sym::as_integer(r.step) == 1 && provably_zero(r.start) &&
            sym::prove(sym::eq(r.end, sym::sub(d.shape[k], sym::integer(1)))) == std::optional<bool>(true);
  }
  if (!whole) {
    why = where + ": the memlet " + op.data + "[" + sym::to_string(sub) + "]" +
          (rank > 2 ? " is not one whole matrix of \"" + op.data +
                          "\" (one index in each dimension before the last two, the last two whole)"
                    : " is not the whole of \"" + op.data + "\"");
    return std::nullopt;
  }
  // ... laid out row-major without padding or offset: the scatter and gather walk it as such,
  // so a Fortran-order or padded array would be read and written in the wrong places.
  if (!c_contiguous(d)) {
    why = where + ": \"" + op.data + "\" is not C-contiguous (strides " + exprs_text(d.strides) +
          ", offset " + exprs_text(d.offset) + ")";
    return std::nullopt;
  }
  // The matrix: the last two dimensions, both wider than one (the scatter and the gather cut
  // a container's last two dimensions into blocks).
  std::vector<sym::Expr> sizes;
  for (size_t k = rank >= 2 ? rank - 2 : 0; k < rank; ++k)
    if (sym::as_integer(sym::simplify(d.shape[k])) != 1) sizes.push_back(sym::simplify(d.shape[k]));
  if (sizes.size() != 2) {
    why = where + ": \"" + op.data + "\" is not a matrix (" + std::to_string(sizes.size()) +
          " of its last two dimensions wider than one)";
    return std::nullopt;
  }
  op.rows = sizes[0];
  op.cols = sizes[1];
  return op;
}

bool provably_equal(sym::Expr a, sym::Expr b) { return sym::prove(sym::eq(a, b)) == std::optional<bool>(true); }

// Schedules of maps that run every iteration on every rank's host in some order: the
// expansion makes them Sequential, so that every rank calls the collective product once per
// iteration, in the same order, from one thread.
bool runs_on_the_host(ir::ScheduleType t) {
  return t == ir::ScheduleType::Default || t == ir::ScheduleType::Sequential || t == ir::ScheduleType::Unrolled ||
         t == ir::ScheduleType::CPU_Multicore || t == ir::ScheduleType::CPU_Persistent;
}

// The map entries around `node`, innermost first, or an empty optional with `why` when the
// product cannot run once per iteration in them.
std::optional<std::vector<int>> enclosing_maps(const ir::State& s, const ScopeTree& scopes, int node,
                                               std::string& why) {
  std::vector<int> maps;
  const auto parent = [&](int id) { return scopes.parent[static_cast<size_t>(id)]; };
  for (int scope = parent(node); scope >= 0; scope = parent(scope)) {
    const ir::Node* entry = s.node(scope);
    const std::string inside = node_name(s, node) + " is inside " + node_name(s, scope);
    if (entry->kind != ir::NodeKind::MapEntry) {
      why = inside + ", a consume scope (the distributed product is a collective that every rank calls in the same "
                     "order; the order of a consume scope's elements is not defined)";
      return std::nullopt;
    }
    const ir::ScheduleType t = static_cast<const ir::MapEntry*>(entry)->map.schedule;
    if (t == ir::ScheduleType::MPI) {
      why = inside + ", a map scheduled MPI (its iterations are split over the ranks, which would then call the "
                     "distributed product, a collective, different numbers of times)";
      return std::nullopt;
    }
    if (!runs_on_the_host(t)) {
      why = inside + ", a map scheduled " + ir::to_string(t) +
            " (the distributed product is a collective that runs on each rank's host, once per iteration)";
      return std::nullopt;
    }
    maps.push_back(scope);
  }
  return maps;
}

struct Plan {
  Operand a, b, c;
  std::vector<int> maps;  // around the node, innermost first
};

// Whether the node can be expanded (`why` says why not). `nested_ok`: the SDFG is nested and
// its Px and Py reach the root (ExpandGemmPBLAS::grid_symbols_reach_root).
std::optional<Plan> plan(const ir::SDFG& sdfg, const ir::State& s, const ScopeTree& scopes, int node, bool nested_ok,
                         std::string& why) {
  const ir::LibraryNode* n = as_product(s.node(node));
  const std::string name = node_name(s, node);
  if (!n) {
    why = "node " + std::to_string(node) + " is not a Gemm or MatMul library node";
    return std::nullopt;
  }
  if (n->implementation != "PBLAS") {
    why = name + " has implementation \"" + n->implementation + "\", not \"PBLAS\"";
    return std::nullopt;
  }
  if (sdfg.parent_node && !nested_ok) {
    why = name + " is in a nested SDFG whose Px and Py (the BLACS grid's symbols) cannot be declared up to the root: "
                 "a nested SDFG node on the way lies in a scope (the product would run once per iteration) or "
                 "maps Px or Py to something else, or an SDFG on the way has a container of that name (applied "
                 "by hand, the transformation does not see the enclosing SDFGs)";
    return std::nullopt;
  }
  std::optional<std::vector<int>> maps = enclosing_maps(s, scopes, node, why);
  if (!maps) return std::nullopt;
  if (!number_is(*n, "beta", 0.0, 0.0)) {
    why = name + " has beta " + property(*n, "beta") + " (DaCe's PBLAS expansion: beta 0 only)";
    return std::nullopt;
  }
  if (!number_is(*n, "alpha", 1.0, 1.0)) {
    why = name + " has alpha " + property(*n, "alpha") + " (DaCe's PBLAS expansion computes A @ B)";
    return std::nullopt;
  }
  for (const char* flag : {"transA", "transB"}) {
    const std::string v = property(*n, flag);
    if (!v.empty() && v != "false") {
      why = name + " has " + flag + " " + v + " (DaCe's PBLAS expansion computes A @ B)";
      return std::nullopt;
    }
  }
  for (int e : s.in_edges(node)) {
    const std::string& conn = s.edge(e)->dst_conn;
    if (conn != "_a" && conn != "_b") {
      why = name + " has an input at connector " + (conn.empty() ? std::string("(none)") : conn) +
            " (only _a and _b are expanded)";
      return std::nullopt;
    }
  }
  if (s.out_edges(node).size() != 1) {
    why = name + " has " + std::to_string(s.out_edges(node).size()) + " output edges, not one";
    return std::nullopt;
  }
  Plan p;
  auto a = operand(sdfg, s, scopes, node, "_a", true, why);
  if (!a) return std::nullopt;
  auto b = operand(sdfg, s, scopes, node, "_b", true, why);
  if (!b) return std::nullopt;
  auto c = operand(sdfg, s, scopes, node, "_c", false, why);
  if (!c) return std::nullopt;
  const ir::ScalarType t = sdfg.arrays.at(a->data).dtype.scalar;
  if (sdfg.arrays.at(b->data).dtype.scalar != t || sdfg.arrays.at(c->data).dtype.scalar != t) {
    why = name + ": the element types of \"" + a->data + "\", \"" + b->data + "\" and \"" + c->data + "\" differ";
    return std::nullopt;
  }
  if (!provably_equal(a->cols, b->rows) || !provably_equal(a->rows, c->rows) || !provably_equal(b->cols, c->cols)) {
    why = name + ": the shapes " + sym::to_string(a->rows) + " x " + sym::to_string(a->cols) + ", " +
          sym::to_string(b->rows) + " x " + sym::to_string(b->cols) + " -> " + sym::to_string(c->rows) + " x " +
          sym::to_string(c->cols) + " are not provably M x K, K x N -> M x N";
    return std::nullopt;
  }
  for (const char* grid : {"Px", "Py"}) {
    if (sdfg.arrays.count(grid)) {
      why = name + ": the SDFG has a container named " + grid + " (the BLACS grid's symbol)";
      return std::nullopt;
    }
  }
  p.a = *a;
  p.b = *b;
  p.c = *c;
  p.maps = std::move(*maps);
  return p;
}

// The whole of a container as a memlet subset.
sym::Subset whole(const std::vector<sym::Expr>& shape) {
  sym::Subset s;
  for (const sym::Expr& extent : shape)
    s.dims.push_back({sym::integer(0), sym::simplify(sym::sub(extent, sym::integer(1))), sym::integer(1), sym::integer(1)});
  return s;
}

ir::Memlet memlet_of(const std::string& data, const std::vector<sym::Expr>& shape) {
  ir::Memlet m;
  m.data = data;
  m.subset = whole(shape);
  return m;
}

// A fresh transient array of `shape` (C order, DaCe's defaults).
std::string add_transient(ir::SDFG& sdfg, const std::string& base, ir::ScalarType t, std::vector<sym::Expr> shape) {
  const std::string name = map_fusion::fresh_data_name(sdfg, base);
  ir::DataDescriptor d;
  d.kind = ir::DataKind::Array;
  d.dtype = ir::DType::of(t);
  d.transient = true;
  d.shape = std::move(shape);
  ir::complete_defaults(d);
  sdfg.arrays[name] = d;
  return name;
}

int add_access(ir::State& s, const std::string& data) {
  auto n = std::make_unique<ir::AccessNode>();
  n->label = data;
  n->data = data;
  return s.add_node(std::move(n));
}

int add_library(ir::State& s, const std::string& name, std::string_view classpath, const std::vector<std::string>& ins,
                const std::string& out, std::string_view implementation = {}) {
  auto n = std::make_unique<ir::LibraryNode>();
  n->name = n->label = name;
  n->classpath = std::string(classpath);
  n->implementation = std::string(implementation);
  for (const std::string& c : ins) n->in_connectors[c] = ir::DType{};
  n->out_connectors[out] = ir::DType{};
  return s.add_node(std::move(n));
}

// An int32[2] transient holding (rows, cols) of a block, written by a tasklet as DaCe's
// frontend writes block sizes (`_set_bsizes_`); returns its access node. Inside a map
// (`scope` >= 0) the tasklet hangs off the map's entry by an empty memlet, so it is in the map.
int block_sizes(ir::SDFG& sdfg, ir::State& s, int scope, const std::string& base, sym::Expr rows, sym::Expr cols) {
  const std::string data = add_transient(sdfg, base, ir::ScalarType::Int32, {sym::integer(2)});
  auto t = std::make_unique<ir::Tasklet>();
  t->label = "_set_bsizes_";
  t->code = {"__out[0] = " + sym::to_string(rows) + "\n__out[1] = " + sym::to_string(cols), ir::Language::Python};
  t->out_connectors["__out"] = ir::DType{};
  const int tasklet = s.add_node(std::move(t));
  if (scope >= 0) s.add_edge(ir::DataflowEdge{scope, tasklet, "", "", ir::Memlet{}});
  const int access = add_access(s, data);
  s.add_edge(ir::DataflowEdge{tasklet, access, "__out", "", memlet_of(data, {sym::integer(2)})});
  return access;
}

}  // namespace

void ExpandGemmPBLAS::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int n : state.node_ids())
    if (const ir::LibraryNode* l = as_product(state.node(n)); l && l->implementation == "PBLAS") out.push_back({n});
}

bool ExpandGemmPBLAS::can_apply(const Site& site, const std::vector<int>& nodes) {
  std::string why;
  if (!plan(site.sdfg, site.state, site.scopes, nodes[0], grid_symbols_reach_root(site.sdfg), why)) return refuse(why);
  return true;
}

Status ExpandGemmPBLAS::apply_at(const Site& site, const std::vector<int>& nodes) {
  ir::SDFG& sdfg = site.sdfg;
  ir::State& s = site.state;
  const int node = nodes[0];
  std::string why;
  const std::optional<Plan> p = plan(sdfg, s, site.scopes, node, grid_symbols_reach_root(sdfg), why);
  if (!p) return make_error(Code::Internal, "ExpandGemmPBLAS: " + why);
  const ir::ScalarType t = sdfg.arrays.at(p->a.data).dtype.scalar;
  for (const char* grid : {"Px", "Py"})
    if (!sdfg.symbols.count(grid)) sdfg.symbols[grid] = ir::DType::of(ir::ScalarType::Int32);
  const sym::Expr px = sym::symbol("Px"), py = sym::symbol("Py");
  const sym::Expr m = p->a.rows, k = p->a.cols, n = p->b.cols;
  // DaCe's blocks: one per process, M/Px x K/Py of A, K/Px x N/Py of B, M/Px x N/Py of C.
  const std::vector<sym::Expr> a_block{sym::floordiv(m, px), sym::floordiv(k, py)};
  const std::vector<sym::Expr> b_block{sym::floordiv(k, px), sym::floordiv(n, py)};
  const std::vector<sym::Expr> c_block{sym::floordiv(m, px), sym::floordiv(n, py)};
  const std::string la = add_transient(sdfg, "lA", t, a_block);
  const std::string lb = add_transient(sdfg, "lB", t, b_block);
  const std::string lc = add_transient(sdfg, "lC", t, c_block);
  // In a map: one product per iteration, every rank calling them in the same order from one
  // thread (the BLACS grid is the program state's, created once by __dace_init).
  for (int entry : p->maps) {
    ir::MapScope& map = static_cast<ir::MapEntry*>(s.node(entry))->map;
    map.schedule = ir::ScheduleType::Sequential;
  }
  const int scope = p->maps.empty() ? -1 : p->maps.front();
  const int a_sizes = block_sizes(sdfg, s, scope, "__pblas_a_block", a_block[0], a_block[1]);
  const int b_sizes = block_sizes(sdfg, s, scope, "__pblas_b_block", b_block[0], b_block[1]);
  const int c_sizes = block_sizes(sdfg, s, scope, "__pblas_c_block", c_block[0], c_block[1]);
  const std::string a_sizes_data = static_cast<const ir::AccessNode*>(s.node(a_sizes))->data;
  const std::string b_sizes_data = static_cast<const ir::AccessNode*>(s.node(b_sizes))->data;
  const std::string c_sizes_data = static_cast<const ir::AccessNode*>(s.node(c_sizes))->data;
  const std::vector<sym::Expr> two{sym::integer(2)};

  // Scatter A and B: the Gemm's input edges now end at the scatters' _inbuffer.
  auto scatter = [&](const Operand& op, int sizes, const std::string& sizes_data, const std::string& local,
                     const std::vector<sym::Expr>& block) {
    const int sc = add_library(s, "_BCScatter_", kBlockCyclicScatterClass, {"_block_sizes", "_inbuffer"}, "_outbuffer");
    ir::DataflowEdge* in = s.edge(op.edge);
    in->dst_conn = "_inbuffer";
    s.set_edge_ends(op.edge, in->src, sc);
    s.add_edge(ir::DataflowEdge{sizes, sc, "", "_block_sizes", memlet_of(sizes_data, two)});
    const int access = add_access(s, local);
    s.add_edge(ir::DataflowEdge{sc, access, "_outbuffer", "", memlet_of(local, block)});
    return access;
  };
  const int la_access = scatter(p->a, a_sizes, a_sizes_data, la, a_block);
  const int lb_access = scatter(p->b, b_sizes, b_sizes_data, lb, b_block);

  // Pgemm (DaCe's distr.MatMult) on the local blocks.
  const int mm = add_library(s, "__DistrMatMult__", kPgemmClass, {"_a", "_a_block_sizes", "_b", "_b_block_sizes"},
                             "_c", kPgemmImplementation);
  auto* pgemm = static_cast<ir::LibraryNode*>(s.node(mm));
  pgemm->properties["m"] = "\"" + sym::to_string(m) + "\"";
  pgemm->properties["n"] = "\"" + sym::to_string(n) + "\"";
  pgemm->properties["k"] = "\"" + sym::to_string(k) + "\"";
  s.add_edge(ir::DataflowEdge{la_access, mm, "", "_a", memlet_of(la, a_block)});
  s.add_edge(ir::DataflowEdge{a_sizes, mm, "", "_a_block_sizes", memlet_of(a_sizes_data, two)});
  s.add_edge(ir::DataflowEdge{lb_access, mm, "", "_b", memlet_of(lb, b_block)});
  s.add_edge(ir::DataflowEdge{b_sizes, mm, "", "_b_block_sizes", memlet_of(b_sizes_data, two)});
  const int lc_access = add_access(s, lc);
  s.add_edge(ir::DataflowEdge{mm, lc_access, "_c", "", memlet_of(lc, c_block)});

  // Gather C: the Gemm's output edge now starts at the gather's _outbuffer.
  const int ga = add_library(s, "_BCGather_", kBlockCyclicGatherClass, {"_block_sizes", "_inbuffer"}, "_outbuffer");
  s.add_edge(ir::DataflowEdge{lc_access, ga, "", "_inbuffer", memlet_of(lc, c_block)});
  s.add_edge(ir::DataflowEdge{c_sizes, ga, "", "_block_sizes", memlet_of(c_sizes_data, two)});
  ir::DataflowEdge* out = s.edge(p->c.edge);
  out->src_conn = "_outbuffer";
  s.set_edge_ends(p->c.edge, ga, out->dst);
  s.remove_node(node);
  return Status::success();
}

}  // namespace dace::transform
