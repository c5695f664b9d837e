// Control flow of DaCe's persistent states in a cooperative kernel (plugins/cuda/lowering/
// cooperative_control.h, docs/cuda.md "Cooperative kernels"): every thread evaluates the nested
// SDFG's interstate code itself, and the grid barriers sit only after the GPU_Device maps. Code
// that reads a container the kernel writes is refused at compile time, naming the nested SDFG,
// the code and the container; before, it compiled, and on the emulated device the first block
// wrote the flag in the phase after the branch before the others read it, so the blocks reached
// different numbers of grid barriers and the launch failed (a hang on a GPU). Control flow on
// containers the kernel only reads still compiles and runs, emulated and on a GPU, against
// C++ loops.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>

#include <cctype>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

std::string lower_case(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// A GPU_Device map `name` over `range` in `st` running `code` (`o = ...` of inputs `ins`, each
// read at `[i]` through the connector of its lower-case name) into `out[i]`.
void device_map(ir::State& st, const std::string& name, const std::string& range, const std::string& code,
                const std::vector<std::string>& ins, const std::string& out) {
  auto [m, m_exit] = map(st, {"i"}, range, S::GPU_Device);
  st.node(m)->label = name;
  std::vector<std::string> conns;
  for (const std::string& in : ins) conns.push_back(lower_case(in));
  int t = tasklet(st, code, conns, {"o"});
  if (ins.empty()) edge(st, m, "", t, "", "");
  for (const std::string& in : ins) chain_in(st, access(st, in), {m}, t, lower_case(in), in, {in + "[0:N]", in + "[i]"});
  chain_out(st, t, "o", {m_exit}, access(st, out), out, {out + "[i]", out + "[0:N]"});
}

// The persistent map `steps` (one point) around the nested SDFG `inner`, whose containers are
// all GPU_Global arguments of the outer SDFG; `ins` and `outs` its connectors.
// The whole of container `c`: the flags F and P hold one element, the rest N.
std::string whole(const std::string& c) { return c + (c == "F" || c == "P" ? "[0:1]" : "[0:N]"); }

std::unique_ptr<ir::SDFG> persistent_around(std::unique_ptr<ir::SDFG> inner, const std::string& name,
                                            const std::vector<std::string>& ins, const std::vector<std::string>& outs) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = name;
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const auto& [data, desc] : inner->arrays) {
    g->arrays[data] = desc;
    g->arrays.at(data).transient = false;
  }
  ir::State& s = add_state(*g, *g, "s");
  auto [pentry, pexit] = map(s, {"p"}, "0:1", S::GPU_Persistent);
  s.node(pentry)->label = "steps";
  auto nn = std::make_unique<ir::NestedSDFGNode>();
  nn->label = inner->name;
  for (const std::string& c : ins) nn->in_connectors[c] = ir::DType{};
  for (const std::string& c : outs) nn->out_connectors[c] = ir::DType{};
  nn->symbol_mapping["N"] = E("N");
  inner->parent_node = nn.get();
  nn->sdfg = std::move(inner);
  const int phases = s.add_node(std::move(nn));
  for (const std::string& c : ins) chain_in(s, access(s, c), {pentry}, phases, c, c, {whole(c), whole(c)});
  for (const std::string& c : outs) chain_out(s, phases, c, {pexit}, access(s, c), c, {whole(c), whole(c)});
  if (ins.empty()) edge(s, pentry, "", phases, "", "");
  return g;
}

