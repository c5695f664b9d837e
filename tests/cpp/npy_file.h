// A minimal .npy reader for the wrapper tests: little-endian float64 ("<f8"), C order.
// Enough for the corpus inputs/outputs; anything else is reported as unreadable.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace npy_test {

struct Array {
  std::vector<int64_t> shape;  // empty for a 0-d array (a scalar)
  std::vector<double> data;
};

// The integers of the "shape": (a, b, ) tuple in the header dictionary.
inline std::optional<std::vector<int64_t>> parse_shape(const std::string& header) {
  const size_t key = header.find("'shape':");
  if (key == std::string::npos) return std::nullopt;
  const size_t open = header.find('(', key), close = header.find(')', key);
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  std::vector<int64_t> shape;
  std::string digits;
  for (size_t i = open + 1; i <= close; ++i) {
    const char c = header[i];
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (!digits.empty()) {
      shape.push_back(std::stoll(digits));
      digits.clear();
    }
  }
  return shape;
}

inline std::optional<Array> read_f8(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) return std::nullopt;
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    offset = 10;
  } else {
    if (bytes.size() < 12) return std::nullopt;
    for (int k = 3; k >= 0; --k) header_len = (header_len << 8) | static_cast<unsigned char>(bytes[8 + static_cast<size_t>(k)]);
    offset = 12;
  }
  if (offset + header_len > bytes.size()) return std::nullopt;
  const std::string header(bytes.data() + offset, header_len);
  if (header.find("'descr': '<f8'") == std::string::npos) return std::nullopt;
  if (header.find("'fortran_order': False") == std::string::npos) return std::nullopt;
  auto shape = parse_shape(header);
  if (!shape) return std::nullopt;
  size_t count = 1;
  for (int64_t d : *shape) count *= static_cast<size_t>(d);
  const size_t data_at = offset + header_len;
  if (bytes.size() - data_at < count * sizeof(double)) return std::nullopt;
  Array a;
  a.shape = *shape;
  a.data.resize(count);
  std::memcpy(a.data.data(), bytes.data() + data_at, count * sizeof(double));
  return a;
}

}  // namespace npy_test
