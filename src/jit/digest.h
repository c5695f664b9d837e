// Digests for the JIT layer: cache keys and the integrity check of cached objects. A thin
// layer over the IR's SHA-256 (ir/sha256.h), so one implementation serves content hashes and
// cache keys alike.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "ir/sha256.h"

namespace dace::jit {

class Sha256 {
 public:
  void update(std::string_view bytes) { impl_.update(bytes); }
  void update(const void* data, size_t size) {
    impl_.update(std::string_view(static_cast<const char*>(data), size));
  }
  std::array<uint8_t, 32> finish() { return impl_.digest(); }  // the object is spent afterwards

 private:
  ir::Sha256 impl_;
};

std::array<uint8_t, 32> sha256(std::string_view bytes);
std::string to_hex(const uint8_t* data, size_t size);
std::string sha256_hex(std::string_view bytes);

}  // namespace dace::jit
