#include "jit/digest.h"

namespace dace::jit {

std::array<uint8_t, 32> sha256(std::string_view bytes) {
  ir::Sha256 h;
  h.update(bytes);
  return h.digest();
}

std::string to_hex(const uint8_t* data, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(size * 2);
  for (size_t i = 0; i < size; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  auto d = sha256(bytes);
  return to_hex(d.data(), d.size());
}

}  // namespace dace::jit
