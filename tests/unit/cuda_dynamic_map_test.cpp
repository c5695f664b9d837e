// GPU_ThreadBlock_Dynamic maps (plugins/cuda/lowering/dynamic_map.h, docs/cuda.md): DaCe's
// sparse matrix-vector product, a GPU_Device map over the rows of a CSR matrix (one row per
// thread) around a dynamic map over the row's nonzeros, whose bounds A_row[i], A_row[i + 1]
// arrive as dynamic map inputs. The block shares every row's nonzeros, so rows longer than
// the block, empty rows and a partly idle last block all occur. Each program runs emulated
// (and on the GPU where there is one) against a C++ loop over the CSR rows, and its PTX
// passes ptxas for sm_80 and sm_90 with the barrier between the two phases and the shared
// range arrays; also a 2-D map with a block of 8 x 4. Misplaced dynamic maps are refused naming
// the map.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>

#include "analysis/validate.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "cuda_emulation_support.h"
#include "ir/path.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;
using S = ir::ScheduleType;

class CudaDynamicMap : public CudaTargetTest {};
INSTANTIATE_ON_EMULATED_AND_DEVICE(CudaDynamicMap);

// b[i] += sum over k in A_row[i]:A_row[i + 1]:step of A_val[k] * x[A_col[k]]; a block of
// `block` threads when nonzero (else the kernel's default). With `shared` > 0 each product
// passes through S[k] of a GPU_Shared float64 array S of `shared` elements (more than the
// nonzeros: iteration k alone writes and then reads S[k]).
std::unique_ptr<ir::SDFG> spmv_sdfg(int64_t block, int64_t step, int64_t shared = 0) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_spmv_b" + std::to_string(block) + "_s" + std::to_string(step) + "_sh" + std::to_string(shared);
  for (const char* n : {"H", "W", "NNZ"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A_row", T::Int64, {"H + 1"});
  add_array(*g, "A_col", T::Int64, {"NNZ"});
  add_array(*g, "A_val", T::Float64, {"NNZ"});
  add_array(*g, "x", T::Float64, {"W"});
  add_array(*g, "b", T::Float64, {"H"});
  for (const char* n : {"A_row", "A_col", "A_val", "x", "b"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"i"}, "0:H", S::GPU_Device);
  if (block) static_cast<ir::MapEntry&>(*s.node(dev)).map.gpu_block_size = {E(std::to_string(block))};
  auto [dyn, dyn_exit] = map(s, {"j"}, "rs:re:" + std::to_string(step), S::GPU_ThreadBlock_Dynamic);
  // The row's bounds: dynamic map inputs of the dynamic map.
  s.node(dev)->in_connectors["IN_A_row"] = ir::DType{};
  s.node(dev)->out_connectors["OUT_A_row"] = ir::DType{};
  s.node(dyn)->in_connectors["rs"] = ir::DType::of(T::Int64);
  s.node(dyn)->in_connectors["re"] = ir::DType::of(T::Int64);
  edge(s, access(s, "A_row"), "", dev, "IN_A_row", "A_row[0:H + 1]");
  edge(s, dev, "OUT_A_row", dyn, "rs", "A_row[i]");
  edge(s, dev, "OUT_A_row", dyn, "re", "A_row[i + 1]");
  int t = tasklet(s, "o = v * xs[c]", {"v", "c", "xs"}, {"o"});
  chain_in(s, access(s, "A_val"), {dev, dyn}, t, "v", "A_val", {"A_val[0:NNZ]", "A_val[0:NNZ]", "A_val[j]"});
  chain_in(s, access(s, "A_col"), {dev, dyn}, t, "c", "A_col", {"A_col[0:NNZ]", "A_col[0:NNZ]", "A_col[j]"});
  chain_in(s, access(s, "x"), {dev, dyn}, t, "xs", "x", {"x[0:W]", "x[0:W]", "x[0:W]"});
  if (shared > 0) {
    add_array(*g, "S", T::Float64, {std::to_string(shared)}, true);
    g->arrays.at("S").storage = ir::StorageType::GPU_Shared;
    const int staged = access(s, "S");
    edge(s, t, "o", staged, "", "S[j]");
    t = tasklet(s, "o = p", {"p"}, {"o"});
    edge(s, staged, "", t, "p", "S[j]");
  }
  chain_out(s, t, "o", {dyn_exit, dev_exit}, access(s, "b"), "b", {"b[i]", "b[i]", "b[0:H]"}, "lambda a, b: a + b");
  return g;
}

// A CSR matrix of H = 70 rows (three blocks of 32, the last with 6 rows): every seventh row
// empty, row 5 with 300 nonzeros and row 40 with 77 (longer than a block), the others 1 to 5.
struct Csr {
  std::vector<int64_t> row{0}, col;
  std::vector<double> val;
};

Csr make_csr(int64_t h, int64_t w) {
  Csr a;
  for (int64_t r = 0; r < h; ++r) {
    const int64_t len = r % 7 == 3 ? 0 : r == 5 ? 300 : r == 40 ? 77 : r % 5 + 1;
    for (int64_t k = 0; k < len; ++k) {
      const auto n = static_cast<int64_t>(a.col.size());
      a.col.push_back((7 * n + 3 + r) % w);
      a.val.push_back(0.25 * static_cast<double>(n % 9 - 4));  // products and sums exact in double
    }
    a.row.push_back(static_cast<int64_t>(a.col.size()));
  }
  return a;
}

// The arguments of the SpMV SDFGs here: the CSR matrix, x, b and the symbols H, W, NNZ.
std::map<std::string, ArgValue> spmv_args(Csr& a, std::vector<double>& x, std::vector<double>& b, int64_t h, int64_t w) {
  return {{"A_row", ArgValue::pointer(a.row.data())},
          {"A_col", ArgValue::pointer(a.col.data())},
          {"A_val", ArgValue::pointer(a.val.data())},
          {"x", ArgValue::pointer(x.data())},
          {"b", ArgValue::pointer(b.data())},
          {"H", ArgValue::scalar<int64_t>(h)},
          {"W", ArgValue::scalar<int64_t>(w)},
          {"NNZ", ArgValue::scalar<int64_t>(static_cast<int64_t>(a.col.size()))}};
}

void expect_spmv(Where where, int64_t block, int64_t step, int64_t shared = 0) {
  std::unique_ptr<ir::SDFG> g = spmv_sdfg(block, step, shared);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, where);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t h = 70, w = 50;
  Csr a = make_csr(h, w);
  std::vector<double> x(static_cast<size_t>(w)), b(static_cast<size_t>(h));
  for (int64_t k = 0; k < w; ++k) x[static_cast<size_t>(k)] = 0.5 * static_cast<double>(k % 5) - 1.0;
  for (int64_t r = 0; r < h; ++r) b[static_cast<size_t>(r)] = static_cast<double>(r);  // WCR adds to it
  std::vector<double> want = b;
  for (int64_t r = 0; r < h; ++r)
    for (int64_t k = a.row[static_cast<size_t>(r)]; k < a.row[static_cast<size_t>(r) + 1]; k += step)
      want[static_cast<size_t>(r)] += a.val[static_cast<size_t>(k)] * x[static_cast<size_t>(a.col[static_cast<size_t>(k)])];
  Status st = run(*p, spmv_args(a, x, b, h, w));
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(b, want);
  const std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos) << "no barrier between the ranges and their iterations";
  EXPECT_NE(ptx.find(".shared"), std::string::npos) << "the threads' ranges are not in shared memory";
  EXPECT_NE(ptx.find("atom.global.add.f64"), std::string::npos) << "a row's sum is not atomic across threads";
}

