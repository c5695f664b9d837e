// Memlet subset syntax: parse (exclusive slice ends), print, size and volume.
#include <gtest/gtest.h>

#include "ir/symbolic/expr.h"

namespace dace::sym {
namespace {

Expr P(const char* text) {
  auto r = parse(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : integer(-424242);
}

TEST(SymbolicSubset, ParsesInclusiveEnds) {
  auto s = parse_subset("i, 0:N, 1:N-1:2");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->rank(), 3u);
  EXPECT_EQ(s->dims[0], (Range{symbol("i"), symbol("i"), integer(1), integer(1)}));
  EXPECT_EQ(s->dims[1], (Range{integer(0), P("N - 1"), integer(1), integer(1)}));
  EXPECT_EQ(s->dims[2], (Range{integer(1), P("N - 2"), integer(2), integer(1)}));
  EXPECT_EQ(to_string(*s), "i, 0:N, 1:N - 1:2");
}

TEST(SymbolicSubset, PrintsBack) {
  Subset s{{{integer(0), P("N - 1"), integer(1), integer(1)}, {symbol("i"), symbol("i"), integer(1), integer(1)}}};
  EXPECT_EQ(to_string(s), "0:N, i");
  for (const char* t : {"0", "i + 1, j", "0:N, 0:M", "Min(i, 3):Max(N, 2)", "N - 1:-1:-1", "0:N:2:4",
                        "int_floor(i, 2):N"}) {
    auto r = parse_subset(t);
    ASSERT_TRUE(r.ok()) << t << ": " << r.error().message;
    auto back = parse_subset(to_string(*r));
    ASSERT_TRUE(back.ok()) << t;
    EXPECT_EQ(*back, *r) << t << " printed " << to_string(*r);
  }
  auto down = parse_subset("N - 1:-1:-1");
  ASSERT_TRUE(down.ok());
  EXPECT_EQ(down->dims[0].end, integer(0));  // counts down to 0 inclusive
}

TEST(SymbolicSubset, SizeAndVolume) {
  auto s = parse_subset("i, 0:N, 1:N-1:2");
  ASSERT_TRUE(s.ok());
  auto sz = size(*s);
  ASSERT_EQ(sz.size(), 3u);
  EXPECT_EQ(sz[0], integer(1));
  EXPECT_EQ(sz[1], symbol("N"));
  EXPECT_EQ(sz[2], P("int_ceil(N - 2, 2)"));
  // 1:9:2 -> 1,3,5,7 : four elements; 0:10:3 -> 0,3,6,9 : four
  auto c = parse_subset("1:9:2, 0:10:3");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(volume(*c), integer(16));
  auto d = parse_subset("9:0:-3");  // 9, 6, 3
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(volume(*d), integer(3));
  auto e = parse_subset("0:N, 0:M");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(volume(*e), P("M*N"));
}

TEST(SymbolicSubset, Errors) {
  struct Case {
    const char* text;
    int column;
  };
  const Case cases[] = {
      {"", 1}, {"i, , j", 3}, {"i,", 3}, {"0:", 3}, {"0:N:0", 5}, {"0:N + :1", 7}, {"i, 0:(N", 8},
      {"1:2:3:4:5", 8}, {"0:N:1:", 7},
  };
  for (const auto& c : cases) {
    auto r = parse_subset(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, Code::ParseError);
    EXPECT_EQ(r.error().column, c.column) << c.text << ": " << r.error().message;
  }
}

}  // namespace
}  // namespace dace::sym
