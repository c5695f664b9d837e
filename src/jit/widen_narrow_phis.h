// Loop-carried i8/i16 values computed in a register-wide type.
//
// x86 has no fast 8/16-bit arithmetic: the backend computes in 32-bit registers and, for a
// narrow loop-carried value, zero-extends it again on every iteration (NPBench crc16: a
// `movzwl` on the critical path of every bit, 4 instead of 3 cycles). NumPy-typed SDFGs
// produce such values (a uint16 `crc` symbol). This pass finds each web of narrow values
// that a loop phi feeds back into itself through operations that commute with zero
// extension — phi, select, and, or, xor, lshr: for each, zext(op(a, b)) == op(zext a,
// zext b) — and computes the whole web in the wider type. Every other narrow operand
// (add, mul, shl, ashr, loads, arguments: operations that can carry bits past the narrow
// width, or leave the web) enters through a zext, so the wide value is at every point
// exactly the zero extension of the narrow one: no value-range assumption is involved.
// Uses outside the web get the wide value (zext users) or a trunc of it.
#ifndef DACE_JIT_WIDEN_NARROW_PHIS_H
#define DACE_JIT_WIDEN_NARROW_PHIS_H

#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
}

namespace dace::jit {

// Widens the webs of `f`; returns how many webs (one per loop phi that leads one).
int widen_narrow_phis(llvm::Function& f);

// The same as a new-PM function pass (added at the end of the O2/O3 pipelines).
struct WidenNarrowPhisPass : llvm::PassInfoMixin<WidenNarrowPhisPass> {
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager&);
};

}  // namespace dace::jit

#endif  // DACE_JIT_WIDEN_NARROW_PHIS_H
