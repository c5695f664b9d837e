// SHA-256 (FIPS 180-4), incremental. Used for content hashes and cache keys; no external
// crypto library is needed for that.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace dace::ir {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  // Finishes the hash; the object must not be updated afterwards.
  std::array<uint8_t, 32> digest();
  std::string hex_digest();  // lower-case hex

 private:
  void compress(const uint8_t* block);
  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

}  // namespace dace::ir
