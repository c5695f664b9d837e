// Object cache: file format checks, atomic publication, and cache hits through JitSession.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "jit/object_cache.h"
#include "jit/session.h"
#include "jit_test_modules.h"

namespace dace::jit {
namespace {

using test::TestModule;

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = testing::TempDir() + "dace_jit_cache_" + std::to_string(::getpid()) + "_" +
            std::to_string(counter++);
    std::filesystem::remove_all(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
}

size_t files_in(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

const std::string kKey = cache_key({"unit test", "axpy"});

TEST(JitObjectCache, StoreThenLoadRoundTrips) {
  TempDir dir;
  ObjectCache cache(dir.path() + "/nested", "target-a");
  auto miss = cache.load(kKey);
  ASSERT_TRUE(miss.ok());
  EXPECT_FALSE(*miss);
  std::string payload("\x7f" "ELF\0\1\2 binary", 14);
  ASSERT_TRUE(cache.store(kKey, payload).ok());
  auto hit = cache.load(kKey);
  ASSERT_TRUE(hit.ok() && *hit);
  EXPECT_EQ(**hit, payload);
  CacheStats st = cache.stats();
  EXPECT_EQ(st.hits, 1u);
  EXPECT_EQ(st.misses, 1u);
  EXPECT_EQ(st.stores, 1u);
  EXPECT_EQ(files_in(dir.path() + "/nested"), 1u);  // no temp file left behind
}

TEST(JitObjectCache, DamagedFilesAreMisses) {
  TempDir dir;
  ObjectCache cache(dir.path(), "target-a");
  std::string payload(5000, 'x');
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = char(i * 7);
  ASSERT_TRUE(cache.store(kKey, payload).ok());
  const std::string path = cache.path_of(kKey);
  const std::string good = read(path);

  std::vector<std::string> damaged;
  damaged.push_back("");                                  // empty
  damaged.push_back(good.substr(0, 10));                  // truncated header
  damaged.push_back(good.substr(0, good.size() - 1));     // truncated payload
  damaged.push_back(good + "trailing");                   // extra bytes
  std::string flipped = good;
  flipped[good.size() - 100] ^= 0x20;                     // payload bit flip
  damaged.push_back(flipped);
  std::string bad_magic = good;
  bad_magic[0] = 'X';
  damaged.push_back(bad_magic);
  std::string huge = good;
  for (int i = 8; i < 16; ++i) huge[i] = '\xff';          // absurd payload size
  damaged.push_back(huge);
  uint64_t expected_corrupt = 0;
  for (const std::string& d : damaged) {
    write(path, d);
    auto r = cache.load(kKey);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(*r);
    EXPECT_EQ(cache.stats().corrupt, ++expected_corrupt);
  }
  // Another target's file under the same key is a miss as well.
  ObjectCache other(dir.path(), "target-b");
  ASSERT_TRUE(other.store(kKey, payload).ok());
  auto foreign = cache.load(kKey);
  ASSERT_TRUE(foreign.ok());
  EXPECT_FALSE(*foreign);
  EXPECT_EQ(cache.stats().hits, 0u);
}

TEST(JitObjectCache, InvalidKeysAreRejected) {
  TempDir dir;
  ObjectCache cache(dir.path(), "t");
  auto r = cache.load("../escape0000000000");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::InvalidArgument);
  EXPECT_EQ(cache.store("ABC", "x").error().code, Code::InvalidArgument);
}

TEST(JitObjectCache, UnwritableDirectoryIsIoError) {
  ObjectCache cache("/proc/dace-no-such-dir", "t");
  Status s = cache.store(kKey, "x");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::IoError);
  EXPECT_EQ(cache.stats().store_errors, 1u);
}

TEST(JitObjectCache, ConcurrentWritersLeaveOneValidFile) {
  TempDir dir;
  std::string payload(100000, 'p');
  auto writer = [&] {
    ObjectCache cache(dir.path(), "t");
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(cache.store(kKey, payload).ok());
  };
  std::thread a(writer), b(writer);
  auto reader = [&] {
    ObjectCache cache(dir.path(), "t");
    for (int i = 0; i < 200; ++i) {
      auto r = cache.load(kKey);
      ASSERT_TRUE(r.ok());
      if (*r) {
        ASSERT_EQ(**r, payload);  // never a torn file
      }
    }
    EXPECT_EQ(cache.stats().corrupt, 0u);
  };
  std::thread c(reader);
  a.join();
  b.join();
  c.join();
  EXPECT_EQ(files_in(dir.path()), 1u);
}

// ---- through the session -----------------------------------------------------------------

std::unique_ptr<JitSession> cached_session(const std::string& dir) {
  SessionOptions so;
  so.cache_dir = dir;
  auto s = JitSession::create(so);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(*s) : nullptr;
}

Result<std::unique_ptr<JitModule>> compile(JitSession& s, TestModule m, const CompileOptions& o) {
  return s.compile(std::move(m.module), std::move(m.context), o);
}

void expect_axpy_works(JitModule& m) {
  auto f = m.lookup_function<void(double*, const double*, int64_t, double)>("axpy");
  ASSERT_TRUE(f.ok()) << f.error().message;
  std::vector<double> x(37), y(37);
  for (int i = 0; i < 37; ++i) {
    x[i] = i;
    y[i] = 1;
  }
  (*f)(y.data(), x.data(), 37, 3.0);
  for (int i = 0; i < 37; ++i) ASSERT_EQ(y[i], 1.0 + 3.0 * i);
}

TEST(JitCache, SecondCompileIsAHit) {
  TempDir dir;
  auto s = cached_session(dir.path());
  ASSERT_TRUE(s);
  CompileOptions o;
  o.cache_key = cache_key({"axpy", "O3", s->target().id()});
  o.keep_object = true;
  auto first = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_FALSE((*first)->stats().cache_hit);
  EXPECT_EQ(s->cache_stats().misses, 1u);
  EXPECT_EQ(s->cache_stats().stores, 1u);
  expect_axpy_works(**first);

  auto second = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(second.ok()) << second.error().message;
  EXPECT_TRUE((*second)->stats().cache_hit);
  EXPECT_EQ((*second)->stats().optimize_ms, 0.0);
  EXPECT_EQ((*second)->stats().codegen_ms, 0.0);
  EXPECT_EQ(s->cache_stats().hits, 1u);
  EXPECT_EQ(s->cache_stats().stores, 1u);  // nothing new written
  EXPECT_TRUE((*second)->object_file() == (*first)->object_file());
  expect_axpy_works(**second);

  // Another session (think: another process) loads it without any IR.
  auto other = cached_session(dir.path());
  ASSERT_TRUE(other);
  auto loaded = other->load_cached(o.cache_key);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE((*loaded)->stats().cache_hit);
  expect_axpy_works(**loaded);
  EXPECT_EQ(other->live_modules(), 1u);
}

TEST(JitCache, LoadCachedMissIsNotFound) {
  TempDir dir;
  auto s = cached_session(dir.path());
  ASSERT_TRUE(s);
  auto r = s->load_cached(cache_key({"never stored"}));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::NotFound);
  auto no_cache = JitSession::create();
  ASSERT_TRUE(no_cache.ok());
  EXPECT_EQ((*no_cache)->load_cached(cache_key({"x"})).error().code, Code::NotFound);
}