TEST_P(CudaDynamicMap, SparseRowsSharedByTheBlockMatchCsrLoop) {
  REQUIRE_CUDA_TARGET();
  expect_spmv(GetParam(), 0, 1);
}

TEST_P(CudaDynamicMap, BlockOf64AndStep2MatchCsrLoop) {
  REQUIRE_CUDA_TARGET();
  expect_spmv(GetParam(), 64, 2);
}

// 30 KiB of GPU_Shared float64 beside the dynamic map's three int64 range arrays of a block
// of 64 (1.5 KiB): 31.5 KiB of the 48 KiB a block may have statically.
TEST_P(CudaDynamicMap, SharedArrayBesideTheRangesWithinTheLimitMatchesCsrLoop) {
  REQUIRE_CUDA_TARGET();
  expect_spmv(GetParam(), 64, 1, 30 * 1024 / 8);
}

// A 2-D GPU_Device map over (r, c) in 0:H, 0:W with a block of 8 x 4 (x along c): out[r, c] +=
// V[j] over the segment j in P[k]:P[k + 1] of k = r W + c. The block's 32 threads share every
// owner's segment, whichever row of the block it is in.
std::unique_ptr<ir::SDFG> segment_sums_2d_sdfg() {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_dynamic_2d";
  for (const char* n : {"H", "W", "NV"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "P", T::Int64, {"H * W + 1"});
  add_array(*g, "V", T::Float64, {"NV"});
  add_array(*g, "out", T::Float64, {"H", "W"});
  for (const char* n : {"P", "V", "out"}) g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"r", "c"}, "0:H, 0:W", S::GPU_Device);
  static_cast<ir::MapEntry&>(*s.node(dev)).map.gpu_block_size = {E("8"), E("4")};
  auto [dyn, dyn_exit] = map(s, {"j"}, "ps:pe", S::GPU_ThreadBlock_Dynamic);
  s.node(dev)->in_connectors["IN_P"] = ir::DType{};
  s.node(dev)->out_connectors["OUT_P"] = ir::DType{};
  s.node(dyn)->in_connectors["ps"] = ir::DType::of(T::Int64);
  s.node(dyn)->in_connectors["pe"] = ir::DType::of(T::Int64);
  edge(s, access(s, "P"), "", dev, "IN_P", "P[0:H * W + 1]");
  edge(s, dev, "OUT_P", dyn, "ps", "P[r * W + c]");
  edge(s, dev, "OUT_P", dyn, "pe", "P[r * W + c + 1]");
  int t = tasklet(s, "o = v", {"v"}, {"o"});
  chain_in(s, access(s, "V"), {dev, dyn}, t, "v", "V", {"V[0:NV]", "V[0:NV]", "V[j]"});
  chain_out(s, t, "o", {dyn_exit, dev_exit}, access(s, "out"), "out", {"out[r, c]", "out[r, c]", "out[0:H, 0:W]"},
            "lambda a, b: a + b");
  return g;
}

