// SHA-256 against the FIPS 180-2 example digests, and cache-key properties.
#include <gtest/gtest.h>

#include <string>

#include "jit/digest.h"
#include "jit/object_cache.h"

namespace dace::jit {
namespace {

TEST(JitDigest, Fips180Examples) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

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
