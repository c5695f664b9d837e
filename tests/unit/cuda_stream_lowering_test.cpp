// The CUDA lowering's use of streams and events (docs/cuda.md "Streams and events"): the
// independent GPU work of a state runs on streams of the program's own, a consumer waits for
// an event of its producer on another stream, the host synchronizes those streams before it
// reads what they copied to host memory and at the end of the state, and the streams and
// events are made in init and released in exit. Results are checked against C++ loops on the
// emulated device (whose ordering check fails work that two streams could run out of order,
// and which hands copies to host memory to the host only when it synchronizes) and, as the
// Device/ instances, on a GPU; the host IR is checked for the calls the plan asks for.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

template <class Fn>
Fn runtime_entry(const char* name) {
  return reinterpret_cast<Fn>(cuda_registry()->find_runtime_symbol(name));
}
void inject(const char* entry, int64_t skip = 0) {
  runtime_entry<void (*)(const char*, int64_t)>("dace_cuda_emu_inject_failure")(entry, skip);
}
int64_t live(const char* what) { return runtime_entry<int64_t (*)()>(what)(); }

// out[i] = `expr` of in[i] (named `a`) as a GPU_Device map labelled `label`.
void kernel(ir::State& s, int in, const std::string& in_data, int out, const std::string& out_data,
            const std::string& expr, const std::string& label) {
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  s.node(entry)->label = label;
  s.node(exit)->label = label;
  int t = tasklet(s, "b = " + expr, {"a"}, {"b"});
  edge_in(s, in, entry, t, "a", in_data + "[0:N]", in_data + "[i]");
  edge_out(s, t, "b", exit, out, out_data + "[i]", out_data + "[0:N]");
}

// One state: X = A + 1 and Y = 2 B (independent kernels), Z = X - Y (consumes both). A, B,
// Z are GPU_Global arguments (mirrored from host memory), X and Y GPU_Global transients.
std::unique_ptr<ir::SDFG> join_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stream_join";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "B", "Z"}) add_array(*g, a, T::Float64, {"N"});
  for (const char* a : {"X", "Y"}) add_array(*g, a, T::Float64, {"N"}, true);
  for (auto& [name, d] : g->arrays) d.storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "join");
  int x = access(s, "X"), y = access(s, "Y");
  kernel(s, access(s, "A"), "A", x, "X", "a + 1", "ka");
  kernel(s, access(s, "B"), "B", y, "Y", "2 * a", "kb");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  s.node(entry)->label = "kz";
  int t = tasklet(s, "z = x - y", {"x", "y"}, {"z"});
  edge_in(s, x, entry, t, "x", "X[0:N]", "X[i]");
  edge_in(s, y, entry, t, "y", "Y[0:N]", "Y[i]");
  edge_out(s, t, "z", exit, access(s, "Z"), "Z[i]", "Z[0:N]");
  return g;
}

// One state: H -> D copies of host arguments A, B into GPU_Global transients, a kernel on
// each (GA + 1, 3 GB), D -> H copies into host transients HX, HY, and a host map that reads
// both: R = HX * HY. Two chains: the host map must wait for both streams' copies.
std::unique_ptr<ir::SDFG> host_read_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stream_host_read";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "B", "R"}) add_array(*g, a, T::Float64, {"N"});
  for (const char* a : {"GA", "GB", "GX", "GY"}) {
    add_array(*g, a, T::Float64, {"N"}, true);
    g->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  for (const char* a : {"HX", "HY"}) add_array(*g, a, T::Float64, {"N"}, true);
  ir::State& s = add_state(*g, *g, "host_read");
  int ga = access(s, "GA"), gb = access(s, "GB"), gx = access(s, "GX"), gy = access(s, "GY");
  edge(s, access(s, "A"), "", ga, "", "A[0:N]");
  edge(s, access(s, "B"), "", gb, "", "B[0:N]");
  kernel(s, ga, "GA", gx, "GX", "a + 1", "kx");
  kernel(s, gb, "GB", gy, "GY", "3 * a", "ky");
  int hx = access(s, "HX"), hy = access(s, "HY");
  edge(s, gx, "", hx, "", "GX[0:N]");
  edge(s, gy, "", hy, "", "GY[0:N]");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::Sequential);
  int t = tasklet(s, "r = x * y", {"x", "y"}, {"r"});
  edge_in(s, hx, entry, t, "x", "HX[0:N]", "HX[i]");
  edge_in(s, hy, entry, t, "y", "HY[0:N]", "HY[i]");
  edge_out(s, t, "r", exit, access(s, "R"), "R[i]", "R[0:N]");
  return g;
}

