#include "lowering/reduce.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <limits>

#include "codegen/loops.h"
#include "codegen/types.h"
#include "codegen/wcr.h"
#include "ir/tasklet/types.h"
#include "lowering/kernel.h"
#include "lowering/shared_storage.h"
#include "lowering/thread_index.h"

namespace dace::cuda {

namespace {

using codegen::Frame;
using codegen::TypedValue;
using codegen::WcrKind;

// The starting value of a thread's partial result: the node's identity (neutral by DaCe's
// definition), else the neutral element of a known combining function; nothing otherwise.
std::optional<llvm::Value*> neutral_value(llvm::IRBuilder<>& b, WcrKind kind, ir::ScalarType t, std::optional<double> identity) {
  const bool integer = tasklet::is_integer(t);
  if (identity) return integer ? codegen::constant_int(b, t, static_cast<int64_t>(*identity)) : codegen::constant_float(b, t, *identity);
  const double inf = std::numeric_limits<double>::infinity();
  llvm::Type* ty = codegen::storage_type(b.getContext(), t);
  switch (kind) {
    case WcrKind::Sum:
      return integer ? codegen::constant_int(b, t, 0) : codegen::constant_float(b, t, 0.0);
    case WcrKind::Product:
      return integer ? codegen::constant_int(b, t, 1) : codegen::constant_float(b, t, 1.0);
    case WcrKind::Max:
      if (!integer) return codegen::constant_float(b, t, -inf);
      return llvm::ConstantInt::get(ty, tasklet::is_signed_integer(t) ? llvm::APInt::getSignedMinValue(ty->getIntegerBitWidth())
                                                                      : llvm::APInt::getMinValue(ty->getIntegerBitWidth()));
    case WcrKind::Min:
      if (!integer) return codegen::constant_float(b, t, inf);
      return llvm::ConstantInt::get(ty, tasklet::is_signed_integer(t) ? llvm::APInt::getSignedMaxValue(ty->getIntegerBitWidth())
                                                                      : llvm::APInt::getMaxValue(ty->getIntegerBitWidth()));
    default:
      return std::nullopt;
  }
}

// Code that every thread of the block runs, followed by a block barrier (`barrier`):
// on the device each thread runs it with its %tid.x; emulated, a loop over the block's
// threads, whose end is the barrier.
template <class Emit>
Status per_thread(Frame& f, DeviceModule& dm, bool barrier, Emit emit) {
  ThreadLoop threads;
  if (dm.emulate) threads = begin_thread_loop(f, dm);
  Result<llvm::Value*> tid = special_index(f, dm, Special::ThreadIndex, 0);
  if (!tid) return tid.take_error();
  DACE_TRY(emit(*tid));
  if (dm.emulate) {
    end_thread_loop(f, dm, threads);
  } else if (barrier) {
    f.b.CreateCall(llvm::Intrinsic::getDeclaration(&f.mc.module, llvm::Intrinsic::nvvm_barrier0));
  }
  return Status::success();
}

// Runs `emit` only where `condition` holds.
template <class Emit>
Status when(Frame& f, llvm::Value* condition, const char* name, Emit emit) {
  llvm::BasicBlock* then = llvm::BasicBlock::Create(f.mc.ctx, std::string(name) + ".then", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(f.mc.ctx, std::string(name) + ".done", f.fn);
  f.b.CreateCondBr(condition, then, done);
  f.b.SetInsertPoint(then);
  DACE_TRY(emit());
  f.b.CreateBr(done);
  f.b.SetInsertPoint(done);
  return Status::success();
}

}  // namespace

Status lower_device_reduce(codegen::LibraryNodeContext& context) {
  codegen::StateEmitter& se = context.se;
  const int node = context.node_id;
  const std::string where = context.where();
  if (se.f->parallel_context)
    return make_error(Code::Unsupported, where + ": a Reduce node on GPU memory inside a parallel map cannot be compiled");
  Result<codegen::ReduceSpec> spec = codegen::reduce_spec(se, node);
  if (!spec) return spec.take_error();
  Result<codegen::Wcr> wcr = codegen::parse_wcr(spec->wcr_text);
  if (!wcr) return wcr.take_error();
  Result<codegen::Operand> host_out = codegen::library_operand(se, node, spec->out_conn, false);
  if (!host_out) return host_out.take_error();
  const ir::ScalarType t = host_out->type;
  if (!tasklet::is_integer(t) && t != ir::ScalarType::Float32 && t != ir::ScalarType::Float64)
    return make_error(Code::Unsupported, where + ": a Reduce node on GPU memory of " + std::string(tasklet::type_name(t)) +
                                             " elements cannot be compiled (integers, float32 and float64 can)");
  {
    llvm::IRBuilder<> probe(se.f->mc.ctx);
    if (!neutral_value(probe, wcr->kind, t, spec->identity))
      return make_error(Code::Unsupported, where + ": a Reduce node on GPU memory needs an identity for the function " +
                                               spec->wcr_text);
  }

  KernelState ks;
  ks.thread_blocks = true;  // one block per output element, its threads share the work
  ks.block = {kReduceBlock, 1, 1};
  ks.where = where;
  auto emit_body = [&](Frame& f, DeviceModule& dm) -> Status {
    llvm::IRBuilder<>& b = f.b;
    Result<codegen::Operand> in = codegen::library_operand(se, node, spec->in_conn, true);
    if (!in) return in.take_error();
    Result<codegen::Operand> out = codegen::library_operand(se, node, spec->out_conn, false);
    if (!out) return out.take_error();
    std::vector<size_t> kept, reduced;
    for (size_t d = 0; d < in->sizes.size(); ++d) (spec->reduced[d] ? reduced : kept).push_back(d);
    if (kept.size() != out->sizes.size())
      return make_error(Code::InvalidSdfg, where + ": Reduce output has " + std::to_string(out->sizes.size()) +
                                               " dimensions, the kept input dimensions are " + std::to_string(kept.size()));
    // This block's output element: its index de-linearized over the kept dimensions.
    Result<llvm::Value*> block = special_index(f, dm, Special::BlockIndex, 0);
    if (!block) return block.take_error();
    std::vector<llvm::Value*> index(in->sizes.size(), nullptr), out_index;
    llvm::Value* rest = *block;
    for (size_t k = kept.size(); k-- > 0;) {
      const size_t d = kept[k];
      index[d] = k == 0 ? rest : b.CreateURem(rest, in->size_values[d]);
      if (k > 0) rest = b.CreateUDiv(rest, in->size_values[d]);
    }
    for (size_t d : kept) out_index.push_back(index[d]);
    llvm::Value* target = codegen::operand_element(f, *out, out_index);
    llvm::Value* count = b.getInt64(1);
    for (size_t d : reduced) count = b.CreateMul(count, in->size_values[d], "red.count");

    llvm::Type* et = codegen::storage_type(f.mc.ctx, t);
    auto* array = llvm::ArrayType::get(et, static_cast<uint64_t>(kReduceBlock));
    Result<llvm::Value*> shared_array =
        block_shared_array(f, dm, array, kReduceBlock * std::max(1, ir::element_size(ir::DType::of(t))), "reduce",
                           "the block's partial results");
    if (!shared_array) return shared_array.take_error();
    llvm::Value* shared = *shared_array;
    auto slot = [&](llvm::Value* i) { return b.CreateInBoundsGEP(et, shared, i); };
    auto combine = [&](llvm::Value* a, TypedValue v) -> Result<llvm::Value*> {
      Result<TypedValue> r = codegen::wcr_combine(f, *wcr, TypedValue{a, t}, codegen::convert_typed(b, v, t), t);
      if (!r) return r.take_error();
      return codegen::convert(b, *r, t);
    };
    llvm::AllocaInst* partial = f.entry_alloca(et, "red.partial");
    const int64_t threads = kReduceBlock;

    // Each thread combines the reduced elements tid, tid + block, tid + 2 block, ...
    DACE_TRY(per_thread(f, dm, true, [&](llvm::Value* tid) -> Status {
      b.CreateStore(*neutral_value(b, wcr->kind, t, spec->identity), partial);
      llvm::Value* trips = b.CreateUDiv(b.CreateAdd(count, b.getInt64(threads - 1)), b.getInt64(threads), "red.trips");
      codegen::CountedLoop loop = codegen::begin_loop(b, b.getInt64(0), trips, "red.step");
      llvm::Value* r = b.CreateAdd(b.CreateMul(loop.iv, b.getInt64(threads)), tid, "red.element");
      DACE_TRY(when(f, b.CreateICmpULT(r, count), "red.inside", [&]() -> Status {
        std::vector<llvm::Value*> at = index;
        llvm::Value* left = r;
        for (size_t k = reduced.size(); k-- > 0;) {
          const size_t d = reduced[k];
          at[d] = k == 0 ? left : b.CreateURem(left, in->size_values[d]);
          if (k > 0) left = b.CreateUDiv(left, in->size_values[d]);
        }
        TypedValue v = codegen::load_scalar(b, codegen::operand_element(f, *in, at), in->type);
        Result<llvm::Value*> c = combine(b.CreateLoad(et, partial), v);
        if (!c) return c.take_error();
        b.CreateStore(*c, partial);
        return Status::success();
      }));
      codegen::end_loop(b, loop);
      b.CreateStore(b.CreateLoad(et, partial), slot(tid));
      return Status::success();
    }));
    // The tree: at each level the lower half of the threads takes in the upper half's values.
    for (int64_t half = threads / 2; half >= 1; half /= 2) {
      DACE_TRY(per_thread(f, dm, true, [&](llvm::Value* tid) -> Status {
        return when(f, b.CreateICmpULT(tid, b.getInt64(half)), "red.level", [&]() -> Status {
          llvm::Value* mine = b.CreateLoad(et, slot(tid));
          llvm::Value* other = b.CreateLoad(et, slot(b.CreateAdd(tid, b.getInt64(half))));
          Result<llvm::Value*> c = combine(mine, TypedValue{other, t});
          if (!c) return c.take_error();
          b.CreateStore(*c, slot(tid));
          return Status::success();
        });
      }));
    }
    // Thread 0 writes the result: onto the identity when there is one, else onto the output.
    return per_thread(f, dm, false, [&](llvm::Value* tid) -> Status {
      return when(f, b.CreateICmpEQ(tid, b.getInt64(0)), "red.write", [&]() -> Status {
        llvm::Value* start = spec->identity ? *neutral_value(b, wcr->kind, t, spec->identity)
                                            : codegen::load_scalar(b, target, t).value;
        Result<llvm::Value*> c = combine(start, TypedValue{b.CreateLoad(et, slot(b.getInt64(0))), t});
        if (!c) return c.take_error();
        codegen::store_scalar(b, TypedValue{*c, t}, target);
        return Status::success();
      });
    });
  };
  auto grid_of = [&](Frame& host) -> Result<std::array<llvm::Value*, 3>> {
    llvm::Value* outputs = host.b.getInt64(1);
    for (llvm::Value* n : host_out->size_values) outputs = host.b.CreateMul(outputs, n, "red.outputs");
    return std::array<llvm::Value*, 3>{outputs, host.b.getInt64(1), host.b.getInt64(1)};
  };
  return launch_kernel(se, context.node_id, ks, context.node().label, where, emit_body, grid_of);
}

}  // namespace dace::cuda
