#include "lowering/thread_index.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace dace::cuda {

std::array<llvm::Value*, 3> grid_extent(llvm::IRBuilder<>& b, const std::vector<Dim>& dims) {
  size_t n = dims.size();
  std::array<llvm::Value*, 3> e{dims[n - 1].count, b.getInt64(1), b.getInt64(1)};
  if (n >= 2) e[1] = dims[n - 2].count;
  for (size_t d = 0; d + 2 < n; ++d) e[2] = b.CreateMul(e[2], dims[d].count);
  return e;
}

std::optional<std::array<int64_t, 3>> constant_extent(const ir::MapScope& map) {
  const size_t n = map.params.size();
  if (n == 0 || map.range.dims.size() < n) return std::nullopt;
  std::vector<int64_t> counts;
  for (size_t d = 0; d < n; ++d) {
    const sym::Range& r = map.range.dims[d];
    std::optional<int64_t> start = sym::as_integer(sym::simplify(r.start));
    std::optional<int64_t> end = sym::as_integer(sym::simplify(r.end));
    std::optional<int64_t> step = sym::as_integer(sym::simplify(r.step));
    if (!start || !end || !step || *step == 0) return std::nullopt;
    // DaCe's inclusive ranges: max(0, floor((end - start + step) / step)).
    int64_t num = *end - *start + *step;
    int64_t q = num / *step;
    if ((num % *step != 0) && ((num < 0) != (*step < 0))) --q;
    counts.push_back(std::max<int64_t>(0, q));
  }
  std::array<int64_t, 3> e{counts[n - 1], 1, 1};
  if (n >= 2) e[1] = counts[n - 2];
  for (size_t d = 0; d + 2 < n; ++d) e[2] *= counts[d];
  return e;
}

namespace {

// The candidates for a constant upper bound of `d`: itself, the arguments of a Min, or those
// of a Min inside a sum with the sum's other terms added to each (`Min(N, ti + 32) - 1 - ti`
// is at most `ti + 32 - 1 - ti` = 31).
std::vector<sym::Expr> upper_candidates(sym::Expr d) {
  if (d->op == sym::Op::Min) return d->args;
  if (d->op != sym::Op::Add) return {d};
  const sym::Node* min = nullptr;
  sym::Expr rest = sym::integer(0);
  for (sym::Expr a : d->args) {
    if (a->op == sym::Op::Min && !min) min = a;
    else rest = sym::add(rest, a);
  }
  if (!min) return {d};
  std::vector<sym::Expr> out;
  for (sym::Expr a : min->args) out.push_back(sym::add(a, rest));
  return out;
}

// Points of `r` at most: a constant step > 0 and a constant bound of end - start.
std::optional<int64_t> count_bound(const sym::Range& r) {
  std::optional<int64_t> step = sym::as_integer(sym::simplify(r.step));
  if (!step || *step <= 0) return std::nullopt;
  std::optional<int64_t> span;
  for (sym::Expr e : upper_candidates(sym::simplify(sym::sub(r.end, r.start))))
    if (std::optional<int64_t> d = sym::as_integer(sym::simplify(e)); d && (!span || *d < *span)) span = d;
  if (!span) return std::nullopt;
  return std::max<int64_t>(0, *span / *step + 1);
}

}  // namespace

std::optional<std::array<int64_t, 3>> bounded_extent(const ir::MapScope& map) {
  if (std::optional<std::array<int64_t, 3>> exact = constant_extent(map)) return exact;
  const size_t n = map.params.size();
  if (n == 0 || map.range.dims.size() < n) return std::nullopt;
  std::vector<int64_t> counts;
  for (size_t d = 0; d < n; ++d) {
    std::optional<int64_t> c = count_bound(map.range.dims[d]);
    if (!c) return std::nullopt;
    counts.push_back(*c);
  }
  std::array<int64_t, 3> e{counts[n - 1], 1, 1};
  if (n >= 2) e[1] = counts[n - 2];
  for (size_t d = 0; d + 2 < n; ++d) e[2] *= counts[d];
  return e;
}

llvm::Value* within(llvm::IRBuilder<>& b, const std::array<llvm::Value*, 3>& index, const std::array<llvm::Value*, 3>& extent) {
  llvm::Value* inside = b.getTrue();
  for (size_t i = 0; i < 3; ++i) inside = b.CreateAnd(inside, b.CreateICmpULT(index[i], extent[i]));
  return inside;
}

void bind_point(codegen::StateEmitter& se, codegen::Frame& f, const ir::MapScope& map, const std::vector<Dim>& dims,
                const std::array<llvm::Value*, 3>& g) {
  llvm::IRBuilder<>& b = f.b;
  const size_t n = map.params.size();
  std::vector<llvm::Value*> index(n);
  index[n - 1] = g[0];
  if (n >= 2) index[n - 2] = g[1];
  llvm::Value* rest = g[2];
  for (size_t d = n >= 2 ? n - 2 : 0; d-- > 0;) {
    if (d == 0) {
      index[d] = rest;
    } else {
      index[d] = b.CreateURem(rest, dims[d].count);
      rest = b.CreateUDiv(rest, dims[d].count);
    }
  }
  for (size_t d = 0; d < n; ++d) {
    llvm::Value* p = b.CreateAdd(dims[d].start, b.CreateMul(index[d], dims[d].step), map.params[d]);
    f.bind_symbol(map.params[d], codegen::SymbolBinding{p, ir::ScalarType::Int64, false});
    se.scope_symbols[map.params[d]] = ir::ScalarType::Int64;
  }
}

