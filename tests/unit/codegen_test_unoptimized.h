// For tests that check many SDFGs for their results only (CorpusOptimize's every match of
// every transformation): compile() without LLVM's optimizations (level 0, what tiered
// compilation runs first), about ten times less time per SDFG than compile()'s level 3
// (heat_3d: 45 ms against 450 ms). Same lowering, same values: the optimizations change no
// result (no fast-math either way).
#pragma once
#include "codegen_test_support.h"

namespace dace::codegen::testing {

Result<CompiledProgram> compile_unoptimized(const ir::SDFG& sdfg);

}  // namespace dace::codegen::testing
