#include "compare.h"

#include <cmath>
#include <limits>

#include "array_values.h"

namespace dace::cli {

Comparison compare_output(const BoundArgument& got, const npy::Array& expected, double rtol, double atol) {
  Comparison c;
  int64_t n = 1;
  for (int64_t e : got.shape) n *= e;
  const npy::Array exp = c_ordered(expected);
  // A 0-d expected value may come back as a one-element array (DaCe returns scalars so).
  bool scalar_like = (exp.shape.empty() || got.shape.empty()) && exp.size() == n;
  if (exp.shape != got.shape && !scalar_like) {
    auto text = [](const std::vector<int64_t>& s) {
      std::string t = "[";
      for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
      return t + "]";
    };
    c.ok = false;
    c.problem = "shape " + text(got.shape) + ", expected " + text(exp.shape);
    c.max_abs_error = c.max_rel_error = std::numeric_limits<double>::infinity();
    return c;
  }
  const dace_dtype_t et = static_cast<dace_dtype_t>(exp.dtype);
  for (int64_t i = 0; i < n; ++i) {
    std::complex<double> g = element(got.dtype, got.bytes.data(), i);
    std::complex<double> e = element(et, exp.data.data(), i);
    bool g_nan = std::isnan(g.real()) || std::isnan(g.imag());
    bool e_nan = std::isnan(e.real()) || std::isnan(e.imag());
    if (g_nan && e_nan) continue;  // NaN where NumPy has NaN is a match
    double diff = std::abs(g - e);
    double mag = std::abs(e);
    if (g_nan || e_nan) diff = std::numeric_limits<double>::infinity();
    else if (g == e) diff = 0;  // equal infinities
    double rel = mag > 0 ? diff / mag : (diff > 0 ? std::numeric_limits<double>::infinity() : 0.0);
    if (!(diff <= atol + rtol * mag)) c.ok = false;
    c.max_abs_error = std::max(c.max_abs_error, diff);
    c.max_rel_error = std::max(c.max_rel_error, rel);
  }
  return c;
}

}  // namespace dace::cli
