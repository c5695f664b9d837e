#include "jit/object_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "jit/digest.h"
#include "ir/log.h"

namespace dace::jit {
namespace {

// Version 2: the digest binds the key too, so an entry renamed or copied to another key's
// file is a miss (version 1 files are misses as well and get rewritten).
constexpr char kMagic[8] = {'D', 'A', 'C', 'E', 'O', 'B', 'J', '2'};
constexpr size_t kHeaderSize = 8 + 8 + 4 + 32;  // magic, payload size, target id size, digest
// Far above any object we emit; a larger header value means a damaged file, not a big one.
constexpr uint64_t kMaxPayload = uint64_t(1) << 32;

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(char(uint8_t(v >> (8 * i))));
}

uint64_t get_le(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(p[i])) << (8 * i);
  return v;
}

std::array<uint8_t, 32> content_digest(std::string_view key, std::string_view target_id, std::string_view payload) {
  Sha256 s;
  std::string sizes;
  put_le(sizes, key.size(), 8);
  put_le(sizes, target_id.size(), 8);
  put_le(sizes, payload.size(), 8);
  s.update(sizes);
  s.update(key);
  s.update(target_id);
  s.update(payload);
  return s.finish();
}

// Whole file, or nullopt when it cannot be read (missing, a directory, I/O error).
std::optional<std::string> read_file(const std::string& path, uint64_t max_size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || uint64_t(st.st_size) > max_size) {
    ::close(fd);
    return std::nullopt;
  }
  std::string data(size_t(st.st_size), '\0');
  size_t got = 0;
  while (got < data.size()) {
    ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += size_t(n);
  }
  ::close(fd);
  data.resize(got);  // a file truncated while we read fails the size check below
  return data;
}

bool write_all(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

std::atomic<uint64_t> g_temp_counter{0};

}  // namespace

std::string cache_key(std::initializer_list<std::string_view> parts) {
  Sha256 s;
  for (std::string_view part : parts) {
    std::string len;
    put_le(len, part.size(), 8);
    s.update(len);
    s.update(part);
  }
  auto d = s.finish();
  return to_hex(d.data(), d.size());
}

bool is_valid_cache_key(std::string_view key) {
  if (key.size() < 16 || key.size() > 128) return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

ObjectCache::ObjectCache(std::string dir, std::string target_id)
    : dir_(std::move(dir)), target_id_(std::move(target_id)) {}

std::string ObjectCache::path_of(std::string_view key) const {
  return dir_ + "/" + std::string(key) + ".dobj";
}

Result<std::optional<std::string>> ObjectCache::load(std::string_view key) {
  if (!is_valid_cache_key(key))
    return make_error(Code::InvalidArgument, "invalid cache key \"" + std::string(key) +
                                                 "\" (expected 16-128 lowercase hex digits)");
  std::optional<std::string> file =
      read_file(path_of(key), kHeaderSize + target_id_.size() + kMaxPayload);
  if (!file) {
    misses_++;
    log::debug("cache", "miss " + path_of(key));
    return std::optional<std::string>();
  }
  auto reject = [&]() {
    corrupt_++;
    misses_++;
    log::info("cache", "damaged or foreign entry ignored (recompiling): " + path_of(key));
    return std::optional<std::string>();
  };
  const std::string& f = *file;
  if (f.size() < kHeaderSize || std::memcmp(f.data(), kMagic, 8) != 0) return reject();
  uint64_t payload_size = get_le(f.data() + 8, 8);
  uint64_t id_size = get_le(f.data() + 16, 4);
  if (payload_size > kMaxPayload || f.size() != kHeaderSize + id_size + payload_size)
    return reject();
  std::string_view id(f.data() + kHeaderSize, id_size);
  std::string_view payload(f.data() + kHeaderSize + id_size, payload_size);
  if (id != target_id_) return reject();
  auto digest = content_digest(key, id, payload);
  if (std::memcmp(digest.data(), f.data() + 20, 32) != 0) return reject();
  hits_++;
  log::debug("cache", "hit " + path_of(key) + " (" + std::to_string(payload.size()) + " bytes)");
  return std::optional<std::string>(std::string(payload));
}

Status ObjectCache::store(std::string_view key, std::string_view object) {
  if (!is_valid_cache_key(key))
    return make_error(Code::InvalidArgument, "invalid cache key \"" + std::string(key) + "\"");
  auto fail = [&](const std::string& what) -> Status {
    store_errors_++;
    return make_error(Code::IoError, "object cache: " + what);
  };
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return fail("cannot create directory \"" + dir_ + "\": " + ec.message());

  std::string data(kMagic, sizeof kMagic);
  put_le(data, object.size(), 8);
  put_le(data, target_id_.size(), 4);
  auto digest = content_digest(key, target_id_, object);
  data.append(reinterpret_cast<const char*>(digest.data()), digest.size());
  data.append(target_id_);
  data.append(object);

  // Same directory as the final name, so rename(2) is atomic; unique per process and call.
  std::string tmp = dir_ + "/." + std::string(key) + "." + std::to_string(::getpid()) + "." +
                    std::to_string(g_temp_counter.fetch_add(1)) + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return fail("cannot create \"" + tmp + "\": " + std::strerror(errno));
  bool ok = write_all(fd, data);
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    ::unlink(tmp.c_str());
    return fail("cannot write \"" + tmp + "\"");
  }
  if (::rename(tmp.c_str(), path_of(key).c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return fail("cannot rename to \"" + path_of(key) + "\": " + why);
  }
  stores_++;
  log::debug("cache", "stored " + path_of(key) + " (" + std::to_string(object.size()) + " bytes)");
  return Status::success();
}

void ObjectCache::note_unusable() {
  hits_--;
  misses_++;
  corrupt_++;
}

CacheStats ObjectCache::stats() const {
  return CacheStats{hits_.load(), misses_.load(), corrupt_.load(), stores_.load(),
                    store_errors_.load()};
}

}  // namespace dace::jit
