// InlineOneList, the list of a subset's dimensions: one element inside the object, more on
// the heap, with the part of std::vector's interface the code base uses (docs/sdfg-json.md
// "Memory of the IR"). Every operation is checked against a std::vector doing the same.
#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>
#include <vector>

#include "ir/symbolic/expr.h"

namespace dace::sym {
namespace {

using List = InlineOneList<int>;
std::vector<int> items(const List& l) { return {l.begin(), l.end()}; }

TEST(SymbolicInlineOneList, AnswersAsAStdVectorDoesAfterEveryOperation) {
  List list;
  std::vector<int> ref;
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.capacity(), 1u);
  // Growth from the inline element to the heap, element by element.
  for (int k = 1; k <= 9; ++k) {
    list.push_back(k * 10);
    ref.push_back(k * 10);
    ASSERT_EQ(items(list), ref) << "after push_back(" << k * 10 << ")";
    ASSERT_GE(list.capacity(), list.size());
  }
  const std::vector<int> more{1, 2, 3};
  list.insert(list.begin() + 2, more.begin(), more.end());
  ref.insert(ref.begin() + 2, more.begin(), more.end());
  ASSERT_EQ(items(list), ref);
  list.insert(list.end(), more.begin(), more.end());  // at the end
  ref.insert(ref.end(), more.begin(), more.end());
  ASSERT_EQ(items(list), ref);
  list.erase(list.begin());
  ref.erase(ref.begin());
  list.erase(list.begin() + 3, list.begin() + 6);
  ref.erase(ref.begin() + 3, ref.begin() + 6);
  ASSERT_EQ(items(list), ref);
  list.push_back(list[0]);  // an element of the list itself, while the list may grow
  ref.push_back(ref[0]);
  list.pop_back();
  ref.pop_back();
  list.resize(14);
  ref.resize(14);
  ASSERT_EQ(items(list), ref);  // new elements value-initialized
  EXPECT_EQ(list.at(13), 0);
  EXPECT_THROW((void)list.at(14), std::out_of_range);
  EXPECT_EQ(list.front(), ref.front());
  EXPECT_EQ(list.back(), ref.back());
  // Hand-derived: 10..90 with 1, 2, 3 after 20 and at the end, less the first element and
  // the 4th to 6th of the rest (3, 30, 40), then zeros up to 14 elements.
  EXPECT_EQ(items(list), (std::vector<int>{20, 1, 2, 50, 60, 70, 80, 90, 1, 2, 3, 0, 0, 0}));
  list.clear();
  EXPECT_TRUE(list.empty());
}

TEST(SymbolicInlineOneList, CopiesAndMovesDeeplyInlineAndOnTheHeap) {
  List one{7};
  List two{7, 8};
  List copy_one = one, copy_two = two;
  copy_one[0] = 70;
  copy_two[1] = 80;
  EXPECT_EQ(items(one), (std::vector<int>{7}));
  EXPECT_EQ(items(two), (std::vector<int>{7, 8}));
  EXPECT_EQ(items(copy_two), (std::vector<int>{7, 80}));
  EXPECT_FALSE(copy_two == two);
  copy_two = two;
  EXPECT_TRUE(copy_two == two);
  const List& alias = copy_two;
  copy_two = alias;  // self-assignment keeps the elements
  EXPECT_EQ(items(copy_two), (std::vector<int>{7, 8}));
  List moved_one = std::move(copy_one), moved_two = std::move(copy_two);
  EXPECT_EQ(items(moved_one), (std::vector<int>{70}));
  EXPECT_EQ(items(moved_two), (std::vector<int>{7, 8}));
  EXPECT_TRUE(copy_one.empty());  // NOLINT(bugprone-use-after-move): moved-from lists are empty
  EXPECT_TRUE(copy_two.empty());  // NOLINT(bugprone-use-after-move)
  moved_one = std::move(moved_two);  // heap into inline
  EXPECT_EQ(items(moved_one), (std::vector<int>{7, 8}));
  moved_one = List{5};  // inline into heap
  EXPECT_EQ(items(moved_one), (std::vector<int>{5}));
  moved_one.swap(two);
  EXPECT_EQ(items(moved_one), (std::vector<int>{7, 8}));
  EXPECT_EQ(items(two), (std::vector<int>{5}));
  const std::vector<int> from_vector{4, 5, 6};
  List converted = from_vector;
  EXPECT_EQ(items(converted), from_vector);
  EXPECT_TRUE(List{} == List(std::vector<int>{}));
}

// A subset keeps working as before its list changed: built from braces and vectors, compared,
// printed and parsed back.
TEST(SymbolicInlineOneList, HoldsASubsetsRanges) {
  const Range i{symbol("i"), symbol("i"), integer(1), integer(1)};
  const Range n{integer(0), sub(symbol("N"), integer(1)), integer(1), integer(1)};
  Subset one{{i}};
  Subset two{{i, n}};
  EXPECT_EQ(to_string(one), "i");
  EXPECT_EQ(to_string(two), "i, 0:N");
  auto parsed = parse_subset("i, 0:N");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_TRUE(*parsed == two);
  EXPECT_FALSE(*parsed == one);
  two.dims = std::vector<Range>{n};
  EXPECT_EQ(to_string(two), "0:N");
  EXPECT_EQ(one.rank(), 1u);
}

}  // namespace
}  // namespace dace::sym
