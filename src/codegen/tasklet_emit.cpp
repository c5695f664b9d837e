// Tasklets: connectors bound to memlets (scalar connectors load/store one element, others
// are indexable views of their subset), code lowered from the typed AST, outputs written
// back (through WCR where the memlet has one; atomically in parallel code). A connector bound
// to a stream pops one element when the tasklet starts (input) or pushes at every
// assignment (output), as DaCe's `s = value` on a stream connector does.
#include <set>

#include "codegen/addressing.h"
#include "codegen/bounds_check.h"
#include "codegen/expr_emit.h"
#include "codegen/target_lowering.h"
#include "codegen/node_emit.h"
#include "codegen/target_lowering.h"
#include "codegen/scalar_ops.h"
#include "codegen/stream_queue.h"
#include "codegen/struct_values.h"
#include "codegen/wcr.h"
#include "ir/path.h"
#include "plugin/registry.h"
#include "ir/tasklet/language.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/typecheck.h"

namespace dace::codegen {

using namespace tasklet;

namespace {

void scan_expr(const Expr& e, std::map<std::string, int>& arity, int depth);

void scan_exprs(const std::vector<ExprPtr>& v, std::map<std::string, int>& arity, int depth) {
  for (const ExprPtr& e : v)
    if (e) scan_expr(*e, arity, depth + 1);
}

void scan_expr(const Expr& e, std::map<std::string, int>& arity, int depth) {
  if (depth > kMaxExprHeight + 10) return;
  auto sub = [&](const ExprPtr& p) {
    if (p) scan_expr(*p, arity, depth + 1);
  };
  if (const Subscript* s = e.as<Subscript>()) {
    if (const Name* n = s->value ? s->value->as<Name>() : nullptr) arity[n->id] = static_cast<int>(s->indices.size());
    scan_exprs(s->indices, arity, depth);
  } else if (const UnaryOp* u = e.as<UnaryOp>()) {
    sub(u->operand);
  } else if (const BinOp* b = e.as<BinOp>()) {
    sub(b->left);
    sub(b->right);
  } else if (const BoolOp* b = e.as<BoolOp>()) {
    scan_exprs(b->values, arity, depth);
  } else if (const Compare* c = e.as<Compare>()) {
    sub(c->left);
    scan_exprs(c->comparators, arity, depth);
  } else if (const IfExp* i = e.as<IfExp>()) {
    sub(i->test);
    sub(i->body);
    sub(i->orelse);
  } else if (const Call* c = e.as<Call>()) {
    scan_exprs(c->args, arity, depth);
  } else if (const Attribute* a = e.as<Attribute>()) {
    sub(a->value);
  }
}

void scan_stmts(const std::vector<StmtPtr>& body, std::map<std::string, int>& arity, bool& has_if, int depth) {
  if (depth > kMaxBlockNesting + 10) return;
  for (const StmtPtr& s : body) {
    if (!s) continue;
    if (const Assign* a = s->as<Assign>()) {
      scan_exprs(a->targets, arity, 0);
      if (a->value) scan_expr(*a->value, arity, 0);
    } else if (const AugAssign* a = s->as<AugAssign>()) {
      if (a->target) scan_expr(*a->target, arity, 0);
      if (a->value) scan_expr(*a->value, arity, 0);
    } else if (const If* i = s->as<If>()) {
      has_if = true;
      if (i->test) scan_expr(*i->test, arity, 0);
      scan_stmts(i->body, arity, has_if, depth + 1);
      scan_stmts(i->orelse, arity, has_if, depth + 1);
    } else if (const ExprStmt* x = s->as<ExprStmt>()) {
      if (x->value) scan_expr(*x->value, arity, 0);
    }
  }
}

// A point subset is a scalar connector unless the code indexes it (DaCe also types dynamic
// point outputs as pointers that the code assigns as scalars).
bool scalar_memlet(const ir::Memlet& m, const ir::DType& conn) {
  (void)conn;
  for (sym::Expr s : sym::size(m.subset))
    if (!is_one(s)) return false;
  return true;
}

// Dimensions of `subset` that tasklet code indexes with `count` indices.
Result<std::vector<size_t>> indexed_dims(const sym::Subset& subset, int count, const std::string& conn) {
  std::vector<size_t> all, nonunit;
  std::vector<sym::Expr> sizes = sym::size(subset);
  for (size_t d = 0; d < sizes.size(); ++d) {
    all.push_back(d);
    if (!is_one(sizes[d])) nonunit.push_back(d);
  }
  if (count < 0) return nonunit;  // not indexed in the code
  if (static_cast<size_t>(count) == nonunit.size()) return nonunit;
  if (static_cast<size_t>(count) == all.size()) return all;
  return make_error(Code::InvalidSdfg, "connector \"" + conn + "\" is indexed with " + std::to_string(count) +
                                           " indices but its memlet has " + std::to_string(nonunit.size()) +
                                           " non-unit dimensions");
}

struct Target {
  llvm::Value* ptr = nullptr;   // element (scalar connector) or first element
  ScalarType elem = ScalarType::Unknown;
  int tasklet_edge = -1;         // >= 0: value goes to a tasklet through edge_values
  llvm::Value* queue = nullptr;  // a stream's queue: each write pushes
  std::optional<Wcr> wcr;
  bool atomic = false;
};

struct Output {
  bool scalar = true;
  bool dynamic = false;
  ScalarType type = ScalarType::Unknown;
  llvm::AllocaInst* local = nullptr;
  ArrayRef array;
  std::vector<Target> targets;
};

// A struct-typed output connector: its fields are scalar outputs ("conn.field"), written
// together into each destination element at the end.
struct StructOutput {
  ir::StructLayout layout;
  struct Destination {
    llvm::Value* element = nullptr;
    std::optional<Wcr> wcr;
    bool atomic = false;
  };
  std::vector<Destination> destinations;
};

struct Input {
  bool scalar = true;
  TypedValue value;          // eager scalar
  llvm::Value* lazy = nullptr;  // dynamic scalar: load at each use
  ArrayRef array;
};

// Whether a WCR write with this subset may collide with another thread's write. It is free of
// collisions only when the index tuple is injective over the parallel parameters, checked
// conservatively: every parallel parameter p owns a point dimension whose index is
// `c*p + rest` (c != 0) with `rest` free of every symbol that can differ between threads or
// between one thread's iterations (the parallel parameters and every other scope symbol:
// inner sequential or non-collapsed map parameters, dynamic map inputs). Two threads differ in
// some p and so in p's dimension. `b[i + j]`, `b[i*j]`, `b[i + k]` (k an inner loop) and
// `b[i, i + j]` all count as conflicted.
bool conflicted(const sym::Subset& subset, const std::vector<std::string>& params,
                const std::map<std::string, ScalarType>& scope_symbols) {
  if (params.empty()) return true;
  std::set<std::string> varying(params.begin(), params.end());
  for (const auto& [name, type] : scope_symbols) varying.insert(name);
  for (const std::string& p : params) {
    bool owned = false;
    for (const sym::Range& r : subset.dims) {
      if (r.start != r.end) continue;
      std::set<std::string> used;
      for (const std::string& s : sym::free_symbols(r.start))
        if (varying.count(s)) used.insert(s);
      if (used != std::set<std::string>{p}) continue;
      std::optional<sym::Affine> a = sym::affine(r.start, {p});
      // affine() drops zero coefficients and puts only p-free terms in the constant.
      if (a && a->coefficients.size() == 1 && a->coefficients.count(p)) owned = true;
    }
    if (!owned) return true;
  }
  return false;
}

// The start of a tasklet's code on one line, for messages.
std::string code_excerpt(const std::string& code) {
  std::string out;
  for (char c : code) {
    if (out.size() >= 60) return out + "...";
    if (c == '\n' || c == '\t' || c == '\r') c = ' ';
    if (c != ' ' || (!out.empty() && out.back() != ' ')) out += c;
  }
  return out;
}

class TaskletEmitter : public NameEnv {
 public:
  TaskletEmitter(StateEmitter& se, int node) : se_(se), f_(*se.f), node_(node) {}

