// table_driven_bit_loops: right-shifting CRC loops (NPBench's crc16 as libdace lowers it,
// CRC-32, CRC-16/ARC with the data bit selected by the counter, a loop that also leaves its
// shifted data) become table lookups and give the catalogue check values and the results of
// plain C++ bit loops; loops that are not affine, too short, too long, have a side effect,
// a run-time polynomial, a run-time trip count or shift left stay loops and stay correct.
#include <gtest/gtest.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jit/session.h"
#include "jit/table_driven_bit_loops.h"
#include "jit_test_modules.h"

namespace dace::jit {
namespace {

// A reflected CRC-32 bit loop `@name(i32 %crc0, <second>)`: the state starts at
// %crc0 ^ <start_xor>, each step is `c = (c >> 1) ^ (<poly> if c & 1)`, the counter %k
// counts from <from> by <step> while `icmp <more>` holds, and <extra> lines run in each step.
std::string reflected_crc32(const std::string& name, const std::string& second, const std::string& start_xor,
                            const std::string& poly, int from, int step, const std::string& more,
                            const std::string& extra = "") {
  return "define i32 @" + name + "(i32 %crc0, " + second + R"() {
entry:
  %x = xor i32 %crc0, )" + start_xor + R"(
  br label %bits
bits:
  %k = phi i32 [ )" + std::to_string(from) + R"(, %entry ], [ %k1, %bits ]
  %c = phi i32 [ %x, %entry ], [ %cn, %bits ]
  %odd = trunc i32 %c to i1
  %sh = lshr i32 %c, 1
  %xr = xor i32 %sh, )" + poly + R"(
  %cn = select i1 %odd, i32 %xr, i32 %sh
)" + extra + R"(  %k1 = add i32 %k, )" + std::to_string(step) + R"(
  %more = icmp )" + more + R"(
  br i1 %more, label %bits, label %out
out:
  ret i32 %cn
}
)";
}

// CRC-32's polynomial 0xEDB88320 as an i32.
constexpr const char* kCrc32Poly = "-306674912";

// The byte xored into the state, `steps` steps counted down to 0.
std::string crc32_steps(const std::string& name, int steps) {
  return reflected_crc32(name, "i32 %byte", "%byte", kCrc32Poly, steps, -1, "ne i32 %k1, 0");
}

