#include "ir/tasklet/promotion.h"

#include <algorithm>
#include <utility>

namespace dace::tasklet {

ScalarType weak_default(Weak w) {
  switch (w) {
    case Weak::Int: return ScalarType::Int64;
    case Weak::Float: return ScalarType::Float64;
    case Weak::Complex: return ScalarType::Complex128;
    case Weak::None: break;
  }
  return ScalarType::Unknown;
}

Promoted promote_weak(ScalarType a, Weak wa, ScalarType b, Weak wb) {
  if (a == ScalarType::Unknown || b == ScalarType::Unknown) return {};
  if (wa != Weak::None && wb != Weak::None) {
    const Weak w = std::max(wa, wb);
    return {weak_default(w), w};
  }
  if (wb != Weak::None) {
    std::swap(a, b);
    std::swap(wa, wb);
  }
  if (wa == Weak::None) return {promote(a, b), Weak::None};
  // a is a weak literal, b a typed value.
  const bool int_like = is_bool(b) || is_integer(b);
  switch (wa) {
    case Weak::Int: return {is_bool(b) ? ScalarType::Int64 : b, Weak::None};
    case Weak::Float: return {int_like ? ScalarType::Float64 : b, Weak::None};
    case Weak::Complex: return {int_like ? ScalarType::Complex128 : complex_of(b), Weak::None};
    case Weak::None: break;
  }
  return {promote(a, b), Weak::None};
}

}  // namespace dace::tasklet
