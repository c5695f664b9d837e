// Splitting a module into pieces that are optimized and compiled to machine code on
// separate threads (parallel code generation), and the thread pool that runs them.
//
// The partition depends only on the module (never on the number of threads), so the objects
// and the cache entry are byte-identical whatever the machine's core count.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ir/result.h"

namespace llvm {
class Module;
}  // namespace llvm

namespace dace::jit {

// Lowered instructions per piece below which splitting does not pay (measured on the corpus,
// docs/jit.md "Parallel code generation"), and the most pieces a module is cut into.
inline constexpr uint64_t kDefaultPieceInstructions = 1500;
inline constexpr int kMaxPieces = 8;

// How many pieces a module of `instructions` lowered instructions is cut into: 1 (no split)
// below two pieces' worth, else instructions / piece_instructions, at most kMaxPieces.
// piece_instructions 0: DACE_JIT_PIECE_INSTRUCTIONS when set, else kDefaultPieceInstructions.
int planned_pieces(uint64_t instructions, uint64_t piece_instructions);

// Cuts `module` into at most `pieces` modules, each as bitcode (to be read into a context of
// its own), in a deterministic order. Units of the partition are the functions that must
// stay out of line (external linkage, address taken, `noinline`: entry points, outlined map
// bodies); a local function only ever called directly (a nested SDFG, a map kernel) goes
// with every unit that calls it, so inlining is what it would be without the split. Units
// are balanced by instruction count, largest first. Local units and non-constant local
// globals become hidden external symbols (resolved inside the program's JITDylib); local
// constants are copied into each piece that reads them, so loads from them still fold.
// Modifies `module` (which the caller discards). Returns an empty vector when the module
// cannot or need not be split (fewer than two units, aliases, appending globals, comdats).
std::vector<std::string> split_module(llvm::Module& module, int pieces);

// CPUs this process may run on (sched_getaffinity), or DACE_JIT_THREADS when set (>= 1).
int usable_threads();

// Calls task(i) for i in [0, n) on min(n, threads) threads (the calling thread is one of
// them) and returns when all are done. `task` must not throw.
void run_on_threads(size_t n, int threads, const std::function<void(size_t)>& task);

}  // namespace dace::jit