// crc16_x25: NPBench's crc16 in the form libdace's lowering and LLVM's early passes give it
// (i16 state, i64 data, 0x8408 as i16 -31736). crc32_bytes: CRC-32 over a buffer.
// crc_and_data: both the state and the shifted data leave the loop; the data is 32 bits wide
// (its high bits are shifted down, never into the table). crc16_arc_bit_by_index: the data
// bit is selected by the counter (`byte >> k`), poly 0xA001 = i16 -24575.
// Loops that stay: nonlinear (`c & d`), crc32_9/crc32_3 (trip counts outside 4..8),
// runtime_poly, with_store, msb_first (a left-shifting CRC-16/CCITT: affine, but not a
// right shift plus a table), runtime_trip.
const std::string& program() {
  static const std::string text = std::string(R"(
define i16 @crc16_x25(ptr %data, i64 %n) {
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %done, label %byte
byte:
  %crc = phi i16 [ -1, %entry ], [ %crc.next, %byte.end ]
  %i = phi i64 [ 0, %entry ], [ %i1, %byte.end ]
  %p = getelementptr i8, ptr %data, i64 %i
  %v = load i8, ptr %p
  %b = zext i8 %v to i64
  br label %bits
bits:
  %k = phi i64 [ 0, %byte ], [ %k1, %bits ]
  %c = phi i16 [ %crc, %byte ], [ %cn, %bits ]
  %d = phi i64 [ %b, %byte ], [ %d1, %bits ]
  %cz = zext i16 %c to i64
  %t = xor i64 %d, %cz
  %t1 = and i64 %t, 1
  %even = icmp eq i64 %t1, 0
  %sh = lshr i16 %c, 1
  %xr = xor i16 %sh, -31736
  %cn = select i1 %even, i16 %sh, i16 %xr
  %d1 = lshr i64 %d, 1
  %k1 = add nuw nsw i64 %k, 1
  %more = icmp ne i64 %k1, 8
  br i1 %more, label %bits, label %byte.end
byte.end:
  %crc.next = phi i16 [ %cn, %bits ]
  %i1 = add nuw nsw i64 %i, 1
  %again = icmp slt i64 %i1, %n
  br i1 %again, label %byte, label %done
done:
  %r = phi i16 [ -1, %entry ], [ %crc.next, %byte.end ]
  %inv = xor i16 %r, -1
  ret i16 %inv
}

define i32 @crc32_bytes(ptr %data, i64 %n) {
entry:
  br label %head
head:
  %crc = phi i32 [ -1, %entry ], [ %crc.next, %byte.end ]
  %i = phi i64 [ 0, %entry ], [ %i1, %byte.end ]
  %more.bytes = icmp slt i64 %i, %n
  br i1 %more.bytes, label %byte, label %done
byte:
  %p = getelementptr i8, ptr %data, i64 %i
  %v = load i8, ptr %p
  %b = zext i8 %v to i32
  %x = xor i32 %crc, %b
  br label %bits
bits:
  %k = phi i32 [ 8, %byte ], [ %k1, %bits ]
  %c = phi i32 [ %x, %byte ], [ %cn, %bits ]
  %odd = trunc i32 %c to i1
  %sh = lshr i32 %c, 1
  %xr = xor i32 %sh, -306674912
  %cn = select i1 %odd, i32 %xr, i32 %sh
  %k1 = add i32 %k, -1
  %more = icmp ne i32 %k1, 0
  br i1 %more, label %bits, label %byte.end
byte.end:
  %crc.next = phi i32 [ %cn, %bits ]
  %i1 = add i64 %i, 1
  br label %head
done:
  %inv = xor i32 %crc, -1
  ret i32 %inv
}

define i64 @crc_and_data(i32 %crc0, i32 %data0) {
entry:
  br label %bits
bits:
  %k = phi i8 [ 0, %entry ], [ %k1, %bits ]
  %c = phi i32 [ %crc0, %entry ], [ %cn, %bits ]
  %d = phi i32 [ %data0, %entry ], [ %d1, %bits ]
  %t = xor i32 %c, %d
  %low = and i32 %t, 1
  %odd = icmp ne i32 %low, 0
  %sh = lshr i32 %c, 1
  %xr = xor i32 %sh, -1582119980
  %cn = select i1 %odd, i32 %xr, i32 %sh
  %d1 = lshr i32 %d, 1
  %k1 = add i8 %k, 1
  %more = icmp ult i8 %k1, 8
  br i1 %more, label %bits, label %out
out:
  %cz = zext i32 %cn to i64
  %hi = shl i64 %cz, 32
  %dz = zext i32 %d1 to i64
  %r = or i64 %hi, %dz
  ret i64 %r
}

define i16 @crc16_arc_bit_by_index(i16 %crc0, i8 %byte) {
entry:
  %bz = zext i8 %byte to i16
  br label %bits
bits:
  %k = phi i16 [ 0, %entry ], [ %k1, %bits ]
  %c = phi i16 [ %crc0, %entry ], [ %cn, %bits ]
  %bit = lshr i16 %bz, %k
  %t = xor i16 %c, %bit
  %odd = trunc i16 %t to i1
  %sh = lshr i16 %c, 1
  %xr = xor i16 %sh, -24575
  %cn = select i1 %odd, i16 %xr, i16 %sh
  %k1 = add i16 %k, 1
  %more = icmp ult i16 %k1, 8
  br i1 %more, label %bits, label %out
out:
  ret i16 %cn
}

define i32 @nonlinear(i32 %crc0, i32 %data0) {
entry:
  br label %bits
bits:
  %k = phi i32 [ 0, %entry ], [ %k1, %bits ]
  %c = phi i32 [ %crc0, %entry ], [ %cn, %bits ]
  %sh = lshr i32 %c, 1
  %m = and i32 %c, %data0
  %cn = xor i32 %sh, %m
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, 8
  br i1 %more, label %bits, label %out
out:
  ret i32 %cn
}

define i16 @msb_first(i16 %crc0, i8 %byte) {
entry:
  %bz = zext i8 %byte to i16
  %bs = shl i16 %bz, 8
  %x = xor i16 %crc0, %bs
  br label %bits
bits:
  %k = phi i32 [ 0, %entry ], [ %k1, %bits ]
  %c = phi i16 [ %x, %entry ], [ %cn, %bits ]
  %top = icmp slt i16 %c, 0
  %sh = shl i16 %c, 1
  %xr = xor i16 %sh, 4129
  %cn = select i1 %top, i16 %xr, i16 %sh
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, 8
  br i1 %more, label %bits, label %out
out:
  ret i16 %cn
}

)") + crc32_steps("crc32_9", 9) + crc32_steps("crc32_3", 3) + crc32_steps("crc32_8", 8) +
      reflected_crc32("runtime_poly", "i32 %poly", "0", "%poly", 0, 1, "ult i32 %k1, 8") +
      reflected_crc32("with_store", "ptr %trace", "0", kCrc32Poly, 0, 1, "ult i32 %k1, 8",
                      "  %slot = getelementptr i32, ptr %trace, i32 %k\n  store i32 %cn, ptr %slot\n") +
      reflected_crc32("runtime_trip", "i32 %n", "0", kCrc32Poly, 0, 1, "ult i32 %k1, %n");
  return text;
}

