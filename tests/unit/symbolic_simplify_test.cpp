// simplify / prove / bounds under DaCe's assumptions (symbols positive unless declared).
#include <gtest/gtest.h>

#include "ir/symbolic/expr.h"

namespace dace::sym {
namespace {

Expr P(const char* text) {
  auto r = parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : integer(-424242);
}

TEST(SymbolicSimplify, MinMaxUnderPositivity) {
  EXPECT_EQ(simplify(P("Max(N, 0)")), symbol("N"));
  EXPECT_EQ(simplify(P("Min(N, 0)")), integer(0));
  EXPECT_EQ(simplify(P("Max(N, 1)")), symbol("N"));
  EXPECT_EQ(simplify(P("Max(N - 1, 0)")), P("N - 1"));
  EXPECT_EQ(simplify(P("Min(i, N)")), P("Min(i, N)"));  // unknown order
  Assumptions unrestricted;
  unrestricted.unrestricted = {"N"};
  EXPECT_EQ(simplify(P("Max(N, 0)"), unrestricted), P("Max(N, 0)"));
  Assumptions nonneg;
  nonneg.nonnegative = {"i"};
  EXPECT_EQ(simplify(P("Max(i, 0)"), nonneg), symbol("i"));
  EXPECT_EQ(simplify(P("Max(i, 1)"), nonneg), P("Max(i, 1)"));
  EXPECT_EQ(simplify(P("abs(N)")), symbol("N"));
  EXPECT_EQ(simplify(P("Min(N*M, N)")), symbol("N"));  // N*M >= N for M >= 1
}

TEST(SymbolicSimplify, BoundsDecideDivisionAndMod) {
  Assumptions a;
  a.bounds["i"] = {0, 31};
  EXPECT_EQ(simplify(P("i // 32"), a), integer(0));
  EXPECT_EQ(simplify(P("i % 32"), a), symbol("i"));
  EXPECT_EQ(simplify(P("(i + 32) // 32"), a), integer(1));
  EXPECT_EQ(simplify(P("(i + 32) % 32"), a), symbol("i"));
  EXPECT_EQ(simplify(P("i // 16"), a), P("i // 16"));
  EXPECT_EQ(simplify(P("Min(i, 40)"), a), symbol("i"));
}

TEST(SymbolicSimplify, ExpandsWhenSmaller) {
  EXPECT_EQ(simplify(P("N*(i + 1) - N*i")), symbol("N"));
  EXPECT_EQ(simplify(P("H*SM**2*(N - 1) + SM**2*(H - 1) + SM*(SM - 1) + SM")), P("H*N*SM**2"));
  EXPECT_EQ(simplify(P("(N - 2)**2")), P("(N - 2)**2"));  // the factored form is smaller
}

TEST(SymbolicSimplify, Prove) {
  EXPECT_EQ(prove(P("N >= 1")), true);
  EXPECT_EQ(prove(P("N >= 0")), true);
  EXPECT_EQ(prove(P("N < 1")), false);
  EXPECT_EQ(prove(P("N - 1 >= 0")), true);
  EXPECT_EQ(prove(P("N > 1")), std::nullopt);
  EXPECT_EQ(prove(P("N == M")), std::nullopt);
  EXPECT_EQ(prove(P("(N - 2)**2 >= 0")), true);
  EXPECT_EQ(prove(P("N*N >= N")), true);
  EXPECT_EQ(prove(P("Min(i, N) <= N")), true);
  EXPECT_EQ(prove(P("Max(i, N) >= i")), true);
  EXPECT_EQ(prove(P("N < 0 or M > 0")), true);
  EXPECT_EQ(prove(P("N < 0 and M > 0")), false);
  EXPECT_EQ(prove(P("not (N < 0)")), true);
  EXPECT_EQ(prove(P("N")), true);  // truthiness: N != 0 for positive N
  EXPECT_EQ(prove(P("N % 4 < 4")), true);
  Assumptions u;
  u.unrestricted = {"x"};
  EXPECT_EQ(prove(P("x >= 0"), u), std::nullopt);
  EXPECT_EQ(prove(P("x**2 >= 0"), u), true);
  Assumptions b;
  b.bounds["k"] = {2, 5};
  EXPECT_EQ(prove(P("k >= 2 and k <= 5"), b), true);
  EXPECT_EQ(prove(P("k > 5"), b), false);
  EXPECT_EQ(prove(P("k == 3"), b), std::nullopt);
}

TEST(SymbolicSimplify, Bounds) {
  Bounds b = bounds(P("N - 1"));
  EXPECT_EQ(b.lo, 0);
  EXPECT_EQ(b.hi, std::nullopt);
  Assumptions a;
  a.bounds["i"] = {0, 9};
  Bounds c = bounds(P("2*i + 1"), a);
  EXPECT_EQ(c.lo, 1);
  EXPECT_EQ(c.hi, 19);
  Bounds d = bounds(P("i % 4"), a);
  EXPECT_EQ(d.lo, 0);
  EXPECT_EQ(d.hi, 3);
}

}  // namespace
}  // namespace dace::sym
