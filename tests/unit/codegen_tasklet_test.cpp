// Tasklet semantics: every scalar type, NumPy promotion, Python floor division and modulo,
// math functions, casts, conditionals. Expected values come from plain C++ loops.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/validate.h"
#include "codegen_elementwise.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

template <class A, class B>
void run_1in_1out(const ir::SDFG& g, std::vector<A>& a, std::vector<B>& b) {
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile(g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  Status r = run(*p, {{"A", ArgValue::pointer(a.data())},
                      {"B", ArgValue::pointer(b.data())},
                      {"N", ArgValue::scalar<int64_t>(static_cast<int64_t>(a.size()))}});
  ASSERT_TRUE(r.ok()) << r.error().message;
}

template <class X>
void check_integer_type(T type) {
  auto g = elementwise("ints", {{"a", "A", type}}, {{"b", "B", type}}, "b = a * 3 + 1");
  std::vector<X> a, b(7), expect;
  for (int i = 0; i < 7; ++i) a.push_back(static_cast<X>(i * 5 - (std::is_signed_v<X> ? 12 : 0)));
  for (X x : a) expect.push_back(static_cast<X>(x * 3 + 1));
  run_1in_1out(*g, a, b);
  EXPECT_EQ(b, expect);
}

TEST(CodegenTasklet, IntegerTypes) {
  check_integer_type<int8_t>(T::Int8);
  check_integer_type<int16_t>(T::Int16);
  check_integer_type<int32_t>(T::Int32);
  check_integer_type<int64_t>(T::Int64);
  check_integer_type<uint8_t>(T::UInt8);
  check_integer_type<uint16_t>(T::UInt16);
  check_integer_type<uint32_t>(T::UInt32);
  check_integer_type<uint64_t>(T::UInt64);
}

TEST(CodegenTasklet, FloatTypes) {
  auto g32 = elementwise("f32", {{"a", "A", T::Float32}}, {{"b", "B", T::Float32}}, "b = a * a - 0.5");
  std::vector<float> a32{1.5f, -2.25f, 3.0f}, b32(3);
  run_1in_1out(*g32, a32, b32);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b32[i], a32[i] * a32[i] - 0.5f);
  auto g64 = elementwise("f64", {{"a", "A", T::Float64}}, {{"b", "B", T::Float64}}, "b = a / 3.0 + a ** 2");
  std::vector<double> a64{1.5, -2.25, 7.0}, b64(3);
  run_1in_1out(*g64, a64, b64);
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(b64[i], a64[i] / 3.0 + a64[i] * a64[i]);
}

TEST(CodegenTasklet, BoolLogic) {
  auto g = elementwise("bools", {{"a", "A", T::Bool}}, {{"b", "B", T::Bool}}, "b = not a or False");
  std::vector<uint8_t> a{1, 0, 1, 0}, b(4, 7);
  run_1in_1out(*g, a, b);
  EXPECT_EQ(b, (std::vector<uint8_t>{0, 1, 0, 1}));
}

TEST(CodegenTasklet, ComplexArithmetic) {
  auto g = elementwise("cplx", {{"a", "A", T::Complex128}}, {{"b", "B", T::Complex128}},
                       "b = a * a + 1j - a / (a + 2)");
  std::vector<std::complex<double>> a{{1, 2}, {-0.5, 0.25}, {3, -1}}, b(3);
  run_1in_1out(*g, a, b);
  for (int i = 0; i < 3; ++i) {
    std::complex<double> e = a[i] * a[i] + std::complex<double>(0, 1) - a[i] / (a[i] + 2.0);
    EXPECT_NEAR(b[i].real(), e.real(), 1e-12);
    EXPECT_NEAR(b[i].imag(), e.imag(), 1e-12);
  }
  auto g2 = elementwise("cabs", {{"a", "A", T::Complex128}}, {{"b", "B", T::Float64}}, "b = abs(a) + a.real");
  std::vector<double> r(3);
  run_1in_1out(*g2, a, r);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r[i], std::abs(a[i]) + a[i].real(), 1e-12);
}

