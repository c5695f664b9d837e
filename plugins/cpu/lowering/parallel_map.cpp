// CPU_Multicore maps (DESIGN.md §6, lowered by the CPU plugin): the body is outlined into
//   void body(void* closure, int64_t begin, int64_t end)
// iterating a chunk of the flattened collapsed dimensions, and the map becomes one call of
// the CPU runtime's parallel_for. Values the body needs from the enclosing function are
// captured lazily into an array of 8-byte slots (the closure); a wider value (a complex
// symbol) takes consecutive slots.
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>

#include <set>

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/private_captures.h"
#include "codegen/target_lowering.h"
#include "lowering/multicore.h"

namespace dace::cpu {

using codegen::begin_loop;
using codegen::CountedLoop;
using codegen::end_loop;
using codegen::Frame;
using codegen::ModuleContext;
using codegen::ScalarType;
using codegen::StateEmitter;
using codegen::SymbolBinding;

namespace {

using DimValues = codegen::MapDimension;
using codegen::map_dimensions;

// The CPU runtime's codes (plugins/cpu/runtime/dace_cpu_runtime.h): 0 static, 1 dynamic,
// 2 guided. DaCe's Default schedule is OpenMP's default, static (map_schedule may pick dynamic).
int32_t schedule_code(ir::OmpSchedule s) {
  switch (s) {
    case ir::OmpSchedule::Default:
    case ir::OmpSchedule::Static: return 0;
    case ir::OmpSchedule::Dynamic: return 1;
    case ir::OmpSchedule::Guided: return 2;
  }
  return 0;
}

llvm::FunctionCallee parallel_for_fn(ModuleContext& mc, const std::string& symbol) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(mc.ctx);
  llvm::Type* i32 = llvm::Type::getInt32Ty(mc.ctx);
  return mc.module.getOrInsertFunction(
      symbol, llvm::FunctionType::get(llvm::Type::getVoidTy(mc.ctx), {ptr, ptr, i64, i64, i64, i32, i32}, false));
}

llvm::FunctionCallee vendor_threads_begin_fn(ModuleContext& mc) {
  llvm::Type* i64 = llvm::Type::getInt64Ty(mc.ctx);
  llvm::Type* i32 = llvm::Type::getInt32Ty(mc.ctx);
  return mc.module.getOrInsertFunction("dace_cpu_vendor_threads_begin", llvm::FunctionType::get(i32, {i64, i32}, false));
}

llvm::FunctionCallee vendor_threads_end_fn(ModuleContext& mc) {
  llvm::Type* i32 = llvm::Type::getInt32Ty(mc.ctx);
  return mc.module.getOrInsertFunction("dace_cpu_vendor_threads_end",
                                       llvm::FunctionType::get(llvm::Type::getVoidTy(mc.ctx), {i32}, false));
}

llvm::Function* body_function(ModuleContext& mc, const std::string& base) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(mc.ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(mc.ctx);
  auto* fty = llvm::FunctionType::get(llvm::Type::getVoidTy(mc.ctx), {ptr, i64, i64}, false);
  llvm::Function* fn = llvm::Function::Create(fty, llvm::Function::InternalLinkage, mc.unique_name(base), mc.module);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  // The body exists once: the small-map path calls it directly instead of getting an inlined
  // copy of its (vectorized) loops, which doubled the optimized code of map-heavy programs
  // (NPBench heat_3d: 9372 -> 5673 instructions) and the time to compile it. The call costs
  // nanoseconds next to the map's work. It also lets parallel code generation (jit/split.h)
  // place bodies in other pieces without changing what gets inlined.
  fn->addFnAttr(llvm::Attribute::NoInline);
  fn->getArg(0)->setName("closure");
  fn->getArg(1)->setName("begin");
  fn->getArg(2)->setName("end");
  return fn;
}

// Forking and joining a thread team costs microseconds (tens of them when idle workers
// sleep); a map over few cheap points (NPBench syrk: row updates inside two sequential
// loops; small stencils in a time loop) is done sooner inline. Estimated work = points of
// the whole map x instructions of the innermost loop body.
constexpr int64_t kInlineWork = 16384;

// Instructions of one innermost iteration when `kernel` is a perfect chain of `depth` loops
// (the map's own dimensions) calling no other function of the module (nested SDFGs,
// library expansions, outlined scopes); 0 when the body is anything else.
int64_t point_cost(llvm::Function* kernel, size_t depth) {
  if (!kernel || kernel->empty()) return 0;
  llvm::DominatorTree dt(*kernel);
  llvm::LoopInfo loops(dt);
  auto top = loops.getTopLevelLoops();
  if (top.size() != 1) return 0;
  llvm::Loop* innermost = top.front();
  size_t found = 1;
  while (!innermost->getSubLoops().empty()) {
    if (innermost->getSubLoops().size() != 1) return 0;
    innermost = innermost->getSubLoops().front();
    ++found;
  }
  if (found != depth) return 0;
  int64_t cost = 0;
  for (llvm::BasicBlock& bb : *kernel) {
    const bool inner = innermost->contains(&bb);
    for (llvm::Instruction& inst : bb) {
      cost += inner;
      auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
      if (!call) continue;
      llvm::Function* callee = call->getCalledFunction();
      if (!callee || (!callee->isIntrinsic() && !callee->isDeclaration())) return 0;
      if (inner && !callee->isIntrinsic()) cost += 32;  // a math library call
    }
  }
  return cost;
}

// The runtime schedule of a map: the one it names, else (DaCe's Default, OpenMP's default,
// implementation-defined) static blocks for a flat body and the dynamic schedule with the
// runtime's default piece size (an eighth of a member's share) for coarse iterations: a body
// that calls a nested SDFG, a library or an outlined scope, or nests loops of its own. With
// one block per member, a helper that joins late or is preempted inside its block holds half
// of such work while the caller waits: NPBench doitgen (one dgemm per iteration of a map over
// r) at S ran slower on 2 threads than on one on the loaded 2-core VM, the helper running
// 15-18 % of the dgemm samples; with dynamic pieces 27-29 %, and a preempted helper holds one
// small piece. Which indices each body call runs changes, not what they compute.
// `cost` is point_cost(kernel, depth), computed once per map by the caller.
// Whether `fn` or a function of the module it calls (an outlined scope, a nested SDFG) calls
// the BLAS or LAPACKE vendor library.
bool calls_vendor_library(llvm::Function* fn, std::set<llvm::Function*>& seen) {
  if (!seen.insert(fn).second) return false;
  for (llvm::BasicBlock& bb : *fn)
    for (llvm::Instruction& inst : bb)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst))
        if (llvm::Function* callee = call->getCalledFunction()) {
          llvm::StringRef name = callee->getName();
          if (name.starts_with("cblas_") || name.starts_with("LAPACKE_")) return true;
          if (!callee->isDeclaration() && calls_vendor_library(callee, seen)) return true;
        }
  return false;
}

