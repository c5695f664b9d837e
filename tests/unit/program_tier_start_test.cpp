// jit::Program::start_optimized_tier when memory runs out while it starts the background job:
// the allocation failure reaches the caller, and the tier is not left pending (a pending tier
// with no thread behind it would keep wait_optimized_tier waiting forever).
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <new>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "process_memory_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// The test skips under AddressSanitizer (its allocator reserves address space of its own).
using ::dace::testing_support::kAddressSanitizer;
using ::dace::testing_support::vm_size_bytes;

// Takes every block malloc can still give, chained through their first bytes so that
// holding them needs no memory of its own: large ones first, then every small size (freed
// small blocks are kept per size and serve only their own size).
void* exhaust_heap() {
  void* chain = nullptr;
  auto take = [&chain](size_t size) {
    while (void* p = std::malloc(size)) {
      *static_cast<void**>(p) = chain;
      chain = p;
    }
  };
  take(size_t{1} << 16);
  for (size_t size = 2048; size >= 8; size -= 8) take(size);
  return chain;
}

void release_heap(void* chain) {
  while (chain) {
    void* next = *static_cast<void**>(chain);
    std::free(chain);
    chain = next;
  }
}

// In a child process (the address-space limit stays there): with no memory left,
// start_optimized_tier throws bad_alloc; afterwards, with memory back, wait_optimized_tier
// returns at once and nothing is pending. An alarm ends a child whose wait hangs. The exit
// code says which step failed.
TEST(ProgramTierStart, AllocationFailureLeavesNothingPending) {
  if (kAddressSanitizer) GTEST_SKIP() << "RLIMIT_AS tests do not run under AddressSanitizer";
  auto g = std::make_unique<ir::SDFG>();
  g->name = "tier_start";
  add_array(*g, "A", T::Float64, {"1"});
  ir::State& s = add_state(*g, *g, "s");
  const int t = tasklet(s, "o = 1.5", {}, {"o"});
  edge(s, t, "o", access(s, "A"), "", "A[0]");
  ASSERT_TRUE(analysis::validate(*g).ok());
  Result<CompiledProgram> p = compile(*g);
  ASSERT_TRUE(p.ok()) << p.error().message;
  jit::Program& program = *p->program;

  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::function<Result<std::unique_ptr<jit::JitModule>>()> job = []() -> Result<std::unique_ptr<jit::JitModule>> {
      return make_error(Code::Internal, "the job must not run");
    };
    int64_t vm = vm_size_bytes();
    if (vm <= 0) _exit(10);
    rlimit lim{static_cast<rlim_t>(vm), static_cast<rlim_t>(vm)};
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(11);
    void* hog = exhaust_heap();
    bool threw = false;
    try {
      program.start_optimized_tier(std::move(job));
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    release_heap(hog);
    if (!threw) _exit(12);
    alarm(5);
    (void)program.wait_optimized_tier();
    if (program.optimized_tier().pending) _exit(13);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "child died with signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                 << " (SIGALRM: wait_optimized_tier hung on a tier left pending)";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10/11 limit, 12 no bad_alloc, 13 still pending";
}

}  // namespace
}  // namespace dace::codegen::testing
