#include "lowering/schedule.h"

#include "codegen/loops.h"
#include "codegen/map_emit.h"
#include "codegen/plugin_nodes.h"
#include "codegen/target_lowering.h"
#include "lowering/common.h"

namespace dace::mpi {

namespace {

using codegen::Frame;
using codegen::StateEmitter;
using codegen::SymbolBinding;

// Binds an i64 value as a symbol of the current scope (map parameters, rank and size).
void bind_i64(StateEmitter& se, const std::string& name, llvm::Value* v) {
  se.f->bind_symbol(name, SymbolBinding{v, ScalarType::Int64, false});
  se.scope_symbols[name] = ScalarType::Int64;
}

// Calls a runtime function filling two i64 (out[0], out[1]); a failure records the
// runtime's message, prefixed with the map's path, and leaves the function.
std::pair<llvm::Value*, llvm::Value*> call_pair(Frame& f, llvm::Value* state, const std::string& name,
                                                std::vector<llvm::Value*> args, const std::string& where) {
  llvm::Type* pair = llvm::ArrayType::get(f.b.getInt64Ty(), 2);
  llvm::AllocaInst* out = f.entry_alloca(pair, "mpi.map.out");
  args.push_back(out);
  record_if_failed(f, call_runtime(f, name, args), state, where, nullptr);
  return {f.b.CreateLoad(f.b.getInt64Ty(), f.b.CreateConstInBoundsGEP2_64(pair, out, 0, 0), name + ".0"),
          f.b.CreateLoad(f.b.getInt64Ty(), f.b.CreateConstInBoundsGEP2_64(pair, out, 0, 1), name + ".1")};
}

// The rank and size inside an MPI map: those the program entry bound when the SDFG declares
// the symbols (lower_state_entry, program_state.cpp), or an enclosing MPI map bound, found
// through this frame and its callers; else fetched here.
std::pair<llvm::Value*, llvm::Value*> comm_info(Frame& f, llvm::Value* state, const std::string& where) {
  Result<llvm::Value*> rank = f.symbol_i64("__dace_comm_rank");
  Result<llvm::Value*> size = f.symbol_i64("__dace_comm_size");
  if (rank && size) return {*rank, *size};
  return call_pair(f, state, "dace_mpi_comm_info", {state}, where);
}

}  // namespace

Status MpiSchedule::lower_scope(codegen::ScopeContext& context) const {
  StateEmitter& se = context.se;
  const ir::MapScope& map = context.map;
  const int entry = context.entry;
  auto body = [&]() { return codegen::emit_map_body(se, entry); };
  if (map.params.empty()) return codegen::emit_map_loops(se, map, 0, body);
  if (map.range.dims.size() < map.params.size())
    return make_error(Code::InvalidSdfg, se.where(entry) + ": map has fewer ranges than parameters");
  Frame& f = *se.f;
  const std::string where = se.where(entry);
  llvm::Value* state = codegen::load_program_state(f, kStateKey);
  auto [rank, size] = comm_info(f, state, where);
  f.push_scope();
  auto saved = se.scope_symbols;
  bind_i64(se, "__dace_comm_rank", rank);
  bind_i64(se, "__dace_comm_size", size);
  Status s = [&]() -> Status {
    // The outermost range may use the size (MPITransformMap's tile size N / __dace_comm_size);
    // the runtime checks its step before anything divides by it.
    const sym::Range& r = map.range.dims.at(0);
    Result<codegen::RangeValues> v = codegen::range_values(f, r);
    if (!v) return v.take_error();
    // A step computed from the size is MPITransformMap's tile size: one tile per rank.
    const bool tiles = sym::free_symbols(r.step).count("__dace_comm_size") > 0;
    auto [first, count] = call_pair(f, state, "dace_mpi_map_block",
                                    {state, v->start, v->end, v->step, f.b.getInt32(tiles ? 1 : 0)}, where);
    codegen::CountedLoop loop = codegen::begin_loop(f.b, first, f.b.CreateAdd(first, count), map.params[0] + ".rank");
    llvm::Value* param = f.b.CreateAdd(v->start, f.b.CreateMul(loop.iv, v->step), map.params[0]);
    f.push_scope();
    bind_i64(se, map.params[0], param);
    Status inner = codegen::emit_map_loops(se, map, 1, body);
    f.pop_scope();
    if (!inner.ok()) return inner;
    codegen::end_loop(f.b, loop);
    return Status::success();
  }();
  se.scope_symbols = saved;
  f.pop_scope();
  return s;
}

}  // namespace dace::mpi
