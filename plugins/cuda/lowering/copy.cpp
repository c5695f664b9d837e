#include "lowering/copy.h"

#include <llvm/IR/Module.h>

#include "codegen/addressing.h"
#include "codegen/loops.h"
#include "lowering/device_module.h"
#include "runtime/dace_cuda_runtime.h"
#include "lowering/stream_emit.h"

namespace dace::cuda {

namespace {

// One copied dimension: how many elements, and the distance between consecutive ones on each
// side (in elements).
struct Dim {
  sym::Expr count;
  sym::Expr src_stride;
  sym::Expr dst_stride;
};

bool equal(const sym::Expr& a, const sym::Expr& b) { return sym::simplify(sym::sub(a, b)) == sym::integer(0); }

std::vector<sym::Expr> element_strides(const ir::DataDescriptor& d) {
  return d.strides.size() == d.shape.size() ? d.strides : ir::default_strides(d.shape);
}

// The non-unit dimensions of `subset` with their strides (step included); empty for one element.
Result<std::vector<std::pair<sym::Expr, sym::Expr>>> side_dims(const codegen::CopyContext& c, const std::string& name,
                                                               const ir::DataDescriptor& d, const sym::Subset& s) {
  std::vector<sym::Expr> sizes = codegen::subset_sizes(s);
  std::vector<sym::Expr> strides = element_strides(d);
  if (strides.size() != s.dims.size())
    return make_error(Code::InvalidSdfg, c.where + ": the subset of \"" + name + "\" has " +
                                             std::to_string(s.dims.size()) + " dimensions, the container " +
                                             std::to_string(strides.size()));
  std::vector<std::pair<sym::Expr, sym::Expr>> out;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (codegen::is_one(sizes[i])) continue;
    std::optional<int64_t> step = sym::as_integer(sym::simplify(s.dims[i].step));
    if (!step || *step < 1)
      return make_error(Code::Unsupported, c.where + ": a copy between memories with step " +
                                               sym::to_string(s.dims[i].step) + " in \"" + name +
                                               "\" (only positive constant steps)");
    out.emplace_back(sizes[i], sym::simplify(sym::mul(strides[i], sym::integer(*step))));
  }
  return out;
}

// Folds a dimension into the next inner one where the outer stride is the inner extent on both
// sides (the two dimensions are then one contiguous run).
std::vector<Dim> fold(std::vector<Dim> dims) {
  for (size_t i = dims.size(); i-- > 1;) {
    Dim& outer = dims[i - 1];
    const Dim& inner = dims[i];
    if (equal(outer.src_stride, sym::mul(inner.count, inner.src_stride)) &&
        equal(outer.dst_stride, sym::mul(inner.count, inner.dst_stride))) {
      Dim merged{sym::simplify(sym::mul(outer.count, inner.count)), inner.src_stride, inner.dst_stride};
      dims[i - 1] = merged;
      dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return dims;
}

// Both sides as one list of dimensions: the same squeezed shape pairs up dimension by
// dimension; a reshape is accepted only when each side is one contiguous block.
Result<std::vector<Dim>> copy_dims(const codegen::CopyContext& c) {
  auto s = side_dims(c, c.src_name, *c.src.desc, c.src_subset);
  if (!s) return s.take_error();
  auto d = side_dims(c, c.dst_name, *c.dst.desc, c.dst_subset);
  if (!d) return d.take_error();
  bool same = s->size() == d->size();
  for (size_t i = 0; same && i < s->size(); ++i) same = equal((*s)[i].first, (*d)[i].first);
  std::vector<Dim> dims;
  if (same) {
    for (size_t i = 0; i < s->size(); ++i) dims.push_back({(*s)[i].first, (*s)[i].second, (*d)[i].second});
    return fold(dims);
  }
  auto contiguous = [](const std::vector<std::pair<sym::Expr, sym::Expr>>& side) {
    std::vector<Dim> one;
    for (const auto& [n, stride] : side) one.push_back({n, stride, stride});
    one = fold(one);
    return one.empty() || (one.size() == 1 && equal(one[0].src_stride, sym::integer(1)));
  };
  if (!equal(sym::volume(c.src_subset), sym::volume(c.dst_subset)) || !contiguous(*s) || !contiguous(*d))
    return make_error(Code::Unsupported, c.where + ": a copy between memories that changes the shape of \"" +
                                             c.src_name + "\" into \"" + c.dst_name +
                                             "\" needs contiguous blocks on both sides");
  if (!s->empty()) dims.push_back({sym::simplify(sym::volume(c.src_subset)), sym::integer(1), sym::integer(1)});
  return dims;
}

llvm::FunctionCallee copy_fn(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  return m.getOrInsertFunction("dace_cuda_copy",
                               llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr, i64, llvm::Type::getInt32Ty(ctx)}, false));
}

llvm::FunctionCallee copy_2d_fn(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  return m.getOrInsertFunction(
      "dace_cuda_copy_2d",
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, i64, ptr, i64, i64, i64, llvm::Type::getInt32Ty(ctx)}, false));
}

