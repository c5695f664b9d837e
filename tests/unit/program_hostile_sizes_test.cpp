// Transient sizes from hostile symbol values (issue 15): the corpus gemm kernel (C = alpha *
// A @ B + beta * C; its transients __tmp0[NI, NK], __tmp1/__tmp2[NI, NJ] are sized by the
// symbols) called with NI = 10^12, 2^62, 2^63-1, -2^63, -1 must return a status naming the
// container and the symbol, never crash, and stay callable: a normal call afterwards gives
// the hand-computed product. The argument arrays are small buffers described with the huge
// shapes: the transients are allocated (and checked) before anything reads the arguments.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "capi_test_util.h"
#include "process_memory_support.h"

namespace {

struct Gemm {
  dace_context_t* ctx = nullptr;
  dace_sdfg_t* sdfg = nullptr;
  dace_program_t* program = nullptr;
  ~Gemm() {
    dace_program_release(program);
    dace_sdfg_release(sdfg);
    dace_context_release(ctx);
  }
  dace_status_t compile(const dace_compile_options_t* options = nullptr) {
    if (!sdfg) {
      std::string path = std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg";
      if (dace_sdfg_load_file(&sdfg, path.c_str()) != DACE_OK) return dace_last_error_status();
    }
    if (!ctx && dace_context_create(&ctx) != DACE_OK) return dace_last_error_status();
    dace_program_release(program);
    program = nullptr;
    return dace_program_compile(&program, ctx, sdfg, options);
  }
  // Arguments by name; `a`, `b`, `c` are described with shapes (ni, nk), (nk, nj), (ni, nj).
  dace_status_t call(int64_t ni, int64_t nj, int64_t nk, double* a, double* b, double* c, double alpha, double beta) {
    int64_t sa[2] = {ni, nk}, sb[2] = {nk, nj}, sc[2] = {ni, nj};
    const char* names[5] = {"A", "B", "C", "alpha", "beta"};
    dace_arg_t args[5]{};
    args[0].kind = args[1].kind = args[2].kind = DACE_ARG_ARRAY;
    args[0].value.array = {a, DACE_FLOAT64, 2, sa, nullptr};
    args[1].value.array = {b, DACE_FLOAT64, 2, sb, nullptr};
    args[2].value.array = {c, DACE_FLOAT64, 2, sc, nullptr};
    args[3].kind = args[4].kind = DACE_ARG_FLOAT;
    args[3].value.f = alpha;
    args[4].value.f = beta;
    return dace_program_call(program, names, args, 5);
  }
};

// A normal 3x4 (k = 5) call against a hand-written loop; 0 when it matches.
int small_call_mismatches(Gemm& g) {
  const int ni = 3, nj = 4, nk = 5;
  std::vector<double> a(ni * nk), b(nk * nj), c(ni * nj), want(ni * nj);
  for (int i = 0; i < ni * nk; ++i) a[i] = 0.5 * i - 1;
  for (int i = 0; i < nk * nj; ++i) b[i] = 2.0 - 0.25 * i;
  for (int i = 0; i < ni * nj; ++i) c[i] = want[i] = i + 1;
  const double alpha = 1.5, beta = 1.2;
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) {
      double s = 0;
      for (int k = 0; k < nk; ++k) s += a[i * nk + k] * b[k * nj + j];
      want[i * nj + j] = alpha * s + beta * want[i * nj + j];
    }
  if (g.call(ni, nj, nk, a.data(), b.data(), c.data(), alpha, beta) != DACE_OK) return -1;
  int bad = 0;
  for (int i = 0; i < ni * nj; ++i) bad += std::abs(c[i] - want[i]) > 1e-12 * (1 + std::abs(want[i]));
  return bad;
}

