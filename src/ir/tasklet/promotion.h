// NumPy's type promotion with Python literals (NEP 50): the one table that the tasklet type
// checker (typecheck.cpp) and the code generator (codegen/expr_emit.cpp) share.
// A Python literal, or an expression of literals only, is "weak": it takes the other
// operand's type where its kind fits (an int literal with int8 stays int8, a float literal
// with float32 stays float32), and the other operand's kind widened otherwise (a float
// literal with an integer gives float64, a complex literal with float32 complex64); with a
// bool, the literal's own default type (int64, float64, complex128).
#pragma once
#include "ir/tasklet/types.h"

namespace dace::tasklet {

enum class Weak { None, Int, Float, Complex };

struct Promoted {
  ScalarType type = ScalarType::Unknown;
  Weak weak = Weak::None;  // weak only when both operands are
};

// The type a weak literal has on its own: int64, float64, complex128 (Unknown for None).
ScalarType weak_default(Weak w);

// Result type and weakness of combining operands of types a and b arithmetically, before an
// operator's own rules (true division, bool arithmetic). Typed operands promote as
// promote() does. Unknown in, Unknown out.
Promoted promote_weak(ScalarType a, Weak wa, ScalarType b, Weak wb);

}  // namespace dace::tasklet
