#include "transform/fold_scaling_into_gemm.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/types.h"
#include "transform/blas_classes.h"
#include "transform/block_placement.h"
#include "transform/map_fusion_util.h"
#include "transform/map_utils.h"

namespace dace::transform {
namespace {

using map_fusion::used_elsewhere;

bool is_matmul(const ir::Node* n) { return as_class(n, kMatMulClass) != nullptr; }

// [p0, p1, ...]: element k at parameter k.
bool is_point(const sym::Subset& s, const std::vector<std::string>& params) {
  if (s.dims.size() != params.size()) return false;
  for (size_t k = 0; k < params.size(); ++k) {
    const sym::Range& r = s.dims[k];
    if (!same_value(r.start, sym::symbol(params[k])) || !same_value(r.end, sym::symbol(params[k]))) return false;
  }
  return true;
}

bool same_shape(const std::vector<sym::Expr>& a, const std::vector<sym::Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (!same_value(a[k], b[k])) return false;
  return true;
}

bool host_schedule(ir::ScheduleType s) {
  return s == ir::ScheduleType::Default || s == ir::ScheduleType::Sequential || s == ir::ScheduleType::CPU_Multicore;
}

bool gpu_storage(const ir::DataDescriptor& d) {
  return d.storage == ir::StorageType::GPU_Global || d.storage == ir::StorageType::GPU_Shared;
}

// Whether some access node of `data` in `state` other than `except` is written.
bool written_in(const ir::State& state, const std::string& data, int except = -1) {
  for (int id : state.node_ids()) {
    const ir::Node* n = state.node(id);
    if (id != except && n->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode*>(n)->data == data &&
        !state.in_edges(id).empty())
      return true;
  }
  return false;
}

// A factor of a coefficient: a number, or the name of a Scalar container or a symbol.
struct Factor {
  bool is_name = false;
  double number = 1.0;
  std::string name;
};

// One term of the map's result: the product element (P), C's element, or neither, times
// factors. The result is a sum of such terms.
enum class Term { None, Product, C };
struct Monomial {
  Term term = Term::None;
  std::vector<Factor> factors;
};
using Poly = std::vector<Monomial>;

// The pieces of one match, found by `analyze` for can_apply and apply alike.
struct Plan {
  int lib = -1, product_edge = -1, temp = -1, entry = -1, exit = -1;
  int c_in_outer = -1;  // C's access node -> entry (absent when beta is 0)
  int c_out_outer = -1; // exit -> C's access node, or the copy temporary -> C's access node
  int c_write = -1;      // C's access node the result lands in
  // The map writes a transient copied whole into C right after (DaCe's frontend writes
  // `v[:] = v + alpha * (y @ A)` so: the map reads v, so simplify keeps the temporary).
  int copy_temp = -1;
  std::string c_data;
  std::string alpha = "1", beta = "0";
  bool named = false;   // alpha or beta is a name
  bool gpu = false;     // a GPU_Device map over GPU_Global data: the Gemm becomes a cuBLAS call
  // Matrix times vector (either order) becomes a Gemv: `_A` the matrix, `_x` the vector, C the
  // vector `_y`; vector times matrix is A^T x (transA).
  bool gemv = false;
  bool trans_a = false;
  std::set<int> body;   // nodes inside the map
};

class Analyzer {
 public:
  Analyzer(const ir::SDFG& sdfg, const ir::State& state, const ScopeTree& scopes, std::string* why)
      : sdfg_(sdfg), state_(state), scopes_(scopes), why_(why) {}

  std::optional<Plan> run(int lib);

 private:
  std::nullopt_t fail(std::string w) {
    *why_ = std::move(w);
    return std::nullopt;
  }
  bool bad(std::string w) {
    *why_ = std::move(w);
    return false;
  }
  std::optional<Poly> tasklet_value(int t, const std::string& out);
  std::optional<Poly> expr_value(int t, const tasklet::Expr& e);
  std::optional<Poly> connector_value(int t, const std::string& conn);
  std::optional<Poly> entry_edge_value(int e);
  int whole_copy_out(int node);
  bool coefficient(const std::vector<Factor>& fs, std::string& text, bool& named);