// abs of a complex is computed inline (sqrt of the sum of squares, scaled by powers of two
// for huge and tiny parts, where the plain formula gives inf or 0); infinite and NaN parts
// keep hypot's results; every value agrees with std::hypot to an ulp.
TEST(CodegenTasklet, ComplexAbsKeepsHypotRangeAndSpecialValues) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::complex<double>> a{{3, 4}, {-1.5, 0.25}, {0, 0}, {1e300, 1e300}, {3e-300, 4e-300},
                                      {1e-170, 1e-170}, {1e154, 1e154}, {inf, nan}, {nan, 1}, {-inf, 2},
                                      {5e-324, 0}, {-1.7e308, 1.7e308}, {2e-310, -3e-310}};
  auto g = elementwise("cabs_range", {{"a", "A", T::Complex128}}, {{"b", "B", T::Float64}}, "b = abs(a)");
  std::vector<double> r(a.size());
  run_1in_1out(*g, a, r);
  for (size_t i = 0; i < a.size(); ++i) {
    const double e = std::hypot(a[i].real(), a[i].imag());
    if (std::isnan(e)) EXPECT_TRUE(std::isnan(r[i])) << i;
    else if (std::isinf(e)) EXPECT_EQ(r[i], e) << i;
    else EXPECT_NEAR(r[i], e, std::abs(e) * 2.3e-16) << i << ": " << r[i] << " vs " << e;
  }
  EXPECT_EQ(r[0], 5.0);
  EXPECT_EQ(r[7], inf);  // hypot(inf, NaN) is inf; the formula would give NaN
  auto g32 = elementwise("cabs_range32", {{"a", "A", T::Complex64}}, {{"b", "B", T::Float32}}, "b = abs(a)");
  std::vector<std::complex<float>> a32{{3, 4}, {1e30f, 1e30f}, {1e-30f, 1e-30f}, {0.5f, -0.25f}, {3e38f, 3e38f},
                                       {1e-45f, 0}};
  std::vector<float> r32(a32.size());
  run_1in_1out(*g32, a32, r32);
  for (size_t i = 0; i < a32.size(); ++i) {
    const float e = std::hypot(a32[i].real(), a32[i].imag());
    if (std::isinf(e)) EXPECT_EQ(r32[i], e) << i;  // 3e38 * sqrt(2) overflows float, as hypotf
    else EXPECT_NEAR(r32[i], e, e * 6e-8f) << i;
  }
}

TEST(CodegenTasklet, PromotionIntPlusFloat) {
  // int32 + float32 is float64 in NumPy: 16777217 is not a float32, so a float32 sum differs.
  auto g = elementwise("promo", {{"a", "A", T::Int32}, {"b", "B", T::Float32}}, {{"c", "C", T::Float64}}, "c = a + b");
  std::vector<int32_t> a{16777217, -3};
  std::vector<float> b{0.5f, 0.25f};
  std::vector<double> c(2);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::pointer(c.data())}, {"N", ArgValue::scalar<int64_t>(2)}})
                  .ok());
  EXPECT_EQ(c[0], 16777217.5);
  EXPECT_EQ(c[1], -2.75);
  // A literal adopts the array's type: float32 * 0.1 stays float32.
  auto g2 = elementwise("weak", {{"a", "A", T::Float32}}, {{"b", "B", T::Float64}}, "b = a * 0.1");
  std::vector<float> a2{3.0f};
  std::vector<double> b2(1);
  run_1in_1out(*g2, a2, b2);
  EXPECT_EQ(b2[0], static_cast<double>(3.0f * 0.1f));
}

// NumPy (NEP 50): `np.int32(a) < 1/2` compares with 0.5 — Python divides the literals first,
// and the float literal makes the comparison float64 (int32 would truncate 0.5 to 0).
// Expected values: NumPy 1.26.4 with weak promotion, `np.array([0, 1, -1], np.int32) < 1/2`.
TEST(CodegenTasklet, ComparisonWithQuotientOfLiteralsIsInFloat) {
  auto g = elementwise("cmp_half", {{"a", "A", T::Int32}}, {{"b", "B", T::Bool}}, "b = a < 1/2");
  std::vector<int32_t> a{0, 1, -1};
  std::vector<uint8_t> b(3);
  run_1in_1out(*g, a, b);
  EXPECT_EQ(b, (std::vector<uint8_t>{1, 0, 1}));
}

// A call on literals and a conditional between literals are Python values too, so they take
// the array's type in a comparison (NEP 50) as a bare literal does. Expected values: NumPy
// 1.26.4 with weak promotion, `np.array([np.float32(math.sqrt(2)), 1, 2], np.float32) <
// math.sqrt(2)` -> [False, True, False]; `np.array([np.float32(0.1), 0], np.float32) >
// (0.1 if True else 0.2)` and `> min(0.1, 0.3)` -> [False, False] (in float64 the first
// element, 0.10000000149..., would be greater than 0.1).
TEST(CodegenTasklet, ComparisonWithCallsAndConditionalsOfLiteralsIsInTheArraysType) {
  const float root2 = static_cast<float>(std::sqrt(2.0));
  struct Case {
    const char* code;
    std::vector<float> a;
    std::vector<uint8_t> want;
  };
  const Case cases[] = {{"b = a < math.sqrt(2)", {root2, 1.0f, 2.0f}, {0, 1, 0}},
                        {"b = a > (0.1 if 1 > 0 else 0.2)", {0.1f, 0.0f}, {0, 0}},
                        {"b = a > min(0.1, 0.3)", {0.1f, 0.0f}, {0, 0}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.code);
    auto g = elementwise("cmp_weak_call", {{"a", "A", T::Float32}}, {{"b", "B", T::Bool}}, c.code);
    std::vector<float> a = c.a;
    std::vector<uint8_t> b(a.size());
    run_1in_1out(*g, a, b);
    EXPECT_EQ(b, c.want);
  }
}

