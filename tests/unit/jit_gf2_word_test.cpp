// gf2 words: each operation's bits against the bits derived by hand, and the operations
// without an exact affine form refused.
#include <gtest/gtest.h>

#include "jit/gf2_word.h"

namespace dace::jit::gf2 {
namespace {

TEST(Gf2Word, ConstantsRoundTrip) {
  EXPECT_EQ(constant(16, 0x8408).constant_value(), 0x8408u);
  EXPECT_EQ(constant(8, 0x1FF).constant_value(), 0xFFu);  // truncated to the width
  EXPECT_EQ(constant(64, ~uint64_t{0}).constant_value(), ~uint64_t{0});
  EXPECT_FALSE(input_word(4, 0).constant_value().has_value());
  EXPECT_FALSE(input_word(4, 0).is_constant());
}

TEST(Gf2Word, ShiftsAndExtensionsMoveBits) {
  Word a = input_word(8, 10);  // bit k is input 10 + k
  Word r = shift_right_logical(a, 3);
  for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(r.bits[k], Bit::input(13 + k));
  for (unsigned k = 5; k < 8; ++k) EXPECT_EQ(r.bits[k], Bit::constant(false));
  Word s = shift_right_arithmetic(a, 3);
  for (unsigned k = 5; k < 8; ++k) EXPECT_EQ(s.bits[k], Bit::input(17));
  Word l = shift_left(a, 2);
  EXPECT_EQ(l.bits[0], Bit::constant(false));
  EXPECT_EQ(l.bits[7], Bit::input(15));
  Word z = zero_extend_or_truncate(a, 12);
  EXPECT_EQ(z.bits[11], Bit::constant(false));
  Word x = sign_extend_or_truncate(a, 12);
  EXPECT_EQ(x.bits[11], Bit::input(17));
  EXPECT_EQ(zero_extend_or_truncate(a, 3).width(), 3u);
}

TEST(Gf2Word, XorAddsBitFunctions) {
  Word a = input_word(2, 0);
  Word b = input_word(2, 0);
  Word c = bit_xor(a, b);  // x ^ x == 0
  EXPECT_EQ(c.constant_value(), 0u);
  Word d = bit_xor(a, constant(2, 0b10));
  EXPECT_EQ(d.bits[1].one, true);
  EXPECT_EQ(d.bits[1].inputs, Bit::input(1).inputs);
}

TEST(Gf2Word, AndOrNeedAConstantSideBitByBit) {
  Word a = input_word(4, 0);
  Word b = input_word(4, 4);
  auto masked = bit_and(a, constant(4, 0b0101));
  ASSERT_TRUE(masked);
  EXPECT_EQ(masked->bits[0], Bit::input(0));
  EXPECT_EQ(masked->bits[1], Bit::constant(false));
  auto set = bit_or(a, constant(4, 0b0101));
  ASSERT_TRUE(set);
  EXPECT_EQ(set->bits[0], Bit::constant(true));
  EXPECT_EQ(set->bits[1], Bit::input(1));
  EXPECT_FALSE(bit_and(a, b));  // x AND y is a product
  EXPECT_FALSE(bit_or(a, b));
  // Mixed: b's low bits are constant, a's high bits are constant.
  Word half_a = *bit_and(a, constant(4, 0b0011));
  Word half_b = *bit_and(b, constant(4, 0b1100));
  auto both = bit_or(half_a, half_b);
  ASSERT_TRUE(both);
  EXPECT_EQ(both->bits[0], Bit::input(0));
  EXPECT_EQ(both->bits[3], Bit::input(7));
}

TEST(Gf2Word, SelectIsAffineOnlyWhereTheArmsDifferByAConstant) {
  Word c = input_word(1, 20);
  Word x = input_word(4, 0);
  Word x_poly = bit_xor(x, constant(4, 0b1001));
  auto s = select(c, x_poly, x);  // x ^ (c ? 0b1001 : 0)
  ASSERT_TRUE(s);
  EXPECT_EQ(s->bits[0], Bit::input(0) ^ Bit::input(20));
  EXPECT_EQ(s->bits[1], Bit::input(1));
  EXPECT_EQ(s->bits[3], Bit::input(3) ^ Bit::input(20));
  EXPECT_FALSE(select(c, x, input_word(4, 8)));  // c AND (x ^ y)
  auto picked = select(constant(1, 1), x, input_word(4, 8));
  ASSERT_TRUE(picked);
  EXPECT_EQ(picked->bits[2], Bit::input(2));
}

TEST(Gf2Word, EqualityOfOneVaryingBit) {
  Word x = input_word(4, 0);
  EXPECT_EQ(equal(x, x)->constant_value(), 1u);
  EXPECT_EQ(equal(x, bit_xor(x, constant(4, 0b0100)))->constant_value(), 0u);
  // (x & 1) == 0  <=>  NOT x0
  auto e = equal(*bit_and(x, constant(4, 1)), constant(4, 0));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->bits[0], Bit::input(0) ^ Bit::constant(true));
  // (x & 3) == 0 is NOT(x0 OR x1): not affine
  EXPECT_FALSE(equal(*bit_and(x, constant(4, 3)), constant(4, 0)));
}

}  // namespace
}  // namespace dace::jit::gf2
