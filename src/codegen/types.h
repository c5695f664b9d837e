// LLVM representation of DaCe's scalar types and conversions between them.
// Values in registers: bool is i1, complex is the literal struct {T, T}. In memory: bool is
// one byte (NumPy's bool_), complex is two consecutive components (NumPy's layout).
#pragma once
#include <llvm/IR/IRBuilder.h>

#include "ir/dtype.h"
#include "ir/tasklet/types.h"

namespace dace::codegen {

using tasklet::ScalarType;

// A value in a register together with the DaCe type it has.
struct TypedValue {
  llvm::Value* value = nullptr;
  ScalarType type = ScalarType::Unknown;
};

llvm::Type* value_type(llvm::LLVMContext& ctx, ScalarType t);
llvm::Type* storage_type(llvm::LLVMContext& ctx, ScalarType t);
// One element of a container in memory: the scalar's storage type, or a struct's bytes
// ([size x i8]; fields are reached by byte offset, ir::StructLayout).
llvm::Type* element_storage_type(llvm::LLVMContext& ctx, const ir::DType& t);

// Memory <-> register forms (bool: i8 <-> i1).
TypedValue load_scalar(llvm::IRBuilder<>& b, llvm::Value* ptr, ScalarType t, const char* name = "");
void store_scalar(llvm::IRBuilder<>& b, TypedValue v, llvm::Value* ptr);

// Constants of a type.
llvm::Value* constant_int(llvm::IRBuilder<>& b, ScalarType t, int64_t v);
llvm::Value* constant_float(llvm::IRBuilder<>& b, ScalarType t, double v);
llvm::Value* zero_value(llvm::IRBuilder<>& b, ScalarType t);

// C/NumPy conversion (float -> int truncates, anything -> bool is `!= 0`, complex -> real
// keeps the real part, real -> complex has a zero imaginary part).
llvm::Value* convert(llvm::IRBuilder<>& b, TypedValue v, ScalarType to);
inline TypedValue convert_typed(llvm::IRBuilder<>& b, TypedValue v, ScalarType to) {
  return TypedValue{convert(b, v, to), to};
}
llvm::Value* as_i64(llvm::IRBuilder<>& b, TypedValue v);
// Python truthiness as i1.
llvm::Value* truthy(llvm::IRBuilder<>& b, TypedValue v);

// Complex helpers: components of a complex value, and a complex value from components.
llvm::Value* make_complex(llvm::IRBuilder<>& b, ScalarType t, llvm::Value* re, llvm::Value* im);
inline llvm::Value* real_part(llvm::IRBuilder<>& b, llvm::Value* c) { return b.CreateExtractValue(c, 0); }
inline llvm::Value* imag_part(llvm::IRBuilder<>& b, llvm::Value* c) { return b.CreateExtractValue(c, 1); }

}  // namespace dace::codegen
