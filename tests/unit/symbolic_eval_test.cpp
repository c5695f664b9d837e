// evaluate, substitute, free_symbols, expand, affine.
#include <gtest/gtest.h>

#include "ir/symbolic/expr.h"

namespace dace::sym {
namespace {

Expr P(const char* text) {
  auto r = parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : integer(-424242);
}

int64_t Eval(const char* text, const std::map<std::string, int64_t>& values) {
  auto r = evaluate(P(text), values);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : -424242;
}

TEST(SymbolicEval, Arithmetic) {
  EXPECT_EQ(Eval("N*(N - 3) + N - 2", {{"N", 10}}), 10 * 7 + 10 - 2);
  EXPECT_EQ(Eval("H*SM**2", {{"H", 3}, {"SM", 4}}), 48);
  EXPECT_EQ(Eval("Min(i, N - 1)", {{"i", 7}, {"N", 5}}), 4);
  EXPECT_EQ(Eval("Max(i, 2, j)", {{"i", -7}, {"j", 1}}), 2);
  EXPECT_EQ(Eval("abs(x)", {{"x", -9}}), 9);
  EXPECT_EQ(Eval("32*ceiling(N/32)", {{"N", 33}}), 64);
  EXPECT_EQ(Eval("N/4", {{"N", 12}}), 3);
  EXPECT_EQ(Eval("i < N and N != 3", {{"i", 1}, {"N", 4}}), 1);
  EXPECT_EQ(Eval("not (i < N)", {{"i", 1}, {"N", 4}}), 0);
}

TEST(SymbolicEval, PythonSemanticsWithNegatives) {
  // Hand-derived from Python: -7 // 2 == -4, 7 // -2 == -4, -7 % 2 == 1, 7 % -2 == -1.
  EXPECT_EQ(Eval("a // b", {{"a", -7}, {"b", 2}}), -4);
  EXPECT_EQ(Eval("a // b", {{"a", 7}, {"b", -2}}), -4);
  EXPECT_EQ(Eval("a // b", {{"a", -7}, {"b", -2}}), 3);
  EXPECT_EQ(Eval("a % b", {{"a", -7}, {"b", 2}}), 1);
  EXPECT_EQ(Eval("a % b", {{"a", 7}, {"b", -2}}), -1);
  EXPECT_EQ(Eval("a % b", {{"a", -6}, {"b", 3}}), 0);
  EXPECT_EQ(Eval("int_ceil(a, b)", {{"a", -7}, {"b", 2}}), -3);
  EXPECT_EQ(Eval("int_ceil(a, b)", {{"a", 7}, {"b", 2}}), 4);
  // Cross-check against a plain loop definition of floor division.
  for (int64_t a = -20; a <= 20; ++a) {
    for (int64_t b : {-5, -3, -1, 1, 2, 7}) {
      int64_t q = 0;
      // largest q with q*b <= a (b > 0) / q*b >= a (b < 0)
      for (q = -40; q <= 40; ++q) {
        int64_t next = q + 1;
        bool fits = b > 0 ? q * b <= a && next * b > a : q * b >= a && next * b < a;
        if (fits) break;
      }
      EXPECT_EQ(Eval("a // b", {{"a", a}, {"b", b}}), q) << a << " // " << b;
      EXPECT_EQ(Eval("a % b", {{"a", a}, {"b", b}}), a - q * b) << a << " % " << b;
    }
  }
}

TEST(SymbolicEval, Errors) {
  auto unbound = evaluate(P("N + M"), {{"N", 1}});
  ASSERT_FALSE(unbound.ok());
  EXPECT_EQ(unbound.error().code, Code::NotFound);
  EXPECT_NE(unbound.error().message.find("M"), std::string::npos);
  auto div0 = evaluate(P("N // M"), {{"N", 1}, {"M", 0}});
  ASSERT_FALSE(div0.ok());
  EXPECT_EQ(div0.error().code, Code::InvalidArgument);
  auto mod0 = evaluate(P("N % M"), {{"N", 1}, {"M", 0}});
  ASSERT_FALSE(mod0.ok());
  EXPECT_EQ(mod0.error().code, Code::InvalidArgument);
  auto lit0 = evaluate(P("N // 0"), {{"N", 1}});
  ASSERT_FALSE(lit0.ok());
  EXPECT_EQ(lit0.error().code, Code::InvalidArgument);
  auto fn = evaluate(P("foo(N)"), {{"N", 1}});
  ASSERT_FALSE(fn.ok());
  EXPECT_EQ(fn.error().code, Code::Unsupported);
  auto frac = evaluate(P("N/2"), {{"N", 3}});
  ASSERT_FALSE(frac.ok());
  EXPECT_EQ(frac.error().code, Code::Unsupported);
  auto big = evaluate(P("N**5"), {{"N", 1'000'000}});
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().code, Code::InvalidArgument);
}

TEST(SymbolicEval, SubstituteAndFreeSymbols) {
  Expr e = P("N*(M - 1) + i");
  EXPECT_EQ(free_symbols(e), (std::set<std::string>{"M", "N", "i"}));
  EXPECT_EQ(substitute(e, {{"M", integer(1)}}), symbol("i"));
  EXPECT_EQ(substitute(e, {{"N", integer(2)}}), P("2*M + i - 2"));
  EXPECT_EQ(substitute(P("i + 1"), {{"i", P("j - 1")}}), symbol("j"));
  // Simultaneous substitution (not sequential).
  EXPECT_EQ(substitute(P("a - b"), {{"a", symbol("b")}, {"b", symbol("a")}}), P("b - a"));
  EXPECT_EQ(substitute(P("Min(i, N)"), {{"i", integer(3)}, {"N", integer(5)}}), integer(3));
  EXPECT_TRUE(free_symbols(integer(3)).empty());
}

TEST(SymbolicEval, Expand) {
  EXPECT_EQ(expand(P("(N - 2)**2")), P("N**2 - 4*N + 4"));
  EXPECT_EQ(expand(P("N*(N - 3) + N - 2")), P("N**2 - 2*N - 2"));
  EXPECT_EQ(expand(P("(a + b)*(a - b)")), P("a**2 - b**2"));
  EXPECT_EQ(expand(P("H*SM**2*(N - 1) + SM**2*(H - 1) + SM*(SM - 1) + SM")), P("H*N*SM**2"));
  EXPECT_EQ(expand(P("Min(2*(i + 1)*(j), 3)")), P("Min(2*i*j + 2*j, 3)"));
}

TEST(SymbolicEval, Affine) {
  auto a = affine(P("2*(i + N) - j + 3"), {"i", "j"});
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->coefficients, (std::map<std::string, int64_t>{{"i", 2}, {"j", -1}}));
  EXPECT_EQ(a->constant, P("2*N + 3"));
  auto b = affine(P("i - i + 5"), {"i"});
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->coefficients.empty());
  EXPECT_EQ(b->constant, integer(5));
  EXPECT_FALSE(affine(P("i*j"), {"i", "j"}).has_value());
  EXPECT_FALSE(affine(P("N*i"), {"i"}).has_value());
  EXPECT_FALSE(affine(P("i**2"), {"i"}).has_value());
  EXPECT_FALSE(affine(P("i // 2"), {"i"}).has_value());
  auto c = affine(P("M*N + i"), {"i"});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->constant, P("M*N"));
}

}  // namespace
}  // namespace dace::sym
