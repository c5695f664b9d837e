// NumPy `.npy` files (format versions 1.0-3.0): a header describing dtype, order and shape,
// then the raw data. Used by tests and the CLI to exchange arrays with NumPy.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/result.h"
#include "ir/tasklet/types.h"

namespace dace::npy {

struct Array {
  tasklet::ScalarType dtype = tasklet::ScalarType::Float64;
  std::vector<int64_t> shape;  // empty: a 0-d array (one element)
  bool fortran_order = false;
  std::vector<uint8_t> data;   // little-endian elements, C order unless fortran_order

  int64_t size() const;        // number of elements
  int element_size() const;
  template <class T>
  T* as() { return reinterpret_cast<T*>(data.data()); }
  template <class T>
  const T* as() const { return reinterpret_cast<const T*>(data.data()); }
  // Element i converted to double (real part for complex types).
  double at(int64_t i) const;
};

// Errors: IoError (cannot read), ParseError (not a .npy file, or a dtype libdace does not
// model, e.g. big-endian or structured).
Result<Array> read(const std::string& path);
Result<Array> parse(const std::string& bytes);
std::string serialize(const Array& a);
Status write(const std::string& path, const Array& a);

// NumPy's descr string ("<f8", "|b1", "<c16", ...) of a type, and back.
std::string descr_of(tasklet::ScalarType t);
Result<tasklet::ScalarType> type_of_descr(const std::string& descr);

}  // namespace dace::npy
