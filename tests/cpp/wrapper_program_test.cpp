// libdace.hpp programs: built SDFGs compiled and called with typed arguments, checked against
// plain loops; argument errors throw and write nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "libdace.hpp"
#include "wrapper_test_util.h"

namespace {

using wrapper_test::contains;
using wrapper_test::error_of;

// B[i] = A[i] * s + 1 over a parallel map.
libdace::sdfg make_axpb() {
  libdace::sdfg g("axpb");
  g.add_symbol("N");
  g.add_array("A", DACE_FLOAT64, "N");
  g.add_array("B", DACE_FLOAT64, "N");
  g.add_scalar("s", DACE_FLOAT64);
  libdace::mapped_tasklet_options o;
  o.schedule_type = DACE_SCHEDULE_CPU_MULTICORE;
  g.add_state("s0").add_mapped_tasklet("axpb", "i=0:N", "a: A[i]; c: s[0]", "b = a * c + 1", "b: B[i]", o);
  return g;
}

class Axpb : public ::testing::Test {
 protected:
  static constexpr int64_t kN = 29;
  libdace::context ctx;
  libdace::program p{ctx, make_axpb()};
  std::vector<double> a = std::vector<double>(kN), b = std::vector<double>(kN, -7.0);
  void SetUp() override {
    for (int64_t i = 0; i < kN; ++i) a[static_cast<size_t>(i)] = 0.25 * static_cast<double>(i) - 2;
  }
  void expect_result(double s, int64_t n = kN) const {
    for (int64_t i = 0; i < kN; ++i) {
      const size_t k = static_cast<size_t>(i);
      EXPECT_DOUBLE_EQ(b[k], i < n ? a[k] * s + 1 : -7.0) << i;
    }
  }
  void expect_untouched() const {
    for (double v : b) ASSERT_EQ(v, -7.0);
  }
};

TEST_F(Axpb, ArgumentsInDaceOrder) {
  const auto& args = p.arguments();
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[0].name, "A");
  EXPECT_EQ(args[0].kind, DACE_ARGUMENT_ARRAY);
  EXPECT_EQ(args[0].type, DACE_FLOAT64);
  EXPECT_EQ(args[2].name, "N");
  EXPECT_EQ(args[2].kind, DACE_ARGUMENT_SYMBOL);
  EXPECT_EQ(args[3].name, "s");
  EXPECT_EQ(args[3].kind, DACE_ARGUMENT_SCALAR);
  EXPECT_EQ(p.index_of("s"), 3);
  EXPECT_EQ(p.index_of("nope"), -1);
}

TEST_F(Axpb, ArgumentShapesAndCompileStats) {
  EXPECT_EQ(p.argument_shape("B", {{"N", 7}}), std::vector<int64_t>{7});
  EXPECT_EQ(error_of([&] { (void)p.argument_shape("B"); }).code(), DACE_ERROR_NOT_FOUND);  // N not given
  EXPECT_EQ(error_of([&] { (void)p.argument_shape("s", {{"N", 7}}); }).code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(error_of([&] { (void)p.argument_shape("nope"); }).code(), DACE_ERROR_NOT_FOUND);
  const libdace::compile_stats st = p.stats();
  EXPECT_FALSE(st.cache_hit);
  EXPECT_GT(st.total_ms, 0.0);
  EXPECT_GE(st.total_ms, st.jit_ms);
  EXPECT_GT(st.object_bytes, 0u);
}

TEST_F(Axpb, CallByNameWithExplicitSymbol) {
  p.call({{"A", libdace::array_ref<const double>(a.data(), {kN})},
          {"B", libdace::array_ref<double>(b.data(), {kN})},
          {"N", libdace::symbol(kN)},
          {"s", 2.0}});
  expect_result(2.0);
}

TEST_F(Axpb, CallOperatorInfersSymbolAndConvertsIntegers) {
  // N comes from the shapes; the integer 3 goes to the float64 scalar as 3.0.
  p({{"s", 3}, {"B", libdace::array_ref(b)}, {"A", libdace::array_ref(a)}});
  expect_result(3.0);
  // A plain integer for a symbol becomes a symbol value; a smaller N touches less.
  std::fill(b.begin(), b.end(), -7.0);
  p({{"A", libdace::array_ref(a.data(), {5})}, {"B", libdace::array_ref(b.data(), {5})}, {"N", 5}, {"s", -1.0f}});
  expect_result(-1.0, 5);
}

TEST_F(Axpb, ConstVectorsAreReadOnlyInputs) {
  const std::vector<double>& input = a;
  const libdace::array_ref in(input);
  static_assert(std::is_same_v<decltype(in), const libdace::array_ref<const double>>);
  p({{"A", in}, {"B", libdace::array_ref(b)}, {"s", 2.0}});
  expect_result(2.0);
}

TEST_F(Axpb, CallPositional) {
  p.call_positional({libdace::array_ref(a), libdace::array_ref(b), libdace::symbol(kN), 0.5});
  expect_result(0.5);
  std::fill(b.begin(), b.end(), -7.0);
  p.call_positional({libdace::array_ref(a), libdace::array_ref(b), 4});  // without symbols
  expect_result(4.0);
}

TEST_F(Axpb, ArgumentsCanBeKeptAndReused) {
  std::vector<libdace::named_arg> args;
  {
    std::vector<int64_t> shape{kN};  // the arg keeps its own copy of the shape
    args.emplace_back("A", libdace::array_ref(a.data(), shape));
    args.emplace_back("B", libdace::array_ref(b.data(), shape));
  }
  args.emplace_back("s", 1.5);
  p.call(args);
  expect_result(1.5);
}

TEST_F(Axpb, WrongDtypeThrowsNamingTheArgument) {
  std::vector<float> bf(kN);
  const libdace::error e =
      error_of([&] { p({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(bf)}, {"s", 1.0}}); });
  EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_TRUE(contains(e.what(), "\"B\"")) << e.what();
}

