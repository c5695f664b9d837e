// Shared by the libFuzzer targets (docs/reliability.md): an invariant that does not hold is
// a finding, reported like a crash (abort with the message) so that libFuzzer keeps the input.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace dace::fuzz {

[[noreturn]] inline void finding(const std::string& what, std::string_view input) {
  std::fprintf(stderr, "fuzz finding: %s\ninput (%zu bytes): %.*s\n", what.c_str(), input.size(),
               static_cast<int>(input.size() > 400 ? 400 : input.size()), input.data());
  std::abort();
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace dace::fuzz