  Status run() {
    const auto& t = static_cast<const ir::Tasklet&>(*se_.state.node(node_));
    // C++ tasklets: only the vendor calls of DaCe's expansions that a plugin claims (the CPU
    // plugin's CBLAS and LAPACKE, the CUDA plugin's cuBLAS); the core compiles no C++.
    if (t.code.language == ir::Language::CPP) {
      if (const plugin::Registry* registry = f_.mc.options.registry)
        for (const auto& [name, lowering] : registry->cpp_tasklets())
          if (lowering->claims(t.code.code)) {
            CppTaskletContext context(se_, node_, t.code.code);
            return lowering->lower_tasklet(context);
          }
      return make_error(Code::Unsupported, se_.where(node_) + ": C++ tasklet \"" + code_excerpt(t.code.code) +
                                               "\" is lowered by no loaded plugin (libdace compiles C++ tasklets only "
                                               "as the vendor calls of DaCe's library expansions that a plugin recognizes)");
    }
    if (t.code.language != ir::Language::Python)
      return unsupported_language_error(ir::to_string(t.code.language), se_.where(node_));
    Result<Program> parsed = parse_code(t.code.code);
    if (!parsed) return fail(parsed.error());
    std::map<std::string, int> arity;
    bool has_if = false;
    scan_stmts(parsed->body, arity, has_if, 0);

    std::map<std::string, ConnectorInfo> in_info, out_info;
    DACE_TRY(bind_inputs(t, arity, in_info));
    DACE_TRY(bind_outputs(t, arity, out_info));
    std::map<std::string, ScalarType> symbols = f_.sc.symbol_types;
    for (const auto& [n, ty] : se_.scope_symbols) symbols[n] = ty;
    Result<Program> split = split_struct_connectors(*parsed, structs_);
    if (!split) return fail(split.error());
    Result<TypedProgram> typed = typecheck(*split, in_info, out_info, symbols);
    if (!typed) return fail(typed.error());
    for (auto& [name, out] : outputs_) {
      if (!out.scalar) continue;
      ScalarType ty = out.type;
      auto it = typed->outputs.find(name);
      if (ty == ScalarType::Unknown && it != typed->outputs.end()) ty = it->second;
      if (ty == ScalarType::Unknown) ty = ScalarType::Float64;
      out.type = ty;
      out.local = f_.entry_alloca(storage_type(f_.mc.ctx, ty), name);
      // An in/out connector (same name on both sides) starts with the input's value.
      if (auto in = inputs_.find(name); in != inputs_.end() && in->second.scalar) {
        TypedValue iv = in->second.lazy ? load_scalar(f_.b, in->second.lazy, in->second.value.type) : in->second.value;
        store_scalar(f_.b, convert_typed(f_.b, iv, ty), out.local);
        continue;
      }
      // A conditionally written output keeps the destination's value on paths that skip it.
      if (has_if && !out.dynamic && !out.targets.empty() && out.targets[0].tasklet_edge < 0 && !out.targets[0].wcr)
        store_scalar(f_.b, convert_typed(f_.b, load_scalar(f_.b, out.targets[0].ptr, out.targets[0].elem), ty), out.local);
    }
    // A conditionally written struct keeps the destination's fields on paths that skip them.
    for (const auto& [name, so] : struct_outputs_) {
      if (!has_if || so.destinations.empty() || so.destinations[0].wcr) continue;
      for (const ir::StructField& fl : so.layout.fields) {
        Output& out = outputs_.at(field_connector(name, fl.name));
        store_scalar(f_.b, load_scalar(f_.b, field_pointer(f_.b, so.destinations[0].element, fl), fl.type), out.local);
      }
    }
    for (const auto& [name, ty] : typed->locals) {
      ScalarType lt = ty == ScalarType::Unknown ? ScalarType::Float64 : ty;
      locals_[name] = {f_.entry_alloca(storage_type(f_.mc.ctx, lt), name), lt};
    }
    DACE_TRY(body(typed->program.body));
    // Non-dynamic scalar outputs are written once, at the end.
    for (auto& [name, out] : outputs_) {
      if (!out.scalar || out.dynamic) continue;
      TypedValue v = load_scalar(f_.b, out.local, out.type);
      for (const Target& tg : out.targets) DACE_TRY(write_target(tg, v));
    }
    for (const auto& [name, so] : struct_outputs_) {
      std::map<std::string, TypedValue> fields;
      for (const ir::StructField& fl : so.layout.fields) {
        const Output& out = outputs_.at(field_connector(name, fl.name));
        fields[fl.name] = load_scalar(f_.b, out.local, out.type);
      }
      for (const auto& dst : so.destinations) {
        Status st = emit_struct_write(f_, so.layout, dst.element, fields, dst.wcr ? &*dst.wcr : nullptr, dst.atomic);
        if (!st.ok()) return fail(st.error());
      }
    }
    return Status::success();
  }