TEST_P(CudaDynamicMap, TwoDimensionalBlockSharesSegmentsAcrossItsRows) {
  REQUIRE_CUDA_TARGET();
  std::unique_ptr<ir::SDFG> g = segment_sums_2d_sdfg();
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, GetParam());
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t h = 10, w = 13;  // blocks of 8 x 4: 2 x 3 of them, partly idle on both axes
  std::vector<int64_t> starts{0};
  for (int64_t k = 0; k < h * w; ++k) starts.push_back(starts.back() + (k % 6 == 2 ? 0 : k == 7 ? 100 : k == 60 ? 45 : k % 4 + 1));
  std::vector<double> vals(static_cast<size_t>(starts.back()));
  for (size_t j = 0; j < vals.size(); ++j) vals[j] = 0.25 * static_cast<double>(j % 11) - 1.0;  // exact sums
  std::vector<double> out(static_cast<size_t>(h * w));
  for (size_t k = 0; k < out.size(); ++k) out[k] = static_cast<double>(k);  // WCR adds to it
  std::vector<double> want = out;
  for (size_t k = 0; k < want.size(); ++k)
    for (int64_t j = starts[k]; j < starts[k + 1]; ++j) want[k] += vals[static_cast<size_t>(j)];
  Status st = run(*p, {{"P", ArgValue::pointer(starts.data())},
                       {"V", ArgValue::pointer(vals.data())},
                       {"out", ArgValue::pointer(out.data())},
                       {"H", ArgValue::scalar<int64_t>(h)},
                       {"W", ArgValue::scalar<int64_t>(w)},
                       {"NV", ArgValue::scalar<int64_t>(static_cast<int64_t>(vals.size()))}});
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(out, want);
  const std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("%tid.y"), std::string::npos) << "the block's rows are not used";
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos);
}

