// On-disk cache of compiled object files, shared by threads and processes.
//
// One file per key: `<dir>/<key>.dobj`. Writers publish with a temp file in the same
// directory plus rename(2), so a reader sees either no file or a complete one. Each file
// carries a header with the payload size, the target id it was built for, and a SHA-256 of
// both; a file that is truncated, corrupted or built for another target reads as a miss.
#pragma once
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "ir/result.h"

namespace dace::jit {

// Hex digest (64 characters) of the parts. Parts are length-prefixed before hashing, so
// {"ab", "c"} and {"a", "bc"} give different keys.
std::string cache_key(std::initializer_list<std::string_view> parts);

// Keys name files: only [0-9a-f], 16 to 128 characters.
bool is_valid_cache_key(std::string_view key);

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;     // no usable file, including corrupt and foreign ones
  uint64_t corrupt = 0;    // files rejected by the size/hash/target check (also counted as misses)
  uint64_t stores = 0;
  uint64_t store_errors = 0;
};

class ObjectCache {
 public:
  // `target_id` names the machine code the objects contain (triple, CPU, features, LLVM
  // version); files written for another target id are misses.
  ObjectCache(std::string dir, std::string target_id);

  const std::string& dir() const { return dir_; }
  std::string path_of(std::string_view key) const;

  // The object for `key`, or nullopt on a miss. Errors only for an invalid key.
  Result<std::optional<std::string>> load(std::string_view key);
  // Atomically publishes `object` under `key`; an existing file is replaced.
  Status store(std::string_view key, std::string_view object);
  // Records that a loaded object could not be linked after all (counted as corrupt).
  void note_unusable();

  CacheStats stats() const;

 private:
  std::string dir_;
  std::string target_id_;
  std::atomic<uint64_t> hits_{0}, misses_{0}, corrupt_{0}, stores_{0}, store_errors_{0};
};

}  // namespace dace::jit
