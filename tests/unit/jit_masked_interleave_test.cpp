// Masked interleave groups (src/jit/pipeline.cpp): the optimizing pipeline turns LLVM's
// switch for them on (process-wide, unless DACE_JIT_MASKED_INTERLEAVE=0), and a loop that
// updates an array of (re, im) pairs only where a condition holds — mandelbrot1's
// `if |Z[i]| < h: Z[i] = Z[i]**2 + C[i]` — gives at O2 and O0 bit for bit what a plain C++ loop
// with the same operations gives, over trip counts that leave vector remainders. (LLVM's cost
// model may keep this small loop scalar; tests/scripts/masked_interleave_exact.sh checks the
// vectorized mandelbrot1 kernel itself.)
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "jit/session.h"
#include "jit_test_modules.h"

namespace dace::jit {
namespace {

// z, c: n pairs (re, im); iter: n counters. One step: where re^2 + im^2 < h, iter = k and
// z = z^2 + c (re: re^2 - im^2 + c.re, im: 2 re im + c.im).
constexpr const char* kProgram = R"(
define void @step(ptr noalias %z, ptr noalias %c, ptr noalias %iter, double %h, i64 %n, i64 %k) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %done = icmp sge i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  %zr.p = getelementptr inbounds [2 x double], ptr %z, i64 %i, i64 0
  %zi.p = getelementptr inbounds [2 x double], ptr %z, i64 %i, i64 1
  %zr = load double, ptr %zr.p
  %zi = load double, ptr %zi.p
  %zr2 = fmul double %zr, %zr
  %zi2 = fmul double %zi, %zi
  %m = fadd double %zr2, %zi2
  %in = fcmp olt double %m, %h
  br i1 %in, label %then, label %latch
then:
  %it.p = getelementptr inbounds i64, ptr %iter, i64 %i
  store i64 %k, ptr %it.p
  %cr.p = getelementptr inbounds [2 x double], ptr %c, i64 %i, i64 0
  %ci.p = getelementptr inbounds [2 x double], ptr %c, i64 %i, i64 1
  %cr = load double, ptr %cr.p
  %ci = load double, ptr %ci.p
  %nr0 = fsub double %zr2, %zi2
  %nr = fadd double %nr0, %cr
  %zri = fmul double %zr, %zi
  %ni0 = fadd double %zri, %zri
  %ni = fadd double %ni0, %ci
  store double %nr, ptr %zr.p
  store double %ni, ptr %zi.p
  br label %latch
latch:
  %i1 = add i64 %i, 1
  br label %loop
exit:
  ret void
}
)";

// The same step as a plain C++ loop (no FMA contraction: every product is rounded, as in
// the IR above).
void step_ref(double* z, const double* c, int64_t* iter, double h, int64_t n, int64_t k) {
  for (int64_t i = 0; i < n; ++i) {
    volatile double zr2 = z[2 * i] * z[2 * i];
    volatile double zi2 = z[2 * i + 1] * z[2 * i + 1];
    if (zr2 + zi2 < h) {
      iter[i] = k;
      volatile double zri = z[2 * i] * z[2 * i + 1];
      z[2 * i] = (zr2 - zi2) + c[2 * i];
      z[2 * i + 1] = (zri + zri) + c[2 * i + 1];
    }
  }
}

JitSession& session() { return test::shared_session(); }

void check_against_loop(int level) {
  test::TestModule p = test::parse_assembly(kProgram, "masked_interleave");
  ASSERT_TRUE(p.module);
  CompileOptions o;
  o.opt.level = level;
  auto m = session().compile(std::move(p.module), std::move(p.context), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto step = (*m)->lookup_function<void(double*, const double*, int64_t*, double, int64_t, int64_t)>("step");
  ASSERT_TRUE(step.ok());
  for (int64_t n : {1, 3, 4, 7, 8, 9, 31, 250}) {
    // A row of the Mandelbrot grid: points inside, outside and escaping at different steps.
    std::vector<double> c(2 * n), z(2 * n, 0.0), z_ref(2 * n, 0.0);
    for (int64_t i = 0; i < n; ++i) {
      c[2 * i] = -2.0 + 2.5 * static_cast<double>(i) / static_cast<double>(n);
      c[2 * i + 1] = 0.3 + 0.01 * static_cast<double>(i % 5);
    }
    std::vector<int64_t> iter(n, -1), iter_ref(n, -1);
    for (int64_t k = 0; k < 60; ++k) {
      (*step)(z.data(), c.data(), iter.data(), 4.0, n, k);
      step_ref(z_ref.data(), c.data(), iter_ref.data(), 4.0, n, k);
    }
    EXPECT_EQ(std::memcmp(z.data(), z_ref.data(), z.size() * sizeof(double)), 0) << "n " << n << " O" << level;
    EXPECT_EQ(iter, iter_ref) << "n " << n << " O" << level;
  }
}

TEST(JitMaskedInterleave, ConditionalPairUpdateMatchesPlainLoop) {
  check_against_loop(0);
  check_against_loop(2);
}

TEST(JitMaskedInterleave, OptimizingPipelineTurnsTheSwitchOn) {
  const char* env = std::getenv("DACE_JIT_MASKED_INTERLEAVE");
  if (env && std::strcmp(env, "0") == 0) GTEST_SKIP() << "DACE_JIT_MASKED_INTERLEAVE=0 keeps LLVM's default";
  check_against_loop(2);
  auto& options = llvm::cl::getRegisteredOptions();
  auto it = options.find("enable-masked-interleaved-mem-accesses");
  ASSERT_NE(it, options.end()) << "LLVM has no such switch";
  EXPECT_GT(it->second->getNumOccurrences(), 0);
  EXPECT_TRUE(static_cast<llvm::cl::opt<bool>*>(it->second)->getValue());
}

}  // namespace
}  // namespace dace::jit
