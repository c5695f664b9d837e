#include "codegen/addressing.h"

#include "codegen/loops.h"

namespace dace::codegen {

bool is_one(sym::Expr e) {
  std::optional<int64_t> v = sym::as_integer(sym::simplify(e));
  return v && *v == 1;
}

std::vector<sym::Expr> subset_sizes(const sym::Subset& s) { return sym::size(s); }

Result<std::vector<llvm::Value*>> container_strides(Frame& f, const ir::DataDescriptor& desc) {
  std::vector<llvm::Value*> out;
  std::vector<sym::Expr> strides = desc.strides.size() == desc.shape.size() ? desc.strides : ir::default_strides(desc.shape);
  for (sym::Expr s : strides) {
    Result<llvm::Value*> v = f.sym(s);
    if (!v) return v.take_error();
    out.push_back(*v);
  }
  return out;
}

Result<llvm::Value*> element_pointer(Frame& f, const DataBinding& data, const std::vector<llvm::Value*>& indices) {
  const ir::DataDescriptor& d = *data.desc;
  llvm::Type* et = element_storage_type(f.mc.ctx, d.dtype);
  if (d.kind == ir::DataKind::Scalar) return data.base;
  Result<std::vector<llvm::Value*>> strides = container_strides(f, d);
  if (!strides) return strides.take_error();
  llvm::Value* offset = nullptr;
  for (size_t i = 0; i < indices.size() && i < strides->size(); ++i) {
    llvm::Value* idx = indices[i];
    if (i < d.offset.size() && d.offset[i] && !(sym::as_integer(d.offset[i]) == std::optional<int64_t>(0))) {
      Result<llvm::Value*> o = f.sym(d.offset[i]);
      if (!o) return o;
      idx = add_index(f.b, idx, *o);
    }
    llvm::Value* term = mul_index(f.b, idx, (*strides)[i]);
    offset = offset ? add_index(f.b, offset, term) : term;
  }
  if (!offset) return data.base;
  return f.b.CreateGEP(et, data.base, offset);
}

Result<std::vector<llvm::Value*>> subset_start(Frame& f, const sym::Subset& subset) {
  std::vector<llvm::Value*> out;
  for (const sym::Range& r : subset.dims) {
    Result<llvm::Value*> v = f.sym(r.start);
    if (!v) return v.take_error();
    out.push_back(*v);
  }
  return out;
}

Result<llvm::Value*> subset_pointer(Frame& f, const DataBinding& data, const sym::Subset& subset) {
  Result<std::vector<llvm::Value*>> start = subset_start(f, subset);
  if (!start) return start.take_error();
  return element_pointer(f, data, *start);
}

sym::Subset full_subset(const ir::DataDescriptor& desc) {
  sym::Subset s;
  for (sym::Expr e : desc.shape)
    s.dims.push_back(sym::Range{sym::integer(0), sym::sub(e, sym::integer(1)), sym::integer(1), sym::integer(1)});
  return s;
}

Result<ArrayRef> subset_array_ref(Frame& f, const DataBinding& data, const sym::Subset& subset,
                                  const std::vector<size_t>& dims) {
  Result<llvm::Value*> base = subset_pointer(f, data, subset);
  if (!base) return base.take_error();
  Result<std::vector<llvm::Value*>> strides = container_strides(f, *data.desc);
  if (!strides) return strides.take_error();
  ArrayRef ref;
  ref.base = *base;
  ref.type = data.desc->dtype.scalar;
  for (size_t d : dims) {
    if (d >= strides->size()) return make_error(Code::InvalidSdfg, f.sc.path + ": subset has more dimensions than its container");
    llvm::Value* stride = (*strides)[d];
    // A strided subset `a:b:s` is indexed in steps of s.
    if (d < subset.dims.size() && !is_one(subset.dims[d].step)) {
      Result<llvm::Value*> step = f.sym(subset.dims[d].step);
      if (!step) return step.take_error();
      stride = f.b.CreateMul(stride, *step);
    }
    ref.strides.push_back(stride);
  }
  return ref;
}

}  // namespace dace::codegen