// Code beside the dynamic map in the kernel's scope, DaCe's SpMV scaled per row: each thread
// computes, for its own row i, f = 2 scale[i] and sh = skip[i] (thread-private scalars) and
// len[i] = A_row[i + 1] - A_row[i]; the dynamic map runs j in A_row[i] + sh : A_row[i + 1]
// (sh in its range) and adds f A_val[j] x[A_col[j]] to b[i] (f in its body). The threads
// running row i's iterations are others than row i's own, so f and sh must reach them.
std::unique_ptr<ir::SDFG> spmv_beside_sdfg(int64_t block) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_spmv_beside_b" + std::to_string(block);
  for (const char* n : {"H", "W", "NNZ"}) g->symbols[n] = ir::DType::of(T::Int64);
  add_array(*g, "A_row", T::Int64, {"H + 1"});
  add_array(*g, "A_col", T::Int64, {"NNZ"});
  add_array(*g, "A_val", T::Float64, {"NNZ"});
  add_array(*g, "x", T::Float64, {"W"});
  add_array(*g, "b", T::Float64, {"H"});
  add_array(*g, "scale", T::Float64, {"H"});
  add_array(*g, "skip", T::Int64, {"H"});
  add_array(*g, "len", T::Int64, {"H"});
  for (const char* n : {"A_row", "A_col", "A_val", "x", "b", "scale", "skip", "len"})
    g->arrays.at(n).storage = ir::StorageType::GPU_Global;
  add_scalar(*g, "f", T::Float64, true);
  add_scalar(*g, "sh", T::Int64, true);
  g->arrays.at("f").storage = ir::StorageType::Register;
  ir::State& s = add_state(*g, *g, "s");
  auto [dev, dev_exit] = map(s, {"i"}, "0:H", S::GPU_Device);
  if (block) static_cast<ir::MapEntry&>(*s.node(dev)).map.gpu_block_size = {E(std::to_string(block))};
  auto [dyn, dyn_exit] = map(s, {"j"}, "rs + sh:re", S::GPU_ThreadBlock_Dynamic);
  s.node(dyn)->label = "row_nonzeros";
  s.node(dev)->in_connectors["IN_A_row"] = ir::DType{};
  s.node(dev)->out_connectors["OUT_A_row"] = ir::DType{};
  for (const char* c : {"rs", "re", "sh"}) s.node(dyn)->in_connectors[c] = ir::DType::of(T::Int64);
  edge(s, access(s, "A_row"), "", dev, "IN_A_row", "A_row[0:H + 1]");
  edge(s, dev, "OUT_A_row", dyn, "rs", "A_row[i]");
  edge(s, dev, "OUT_A_row", dyn, "re", "A_row[i + 1]");
  // Beside the dynamic map: f, sh and len[i].
  int tf = tasklet(s, "o = 2.0 * c", {"c"}, {"o"});
  chain_in(s, access(s, "scale"), {dev}, tf, "c", "scale", {"scale[0:H]", "scale[i]"});
  int f = access(s, "f");
  edge(s, tf, "o", f, "", "f[0]");
  int ts = tasklet(s, "o = k", {"k"}, {"o"});
  chain_in(s, access(s, "skip"), {dev}, ts, "k", "skip", {"skip[0:H]", "skip[i]"});
  int sh = access(s, "sh");
  edge(s, ts, "o", sh, "", "sh[0]");
  edge(s, sh, "", dyn, "sh", "sh[0]");
  int tl = tasklet(s, "o = hi - lo", {"lo", "hi"}, {"o"});
  edge(s, dev, "OUT_A_row", tl, "lo", "A_row[i]");
  edge(s, dev, "OUT_A_row", tl, "hi", "A_row[i + 1]");
  chain_out(s, tl, "o", {dev_exit}, access(s, "len"), "len", {"len[i]", "len[0:H]"});
  // The dynamic map's body.
  int t = tasklet(s, "o = v * xs[c] * fs", {"v", "c", "xs", "fs"}, {"o"});
  chain_in(s, access(s, "A_val"), {dev, dyn}, t, "v", "A_val", {"A_val[0:NNZ]", "A_val[0:NNZ]", "A_val[j]"});
  chain_in(s, access(s, "A_col"), {dev, dyn}, t, "c", "A_col", {"A_col[0:NNZ]", "A_col[0:NNZ]", "A_col[j]"});
  chain_in(s, access(s, "x"), {dev, dyn}, t, "xs", "x", {"x[0:W]", "x[0:W]", "x[0:W]"});
  chain_in(s, f, {dyn}, t, "fs", "f", {"f[0]", "f[0]"});
  chain_out(s, t, "o", {dyn_exit, dev_exit}, access(s, "b"), "b", {"b[i]", "b[i]", "b[0:H]"}, "lambda a, b: a + b");
  return g;
}

