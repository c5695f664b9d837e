#include "codegen/interstate.h"

#include "analysis/arguments.h"
#include "codegen/addressing.h"
#include "codegen/allocation.h"
#include "codegen/bounds_check.h"
#include "ir/path.h"
#include "ir/tasklet/parser.h"

namespace dace::codegen {

namespace {

std::map<std::string, tasklet::ConnectorInfo> container_infos(const SdfgContext& sc) {
  std::map<std::string, tasklet::ConnectorInfo> out;
  for (const auto& [name, d] : sc.sdfg.arrays) {
    if (sc.symbol_types.count(name)) continue;
    tasklet::ConnectorInfo info;
    info.type = d.dtype.scalar;
    info.rank = d.kind == ir::DataKind::Scalar ? 0 : static_cast<int>(d.shape.size());
    info.is_stream = d.kind == ir::DataKind::Stream;
    out[name] = info;
  }
  return out;
}

Result<tasklet::ExprPtr> typed_expression(const std::map<std::string, ScalarType>& symbols,
                                          const std::map<std::string, tasklet::ConnectorInfo>& arrays,
                                          const std::string& code) {
  Result<tasklet::ExprPtr> parsed = tasklet::parse_expression(code);
  if (!parsed) return parsed.take_error();
  return tasklet::typecheck_expression(**parsed, arrays, symbols);
}

void collect_assignments(const ir::ControlFlowRegion& r, std::vector<std::pair<std::string, std::string>>& out,
                         std::set<std::string>& loop_vars, int depth) {
  if (depth > 256) return;
  for (int slot : r.edge_slots())
    for (const auto& a : r.edge(slot)->assignments) out.push_back(a);
  for (int slot : r.block_slots()) {
    const ir::ControlFlowBlock* b = r.block(slot);
    if (b->kind == ir::BlockKind::Loop) {
      const auto& loop = static_cast<const ir::LoopRegion&>(*b);
      if (!loop.loop_variable.empty()) loop_vars.insert(loop.loop_variable);
      for (const ir::CodeBlock* stmt : {&loop.init_statement, &loop.update_statement}) {
        if (stmt->code.empty()) continue;
        Result<tasklet::Assignment> a = tasklet::parse_assignment(stmt->code);
        if (a && a->target != loop.loop_variable) loop_vars.insert(a->target);
      }
    }
    if (b->kind == ir::BlockKind::Region || b->kind == ir::BlockKind::Loop)
      collect_assignments(static_cast<const ir::ControlFlowRegion&>(*b), out, loop_vars, depth + 1);
    if (b->kind == ir::BlockKind::Conditional)
      for (const auto& [cond, body] : static_cast<const ir::ConditionalBlock&>(*b).branches)
        if (body) collect_assignments(*body, out, loop_vars, depth + 1);
  }
}

}  // namespace

Result<TypedValue> FrameEnv::read(const std::string& name) {
  if (f_.find_symbol(name) || f_.sc.symbol_types.count(name) || !f_.sc.sdfg.arrays.count(name))
    return f_.symbol(name);
  Result<DataBinding> d = f_.data(name);
  if (!d) return d.take_error();
  return load_scalar(f_.b, d->base, d->desc->dtype.scalar, name.c_str());
}

Result<ArrayRef> FrameEnv::array(const std::string& name) {
  Result<DataBinding> d = f_.data(name);
  if (!d) return d.take_error();
  std::vector<size_t> dims;
  for (size_t i = 0; i < d->desc->shape.size(); ++i) dims.push_back(i);
  sym::Subset zero;
  for (size_t i = 0; i < d->desc->shape.size(); ++i)
    zero.dims.push_back(sym::Range{sym::integer(0), sym::integer(0), sym::integer(1), sym::integer(1)});
  Result<ArrayRef> ref = subset_array_ref(f_, *d, zero, dims);
  if (!ref) return ref;
  const bool checked = d->desc->kind == ir::DataKind::Array || d->desc->kind == ir::DataKind::View;
  if (!f_.mc.options.bounds_check || !checked) return ref;
  // Every index position of the container is checked against its whole extent: the code
  // indexes the container itself, not a memlet's view of it.
  for (const sym::Expr& extent : d->desc->shape) {
    if (!extent) return make_error(Code::InvalidSdfg, ir::path_of_data(f_.sc.sdfg, name) + ": shape has a null expression");
    Result<llvm::Value*> v = f_.sym(extent);
    if (!v) return v.take_error();
    ref->extents.push_back(*v);
  }
  ref->label = where_ + ", array " + ir::quoted(name);
  return ref;
}

Status FrameEnv::check_indices(const ArrayRef& ref, const std::vector<llvm::Value*>& indices) {
  return emit_index_checks(f_, ref.label, indices, ref.extents);
}

Result<tasklet::ExprPtr> typed_interstate_expression(const SdfgContext& sc, const std::string& code) {
  Result<tasklet::ExprPtr> e = typed_expression(sc.symbol_types, container_infos(sc), code);
  if (!e) return make_error(e.error().code, sc.path + ": in \"" + code + "\": " + e.error().message);
  return e;
}

Result<TypedValue> emit_interstate_expression(Frame& f, const std::string& code, const std::string& where) {
  Result<tasklet::ExprPtr> e = typed_interstate_expression(f.sc, code);
  if (!e) return e.take_error();
  FrameEnv env(f, where);
  ExprEmitter em(f.b, env);
  Result<TypedValue> v = em.emit(**e);
  if (!v) return make_error(v.error().code, f.sc.path + ": in \"" + code + "\": " + v.error().message);
  return v;
}

Result<llvm::Value*> emit_condition(Frame& f, const std::string& code, const std::string& where) {
  std::string c = code;
  while (!c.empty() && (c.back() == ' ' || c.back() == '\n')) c.pop_back();
  if (c.empty() || c == "1" || c == "True" || c == "true") return f.b.getInt1(true);
  if (c == "0" || c == "False" || c == "false") return f.b.getInt1(false);
  Result<TypedValue> v = emit_interstate_expression(f, c, where + " condition " + ir::quoted(c));
  if (!v) return v.take_error();
  return truthy(f.b, *v);
}

Status emit_assignment(Frame& f, const std::string& target, const std::string& value_code, const std::string& where) {
  Result<TypedValue> v = emit_interstate_expression(f, value_code, where + " assignment " + ir::quoted(target + " = " + value_code));
  if (!v) return v.take_error();
  if (const SymbolBinding* s = f.find_symbol(target)) {
    if (!s->addressable)
      return make_error(Code::InvalidSdfg, f.sc.path + ": symbol \"" + target + "\" cannot be assigned here");
    store_scalar(f.b, convert_typed(f.b, *v, s->type), s->value);
    return Status::success();
  }
  if (f.sc.sdfg.arrays.count(target)) {
    Result<DataBinding> d = f.data(target);
    if (!d) return d.take_error();
    store_scalar(f.b, convert_typed(f.b, *v, d->desc->dtype.scalar), d->base);
    return Status::success();
  }
  return make_error(Code::InvalidSdfg, f.sc.path + ": assignment to unknown symbol \"" + target + "\"");
}

Status emit_statement(Frame& f, const std::string& code, const std::string& where) {
  if (code.empty()) return Status::success();
  Result<tasklet::Assignment> a = tasklet::parse_assignment(code);
  if (!a) return make_error(a.error().code, f.sc.path + ": in \"" + code + "\": " + a.error().message);
  Result<tasklet::ExprPtr> typed = tasklet::typecheck_expression(*a->value, container_infos(f.sc), f.sc.symbol_types);
  if (!typed) return make_error(typed.error().code, f.sc.path + ": in \"" + code + "\": " + typed.error().message);
  FrameEnv env(f, where + " " + ir::quoted(code));
  ExprEmitter em(f.b, env);
  Result<TypedValue> v = em.emit(**typed);
  if (!v) return make_error(v.error().code, f.sc.path + ": in \"" + code + "\": " + v.error().message);
  const SymbolBinding* s = f.find_symbol(a->target);
  if (!s || !s->addressable)
    return make_error(Code::InvalidSdfg, f.sc.path + ": \"" + a->target + "\" in \"" + code + "\" is not an assignable symbol");
  store_scalar(f.b, convert_typed(f.b, *v, s->type), s->value);
  return Status::success();
}

Status init_sdfg_context(SdfgContext& sc, bool top_level, const plugin::Registry* registry) {
  const ir::SDFG& sdfg = sc.sdfg;
  for (const auto& [name, t] : sdfg.symbols) {
    // DaCe falls back to the Python interpreter for calls it cannot lower (np.any, ...): the
    // callee becomes a symbol of type "callback" called from a side-effect tasklet. Compiled
    // code has no interpreter to call; refuse here, naming the symbol, instead of failing later
    // on an unknown function in the tasklet.
    if (t.raw_json->find("\"type\":\"callback\"") != std::string::npos)
      return make_error(Code::Unsupported, ir::path_of_symbol(sdfg, name) +
                                               ": Python callback (DaCe calls back into the interpreter for it) "
                                               "cannot be compiled: libdace has no Python interpreter");
    sc.symbol_types[name] = t.scalar == ScalarType::Unknown ? ScalarType::Int64 : t.scalar;
  }
  for (const auto& [name, c] : sdfg.constants)
    sc.symbol_types[name] = c.dtype.scalar == ScalarType::Unknown ? ScalarType::Float64 : c.dtype.scalar;
  // Free symbols the SDFG does not declare are integers (DaCe's default symbol type).
  for (const std::string& s : analysis::free_symbols(sdfg))
    if (!sc.symbol_types.count(s)) sc.symbol_types[s] = ScalarType::Int64;
  std::vector<std::pair<std::string, std::string>> assignments;
  std::set<std::string> loop_vars;
  collect_assignments(sdfg, assignments, loop_vars, 0);
  for (const std::string& v : loop_vars) {
    sc.assigned_symbols.insert(v);
    if (!sc.symbol_types.count(v)) sc.symbol_types[v] = ScalarType::Int64;
  }
  // Undeclared assigned symbols take the type of their first assignment's value.
  for (const auto& [target, value] : assignments) {
    if (sdfg.arrays.count(target)) continue;
    sc.assigned_symbols.insert(target);
    if (sc.symbol_types.count(target)) continue;
    std::map<std::string, ScalarType> known = sc.symbol_types;
    Result<tasklet::ExprPtr> e = typed_expression(known, container_infos(sc), value);
    ScalarType t = e ? (*e)->type : ScalarType::Int64;
    if (t == ScalarType::Unknown || t == ScalarType::Bool) t = ScalarType::Int64;
    sc.symbol_types[target] = t;
  }
  Result<AllocationPlan> plan = plan_allocations(sdfg, sc.assigned_symbols, top_level, registry);
  if (!plan) return plan.take_error();
  sc.plan = std::move(*plan);
  return Status::success();
}

}  // namespace dace::codegen