TEST(JitCache, CorruptedEntryIsRecompiled) {
  TempDir dir;
  auto s = cached_session(dir.path());
  ASSERT_TRUE(s);
  CompileOptions o;
  o.cache_key = cache_key({"axpy corrupt"});
  ASSERT_TRUE(compile(*s, test::make_axpy(), o).ok());
  const std::string path = dir.path() + "/" + o.cache_key + ".dobj";
  std::string bytes = read(path);
  ASSERT_GT(bytes.size(), 200u);
  write(path, bytes.substr(0, bytes.size() / 2));  // truncated, as by a crashed writer

  auto again = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_FALSE((*again)->stats().cache_hit);
  EXPECT_EQ(s->cache_stats().corrupt, 1u);
  EXPECT_EQ(s->cache_stats().stores, 2u);  // rewritten
  expect_axpy_works(**again);
  EXPECT_EQ(read(path), bytes);  // deterministic: the same file again

  auto third = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(third.ok());
  EXPECT_TRUE((*third)->stats().cache_hit);
}

TEST(JitCache, ValidFileWithGarbageObjectFallsBackToCompiling) {
  // Passes the hash check (written through the cache) but is no ELF object.
  TempDir dir;
  auto s = cached_session(dir.path());
  ASSERT_TRUE(s);
  CompileOptions o;
  o.cache_key = cache_key({"garbage object"});
  ObjectCache writer(dir.path(), s->target().id());
  ASSERT_TRUE(writer.store(o.cache_key, "definitely not an ELF file").ok());
  auto m = compile(*s, test::make_axpy(), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_FALSE((*m)->stats().cache_hit);
  EXPECT_EQ(s->cache_stats().corrupt, 1u);
  expect_axpy_works(**m);
  EXPECT_EQ(s->live_modules(), 1u);
}

TEST(JitCache, NoKeyMeansNoCaching) {
  TempDir dir;
  auto s = cached_session(dir.path());
  ASSERT_TRUE(s);
  ASSERT_TRUE(compile(*s, test::make_axpy(), CompileOptions{}).ok());
  CacheStats st = s->cache_stats();
  EXPECT_EQ(st.hits + st.misses + st.stores, 0u);
}

TEST(JitCache, InvalidKeyIsAnError) {
  TempDir dir;
  auto s = cached_session(dir.path());
  ASSERT_TRUE(s);
  CompileOptions o;
  o.cache_key = "not hex!";
  auto r = compile(*s, test::make_axpy(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::InvalidArgument);
}

}  // namespace
}  // namespace dace::jit
