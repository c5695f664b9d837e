// `.sdfg` / `.sdfgz` files: gzip through zlib, atomic writes (temporary file + rename).
#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "ir/json/mapped_file.h"
#include "ir/json/sdfg_json.h"
#include "ir/path.h"

namespace dace::ir::json {
namespace {

constexpr int kGzipWindow = 15 + 16;  // zlib: max window, gzip wrapper

std::string errno_text() { return std::strerror(errno); }

std::string limit_text(int64_t limit);

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool is_gzip(std::string_view data) {
  return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f && static_cast<unsigned char>(data[1]) == 0x8b;
}

Result<std::string> gzip_compress(std::string_view data) {
  z_stream zs{};
  // No gzip header fields are set, so the output does not depend on time or file names.
  if (deflateInit2(&zs, Z_BEST_COMPRESSION, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return make_error(Code::Internal, "gzip: deflateInit2 failed");
  std::string out;
  out.resize(deflateBound(&zs, static_cast<uLong>(data.size())) + 32);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return make_error(Code::Internal, "gzip: deflate failed");
  out.resize(produced);
  return out;
}

Result<std::string> gzip_decompress(std::string_view data, int64_t limit) {
  z_stream zs{};
  if (inflateInit2(&zs, kGzipWindow) != Z_OK) return make_error(Code::Internal, "gzip: inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buffer[1 << 16];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buffer);
    zs.avail_out = sizeof buffer;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      if (rc == Z_MEM_ERROR) return make_error(Code::OutOfMemory, "gzip: out of memory");
      return make_error(Code::ParseError, "gzip: corrupt or truncated data");
    }
    const size_t produced = sizeof buffer - zs.avail_out;
    if (static_cast<int64_t>(out.size() + produced) > limit) {
      inflateEnd(&zs);
      return make_error(Code::IoError, "gzip: inflated content is " + limit_text(limit));
    }
    try {
      out.append(buffer, produced);
    } catch (const std::bad_alloc&) {
      inflateEnd(&zs);
      return make_error(Code::OutOfMemory, "gzip: out of memory after inflating " + std::to_string(out.size()) + " bytes");
    }
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
      inflateEnd(&zs);
      return make_error(Code::ParseError, "gzip: truncated data");
    }
  }
  inflateEnd(&zs);
  return out;
}

int64_t max_input_bytes() {
  const char* env = std::getenv("DACE_MAX_INPUT_BYTES");
  if (env && *env) {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(env, &end, 10);
    if (errno == 0 && end && *end == '\0' && v > 0) return v;
  }
  return kDefaultMaxInputBytes;
}

namespace {

std::string limit_text(int64_t limit) {
  return "larger than the input limit of " + std::to_string(limit) + " bytes (DACE_MAX_INPUT_BYTES)";
}

}  // namespace

Result<std::string> read_input_file(const std::string& path, int64_t limit) {
  // Read in chunks up to the limit, never by the size stat() reports: /dev/zero, FIFOs and
  // growing files have none, and an unbounded read would take all memory.
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return make_error(Code::IoError, "cannot open " + ir::quoted(path) + ": " + errno_text());
  struct stat st{};
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    std::fclose(f);
    return make_error(Code::IoError, "cannot read " + ir::quoted(path) + ": it is a directory");
  }
  std::string data;
  try {
    if (S_ISREG(st.st_mode) && st.st_size > 0 && st.st_size <= limit) data.reserve(static_cast<size_t>(st.st_size));
    char chunk[1 << 16];
    for (;;) {
      const size_t got = std::fread(chunk, 1, sizeof chunk, f);
      const int read_errno = errno;
      if (got > 0) {
        if (static_cast<int64_t>(data.size() + got) > limit) {
          std::fclose(f);
          return make_error(Code::IoError, ir::quoted(path) + ": " + limit_text(limit));
        }
        data.append(chunk, got);
      }
      if (got == sizeof chunk) continue;
      // fread returns short only at the end or on an error. A signal whose handler does not
      // restart system calls (SA_RESTART unset, as an embedding application may install)
      // fails a read that waits on a pipe or terminal with EINTR: no end, no error; read on.
      if (std::ferror(f) && read_errno == EINTR) {
        std::clearerr(f);
        continue;
      }
      break;
    }
  } catch (const std::bad_alloc&) {
    std::fclose(f);
    return make_error(Code::OutOfMemory, ir::quoted(path) + ": out of memory after reading " + std::to_string(data.size()) +
                                             " bytes");
  }
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return make_error(Code::IoError, "cannot read " + ir::quoted(path) + ": " + errno_text());
  return data;
}

namespace {

Result<std::unique_ptr<SDFG>> named(Result<std::unique_ptr<SDFG>> sdfg, const std::string& path) {
  if (!sdfg) {
    Error e = sdfg.take_error();
    e.message = ir::quoted(path) + ": " + e.message;
    return e;
  }
  return sdfg;
}

}  // namespace

Result<std::unique_ptr<SDFG>> read_sdfg_file(const std::string& path) {
  const int64_t limit = max_input_bytes();
  // A large regular file (kMapThresholdBytes and up) is mapped rather than copied into a
  // buffer: the reader hands back the pages it has passed, so the text does not add its size
  // to the peak resident set. Smaller files, gzip content and everything that is not a regular
  // file (FIFOs, devices) are read into memory.
  struct stat st{};
  const bool large = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= map_threshold_bytes();
  if (auto mapped = large ? MappedFile::open(path, limit) : nullptr; mapped && !is_gzip(mapped->text())) {
    count_mapped_file_read();
    const MappedFile& file = *mapped;
    const TextReleaseFn release = [&file](size_t begin, size_t end) { file.release(begin, end); };
    auto sdfg = read_sdfg(file.text(), release);
    // The passes re-read released pages from the file: if it was written to meanwhile they
    // may have seen different text, so neither the SDFG nor an error about it can be trusted.
    if (!file.unchanged())
      return make_error(Code::IoError, ir::quoted(path) + ": the file changed while it was read");
    return named(std::move(sdfg), path);
  }
  Result<std::string> read = read_input_file(path, limit);
  if (!read) return read.take_error();
  std::string data = std::move(*read);
  if (is_gzip(data)) {
    auto inflated = gzip_decompress(data, limit);
    if (!inflated) {
      Error e = inflated.take_error();
      e.message = ir::quoted(path) + ": " + e.message;
      return e;
    }
    data = std::move(*inflated);
  }
  return named(read_sdfg(data), path);
}

Status write_sdfg_file(const SDFG& sdfg, const std::string& path, const WriteOptions& options) {
  std::string data = write_sdfg(sdfg, options);
  if (ends_with(path, ".sdfgz")) {
    auto packed = gzip_compress(data);
    if (!packed) return packed.take_error();
    data = std::move(*packed);
  }
  // A unique temporary name next to the target, so that rename() is atomic and concurrent
  // writers (threads or processes) never see each other's partial files.
  static std::atomic<unsigned> counter{0};
  std::string tmp = path + ".tmp." + std::to_string(static_cast<long>(getpid())) + "." +
                    std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return make_error(Code::IoError, "cannot create " + ir::quoted(tmp) + ": " + errno_text());
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return make_error(Code::IoError, "cannot write " + ir::quoted(tmp));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = errno_text();
    std::remove(tmp.c_str());
    return make_error(Code::IoError, "cannot rename " + ir::quoted(tmp) + " to " + ir::quoted(path) + ": " + why);
  }
  return {};
}

}  // namespace dace::ir::json
