// The JIT's digest wrapper (SHA-256 itself is tested in equality_hash_test) and cache keys.
#include <gtest/gtest.h>

#include <string>

#include "jit/digest.h"
#include "jit/object_cache.h"

namespace dace::jit {
namespace {

TEST(JitDigest, IncrementalUpdatesMatchOneShot) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += char('a' + i % 26);
  for (size_t split : {0, 1, 55, 56, 63, 64, 65, 128, 299}) {
    Sha256 s;
    s.update(std::string_view(text).substr(0, split));
    s.update(std::string_view(text).substr(split));
    auto d = s.finish();
    EXPECT_EQ(to_hex(d.data(), d.size()), sha256_hex(text)) << split;
  }
}

TEST(JitDigest, CacheKeysSeparateParts) {
  std::string k = cache_key({"ab", "c"});
  EXPECT_EQ(k.size(), 64u);
  EXPECT_TRUE(is_valid_cache_key(k));
  EXPECT_EQ(k, cache_key({"ab", "c"}));
  EXPECT_NE(k, cache_key({"a", "bc"}));
  EXPECT_NE(k, cache_key({"abc"}));
  EXPECT_NE(cache_key({}), cache_key({""}));
}

TEST(JitDigest, KeyValidation) {
  EXPECT_TRUE(is_valid_cache_key("0123456789abcdef"));
  EXPECT_FALSE(is_valid_cache_key("0123456789abcde"));       // too short
  EXPECT_FALSE(is_valid_cache_key("0123456789ABCDEF"));      // upper case
  EXPECT_FALSE(is_valid_cache_key("../../etc/passwd00000"));  // path characters
  EXPECT_FALSE(is_valid_cache_key(std::string(129, 'a')));
}

}  // namespace
}  // namespace dace::jit