bool calls_vendor_library(llvm::Function* fn) {
  std::set<llvm::Function*> seen;
  return calls_vendor_library(fn, seen);
}

bool coarse_iterations(llvm::Function* kernel, int64_t cost) {
  // DaCe's OpenBLAS/LAPACKE tasklets (cblas_tasklet.cpp, lapacke_tasklet.cpp) call the vendor
  // library straight from the map's body, which point_cost counts as a cheap math call.
  return cost == 0 || calls_vendor_library(kernel);
}

int32_t map_schedule(const ir::MapScope& map, llvm::Function* kernel, int64_t cost) {
  if (map.omp_schedule != ir::OmpSchedule::Default || map.omp_chunk_size > 0) return schedule_code(map.omp_schedule);
  return coarse_iterations(kernel, cost) ? schedule_code(ir::OmpSchedule::Dynamic) : schedule_code(map.omp_schedule);
}

// Number of points of all of a map's dimensions, evaluated before the map: `total` (the
// collapsed dimensions' points, already computed) times the other dimensions' counts
// (nullptr when a range needs values only the body has, e.g. dynamic map range connectors).
llvm::Value* map_points(Frame& outer, const ir::MapScope& map, size_t ncollapse, llvm::Value* total) {
  Result<std::vector<DimValues>> dims = map_dimensions(outer, map, map.params.size(), ncollapse);
  if (!dims) return nullptr;
  llvm::Value* points = total;
  for (const DimValues& d : *dims) points = codegen::mul_index(outer.b, points, d.count, "map.points");
  return points;
}

