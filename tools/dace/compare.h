// Comparing a computed array with an expected .npy the way the corpus defines a match:
// |got - exp| <= atol + rtol * |exp| per element (complex values by modulus).
#pragma once
#include <string>

#include "ir/npy.h"
#include "run_inputs.h"

namespace dace::cli {

struct Comparison {
  double max_abs_error = 0;
  double max_rel_error = 0;  // over elements with exp != 0; infinite if exp == 0 and got != 0
  bool ok = true;
  std::string problem;       // set when the shapes differ (then ok is false)
};

Comparison compare_output(const BoundArgument& got, const npy::Array& expected, double rtol, double atol);

}  // namespace dace::cli
