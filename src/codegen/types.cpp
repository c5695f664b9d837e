#include "codegen/types.h"

namespace dace::codegen {

using tasklet::component_type;
using tasklet::is_bool;
using tasklet::is_complex;
using tasklet::is_float;
using tasklet::is_integer;
using tasklet::is_signed_integer;

llvm::Type* value_type(llvm::LLVMContext& ctx, ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return llvm::Type::getInt1Ty(ctx);
    case ScalarType::Int8:
    case ScalarType::UInt8: return llvm::Type::getInt8Ty(ctx);
    case ScalarType::Int16:
    case ScalarType::UInt16: return llvm::Type::getInt16Ty(ctx);
    case ScalarType::Int32:
    case ScalarType::UInt32: return llvm::Type::getInt32Ty(ctx);
    case ScalarType::Int64:
    case ScalarType::UInt64: return llvm::Type::getInt64Ty(ctx);
    case ScalarType::Float16: return llvm::Type::getHalfTy(ctx);
    case ScalarType::Float32: return llvm::Type::getFloatTy(ctx);
    case ScalarType::Float64: return llvm::Type::getDoubleTy(ctx);
    case ScalarType::Complex64: {
      llvm::Type* f = llvm::Type::getFloatTy(ctx);
      return llvm::StructType::get(ctx, {f, f});
    }
    case ScalarType::Complex128: {
      llvm::Type* d = llvm::Type::getDoubleTy(ctx);
      return llvm::StructType::get(ctx, {d, d});
    }
    case ScalarType::Unknown: break;
  }
  return llvm::Type::getInt64Ty(ctx);
}

llvm::Type* storage_type(llvm::LLVMContext& ctx, ScalarType t) {
  if (t == ScalarType::Bool) return llvm::Type::getInt8Ty(ctx);
  return value_type(ctx, t);
}

llvm::Type* element_storage_type(llvm::LLVMContext& ctx, const ir::DType& t) {
  if (auto s = ir::struct_layout(t)) return llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), static_cast<uint64_t>(s->size));
  if (t.pointer_depth == 0 && !t.opaque.empty()) return llvm::Type::getInt64Ty(ctx);  // a handle (ir::element_size)
  return storage_type(ctx, t.scalar);
}

TypedValue load_scalar(llvm::IRBuilder<>& b, llvm::Value* ptr, ScalarType t, const char* name) {
  llvm::Value* v = b.CreateLoad(storage_type(b.getContext(), t), ptr, name);
  if (t == ScalarType::Bool) v = b.CreateICmpNE(v, b.getInt8(0));
  return TypedValue{v, t};
}

void store_scalar(llvm::IRBuilder<>& b, TypedValue v, llvm::Value* ptr) {
  llvm::Value* x = v.value;
  if (v.type == ScalarType::Bool) x = b.CreateZExt(x, b.getInt8Ty());
  b.CreateStore(x, ptr);
}

llvm::Value* constant_int(llvm::IRBuilder<>& b, ScalarType t, int64_t v) {
  if (is_float(t)) return llvm::ConstantFP::get(value_type(b.getContext(), t), static_cast<double>(v));
  if (is_complex(t)) return make_complex(b, t, constant_int(b, component_type(t), v), constant_int(b, component_type(t), 0));
  if (is_bool(t)) return b.getInt1(v != 0);
  return llvm::ConstantInt::get(value_type(b.getContext(), t), static_cast<uint64_t>(v), true);
}

llvm::Value* constant_float(llvm::IRBuilder<>& b, ScalarType t, double v) {
  if (is_float(t)) return llvm::ConstantFP::get(value_type(b.getContext(), t), v);
  if (is_complex(t)) return make_complex(b, t, constant_float(b, component_type(t), v), constant_float(b, component_type(t), 0.0));
  if (is_bool(t)) return b.getInt1(v != 0.0);
  llvm::Type* ty = value_type(b.getContext(), t);
  return b.CreateFPToSI(llvm::ConstantFP::get(b.getDoubleTy(), v), ty);
}

llvm::Value* zero_value(llvm::IRBuilder<>& b, ScalarType t) {
  return llvm::Constant::getNullValue(value_type(b.getContext(), t));
}

llvm::Value* make_complex(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* re, llvm::Value* im) {
  llvm::Value* c = llvm::UndefValue::get(value_type(b.getContext(), t));
  c = b.CreateInsertValue(c, re, 0);
  return b.CreateInsertValue(c, im, 1);
}

llvm::Value* truthy(llvm::IRBuilder<>& b, TypedValue v) {
  if (is_bool(v.type)) return v.value;
  if (is_integer(v.type)) return b.CreateICmpNE(v.value, llvm::Constant::getNullValue(v.value->getType()));
  if (is_float(v.type)) return b.CreateFCmpUNE(v.value, llvm::Constant::getNullValue(v.value->getType()));
  if (is_complex(v.type)) {
    llvm::Value* re = real_part(b, v.value);
    llvm::Value* im = imag_part(b, v.value);
    llvm::Value* z = llvm::Constant::getNullValue(re->getType());
    return b.CreateOr(b.CreateFCmpUNE(re, z), b.CreateFCmpUNE(im, z));
  }
  return v.value;
}

namespace {

llvm::Value* real_convert(llvm::IRBuilder<>& b, TypedValue v, ScalarType to) {
  llvm::Type* ty = value_type(b.getContext(), to);
  if (v.type == to) return v.value;
  if (is_bool(to)) return truthy(b, v);
  if (is_bool(v.type)) {
    if (is_float(to)) return b.CreateUIToFP(v.value, ty);
    return b.CreateZExt(v.value, ty);
  }
  if (is_integer(v.type)) {
    if (is_integer(to)) return b.CreateIntCast(v.value, ty, is_signed_integer(v.type));
    if (is_signed_integer(v.type)) return b.CreateSIToFP(v.value, ty);
    return b.CreateUIToFP(v.value, ty);
  }
  // float source
  if (is_float(to)) return b.CreateFPCast(v.value, ty);
  if (is_signed_integer(to)) return b.CreateFPToSI(v.value, ty);
  return b.CreateFPToUI(v.value, ty);
}

}  // namespace

llvm::Value* convert(llvm::IRBuilder<>& b, TypedValue v, ScalarType to) {
  if (v.type == to || to == ScalarType::Unknown || v.type == ScalarType::Unknown) return v.value;
  if (is_complex(to)) {
    ScalarType comp = component_type(to);
    if (is_complex(v.type)) {
      ScalarType from = component_type(v.type);
      return make_complex(b, to, real_convert(b, {real_part(b, v.value), from}, comp),
                          real_convert(b, {imag_part(b, v.value), from}, comp));
    }
    return make_complex(b, to, real_convert(b, v, comp), llvm::Constant::getNullValue(value_type(b.getContext(), comp)));
  }
  if (is_complex(v.type)) {
    if (is_bool(to)) return truthy(b, v);
    return real_convert(b, {real_part(b, v.value), component_type(v.type)}, to);
  }
  return real_convert(b, v, to);
}

llvm::Value* as_i64(llvm::IRBuilder<>& b, TypedValue v) { return convert(b, v, ScalarType::Int64); }

}  // namespace dace::codegen
