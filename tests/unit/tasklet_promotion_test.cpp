// NumPy's promotion with weak Python literals (NEP 50), the table in ir/tasklet/promotion.h
// that the type checker and the code generator share. Expected types are NumPy's own:
// printed once with NumPy 1.26.4 under NEP 50 (`np._set_promotion_state("weak")`, NumPy 2's
// default) as `np.result_type(np.<dtype>, <literal>)` for the literals 1, 1.0 and 1j, in
// both operand orders (same results), and `np.result_type(1, 1.0)` etc. for two literals.
#include <gtest/gtest.h>

#include "ir/tasklet/promotion.h"

namespace dace::tasklet {
namespace {

using T = ScalarType;

struct Row {
  T typed;
  T with_int, with_float, with_complex;  // np.result_type(typed, 1 / 1.0 / 1j)
};

// Copied from NumPy's output (see the file comment), one line per dtype.
constexpr Row kNumPy[] = {
    {T::Bool, T::Int64, T::Float64, T::Complex128},
    {T::Int8, T::Int8, T::Float64, T::Complex128},
    {T::Int16, T::Int16, T::Float64, T::Complex128},
    {T::Int32, T::Int32, T::Float64, T::Complex128},
    {T::Int64, T::Int64, T::Float64, T::Complex128},
    {T::UInt8, T::UInt8, T::Float64, T::Complex128},
    {T::UInt16, T::UInt16, T::Float64, T::Complex128},
    {T::UInt32, T::UInt32, T::Float64, T::Complex128},
    {T::UInt64, T::UInt64, T::Float64, T::Complex128},
    {T::Float16, T::Float16, T::Float16, T::Complex64},
    {T::Float32, T::Float32, T::Float32, T::Complex64},
    {T::Float64, T::Float64, T::Float64, T::Complex128},
    {T::Complex64, T::Complex64, T::Complex64, T::Complex64},
    {T::Complex128, T::Complex128, T::Complex128, T::Complex128},
};

TEST(TaskletPromotion, WeakLiteralWithTypedOperandMatchesNumPy) {
  for (const Row& r : kNumPy) {
    const std::pair<Weak, T> literals[] = {{Weak::Int, r.with_int}, {Weak::Float, r.with_float},
                                           {Weak::Complex, r.with_complex}};
    for (const auto& [weak, want] : literals) {
      const T lit = weak_default(weak);
      const Promoted left = promote_weak(lit, weak, r.typed, Weak::None);
      const Promoted right = promote_weak(r.typed, Weak::None, lit, weak);
      EXPECT_EQ(left.type, want) << type_name(r.typed) << " with literal of " << type_name(lit);
      EXPECT_EQ(right.type, want) << type_name(r.typed) << " with literal of " << type_name(lit);
      // A typed operand makes the result typed.
      EXPECT_EQ(left.weak, Weak::None);
      EXPECT_EQ(right.weak, Weak::None);
    }
  }
}

TEST(TaskletPromotion, TwoLiteralsStayWeakWithNumPysDefaults) {
  // np.result_type(1, 1) int64, (1, 1.0) float64, (1, 1j) complex128, (1.0, 1j) complex128.
  EXPECT_EQ(promote_weak(T::Int64, Weak::Int, T::Int64, Weak::Int).type, T::Int64);
  EXPECT_EQ(promote_weak(T::Int64, Weak::Int, T::Float64, Weak::Float).type, T::Float64);
  EXPECT_EQ(promote_weak(T::Int64, Weak::Int, T::Complex128, Weak::Complex).type, T::Complex128);
  EXPECT_EQ(promote_weak(T::Float64, Weak::Float, T::Complex128, Weak::Complex).type, T::Complex128);
  // ... and the result is still a literal: (1 + 1.0) * float32 stays float32 in NumPy.
  const Promoted sum = promote_weak(T::Int64, Weak::Int, T::Float64, Weak::Float);
  EXPECT_EQ(sum.weak, Weak::Float);
  EXPECT_EQ(promote_weak(sum.type, sum.weak, T::Float32, Weak::None).type, T::Float32);
}

TEST(TaskletPromotion, TypedOperandsPromoteAsArrays) {
  // Without literals the table is promote()'s (np.result_type of two dtypes).
  EXPECT_EQ(promote_weak(T::Int8, Weak::None, T::UInt8, Weak::None).type, T::Int16);
  EXPECT_EQ(promote_weak(T::Int32, Weak::None, T::Float32, Weak::None).type, T::Float64);
  EXPECT_EQ(promote_weak(T::Unknown, Weak::None, T::Int8, Weak::Int).type, T::Unknown);
}

}  // namespace
}  // namespace dace::tasklet