  Result<TypedValue> read(const std::string& name) override {
    if (auto l = locals_.find(name); l != locals_.end()) return load_scalar(f_.b, l->second.first, l->second.second);
    if (auto o = outputs_.find(name); o != outputs_.end() && o->second.scalar)
      return load_scalar(f_.b, o->second.local, o->second.type);
    if (auto i = inputs_.find(name); i != inputs_.end()) {
      if (i->second.lazy) return load_scalar(f_.b, i->second.lazy, i->second.value.type);
      return i->second.value;
    }
    return f_.symbol(name);
  }

  Result<ArrayRef> array(const std::string& name) override {
    if (auto i = inputs_.find(name); i != inputs_.end() && !i->second.scalar) return i->second.array;
    if (auto o = outputs_.find(name); o != outputs_.end() && !o->second.scalar) return o->second.array;
    return make_error(Code::InvalidSdfg, se_.where(node_) + ": \"" + name + "\" is not an array connector");
  }

 private:
  Error fail(const Error& e) const { return make_error(e.code, se_.where(node_) + ": " + e.message, e.line, e.column); }

  Status check_indices(const ArrayRef& ref, const std::vector<llvm::Value*>& indices) override {
    return emit_index_checks(f_, ref.label, indices, ref.extents);
  }

  // With bounds_check on, the indices the code computes on an array connector are checked
  // against the connector's view of its memlet (the memlet is checked against the container
  // before the tasklet runs): the extents of the indexed dimensions and the name of the
  // element (edge, memlet, connector) go with the view.
  Status check_bounds_of(ArrayRef& ref, int edge, const std::string& conn, const sym::Subset& subset,
                         const std::vector<size_t>& dims) {
    if (!f_.mc.options.bounds_check) return Status::success();
    const ir::DataflowEdge* e = se_.state.edge(edge);
    if (e->memlet.allow_oob) return Status::success();
    std::vector<sym::Expr> sizes = subset_sizes(subset);
    for (size_t d : dims) {
      // Every indexed position gets its extent or the compile fails: a partial list would
      // check only a prefix of the indices.
      if (d >= sizes.size() || !sizes[d])
        return make_error(Code::InvalidSdfg, se_.where_edge(edge) + ": connector " + ir::quoted(conn) + " indexes dimension " +
                                                 std::to_string(d) + " of memlet " + ir::quoted(ir::to_string(e->memlet)) +
                                                 ", which has " + std::to_string(sizes.size()) +
                                                 " dimensions: no extent to check it against (bounds check)");
      Result<llvm::Value*> extent = f_.sym(sizes[d]);
      if (!extent) return fail(extent.error());
      ref.extents.push_back(*extent);
    }
    ref.label = se_.where_edge(edge) + " memlet " + ir::quoted(ir::to_string(e->memlet)) + ", connector " + ir::quoted(conn);
    return Status::success();
  }