// Plain C++ bit loops, written from the CRC definitions.
uint16_t crc16_x25_ref(const uint8_t* data, int64_t n) {
  uint16_t crc = 0xFFFF;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t d = data[i];
    for (int k = 0; k < 8; ++k) {
      bool odd = ((crc ^ d) & 1) != 0;
      crc = static_cast<uint16_t>(odd ? (crc >> 1) ^ 0x8408 : crc >> 1);
      d >>= 1;
    }
  }
  return static_cast<uint16_t>(~crc);
}

uint32_t crc32_steps_ref(uint32_t crc, uint32_t byte, int steps) {
  uint32_t c = crc ^ byte;
  for (int k = 0; k < steps; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
  return c;
}

uint32_t crc32_bytes_ref(const uint8_t* data, int64_t n) {
  uint32_t crc = 0xFFFFFFFFu;
  for (int64_t i = 0; i < n; ++i) crc = crc32_steps_ref(crc, data[i], 8);
  return ~crc;
}

uint64_t crc_and_data_ref(uint32_t c, uint32_t d) {
  for (int k = 0; k < 8; ++k) {
    c = ((c ^ d) & 1) ? (c >> 1) ^ 0xA1B2C3D4u : c >> 1;
    d >>= 1;
  }
  return (uint64_t{c} << 32) | d;
}

uint16_t crc16_arc_ref(uint16_t c, uint8_t byte) {
  for (int k = 0; k < 8; ++k) {
    bool odd = ((c ^ (byte >> k)) & 1) != 0;
    c = static_cast<uint16_t>(odd ? (c >> 1) ^ 0xA001 : c >> 1);
  }
  return c;
}

uint32_t nonlinear_ref(uint32_t c, uint32_t d) {
  for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (c & d);
  return c;
}

uint32_t runtime_poly_ref(uint32_t c, uint32_t poly) {
  for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
  return c;
}

uint16_t msb_first_ref(uint16_t crc, uint8_t byte) {
  uint16_t c = static_cast<uint16_t>(crc ^ (byte << 8));
  for (int k = 0; k < 8; ++k) c = static_cast<uint16_t>((c & 0x8000) ? (c << 1) ^ 0x1021 : c << 1);
  return c;
}

uint32_t runtime_trip_ref(uint32_t c, uint32_t n) {
  for (uint32_t k = 0; k < n || k == 0; ++k) c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;  // runs once at least
  return c;
}

test::TestModule parse() { return test::parse_assembly(program(), "bit_loops"); }

const std::map<std::string, int> kExpectedReplacements = {
    {"crc16_x25", 1},  {"crc32_bytes", 1}, {"crc_and_data", 1}, {"crc16_arc_bit_by_index", 1},
    {"crc32_8", 1},    {"nonlinear", 0},   {"runtime_poly", 0}, {"with_store", 0},
    {"msb_first", 0},  {"runtime_trip", 0}, {"crc32_9", 0},     {"crc32_3", 0}};

TEST(JitTableDrivenBitLoops, ReplacesExactlyTheAffineRightShiftingLoops) {
  test::TestModule p = parse();
  ASSERT_TRUE(p.module);
  for (llvm::Function& f : *p.module)
    EXPECT_EQ(table_driven_bit_loops(f), kExpectedReplacements.at(f.getName().str())) << f.getName().str();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  EXPECT_FALSE(llvm::verifyModule(*p.module, &os)) << errors;
  // One table each, but crc_and_data's data (a plain shift) needs none.
  int tables = 0;
  for (llvm::GlobalVariable& g : p.module->globals()) {
    EXPECT_TRUE(g.isConstant() && g.hasPrivateLinkage()) << g.getName().str();
    ++tables;
  }
  EXPECT_EQ(tables, 5);
}

TEST(JitTableDrivenBitLoops, SameInputSameModule) {
  test::TestModule a = parse();
  test::TestModule b = parse();
  ASSERT_TRUE(a.module && b.module);
  for (llvm::Function& f : *a.module) table_driven_bit_loops(f);
  for (llvm::Function& f : *b.module) table_driven_bit_loops(f);
  EXPECT_EQ(test::print_module(*a.module), test::print_module(*b.module));
}

// The body of `name` in a printed module.
std::string function_text(const std::string& ir, const std::string& name) {
  size_t begin = ir.find(" @" + name + "(");
  if (begin == std::string::npos) return "";
  size_t end = ir.find("\n}\n", begin);
  return ir.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// replaced: the pass applied by hand, then compiled at O0 (no other pass); else the original
// at `level` (O2 runs the pass among LLVM's loop passes).
void check_against_references(bool replaced, int level) {
  test::TestModule p = parse();
  ASSERT_TRUE(p.module);
  if (replaced)
    for (llvm::Function& f : *p.module) table_driven_bit_loops(f);
  CompileOptions o;
  o.opt.level = level;
  o.keep_ir = true;
  auto m = test::shared_session().compile(std::move(p.module), std::move(p.context), o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  if (!replaced && level >= 2) {
    for (const auto& [name, replacements] : kExpectedReplacements) {
      std::string body = function_text((*m)->optimized_ir(), name);
      EXPECT_EQ(body.find("@dace.bit_loop_table") != std::string::npos, replacements == 1)
          << name << " at O" << level << ":\n" << body;
    }
  }
  auto crc16_x25 = (*m)->lookup_function<uint16_t(const uint8_t*, int64_t)>("crc16_x25");
  auto crc32_bytes = (*m)->lookup_function<uint32_t(const uint8_t*, int64_t)>("crc32_bytes");
  auto crc_and_data = (*m)->lookup_function<uint64_t(uint32_t, uint32_t)>("crc_and_data");
  auto crc16_arc = (*m)->lookup_function<uint16_t(uint16_t, uint8_t)>("crc16_arc_bit_by_index");
  auto nonlinear = (*m)->lookup_function<uint32_t(uint32_t, uint32_t)>("nonlinear");
  auto runtime_poly = (*m)->lookup_function<uint32_t(uint32_t, uint32_t)>("runtime_poly");
  auto with_store = (*m)->lookup_function<uint32_t(uint32_t, uint32_t*)>("with_store");
  auto msb_first = (*m)->lookup_function<uint16_t(uint16_t, uint8_t)>("msb_first");
  auto runtime_trip = (*m)->lookup_function<uint32_t(uint32_t, uint32_t)>("runtime_trip");
  auto crc32_9 = (*m)->lookup_function<uint32_t(uint32_t, uint32_t)>("crc32_9");
  auto crc32_3 = (*m)->lookup_function<uint32_t(uint32_t, uint32_t)>("crc32_3");
  auto crc32_8 = (*m)->lookup_function<uint32_t(uint32_t, uint32_t)>("crc32_8");
  ASSERT_TRUE(crc16_x25.ok() && crc32_bytes.ok() && crc_and_data.ok() && crc16_arc.ok() && nonlinear.ok() &&
              runtime_poly.ok() && with_store.ok() && msb_first.ok() && runtime_trip.ok() && crc32_9.ok() &&
              crc32_3.ok() && crc32_8.ok());
  const char* kCheck = "123456789";  // the CRC catalogue's check input
  const auto* check = reinterpret_cast<const uint8_t*>(kCheck);
  EXPECT_EQ((*crc16_x25)(check, 9), 0x906E);     // CRC-16/X-25
  EXPECT_EQ((*crc32_bytes)(check, 9), 0xCBF43926u);  // CRC-32 (ISO-HDLC)
  uint16_t arc = 0;
  for (int i = 0; i < 9; ++i) arc = (*crc16_arc)(arc, check[i]);
  EXPECT_EQ(arc, 0xBB3D);  // CRC-16/ARC
  uint16_t ccitt = 0xFFFF;
  for (int i = 0; i < 9; ++i) ccitt = (*msb_first)(ccitt, check[i]);
  EXPECT_EQ(ccitt, 0x29B1);  // CRC-16/IBM-3740 (CCITT-FALSE)

  std::vector<uint8_t> data(4096);
  uint64_t s = 0x9E3779B97F4A7C15u;
  auto next = [&s] { return static_cast<uint32_t>((s = s * 6364136223846793005u + 1442695040888963407u) >> 32); };
  for (uint8_t& d : data) d = static_cast<uint8_t>(next());
  for (int64_t n : {0, 1, 2, 3, 255, 4096}) {
    EXPECT_EQ((*crc16_x25)(data.data(), n), crc16_x25_ref(data.data(), n)) << "n " << n;
    EXPECT_EQ((*crc32_bytes)(data.data(), n), crc32_bytes_ref(data.data(), n)) << "n " << n;
  }
  for (int round = 0; round < 2000; ++round) {
    uint32_t a = next(), b = next();
    uint8_t byte = static_cast<uint8_t>(b);
    ASSERT_EQ((*crc_and_data)(a, b), crc_and_data_ref(a, b)) << a << " " << b;
    ASSERT_EQ((*crc16_arc)(static_cast<uint16_t>(a), byte), crc16_arc_ref(static_cast<uint16_t>(a), byte));
    ASSERT_EQ((*nonlinear)(a, b), nonlinear_ref(a, b));
    ASSERT_EQ((*runtime_poly)(a, b), runtime_poly_ref(a, b));
    uint32_t trace[8];
    ASSERT_EQ((*with_store)(a, trace), crc32_steps_ref(a, 0, 8));
    EXPECT_EQ(trace[3], crc32_steps_ref(a, 0, 4));
    ASSERT_EQ((*msb_first)(static_cast<uint16_t>(a), byte), msb_first_ref(static_cast<uint16_t>(a), byte));
    ASSERT_EQ((*runtime_trip)(a, b % 20), runtime_trip_ref(a, b % 20));
    ASSERT_EQ((*crc32_9)(a, byte), crc32_steps_ref(a, byte, 9));
    ASSERT_EQ((*crc32_3)(a, byte), crc32_steps_ref(a, byte, 3));
    // A byte with high bits: they shift down through the state, not through the table.
    ASSERT_EQ((*crc32_8)(a, b), crc32_steps_ref(a, b, 8)) << a << " " << b;
  }
}

TEST(JitTableDrivenBitLoops, ReplacedLoopsMatchBitLoops) { check_against_references(true, 0); }

TEST(JitTableDrivenBitLoops, OptimizedPipelineMatchesBitLoops) {
  check_against_references(false, 0);
  check_against_references(false, 2);
  check_against_references(false, 3);
}

}  // namespace
}  // namespace dace::jit