void expect_spmv_beside(Where where, int64_t block) {
  std::unique_ptr<ir::SDFG> g = spmv_beside_sdfg(block);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Result<CompiledProgram> p = compile_on(*g, where);
  ASSERT_TRUE(p.ok()) << p.error().message;
  const int64_t h = 70, w = 50;
  Csr a = make_csr(h, w);
  std::vector<double> x(static_cast<size_t>(w)), b(static_cast<size_t>(h)), scale(b.size());
  std::vector<int64_t> skip(b.size()), len(b.size(), -1);
  for (int64_t k = 0; k < w; ++k) x[static_cast<size_t>(k)] = 0.5 * static_cast<double>(k % 5) - 1.0;
  for (int64_t r = 0; r < h; ++r) {
    const auto u = static_cast<size_t>(r);
    b[u] = static_cast<double>(r);                         // WCR adds to it
    scale[u] = 0.5 * static_cast<double>(r % 4) + 0.25;    // f = 0.5, 1.5, 2.5, 3.5: exact products
    skip[u] = r % 3 == 1 ? 2 : r == 5 ? 250 : r % 3 == 2; // row 5 keeps 50 of its 300; past-the-end starts give none
  }
  // The C++ reference: the loops the SDFG describes, row by row.
  std::vector<double> want = b;
  std::vector<int64_t> want_len(b.size());
  for (int64_t r = 0; r < h; ++r) {
    const auto u = static_cast<size_t>(r);
    want_len[u] = a.row[u + 1] - a.row[u];
    for (int64_t k = a.row[u] + skip[u]; k < a.row[u + 1]; ++k)
      want[u] += 2.0 * scale[u] * a.val[static_cast<size_t>(k)] * x[static_cast<size_t>(a.col[static_cast<size_t>(k)])];
  }
  std::map<std::string, ArgValue> args = spmv_args(a, x, b, h, w);
  args.emplace("scale", ArgValue::pointer(scale.data()));
  args.emplace("skip", ArgValue::pointer(skip.data()));
  args.emplace("len", ArgValue::pointer(len.data()));
  Status st = run(*p, args);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(b, want);
  EXPECT_EQ(len, want_len);
  const std::string ptx = checked_ptx(*g);
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos) << "no barrier between the code beside the map and its iterations";
  // f reaches the iterations through shared memory; sh only the owner's range, which phase 1
  // evaluates, so its slots are never read and LLVM drops them.
  EXPECT_NE(ptx.find("dynmap_f"), std::string::npos) << "f does not pass through shared memory";
}

TEST_P(CudaDynamicMap, CodeBesideTheMapReachesTheThreadsRunningItsIterations) {
  REQUIRE_CUDA_TARGET();
  expect_spmv_beside(GetParam(), 0);
}

TEST_P(CudaDynamicMap, CodeBesideTheMapWithABlockOf64) {
  REQUIRE_CUDA_TARGET();
  expect_spmv_beside(GetParam(), 64);
}

Status lower_emulated(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<LoweredModule> m = lower(g, ctx, emulated_options());
  if (!m.ok()) return m.take_error();
  return Status::success();
}