  Status bind_inputs(const ir::Tasklet& t, const std::map<std::string, int>& arity,
                     std::map<std::string, ConnectorInfo>& info) {
    for (int e : se_.state.in_edges(node_)) {
      const ir::DataflowEdge* edge = se_.state.edge(e);
      if (edge->dst_conn.empty()) continue;
      const std::string& conn = edge->dst_conn;
      auto ct = t.in_connectors.find(conn);
      ir::DType declared = ct != t.in_connectors.end() ? ct->second : ir::DType{};
      const ir::Node* src = se_.state.node(edge->src);
      Input in;
      // Values of tasklet -> tasklet edges, and the element a consume scope popped.
      bool consumed = src->kind == ir::NodeKind::ConsumeEntry && edge->src_conn == "OUT_stream";
      if (src->kind == ir::NodeKind::Tasklet || consumed) {
        auto v = se_.edge_values.find(e);
        if (v == se_.edge_values.end())
          return make_error(Code::InvalidSdfg, se_.where_edge(e) + (consumed ? ": the consumed element is missing"
                                                                             : ": value from the producing tasklet is missing"));
        in.value = load_scalar(f_.b, v->second.first, v->second.second);
        inputs_[conn] = in;
        info[conn] = ConnectorInfo{in.value.type, 0, false};
        continue;
      }
      if (edge->memlet.is_empty()) continue;
      Result<DataBinding> d = f_.data(edge->memlet.data);
      if (!d) return fail(d.error());
      if (Status h = check_host_access(f_, *d->desc, edge->memlet.data, se_.where(node_)); !h.ok()) return fail(h.error());
      sym::Subset subset = edge->memlet.subset.rank() ? edge->memlet.subset : full_subset(*d->desc);
      ScalarType elem = d->desc->dtype.scalar;
      ScalarType ty = declared.scalar != ScalarType::Unknown ? declared.scalar : elem;
      auto ar = arity.find(conn);
      if (std::optional<ir::StructLayout> layout = ir::struct_layout(d->desc->dtype)) {
        DACE_TRY(bind_struct_input(e, conn, *d, subset, ar != arity.end(), *layout, info));
        continue;
      }
      if (d->desc->kind == ir::DataKind::Stream) {
        DACE_TRY(pop_input(e, conn, *d, subset, ar != arity.end(), ty, in, info));
        continue;
      }
      if (scalar_memlet(edge->memlet, declared) && ar == arity.end()) {
        Result<llvm::Value*> p = subset_pointer(f_, *d, subset);
        if (!p) return fail(p.error());
        if (edge->memlet.dynamic) {
          in.lazy = *p;
          in.value.type = elem;
        } else {
          in.value = load_scalar(f_.b, *p, elem, conn.c_str());
        }
        if (ty != elem && !in.lazy) in.value = convert_typed(f_.b, in.value, ty);
        inputs_[conn] = in;
        info[conn] = ConnectorInfo{in.lazy ? elem : ty, 0, false};
        continue;
      }
      in.scalar = false;
      Result<std::vector<size_t>> dims = indexed_dims(subset, ar == arity.end() ? -1 : ar->second, conn);
      if (!dims) return fail(dims.error());
      Result<ArrayRef> ref = subset_array_ref(f_, *d, subset, *dims);
      if (!ref) return fail(ref.error());
      DACE_TRY(check_bounds_of(*ref, e, conn, subset, *dims));
      in.array = *ref;
      inputs_[conn] = in;
      info[conn] = ConnectorInfo{elem, static_cast<int>(dims->size()), false};
    }
    return Status::success();
  }

