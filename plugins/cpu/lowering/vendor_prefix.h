// The type letter of BLAS and LAPACK(E) entry points (cblas_dgemm, LAPACKE_zgetrf): s, d, c, z
// for float32, float64, complex64, complex128; 0 for types those libraries do not take.
#pragma once

#include "ir/tasklet/types.h"

namespace dace::cpu {

inline char vendor_type_prefix(tasklet::ScalarType t) {
  switch (t) {
    case tasklet::ScalarType::Float32: return 's';
    case tasklet::ScalarType::Float64: return 'd';
    case tasklet::ScalarType::Complex64: return 'c';
    case tasklet::ScalarType::Complex128: return 'z';
    default: return 0;
  }
}

}  // namespace dace::cpu
