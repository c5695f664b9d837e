// The median of timings, as `dace run --repeat` and `dace report` print it.
#pragma once
#include <algorithm>
#include <vector>

namespace dace::cli {

// Of an ascending, non-empty vector: the middle element, or the mean of the two middle ones.
inline double median_of_sorted(const std::vector<double>& v) {
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Of a non-empty vector in any order.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return median_of_sorted(v);
}

}  // namespace dace::cli