TEST(ProgramHostileSizes, HugeAndNegativeSymbolsGiveStatusesAndTheProgramStaysCallable) {
  Gemm g;
  ASSERT_DACE_OK(g.compile());
  double buf[64] = {};
  struct Case {
    int64_t ni, nk;
    dace_status_t status;
    const char* needle;
  };
  const Case cases[] = {
      // 8e15 bytes: more than any x86-64 address space can map.
      {1000000000000LL, 1000, DACE_ERROR_OUT_OF_MEMORY, "cannot allocate"},
      {int64_t{1} << 62, 2, DACE_ERROR_OUT_OF_MEMORY, "overflows 64 bits"},
      {INT64_MAX, 1, DACE_ERROR_OUT_OF_MEMORY, "overflows 64 bits"},
      {INT64_MIN, 2, DACE_ERROR_INVALID_ARGUMENT, "negative extent, NI (symbol NI) = -9223372036854775808"},
      {-1, 2, DACE_ERROR_INVALID_ARGUMENT, "negative extent, NI (symbol NI) = -1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("NI = " + std::to_string(c.ni));
    EXPECT_DACE_ERROR(g.call(c.ni, 2, c.nk, buf, buf, buf, 1.0, 1.0), c.status, c.needle);
    // The message names the container (gemm's first transient by name).
    EXPECT_NE(std::string(dace_last_error_message()).find("data \"__tmp0\""), std::string::npos)
        << dace_last_error_message();
    EXPECT_EQ(small_call_mismatches(g), 0) << dace_last_error_message();
  }
}

using ::dace::testing_support::vm_size_bytes;

// In a child process (so the limit does not reach the other tests): compiles gemm, checks a
// small call, limits the address space to what is mapped + 512 MiB, then makes `rounds` calls
// with (ni, nj, nk) that must each return DACE_ERROR_OUT_OF_MEMORY with a message naming
// `bytes`, each followed by a right small call. The child's exit code says which step failed;
// a signal (e.g. glibc's abort on a double free) fails the test.
void expect_allocation_failure_in_child(int64_t ni, int64_t nj, int64_t nk, const std::string& bytes, int rounds) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 0;
    {
      Gemm g;
      if (g.compile() != DACE_OK) _exit(10);
      if (small_call_mismatches(g) != 0) _exit(11);
      int64_t vm = vm_size_bytes();
      if (vm <= 0) _exit(12);
      rlimit lim{static_cast<rlim_t>(vm + (512LL << 20)), static_cast<rlim_t>(vm + (512LL << 20))};
      if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(13);
      double buf[64] = {};
      for (int round = 0; round < rounds && code == 0; ++round) {
        dace_status_t s = g.call(ni, nj, nk, buf, buf, buf, 1.0, 1.0);
        std::string msg = dace_last_error_message();
        if (s != DACE_ERROR_OUT_OF_MEMORY) code = 14;
        else if (msg.find("cannot allocate " + bytes + " bytes") == std::string::npos) code = 15;
        else if (small_call_mismatches(g) != 0) code = 16;
      }
    }
    _exit(code);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died with signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                 << " (a block freed twice?)";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10 compile, 11 first call, 12/13 limit, 14 status, 15 message, 16 later call";
}

// Under RLIMIT_AS a transient of 3.2 GB cannot be allocated: the call returns
// DACE_ERROR_OUT_OF_MEMORY naming it and the next small call is right.
TEST(ProgramHostileSizes, AllocationFailureUnderAddressSpaceLimit) {
  expect_allocation_failure_in_child(20000, 20000, 20000, "3200000000", 1);
}

// One of several transients failing: __tmp0[NI, NK] is small (800 bytes, a tcache-sized block
// glibc checks for double frees) while __tmp1/__tmp2[NI, NJ] (3.2 GB each) cannot be allocated
// under RLIMIT_AS. The blocks that were allocated are freed exactly once on the way out (a
// second free aborts the child), the status names the failing container and the next small
// call is right (hand-written loop); three rounds.
TEST(ProgramHostileSizes, OneOfSeveralTransientsFailingFreesTheOthersOnce) {
  expect_allocation_failure_in_child(1, 400000000, 100, "3200000000", 3);
}

// Under RLIMIT_AS during compile (LLVM's allocations, the tiered compile's background
// thread): at each of a range of limits just above what the process already maps, a compile
// either succeeds or returns DACE_ERROR_OUT_OF_MEMORY with a message saying so - never an
// abort - and once the limit is lifted the same context compiles the kernel again and the
// call is right (hand-written loop). A child process per run keeps the limit away from the
// other tests. Skipped under AddressSanitizer: its allocator reserves address space of its
// own and reports failed mappings itself.
using ::dace::testing_support::kAddressSanitizer;