  Status bind_outputs(const ir::Tasklet& t, const std::map<std::string, int>& arity,
                      std::map<std::string, ConnectorInfo>& info) {
    for (int e : se_.state.out_edges(node_)) {
      const ir::DataflowEdge* edge = se_.state.edge(e);
      if (edge->src_conn.empty()) continue;
      const std::string& conn = edge->src_conn;
      auto ct = t.out_connectors.find(conn);
      ir::DType declared = ct != t.out_connectors.end() ? ct->second : ir::DType{};
      Output& out = outputs_[conn];
      if (out.targets.empty()) out.type = declared.scalar;
      const ir::Node* dst = se_.state.node(edge->dst);
      Target tg;
      if (dst->kind == ir::NodeKind::Tasklet) {
        tg.tasklet_edge = e;
        out.targets.push_back(tg);
        info[conn] = ConnectorInfo{out.type, 0, false};
        continue;
      }
      if (edge->memlet.is_empty()) continue;
      Result<DataBinding> d = f_.data(edge->memlet.data);
      if (!d) return fail(d.error());
      if (Status h = check_host_access(f_, *d->desc, edge->memlet.data, se_.where(node_)); !h.ok()) return fail(h.error());
      sym::Subset subset = edge->memlet.subset.rank() ? edge->memlet.subset : full_subset(*d->desc);
      if (std::optional<ir::StructLayout> layout = ir::struct_layout(d->desc->dtype)) {
        outputs_.erase(conn);
        DACE_TRY(bind_struct_output(e, conn, *d, subset, arity.count(conn) > 0, *layout, info));
        continue;
      }
      tg.elem = d->desc->dtype.scalar;
      if (out.type == ScalarType::Unknown) out.type = tg.elem;
      if (d->desc->kind == ir::DataKind::Stream) {
        if (arity.count(conn) || !edge->memlet.wcr.empty())
          return make_error(Code::Unsupported, se_.where_edge(e) + ": stream connector \"" + conn +
                                                   "\" can only be assigned (no indexing, no write-conflict resolution)");
        Result<llvm::Value*> q = stream_queue(f_, *d, subset);
        if (!q) return make_error(q.error().code, se_.where_edge(e) + ": " + q.error().message);
        tg.queue = *q;
        out.dynamic = true;  // every assignment pushes
        out.targets.push_back(tg);
        info[conn] = ConnectorInfo{out.type, 0, false};
        continue;
      }
      if (!edge->memlet.wcr.empty()) {
        Result<Wcr> w = parse_wcr(edge->memlet.wcr);
        if (!w) return fail(w.error());
        tg.wcr = *w;
        tg.atomic = f_.parallel_context && !d->thread_local_storage && !edge->memlet.wcr_nonatomic &&
                    conflicted(subset, se_.parallel_params, se_.scope_symbols);
      }
      out.dynamic = out.dynamic || edge->memlet.dynamic;
      auto ar = arity.find(conn);
      if (scalar_memlet(edge->memlet, declared) && ar == arity.end()) {
        Result<llvm::Value*> p = subset_pointer(f_, *d, subset);
        if (!p) return fail(p.error());
        tg.ptr = *p;
        out.targets.push_back(tg);
        info[conn] = ConnectorInfo{out.type, 0, false};
        continue;
      }
      out.scalar = false;
      Result<std::vector<size_t>> dims = indexed_dims(subset, ar == arity.end() ? -1 : ar->second, conn);
      if (!dims) return fail(dims.error());
      Result<ArrayRef> ref = subset_array_ref(f_, *d, subset, *dims);
      if (!ref) return fail(ref.error());
      DACE_TRY(check_bounds_of(*ref, e, conn, subset, *dims));
      out.array = *ref;
      out.targets.push_back(tg);
      info[conn] = ConnectorInfo{tg.elem, static_cast<int>(dims->size()), false};
    }
    return Status::success();
  }

