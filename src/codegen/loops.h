// Counted loops with a PHI induction variable (the form LLVM's loop passes and vectorizer
// expect).
#pragma once
#include <llvm/IR/IRBuilder.h>

namespace dace::codegen {

struct CountedLoop {
  llvm::BasicBlock* header = nullptr;
  llvm::BasicBlock* exit = nullptr;
  llvm::PHINode* iv = nullptr;
  llvm::Value* step = nullptr;
};

// for (iv = begin; iv < end; iv += step): leaves the builder in the body. `step` > 0.
CountedLoop begin_loop(llvm::IRBuilder<>& b, llvm::Value* begin, llvm::Value* end, const std::string& name,
                       llvm::Value* step = nullptr);
// Closes the loop opened by begin_loop; leaves the builder after the loop.
void end_loop(llvm::IRBuilder<>& b, CountedLoop& loop);

// Number of iterations of `start, start+step, ...` up to `end` inclusive (DaCe's ranges),
// for either sign of step: max(0, floor((end - start + step) / step)).
llvm::Value* trip_count(llvm::IRBuilder<>& b, llvm::Value* start, llvm::Value* end, llvm::Value* step);

// Index arithmetic that leaves out the operations with an identity operand (`x + 0`,
// `x - 0`, `x * 1`, `1 * x`): IRBuilder folds only when both operands are constants, and the
// first tier (LLVM O0) compiles whatever the lowering emits. Same values (wrapping i64).
llvm::Value* add_index(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, const llvm::Twine& name = "");
llvm::Value* sub_index(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, const llvm::Twine& name = "");
llvm::Value* mul_index(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y, const llvm::Twine& name = "");
// max(0, n): the trip count of a range whose length n may be negative.
llvm::Value* clamp_count(llvm::IRBuilder<>& b, llvm::Value* n);

// True when `v` is the integer constant `value`.
bool is_constant(llvm::Value* v, int64_t value);
// a | c of two i1 flags, leaving out an operand that is the constant false (and a null `a`,
// a flag not started yet).
llvm::Value* or_flag(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* c);
// x + y (id sadd_with_overflow) or x * y (smul_with_overflow) whose carry is ORed into
// `overflow` (allocation sizes); `x + 0` and `x * 1` cannot overflow and emit nothing.
llvm::Value* checked_index(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y,
                           llvm::Value*& overflow);

}  // namespace dace::codegen
