// parse_simple_value (src/ir/json/simple_value_parse.cpp), the reader's fast path for the
// JSON subset .sdfg files mostly use, against nlohmann's own parser as the reference: what it
// accepts must be exactly nlohmann's DOM (value types included: unsigned vs signed integers,
// member order, duplicate keys) and end where the value ends; everything outside the subset,
// valid or not, must decline (pos and out unchanged) so that nlohmann parses it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "ir/json/json_internal.h"

namespace {

using dace::ir::json::detail::Json;
using dace::ir::json::detail::parse_simple_value;
using dace::ir::json::detail::SimpleParseScratch;

constexpr int kDepth = dace::ir::json::kMaxJsonDepth;

// Same value, same type at every level (nlohmann's == treats 1u and 1 as equal).
bool identical(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    auto i = a.begin();
    auto j = b.begin();
    for (; i != a.end(); ++i, ++j)
      if (i.key() != j.key() || !identical(i.value(), j.value())) return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t k = 0; k < a.size(); ++k)
      if (!identical(a[k], b[k])) return false;
    return true;
  }
  return a == b;
}

TEST(JsonSimpleValue, AcceptedValuesAreNlohmannsDom) {
  const char* cases[] = {
      "0", "-0", "7", "-7", "999999999999999999", "-999999999999999999", "true", "false", "null", "\"\"",
      "\"y = x + 1\"", "\"~!@#$%^&*()_+{}|:<>?`-=[];',./\x7f\"", "[]", "{}", "[1, -2, \"a\", null, [true], {}]",
      "{\"b\": 1, \"a\": {\"c\": [1, 2]}, \"d\": null}",
      // Duplicate keys: the last value, at the first key's position.
      "{\"a\": 1, \"b\": 2, \"a\": \"x\"}", " \n\t{ \"k\" :\r\n[ 1 ,2 ] } ",
      "{\"type\": \"Memlet\", \"attributes\": {\"volume\": \"1\", \"subset\": {\"type\": \"Range\", \"ranges\": "
      "[{\"start\": \"0\", \"end\": \"N - 1\", \"step\": \"1\", \"tile\": \"1\"}]}, \"data\": \"A\"}}"};
  for (const char* c : cases) {
    SCOPED_TRACE(c);
    std::string text = c;
    size_t pos = 0;
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\t')) ++pos;
    Json fast;
    SimpleParseScratch scratch;
    ASSERT_TRUE(parse_simple_value(text, pos, fast, scratch, kDepth));
    const Json reference = Json::parse(text);
    EXPECT_TRUE(identical(fast, reference)) << fast.dump() << " vs " << reference.dump();
    // Ends right after the value: only whitespace may follow.
    EXPECT_EQ(text.find_first_not_of(" \n\r\t", pos), std::string::npos) << pos;
  }
}

TEST(JsonSimpleValue, StopsAfterTheValueInsideAList) {
  const std::string text = "[{\"a\": 1}, 23, \"s\"]";
  SimpleParseScratch scratch;
  size_t pos = 1;
  Json v;
  ASSERT_TRUE(parse_simple_value(text, pos, v, scratch, kDepth));
  EXPECT_EQ(pos, 9u);
  EXPECT_EQ(v, Json::parse("{\"a\": 1}"));
  pos = 11;
  ASSERT_TRUE(parse_simple_value(text, pos, v, scratch, kDepth));
  EXPECT_EQ(pos, 13u);
  EXPECT_TRUE(v.is_number_unsigned());
  EXPECT_EQ(v.get<uint64_t>(), 23u);
}

TEST(JsonSimpleValue, EverythingElseDeclinesAndLeavesPosAndOut) {
  const char* cases[] = {
      // Valid JSON outside the subset: nlohmann's rules decide these.
      "1.5", "1e3", "-2E-1", "1000000000000000000", "18446744073709551616", "\"a\\nb\"", "\"\\u00e9\"", "\"\xc3\xa9\"",
      "{\"a\": [1, 2.5]}", "[\"ok\", \"\\\"\"]",
      // Invalid JSON: nlohmann reports it.
      "01", "-", "+1", "truex", "nul", "tru", "1x", "\"unterminated", "\"tab\there\"", "[1, 2", "[1 2]", "[1,]",
      "{\"a\" 1}", "{\"a\": 1,}", "{a: 1}", "{\"a\": 1", "", "]", "'s'"};
  for (const char* c : cases) {
    SCOPED_TRACE(c);
    const std::string text = c;
    size_t pos = 0;
    Json out = "unchanged";
    SimpleParseScratch scratch;
    EXPECT_FALSE(parse_simple_value(text, pos, out, scratch, kDepth));
    EXPECT_EQ(pos, 0u);
    EXPECT_EQ(out, Json("unchanged"));
  }
}

TEST(JsonSimpleValue, DeepNestingDeclinesInsteadOfRecursingOn) {
  const std::string text = std::string(2000, '[') + std::string(2000, ']');
  size_t pos = 0;
  Json out;
  SimpleParseScratch scratch;
  EXPECT_FALSE(parse_simple_value(text, pos, out, scratch, kDepth));
  EXPECT_EQ(pos, 0u);
}

TEST(JsonSimpleValue, DeclinesValuesDeeperThanTheLevelsLeft) {
  // "[{"a": [1]}]" opens three levels: accepted with three left, declined with two.
  const std::string text = "[{\"a\": [1]}]";
  SimpleParseScratch scratch;
  size_t pos = 0;
  Json out;
  ASSERT_TRUE(parse_simple_value(text, pos, out, scratch, 3));
  EXPECT_EQ(pos, text.size());
  EXPECT_EQ(out, Json::parse(text));
  pos = 0;
  out = "unchanged";
  EXPECT_FALSE(parse_simple_value(text, pos, out, scratch, 2));
  EXPECT_EQ(pos, 0u);
  EXPECT_EQ(out, Json("unchanged"));
  // Scalars open no level.
  pos = 0;
  EXPECT_TRUE(parse_simple_value("7", pos, out, scratch, 0));
}

}  // namespace
