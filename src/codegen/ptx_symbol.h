// Where a lowered program keeps the PTX of its GPU kernels for its host to read back
// (jit::Program::ptx, dace_program_ptx). LLVM-free: shared by the lowering and the JIT layer.
//
// A target that compiles device code to PTX defines in the host module an external constant
// `__dace_ptx` holding the address of the NUL-terminated PTX text. The launches reference the
// text itself, a private constant, so a process holding several AOT libraries, each exporting
// `__dace_ptx`, still launches each library's own kernels.
#pragma once

namespace dace::codegen {

inline constexpr const char* kPtxSymbol = "__dace_ptx";

}  // namespace dace::codegen
