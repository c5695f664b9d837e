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

// NameEnv over a frame's bindings: symbols first, then data containers.
class FrameEnv : public NameEnv {
 public:
  explicit FrameEnv(Frame& f) : f_(f) {}
  Result<TypedValue> read(const std::string& name) override;
  Result<ArrayRef> array(const std::string& name) override;

 private:
  Frame& f_;
};

// Parses and type-checks one interstate expression against the SDFG's symbols and data.
Result<tasklet::ExprPtr> typed_interstate_expression(const SdfgContext& sc, const std::string& code);

Result<TypedValue> emit_interstate_expression(Frame& f, const std::string& code);
// A condition as i1 (empty code or "1"/"True": true).
Result<llvm::Value*> emit_condition(Frame& f, const std::string& code);
// `target = value`: target is a symbol (stored in its type) or a scalar data container.
Status emit_assignment(Frame& f, const std::string& target, const std::string& value_code);
// "i = i + 1" (LoopRegion init/update statements); empty code does nothing.
Status emit_statement(Frame& f, const std::string& code);

// Fills symbol_types, assigned_symbols and the allocation plan of `sc`.
// `registry` (may be null) owns the storages outside the host's (plan_allocations).
Status init_sdfg_context(SdfgContext& sc, bool top_level, const plugin::Registry* registry);

}  // namespace dace::codegen
