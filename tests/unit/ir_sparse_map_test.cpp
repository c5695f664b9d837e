// SparseMap, the map of a node's connectors and of every element's unmodeled properties:
// entries in key order in one sorted array behind a pointer, none allocated while empty
// (docs/sdfg-json.md "Memory of the IR").
#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ir/nodes.h"

namespace dace::ir {
namespace {

using Entries = std::vector<std::pair<int, int>>;

Entries entries_of(const SparseMap<int, int>& m) { return {m.begin(), m.end()}; }
Entries entries_of(const std::map<int, int>& m) { return {m.begin(), m.end()}; }
std::vector<std::string> entries_of_strings(const SparseMap<std::string, std::string>& m) {
  std::vector<std::string> out;
  for (const auto& [key, value] : m) out.push_back(key + "=" + value);
  return out;
}

// Every operation applied to a SparseMap and to a std::map (the reference): after each, the
// same entries in the same (ascending key) order, and the same answers.
TEST(IrSparseMap, AnswersAsAStdMapDoesAfterEveryOperation) {
  SparseMap<int, int> map;
  std::map<int, int> ref;
  auto same = [&] { return entries_of(map) == entries_of(ref) && map.size() == ref.size(); };
  const int keys[] = {50, 10, 90, 30, 70, 20, 80, 40, 60, 0};
  for (int k : keys) {
    map[k] = k + 1;
    ref[k] = k + 1;
    ASSERT_TRUE(same()) << "after map[" << k << "]";
  }
  // emplace and insert keep a present key's value; insert_or_assign replaces it.
  EXPECT_FALSE(map.emplace(30, -1).second);
  EXPECT_FALSE(map.insert({70, -1}).second);
  EXPECT_TRUE(map.emplace(35, 36).second);
  ref.emplace(35, 36);
  EXPECT_FALSE(map.insert_or_assign(90, 900).second);
  ref.insert_or_assign(90, 900);
  EXPECT_TRUE(map.insert_or_assign(95, 950).second);
  ref.insert_or_assign(95, 950);
  ASSERT_TRUE(same());
  EXPECT_EQ(map.at(30), 31);
  EXPECT_EQ(map.at(90), 900);
  EXPECT_EQ(map.count(35), 1u);
  EXPECT_EQ(map.count(36), 0u);
  EXPECT_TRUE(map.find(36) == map.end());
  // Removal: by key (present, absent) and by iterator while walking, as erase-remove loops do.
  EXPECT_EQ(map.erase(50), 1u);
  EXPECT_EQ(map.erase(51), 0u);
  ref.erase(50);
  for (auto it = map.begin(); it != map.end();) it = it->first % 20 == 0 ? map.erase(it) : std::next(it);
  for (auto it = ref.begin(); it != ref.end();) it = it->first % 20 == 0 ? ref.erase(it) : std::next(it);
  ASSERT_TRUE(same());
  // Hand-derived: 0..90 by tens plus 35 and 95, less 50 and the multiples of 20.
  EXPECT_EQ(entries_of(map), (Entries{{10, 11}, {30, 31}, {35, 36}, {70, 71}, {90, 900}, {95, 950}}));
}

using Strings = SparseMap<std::string, std::string>;

TEST(IrSparseMap, LooksUpMissingKeysAndCopiesDeeply) {
  Strings empty;
  EXPECT_THROW((void)empty.at("x"), std::out_of_range);  // non-const: a lookup all the same
  EXPECT_THROW((void)static_cast<const Strings&>(empty).at("x"), std::out_of_range);
  EXPECT_TRUE(empty.empty());
  EXPECT_TRUE(empty.begin() == empty.end());
  EXPECT_EQ(empty.erase("x"), 0u);

  Strings map{{"b", "2"}, {"a", "1"}, {"b", "ignored"}};
  EXPECT_EQ(entries_of_strings(map), (std::vector<std::string>{"a=1", "b=2"}));
  Strings copy = map;
  copy.at("a") = "10";
  copy["c"] = "3";
  EXPECT_EQ(entries_of_strings(map), (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_EQ(entries_of_strings(copy), (std::vector<std::string>{"a=10", "b=2", "c=3"}));
  EXPECT_FALSE(copy == map);
  copy = map;
  EXPECT_TRUE(copy == map);
  copy.clear();
  EXPECT_TRUE(copy.empty());
  EXPECT_TRUE(copy == Strings());
  map.erase("a");
  map.erase("b");
  EXPECT_TRUE(map == copy);  // emptied equals cleared
}

// Strings (entries that own memory) through growth, inserts before present entries (which
// move every later entry up) and removals from the middle, against a std::map.
TEST(IrSparseMap, KeepsOwningEntriesThroughGrowthAndShifts) {
  Strings map;
  std::map<std::string, std::string> ref;
  auto same = [&] {
    std::vector<std::string> want;
    for (const auto& [key, value] : ref) want.push_back(key + "=" + value);
    return entries_of_strings(map) == want;
  };
  const std::string tail(40, 'x');  // longer than the short-string buffer: on the heap
  for (char c = 'z'; c >= 'a'; c -= 3) {  // every insert goes before all present keys
    const std::string key(1, c);
    map[key] = key + tail;
    ref[key] = key + tail;
    ASSERT_TRUE(same()) << "after inserting " << key;
  }
  map.emplace("m0", "middle");
  ref.emplace("m0", "middle");
  EXPECT_EQ(map.erase("n"), 1u);
  ref.erase("n");
  EXPECT_EQ(map.erase("b"), 1u);
  ref.erase("b");
  ASSERT_TRUE(same());
  Strings moved = std::move(map);
  EXPECT_TRUE(map.empty());  // NOLINT(bugprone-use-after-move): a moved-from map is empty
  EXPECT_TRUE(map.begin() == map.end());
  map = moved;
  EXPECT_TRUE(map == moved);
  const Strings& alias = map;
  map = alias;  // self-assignment keeps the entries
  ASSERT_TRUE(same());
  // Hand-derived: z, w, t, q, n, k, h, e, b (every third letter down from z) and m0, less n, b.
  std::vector<std::string> keys;
  for (const auto& [key, value] : moved) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"e", "h", "k", "m0", "q", "t", "w", "z"}));
}

TEST(IrConnectors, BehaveAsAMapAndCopyDeeply) {
  Tasklet t;
  EXPECT_TRUE(t.in_connectors.empty());
  EXPECT_TRUE(t.in_connectors.begin() == t.in_connectors.end());
  t.in_connectors["b"] = DType::of(ScalarType::Float64);
  t.in_connectors.emplace("a", DType{});
  std::vector<std::string> names;
  for (const auto& [name, type] : t.in_connectors) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b"}));  // name order
  std::unique_ptr<Node> clone = t.clone();
  t.in_connectors.at("b") = DType::of(ScalarType::Int32);
  EXPECT_EQ(clone->in_connectors.at("b"), DType::of(ScalarType::Float64));
  EXPECT_FALSE(clone->in_connectors == t.in_connectors);
  std::swap(t.in_connectors, t.out_connectors);
  EXPECT_TRUE(t.in_connectors.empty());
  EXPECT_EQ(t.out_connectors.size(), 2u);
}

}  // namespace
}  // namespace dace::ir