// One state, one chain: A -> G (H -> D), G2 = G + 1, G3 = 2 G2, G3 -> R (D -> H).
std::unique_ptr<ir::SDFG> chain_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stream_chain";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "R"}) add_array(*g, a, T::Float64, {"N"});
  for (const char* a : {"G", "G2", "G3"}) {
    add_array(*g, a, T::Float64, {"N"}, true);
    g->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  ir::State& s = add_state(*g, *g, "chain");
  int ga = access(s, "G"), g2 = access(s, "G2"), g3 = access(s, "G3");
  edge(s, access(s, "A"), "", ga, "", "A[0:N]");
  kernel(s, ga, "G", g2, "G2", "a + 1", "k1");
  kernel(s, g2, "G2", g3, "G3", "2 * a", "k2");
  edge(s, g3, "", access(s, "R"), "", "G3[0:N]");
  return g;
}

// One state: five host arguments H0..H4 copied into GPU_Global transients D0..D4 (their
// access nodes made in reverse, so the core, which emits a copy with its destination, issues
// the copies in the opposite order of the plan's), one kernel Z = sum 10^k Dk. Five chains on
// four streams: D0 and D4 share stream 0, and the kernel must wait for both copies.
std::unique_ptr<ir::SDFG> five_copies_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stream_five_copies";
  g->symbols["N"] = ir::DType::of(T::Int64);
  add_array(*g, "Z", T::Float64, {"N"});
  g->arrays.at("Z").storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "five");
  std::vector<int> host, device(5);
  for (int k = 0; k < 5; ++k) {
    add_array(*g, "H" + std::to_string(k), T::Float64, {"N"});
    add_array(*g, "D" + std::to_string(k), T::Float64, {"N"}, true);
    g->arrays.at("D" + std::to_string(k)).storage = ir::StorageType::GPU_Global;
    host.push_back(access(s, "H" + std::to_string(k)));
  }
  for (int k = 4; k >= 0; --k) device[k] = access(s, "D" + std::to_string(k));
  for (int k = 0; k < 5; ++k) edge(s, host[k], "", device[k], "", "H" + std::to_string(k) + "[0:N]");
  auto [entry, exit] = map(s, {"i"}, "0:N", S::GPU_Device);
  int t = tasklet(s, "z = d0 + 10 * d1 + 100 * d2 + 1000 * d3 + 10000 * d4", {"d0", "d1", "d2", "d3", "d4"}, {"z"});
  for (int k = 0; k < 5; ++k) {
    const std::string d = "D" + std::to_string(k);
    edge_in(s, device[k], entry, t, "d" + std::to_string(k), d + "[0:N]", d + "[i]");
  }
  edge_out(s, t, "z", exit, access(s, "Z"), "Z[i]", "Z[0:N]");
  return g;
}

// One state: a one-point kernel writes GS = 10 A[0] (a GPU_Global scalar), GS is copied to the
// host scalar HS, and a kernel gets HS by value: B = A + HS. An independent kernel C = A + 1
// makes the state concurrent. The host reads HS for the launch: the copy must be complete.
std::unique_ptr<ir::SDFG> scalar_back_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "stream_scalar_back";
  g->symbols["N"] = ir::DType::of(T::Int64);
  for (const char* a : {"A", "B", "C"}) {
    add_array(*g, a, T::Float64, {"N"});
    g->arrays.at(a).storage = ir::StorageType::GPU_Global;
  }
  add_scalar(*g, "GS", T::Float64, true);
  g->arrays.at("GS").storage = ir::StorageType::GPU_Global;
  add_scalar(*g, "HS", T::Float64, true);
  ir::State& s = add_state(*g, *g, "scalar_back");
  int gs = access(s, "GS"), hs = access(s, "HS");
  auto [e1, x1] = map(s, {"i"}, "0:1", S::GPU_Device);
  int t1 = tasklet(s, "o = 10 * a", {"a"}, {"o"});
  edge_in(s, access(s, "A"), e1, t1, "a", "A[0:1]", "A[i]");
  edge_out(s, t1, "o", x1, gs, "GS[0]", "GS[0]");
  edge(s, gs, "", hs, "", "GS[0]");
  kernel(s, access(s, "A"), "A", access(s, "C"), "C", "a + 1", "kc");
  auto [e2, x2] = map(s, {"i"}, "0:N", S::GPU_Device);
  int t2 = tasklet(s, "b = a + h", {"a", "h"}, {"b"});
  edge_in(s, access(s, "A"), e2, t2, "a", "A[0:N]", "A[i]");
  edge_in(s, hs, e2, t2, "h", "HS[0]", "HS[0]");
  edge_out(s, t2, "b", x2, access(s, "B"), "B[i]", "B[0:N]");
  return g;
}