Result<llvm::Value*> special_index(codegen::Frame& f, DeviceModule& dm, Special which, int axis) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Module& m = f.mc.module;
  if (!dm.emulate) {
    static const llvm::Intrinsic::ID ctaid[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                                 llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                                 llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
    static const llvm::Intrinsic::ID tid[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                               llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                               llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
    llvm::Intrinsic::ID id = which == Special::BlockIndex ? ctaid[axis] : tid[axis];
    return b.CreateZExt(b.CreateCall(llvm::Intrinsic::getDeclaration(&m, id)), b.getInt64Ty());
  }
  if (which == Special::ThreadIndex) {
    llvm::Value* v = dm.kernel ? dm.kernel->tid[static_cast<size_t>(axis)] : nullptr;
    if (!v) return make_error(Code::Internal, "cuda: emulated thread index read outside a thread loop");
    return v;
  }
  // The runtime's launch loop keeps the block it is running (x, y, z) in a thread-local array.
  llvm::FunctionCallee get = m.getOrInsertFunction("dace_cuda_emu_block_index", llvm::FunctionType::get(b.getPtrTy(), false));
  llvm::Value* block = b.CreateCall(get, {}, "emu.block");
  return b.CreateLoad(b.getInt64Ty(), b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), block, static_cast<uint64_t>(axis)),
                      axis == 0 ? "ctaid.x" : axis == 1 ? "ctaid.y" : "ctaid.z");
}

Result<ThreadPosition> thread_position(codegen::Frame& f, DeviceModule& dm) {
  llvm::IRBuilder<>& b = f.b;
  ThreadPosition p;
  for (int axis = 0; axis < 3; ++axis) {
    Result<llvm::Value*> t = special_index(f, dm, Special::ThreadIndex, axis);
    if (!t) return t.take_error();
    p.index[static_cast<size_t>(axis)] = *t;
  }
  const std::array<int64_t, 3>& block = dm.kernel->block;
  p.linear = b.CreateAdd(p.index[0], b.CreateMul(b.getInt64(block[0]),
                                                 b.CreateAdd(p.index[1], b.CreateMul(b.getInt64(block[1]), p.index[2]))));
  return p;
}

void bind_builtins(codegen::Frame& f, const KernelState& ks, const std::array<llvm::Value*, 3>* block,
                   const std::array<llvm::Value*, 3>* thread) {
  llvm::IRBuilder<>& b = f.b;
  static const char* axes[3] = {"x", "y", "z"};
  auto bind = [&](const std::string& name, llvm::Value* v) {
    f.bind_symbol(name, codegen::SymbolBinding{b.CreateTrunc(v, b.getInt32Ty(), name), ir::ScalarType::UInt32, false});
  };
  for (size_t a = 0; a < 3; ++a) {
    if (block) bind(std::string("blockIdx.") + axes[a], (*block)[a]);
    if (thread) bind(std::string("threadIdx.") + axes[a], (*thread)[a]);
    bind(std::string("blockDim.") + axes[a], b.getInt64(ks.block[a]));
  }
}

void bind_grid_dim(codegen::Frame& f, DeviceModule& dm) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Module& m = f.mc.module;
  static const char* names[3] = {"gridDim.x", "gridDim.y", "gridDim.z"};
  static const llvm::Intrinsic::ID nctaid[3] = {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                                                llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                                                llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};
  llvm::Value* emulated = nullptr;
  if (dm.emulate) {
    llvm::FunctionCallee get = m.getOrInsertFunction("dace_cuda_emu_grid_dim", llvm::FunctionType::get(b.getPtrTy(), false));
    emulated = b.CreateCall(get, {}, "emu.grid");
  }
  for (size_t a = 0; a < 3; ++a) {
    llvm::Value* v =
        emulated ? b.CreateTrunc(b.CreateLoad(b.getInt64Ty(), b.CreateConstInBoundsGEP1_64(b.getInt64Ty(), emulated, a)),
                                 b.getInt32Ty(), names[a])
                 : b.CreateCall(llvm::Intrinsic::getDeclaration(&m, nctaid[a]), {}, names[a]);
    f.bind_symbol(names[a], codegen::SymbolBinding{v, ir::ScalarType::UInt32, false});
  }
}

ThreadLoop begin_thread_loop(codegen::Frame& f, DeviceModule& dm) {
  ThreadLoop loop;
  KernelState& ks = *dm.kernel;
  loop.saved = ks.tid;
  static const char* names[3] = {"tid.x", "tid.y", "tid.z"};
  for (int axis = 2; axis >= 0; --axis) {
    size_t a = static_cast<size_t>(axis);
    loop.loops[a] = codegen::begin_loop(f.b, f.b.getInt64(0), f.b.getInt64(ks.block[a]), names[a]);
    ks.tid[a] = loop.loops[a].iv;
  }
  return loop;
}

void end_thread_loop(codegen::Frame& f, DeviceModule& dm, ThreadLoop& loop) {
  for (size_t a = 0; a < 3; ++a) codegen::end_loop(f.b, loop.loops[a]);
  dm.kernel->tid = loop.saved;
}

}  // namespace dace::cuda
