// What the address-space-limit (RLIMIT_AS) tests need to know about their own process.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace dace::testing_support {

// AddressSanitizer's allocator reserves address space of its own and reports failed mappings
// itself, so tests that set RLIMIT_AS skip under it.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// Virtual memory in use by this process, in bytes (VmSize of /proc/self/status); -1 if unknown.
inline int64_t vm_size_bytes() {
  std::ifstream in("/proc/self/status");
  std::string key;
  while (in >> key) {
    if (key == "VmSize:") {
      int64_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
    in.ignore(1 << 20, '\n');
  }
  return -1;
}

}  // namespace dace::testing_support
