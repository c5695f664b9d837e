#include "ir/json/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

namespace dace::ir::json {

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
  ::close(fd);  // the mapping keeps the file
  if (data == MAP_FAILED) return nullptr;
  // The readers pass through the text front to back (several times); read ahead accordingly.
  madvise(data, size, MADV_SEQUENTIAL);
  return std::unique_ptr<MappedFile>(new MappedFile(static_cast<const char*>(data), size));
}

MappedFile::~MappedFile() { munmap(const_cast<char*>(data_), size_); }

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
