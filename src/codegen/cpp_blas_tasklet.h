// C++ tasklets that DaCe's OpenBLAS expansions write (one cblas_?gemm/gemv/dot call):
// lowered to the same CBLAS call when the registry offers OpenBLAS.
#pragma once
#include "codegen/state_emit.h"

namespace dace::codegen {

// Unsupported, naming the tasklet and why, for any other C++ code (or without OpenBLAS).
Status emit_cpp_blas_tasklet(StateEmitter& se, int node);

}  // namespace dace::codegen
