// Code outside dataflow: interstate edge conditions and assignments, loop-region init /
// condition / update statements, conditional-block conditions. Names are symbols or data
// containers (scalars read directly, arrays indexed: `data[i]`), typed by the tasklet type
// checker and lowered by the tasklet expression emitter.
#pragma once
#include <string>

#include "codegen/expr_emit.h"
#include "codegen/frame.h"
#include "ir/tasklet/typecheck.h"

namespace dace::codegen {

// NameEnv over a frame's bindings: symbols first, then data containers. `where` names the
// code being lowered (an interstate edge's condition, a loop's init statement): with
// bounds_check on, indices into arrays are checked against their shapes and a violation
// names it.
class FrameEnv : public NameEnv {
 public:
  FrameEnv(Frame& f, std::string where) : f_(f), where_(std::move(where)) {}
  Result<TypedValue> read(const std::string& name) override;
  Result<ArrayRef> array(const std::string& name) override;
  Status check_indices(const ArrayRef& ref, const std::vector<llvm::Value*>& indices) override;

 private:
  Frame& f_;
  std::string where_;
};

// Parses and type-checks one interstate expression against the SDFG's symbols and data.
Result<tasklet::ExprPtr> typed_interstate_expression(const SdfgContext& sc, const std::string& code);

// `where` names the code (ir/path.h form plus what it is, e.g. `sdfg "x" / interstate edge 0
// ("a" -> "b") condition "A[n] > 0"`); bounds-check violations name it. The functions
// below take the element's path and add what the code is and the code itself.
Result<TypedValue> emit_interstate_expression(Frame& f, const std::string& code, const std::string& where);
// A condition as i1 (empty code or "1"/"True": true).
Result<llvm::Value*> emit_condition(Frame& f, const std::string& code, const std::string& where);
// `target = value`: target is a symbol (stored in its type) or a scalar data container.
Status emit_assignment(Frame& f, const std::string& target, const std::string& value_code, const std::string& where);
// "i = i + 1" (LoopRegion init/update statements); empty code does nothing.
Status emit_statement(Frame& f, const std::string& code, const std::string& where);

// Fills symbol_types, assigned_symbols and the allocation plan of `sc`.
// `registry` (may be null) owns the storages outside the host's (plan_allocations).
Status init_sdfg_context(SdfgContext& sc, bool top_level, const plugin::Registry* registry);

}  // namespace dace::codegen
