// Nested SDFGs: the inner SDFG becomes an internal function taking a pointer per connector
// (to the first element of the outer memlet's subset) and the inner symbols, computed from
// the symbol mapping at the call site. Being internal with one call site, LLVM inlines it.
#include <set>

#include "analysis/arguments.h"
#include "codegen/addressing.h"
#include "codegen/interstate.h"
#include "codegen/node_emit.h"
#include "codegen/sdfg_function.h"
#include "ir/path.h"

namespace dace::codegen {

Status emit_nested_sdfg(StateEmitter& se, int node) {
  Frame& outer = *se.f;
  ModuleContext& mc = outer.mc;
  const auto& n = static_cast<const ir::NestedSDFGNode&>(*se.state.node(node));
  if (!n.sdfg) return make_error(Code::InvalidSdfg, se.where(node) + ": nested SDFG is missing");
  const ir::SDFG& inner = *n.sdfg;

  SdfgContext isc{inner, ir::path_of(inner), {}, {}, {}, &outer.sc, {}};
  isc.function_prefix = outer.sc.function_prefix + "_" + (inner.name.empty() ? std::string("nested") : inner.name);
  DACE_TRY(init_sdfg_context(isc, false, mc.options.registry));

  std::set<std::string> conns;
  for (const auto& [c, t] : n.in_connectors) conns.insert(c);
  for (const auto& [c, t] : n.out_connectors) conns.insert(c);
  std::set<std::string> syms;
  for (const std::string& s : analysis::free_symbols(inner))
    if (!conns.count(s) && !inner.arrays.count(s)) syms.insert(s);
  for (const auto& [s, e] : n.symbol_mapping)
    if (!conns.count(s) && !inner.arrays.count(s)) syms.insert(s);

  std::vector<llvm::Type*> params;
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  for (size_t i = 0; i < conns.size(); ++i) params.push_back(ptr);
  std::vector<ScalarType> sym_types;
  for (const std::string& s : syms) {
    ScalarType t = isc.symbol_types.count(s) ? isc.symbol_types.at(s) : ScalarType::Int64;
    sym_types.push_back(t);
    params.push_back(storage_type(mc.ctx, t));
  }
  auto* fty = llvm::FunctionType::get(llvm::Type::getVoidTy(mc.ctx), params, false);
  llvm::Function* fn = llvm::Function::Create(fty, llvm::Function::InternalLinkage, mc.unique_name(isc.function_prefix), mc.module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);

  bool inner_may_fail = false;
  {
    Frame f(mc, isc, fn, nullptr, outer.parallel_context);
    size_t i = 0;
    for (const std::string& c : conns) {
      llvm::Argument* a = fn->getArg(static_cast<unsigned>(i++));
      a->setName(c);
      auto d = inner.arrays.find(c);
      if (d == inner.arrays.end())
        return make_error(Code::InvalidSdfg, se.where(node) + ": connector \"" + c + "\" has no data container inside");
      bool input_only = n.in_connectors.count(c) && !n.out_connectors.count(c);
      llvm::Value* base = a;
      if (input_only && d->second.kind == ir::DataKind::Scalar) {
        // A scalar input is a copy: writes inside must not reach the caller's data.
        llvm::AllocaInst* copy = f.entry_alloca(storage_type(mc.ctx, d->second.dtype.scalar), c);
        f.b.CreateStore(f.b.CreateLoad(storage_type(mc.ctx, d->second.dtype.scalar), a), copy);
        base = copy;
      }
      f.bind_data(c, DataBinding{base, &d->second, false});
    }
    size_t k = 0;
    for (const std::string& s : syms) {
      llvm::Argument* a = fn->getArg(static_cast<unsigned>(i++));
      a->setName(s);
      ScalarType t = sym_types[k++];
      llvm::Value* v = a;
      if (t == ScalarType::Bool) v = f.b.CreateICmpNE(a, f.b.getInt8(0));
      f.bind_symbol(s, SymbolBinding{v, t, false});
    }
    DACE_TRY(emit_sdfg_body(f));
    inner_may_fail = f.may_fail;
  }

  // The call, in the enclosing frame.
  std::vector<llvm::Value*> args;
  for (const std::string& c : conns) {
    int e = se.in_edge_at(node, c);
    if (e < 0) e = se.out_edge_at(node, c);
    llvm::Value* p = llvm::ConstantPointerNull::get(llvm::PointerType::getUnqual(mc.ctx));
    if (e >= 0 && !se.state.edge(e)->memlet.is_empty()) {
      const ir::Memlet& m = se.state.edge(e)->memlet;
      Result<DataBinding> d = outer.data(m.data);
      if (!d) return d.take_error();
      sym::Subset subset = m.subset.rank() ? m.subset : full_subset(*d->desc);
      Result<llvm::Value*> sp = subset_pointer(outer, *d, subset);
      if (!sp) return sp.take_error();
      p = *sp;
    }
    args.push_back(p);
  }
  size_t k = 0;
  for (const std::string& s : syms) {
    ScalarType t = sym_types[k++];
    auto m = n.symbol_mapping.find(s);
    TypedValue v;
    if (m != n.symbol_mapping.end() && m->second) {
      // An identity mapping keeps the outer symbol's own type (it may not be an integer).
      if (m->second->op == sym::Op::Symbol && outer.find_symbol(m->second->name)) {
        Result<TypedValue> o = outer.symbol(m->second->name);
        if (!o) return o.take_error();
        v = *o;
      } else {
        Result<llvm::Value*> x = outer.sym(m->second);
        if (!x) return x.take_error();
        v = TypedValue{*x, ScalarType::Int64};
      }
    } else {
      Result<TypedValue> o = outer.symbol(s);
      if (!o) return o.take_error();
      v = *o;
    }
    llvm::Value* cv = convert(outer.b, v, t);
    if (t == ScalarType::Bool) cv = outer.b.CreateZExt(cv, outer.b.getInt8Ty());
    args.push_back(cv);
  }
  outer.b.CreateCall(fn, args);
  if (inner_may_fail) outer.leave_if_status_failed();
  return Status::success();
}

}  // namespace dace::codegen
