// Structural equality, content hash and the SHA-256 behind it.
#include <gtest/gtest.h>

#include <string>

#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "ir/sha256.h"
#include "json_test_sdfg.h"

namespace {

using namespace dace;
using namespace dace::ir;

std::unique_ptr<SDFG> load_small() {
  auto r = json::read_sdfg(test::kSmallSdfg);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(*r) : nullptr;
}

TEST(Sha256, PublishedTestVectors) {
  // FIPS 180-2 appendix B and the empty message.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  std::string data;
  for (int i = 0; i < 1000; ++i) data += static_cast<char>(i * 31 % 256);
  for (size_t split : {size_t(0), size_t(1), size_t(55), size_t(56), size_t(63), size_t(64), size_t(65), size_t(999)}) {
    Sha256 h;
    h.update(std::string_view(data).substr(0, split));
    h.update(std::string_view(data).substr(split));
    EXPECT_EQ(h.hex_digest(), sha256_hex(data)) << split;
  }
}

TEST(Equality, SameSdfgIsEqualAndHashesAlike) {
  auto a = load_small(), b = load_small();
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(structurally_equal(*a, *b));
  EXPECT_EQ(content_hash(*a), content_hash(*b));
  EXPECT_EQ(content_hash(*a).size(), 64u);
  auto copy = a->clone_sdfg();
  EXPECT_TRUE(structurally_equal(*a, *copy));
  EXPECT_EQ(content_hash(*a), content_hash(*copy));
}

TEST(Equality, GuidsDoNotCount) {
  auto a = load_small(), b = load_small();
  ASSERT_TRUE(a && b);
  auto* st = static_cast<State*>(b->block(0));
  st->guid = "another";
  st->node(2)->guid = "another-node";
  st->edge(0)->memlet.guid = "another-memlet";
  b->guid = "x";
  EXPECT_TRUE(structurally_equal(*a, *b));
  EXPECT_EQ(content_hash(*a), content_hash(*b));
}

TEST(Equality, ChangesAreFoundAndChangeTheHash) {
  auto a = load_small();
  ASSERT_TRUE(a);
  const std::string base = content_hash(*a);
  {
    auto b = load_small();
    static_cast<Tasklet*>(static_cast<State*>(b->block(0))->node(2))->code.code = "b = a * 3";
    std::string diff;
    EXPECT_FALSE(structurally_equal(*a, *b, &diff));
    EXPECT_NE(diff.find("/nodes/0/nodes/2/attributes/code/string_data"), std::string::npos) << diff;
    EXPECT_NE(diff.find("b = a * 2"), std::string::npos) << diff;
    EXPECT_NE(diff.find("b = a * 3"), std::string::npos) << diff;
    EXPECT_NE(content_hash(*b), base);
  }
  {
    auto b = load_small();
    b->symbols["K"] = DType::of(ScalarType::Int32);
    std::string diff;
    EXPECT_FALSE(structurally_equal(*a, *b, &diff));
    EXPECT_NE(diff.find("/attributes/symbols"), std::string::npos) << diff;
    EXPECT_NE(content_hash(*b), base);
  }
  {
    // Assignment order is meaningful.
    auto b = load_small();
    auto& as = b->edge(0)->assignments;
    std::swap(as[0], as[1]);
    EXPECT_FALSE(structurally_equal(*a, *b));
    EXPECT_NE(content_hash(*b), base);
  }
  {
    auto b = load_small();
    b->arrays.at("B").transient = true;
    EXPECT_FALSE(structurally_equal(*a, *b));
    EXPECT_NE(content_hash(*b), base);
  }
}

TEST(Equality, HashIsStableAcrossSaveAndLoad) {
  auto a = load_small();
  ASSERT_TRUE(a);
  auto b = json::read_sdfg(json::write_sdfg(*a));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(content_hash(*a), content_hash(**b));
  // The hash is of the canonical compact text without guids, so it is reproducible here.
  EXPECT_EQ(content_hash(*a), sha256_hex(json::write_sdfg(*a, {.pretty = false, .include_guids = false})));
}

}  // namespace
