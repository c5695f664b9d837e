// Struct elements (DaCe's `dace.struct`, e.g. the `_val_and_idx` pairs of np.argmax/argmin)
// in tasklets and write-conflict resolution. A struct connector is split into one scalar
// connector per field, named "conn.field" (a name the tasklet parser never produces, so it
// cannot collide): `c.f` in code reads field f, `c = S(f=..., g=...)` writes every field.
// The rest of the tasklet lowering then sees scalars only.
#pragma once
#include <map>
#include <string>

#include "codegen/frame.h"
#include "codegen/wcr.h"
#include "ir/dtype.h"
#include "ir/tasklet/ast.h"

namespace dace::codegen {

using StructConnectors = std::map<std::string, ir::StructLayout>;

// The scalar connector standing for field `field` of struct connector `conn`.
std::string field_connector(const std::string& conn, const std::string& field);

// Rewrites tasklet code over struct connectors into code over their field connectors.
// Errors (Code::InvalidSdfg / Unsupported) name the connector or field.
Result<tasklet::Program> split_struct_connectors(const tasklet::Program& program, const StructConnectors& structs);

// Pointer to a field of the struct element at `element`.
llvm::Value* field_pointer(llvm::IRBuilder<>& b, llvm::Value* element, const ir::StructField& field);

// Writes `fields` (one value per field) into the struct element at `element`, combined with
// the element's current value through `wcr` when given (DaCe's struct lambdas such as
// `lambda x, y: S(val=max(x.val, y.val), idx=...)`). `atomic`: other threads may update the
// same element, so the read-modify-write runs under a lock (no hardware compare-and-swap
// covers a whole struct).
Status emit_struct_write(Frame& f, const ir::StructLayout& layout, llvm::Value* element,
                         const std::map<std::string, TypedValue>& fields, const Wcr* wcr, bool atomic);

}  // namespace dace::codegen
