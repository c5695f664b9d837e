// SHA-256 for the JIT layer: cache keys and the integrity check of cached objects.
// Kept private to src/jit so this layer depends on nothing of ours but ir/result.h; it can be
// replaced by the IR's own SHA-256 once that exists, since both follow FIPS 180-4.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace dace::jit {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  void update(const void* data, size_t size);
  std::array<uint8_t, 32> finish();  // the object is spent afterwards

 private:
  void block(const uint8_t* p);
  std::array<uint32_t, 8> h_;
  std::array<uint8_t, 64> buf_{};
  size_t buf_len_ = 0;
  uint64_t total_ = 0;
};

std::array<uint8_t, 32> sha256(std::string_view bytes);
std::string to_hex(const uint8_t* data, size_t size);
std::string sha256_hex(std::string_view bytes);

}  // namespace dace::jit
