// A regular file mapped read-only into memory, for the `.sdfg` reader: no copy of the text in
// the heap, and the pages the reader has passed can be handed back (release), so a 447 MB
// file does not add 447 MB to the peak resident set. The file must not shrink while mapped
// (reading a page past its new end raises SIGBUS, as for every reader that maps files).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace dace::ir::json {

class MappedFile {
 public:
  // Null when the path is not a non-empty regular file of at most `limit` bytes or cannot be
  // mapped; the caller then reads it the ordinary way, which reports any error.
  static std::unique_ptr<MappedFile> open(const std::string& path, int64_t limit);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return {data_, size_}; }
  // Drops the whole pages inside [begin, end) from this process's resident set (they stay in
  // the page cache and fault back in when read again).
  void release(size_t begin, size_t end) const;

 private:
  MappedFile(const char* data, size_t size) : data_(data), size_(size) {}
  const char* data_;
  size_t size_;
};

}  // namespace dace::ir::json
