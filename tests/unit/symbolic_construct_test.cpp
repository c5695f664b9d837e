// Canonical construction: algebraic identities and pointer equality of equal expressions.
#include <gtest/gtest.h>

#include <thread>

#include "ir/symbolic/expr.h"

namespace dace::sym {
namespace {

Expr P(const char* text) {
  auto r = parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : integer(-424242);
}

TEST(SymbolicConstruct, InterningGivesPointerEquality) {
  EXPECT_EQ(symbol("N"), symbol("N"));
  EXPECT_EQ(integer(7), integer(7));
  EXPECT_NE(symbol("N"), symbol("M"));
  EXPECT_EQ(add(symbol("N"), integer(1)), add(integer(1), symbol("N")));
  EXPECT_EQ(P("N + 1"), P("1+N"));
  EXPECT_EQ(P("2*(N-1)"), P("2*N - 2"));
  EXPECT_EQ(P("-(N - 1)"), P("1 - N"));
  EXPECT_EQ(P("M*N*K"), P("K*(N*M)"));
  EXPECT_EQ(P("a + b + c"), P("c + (b + a)"));
}

TEST(SymbolicConstruct, ConstantFolding) {
  EXPECT_EQ(P("2 + 3*4"), integer(14));
  EXPECT_EQ(P("2**10"), integer(1024));
  EXPECT_EQ(P("(-2)**3"), integer(-8));
  EXPECT_EQ(P("-2**2"), integer(-4));  // ** binds tighter than unary minus
  EXPECT_EQ(P("Min(3, 1, 2)"), integer(1));
  EXPECT_EQ(P("Max(3, 1, 2)"), integer(3));
  EXPECT_EQ(P("10 - 3 - 2"), integer(5));
}

TEST(SymbolicConstruct, PythonFloorAndModOfConstants) {
  // Python: 7 // 2 = 3, -7 // 2 = -4, 7 // -2 = -4, -7 // -2 = 3
  EXPECT_EQ(floordiv(integer(7), integer(2)), integer(3));
  EXPECT_EQ(floordiv(integer(-7), integer(2)), integer(-4));
  EXPECT_EQ(floordiv(integer(7), integer(-2)), integer(-4));
  EXPECT_EQ(floordiv(integer(-7), integer(-2)), integer(3));
  // Python: 7 % 3 = 1, -7 % 3 = 2, 7 % -3 = -2, -7 % -3 = -1
  EXPECT_EQ(mod(integer(7), integer(3)), integer(1));
  EXPECT_EQ(mod(integer(-7), integer(3)), integer(2));
  EXPECT_EQ(mod(integer(7), integer(-3)), integer(-2));
  EXPECT_EQ(mod(integer(-7), integer(-3)), integer(-1));
  // ceil(7/2) = 4, ceil(-7/2) = -3
  EXPECT_EQ(ceildiv(integer(7), integer(2)), integer(4));
  EXPECT_EQ(ceildiv(integer(-7), integer(2)), integer(-3));
  EXPECT_EQ(P("-7 // 2"), integer(-4));
  EXPECT_EQ(P("-7 % 3"), integer(2));
}

TEST(SymbolicConstruct, LikeTermsAndIdentities) {
  Expr N = symbol("N");
  EXPECT_EQ(P("2*N + N"), mul(integer(3), N));
  EXPECT_EQ(P("N*N"), pow(N, integer(2)));
  EXPECT_EQ(P("N*N*N"), P("N**3"));
  EXPECT_EQ(P("N**2 * N**3"), P("N**5"));
  EXPECT_EQ(P("x - x"), integer(0));
  EXPECT_EQ(P("x*0"), integer(0));
  EXPECT_EQ(P("x*1"), symbol("x"));
  EXPECT_EQ(P("x + 0"), symbol("x"));
  EXPECT_EQ(P("x**1"), symbol("x"));
  EXPECT_EQ(P("x**0"), integer(1));
  EXPECT_EQ(P("(2*N)**2"), P("4*N**2"));
  EXPECT_EQ(P("(N**2)**3"), P("N**6"));
  EXPECT_EQ(P("N - 1 + 1"), N);
  EXPECT_EQ(P("3*N - 3*N + M"), symbol("M"));
}

TEST(SymbolicConstruct, DivisionRules) {
  EXPECT_EQ(P("(N*4)//4"), symbol("N"));
  EXPECT_EQ(P("(2*N + 4)//2"), P("N + 2"));
  EXPECT_EQ(P("(N*M)//M"), symbol("N"));
  EXPECT_EQ(P("N//1"), symbol("N"));
  EXPECT_EQ(P("(N//2)//3"), P("N//6"));
  EXPECT_EQ(P("(6*N) % 3"), integer(0));
  EXPECT_EQ(P("(N + 33) % 32"), P("(N + 1) % 32"));
  EXPECT_EQ(P("(2*N + 1) % 2"), integer(1));
  EXPECT_EQ(P("N % 1"), integer(0));
  EXPECT_EQ(P("int_ceil(4*N, 2)"), P("2*N"));
  EXPECT_EQ(P("6/3"), integer(2));
  EXPECT_EQ(P("4*N/2"), P("2*N"));
  EXPECT_EQ(P("N/2")->op, Op::Call);
  EXPECT_NE(P("N//2"), P("N/2"));
  EXPECT_EQ(P("floor(N/2)"), P("N//2"));
  EXPECT_EQ(P("ceiling(N/32)"), ceildiv(symbol("N"), integer(32)));
}

TEST(SymbolicConstruct, MinMax) {
  Expr N = symbol("N");
  EXPECT_EQ(P("Min(N, N)"), N);
  EXPECT_EQ(P("Min(N, N + 1)"), N);
  EXPECT_EQ(P("Max(N, N + 1)"), P("N + 1"));
  EXPECT_EQ(P("Min(a, b)"), P("min(b, a)"));
  EXPECT_EQ(P("Min(a, Min(b, c))"), P("Min(Min(c, a), b)"));
  EXPECT_EQ(P("Max(a, 2, 5)"), P("Max(5, a)"));
  EXPECT_EQ(P("Abs(-5)"), integer(5));
  EXPECT_EQ(P("abs(x)"), P("Max(x, -x)"));
}

TEST(SymbolicConstruct, ComparisonsAndLogic) {
  EXPECT_EQ(P("i > N"), P("N < i"));
  EXPECT_EQ(P("i >= N"), P("N <= i"));
  EXPECT_EQ(P("i < i + 1"), boolean(true));
  EXPECT_EQ(P("i + 2 <= i"), boolean(false));
  EXPECT_EQ(P("a == b"), P("b == a"));
  EXPECT_EQ(P("not (a < b)"), P("b <= a"));
  EXPECT_EQ(P("not not (a < b)"), P("a < b"));
  EXPECT_EQ(P("a < b and True"), P("a < b"));
  EXPECT_EQ(P("a < b or True"), boolean(true));
  EXPECT_EQ(P("a < b and c < d"), P("c < d and a < b"));
  EXPECT_EQ(P("a < b < c"), P("a < b and b < c"));
  EXPECT_EQ(lt(integer(1), integer(2)), boolean(true));
}

TEST(SymbolicConstruct, OrderIsStructuralNotByAddress) {
  // The operand order only depends on structure: build in different orders, same result.
  Expr a = add(add(symbol("zz"), symbol("aa")), symbol("mm"));
  Expr b = add(symbol("mm"), add(symbol("aa"), symbol("zz")));
  EXPECT_EQ(a, b);
  ASSERT_EQ(a->op, Op::Add);
  EXPECT_EQ(a->args[0], symbol("aa"));
  EXPECT_EQ(a->args[1], symbol("mm"));
  EXPECT_EQ(a->args[2], symbol("zz"));
  EXPECT_LT(compare(symbol("a"), symbol("b")), 0);
  EXPECT_GT(compare(symbol("b"), symbol("a")), 0);
  EXPECT_EQ(compare(symbol("a"), symbol("a")), 0);
}

TEST(SymbolicConstruct, ThreadsInternToIdenticalPointers) {
  constexpr int kThreads = 6;
  const char* texts[] = {"N + 1", "2*(M - 1)*K", "Min(i, N - 1) + int_floor(j, 4)", "thread_sym_x**3 - 7",
                         "Max(a, b, c) % 5"};
  std::vector<std::vector<Expr>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 200; ++rep) {
        for (const char* s : texts) {
          auto r = parse(s);
          if (rep == 0) results[t].push_back(r.ok() ? *r : nullptr);
        }
        // Fresh names per repetition stress concurrent insertion of new nodes.
        (void)add(symbol("shared_" + std::to_string(rep)), integer(rep));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 1; t < kThreads; ++t) EXPECT_EQ(results[t], results[0]);
  for (int rep = 0; rep < 200; ++rep) {
    Expr e = add(symbol("shared_" + std::to_string(rep)), integer(rep));
    EXPECT_EQ(e, add(integer(rep), symbol("shared_" + std::to_string(rep))));
  }
}

}  // namespace
}  // namespace dace::sym
