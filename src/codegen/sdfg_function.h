// The body of a function that runs one SDFG (the program function, or a nested SDFG's
// internal function): storage for symbols and transients, the control flow, frees at exit.
#pragma once
#include "codegen/frame.h"

namespace dace::codegen {

// Expects parameters (data, symbols) already bound in `f`; emits the rest and `ret void`.
Status emit_sdfg_body(Frame& f);

}  // namespace dace::codegen
