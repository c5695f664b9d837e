// A regular file mapped read-only into memory, for the `.sdfg` reader: no copy of the text in
// the heap, and the pages the reader has passed can be handed back (release), so a 447 MB
// file does not add 447 MB to the peak resident set. Only files of at least
// kMapThresholdBytes are mapped (read_sdfg_file); smaller ones are read into memory. A mapped
// file must not shrink while it is read (reading a page past its new end raises SIGBUS, as
// for every reader that maps files, LLVM's MemoryBuffer included); a change of its size or
// modification time is detected afterwards (unchanged()) and reported by the caller.
#pragma once
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace dace::ir::json {

// Files below this size are read into memory, not mapped: every real SDFG is far smaller, so
// the common case carries none of a mapping's hazards (SIGBUS on truncation or on an I/O error
// of a network file system, text that differs between passes when the file is rewritten).
inline constexpr int64_t kMapThresholdBytes = int64_t{64} << 20;

// The threshold read_sdfg_file applies: kMapThresholdBytes unless a test lowered it, so that
// the mapped path can be tested on files of a few MB. Internal; not part of the API.
int64_t map_threshold_bytes();
void set_map_threshold_bytes_for_testing(int64_t bytes);
// How many files read_sdfg_file has mapped in this process (tests tell the paths apart by it).
uint64_t mapped_file_reads();
void count_mapped_file_read();

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
  // Whether the file still has the size and modification time it had when it was mapped
  // (fstat on the descriptor kept open): false when it was written to or truncated meanwhile,
  // so the passes over the text may have seen different text.
  bool unchanged() const;

 private:
  MappedFile(int fd, const char* data, size_t size, int64_t mtime_ns)
      : fd_(fd), data_(data), size_(size), mtime_ns_(mtime_ns) {}
  int fd_;
  const char* data_;
  size_t size_;
  int64_t mtime_ns_;
};

}  // namespace dace::ir::json