// The host IR of `g` lowered for the device (PTX) with `max_streams` (0: the default).
std::string host_ir(const ir::SDFG& g, int32_t max_streams) {
  LowerOptions o = parallel_test_options();
  o.registry = cuda_registry();
  o.max_concurrent_streams = max_streams;
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, o);
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? module_text(*m->module) : "";
}

// The text of function `name` in module text `ir`.
std::string function_text(const std::string& ir, const std::string& name) {
  const size_t start = ir.find("@" + name + "(");
  size_t def = ir.rfind("define ", start);
  if (start == std::string::npos || def == std::string::npos) return "";
  const size_t end = ir.find("\n}\n", start);
  return ir.substr(def, end == std::string::npos ? std::string::npos : end - def);
}

std::vector<double> iota_values(int64_t n, double from, double step) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = from + step * static_cast<double>(i);
  return v;
}

class CudaStreamLowering : public CudaTargetTest {};

TEST_P(CudaStreamLowering, TwoIndependentKernelsAndTheirConsumerMatchLoops) {
  REQUIRE_CUDA_TARGET();
  Result<CompiledProgram> p = compile_on(*join_sdfg(), GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 1000;  // 4 blocks of 256, the last partly idle
  std::vector<double> a = iota_values(n, -3.25, 0.5), b = iota_values(n, 7.0, -0.25), z(n, -1.0);
  for (int call = 0; call < 2; ++call) {
    Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                         {"Z", ArgValue::pointer(z.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
    ASSERT_TRUE(st.ok()) << st.error().message;
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], (a[i] + 1) - 2 * b[i]) << i;
    std::fill(z.begin(), z.end(), -1.0);
  }
}

TEST_P(CudaStreamLowering, CopiesToTheHostArriveBeforeTheHostReadsThem) {
  REQUIRE_CUDA_TARGET();
  Result<CompiledProgram> p = compile_on(*host_read_sdfg(), GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 777;
  std::vector<double> a = iota_values(n, 1.5, 0.75), b = iota_values(n, -20.0, 0.125), r(n, -1.0);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"R", ArgValue::pointer(r.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(r[i], (a[i] + 1) * (3 * b[i])) << i;
}

TEST_P(CudaStreamLowering, AChainMatchesLoops) {
  REQUIRE_CUDA_TARGET();
  Result<CompiledProgram> p = compile_on(*chain_sdfg(), GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 300;
  std::vector<double> a = iota_values(n, -1.0, 0.5), r(n, -1.0);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"R", ArgValue::pointer(r.data())},
                       {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(r[i], 2 * (a[i] + 1)) << i;
}

// Fails without a wait for every producer on another stream: the kernel waited only for the
// copy planned last on the stream two copies share, which the core queued first.
TEST_P(CudaStreamLowering, FiveCopiesIntoOneKernelAreAllWaitedFor) {
  REQUIRE_CUDA_TARGET();
  Result<CompiledProgram> p = compile_on(*five_copies_sdfg(), GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 333;
  std::vector<std::vector<double>> h;
  for (int k = 0; k < 5; ++k) h.push_back(iota_values(n, 1.0 + k, 0.25 * (k + 1)));
  std::vector<double> z(n, -1.0);
  std::map<std::string, ArgValue> args{{"Z", ArgValue::pointer(z.data())}, {"N", ArgValue::scalar<int64_t>(n)}};
  for (int k = 0; k < 5; ++k) args.emplace("H" + std::to_string(k), ArgValue::pointer(h[k].data()));
  Status st = run(*p, args);
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(z[i], h[0][i] + 10 * h[1][i] + 100 * h[2][i] + 1000 * h[3][i] + 10000 * h[4][i]) << i;
}

// Fails without a host wait before the launch: the host passed HS before the copy reached it.
TEST_P(CudaStreamLowering, AHostScalarCopiedBackReachesTheKernelThatGetsItByValue) {
  REQUIRE_CUDA_TARGET();
  Result<CompiledProgram> p = compile_on(*scalar_back_sdfg(), GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 100;
  std::vector<double> a = iota_values(n, 2.5, 0.5), b(n, -1.0), c(n, -1.0);
  Status st = run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())},
                       {"C", ArgValue::pointer(c.data())}, {"N", ArgValue::scalar<int64_t>(n)}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(b[i], a[i] + 10 * a[0]) << i;
    ASSERT_EQ(c[i], a[i] + 1) << i;
  }
}

INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaStreamLowering);

// The plan of the join state (hand-derived: ka on stream 0, kb opens stream 1 and records,
// kz continues stream 0 after waiting for kb's event) as host calls.
TEST(CudaStreamLoweringIr, TheJoinUsesTwoStreamsAndOneWait) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ir = host_ir(*join_sdfg(), 0);
  const std::string init = function_text(ir, "__dace_init_stream_join");
  const std::string program = function_text(ir, "__program_stream_join");
  const std::string exit = function_text(ir, "__dace_exit_stream_join");
  // Two streams and one event, made in init and released in exit.
  EXPECT_EQ(count_of(init, "call ptr @dace_cuda_streams_create(i32 2, i32 1)"), 1u) << init;
  EXPECT_EQ(count_of(exit, "call i32 @dace_cuda_streams_destroy(ptr"), 1u) << exit;
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_launch_on("), 3u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_launch("), 0u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_stream_wait_event("), 1u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_event_record("), 1u);
  // The end of the state synchronizes both streams.
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_stream_synchronize("), 2u);
  // Order: launch, launch, record, wait, launch, then the synchronizations.
  const size_t first = program.find("@dace_cuda_launch_on(");
  const size_t second = program.find("@dace_cuda_launch_on(", first + 1);
  const size_t record = program.find("@dace_cuda_event_record(");
  const size_t wait = program.find("@dace_cuda_stream_wait_event(");
  const size_t third = program.find("@dace_cuda_launch_on(", second + 1);
  const size_t sync = program.find("@dace_cuda_stream_synchronize(");
  EXPECT_LT(first, second);
  EXPECT_LT(second, record);
  EXPECT_LT(record, wait);
  EXPECT_LT(wait, third);
  EXPECT_LT(third, sync);
  EXPECT_NE(third, std::string::npos);
  // The stream handles come from the set: slot 0 and slot 1 for the streams, slot 2 the event.
  EXPECT_NE(program.find("getelementptr inbounds ptr, ptr %cuda.streams"), std::string::npos) << program;
}

TEST(CudaStreamLoweringIr, TheHostWaitsForBothCopiesBeforeItsMap) {
  REQUIRE_CUDA_PLUGIN();
  const std::string program = function_text(host_ir(*host_read_sdfg(), 0), "__program_stream_host_read");
  // Two chains (copy, kernel, copy) on two streams, no event: their copies to the host are
  // synchronized before the host map (two syncs), and at the end of the state (two more).
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_copy_on("), 4u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_launch_on("), 2u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_stream_wait_event("), 0u);
  EXPECT_EQ(count_of(program, "call i32 @dace_cuda_stream_synchronize("), 4u);
  const size_t last_copy = program.rfind("@dace_cuda_copy_on(");
  const size_t sync = program.find("@dace_cuda_stream_synchronize(");
  const size_t host_multiply = program.find("fmul ");
  EXPECT_LT(last_copy, sync);
  EXPECT_LT(sync, host_multiply) << "the host map must come after the synchronization";
}

TEST(CudaStreamLoweringIr, AChainStaysOnTheDefaultStream) {
  REQUIRE_CUDA_PLUGIN();
  const std::string ir = host_ir(*chain_sdfg(), 0);
  EXPECT_EQ(count_of(ir, "_on("), 0u);
  EXPECT_EQ(count_of(ir, "dace_cuda_streams_create"), 0u);
  EXPECT_EQ(count_of(ir, "dace_cuda_stream_synchronize"), 0u);
  EXPECT_EQ(count_of(ir, "call i32 @dace_cuda_launch("), 2u);
}

TEST(CudaStreamLoweringIr, OneStreamIsTheCodeWithoutStreams) {
  REQUIRE_CUDA_PLUGIN();
  for (auto make : {join_sdfg, host_read_sdfg}) {
    std::unique_ptr<ir::SDFG> g = make();
    const std::string one = host_ir(*g, 1);
    EXPECT_EQ(count_of(one, "_on("), 0u) << g->name;
    EXPECT_EQ(count_of(one, "@dace_cuda_stream"), 0u) << g->name;
    EXPECT_EQ(count_of(one, "@dace_cuda_event"), 0u) << g->name;
    EXPECT_EQ(count_of(one, "cuda.streams"), 0u) << g->name;  // no program state
    EXPECT_NE(host_ir(*g, 0), one) << g->name;
  }
}

TEST(CudaStreamLoweringIr, TheSameSdfgGivesTheSameIr) {
  REQUIRE_CUDA_PLUGIN();
  for (auto make : {join_sdfg, host_read_sdfg}) {
    std::unique_ptr<ir::SDFG> g = make();
    EXPECT_EQ(host_ir(*g, 0), host_ir(*make(), 0)) << g->name;
    EXPECT_EQ(host_ir(*g, 3), host_ir(*g, 3)) << g->name;
  }
}

// init makes the set; a stream or event the runtime fails to create fails init with the
// runtime's reason as the call's status, and what was created before it is destroyed.
TEST(CudaStreamLoweringFailure, AFailedStreamOrEventCreationIsTheStatusAndLeaksNothing) {
  REQUIRE_CUDA_PLUGIN();
  Result<CompiledProgram> p = compile_emulated(*join_sdfg());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t n = 10;
  std::vector<double> a(n, 1.0), b(n, 2.0), z(n, -1.0);
  const std::map<std::string, ArgValue> args{{"A", ArgValue::pointer(a.data())},
                                             {"B", ArgValue::pointer(b.data())},
                                             {"Z", ArgValue::pointer(z.data())},
                                             {"N", ArgValue::scalar<int64_t>(n)}};
  using Failure = std::pair<const char*, int64_t>;  // the entry, and how many calls of it succeed first
  const Failure kFailures[] = {{"stream_create", 1}, {"event_create", 0}};
  for (auto [entry, skip] : kFailures) {
    const int64_t streams = live("dace_cuda_emu_live_streams"), events = live("dace_cuda_emu_live_events");
    inject(entry, skip);
    Status st = run(*p, args);
    ASSERT_FALSE(st.ok()) << entry;
    EXPECT_EQ(st.error().code, Code::RuntimeError) << st.error().message;
    EXPECT_NE(st.error().message.find("dace_cuda_streams_create"), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find(std::string("dace_cuda_") + entry + ": injected failure"), std::string::npos)
        << st.error().message;
    inject(nullptr, 0);
    EXPECT_EQ(live("dace_cuda_emu_live_streams"), streams) << entry;
    EXPECT_EQ(live("dace_cuda_emu_live_events"), events) << entry;
    EXPECT_EQ(z, std::vector<double>(n, -1.0)) << entry;
  }
  // A run without failures releases its streams and events in exit.
  const int64_t streams = live("dace_cuda_emu_live_streams"), events = live("dace_cuda_emu_live_events");
  ASSERT_TRUE(run(*p, args).ok());
  EXPECT_EQ(z, std::vector<double>(n, 2.0 - 4.0));
  EXPECT_EQ(live("dace_cuda_emu_live_streams"), streams);
  EXPECT_EQ(live("dace_cuda_emu_live_events"), events);
}

}  // namespace
}  // namespace dace::codegen::testing