  const ir::SDFG& sdfg_;
  const ir::State& state_;
  const ScopeTree& scopes_;
  std::string* why_;
  Plan p_;
  std::vector<std::string> params_;
  std::string temp_data_;
  std::string out_data_;  // what the map writes: C, or the temporary copied into C
  std::set<int> used_entry_edges_;
  std::set<int> visited_;  // tasklets whose value the result uses
};

std::optional<Poly> Analyzer::entry_edge_value(int e) {
  const ir::DataflowEdge& ie = *state_.edge(e);
  const ir::Memlet& m = ie.memlet;
  if (m.is_empty() || !m.wcr.empty() || m.dynamic || m.other_subset)
    return fail("the map's input \"" + m.data + "\" is empty, dynamic or has a write-conflict resolution");
  used_entry_edges_.insert(e);
  const std::string suffix = connector_suffix(ie.src_conn, "OUT_");
  int outer = -1;
  for (int oe : state_.in_edges(p_.entry))
    if (!suffix.empty() && state_.edge(oe)->dst_conn == "IN_" + suffix) outer = oe;
  if (outer < 0 || state_.node(state_.edge(outer)->src)->kind != ir::NodeKind::Access)
    return fail("the map's input \"" + m.data + "\" does not come from an access node");
  if (m.data == temp_data_ && is_point(m.subset, params_)) return Poly{Monomial{Term::Product, {}}};
  if (m.data == p_.c_data && is_point(m.subset, params_)) {
    p_.c_in_outer = outer;
    return Poly{Monomial{Term::C, {}}};
  }
  const ir::DataDescriptor& d = sdfg_.arrays.at(m.data);
  if (d.kind != ir::DataKind::Scalar || !tasklet::is_float(d.dtype.scalar))
    return fail("the map reads \"" + m.data + "\", which is neither the product, \"" + p_.c_data +
                "\" at the map's point nor a floating-point Scalar");
  // The Gemm reads a named factor in host code.
  if (gpu_storage(d)) return fail("the factor \"" + m.data + "\" is in GPU memory");
  if (written_in(state_, m.data)) return fail("the factor \"" + m.data + "\" is written in this state");
  Factor f;
  f.is_name = true;
  f.name = m.data;
  return Poly{Monomial{Term::None, {f}}};
}

std::optional<Poly> Analyzer::connector_value(int t, const std::string& conn) {
  int in = -1;
  for (int e : state_.in_edges(t))
    if (state_.edge(e)->dst_conn == conn) {
      if (in >= 0) return fail("tasklet " + std::to_string(t) + " has two edges into \"" + conn + "\"");
      in = e;
    }
  if (in < 0) return fail("tasklet " + std::to_string(t) + " reads \"" + conn + "\", which has no edge");
  const ir::DataflowEdge& ie = *state_.edge(in);
  if (ie.src == p_.entry) return entry_edge_value(in);
  const ir::Node* src = state_.node(ie.src);
  // An intermediate scalar between two tasklets of the map (what MapFusion leaves).
  if (src->kind != ir::NodeKind::Access || !p_.body.count(ie.src))
    return fail("tasklet " + std::to_string(t) + " reads \"" + conn + "\" from neither the map nor an access node in it");
  const std::string& data = static_cast<const ir::AccessNode*>(src)->data;
  const ir::DataDescriptor& d = sdfg_.arrays.at(data);
  if (!d.transient || d.kind == ir::DataKind::View || d.kind == ir::DataKind::Reference ||
      state_.in_edges(ie.src).size() != 1 || state_.out_edges(ie.src).size() != 1 ||
      used_elsewhere(sdfg_, state_, ie.src, data))
    return fail("the intermediate \"" + data + "\" in the map is not a transient used once");
  const ir::DataflowEdge& we = *state_.edge(state_.in_edges(ie.src)[0]);
  if (state_.node(we.src)->kind != ir::NodeKind::Tasklet || !we.memlet.wcr.empty())
    return fail("the intermediate \"" + data + "\" is not written by a tasklet");
  return tasklet_value(we.src, we.src_conn);
}

std::optional<Poly> Analyzer::expr_value(int t, const tasklet::Expr& e) {
  if (const auto* n = e.as<tasklet::Name>()) {
    const auto& tk = static_cast<const ir::Tasklet&>(*state_.node(t));
    if (tk.in_connectors.count(n->id)) return connector_value(t, n->id);
    if (sdfg_.symbols.count(n->id)) return Poly{Monomial{Term::None, {Factor{true, 1.0, n->id}}}};
    return fail("tasklet " + std::to_string(t) + " reads \"" + n->id + "\", neither a connector nor a symbol");
  }
  if (const auto* c = e.as<tasklet::Constant>()) {
    if (c->kind == tasklet::ConstantKind::Int) return Poly{Monomial{Term::None, {Factor{false, double(c->int_value), ""}}}};
    if (c->kind == tasklet::ConstantKind::Float) return Poly{Monomial{Term::None, {Factor{false, c->value, ""}}}};
    return fail("tasklet " + std::to_string(t) + " holds a constant that is not a real number");
  }
  if (const auto* b = e.as<tasklet::BinOp>()) {
    if (b->op != tasklet::BinOpKind::Add && b->op != tasklet::BinOpKind::Mult)
      return fail("tasklet " + std::to_string(t) + " computes something other than sums of products");
    std::optional<Poly> l = expr_value(t, *b->left);
    if (!l) return std::nullopt;
    std::optional<Poly> r = expr_value(t, *b->right);
    if (!r) return std::nullopt;
    if (b->op == tasklet::BinOpKind::Add) {
      l->insert(l->end(), r->begin(), r->end());
      return l;
    }
    Poly out;
    for (const Monomial& x : *l)
      for (const Monomial& y : *r) {
        if (x.term != Term::None && y.term != Term::None)
          return fail("tasklet " + std::to_string(t) + " multiplies the product or C by the product or C");
        Monomial m{x.term != Term::None ? x.term : y.term, x.factors};
        m.factors.insert(m.factors.end(), y.factors.begin(), y.factors.end());
        out.push_back(std::move(m));
      }
    return out;
  }
  return fail("tasklet " + std::to_string(t) + " computes something other than sums of products");
}

std::optional<Poly> Analyzer::tasklet_value(int t, const std::string& out) {
  if (!p_.body.count(t) || state_.node(t)->kind != ir::NodeKind::Tasklet)
    return fail("node " + std::to_string(t) + " is not a tasklet of the map");
  visited_.insert(t);
  const auto& tk = static_cast<const ir::Tasklet&>(*state_.node(t));
  if (tk.code.language != ir::Language::Python || tk.out_connectors.size() != 1 || state_.out_edges(t).size() != 1)
    return fail("tasklet " + std::to_string(t) + " is not a Python tasklet with one output");
  Result<tasklet::Program> prog = tasklet::parse_code(tk.code.code);
  if (!prog || prog->body.size() != 1) return fail("tasklet " + std::to_string(t) + " is not one assignment");
  const auto* as = prog->body[0]->as<tasklet::Assign>();
  if (!as || as->targets.size() != 1 || !as->targets[0]->is<tasklet::Name>() ||
      as->targets[0]->as<tasklet::Name>()->id != out)
    return fail("tasklet " + std::to_string(t) + " is not one assignment to \"" + out + "\"");
  return expr_value(t, *as->value);
}

// The edge copying all of `node`'s data into another container, when `node` is a transient
// array (not a view) written once, read only by that copy and used nowhere else, of the
// destination's shape and element type; -1 otherwise.
int Analyzer::whole_copy_out(int node) {
  const std::string& data = static_cast<const ir::AccessNode*>(state_.node(node))->data;
  const ir::DataDescriptor& d = sdfg_.arrays.at(data);
  if (!d.transient || d.kind != ir::DataKind::Array || state_.in_edges(node).size() != 1 ||
      state_.out_edges(node).size() != 1 || used_elsewhere(sdfg_, state_, node, data))
    return -1;
  const int e = state_.out_edges(node)[0];
  const ir::DataflowEdge& ce = *state_.edge(e);
  const ir::Node* dst = state_.node(ce.dst);
  if (dst->kind != ir::NodeKind::Access || !ce.dst_conn.empty()) return -1;
  const std::string& to = static_cast<const ir::AccessNode*>(dst)->data;
  const ir::DataDescriptor& td = sdfg_.arrays.at(to);
  const ir::Memlet& m = ce.memlet;
  if (to == data || !same_shape(d.shape, td.shape) || d.dtype != td.dtype || !m.wcr.empty() || m.dynamic ||
      (m.data != data && m.data != to) || !is_whole(m.subset, d.shape) ||
      (m.other_subset && !is_whole(*m.other_subset, d.shape)))
    return -1;
  return e;
}

// A coefficient as Gemm's property text: the product of its numbers, or one name alone.
bool Analyzer::coefficient(const std::vector<Factor>& fs, std::string& text, bool& named) {
  double number = 1.0;
  std::string name;
  for (const Factor& f : fs) {
    if (!f.is_name) {
      number *= f.number;
      continue;
    }
    if (!name.empty()) return bad("a coefficient multiplies two names (\"" + name + "\" and \"" + f.name + "\")");
    name = f.name;
  }
  if (!name.empty()) {
    if (number != 1.0) return bad("a coefficient multiplies the name \"" + name + "\" by a number");
    text = name;
    named = true;
    return true;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", number);
  text = buf;
  return true;
}

std::optional<Plan> Analyzer::run(int lib) {
  const ir::Node* n = state_.node(lib);
  if (!is_matmul(n)) return fail("node " + std::to_string(lib) + " is not a MatMul");
  if (scopes_.parent[static_cast<size_t>(lib)] >= 0) return fail("MatMul " + std::to_string(lib) + " is inside a scope");
  p_.lib = lib;
  const std::string ml = "MatMul " + std::to_string(lib);

  // Operands: _a and _b from access nodes of 1-D or 2-D containers, neither a view.
  std::vector<int> ins = state_.in_edges(lib);
  std::set<std::string> conns;
  std::vector<std::string> operand_data;
  std::map<std::string, size_t> rank;
  for (int e : ins) {
    const ir::DataflowEdge& ie = *state_.edge(e);
    conns.insert(ie.dst_conn);
    const ir::Node* src = state_.node(ie.src);
    if (src->kind != ir::NodeKind::Access || ie.memlet.is_empty() || !ie.memlet.wcr.empty())
      return fail(ml + ": input " + ie.dst_conn + " is not read from an access node");
    const ir::DataDescriptor& d = sdfg_.arrays.at(ie.memlet.data);
    const size_t r = d.shape.size();
    if (d.kind != ir::DataKind::Array || (r != 1 && r != 2) || ie.memlet.subset.dims.size() != r)
      return fail(ml + ": input \"" + ie.memlet.data + "\" is neither a matrix nor a vector (a 1-D or 2-D array)");
    rank[ie.dst_conn] = r;
    operand_data.push_back(ie.memlet.data);
  }
  if (ins.size() != 2 || conns != std::set<std::string>{"_a", "_b"})
    return fail(ml + " does not have exactly the inputs _a and _b");
  // DaCe's Dot writes the product alone (no alpha, no beta, no accumulation): a vector-vector
  // product has no BLAS node that takes the scaling.
  if (rank["_a"] == 1 && rank["_b"] == 1)
    return fail(ml + " multiplies two vectors: DaCe's Dot node has no alpha and beta to fold the scaling into");
  p_.gemv = rank["_a"] != rank["_b"];
  p_.trans_a = rank["_a"] == 1;
  // apply gives `_cin` the type declared for `_a`.
  const auto& mm = static_cast<const ir::LibraryNode&>(*n);
  if (!mm.in_connectors.count("_a") || !mm.in_connectors.count("_b") || !mm.out_connectors.count("_c"))
    return fail(ml + " does not declare its connectors _a, _b and _c");

  // The product: one whole, plain write of a transient read only by one map.
  std::vector<int> outs = state_.out_edges(lib);
  if (outs.size() != 1 || state_.edge(outs[0])->src_conn != "_c") return fail(ml + " does not have one output, _c");
  const ir::DataflowEdge& pe = *state_.edge(outs[0]);
  p_.product_edge = outs[0];
  p_.temp = pe.dst;
  if (state_.node(p_.temp)->kind != ir::NodeKind::Access) return fail(ml + " does not write an access node");
  temp_data_ = static_cast<const ir::AccessNode*>(state_.node(p_.temp))->data;
  const ir::DataDescriptor& td = sdfg_.arrays.at(temp_data_);
  if (!td.transient || td.kind != ir::DataKind::Array)
    return fail("the product \"" + temp_data_ + "\" is not a transient array");
  // ?gemm is floating point; an integer product scaled by 2.5 must stay a map.
  if (td.dtype.pointer_depth != 0 || !tasklet::is_float(td.dtype.scalar))
    return fail("the product \"" + temp_data_ + "\" has element type " + ir::to_string(td.dtype) +
                ", not floating point");
  if (td.shape.size() != (p_.gemv ? 1u : 2u))
    return fail("the product \"" + temp_data_ + "\" is not a " + (p_.gemv ? "vector" : "matrix") +
                " as its operands make it");
  if (!pe.memlet.wcr.empty() || pe.memlet.data != temp_data_ || !is_whole(pe.memlet.subset, td.shape) ||
      pe.memlet.other_subset)
    return fail("the MatMul does not write all of \"" + temp_data_ + "\" plainly");
  if (state_.in_edges(p_.temp).size() != 1 || state_.out_edges(p_.temp).size() != 1 ||
      used_elsewhere(sdfg_, state_, p_.temp, temp_data_))
    return fail("the product \"" + temp_data_ + "\" is used elsewhere");
  const ir::DataflowEdge& te = *state_.edge(state_.out_edges(p_.temp)[0]);
  p_.entry = te.dst;
  const ir::MapEntry* me = as_map_entry(state_.node(p_.entry));
  if (!me || scopes_.parent[static_cast<size_t>(p_.entry)] >= 0)
    return fail("the product \"" + temp_data_ + "\" is not read by a top-level map");
  // A host map over host data, or (after GPUTransformSDFG) a kernel over GPU_Global data: the
  // Gemm is then a host call of BLAS or cuBLAS on the same memory.
  p_.gpu = me->map.schedule == ir::ScheduleType::GPU_Device;
  if (!host_schedule(me->map.schedule) && !p_.gpu)
    return fail("the map reading \"" + temp_data_ + "\" is neither a host map nor a GPU_Device kernel");
  // The CUDA plugin plans Gemm's in-place update only (docs/cuda.md "Matrix products").
  if (p_.gpu && p_.gemv) return fail(ml + " is a matrix-vector product under a GPU_Device map (folded on the host only)");
  params_ = me->map.params;
  if (params_.size() != td.shape.size() || !is_whole(me->map.range, td.shape))
    return fail("the map reading \"" + temp_data_ + "\" does not range over its shape");
  if (!is_whole(te.memlet.subset, td.shape)) return fail("the map does not read all of \"" + temp_data_ + "\"");
  p_.exit = scopes_.exit_of(p_.entry);
  for (int id : scopes_.scope_nodes(p_.entry)) p_.body.insert(id);
  for (int id : p_.body)
    if (state_.node(id)->kind != ir::NodeKind::Tasklet && state_.node(id)->kind != ir::NodeKind::Access)
      return fail("the map reading \"" + temp_data_ + "\" holds a node other than tasklets and access nodes");

  // The result: one plain write of C at the map's point, leaving the map whole.
  if (p_.exit < 0 || state_.in_edges(p_.exit).size() != 1 || state_.out_edges(p_.exit).size() != 1)
    return fail("the map reading \"" + temp_data_ + "\" does not write exactly one result");
  const ir::DataflowEdge& xi = *state_.edge(state_.in_edges(p_.exit)[0]);
  const ir::DataflowEdge& xo = *state_.edge(state_.out_edges(p_.exit)[0]);
  p_.c_out_outer = state_.out_edges(p_.exit)[0];
  if (state_.node(xo.dst)->kind != ir::NodeKind::Access) return fail("the map does not write an access node");
  p_.c_write = xo.dst;
  out_data_ = static_cast<const ir::AccessNode*>(state_.node(xo.dst))->data;
  p_.c_data = out_data_;
  // A temporary copied whole into C: C is the result (the map's reads of C at its point are
  // its old values, as BLAS's beta term reads them), and the temporary goes with the map.
  if (const int copy = whole_copy_out(xo.dst); copy >= 0) {
    p_.copy_temp = xo.dst;
    p_.c_out_outer = copy;
    p_.c_write = state_.edge(copy)->dst;
    p_.c_data = static_cast<const ir::AccessNode*>(state_.node(p_.c_write))->data;
  }
  const ir::DataDescriptor& cd = sdfg_.arrays.at(p_.c_data);
  const std::string cq = "\"" + p_.c_data + "\"";
  if (cd.kind != ir::DataKind::Array || !same_shape(cd.shape, td.shape))
    return fail("the result " + cq + " is not an array of the product's shape");
  if (cd.dtype != td.dtype) return fail("the result " + cq + " has another element type than the product");
  if (xi.memlet.data != out_data_ || !is_point(xi.memlet.subset, params_) || !xi.memlet.wcr.empty() ||
      xo.memlet.data != out_data_ || !is_whole(xo.memlet.subset, cd.shape) || !xo.memlet.wcr.empty() ||
      xo.memlet.other_subset || xi.memlet.other_subset)
    return fail("the map does not write all of \"" + out_data_ + "\" at its point");
  for (size_t k = 0; k < operand_data.size(); ++k) {
    if (operand_data[k] == p_.c_data) return fail("the result " + cq + " is also an operand of the MatMul");
    if (sdfg_.arrays.at(operand_data[k]).dtype != td.dtype)
      return fail("operand \"" + operand_data[k] + "\" has another element type than the product");
  }
  operand_data.push_back(p_.c_data);
  operand_data.push_back(temp_data_);
  if (p_.copy_temp >= 0) {
    // The CUDA plugin's in-place Gemm is tested on the direct form only.
    if (p_.gpu) return fail("the map under a GPU_Device kernel writes \"" + out_data_ + "\", not " + cq);
    operand_data.push_back(out_data_);
  }
  for (const std::string& d : operand_data)
    if (gpu_storage(sdfg_.arrays.at(d)) != p_.gpu || (p_.gpu && sdfg_.arrays.at(d).storage != ir::StorageType::GPU_Global))
      return fail("\"" + d + "\" is " + (p_.gpu ? "not in GPU_Global memory under a GPU_Device map" : "in GPU memory under a host map"));
  if (written_in(state_, p_.c_data, p_.c_write) || state_.in_edges(p_.c_write).size() != 1)
    return fail("the result " + cq + " is written elsewhere in this state");

  // The value the map writes, as alpha * P + beta * C.
  std::optional<Poly> value = tasklet_value(xi.src, xi.src_conn);
  if (!value) return std::nullopt;
  if (used_entry_edges_.size() != state_.out_edges(p_.entry).size())
    return fail("the map has inputs that its result does not use");
  // Every edge into the map must be the outer side of an input the result uses: apply removes
  // the map, so an ordering edge (empty memlet) or an IN_ connector without its OUT_ would be
  // lost with it.
  std::set<std::string> used_suffixes;
  for (int e : used_entry_edges_) used_suffixes.insert(connector_suffix(state_.edge(e)->src_conn, "OUT_"));
  for (int e : state_.in_edges(p_.entry)) {
    const ir::DataflowEdge& ie = *state_.edge(e);
    const std::string suffix = connector_suffix(ie.dst_conn, "IN_");
    if (ie.memlet.is_empty() || suffix.empty() || !used_suffixes.count(suffix))
      return fail("edge " + std::to_string(e) + " into the map (connector \"" + ie.dst_conn +
                  "\") is not the outer side of an input its result uses");
  }
  for (int id : p_.body)
    if (state_.node(id)->kind == ir::NodeKind::Tasklet && !visited_.count(id))
      return fail("tasklet " + std::to_string(id) + " in the map does not contribute to the result");
  const Monomial *alpha = nullptr, *beta = nullptr;
  for (const Monomial& m : *value) {
    if (m.term == Term::None) return fail("the map adds a term without the product or " + cq);
    const Monomial*& slot = m.term == Term::Product ? alpha : beta;
    if (slot) return fail("the map adds the product or " + cq + " twice");
    slot = &m;
  }
  if (!alpha) return fail("the map's result does not use the product");
  if (!coefficient(alpha->factors, p_.alpha, p_.named)) return std::nullopt;
  if (beta && !coefficient(beta->factors, p_.beta, p_.named)) return std::nullopt;
  if (!beta) p_.c_in_outer = -1;
  if (p_.c_in_outer >= 0) {
    const ir::DataflowEdge& ci = *state_.edge(p_.c_in_outer);
    if (ci.memlet.data != p_.c_data || !is_whole(ci.memlet.subset, cd.shape) || ci.memlet.other_subset ||
        state_.out_edges(ci.src).size() != 1 || !state_.in_edges(ci.src).empty())
      return fail("the map's read of " + cq + " is not the only, whole read of its access node");
  }
  const auto& ln = static_cast<const ir::LibraryNode&>(*n);
  if (p_.named && ln.implementation == "pure")
    return fail(ml + " asks for the pure implementation, which takes alpha and beta as numbers only");
  // The Gemv reads C through `_cin` (see apply), which only the OpenBLAS expansion tolerates.
  if (p_.gemv && ln.implementation == "pure")
    return fail(ml + " asks for the pure implementation; the folded Gemv needs OpenBLAS's");
  return p_;
}

std::string json_text(const std::string& v, bool is_name) { return is_name ? "\"" + v + "\"" : v; }

bool is_number(const std::string& v) {
  return !v.empty() && (std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-' || v[0] == '.');
}

}  // namespace

void FoldScalingIntoGemm::state_matches(const ir::State& state, const ScopeTree&, std::vector<std::vector<int>>& out) {
  for (int id : state.node_ids())
    if (is_matmul(state.node(id))) out.push_back({id});
}

bool FoldScalingIntoGemm::can_apply(const Site& site, const std::vector<int>& nodes) {
  std::string why;
  if (!Analyzer(site.sdfg, site.state, site.scopes, &why).run(nodes[0])) return refuse(why);
  return true;
}

Status FoldScalingIntoGemm::apply_at(const Site& site, const std::vector<int>& nodes) {
  std::string why;
  std::optional<Plan> plan = Analyzer(site.sdfg, site.state, site.scopes, &why).run(nodes[0]);
  if (!plan) return make_error(Code::InvalidArgument, why);
  const Plan& p = *plan;
  ir::State& state = site.state;
  const auto& old = static_cast<const ir::LibraryNode&>(*state.node(p.lib));

  auto node = std::make_unique<ir::LibraryNode>();
  node->name = old.name;
  node->label = old.label;
  node->classpath = p.gemv ? kGemvClass : kGemmClass;
  node->schedule = old.schedule;
  node->implementation = old.implementation == "specialize" ? "" : old.implementation;
  if ((p.named || p.gemv) && node->implementation.empty()) node->implementation = p.gpu ? "cuBLAS" : "OpenBLAS";
  node->properties["alpha"] = json_text(p.alpha, !is_number(p.alpha));
  node->properties["beta"] = json_text(p.beta, !is_number(p.beta));
  // Connector names: Gemm's _a, _b, _c (+ _cin); Gemv's _A (the matrix), _x, _y, and C's read
  // through `_cin` too rather than DaCe's in-out `_y`: DaCe 1.0.2's OpenBLAS Gemv expansion
  // copies the node's connectors into a C++ tasklet, which then declares `_y` twice and does
  // not compile; with `_cin` it updates `_y` in place and leaves `_cin` unused.
  const ir::DType a_type = old.in_connectors.at("_a"), b_type = old.in_connectors.at("_b");  // run checks both
  std::map<std::string, std::string> rename = {{"_a", "_a"}, {"_b", "_b"}};
  std::string c_in_conn = "_cin", c_out_conn = "_c";
  if (p.gemv) {
    rename = p.trans_a ? std::map<std::string, std::string>{{"_a", "_x"}, {"_b", "_A"}}
                       : std::map<std::string, std::string>{{"_a", "_A"}, {"_b", "_x"}};
    c_out_conn = "_y";
    node->properties["transA"] = p.trans_a ? "true" : "false";
  } else {
    node->properties["cin"] = p.c_in_outer >= 0 ? "true" : "false";
  }
  node->in_connectors[rename.at("_a")] = a_type;
  node->in_connectors[rename.at("_b")] = b_type;
  node->out_connectors[c_out_conn] = old.out_connectors.at("_c");
  if (p.c_in_outer >= 0) node->in_connectors[c_in_conn] = a_type;

  const ir::DataflowEdge c_out = *state.edge(p.c_out_outer);
  std::optional<ir::DataflowEdge> c_in;
  if (p.c_in_outer >= 0) c_in = *state.edge(p.c_in_outer);
  const std::vector<int> ins = state.in_edges(p.lib);
  const int id = state.add_node(std::move(node));
  for (int e : ins) {
    state.set_edge_ends(e, state.edge(e)->src, id);
    state.edge(e)->dst_conn = rename.at(state.edge(e)->dst_conn);
  }

  // Everything between the MatMul and C goes: the product's access node, the map and its body,
  // and the factors' access nodes that fed only the map.
  // Containers only the removed nodes used (the product, the map's intermediates) go too.
  std::set<std::string> dropped;
  for (int n : p.body)
    if (state.node(n)->kind == ir::NodeKind::Access) dropped.insert(static_cast<const ir::AccessNode*>(state.node(n))->data);
  dropped.insert(static_cast<const ir::AccessNode*>(state.node(p.temp))->data);
  std::set<int> feeders;
  for (int e : state.in_edges(p.entry)) feeders.insert(state.edge(e)->src);
  std::vector<int> gone(p.body.begin(), p.body.end());
  gone.insert(gone.end(), {p.exit, p.entry, p.temp, p.lib});
  if (p.copy_temp >= 0) {
    dropped.insert(static_cast<const ir::AccessNode*>(state.node(p.copy_temp))->data);
    gone.push_back(p.copy_temp);
  }
  for (int n : gone) state.remove_node(n);
  if (c_in) {
    ir::DataflowEdge e = *c_in;
    e.dst = id;
    e.dst_conn = c_in_conn;
    state.add_edge(e);
  }
  ir::DataflowEdge e = c_out;
  e.src = id;
  e.src_conn = c_out_conn;
  if (p.copy_temp >= 0) {
    // The copy's memlet may name the temporary; the node writes all of C.
    const ir::Memlet& copy = c_out.memlet;
    e.memlet = ir::Memlet{};
    e.memlet.data = p.c_data;
    e.memlet.subset = copy.data == p.c_data || !copy.other_subset ? copy.subset : *copy.other_subset;
    e.memlet.debuginfo = copy.debuginfo;
  }
  state.add_edge(e);
  // Only access nodes that fed the map alone go (run admits no other feeder, but a tasklet or
  // any other node left without edges is still dataflow someone wrote).
  for (int f : feeders)
    if (state.node(f) && state.node(f)->kind == ir::NodeKind::Access && state.in_edges(f).empty() &&
        state.out_edges(f).empty())
      state.remove_node(f);
  for (const std::string& d : dropped)
    if (!used_elsewhere(site.sdfg, state, -1, d)) site.sdfg.arrays.erase(d);
  return Status::success();
}

}  // namespace dace::transform
