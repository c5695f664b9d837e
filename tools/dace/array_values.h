// Element-level helpers over raw array bytes, independent of where the bytes come from.
#pragma once
#include <complex>
#include <cstdint>
#include <vector>

#include "ir/npy.h"
#include "libdace.h"

namespace dace::cli {

int dtype_size(dace_dtype_t t);
const char* dtype_name(dace_dtype_t t);
bool dtype_is_complex(dace_dtype_t t);
bool dtype_is_float(dace_dtype_t t);  // real floating point

// Writes the deterministic input pattern documented in run_inputs.h into `n` elements.
void fill_generated(dace_dtype_t t, int64_t n, uint8_t* out);

// Element i of `a` as an exact integer; false for non-integral values or out of int64 range.
bool exact_int(const npy::Array& a, int64_t i, int64_t& out);

// Element i as a complex number (imaginary part 0 for real types; bools and ints converted).
std::complex<double> element(dace_dtype_t t, const uint8_t* data, int64_t i);

// `a` with its data in C order (a Fortran-ordered file is transposed in memory).
npy::Array c_ordered(npy::Array a);

}  // namespace dace::cli
