// Short bit loops replaced by one table lookup (the table-driven CRC).
//
// A bitwise CRC processes a byte in eight steps `crc = (crc >> 1) ^ (poly if (crc ^ data) & 1)`,
// `data >>= 1`: a chain of four dependent operations per bit (NPBench crc16: about 30 cycles
// a byte, and Numba's LLVM code is the same). Every step is affine over GF(2) in the bits of
// crc and data, so the loop's result is too, and for a right-shifting CRC it has the form
// `(crc >> 8) ^ T[(crc ^ data) & 0xFF]` with a 256-entry table T: one load a byte.
//
// The pass proves that form instead of matching a pattern: it evaluates the loop body on
// gf2::Word values (every bit an affine function of the loop's entry values), iteration by
// iteration, as long as the trip count is a constant it reaches by evaluation; then, for each
// value the loop leaves, it checks that the affine function is exactly
//   [(E >> N)] ^ T[(XOR of some entry values) & (2^N - 1)]
// (N the trip count, 4..8; E one entry value or nothing), builds T from the function and
// computes the value in the preheader. Any operation without an exact affine form, a side
// effect, a non-constant trip count, a loop-invariant value other than an integer, or a
// function of another shape leaves the loop as it is. LLVM 21 recognizes CRC loops in
// LoopIdiomRecognize (HashRecognize); LLVM 19, which libdace uses, does not (docs/jit.md).
#pragma once
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

namespace dace::jit {

// The shortest and the longest loop replaced: below 4 steps the unrolled bit operations are
// as fast as a load; above 8 the table would outgrow the L1 cache.
inline constexpr unsigned kMinTableBits = 4;
inline constexpr unsigned kMaxTableBits = 8;

// A loop pass (added at LLVM's late loop optimizations, before loop deletion and full
// unrolling): the loop's values outside it are computed in the preheader, and the loop,
// left without uses, is deleted by the LoopDeletion pass that follows.
struct TableDrivenBitLoopsPass : llvm::PassInfoMixin<TableDrivenBitLoopsPass> {
  // When set, counts the loops replaced (for tests).
  int* replaced = nullptr;

  llvm::PreservedAnalyses run(llvm::Loop& loop, llvm::LoopAnalysisManager& manager,
                              llvm::LoopStandardAnalysisResults& results, llvm::LPMUpdater& updater);
};

// Runs the pass on every loop of `f` (LoopSimplify and LCSSA form made first); returns how
// many loops it replaced. The loops themselves stay, unused, until a later deletion.
int table_driven_bit_loops(llvm::Function& f);

}  // namespace dace::jit