TEST_F(Axpb, WrongShapeThrowsAndWritesNothing) {
  {
    const libdace::error e = error_of(
        [&] { p({{"A", libdace::array_ref(a.data(), {kN, 1})}, {"B", libdace::array_ref(b)}, {"s", 1.0}}); });
    EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(e.what(), "\"A\"")) << e.what();
  }
  {
    const libdace::error e = error_of(
        [&] { p({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b.data(), {kN - 1})}, {"s", 1.0}}); });
    EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(e.what(), "\"B\"")) << e.what();
  }
  {
    const libdace::error e = error_of(
        [&] { p({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}, {"s", 1.0}, {"N", kN + 1}}); });
    EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(contains(e.what(), "N")) << e.what();
  }
  {
    // Strides whose rank differs from the shape's are caught before the C call.
    const libdace::error e = error_of([&] {
      p({{"A", libdace::array_ref(a.data(), {kN}, {1, 1})}, {"B", libdace::array_ref(b)}, {"s", 1.0}});
    });
    EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
  }
  EXPECT_EQ(error_of([&] { p({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}}); }).code(),
            DACE_ERROR_INVALID_ARGUMENT);  // "s" missing
  EXPECT_EQ(error_of([&] { p({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}, {"t", 1.0}}); }).code(),
            DACE_ERROR_NOT_FOUND);
  expect_untouched();
}

TEST_F(Axpb, MovedProgramStillRuns) {
  libdace::program q(std::move(p));
  EXPECT_FALSE(p);  // NOLINT(bugprone-use-after-move)
  q({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}, {"s", 2.5}});
  expect_result(2.5);
  libdace::program r{ctx, make_axpb()};
  r = std::move(q);
  r({{"A", libdace::array_ref(a)}, {"B", libdace::array_ref(b)}, {"s", -2.0}});
  expect_result(-2.0);
}

// Jacobi 2-D with a time loop: two sweeps per step, A -> B -> A, interior points only.
libdace::sdfg make_jacobi() {
  libdace::sdfg g("jacobi2d");
  g.add_symbol("N");
  g.add_symbol("T");
  g.add_array("A", DACE_FLOAT64, "N, N");
  g.add_array("B", DACE_FLOAT64, "N, N");
  const libdace::region loop = g.add_loop("time", "t", "t = 0", "t < T", "t = t + 1");
  libdace::mapped_tasklet_options o;
  o.schedule_type = DACE_SCHEDULE_CPU_MULTICORE;
  const char* code = "o = 0.2 * (c + n + s + w + e)";
  const libdace::state ab = loop.add_state("a_to_b");
  ab.add_mapped_tasklet("ab", "i=1:N-1, j=1:N-1",
                        "c: A[i, j]; n: A[i - 1, j]; s: A[i + 1, j]; w: A[i, j - 1]; e: A[i, j + 1]", code,
                        "o: B[i, j]", o);
  const libdace::state ba = loop.add_state("b_to_a");
  ba.add_mapped_tasklet("ba", "i=1:N-1, j=1:N-1",
                        "c: B[i, j]; n: B[i - 1, j]; s: B[i + 1, j]; w: B[i, j - 1]; e: B[i, j + 1]", code,
                        "o: A[i, j]", o);
  g.add_interstate_edge(ab, ba);
  return g;
}

