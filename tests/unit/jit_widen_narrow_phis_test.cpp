// widen_narrow_phis: loop-carried i8/i16 webs computed in a wider type give the same
// results as the narrow code and as plain C++ loops on uint8_t/uint16_t (wraparound,
// ~, variable shifts, a non-commuting add feeding the web), and cycles through operations
// that do not commute with zero extension stay narrow.
#include <gtest/gtest.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "jit/session.h"
#include "jit/widen_narrow_phis.h"
#include "jit_test_modules.h"

namespace dace::jit {
namespace {

// crc16: NPBench's CRC-16-CCITT bit loop in the form LLVM's instcombine leaves it (i16
// state, 0x8408 as the i16 constant -31736). mix8: ~x, a variable lshr, or, a select and an
// add that wraps (outside the web, fed by it). affine16: (3x + 40503) >> 1, whose add
// carries past bit 15 (the lshr brings that bit down if it were kept). add16: x + 40503
// only: no zext-commuting operation in the cycle.
constexpr const char* kProgram = R"(
define i16 @crc16(ptr %data, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %next ]
  %crc = phi i16 [ -1, %entry ], [ %cn, %next ]
  %done = icmp sge i64 %i, %n
  br i1 %done, label %exit, label %body
body:
  %p = getelementptr i8, ptr %data, i64 %i
  %byte = load i8, ptr %p
  %b = zext i8 %byte to i64
  br label %bits
bits:
  %k = phi i64 [ 0, %body ], [ %k1, %bits ]
  %c = phi i16 [ %crc, %body ], [ %cn, %bits ]
  %bb = phi i64 [ %b, %body ], [ %bb1, %bits ]
  %cz = zext i16 %c to i64
  %t = xor i64 %cz, %bb
  %t1 = and i64 %t, 1
  %odd = icmp ne i64 %t1, 0
  %sh = lshr i16 %c, 1
  %xr = xor i16 %sh, -31736
  %cn = select i1 %odd, i16 %xr, i16 %sh
  %bb1 = lshr i64 %bb, 1
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, 8
  br i1 %more, label %bits, label %next
next:
  %i1 = add i64 %i, 1
  br label %loop
exit:
  %inv = xor i16 %crc, -1
  ret i16 %inv
}

define i8 @mix8(i64 %n, i8 %seed) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %x = phi i8 [ %seed, %entry ], [ %x1, %loop ]
  %amt8 = trunc i64 %i to i8
  %amt = and i8 %amt8, 7
  %a = add i8 %x, 77
  %s = lshr i8 %a, %amt
  %nx = xor i8 %x, -1
  %o = or i8 %s, 1
  %lt = icmp ult i8 %x, 100
  %x1 = select i1 %lt, i8 %o, i8 %nx
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %r = zext i8 %x1 to i32
  %r8 = trunc i32 %r to i8
  ret i8 %r8
}

define i16 @affine16(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %x = phi i16 [ 1, %entry ], [ %x1, %loop ]
  %m = mul i16 %x, 3
  %a = add i16 %m, 40503
  %x1 = lshr i16 %a, 1
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret i16 %x1
}

define i16 @add16(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %x = phi i16 [ 1, %entry ], [ %x1, %loop ]
  %x1 = add i16 %x, 40503
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %y = lshr i16 %x1, 3
  ret i16 %y
}
)";

uint16_t crc16_ref(const uint8_t* data, int64_t n) {
  uint16_t crc = 0xFFFF;
  for (int64_t i = 0; i < n; ++i) {
    uint8_t b = data[i];
    for (int k = 0; k < 8; ++k) {
      bool odd = ((crc ^ b) & 1) != 0;
      crc = static_cast<uint16_t>(odd ? (crc >> 1) ^ 0x8408 : crc >> 1);
      b = static_cast<uint8_t>(b >> 1);
    }
  }
  return static_cast<uint16_t>(~crc);
}

uint8_t mix8_ref(int64_t n, uint8_t x) {
  for (int64_t i = 0; i < n || i == 0; ++i) {  // the IR loop runs at least once
    uint8_t amt = static_cast<uint8_t>(i) & 7;
    uint8_t a = static_cast<uint8_t>(x + 77);
    uint8_t o = static_cast<uint8_t>((a >> amt) | 1);
    uint8_t nx = static_cast<uint8_t>(~x);
    x = x < 100 ? o : nx;
  }
  return x;
}

uint16_t affine16_ref(int64_t n) {
  uint16_t x = 1;
  for (int64_t i = 0; i < n || i == 0; ++i) x = static_cast<uint16_t>(static_cast<uint16_t>(x * 3 + 40503) >> 1);
  return x;
}

