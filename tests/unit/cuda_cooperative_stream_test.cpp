// A cooperative kernel in a state whose work runs on several streams (docs/cuda.md "Streams and
// events"): it is launched on the default stream, not on its plan stream, so synchronizing the
// plan's streams at the end of the state would not wait for it; the end of such a state
// synchronizes the default stream too. Its consumers stay ordered after it (blocking streams),
// checked by results against C++ loops (emulated, with the ordering check, and on a GPU), and
// the host IR holds the default stream's synchronization after the plan's, only in that state.
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

// out[i] = `expr` of in[i] (connector `a`) by a GPU_Device map `label` over 0:N, directly in
// the state or, with `persistent`, as the one phase of a GPU_Persistent map (a cooperative
// kernel).
void kernel(ir::State& s, int in, const std::string& in_data, int out, const std::string& out_data,
            const std::string& expr, const std::string& label, bool persistent = false) {
  int pentry = -1, pexit = -1;
  if (persistent) {
    std::tie(pentry, pexit) = map(s, {"p"}, "0:1", S::GPU_Persistent);
    s.node(pentry)->label = label + "_steps";
  }
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  s.node(entry)->label = label;
  int t = tasklet(s, "b = " + expr, {"a"}, {"b"});
  const std::string all_in = in_data + "[0:N]", all_out = out_data + "[0:N]";
  if (persistent) {
    chain_in(s, in, {pentry, entry}, t, "a", in_data, {all_in, all_in, in_data + "[i]"});
    chain_out(s, t, "b", {exit, pexit}, out, out_data, {out_data + "[i]", all_out, all_out});
  } else {
    chain_in(s, in, {entry}, t, "a", in_data, {all_in, in_data + "[i]"});
    chain_out(s, t, "b", {exit}, out, out_data, {out_data + "[i]", all_out});
  }
}

// State `mix`: X = A + 1 by a cooperative kernel, Y = 2 B by a plain one (independent: two
// streams), Z = X - Y consuming both. State `after`: W = 3 Z (one stream: no plan of streams).
std::unique_ptr<ir::SDFG> cooperative_join_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stream_cooperative";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "B", "W"}) add_array(*g, a, T::Float64, {"N"});
  for (const char* a : {"X", "Y", "Z"}) add_array(*g, a, T::Float64, {"N"}, true);
  for (auto& [name, d] : g->arrays) d.storage = ir::StorageType::GPU_Global;
  int mix_slot = -1, after_slot = -1;
  ir::State& s = add_state(*g, *g, "mix", &mix_slot);
  int x = access(s, "X"), y = access(s, "Y");
  kernel(s, access(s, "A"), "A", x, "X", "a + 1", "kx", /*persistent=*/true);
  kernel(s, access(s, "B"), "B", y, "Y", "2 * a", "ky");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  s.node(entry)->label = "kz";
  int t = tasklet(s, "z = x - y", {"x", "y"}, {"z"});
  chain_in(s, x, {entry}, t, "x", "X", {"X[0:N]", "X[i]"});
  chain_in(s, y, {entry}, t, "y", "Y", {"Y[0:N]", "Y[i]"});
  chain_out(s, t, "z", {exit}, access(s, "Z"), "Z", {"Z[i]", "Z[0:N]"});
  ir::State& after = add_state(*g, *g, "after", &after_slot);
  kernel(after, access(after, "Z"), "Z", access(after, "W"), "W", "3 * a", "kw");
  add_interstate(*g, mix_slot, after_slot);
  return g;
}

class CudaCooperativeStream : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaCooperativeStream);

TEST_P(CudaCooperativeStream, ConsumersOfACooperativeKernelSeeItsResults) {
  REQUIRE_CUDA_TARGET();
  Result<CompiledProgram> p = compile_on(*cooperative_join_sdfg(), GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 1000;  // 4 blocks of 256: the cooperative kernel strides over 3 resident ones
  std::vector<double> a(static_cast<size_t>(n)), b(a.size()), w(a.size(), -1.0);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = -3.25 + 0.5 * static_cast<double>(i);
    b[i] = 7.0 - 0.25 * static_cast<double>(i);
  }
  for (int call = 0; call < 2; ++call) {
    Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                         {"W", ArgValue::pointer(w.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
    ASSERT_TRUE(st.ok()) << st.error().message;
    for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(w[i], 3 * ((a[i] + 1) - 2 * b[i])) << i;
    std::fill(w.begin(), w.end(), -1.0);
  }
}

// The text of function `name` in module text `ir`.
std::string function_text(const std::string& ir, const std::string& name) {
  const size_t start = ir.find("@" + name + "(");
  size_t def = ir.rfind("define ", start);
  if (start == std::string::npos || def == std::string::npos) return "";
  const size_t end = ir.find("\n}\n", start);
  return ir.substr(def, end == std::string::npos ? std::string::npos : end - def);
}

TEST(CudaCooperativeStreamIr, TheStateEndWaitsForTheDefaultStreamToo) {
  REQUIRE_CUDA_PLUGIN();
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(*cooperative_join_sdfg(), ctx, o);
  ASSERT_TRUE(m.ok()) << m.error().message;
  const std::string program = function_text(module_text(*m->module), "__program_stream_cooperative");
  ASSERT_FALSE(program.empty());
  // mix: kx cooperative on the default stream (its plan stream 0), ky on stream 1 recording
  // its event, kz on stream 0 after waiting for it; after: kw on the default stream.
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_launch_cooperative(ptr null"), 1u) << program;
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_launch_on("), 2u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_launch("), 1u);
  // The end of mix: both plan streams, then the default stream; nothing else synchronizes it.
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_stream_synchronize("), 3u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_stream_synchronize(ptr null)"), 1u);
  const size_t last_on = program.rfind("@dace_cuda_launch_on(");
  const size_t plan_sync = program.find("@dace_cuda_stream_synchronize(ptr %");
  const size_t default_sync = program.find("@dace_cuda_stream_synchronize(ptr null)");
  EXPECT_LT(last_on, plan_sync);
  EXPECT_LT(plan_sync, default_sync);
  // Every path to the next state's launch passes the default stream's synchronization (the
  // blocks are laid out in creation order, not in the order they run).
  llvm::Function* fn = m->module->getFunction("__program_stream_cooperative");
  ASSERT_NE(fn, nullptr);
  const llvm::Instruction* sync_null = nullptr;
  const llvm::Instruction* next_launch = nullptr;
  for (llvm::Instruction& inst : llvm::instructions(*fn)) {
    const auto* call = llvm::dyn_cast<llvm::CallInst>(&inst);
    const llvm::Function* callee = call ? call->getCalledFunction() : nullptr;
    if (!callee) continue;
    if (callee->getName() == "dace_cuda_stream_synchronize" && llvm::isa<llvm::ConstantPointerNull>(call->getArgOperand(0)))
      sync_null = call;
    if (callee->getName() == "dace_cuda_launch") next_launch = call;
  }
  ASSERT_NE(sync_null, nullptr);
  ASSERT_NE(next_launch, nullptr);
  llvm::DominatorTree tree(*fn);
  EXPECT_TRUE(tree.dominates(sync_null, next_launch)) << "the state must end before the next state's kernel";
}

}  // namespace
}  // namespace dace::codegen::testing