std::unique_ptr<ir::SDFG> inner_sdfg(const std::string& name, const std::vector<std::string>& arrays) {
  auto inner = std::make_unique<ir::SDFG>();
  inner->name = name;
  inner->symbols["N"] = ir::DType::of(T::Int64);
  for (const std::string& a : arrays) {
    add_array(*inner, a, T::Float64, {a == "F" || a == "P" ? "1" : "N"});
    inner->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  return inner;
}

// The hazard: `scale` (B = 2A), then `F[0] < 1` sends a block to `mark` (F[0] = 1, a map of one
// point: thread 0 of block 0), else to `done`. Block 0 writes F in `mark` while the other
// blocks have not read it yet.
std::unique_ptr<ir::SDFG> flag_branch_sdfg() {
  std::unique_ptr<ir::SDFG> inner = inner_sdfg("flag_phases", {"A", "B", "F"});
  int scale_slot = -1, mark_slot = -1, done_slot = -1;
  ir::State& scale = add_state(*inner, *inner, "scale", &scale_slot);
  device_map(scale, "double", "0:N", "o = 2 * a", {"A"}, "B");
  ir::State& mark = add_state(*inner, *inner, "mark", &mark_slot);
  auto [m, m_exit] = map(mark, {"i"}, "0:1", S::GPU_Device);
  mark.node(m)->label = "set_flag";
  int t = tasklet(mark, "o = 1.0", {}, {"o"});
  edge(mark, m, "", t, "", "");
  chain_out(mark, t, "o", {m_exit}, access(mark, "F"), "F", {"F[i]", "F[0:1]"});
  add_state(*inner, *inner, "done", &done_slot);
  add_interstate(*inner, scale_slot, mark_slot, "F[0] < 1");
  add_interstate(*inner, scale_slot, done_slot, "F[0] >= 1");
  add_interstate(*inner, mark_slot, done_slot);
  return persistent_around(std::move(inner), "emu_flag_branch", {"A", "F"}, {"B", "F"});
}

Status lower_emulated(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  if (!m.ok()) return m.take_error();
  return Status::success();
}

void expect_refused(const ir::SDFG& g, const std::vector<std::string>& parts) {
  Status v = analysis::validate(g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Status s = lower_emulated(g);
  ASSERT_FALSE(s.ok()) << "compiled; a block could reach a different number of grid barriers";
  EXPECT_EQ(s.error().code, Code::Unsupported);
  for (const std::string& part : parts) EXPECT_NE(s.error().message.find(part), std::string::npos) << part << " in " << s.error().message;
}

TEST(CudaCooperativeControl, ConditionOnAContainerALaterPhaseWritesIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  expect_refused(*flag_branch_sdfg(), {"sdfg \"flag_phases\"", "interstate edge 0 (\"scale\" -> \"mark\") condition \"F[0] < 1\"",
                                       "container \"F\"", "GPU_Persistent map \"steps\"", "grid barriers"});
}

// An assignment `k = F[0]` reading a container that a map directly in the persistent scope
// writes before the nested SDFG runs (the SDFG only reads F): the next persistent point or a
// slower block still races with that map.
TEST(CudaCooperativeControl, AssignmentReadingWhatAnotherPhaseWritesIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> inner = inner_sdfg("reader", {"A", "B", "F"});
  inner->symbols["k"] = ir::DType::of(T::Float64);
  int first = -1, second = -1;
  ir::State& one = add_state(*inner, *inner, "one", &first);
  device_map(one, "copy", "0:N", "o = a", {"A"}, "B");
  ir::State& two = add_state(*inner, *inner, "two", &second);
  device_map(two, "again", "0:N", "o = a + 1", {"A"}, "B");
  add_interstate(*inner, first, second, "1", {{"k", "F[0] + 1"}});
  std::unique_ptr<ir::SDFG> g = persistent_around(std::move(inner), "emu_assignment_read", {"A"}, {"B"});
  // In the persistent scope before the nested SDFG: F[0] = 1 by a map of its own, into the
  // access node the nested SDFG reads F from.
  ir::State& s = *g->all_states()[0];
  int pentry = -1, phases = -1, pexit = -1;
  for (int id : s.node_ids()) {
    if (s.node(id)->label == "steps") pentry = id;
    if (s.node(id)->kind == ir::NodeKind::NestedSDFG) phases = id;
  }
  pexit = s.exit_of(pentry);
  s.node(phases)->in_connectors["F"] = ir::DType{};
  auto [m, m_exit] = map(s, {"i"}, "0:1", S::GPU_Device);
  s.node(m)->label = "write_flag";
  int t = tasklet(s, "o = 1.0", {}, {"o"});
  edge(s, pentry, "", m, "", "");
  edge(s, m, "", t, "", "");
  int f_node = access(s, "F");
  chain_out(s, t, "o", {m_exit}, f_node, "F", {"F[i]", "F[0:1]"});
  edge(s, f_node, "", phases, "F", "F[0:1]");
  chain_out(s, f_node, "", {pexit}, access(s, "F"), "F", {"F[0:1]", "F[0:1]"});
  expect_refused(*g, {"sdfg \"reader\"", "assignment to \"k\" \"F[0] + 1\"", "container \"F\""});
}

// A LoopRegion `while F[0] < 3` whose body's map adds 1 to F.
TEST(CudaCooperativeControl, LoopConditionOnAContainerItsBodyWritesIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> inner = inner_sdfg("counting", {"F"});
  auto loop = std::make_unique<ir::LoopRegion>();
  loop->label = "until_three";
  loop->loop_condition = ir::CodeBlock{"F[0] < 3", ir::Language::Python};
  inner->register_block(*loop);
  ir::LoopRegion& body = *loop;
  inner->add_block(std::move(loop));
  ir::State& bump = add_state(body, *inner, "bump");
  auto [m, m_exit] = map(bump, {"i"}, "0:1", S::GPU_Device);
  int t = tasklet(bump, "o = f + 1", {"f"}, {"o"});
  chain_in(bump, access(bump, "F"), {m}, t, "f", "F", {"F[0:1]", "F[i]"});
  chain_out(bump, t, "o", {m_exit}, access(bump, "F"), "F", {"F[i]", "F[0:1]"});
  std::unique_ptr<ir::SDFG> g = persistent_around(std::move(inner), "emu_loop_read", {"F"}, {"F"});
  expect_refused(*g, {"sdfg \"counting\"", "loop \"until_three\" condition \"F[0] < 3\"", "container \"F\""});
}

class CudaCooperativeControlRun : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaCooperativeControlRun);

// `P[0] > 0` (P only read by the kernel) chooses `add` (B = A + 1) or `sub` (B = A - 1); then
// `smooth` (C[i] = B[i - 1] + B[i + 1], neighbours other blocks wrote). Every block takes the
// same branch: no refusal, and the results are those of C++ loops for both signs of P.
std::unique_ptr<ir::SDFG> read_only_branch_sdfg() {
  std::unique_ptr<ir::SDFG> inner = inner_sdfg("branch_phases", {"A", "B", "C", "P"});
  int start = -1, add = -1, sub = -1, smooth = -1;
  add_state(*inner, *inner, "start", &start);
  ir::State& add_st = add_state(*inner, *inner, "add", &add);
  device_map(add_st, "plus", "0:N", "o = a + 1", {"A"}, "B");
  ir::State& sub_st = add_state(*inner, *inner, "sub", &sub);
  device_map(sub_st, "minus", "0:N", "o = a - 1", {"A"}, "B");
  ir::State& sm = add_state(*inner, *inner, "smooth", &smooth);
  auto [m, m_exit] = map(sm, {"i"}, "1:N-1", S::GPU_Device);
  int t = tasklet(sm, "o = l + r", {"l", "r"}, {"o"});
  sm.node(m)->in_connectors["IN_B"] = ir::DType{};
  sm.node(m)->out_connectors["OUT_B"] = ir::DType{};
  edge(sm, access(sm, "B"), "", m, "IN_B", "B[0:N]");
  edge(sm, m, "OUT_B", t, "l", "B[i - 1]");
  edge(sm, m, "OUT_B", t, "r", "B[i + 1]");
  chain_out(sm, t, "o", {m_exit}, access(sm, "C"), "C", {"C[i]", "C[1:N-1]"});
  add_interstate(*inner, start, add, "P[0] > 0");
  add_interstate(*inner, start, sub, "P[0] <= 0");
  add_interstate(*inner, add, smooth);
  add_interstate(*inner, sub, smooth);
  return persistent_around(std::move(inner), "emu_read_only_branch", {"A", "P"}, {"B", "C"});
}

TEST_P(CudaCooperativeControlRun, BranchOnAContainerTheKernelOnlyReadsRuns) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = read_only_branch_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 1500;  // 2 strides of 3 resident blocks of 256 on the emulated device
  for (double sign : {1.0, -1.0}) {
    std::vector<double> a(static_cast<size_t>(n)), b(a.size(), -7.0), c(a.size(), -7.0), pv{sign};
    for (size_t k = 0; k < a.size(); ++k) a[k] = 0.25 * static_cast<double>(k % 11);
    Status st = run(*p, {{"A", ArgValue::pointer(a.data())},
                         {"B", ArgValue::pointer(b.data())},
                         {"C", ArgValue::pointer(c.data())},
                         {"P", ArgValue::pointer(pv.data())},
                         {"N", ArgValue::scalar<int64_t>(n)}});
    ASSERT_TRUE(st.ok()) << st.error().message;
    auto want_b = [&](int64_t i) { return a[static_cast<size_t>(i)] + sign; };
    size_t wrong = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (b[static_cast<size_t>(i)] != want_b(i) && ++wrong <= 5) ADD_FAILURE() << "sign " << sign << ": B[" << i << "]";
      const double want_c = (i == 0 || i == n - 1) ? -7.0 : want_b(i - 1) + want_b(i + 1);
      if (c[static_cast<size_t>(i)] != want_c && ++wrong <= 5)
        ADD_FAILURE() << "sign " << sign << ": C[" << i << "] = " << c[static_cast<size_t>(i)] << ", want " << want_c;
    }
    EXPECT_EQ(wrong, 0u) << "sign " << sign;
  }
}

TEST(CudaCooperativeControlPtx, ReadOnlyBranchPassesPtxas) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ptx = checked_ptx(*read_only_branch_sdfg());
  EXPECT_EQ(count_of(ptx, "atom.relaxed.gpu.inc.u32"), 3u) << "a barrier after each of plus, minus and smooth";
}

}  // namespace
}  // namespace dace::codegen::testing
