// ISL-decided set questions on subsets with symbolic bounds.
#include <gtest/gtest.h>

#include "analysis/sets.h"

namespace dace::analysis {
namespace {

sym::Subset S(const char* text) {
  auto r = sym::parse_subset(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : sym::Subset{};
}

std::vector<sym::Expr> Shape(std::initializer_list<const char*> dims) {
  std::vector<sym::Expr> out;
  for (const char* d : dims) out.push_back(*sym::parse(d));
  return out;
}

TEST(SetsIsl, Covers) {
  EXPECT_EQ(subset_covers(S("0:N"), S("1:N - 1")), true);
  EXPECT_EQ(subset_covers(S("0:N"), S("0:N + 1")), false);
  EXPECT_EQ(subset_covers(S("0:N, 0:M"), S("i, 0:M")), false);  // i >= 1 may exceed N - 1
  sym::Assumptions in_map;
  in_map.nonnegative = {"i"};
  in_map.bounds["i"] = {0, std::nullopt};
  // i unbounded above: i may exceed N - 1.
  EXPECT_EQ(subset_covers(S("0:N, 0:M"), S("i, 0:M"), in_map), false);
  EXPECT_EQ(subset_covers(S("0:N"), S("N - 1")), true);
  EXPECT_EQ(subset_covers(S("0:N"), S("N")), false);
  EXPECT_EQ(subset_covers(S("0:2*N"), S("0:2*N:2")), true);
  EXPECT_EQ(subset_covers(S("0:2*N:2"), S("0:2*N")), false);   // odd points are missing
  EXPECT_EQ(subset_covers(S("0:2*N:2"), S("2:2*N:4")), true);
  EXPECT_EQ(subset_covers(S("0:N"), S("0:N, 0:N")), std::nullopt);  // rank mismatch
}

TEST(SetsIsl, Intersects) {
  EXPECT_EQ(subsets_intersect(S("0:N"), S("N:2*N")), false);
  EXPECT_EQ(subsets_intersect(S("0:N"), S("N - 1:2*N")), true);
  EXPECT_EQ(subsets_intersect(S("0:10:2"), S("1:10:2")), false);  // evens vs odds
  EXPECT_EQ(subsets_intersect(S("0:10:2"), S("1:10:3")), true);   // 4 is in both
  EXPECT_EQ(subsets_intersect(S("i, 0:M"), S("i + 1, 0:M")), false);
  EXPECT_EQ(subsets_intersect(S("i, 0:M"), S("j, 0:M")), true);  // i == j is possible
}

TEST(SetsIsl, WithinShape) {
  EXPECT_EQ(subset_within_shape(S("0:N, 1:M - 1"), Shape({"N", "M"})), true);
  EXPECT_EQ(subset_within_shape(S("0:N + 1"), Shape({"N"})), false);
  EXPECT_EQ(subset_within_shape(S("N - 1"), Shape({"N"})), true);
  EXPECT_EQ(subset_within_shape(S("i - 1"), Shape({"N"})), std::optional<bool>(false));
  sym::Assumptions a;
  a.bounds["i"] = {1, 10};
  EXPECT_EQ(subset_within_shape(S("i - 1"), Shape({"11"}), a), true);
  EXPECT_EQ(subset_within_shape(S("i - 1"), Shape({"9"}), a), false);
  EXPECT_EQ(subset_within_shape(S("0:N"), Shape({"N", "M"})), std::nullopt);
}

TEST(SetsIsl, NonAffine) {
  // N*M is abstracted: a safe "true" stays, an answer the abstraction could fake becomes nullopt.
  EXPECT_EQ(subset_within_shape(S("0:N*M"), Shape({"N*M"})), true);
  EXPECT_EQ(subset_within_shape(S("0:N*M + 1"), Shape({"N*M"})), std::nullopt);
  EXPECT_EQ(subset_covers(S("0:N**2"), S("0:N")), std::nullopt);  // true, but needs N**2 >= N
  EXPECT_EQ(subsets_intersect(S("0:N*M"), S("N*M:N*M + 5")), false);
  EXPECT_EQ(subsets_intersect(S("foo(N)"), S("0:2")), std::nullopt);
}

TEST(SetsIsl, SymbolicStepIsConservative) {
  EXPECT_EQ(subset_covers(S("0:N"), S("0:N:s")), true);          // the hull is covered
  EXPECT_EQ(subset_covers(S("0:N:s"), S("0:N")), std::nullopt);  // outer is approximated
  EXPECT_EQ(subsets_intersect(S("0:N:s"), S("N:2*N")), false);
  EXPECT_EQ(subsets_intersect(S("0:N:s"), S("0:2*N")), std::nullopt);
}

}  // namespace
}  // namespace dace::analysis
