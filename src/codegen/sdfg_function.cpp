#include "codegen/sdfg_function.h"

#include <cstdlib>

#include "codegen/allocation.h"
#include "codegen/control_flow.h"
#include "codegen/instrument_emit.h"
#include "ir/path.h"

namespace dace::codegen {

namespace {

// Constants hold JSON numbers or booleans (DaCe's constants_prop values).
Result<TypedValue> constant_value(Frame& f, const std::string& name, const ir::Constant& c) {
  ScalarType t = c.dtype.scalar == ScalarType::Unknown ? ScalarType::Float64 : c.dtype.scalar;
  std::string v = c.value_json;
  if (v == "true" || v == "false") return TypedValue{constant_int(f.b, t, v == "true" ? 1 : 0), t};
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end != '\0')
    return make_error(Code::Unsupported, f.sc.path + ": constant \"" + name + "\" (" + v + ") cannot be compiled");
  if (tasklet::is_integer(t) || tasklet::is_bool(t)) {
    long long i = std::strtoll(v.c_str(), nullptr, 10);
    return TypedValue{constant_int(f.b, t, i), t};
  }
  return TypedValue{constant_float(f.b, t, d), t};
}

}  // namespace

Status emit_sdfg_body(Frame& f) {
  const ir::SDFG& sdfg = f.sc.sdfg;
  // The SDFG's timer spans its whole body: allocations, control flow and the frees at exit.
  Result<std::optional<Timer>> timer = start_sdfg_timer(f);
  if (!timer) return timer.take_error();
  for (const auto& [name, c] : sdfg.constants) {
    Result<TypedValue> v = constant_value(f, name, c);
    if (!v) return v.take_error();
    f.bind_symbol(name, SymbolBinding{v->value, v->type, false});
  }
  // Symbols written inside the SDFG live in stack slots (mem2reg turns them into SSA).
  for (const std::string& s : f.sc.assigned_symbols) {
    ScalarType t = f.sc.symbol_types.count(s) ? f.sc.symbol_types.at(s) : ScalarType::Int64;
    llvm::AllocaInst* slot = f.entry_alloca(storage_type(f.mc.ctx, t), s);
    const SymbolBinding* arg = f.find_symbol(s);
    TypedValue init{arg ? arg->value : zero_value(f.b, t), arg ? arg->type : t};
    if (arg && arg->addressable) init = load_scalar(f.b, arg->value, arg->type);
    store_scalar(f.b, convert_typed(f.b, init, t), slot);
    f.bind_symbol(s, SymbolBinding{slot, t, true});
  }
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(f.mc.ctx, "sdfg.exit", f.fn);
  f.fail_block = exit;
  for (const auto& [name, kind] : f.sc.plan.kind) {
    if (kind == AllocKind::Reference) {
      llvm::PointerType* ptr = llvm::PointerType::getUnqual(f.mc.ctx);
      llvm::AllocaInst* slot = f.entry_alloca(ptr, name + ".ref");
      llvm::IRBuilder<> eb(f.entry_block()->getTerminator());
      eb.CreateStore(llvm::ConstantPointerNull::get(ptr), slot);
      f.reference_slots[name] = slot;
      continue;
    }
    if (kind != AllocKind::StackSlot && kind != AllocKind::FunctionHeap && kind != AllocKind::LazyHeap) continue;
    Result<std::vector<llvm::Value*>> r = allocate_container(f, name, kind, false);
    if (!r) return r.take_error();
  }
  // All function-lifetime blocks are requested before any is checked, so the exit path,
  // which frees them all (free(NULL) does nothing), is valid from the check on. They leave
  // pending_allocations before the check: the failure branch frees what is pending and then
  // goes to that exit path, which would free the allocated ones a second time.
  std::vector<llvm::Value*> function_blocks = std::move(f.pending_allocations);
  f.pending_allocations.clear();
  leave_if_any_null(f, function_blocks);
  DACE_TRY(emit_region(f, sdfg, FlowTargets{exit, nullptr, nullptr, exit}));
  f.b.SetInsertPoint(exit);
  for (auto& action : f.exit_actions) action(f.b);
  if (*timer) stop_timer(f, **timer);
  f.b.CreateRetVoid();
  return Status::success();
}

}  // namespace dace::codegen
