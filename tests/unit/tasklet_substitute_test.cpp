// Name replacement in code kept as text (ir/tasklet/substitute.h): read names are replaced,
// assignment targets, called functions and modules are not; text without the names comes
// back byte for byte; expected texts are written by hand in DaCe's printing style.
#include <gtest/gtest.h>

#include "ir/tasklet/printer.h"
#include "ir/tasklet/substitute.h"

namespace dace::tasklet {
namespace {

std::string expr(std::string_view code, const std::map<std::string, std::string>& values, bool subscripts = false) {
  auto r = substitute_in_expression(code, values, subscripts);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : "";
}

TEST(TaskletSubstitute, ReplacesReadNamesByExpressions) {
  EXPECT_EQ(expr("i < N", {{"N", "M + 1"}}), "(i < M + 1)");
  EXPECT_EQ(expr("min(a, b) * 2", {{"a", "3"}, {"min", "nope"}}), "(min(3, b) * 2)");
  EXPECT_EQ(expr("math.sin(x) + math.pi", {{"x", "y"}}), "(math.sin(y) + math.pi)");
  EXPECT_EQ(expr("z.real", {{"z", "w"}}), "w.real");
}

TEST(TaskletSubstitute, LeavesTextWithoutTheNamesUnchanged) {
  EXPECT_EQ(expr("i<N  and  j", {{"k", "1"}}), "i<N  and  j");
  auto r = substitute_in_code("a=b +1", {{"c", "2"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "a=b +1");
}

TEST(TaskletSubstitute, SubscriptsOfAReplacedNameGoAsAWhole) {
  EXPECT_EQ(expr("s[0] + t[0]", {{"s", "s"}}, true), "(s + t[0])");
  EXPECT_EQ(expr("s[0] + 1", {{"s", "k"}}, false), "(k[0] + 1)");
}

TEST(TaskletSubstitute, CodeTargetsStayIndicesAndValuesChange) {
  auto r = substitute_in_code("out[i] = inp * i\nif inp > 0:\n    out[0] = 1", {{"inp", "k"}, {"out", "x"}, {"i", "j"}});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, "out[j] = k * j\nif k > 0:\n    out[0] = 1");
}

TEST(TaskletSubstitute, BadCodeIsAParseError) {
  auto r = substitute_in_expression("a +", {{"a", "1"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::ParseError);
  auto v = substitute_in_expression("a + 1", {{"a", "1 +"}});
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("'a'"), std::string::npos);
}

TEST(TaskletSubstitute, NamesReadAndAssigned) {
  auto p = parse_code_cached("t = a[i] + b\nif t > c:\n    out[j] = t\nacc += d");
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(names_assigned(**p), (std::set<std::string>{"acc", "out", "t"}));
  // Subscript indices of targets are read; an augmented target is read too.
  EXPECT_EQ(names_read(**p), (std::set<std::string>{"a", "acc", "b", "c", "d", "i", "j", "t"}));
}

TEST(TaskletSubstitute, RewriteAndWalk) {
  auto e = parse_expression_cached("f(a) + g(b)");
  ASSERT_TRUE(e.ok());
  int calls = 0;
  walk(**e, [&](const Expr& x) { calls += x.is<Call>(); });
  EXPECT_EQ(calls, 2);
  ExprPtr r = rewrite(*e, [](const Expr& x) -> ExprPtr {
    const auto* c = x.as<Call>();
    return c && c->func == "f" ? c->args[0] : nullptr;
  });
  EXPECT_EQ(to_source(*r), "(a + g(b))");
  // Nothing replaced: the same tree comes back.
  EXPECT_EQ(rewrite(*e, [](const Expr&) -> ExprPtr { return nullptr; }), *e);
  // The cache hands back the tree it parsed before.
  EXPECT_EQ(parse_expression_cached("f(a) + g(b)").value(), *e);
}

}  // namespace
}  // namespace dace::tasklet