// Fills the closure with the body's captures, right before the call, and calls the runtime.
// threads == 0 takes the program's default (LowerOptions::default_num_threads).
// `points_of` and `point_work` describe the whole iteration space for the inline-or-fork
// decision: its number of points (emitted only when that decision is made; nullptr: unknown
// before the map) and the kernel's point_cost (0: never inline).
Status call_runtime(const std::string& entry, Frame& outer, Frame& body, llvm::Function* fn, llvm::Value* total,
                    int64_t chunk, int32_t schedule, int64_t threads, const std::function<llvm::Value*()>& points_of,
                    int64_t point_work, bool vendor_calls) {
  ModuleContext& mc = outer.mc;
  // Maps that name their thread count keep their team whatever their size.
  const bool may_inline = threads <= 0 && mc.options.inline_small_parallel_maps;
  const int64_t cost = may_inline ? point_work : 0;
  llvm::Value* points = cost > 0 ? points_of() : nullptr;
  if (threads <= 0) threads = mc.options.default_num_threads;
  llvm::Type* i64 = llvm::Type::getInt64Ty(mc.ctx);
  size_t n = std::max<size_t>(1, body.closure_slots());
  llvm::AllocaInst* closure = outer.entry_alloca(llvm::ArrayType::get(i64, n), "closure");
  closure->setAlignment(llvm::Align(16));
  for (const Frame::Capture& c : body.captures) {
    llvm::Value* slot = outer.b.CreateConstInBoundsGEP1_64(i64, closure, c.slot);
    outer.b.CreateStore(c.outer, slot);
  }
  llvm::BasicBlock* done = nullptr;
  if (points) {
    llvm::Function* parent = outer.b.GetInsertBlock()->getParent();
    llvm::BasicBlock* inline_bb = llvm::BasicBlock::Create(mc.ctx, "map.inline", parent);
    llvm::BasicBlock* team_bb = llvm::BasicBlock::Create(mc.ctx, "map.team", parent);
    done = llvm::BasicBlock::Create(mc.ctx, "map.done", parent);
    llvm::Value* small = outer.b.CreateICmpSLT(points, outer.b.getInt64(std::max<int64_t>(1, kInlineWork / cost)), "map.small");
    outer.b.CreateCondBr(small, inline_bb, team_bb);
    outer.b.SetInsertPoint(inline_bb);
    outer.b.CreateCall(fn, {closure, outer.b.getInt64(0), total});
    outer.b.CreateBr(done);
    outer.b.SetInsertPoint(team_bb);
  }
  llvm::Value* team = outer.b.getInt32(static_cast<int32_t>(std::clamp<int64_t>(threads, 0, 1 << 20)));
  // A body calling OpenBLAS: its own threads on top of the team's oversubscribe the cores
  // (dace_cpu_vendor_threads_begin). The inline path above keeps OpenBLAS's threads.
  llvm::Value* vendor_token = nullptr;
  if (vendor_calls) vendor_token = outer.b.CreateCall(vendor_threads_begin_fn(mc), {total, team});
  outer.b.CreateCall(parallel_for_fn(mc, entry), {fn, closure, outer.b.getInt64(0), total,
                                                  outer.b.getInt64(std::max<int64_t>(0, chunk)),
                                                  outer.b.getInt32(schedule), team});
  if (vendor_token) outer.b.CreateCall(vendor_threads_end_fn(mc), {vendor_token});
  if (done) {
    outer.b.CreateBr(done);
    outer.b.SetInsertPoint(done);
  }
  // A body that could not allocate its scope storage returned early: leave too.
  if (body.may_fail) outer.leave_if_status_failed();
  return Status::success();
}