  Status struct_point(int e, const std::string& conn, const DataBinding& d, const sym::Subset& subset, bool indexed,
                      llvm::Value*& element) {
    const ir::DataflowEdge* edge = se_.state.edge(e);
    if (indexed || !scalar_memlet(edge->memlet, ir::DType{}) || d.desc->kind == ir::DataKind::Stream)
      return make_error(Code::Unsupported, se_.where_edge(e) + ": struct connector \"" + conn +
                                               "\" must access one element (indexed struct arrays and struct "
                                               "streams cannot be compiled yet)");
    if (edge->memlet.dynamic)
      return make_error(Code::Unsupported, se_.where_edge(e) + ": dynamic struct connector \"" + conn +
                                               "\" cannot be compiled yet");
    Result<llvm::Value*> p = subset_pointer(f_, d, subset);
    if (!p) return fail(p.error());
    element = *p;
    return Status::success();
  }

  Status bind_struct_input(int e, const std::string& conn, const DataBinding& d, const sym::Subset& subset,
                           bool indexed, const ir::StructLayout& layout, std::map<std::string, ConnectorInfo>& info) {
    llvm::Value* element = nullptr;
    DACE_TRY(struct_point(e, conn, d, subset, indexed, element));
    for (const ir::StructField& fl : layout.fields) {
      Input in;
      in.value = load_scalar(f_.b, field_pointer(f_.b, element, fl), fl.type);
      std::string name = field_connector(conn, fl.name);
      inputs_[name] = in;
      info[name] = ConnectorInfo{fl.type, 0, false};
    }
    structs_[conn] = layout;
    return Status::success();
  }