// The message of the scaled SpMV's refusal, checked to be Unsupported and to name the dynamic
// map ("row_nonzeros"); "" after a recorded failure when it lowers.
std::string refusal_naming_the_dynamic_map(const ir::SDFG& g) {
  Status st = lower_emulated(g);
  if (st.ok()) {
    ADD_FAILURE() << "lowered, expected a refusal";
    return "";
  }
  EXPECT_EQ(st.error().code, Code::Unsupported);
  EXPECT_NE(st.error().message.find("(MapEntry \"row_nonzeros\")"), std::string::npos)
      << "names the dynamic map: " << st.error().message;
  return st.error().message;
}

TEST(CudaDynamicMapRefusal, DynamicMapOutsideAKernelIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  auto g = std::make_unique<ir::SDFG>();
  g->name = "emu_dyn_outside";
  add_array(*g, "A", T::Float64, {"32"});
  ir::State& s = add_state(*g, *g, "s");
  auto [entry, exit] = map(s, {"t"}, "0:32", S::GPU_ThreadBlock_Dynamic);
  int t = tasklet(s, "o = 1", {}, {"o"});
  edge(s, entry, "", t, "", "");
  edge_out(s, t, "o", exit, access(s, "A"), "A[t]", "A[0:32]");
  Status st = lower_emulated(*g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Code::Unsupported);
  EXPECT_NE(st.error().message.find("must be directly inside a GPU_Device map"), std::string::npos) << st.error().message;
}

// The scaled SpMV with its sum gathered in the kernel's scope after the dynamic map
// (acc, then b[i] = acc): the iterations' partial sums are spread over the block's threads,
// so the code after the map is refused naming the map and that code.
TEST(CudaDynamicMapRefusal, CodeAfterTheMapIsRefusedNamingIt) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = spmv_beside_sdfg(0);
  add_scalar(*g, "acc", T::Float64, true);
  add_array(*g, "out", T::Float64, {"H"});
  g->arrays.at("out").storage = ir::StorageType::GPU_Global;
  ir::State& s = *g->all_states()[0];
  int dyn_exit = -1, dev_exit = -1;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapExit) (s.scope_parents()[static_cast<size_t>(id)] >= 0 ? dyn_exit : dev_exit) = id;
  ASSERT_GE(dyn_exit, 0);
  s.node(dyn_exit)->in_connectors["IN_acc"] = ir::DType{};
  s.node(dyn_exit)->out_connectors["OUT_acc"] = ir::DType{};
  int t = tasklet(s, "o = 1.0", {}, {"o"});
  int dyn_entry = static_cast<const ir::MapExit&>(*s.node(dyn_exit)).entry;
  edge(s, dyn_entry, "", t, "", "");
  edge(s, t, "o", dyn_exit, "IN_acc", "acc[0]", "lambda a, b: a + b");
  int acc = access(s, "acc");
  edge(s, dyn_exit, "OUT_acc", acc, "", "acc[0]", "lambda a, b: a + b");
  int after = tasklet(s, "o = a", {"a"}, {"o"});
  s.node(after)->label = "gather_row";
  edge(s, acc, "", after, "a", "acc[0]");
  chain_out(s, after, "o", {dev_exit}, access(s, "out"), "out", {"out[i]", "out[0:H]"});
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  const std::string m = refusal_naming_the_dynamic_map(*g);
  EXPECT_NE(m.find("runs after this GPU_ThreadBlock_Dynamic map"), std::string::npos) << m;
  EXPECT_NE(m.find("\"acc\""), std::string::npos) << "names the node after it: " << m;
}

// An array written beside the dynamic map and read by its iterations would need a copy per
// thread: refused naming the map and the array.
TEST(CudaDynamicMapRefusal, ArrayComputedBesideTheMapIsRefusedNamingIt) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = spmv_beside_sdfg(0);
  g->arrays.erase("f");
  add_array(*g, "f", T::Float64, {"1"}, true);
  g->arrays.at("f").storage = ir::StorageType::Register;
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  const std::string m = refusal_naming_the_dynamic_map(*g);
  EXPECT_NE(m.find("\"f\", written beside this GPU_ThreadBlock_Dynamic map"), std::string::npos) << m;
}

int dynamic_entry_of(const ir::State& s) {
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::MapEntry && s.node(id)->label == "row_nonzeros") return id;
  return -1;
}

