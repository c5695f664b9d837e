#include "jit/gf2_word.h"

namespace dace::jit::gf2 {

bool Word::is_constant() const {
  for (const Bit& b : bits)
    if (!b.is_constant()) return false;
  return true;
}

std::optional<uint64_t> Word::constant_value() const {
  uint64_t v = 0;
  for (unsigned k = 0; k < width(); ++k) {
    if (!bits[k].is_constant()) return std::nullopt;
    if (bits[k].one) v |= uint64_t{1} << k;
  }
  return v;
}

Word constant(unsigned width, uint64_t value) {
  Word w;
  for (unsigned k = 0; k < width; ++k) w.bits.push_back(Bit::constant(k < 64 && ((value >> k) & 1) != 0));
  return w;
}

Word input_word(unsigned width, unsigned first_input) {
  Word w;
  for (unsigned k = 0; k < width; ++k) w.bits.push_back(Bit::input(first_input + k));
  return w;
}

Word bit_xor(const Word& a, const Word& b) {
  Word w = a;
  for (unsigned k = 0; k < w.width(); ++k) w.bits[k] = a.bits[k] ^ b.bits[k];
  return w;
}

namespace {

// a AND b (identity 1) or a OR b (identity 0): where one side's bit is the constant identity
// the result is the other side's bit, where it is the other constant the result is that
// constant; two varying bits make a product, which is not affine.
std::optional<Word> and_or(const Word& a, const Word& b, bool identity) {
  Word w = a;
  for (unsigned k = 0; k < w.width(); ++k) {
    const Bit& x = a.bits[k];
    const Bit& y = b.bits[k];
    if (x.is_constant())
      w.bits[k] = x.one == identity ? y : Bit::constant(!identity);
    else if (y.is_constant())
      w.bits[k] = y.one == identity ? x : Bit::constant(!identity);
    else
      return std::nullopt;
  }
  return w;
}

}  // namespace

std::optional<Word> bit_and(const Word& a, const Word& b) { return and_or(a, b, true); }

std::optional<Word> bit_or(const Word& a, const Word& b) { return and_or(a, b, false); }

Word shift_right_logical(const Word& a, unsigned amount) {
  Word w = a;
  for (unsigned k = 0; k < w.width(); ++k)
    w.bits[k] = k + amount < a.width() ? a.bits[k + amount] : Bit::constant(false);
  return w;
}

Word shift_right_arithmetic(const Word& a, unsigned amount) {
  Word w = a;
  for (unsigned k = 0; k < w.width(); ++k) w.bits[k] = k + amount < a.width() ? a.bits[k + amount] : a.bits.back();
  return w;
}

Word shift_left(const Word& a, unsigned amount) {
  Word w = a;
  for (unsigned k = 0; k < w.width(); ++k) w.bits[k] = k >= amount ? a.bits[k - amount] : Bit::constant(false);
  return w;
}

Word zero_extend_or_truncate(const Word& a, unsigned width) {
  Word w;
  for (unsigned k = 0; k < width; ++k) w.bits.push_back(k < a.width() ? a.bits[k] : Bit::constant(false));
  return w;
}

Word sign_extend_or_truncate(const Word& a, unsigned width) {
  Word w;
  for (unsigned k = 0; k < width; ++k) w.bits.push_back(k < a.width() ? a.bits[k] : a.bits.back());
  return w;
}

std::optional<Word> select(const Word& condition, const Word& if_true, const Word& if_false) {
  const Bit& c = condition.bits.at(0);
  if (c.is_constant()) return c.one ? if_true : if_false;
  // if_false ^ (c AND (if_true ^ if_false)): affine where the arms differ by a constant.
  Word w = if_false;
  for (unsigned k = 0; k < w.width(); ++k) {
    Bit difference = if_true.bits[k] ^ if_false.bits[k];
    if (!difference.is_constant()) return std::nullopt;
    if (difference.one) w.bits[k] = w.bits[k] ^ c;
  }
  return w;
}

std::optional<Word> equal(const Word& a, const Word& b) {
  std::optional<Bit> varying_difference;
  for (unsigned k = 0; k < a.width(); ++k) {
    Bit difference = a.bits[k] ^ b.bits[k];
    if (difference.is_constant()) {
      if (difference.one) return constant(1, 0);  // a constant difference: never equal
      continue;
    }
    // Two varying differences: equal is their NOR, not affine.
    if (varying_difference) return std::nullopt;
    varying_difference = difference;
  }
  if (!varying_difference) return constant(1, 1);
  // Equal exactly when the one varying difference is 0.
  Word w;
  w.bits.push_back(*varying_difference ^ Bit::constant(true));
  return w;
}

}  // namespace dace::jit::gf2
