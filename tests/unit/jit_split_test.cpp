// Parallel code generation (jit/split.h): a module cut into pieces compiled on several
// threads gives the same object bytes for every thread count, links as one program (hidden
// symbols between pieces, local constants copied, a non-constant global shared) and computes
// what the hand-derived values say; the object bundle format rejects damaged input.
#include <gtest/gtest.h>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include <unistd.h>

#include "jit/object_bundle.h"
#include "jit/session.h"
#include "jit/split.h"
#include "jit_test_modules.h"

namespace dace::jit {
namespace {

// entry(n): bump adds table[n] to counter (noinline: a unit of its own), body (address
// taken: a unit) adds square(n), entry returns counter + square(n). `square` is local and
// only called directly: copied into each piece that calls it.
constexpr const char* kProgram = R"(
@counter = internal global i64 0
@table = private unnamed_addr constant [4 x i64] [i64 1, i64 10, i64 100, i64 1000]

define internal void @bump(ptr %c, i64 %b, i64 %e) noinline nounwind {
  %p = getelementptr [4 x i64], ptr @table, i64 0, i64 %b
  %t = load i64, ptr %p
  %v = load i64, ptr @counter
  %s = add i64 %v, %t
  store i64 %s, ptr @counter
  ret void
}

define internal i64 @square(i64 %x) {
  %r = mul i64 %x, %x
  ret i64 %r
}

define internal void @body(ptr %c, i64 %b, i64 %e) nounwind {
  %q = call i64 @square(i64 %b)
  %v = load i64, ptr @counter
  %s = add i64 %v, %q
  store i64 %s, ptr @counter
  ret void
}

define i64 @entry(i64 %n) {
  %slot = alloca ptr
  call void @bump(ptr null, i64 %n, i64 0)
  store volatile ptr @body, ptr %slot
  %f = load volatile ptr, ptr %slot
  call void %f(ptr null, i64 %n, i64 0)
  %sq = call i64 @square(i64 %n)
  %v = load i64, ptr @counter
  %r = add i64 %v, %sq
  ret i64 %r
}
)";

test::TestModule parse() { return test::parse_assembly(kProgram, "split_program"); }

JitSession& session() { return test::shared_session(); }

Result<std::unique_ptr<JitModule>> compile(int level, int threads, uint64_t piece_instructions,
                                           const std::string& cache_key = {}) {
  test::TestModule p = parse();
  CompileOptions o;
  o.opt.level = level;
  o.threads = threads;
  o.piece_instructions = piece_instructions;
  o.keep_object = true;
  o.cache_key = cache_key;
  return session().compile(std::move(p.module), std::move(p.context), o);
}

// Two calls: counter 0 -> 100 -> 104, returns 108; then 204 -> 208, returns 212.
void expect_hand_derived(const JitModule& m) {
  auto entry = m.lookup_function<int64_t(int64_t)>("entry");
  ASSERT_TRUE(entry.ok()) << entry.error().message;
  EXPECT_EQ((*entry)(2), 108);
  EXPECT_EQ((*entry)(2), 212);
}

TEST(JitSplit, PiecesPlannedFromSizeOnly) {
  EXPECT_EQ(planned_pieces(2999, 1500), 1);
  EXPECT_EQ(planned_pieces(3000, 1500), 2);
  EXPECT_EQ(planned_pieces(1000000, 1500), kMaxPieces);
  EXPECT_EQ(planned_pieces(20, 1), kMaxPieces);
}

TEST(JitSplit, ProgramInPiecesComputesTheHandDerivedValues) {
  for (int level : {0, 3}) {
    auto m = compile(level, 3, 1);
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ((*m)->stats().pieces, 3) << "units: entry, bump (noinline), body (address taken)";
    EXPECT_EQ((*m)->stats().threads, 3);
    auto parts = unbundle_objects((*m)->object_file());
    ASSERT_TRUE(parts.ok());
    EXPECT_EQ(parts->size(), 3u);
    expect_hand_derived(**m);
  }
}

TEST(JitSplit, ObjectBytesDoNotDependOnTheThreadCount) {
  for (int level : {0, 3}) {
    auto one = compile(level, 1, 1);
    auto four = compile(level, 4, 1);
    ASSERT_TRUE(one.ok() && four.ok());
    EXPECT_EQ((*one)->stats().threads, 1);
    EXPECT_EQ((*one)->stats().pieces, (*four)->stats().pieces);
    EXPECT_EQ((*one)->object_file(), (*four)->object_file()) << "level " << level;
  }
}

TEST(JitSplit, SmallModuleIsNotSplitAndAgrees) {
  auto whole = compile(3, 4, std::numeric_limits<uint64_t>::max());
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ((*whole)->stats().pieces, 1);
  auto parts = unbundle_objects((*whole)->object_file());
  ASSERT_TRUE(parts.ok());
  EXPECT_EQ(parts->size(), 1u) << "an unsplit module stays a plain object";
  expect_hand_derived(**whole);
}

TEST(JitSplit, BundleLoadsElsewhereAndThroughTheCache) {
  auto m = compile(3, 2, 1);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto other = JitSession::create();
  ASSERT_TRUE(other.ok());
  auto loaded = (*other)->load_object((*m)->object_file());
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  expect_hand_derived(**loaded);

  auto dir = std::filesystem::temp_directory_path() / ("dace-split-cache-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SessionOptions so;
  so.cache_dir = dir.string();
  auto cached_session = JitSession::create(so);
  ASSERT_TRUE(cached_session.ok());
  const std::string key(64, 'a');
  test::TestModule p = parse();
  CompileOptions o;
  o.piece_instructions = 1;
  o.threads = 2;
  o.cache_key = key;
  auto stored = (*cached_session)->compile(std::move(p.module), std::move(p.context), o);
  ASSERT_TRUE(stored.ok()) << stored.error().message;
  auto hit = (*cached_session)->load_cached(key);
  ASSERT_TRUE(hit.ok()) << hit.error().message;
  expect_hand_derived(**hit);
  std::filesystem::remove_all(dir);
}

// The cache entry (header, digest and payload) written with 1 and with 4 threads.
TEST(JitSplit, CacheEntryIsTheSameForOneAndFourThreads) {
  const std::string key(64, 'b');
  std::string entries[2];
  for (int i = 0; i < 2; ++i) {
    auto dir = std::filesystem::temp_directory_path() /
               ("dace-split-threads-" + std::to_string(::getpid()) + "-" + std::to_string(i));
    std::filesystem::remove_all(dir);
    SessionOptions so;
    so.cache_dir = dir.string();
    auto s = JitSession::create(so);
    ASSERT_TRUE(s.ok());
    test::TestModule p = parse();
    CompileOptions o;
    o.piece_instructions = 1;
    o.threads = i == 0 ? 1 : 4;
    o.cache_key = key;
    auto m = (*s)->compile(std::move(p.module), std::move(p.context), o);
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ((*m)->stats().pieces, 3);
    std::ifstream in(dir / (key + ".dobj"), std::ios::binary);
    ASSERT_TRUE(in.good());
    entries[i].assign(std::istreambuf_iterator<char>(in), {});
    std::filesystem::remove_all(dir);
  }
  EXPECT_FALSE(entries[0].empty());
  EXPECT_TRUE(entries[0] == entries[1]) << "cache entries differ between 1 and 4 threads";
}

TEST(JitSplit, DamagedBundleIsACompileError) {
  auto m = compile(0, 1, 1);
  ASSERT_TRUE(m.ok()) << m.error().message;
  std::string bytes = (*m)->object_file();
  ASSERT_EQ(bytes.substr(0, 8), "DACEOBJB");
  for (size_t cut : {size_t{9}, size_t{20}, bytes.size() - 1}) {
    auto loaded = session().load_object(bytes.substr(0, cut));
    ASSERT_FALSE(loaded.ok()) << "cut at " << cut;
    EXPECT_EQ(loaded.error().code, Code::CompileError);
  }
  EXPECT_EQ(bundle_objects({"x"}), "x");
  const std::string bundle = bundle_objects({"ab", "", "cde"});  // the parts are views into it
  auto parts = unbundle_objects(bundle);
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 3u);
  EXPECT_EQ((*parts)[0], "ab");
  EXPECT_EQ((*parts)[1], "");
  EXPECT_EQ((*parts)[2], "cde");
}

}  // namespace
}  // namespace dace::jit