// The scaled SpMV whose iterations also write f, the scalar its owner computes beside the map:
// every thread running row i's iterations would write and read row i's one slot (a race, and
// later iterations would read another iteration's f). Refused naming the map and f.
TEST(CudaDynamicMapRefusal, ScalarFromBesideTheMapThatItsIterationsWriteIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = spmv_beside_sdfg(0);
  ir::State& s = *g->all_states()[0];
  const int dyn = dynamic_entry_of(s);
  ASSERT_GE(dyn, 0);
  const int dyn_exit = s.exit_of(dyn);
  int t = tasklet(s, "o = 1.0", {}, {"o"});
  edge(s, dyn, "", t, "", "");
  int f = access(s, "f");
  edge(s, t, "o", f, "", "f[0]");
  edge(s, f, "", dyn_exit, "", "");
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  const std::string m = refusal_naming_the_dynamic_map(*g);
  EXPECT_NE(m.find("its iterations write \"f\""), std::string::npos) << m;
}

// sh handed to the dynamic map straight from the tasklet that computes it, not through the
// scalar: the value lives in the owner's registers only. Refused naming the map, the edge
// and the tasklet.
TEST(CudaDynamicMapRefusal, ValueStraightFromATaskletBesideTheMapIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  std::unique_ptr<ir::SDFG> g = spmv_beside_sdfg(0);
  ir::State& s = *g->all_states()[0];
  const int dyn = dynamic_entry_of(s);
  ASSERT_GE(dyn, 0);
  int sh = -1, ts = -1;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Access && static_cast<const ir::AccessNode&>(*s.node(id)).data == "sh") sh = id;
  ASSERT_GE(sh, 0);
  for (int e : s.in_edges(sh)) ts = s.edge(e)->src;
  ASSERT_GE(ts, 0);
  s.node(ts)->label = "skip_of_row";
  s.remove_node(sh);
  edge(s, ts, "o", dyn, "sh", "sh[0]");
  const std::string m = refusal_naming_the_dynamic_map(*g);
  EXPECT_NE(m.find("hands it a value straight from"), std::string::npos) << m;
  EXPECT_NE(m.find("skip_of_row"), std::string::npos) << "names the tasklet: " << m;
}

// A block of 1024 gives the dynamic map's three int64 range arrays 24 KiB; with a 30 KiB
// GPU_Shared array the kernel needs 54 KiB of shared memory per block, over the 48 KiB
// static limit: refused naming the kernel's map (the launch would fail on a GPU). Each
// part alone fits, so only the per-kernel total refuses it.
TEST(CudaDynamicMapRefusal, SharedMemoryTotalOverTheStaticLimitIsRefused) {
  REQUIRE_CUDA_PLUGIN();
  const int64_t shared = 30 * 1024 / 8;
  ASSERT_TRUE(lower_emulated(*spmv_sdfg(1024, 1)).ok()) << "the ranges of a block of 1024 alone fit";
  ASSERT_TRUE(lower_emulated(*spmv_sdfg(32, 1, shared)).ok()) << "30 KiB beside a block of 32 fit";
  std::unique_ptr<ir::SDFG> g = spmv_sdfg(1024, 1, shared);
  Status v = analysis::validate(*g);
  ASSERT_TRUE(v.ok()) << v.error().message;
  Status st = lower_emulated(*g);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, Code::Unsupported);
  const std::string& m = st.error().message;
  const ir::State& state = *g->all_states()[0];
  for (int id : state.node_ids()) {
    if (state.node(id)->kind == ir::NodeKind::MapEntry &&
        static_cast<const ir::MapEntry&>(*state.node(id)).map.schedule == S::GPU_Device) {
      EXPECT_EQ(m.rfind(ir::path_of_node(*g, state, id) + ": ", 0), 0u) << "names the kernel's map first: " << m;
    }
  }
  EXPECT_NE(m.find("\"S\""), std::string::npos) << m;
  EXPECT_NE(m.find("after 24576 bytes"), std::string::npos) << m;  // 3 x 1024 x 8, by hand
  EXPECT_NE(m.find("49152"), std::string::npos) << m;
}

}  // namespace
}  // namespace dace::codegen::testing