llvm::FunctionCallee copy_on_fn(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  return m.getOrInsertFunction(
      "dace_cuda_copy_on",
      llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {ptr, ptr, ptr, i64, llvm::Type::getInt32Ty(ctx)}, false));
}

llvm::FunctionCallee copy_2d_on_fn(llvm::Module& m) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  return m.getOrInsertFunction("dace_cuda_copy_2d_on",
                               llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx),
                                                       {ptr, ptr, i64, ptr, i64, i64, i64, llvm::Type::getInt32Ty(ctx)},
                                                       false));
}

}  // namespace

const char* const* host_storage_names() {
  static const char* const names[] = {"Default", "CPU_Heap", "CPU_Pinned", "CPU_ThreadLocal", "Register", nullptr};
  return names;
}

Status DeviceCopy::lower_copy(codegen::CopyContext& c) const {
  codegen::Frame& f = c.f;
  // The program's device module guards init and, emulated, sends the runtime calls to the
  // emulation: also for a program whose GPU work is copies only (no kernel made it).
  if (Result<DeviceModule*> dm = device_module(f); !dm) return dm.take_error();
  if (c.wcr)
    return make_error(Code::Unsupported, c.where + ": a copy between memories (\"" + c.src_name + "\" -> \"" +
                                             c.dst_name + "\") cannot resolve write conflicts");
  if (!(c.src.desc->dtype == c.dst.desc->dtype))
    return make_error(Code::Unsupported, c.where + ": a copy between memories converts " +
                                             ir::to_string(c.src.desc->dtype) + " (\"" + c.src_name + "\") to " +
                                             ir::to_string(c.dst.desc->dtype) + " (\"" + c.dst_name + "\")");
  const int64_t elem = ir::element_size(c.src.desc->dtype);
  if (elem <= 0)
    return make_error(Code::Unsupported, c.where + ": elements of " + ir::to_string(c.src.desc->dtype) +
                                             " have no size to copy");
  Result<std::vector<Dim>> dims = copy_dims(c);
  if (!dims) return dims.take_error();
  const bool src_host = codegen::is_host_storage(c.src.desc->storage);
  const bool dst_host = codegen::is_host_storage(c.dst.desc->storage);
  const int32_t kind = src_host ? DACE_CUDA_HOST_TO_DEVICE : dst_host ? DACE_CUDA_DEVICE_TO_HOST : DACE_CUDA_DEVICE_TO_DEVICE;
  Result<llvm::Value*> src = codegen::subset_pointer(f, c.src, c.src_subset);
  if (!src) return src.take_error();
  Result<llvm::Value*> dst = codegen::subset_pointer(f, c.dst, c.dst_subset);
  if (!dst) return dst.take_error();
  llvm::IRBuilder<>& b = f.b;
  llvm::Module& m = f.mc.module;
  llvm::Value* elem_bytes = b.getInt64(elem);
  auto value = [&](const sym::Expr& e) { return f.sym(e); };

  // The innermost run: contiguous on both sides (its elements are one row of bytes), or
  // a single element when either side is strided.
  std::vector<Dim> rows = *dims;
  llvm::Value* row_bytes = elem_bytes;
  if (!rows.empty() && equal(rows.back().src_stride, sym::integer(1)) && equal(rows.back().dst_stride, sym::integer(1))) {
    Result<llvm::Value*> n = value(rows.back().count);
    if (!n) return n.take_error();
    row_bytes = b.CreateMul(*n, elem_bytes, "copy.row_bytes");
    rows.pop_back();
  }
  // A failed copy ends the call with its status (the data it was to move is not there).
  const std::string what = c.where + ": copy \"" + c.src_name + "\" -> \"" + c.dst_name + "\"";
  // A work item of the state's stream plan is queued on its stream (lowering/stream_emit.h).
  ItemStream on;
  if (c.se) {
    Result<ItemStream> item = begin_item(*c.se, -1, c.edge, what);
    if (!item) return item.take_error();
    on = *item;
  }
  if (rows.empty()) {
    llvm::Value* copied =
        on.stream ? b.CreateCall(copy_on_fn(m), {on.stream, *dst, *src, row_bytes, b.getInt32(kind)})
                  : b.CreateCall(copy_fn(m), {*dst, *src, row_bytes, b.getInt32(kind)});
    record_runtime_failure(f, copied, /*leave=*/true, what + (on.stream ? " (dace_cuda_copy_on)" : " (dace_cuda_copy)"));
    if (c.se) end_item(*c.se, on, what);
    return Status::success();
  }
  // Every dimension but the last of `rows` is a loop around one 2-D copy.
  std::vector<codegen::CountedLoop> loops;
  llvm::Value* sp = *src;
  llvm::Value* dp = *dst;
  for (size_t i = 0; i + 1 < rows.size(); ++i) {
    Result<llvm::Value*> n = value(rows[i].count);
    if (!n) return n.take_error();
    Result<llvm::Value*> ss = value(rows[i].src_stride);
    if (!ss) return ss.take_error();
    Result<llvm::Value*> ds = value(rows[i].dst_stride);
    if (!ds) return ds.take_error();
    loops.push_back(codegen::begin_loop(b, b.getInt64(0), *n, "copy.slice"));
    llvm::Value* k = loops.back().iv;
    sp = b.CreateGEP(b.getInt8Ty(), sp, b.CreateMul(k, b.CreateMul(*ss, elem_bytes)));
    dp = b.CreateGEP(b.getInt8Ty(), dp, b.CreateMul(k, b.CreateMul(*ds, elem_bytes)));
  }
  const Dim& last = rows.back();
  Result<llvm::Value*> height = value(last.count);
  if (!height) return height.take_error();
  Result<llvm::Value*> ss = value(last.src_stride);
  if (!ss) return ss.take_error();
  Result<llvm::Value*> ds = value(last.dst_stride);
  if (!ds) return ds.take_error();
  std::vector<llvm::Value*> args{dp, b.CreateMul(*ds, elem_bytes), sp, b.CreateMul(*ss, elem_bytes),
                                 row_bytes, *height, b.getInt32(kind)};
  if (on.stream) args.insert(args.begin(), on.stream);
  llvm::Value* copied = b.CreateCall(on.stream ? copy_2d_on_fn(m) : copy_2d_fn(m), args);
  record_runtime_failure(f, copied, /*leave=*/true, what + (on.stream ? " (dace_cuda_copy_2d_on)" : " (dace_cuda_copy_2d)"));
  for (size_t i = loops.size(); i-- > 0;) codegen::end_loop(b, loops[i]);
  if (c.se) end_item(*c.se, on, what);
  return Status::success();
}

}  // namespace dace::cuda