uint16_t add16_ref(int64_t n) {
  uint16_t x = 1;
  for (int64_t i = 0; i < n || i == 0; ++i) x = static_cast<uint16_t>(x + 40503);
  return static_cast<uint16_t>(x >> 3);
}

test::TestModule parse() { return test::parse_assembly(kProgram, "widen_narrow_phis"); }

// Bit widths of the loop phis of `f` that are not the i64 counters.
std::vector<unsigned> state_phi_widths(llvm::Function& f) {
  std::vector<unsigned> out;
  for (llvm::BasicBlock& bb : f)
    for (llvm::PHINode& phi : bb.phis())
      if (phi.getName() != "i" && phi.getName() != "k" && phi.getName() != "bb")
        out.push_back(phi.getType()->getIntegerBitWidth());
  return out;
}

TEST(JitWidenNarrowPhis, CommutingWebsWidenOthersStayNarrow) {
  test::TestModule p = parse();
  ASSERT_TRUE(p.module);
  EXPECT_EQ(widen_narrow_phis(*p.module->getFunction("crc16")), 1);
  EXPECT_EQ(widen_narrow_phis(*p.module->getFunction("mix8")), 1);
  EXPECT_EQ(widen_narrow_phis(*p.module->getFunction("affine16")), 1);
  EXPECT_EQ(widen_narrow_phis(*p.module->getFunction("add16")), 0);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  EXPECT_FALSE(llvm::verifyModule(*p.module, &os)) << errors;
  // crc16's state is zero-extended to i64 for the bit test: the web becomes i64.
  EXPECT_EQ(state_phi_widths(*p.module->getFunction("crc16")), (std::vector<unsigned>{64, 64}));
  EXPECT_EQ(state_phi_widths(*p.module->getFunction("mix8")), (std::vector<unsigned>{32}));
  EXPECT_EQ(state_phi_widths(*p.module->getFunction("add16")), (std::vector<unsigned>{16}));
}

JitSession& session() { return test::shared_session(); }

// widened: the pass applied by hand, then compiled at O0 (no other pass); else the
// original at `level` (O2 runs the pass at the end of its pipeline).
void check_against_references(bool widened, int level) {
  test::TestModule p = parse();
  ASSERT_TRUE(p.module);
  if (widened)
    for (llvm::Function& f : *p.module) widen_narrow_phis(f);
  CompileOptions o;
  o.opt.level = level;
  auto m = session().compile(std::move(p.module), std::move(p.context), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto crc16 = (*m)->lookup_function<uint16_t(const uint8_t*, int64_t)>("crc16");
  auto mix8 = (*m)->lookup_function<uint8_t(int64_t, uint8_t)>("mix8");
  auto affine16 = (*m)->lookup_function<uint16_t(int64_t)>("affine16");
  auto add16 = (*m)->lookup_function<uint16_t(int64_t)>("add16");
  ASSERT_TRUE(crc16.ok() && mix8.ok() && affine16.ok() && add16.ok());
  std::vector<uint8_t> data(1000);
  uint32_t s = 12345;
  for (uint8_t& d : data) d = static_cast<uint8_t>((s = s * 1103515245u + 12345u) >> 16);
  data[0] = 0;
  data[1] = 0xFF;
  for (int64_t n : {0, 1, 2, 7, 255, 1000})
    EXPECT_EQ((*crc16)(data.data(), n), crc16_ref(data.data(), n)) << "n " << n << " widened " << widened;
  for (int seed = 0; seed < 256; ++seed)
    for (int64_t n : {1, 3, 17, 300})
      ASSERT_EQ((*mix8)(n, static_cast<uint8_t>(seed)), mix8_ref(n, static_cast<uint8_t>(seed)))
          << "seed " << seed << " n " << n << " widened " << widened;
  for (int64_t n : {1, 2, 5, 64, 1000, 65537}) {
    EXPECT_EQ((*affine16)(n), affine16_ref(n)) << "n " << n << " widened " << widened;
    EXPECT_EQ((*add16)(n), add16_ref(n)) << "n " << n << " widened " << widened;
  }
}

TEST(JitWidenNarrowPhis, WidenedCodeMatchesNarrowLoops) { check_against_references(true, 0); }

TEST(JitWidenNarrowPhis, OptimizedPipelineMatchesNarrowLoops) {
  check_against_references(false, 0);
  check_against_references(false, 2);
}

}  // namespace
}  // namespace dace::jit