// Takes what malloc's arenas hold free (in 64 KiB blocks, until malloc fails under the
// limit) and gives back `budget` bytes of it: with no new mappings allowed, the next compile
// has about that much memory. Blocks are released by release().
class MallocHog {
 public:
  MallocHog() { blocks_.reserve(1 << 20); }
  void take_all_but(size_t budget) {
    while (blocks_.size() < blocks_.capacity()) {
      void* p = std::malloc(kBlock);
      if (!p) break;
      static_cast<volatile char*>(p)[0] = 1;
      blocks_.push_back(p);
    }
    for (size_t freed = 0; freed < budget && !blocks_.empty(); freed += kBlock) {
      std::free(blocks_.back());
      blocks_.pop_back();
    }
  }
  void release() {
    for (void* p : blocks_) std::free(p);
    blocks_.clear();
  }

 private:
  static constexpr size_t kBlock = 64 << 10;
  std::vector<void*> blocks_;
};

// 0 when every limited compile ended in success or out-of-memory and the unlimited one after
// it works; else a code saying which step failed.
int compile_under_limits(bool tiered) {
  Gemm g;
  dace_compile_options_t options;
  if (dace_compile_options_init(&options, DACE_COMPILE_OPTIONS_VERSION) != DACE_OK) return 20;
  options.tiered = tiered ? 1 : 0;
  options.wait_optimized = 1;
  // A first compile loads the plugin and LLVM's lazily initialized state.
  if (g.compile(&options) != DACE_OK) return 21;
  if (small_call_mismatches(g) != 0) return 22;
  int out_of_memory = 0;
  MallocHog hog;
  for (size_t budget_kb : {0, 64, 256, 1024, 4096, 16384, 65536}) {
    int64_t vm = vm_size_bytes();
    if (vm <= 0) return 23;
    rlimit lim{};
    if (getrlimit(RLIMIT_AS, &lim) != 0) return 24;
    rlimit low = lim;
    low.rlim_cur = static_cast<rlim_t>(vm);  // no new mappings; the soft limit can be lifted
    if (setrlimit(RLIMIT_AS, &low) != 0) return 25;
    hog.take_all_but(budget_kb << 10);
    dace_status_t s = g.compile(&options);
    std::string msg = dace_last_error_message();
    hog.release();
    if (setrlimit(RLIMIT_AS, &lim) != 0) return 26;
    if (s == DACE_ERROR_OUT_OF_MEMORY) {
      ++out_of_memory;
      if (msg.find("out of memory") == std::string::npos && msg.find("Cannot allocate memory") == std::string::npos) {
        std::fprintf(stderr, "%zu KiB: %s\n", budget_kb, msg.c_str());
        return 27;
      }
    } else if (s != DACE_OK) {
      std::fprintf(stderr, "%zu KiB: status %d: %s\n", budget_kb, static_cast<int>(s), msg.c_str());
      return 28;
    }
    if (g.compile(&options) != DACE_OK) {
      std::fprintf(stderr, "%zu KiB, after: %s\n", budget_kb, dace_last_error_message());
      return 29;
    }
    if (small_call_mismatches(g) != 0) return 30;
  }
  // The smallest budgets leave no room for a compile at all.
  return out_of_memory > 0 ? 0 : 31;
}

void expect_child_exits_zero(bool tiered) {
  std::fflush(nullptr);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) _exit(compile_under_limits(tiered));
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died with signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "20/21/22 set-up, 23-26 limit, 27 message, 28 other status, 29 compile after, 30 call after, 31 no OOM";
}

TEST(ProgramHostileSizes, CompileUnderAddressSpaceLimitReturnsOutOfMemory) {
  if (kAddressSanitizer) GTEST_SKIP() << "RLIMIT_AS tests do not run under AddressSanitizer";
  expect_child_exits_zero(false);
}

TEST(ProgramHostileSizes, TieredCompileUnderAddressSpaceLimitReturnsOutOfMemory) {
  if (kAddressSanitizer) GTEST_SKIP() << "RLIMIT_AS tests do not run under AddressSanitizer";
  expect_child_exits_zero(true);
}

}  // namespace
