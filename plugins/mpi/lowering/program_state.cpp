#include "program_state.h"

#include "common.h"
#include "pblas.h"
#include "ir/tasklet/types.h"

namespace dace::mpi {

namespace {

// Whether the SDFG (nested SDFGs included) has a PBLAS node.
bool has_pblas(const ir::SDFG& sdfg) {
  for (const ir::State* st : sdfg.all_states()) {
    for (int id : st->node_ids()) {
      const ir::Node* n = st->node(id);
      if (n->kind == ir::NodeKind::Library && is_pblas_class(static_cast<const ir::LibraryNode*>(n)->classpath))
        return true;
      if (n->kind == ir::NodeKind::NestedSDFG) {
        const auto& nested = static_cast<const ir::NestedSDFGNode&>(*n);
        if (nested.sdfg && has_pblas(*nested.sdfg)) return true;
      }
    }
  }
  return false;
}

Result<llvm::Value*> expression(codegen::Frame& f, const std::string& text, const std::string& where) {
  Result<sym::Expr> e = sym::parse(text);
  if (!e) return make_error(Code::InvalidSdfg, where + ": " + ir::quoted(text) + ": " + e.error().message);
  return f.sym(*e);
}

// Checks the runtime's status: a failure records the runtime's message (the program's
// status) and ends init with a null state pointer.
void check_status(codegen::ProgramStateContext& pc, llvm::Value* status, llvm::Value* state, const std::string& where,
                  llvm::BasicBlock*& failed) {
  codegen::Frame& f = pc.frame;
  if (!failed) {
    llvm::BasicBlock* here = f.b.GetInsertBlock();
    failed = llvm::BasicBlock::Create(f.mc.ctx, "mpi.init.failed", f.fn);
    f.b.SetInsertPoint(failed);
    call_runtime(f, "dace_mpi_state_destroy", {state});
    f.b.SetInsertPoint(here);
  }
  record_if_failed(f, status, state, where, failed);
}

}  // namespace

Status lower_state_init(codegen::ProgramStateContext& pc) {
  codegen::Frame& f = pc.frame;
  const std::string where = "sdfg " + ir::quoted(pc.sdfg.name);
  Result<Distribution> dist = distribution(pc.sdfg);
  if (!dist) return dist.take_error();
  llvm::Value* state = nullptr;
  {
    std::vector<llvm::Type*> params{f.b.getInt32Ty(), f.b.getInt32Ty()};
    llvm::FunctionCallee create = pc.runtime_function(
        "dace_mpi_state_create", llvm::FunctionType::get(f.b.getPtrTy(), params, false));
    state = f.b.CreateCall(create, {f.b.getInt32(static_cast<int32_t>(dist->grids.size())),
                                    f.b.getInt32(static_cast<int32_t>(dist->subarrays.size()))});
  }
  // A null state skips everything below; the core turns it into a failed init.
  llvm::BasicBlock* work = llvm::BasicBlock::Create(f.mc.ctx, "mpi.init", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, "mpi.init.done", f.fn);
  // dace_mpi_state_create's failure (no state) becomes the program's status too.
  llvm::Value* null_state = f.b.CreateZExt(f.b.CreateIsNull(state), f.b.getInt32Ty());
  llvm::BasicBlock* entry =
      record_if_failed(f, null_state, llvm::ConstantPointerNull::get(f.b.getPtrTy()), where, done);
  f.b.CreateBr(work);
  f.b.SetInsertPoint(work);
  llvm::BasicBlock* failed = nullptr;

  // Grids: parents before their sub-grids (each pass creates those whose parent exists).
  std::vector<bool> created(dist->grids.size(), false);
  for (size_t pass = 0; pass <= dist->grids.size(); ++pass) {
    for (size_t i = 0; i < dist->grids.size(); ++i) {
      const GridSpec& g = dist->grids[i];
      if (created[i]) continue;
      const std::string gw = where + " / process grid " + ir::quoted(g.name);
      if (!g.is_subgrid) {
        std::vector<llvm::Value*> dims;
        for (const std::string& s : g.shape) {
          Result<llvm::Value*> v = expression(f, s, gw);
          if (!v) return v.take_error();
          dims.push_back(*v);
        }
        if (dims.empty()) return make_error(Code::InvalidSdfg, gw + ": has no shape");
        llvm::Value* st = call_runtime(f, "dace_mpi_cart_create",
                                       {state, f.b.getInt32(static_cast<int32_t>(i)),
                                        f.b.getInt32(static_cast<int32_t>(dims.size())), i64_array(f, dims)});
        check_status(pc, st, state, gw, failed);
        created[i] = true;
        continue;
      }
      int32_t parent = dist->grid_index(g.parent);
      if (parent < 0) return make_error(Code::InvalidSdfg, gw + ": parent grid " + ir::quoted(g.parent) + " is not defined");
      if (!created[static_cast<size_t>(parent)]) continue;
      llvm::Value* exact = f.b.getInt64(-1);
      if (g.exact_grid) {
        Result<llvm::Value*> v = expression(f, *g.exact_grid, gw + " / exact_grid");
        if (!v) return v.take_error();
        exact = *v;
      }
      llvm::Value* st = call_runtime(f, "dace_mpi_cart_sub",
                                     {state, f.b.getInt32(static_cast<int32_t>(i)), f.b.getInt32(parent),
                                      f.b.getInt32(static_cast<int32_t>(g.color.size())), i32_array(f, g.color), exact});
      check_status(pc, st, state, gw, failed);
      created[i] = true;
    }
  }
  for (size_t i = 0; i < created.size(); ++i)
    if (!created[i]) return make_error(Code::InvalidSdfg, where + " / process grid " + ir::quoted(dist->grids[i].name) + ": its parent grids form a cycle");

  for (size_t i = 0; i < dist->subarrays.size(); ++i) {
    const SubArraySpec& a = dist->subarrays[i];
    const std::string aw = where + " / subarray " + ir::quoted(a.name);
    int32_t grid = dist->grid_index(a.pgrid);
    if (grid < 0) return make_error(Code::InvalidSdfg, aw + ": process grid " + ir::quoted(a.pgrid) + " is not defined");
    std::optional<ScalarType> t = tasklet::type_from_name(a.dtype);
    int32_t code = t ? dtype_code(*t) : -1;
    if (code < 0) return make_error(Code::Unsupported, aw + ": element type " + ir::quoted(a.dtype) + " has no MPI datatype here");
    if (a.shape.size() != a.subshape.size() || a.shape.size() != a.correspondence.size() || a.shape.empty())
      return make_error(Code::InvalidSdfg, aw + ": shape, subshape and correspondence differ in length");
    std::vector<llvm::Value*> shape, subshape;
    for (size_t d = 0; d < a.shape.size(); ++d) {
      Result<llvm::Value*> s = expression(f, a.shape[d], aw);
      if (!s) return s.take_error();
      Result<llvm::Value*> b = expression(f, a.subshape[d], aw);
      if (!b) return b.take_error();
      shape.push_back(*s);
      subshape.push_back(*b);
    }
    llvm::Value* st = call_runtime(
        f, "dace_mpi_subarray_create",
        {state, f.b.getInt32(static_cast<int32_t>(i)), f.b.getInt32(grid), f.b.getInt32(code),
         f.b.getInt32(static_cast<int32_t>(shape.size())), i64_array(f, shape), i64_array(f, subshape),
         i32_array(f, a.correspondence)});
    check_status(pc, st, state, aw, failed);
  }

  // DaCe's ScaLAPACK environment: a Py x Px BLACS grid ("C" order), read from the symbols.
  if (has_pblas(pc.sdfg)) {
    Result<llvm::Value*> py = f.symbol_i64("Py");
    Result<llvm::Value*> px = f.symbol_i64("Px");
    if (!py || !px)
      return make_error(Code::InvalidSdfg, where + ": PBLAS nodes need the symbols Px and Py (the BLACS grid is Py x Px) "
                                                   "as program arguments, and a symbol is one only where the SDFG uses "
                                                   "it (DaCe's signature; its ScaLAPACK init code then does not compile)");
    llvm::Value* st = call_runtime(f, "dace_mpi_blacs_init", {state, *py, *px});
    check_status(pc, st, state, where + " / BLACS grid", failed);
  }

  llvm::BasicBlock* last = f.b.GetInsertBlock();
  f.b.CreateBr(done);
  if (failed) {
    f.b.SetInsertPoint(failed);
    f.b.CreateBr(done);
  }
  f.b.SetInsertPoint(done);
  llvm::PHINode* result = f.b.CreatePHI(f.b.getPtrTy(), failed ? 3 : 2, "mpi.state");
  llvm::Value* null = llvm::ConstantPointerNull::get(f.b.getPtrTy());
  result->addIncoming(null, entry);
  result->addIncoming(state, last);
  if (failed) result->addIncoming(null, failed);
  pc.state = result;
  return Status::success();
}

Status lower_state_entry(codegen::ProgramStateContext& pc) {
  if (!pc.sdfg.symbols.count("__dace_comm_rank") && !pc.sdfg.symbols.count("__dace_comm_size"))
    return Status::success();
  codegen::Frame& f = pc.frame;
  llvm::Type* pair = llvm::ArrayType::get(f.b.getInt64Ty(), 2);
  llvm::AllocaInst* out = f.entry_alloca(pair, "mpi.comm.info");
  // No MPI call and no failure once init succeeded; checked all the same.
  record_if_failed(f, call_runtime(f, "dace_mpi_comm_info", {pc.state, out}), pc.state,
                   "sdfg " + ir::quoted(pc.sdfg.name), nullptr);
  const char* names[2] = {"__dace_comm_rank", "__dace_comm_size"};
  for (unsigned i = 0; i < 2; ++i) {
    llvm::Value* v = f.b.CreateLoad(f.b.getInt64Ty(), f.b.CreateConstInBoundsGEP2_64(pair, out, 0, i), names[i]);
    f.bind_symbol(names[i], codegen::SymbolBinding{v, ScalarType::Int64, false});
  }
  return Status::success();
}

Status lower_state_exit(codegen::ProgramStateContext& pc) {
  pc.exit_status = call_runtime(pc.frame, "dace_mpi_state_destroy", {pc.state});
  return Status::success();
}

}  // namespace dace::mpi