// Python's floor division and modulo, derived independently of the code under test.
int64_t py_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t py_mod(int64_t a, int64_t b) { return a - b * py_floordiv(a, b); }

TEST(CodegenTasklet, FloorDivAndModWithNegatives) {
  auto g = elementwise("fdm", {{"a", "A", T::Int64}, {"b", "B", T::Int64}},
                       {{"q", "Q", T::Int64}, {"r", "R", T::Int64}}, "q = a // b\nr = a % b");
  std::vector<int64_t> a{7, -7, 7, -7, 0, 9}, b{2, 2, -2, -2, 3, 3}, q(6), r(6);
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"Q", ArgValue::pointer(q.data())}, {"R", ArgValue::pointer(r.data())},
                       {"N", ArgValue::scalar<int64_t>(6)}})
                  .ok());
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(q[i], py_floordiv(a[i], b[i])) << a[i] << " // " << b[i];
    EXPECT_EQ(r[i], py_mod(a[i], b[i])) << a[i] << " % " << b[i];
  }
  EXPECT_EQ(q[1], -4);  // hand-checked: -7 // 2 == -4 in Python
  EXPECT_EQ(r[2], -1);  // 7 % -2 == -1

  auto gf = elementwise("fdmf", {{"a", "A", T::Float64}, {"b", "B", T::Float64}},
                        {{"q", "Q", T::Float64}, {"r", "R", T::Float64}}, "q = a // b\nr = a % b");
  std::vector<double> fa{7.5, -7.5, 7.5}, fb{2.0, 2.0, -2.0}, fq(3), fr(3);
  Result<CompiledProgram> pf = compile(*gf);
  ASSERT_TRUE(pf.ok()) << pf.error().message;
  ASSERT_TRUE(run(*pf, {{"A", ArgValue::pointer(fa.data())}, {"B", ArgValue::pointer(fb.data())},
                        {"Q", ArgValue::pointer(fq.data())}, {"R", ArgValue::pointer(fr.data())},
                        {"N", ArgValue::scalar<int64_t>(3)}})
                  .ok());
  EXPECT_EQ(fq, (std::vector<double>{3.0, -4.0, -4.0}));
  EXPECT_EQ(fr, (std::vector<double>{1.5, 0.5, -0.5}));
}

TEST(CodegenTasklet, MathFunctionsAndCasts) {
  auto g = elementwise("math", {{"a", "A", T::Float64}}, {{"b", "B", T::Float64}},
                       "b = math.sin(a) + exp(a) * tanh(a) + math.sqrt(abs(a)) + max(a, 0.5) + min(a, -1) + "
                       "math.floor(a) + pow(a, 3) + float(int(a)) + dace.float32(a)");
  std::vector<double> a{0.3, -1.7, 2.2}, b(3);
  run_1in_1out(*g, a, b);
  for (int i = 0; i < 3; ++i) {
    double x = a[i];
    double e = std::sin(x) + std::exp(x) * std::tanh(x) + std::sqrt(std::abs(x)) + std::max(x, 0.5) + std::min(x, -1.0) +
               std::floor(x) + x * x * x + static_cast<double>(static_cast<int64_t>(x)) + static_cast<double>(static_cast<float>(x));
    EXPECT_NEAR(b[i], e, 1e-12);
  }
}

TEST(CodegenTasklet, ConditionalsAndLocals) {
  auto g = elementwise("cond", {{"a", "A", T::Int64}}, {{"b", "B", T::Int64}},
                       "t = a * 2\n"
                       "if a < 0:\n"
                       "    b = -t\n"
                       "elif a == 0:\n"
                       "    b = 100\n"
                       "else:\n"
                       "    b = t if a > 5 else t + 1\n");
  std::vector<int64_t> a{-3, 0, 3, 8}, b(4);
  run_1in_1out(*g, a, b);
  EXPECT_EQ(b, (std::vector<int64_t>{6, 100, 7, 16}));
}

TEST(CodegenTasklet, BitOperations) {
  auto g = elementwise("bits", {{"a", "A", T::UInt16}}, {{"b", "B", T::Int64}},
                       "b = (dace.int64(a) << 3) ^ (a >> 1) | (a & 255) ^ ~a");
  std::vector<uint16_t> a{1, 0x8001, 12345}, ignore;
  std::vector<int64_t> b(3);
  run_1in_1out(*g, a, b);
  for (int i = 0; i < 3; ++i) {
    uint16_t x = a[i];
    // NumPy: uint16 >> int literal stays uint16; ~x is uint16; the int64 side promotes.
    int64_t e = ((static_cast<int64_t>(x) << 3) ^ static_cast<int64_t>(static_cast<uint16_t>(x >> 1))) |
                (static_cast<int64_t>(x & 255) ^ static_cast<int64_t>(static_cast<uint16_t>(~x)));
    EXPECT_EQ(b[i], e);
  }
}

}  // namespace
}  // namespace dace::codegen::testing