  Status bind_struct_output(int e, const std::string& conn, const DataBinding& d, const sym::Subset& subset,
                            bool indexed, const ir::StructLayout& layout, std::map<std::string, ConnectorInfo>& info) {
    const ir::DataflowEdge* edge = se_.state.edge(e);
    StructOutput::Destination dst;
    DACE_TRY(struct_point(e, conn, d, subset, indexed, dst.element));
    if (!edge->memlet.wcr.empty()) {
      Result<Wcr> w = parse_wcr(edge->memlet.wcr);
      if (!w) return fail(w.error());
      dst.wcr = *w;
      dst.atomic = f_.parallel_context && !d.thread_local_storage && !edge->memlet.wcr_nonatomic &&
                   conflicted(subset, se_.parallel_params, se_.scope_symbols);
    }
    StructOutput& so = struct_outputs_[conn];
    so.layout = layout;
    so.destinations.push_back(std::move(dst));
    for (const ir::StructField& fl : layout.fields) {
      std::string name = field_connector(conn, fl.name);
      Output& out = outputs_[name];
      out.type = fl.type;
      info[name] = ConnectorInfo{fl.type, 0, false};
    }
    structs_[conn] = layout;
    return Status::success();
  }

  Status write_target(const Target& tg, TypedValue v) {
    if (tg.tasklet_edge >= 0) {
      auto& slot = se_.edge_values[tg.tasklet_edge];
      if (!slot.first) {
        slot.first = f_.entry_alloca(storage_type(f_.mc.ctx, v.type), "edge");
        slot.second = v.type;
      }
      store_scalar(f_.b, convert_typed(f_.b, v, slot.second), slot.first);
      return Status::success();
    }
    if (tg.queue) {
      emit_stream_push(f_, tg.queue, v, tg.elem);
      return Status::success();
    }
    return write_element(tg, tg.ptr, v);
  }

  // One element popped from a stream when the tasklet starts (a zero if the stream is empty:
  // DaCe would block forever there).
  Status pop_input(int e, const std::string& conn, const DataBinding& d, const sym::Subset& subset, bool indexed,
                   ScalarType ty, Input& in, std::map<std::string, ConnectorInfo>& info) {
    if (indexed)
      return make_error(Code::Unsupported, se_.where_edge(e) + ": stream connector \"" + conn + "\" cannot be indexed");
    Result<llvm::Value*> q = stream_queue(f_, d, subset);
    if (!q) return make_error(q.error().code, se_.where_edge(e) + ": " + q.error().message);
    ScalarType elem = d.desc->dtype.scalar;
    llvm::AllocaInst* slot = f_.entry_alloca(storage_type(f_.mc.ctx, elem), conn + ".popped");
    f_.b.CreateStore(llvm::Constant::getNullValue(slot->getAllocatedType()), slot);
    emit_stream_pop(f_, *q, slot, elem);
    in.value = convert_typed(f_.b, load_scalar(f_.b, slot, elem, conn.c_str()), ty);
    inputs_[conn] = in;
    info[conn] = ConnectorInfo{ty, 0, false};
    return Status::success();
  }

  Status write_element(const Target& tg, llvm::Value* ptr, TypedValue v) {
    if (tg.wcr) return emit_wcr_update(f_, *tg.wcr, ptr, v, tg.elem, tg.atomic);
    store_scalar(f_.b, convert_typed(f_.b, v, tg.elem), ptr);
    return Status::success();
  }