// Moves the outlined body into `kernel(captures..., begin, end)` whose private pointers are
// `noalias`, and makes `fn` a wrapper that loads the closure and calls it. LLVM inlines the
// kernel back and keeps the no-alias facts as scoped metadata, so loops vectorize without
// runtime alias checks. Returns the kernel.
llvm::Function* split_kernel(Frame& body, llvm::Function* fn) {
  ModuleContext& mc = body.mc;
  const std::vector<bool> private_memory = codegen::private_captures(body);
  std::vector<llvm::Type*> params;
  for (const Frame::Capture& c : body.captures) params.push_back(c.load->getType());
  params.push_back(llvm::Type::getInt64Ty(mc.ctx));
  params.push_back(llvm::Type::getInt64Ty(mc.ctx));
  auto* kty = llvm::FunctionType::get(llvm::Type::getVoidTy(mc.ctx), params, false);
  llvm::Function* kernel =
      llvm::Function::Create(kty, llvm::Function::InternalLinkage, fn->getName() + ".kernel", mc.module);
  kernel->addFnAttr(llvm::Attribute::NoUnwind);
  kernel->addFnAttr(llvm::Attribute::AlwaysInline);
  kernel->splice(kernel->end(), fn);
  size_t n = body.captures.size();
  for (size_t i = 0; i < n; ++i) {
    const Frame::Capture& c = body.captures[i];
    llvm::Argument* a = kernel->getArg(static_cast<unsigned>(i));
    a->setName(c.load->getName());
    if (private_memory[i]) a->addAttr(llvm::Attribute::NoAlias);
    llvm::Instruction* gep = llvm::dyn_cast<llvm::Instruction>(llvm::cast<llvm::LoadInst>(c.load)->getPointerOperand());
    c.load->replaceAllUsesWith(a);
    c.load->eraseFromParent();
    if (gep && gep->use_empty()) gep->eraseFromParent();
  }
  fn->getArg(1)->replaceAllUsesWith(kernel->getArg(static_cast<unsigned>(n)));
  fn->getArg(2)->replaceAllUsesWith(kernel->getArg(static_cast<unsigned>(n + 1)));
  kernel->getArg(static_cast<unsigned>(n))->setName("begin");
  kernel->getArg(static_cast<unsigned>(n + 1))->setName("end");

  llvm::BasicBlock* entry = llvm::BasicBlock::Create(mc.ctx, "entry", fn);
  llvm::IRBuilder<> b(entry);
  std::vector<llvm::Value*> args;
  for (size_t i = 0; i < n; ++i) {
    llvm::Value* addr = b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), fn->getArg(0), body.captures[i].slot);
    args.push_back(b.CreateLoad(params[i], addr, body.captures[i].data.empty() ? "sym" : body.captures[i].data));
  }
  args.push_back(fn->getArg(1));
  args.push_back(fn->getArg(2));
  b.CreateCall(kernel, args);
  b.CreateRetVoid();
  return kernel;
}

Status emit_parallel_loop(const std::string& entry, StateEmitter& se, llvm::Value* total, const std::string& name,
                          const std::function<Status(llvm::Value*)>& body_fn) {
  Frame& outer = *se.f;
  llvm::Function* fn = body_function(outer.mc, outer.sc.function_prefix + "_" + name);
  Frame body(outer.mc, outer.sc, fn, &outer, true);
  body.closure = fn->getArg(0);
  se.f = &body;
  Status s = [&]() -> Status {
    CountedLoop loop = begin_loop(body.b, fn->getArg(1), fn->getArg(2), name);
    body.push_scope();
    Status inner = body_fn(loop.iv);
    body.pop_scope();
    if (!inner.ok()) return inner;
    end_loop(body.b, loop);
    body.b.CreateRetVoid();
    return Status::success();
  }();
  se.f = &outer;
  if (!s.ok()) return s;
  llvm::Function* kernel = split_kernel(body, fn);
  return call_runtime(entry, outer, body, fn, total, 0, 0, 0, [total] { return total; }, point_cost(kernel, 1),
                      calls_vendor_library(kernel));
}

