// The C header of an ahead-of-time compiled program (pipeline/aot.h): DaCe's generated-code
// ABI for one SDFG, as DaCe 1.0.2 writes it into <name>.h (a `void*` handle type, init with
// the free symbols, the program function with the arguments in arglist order, exit), plus
// the program's run-time status record, each argument's type, kind and shape in comments.
// Plain C99 that compiles alone in C and C++ with -pedantic.
#pragma once
#include <string>

#include "ir/result.h"
#include "ir/sdfg.h"
#include "jit/program_abi.h"

namespace dace::pipeline {

// The C type of an argument as the generated code takes it: arrays as pointers to their
// first element, scalars and symbols by value. Unsupported for what C cannot pass the way
// the generated code expects (complex scalars by value, opaque or struct types), naming it.
Result<std::string> aot_c_type(const analysis::Argument& argument);

// The header text; `status_symbol` is the program's status record (aot.h).
Result<std::string> aot_header(const ir::SDFG& sdfg, const jit::ProgramAbi& abi, const std::string& status_symbol);

}  // namespace dace::pipeline
