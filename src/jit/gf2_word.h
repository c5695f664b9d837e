// Integer words whose bits are affine functions over GF(2) of a set of input bits.
//
// A bit is `one ^ (XOR of the input bits in `inputs`)`. Xor, shifts, extensions and
// truncations map such words to such words exactly; `and`/`or` do so where, bit by bit, one
// side is a constant; a select does so where its two arms differ by a constant; an equality
// does so where the two sides differ in at most one non-constant bit. Everything else has no
// exact affine form, and the operations say so (std::nullopt) instead of approximating.
// table_driven_bit_loops.h evaluates loop bodies with these words to prove what a bit loop
// computes (a CRC's shift-and-xor steps are affine in the state and the data bits).
#pragma once
#include <bitset>
#include <cstdint>
#include <optional>
#include <vector>

namespace dace::jit::gf2 {

// Input bits are numbered 0..kMaxInputBits-1 (three 64-bit input words).
inline constexpr unsigned kMaxInputBits = 192;
using InputSet = std::bitset<kMaxInputBits>;

struct Bit {
  InputSet inputs;
  bool one = false;

  static Bit constant(bool value) { return Bit{InputSet{}, value}; }
  static Bit input(unsigned index) {
    Bit b;
    b.inputs.set(index);
    return b;
  }
  bool is_constant() const { return inputs.none(); }
  friend Bit operator^(Bit a, const Bit& b) {
    a.inputs ^= b.inputs;
    a.one = a.one != b.one;
    return a;
  }
  friend bool operator==(const Bit&, const Bit&) = default;
};

// bits[0] is the least significant; 1 to 64 bits.
struct Word {
  std::vector<Bit> bits;

  unsigned width() const { return static_cast<unsigned>(bits.size()); }
  bool is_constant() const;
  // The value when every bit is constant.
  std::optional<uint64_t> constant_value() const;
};

Word constant(unsigned width, uint64_t value);
// Bit k is input bit first_input + k.
Word input_word(unsigned width, unsigned first_input);

Word bit_xor(const Word& a, const Word& b);
std::optional<Word> bit_and(const Word& a, const Word& b);
std::optional<Word> bit_or(const Word& a, const Word& b);
// Shifts by amount < width (a larger amount is poison in LLVM: the caller refuses it).
Word shift_right_logical(const Word& a, unsigned amount);
Word shift_right_arithmetic(const Word& a, unsigned amount);
Word shift_left(const Word& a, unsigned amount);
Word zero_extend_or_truncate(const Word& a, unsigned width);
Word sign_extend_or_truncate(const Word& a, unsigned width);
// `condition` has one bit.
std::optional<Word> select(const Word& condition, const Word& if_true, const Word& if_false);
// One bit: a == b.
std::optional<Word> equal(const Word& a, const Word& b);

}  // namespace dace::jit::gf2