Status emit_parallel_map(const std::string& runtime_entry, StateEmitter& se, int entry, const ir::MapScope& map) {
  Frame& outer = *se.f;
  ModuleContext& mc = outer.mc;
  if (map.range.dims.size() < map.params.size())
    return make_error(Code::InvalidSdfg, se.where(entry) + ": map has fewer ranges than parameters");
  size_t ncollapse = static_cast<size_t>(std::clamp<int64_t>(map.collapse, 1, static_cast<int64_t>(map.params.size())));

  // Iteration count of the collapsed dimensions, in the enclosing function.
  Result<std::vector<DimValues>> outer_dims = map_dimensions(outer, map, ncollapse);
  if (!outer_dims) return outer_dims.take_error();
  llvm::Value* total = outer.b.getInt64(1);
  for (const DimValues& d : *outer_dims) total = codegen::mul_index(outer.b, total, d.count);

  const auto& label = se.state.node(entry)->label;
  std::string base = outer.sc.function_prefix + "_map";
  if (!label.empty()) base += "_" + label.substr(0, std::min<size_t>(label.size(), 32));
  llvm::Function* fn = body_function(mc, base);

  Frame body(mc, outer.sc, fn, &outer, true);
  body.closure = fn->getArg(0);
  se.f = &body;
  auto saved_params = se.parallel_params;
  auto saved_symbols = se.scope_symbols;
  se.parallel_params.assign(map.params.begin(), map.params.begin() + static_cast<long>(ncollapse));
  Status s = [&]() -> Status {
    // Recompute the ranges inside (symbols are captured), then de-linearize the flat index.
    Result<std::vector<DimValues>> dims = map_dimensions(body, map, ncollapse);
    if (!dims) return dims.take_error();
    // Scope-local blocks once per piece, not once per point (codegen::begin_block_reuse).
    const std::vector<std::string> reused = codegen::begin_block_reuse(se, entry);
    CountedLoop loop = begin_loop(body.b, fn->getArg(1), fn->getArg(2), "par");
    llvm::Value* rest = loop.iv;
    std::vector<llvm::Value*> params(ncollapse);
    for (size_t d = ncollapse; d-- > 0;) {
      llvm::Value* idx = rest;
      if (d > 0) {
        idx = body.b.CreateSRem(rest, (*dims)[d].count);
        rest = body.b.CreateSDiv(rest, (*dims)[d].count);
      }
      params[d] = codegen::add_index(body.b, (*dims)[d].start, codegen::mul_index(body.b, idx, (*dims)[d].step),
                                     map.params[d]);
    }
    body.push_scope();
    for (size_t d = 0; d < ncollapse; ++d) {
      body.bind_symbol(map.params[d], SymbolBinding{params[d], ScalarType::Int64, false});
      se.scope_symbols[map.params[d]] = ScalarType::Int64;
    }
    Status inner = codegen::emit_map_loops(se, map, ncollapse, [&]() { return codegen::emit_map_body(se, entry); });
    body.pop_scope();
    if (!inner.ok()) return inner;
    end_loop(body.b, loop);
    codegen::end_block_reuse(se, reused);
    body.b.CreateRetVoid();
    return Status::success();
  }();
  se.f = &outer;
  se.parallel_params = saved_params;
  se.scope_symbols = saved_symbols;
  if (!s.ok()) return s;
  llvm::Function* kernel = split_kernel(body, fn);
  // One dominator-tree and loop analysis of the kernel serves the schedule and the
  // inline-or-fork decision.
  const int64_t cost = point_cost(kernel, 1 + map.params.size() - ncollapse);
  return call_runtime(runtime_entry, outer, body, fn, total, map.omp_chunk_size, map_schedule(map, kernel, cost),
                      map.omp_num_threads, [&] { return map_points(outer, map, ncollapse, total); }, cost,
                      calls_vendor_library(kernel));
}

}  // namespace

// Inside parallel code (an outlined body, a nested SDFG called from one) a CPU_Multicore map
// runs sequentially, as DaCe's OpenMP code does without nested parallelism.
Status MulticoreSchedule::lower_scope(codegen::ScopeContext& context) const {
  StateEmitter& se = context.se;
  if (se.f->parallel_context || context.map.params.empty()) {
    const std::vector<std::string> reused = codegen::begin_block_reuse(se, context.entry);
    DACE_TRY(codegen::emit_map_loops(se, context.map, 0, [&]() { return codegen::emit_map_body(se, context.entry); }));
    codegen::end_block_reuse(se, reused);
    return Status::success();
  }
  return emit_parallel_map(entry_, se, context.entry, context.map);
}

Status MulticoreSchedule::lower_parallel_loop(codegen::ParallelLoopContext& context) const {
  return emit_parallel_loop(entry_, context.se, context.total, context.name, context.body);
}

Status register_schedules(plugin::Registry& registry, const std::string& entry) {
  DACE_TRY(registry.add_schedule("CPU_Multicore", std::make_shared<MulticoreSchedule>(entry, true)));
  return registry.add_schedule("CPU_Persistent", std::make_shared<MulticoreSchedule>(entry, false));
}

}  // namespace dace::cpu