void jacobi_reference(std::vector<double>& a, std::vector<double>& b, int64_t n, int64_t steps) {
  auto sweep = [n](const std::vector<double>& src, std::vector<double>& dst) {
    for (int64_t i = 1; i < n - 1; ++i)
      for (int64_t j = 1; j < n - 1; ++j) {
        auto at = [&](int64_t r, int64_t c) { return src[static_cast<size_t>(r * n + c)]; };
        dst[static_cast<size_t>(i * n + j)] =
            0.2 * (at(i, j) + at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
      }
  };
  for (int64_t t = 0; t < steps; ++t) {
    sweep(a, b);
    sweep(b, a);
  }
}

TEST(Jacobi, TimeLoopMatchesPlainLoops) {
  const int64_t n = 24, steps = 7;
  std::vector<double> a(static_cast<size_t>(n * n)), b(a.size());
  for (size_t k = 0; k < a.size(); ++k) {
    a[k] = std::sin(0.37 * static_cast<double>(k));
    b[k] = std::cos(0.11 * static_cast<double>(k));
  }
  std::vector<double> ra = a, rb = b;
  jacobi_reference(ra, rb, n, steps);

  const libdace::sdfg g = make_jacobi();
  g.validate();
  libdace::context ctx;
  libdace::compile_options opts;
  opts.opt_level = 2;
  libdace::program p(ctx, g, opts);
  p({{"A", libdace::array_ref(a.data(), {n, n})}, {"B", libdace::array_ref(b.data(), {n, n})}, {"T", steps}});
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_NEAR(a[k], ra[k], 1e-12) << k;
    EXPECT_NEAR(b[k], rb[k], 1e-12) << k;
  }
}

// Strided (column-major) arrays: the SDFG declares Fortran-order strides, the caller passes
// a matching array_ref with explicit strides.
TEST(Strides, ColumnMajorArray) {
  libdace::sdfg g("colmajor");
  g.add_symbol("N");
  g.add_symbol("M");
  libdace::array_options fortran;
  fortran.strides = "1, N";
  g.add_array("X", DACE_FLOAT64, "N, M", fortran);
  g.add_array("Y", DACE_FLOAT64, "N, M");
  EXPECT_EQ(g.data_property("X", "strides"), "1, N");
  g.set_strides("Y", "M, 1");  // explicitly C order, as the default
  EXPECT_EQ(g.data_property("Y", "strides"), "M, 1");
  g.add_state().add_mapped_tasklet("rowsum", "i=0:N, j=0:M", "x: X[i, j]", "y = x * 10 + i", "y: Y[i, j]");
  libdace::context ctx;
  libdace::program p(ctx, g);
  const int64_t n = 3, m = 4;
  std::vector<double> x(static_cast<size_t>(n * m)), y(x.size(), 0);
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<double>(k);
  p({{"X", libdace::array_ref(x.data(), {n, m}, {1, n})}, {"Y", libdace::array_ref(y.data(), {n, m})}});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      EXPECT_DOUBLE_EQ(y[static_cast<size_t>(i * m + j)],
                       x[static_cast<size_t>(j * n + i)] * 10 + static_cast<double>(i));
}

// Complex arrays: the dtype is deduced from std::complex<double>.
TEST(Complex, ArraysOfStdComplex) {
  libdace::sdfg g("cdouble");
  g.add_symbol("N");
  g.add_array("Z", DACE_COMPLEX128, "N");
  g.add_array("W", DACE_COMPLEX128, "N");
  g.add_state().add_mapped_tasklet("cd", "i=0:N", "z: Z[i]", "w = z * z + 2", "w: W[i]");
  libdace::context ctx;
  libdace::program p(ctx, g);
  std::vector<std::complex<double>> z{{1, 2}, {-3, 0.5}, {0, -1}}, w(3);
  p({{"Z", libdace::array_ref(z)}, {"W", libdace::array_ref(w)}});
  for (size_t k = 0; k < z.size(); ++k) {
    const std::complex<double> expected = z[k] * z[k] + 2.0;
    EXPECT_NEAR(w[k].real(), expected.real(), 1e-14) << k;
    EXPECT_NEAR(w[k].imag(), expected.imag(), 1e-14) << k;
  }
}

// A complex scalar argument travels as DACE_ARG_COMPLEX.
TEST(Complex, ScalarArgument) {
  libdace::sdfg g("cscale");
  g.add_symbol("N");
  g.add_array("Z", DACE_COMPLEX128, "N");
  g.add_array("W", DACE_COMPLEX128, "N");
  g.add_scalar("f", DACE_COMPLEX128);
  g.add_state().add_mapped_tasklet("cs", "i=0:N", "z: Z[i]; s: f[0]", "w = z * s", "w: W[i]");
  libdace::context ctx;
  libdace::program p(ctx, g);
  std::vector<std::complex<double>> z{{1, 2}, {-3, 0.5}, {0, -1}}, w(3);
  const std::complex<double> f(0.5, -2);
  p({{"Z", libdace::array_ref(z)}, {"W", libdace::array_ref(w)}, {"f", f}});
  for (size_t k = 0; k < z.size(); ++k) {
    EXPECT_NEAR(w[k].real(), (z[k] * f).real(), 1e-14) << k;
    EXPECT_NEAR(w[k].imag(), (z[k] * f).imag(), 1e-14) << k;
  }
}

}  // namespace