  Status assign(const Expr& target, TypedValue v) {
    if (const Name* n = target.as<Name>()) {
      if (auto l = locals_.find(n->id); l != locals_.end()) {
        store_scalar(f_.b, convert_typed(f_.b, v, l->second.second), l->second.first);
        return Status::success();
      }
      auto o = outputs_.find(n->id);
      if (o == outputs_.end() || !o->second.scalar)
        return make_error(Code::InvalidSdfg, se_.where(node_) + ": cannot assign to \"" + n->id + "\"");
      Output& out = o->second;
      TypedValue cv = convert_typed(f_.b, v, out.type);
      store_scalar(f_.b, cv, out.local);
      if (out.dynamic)
        for (const Target& tg : out.targets) DACE_TRY(write_target(tg, cv));
      return Status::success();
    }
    if (const Subscript* s = target.as<Subscript>()) {
      const Name* base = s->value ? s->value->as<Name>() : nullptr;
      auto o = base ? outputs_.find(base->id) : outputs_.end();
      if (o == outputs_.end() || o->second.scalar || o->second.targets.empty())
        return make_error(Code::InvalidSdfg, se_.where(node_) + ": cannot assign to this subscript");
      ExprEmitter em(f_.b, *this);
      auto addr = em.address_of(target);
      if (!addr) return fail(addr.error());
      return write_element(o->second.targets[0], addr->first, v);
    }
    return make_error(Code::InvalidSdfg, se_.where(node_) + ": unsupported assignment target");
  }

  Status body(const std::vector<StmtPtr>& stmts) {
    for (const StmtPtr& s : stmts) {
      if (!s) continue;
      DACE_TRY(statement(*s));
    }
    return Status::success();
  }

  Status statement(const Stmt& s) {
    ExprEmitter em(f_.b, *this);
    if (const Assign* a = s.as<Assign>()) {
      Result<TypedValue> v = em.emit(*a->value);
      if (!v) return fail(v.error());
      for (const ExprPtr& t : a->targets) DACE_TRY(assign(*t, *v));
      return Status::success();
    }
    if (const AugAssign* a = s.as<AugAssign>()) {
      Result<TypedValue> cur = em.emit(*a->target);
      if (!cur) return fail(cur.error());
      Result<TypedValue> v = em.emit(*a->value);
      if (!v) return fail(v.error());
      ScalarType rt = augmented_type(a->op, cur->type, *a->value);
      std::optional<int64_t> ce;
      if (a->op == BinOpKind::Pow) ce = constant_integer(*a->value);
      Result<TypedValue> r = binary_op(f_.b, a->op, *cur, *v, rt, ce);
      if (!r) return fail(r.error());
      return assign(*a->target, *r);
    }
    if (const If* i = s.as<If>()) {
      Result<TypedValue> test = em.emit(*i->test);
      if (!test) return fail(test.error());
      llvm::LLVMContext& ctx = f_.mc.ctx;
      llvm::BasicBlock* then_bb = llvm::BasicBlock::Create(ctx, "if.then", f_.fn);
      llvm::BasicBlock* else_bb = llvm::BasicBlock::Create(ctx, "if.else", f_.fn);
      llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "if.end", f_.fn);
      f_.b.CreateCondBr(truthy(f_.b, *test), then_bb, else_bb);
      f_.b.SetInsertPoint(then_bb);
      DACE_TRY(body(i->body));
      f_.b.CreateBr(done);
      f_.b.SetInsertPoint(else_bb);
      DACE_TRY(body(i->orelse));
      f_.b.CreateBr(done);
      f_.b.SetInsertPoint(done);
      return Status::success();
    }
    if (const ExprStmt* x = s.as<ExprStmt>()) {
      if (!x->value) return Status::success();
      Result<TypedValue> v = em.emit(*x->value);
      if (!v) return fail(v.error());
      return Status::success();
    }
    return Status::success();  // pass
  }

  StateEmitter& se_;
  Frame& f_;
  int node_;
  std::map<std::string, Input> inputs_;
  std::map<std::string, Output> outputs_;
  std::map<std::string, StructOutput> struct_outputs_;
  StructConnectors structs_;
  std::map<std::string, std::pair<llvm::AllocaInst*, ScalarType>> locals_;
};

}  // namespace

Status emit_tasklet(StateEmitter& se, int node) { return TaskletEmitter(se, node).run(); }

}  // namespace dace::codegen
