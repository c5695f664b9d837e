#include "ir/json/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace dace::ir::json {
namespace {

std::atomic<int64_t> g_map_threshold{kMapThresholdBytes};
std::atomic<uint64_t> g_mapped_reads{0};

int64_t mtime_ns(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec);
}

}  // namespace

int64_t map_threshold_bytes() { return g_map_threshold.load(std::memory_order_relaxed); }
void set_map_threshold_bytes_for_testing(int64_t bytes) { g_map_threshold.store(bytes, std::memory_order_relaxed); }
uint64_t mapped_file_reads() { return g_mapped_reads.load(std::memory_order_relaxed); }
void count_mapped_file_read() { g_mapped_reads.fetch_add(1, std::memory_order_relaxed); }

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path, int64_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st{};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 || st.st_size > limit) {
    ::close(fd);
    return nullptr;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) {
    ::close(fd);
    return nullptr;
  }
  // The readers pass through the text front to back (several times); read ahead accordingly.
  madvise(data, size, MADV_SEQUENTIAL);
  // The descriptor stays open for unchanged().
  return std::unique_ptr<MappedFile>(new MappedFile(fd, static_cast<const char*>(data), size, mtime_ns(st)));
}

MappedFile::~MappedFile() {
  munmap(const_cast<char*>(data_), size_);
  ::close(fd_);
}

bool MappedFile::unchanged() const {
  struct stat st{};
  if (fstat(fd_, &st) != 0) return false;
  return st.st_size >= 0 && static_cast<size_t>(st.st_size) == size_ && mtime_ns(st) == mtime_ns_;
}

void MappedFile::release(size_t begin, size_t end) const {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (end > size_) end = size_;
  // Whole pages only: a partly passed page still holds text the reader needs.
  const size_t first = (begin + page - 1) / page * page;
  const size_t last = end / page * page;
  if (last <= first) return;
  madvise(const_cast<char*>(data_) + first, last - first, MADV_DONTNEED);
}

}  // namespace dace::ir::json
