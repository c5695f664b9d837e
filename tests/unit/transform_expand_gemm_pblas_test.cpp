// ExpandGemmPBLAS on hand-built Gemm / MatMul nodes with implementation "PBLAS": the node
// becomes what the body of DaCe 1.0.2's ExpandGemmPBLAS writes (gemm.py: BCScatter of A and B
// into M/Px x K/Py and K/Px x N/Py local arrays, distr.MatMult -> Pgemm with m, n, k, BCGather
// of the M/Px x N/Py blocks into C), checked node by node against that text; the refusals are
// those DaCe raises for or would compute something else with. Running the result needs MPI
// and ScaLAPACK: tests/scripts/mpi_distr_matmul_cases.py runs DaCe-written Gemm / MatMul
// programs expanded by it on 1, 2 and 4 ranks against NumPy.
#include <gtest/gtest.h>

#include <optional>
#include <set>

#include "codegen_test_builder.h"
#include "ir/equality.h"
#include "ir/sdfg.h"
#include "transform/registry.h"
#include "transform/scope_tree.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

using namespace codegen::testing;
using T = ir::ScalarType;

constexpr const char* kGemm = "dace.libraries.blas.nodes.gemm.Gemm";
constexpr const char* kMatMul = "dace.libraries.blas.nodes.matmul.MatMul";

struct Options {
  const char* classpath = kGemm;
  std::string implementation = "PBLAS";
  T type = T::Float64;
  std::map<std::string, std::string> properties;  // JSON text
  std::string b_shape = "K, N";
  std::string a_memlet = "A[0:M, 0:K]";
  bool cin = false;
  // In a map over i = 0:2 with this schedule, on the matrices A[i], B[i], C[i] of 2 x M x K,
  // 2 x K x N and 2 x M x N arrays (`A[i] @ B[i]`); `outer_schedule`: inside a second map over
  // j = 0:3 around it.
  std::optional<ir::ScheduleType> batched;
  std::optional<ir::ScheduleType> outer_schedule;
  std::vector<std::string> a_strides;  // A's strides when not the default
  std::vector<std::string> a_offset;   // A's offset when not the default
};

// C (M x N) = A (M x K) @ B through one library node.
std::unique_ptr<ir::SDFG> product(const Options& o = {}) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "pblas_product";
  for (const char* s : {"M", "N", "K"}) g->symbols[s] = ir::DType::of(T::Int32);
  add_array(*g, "A", o.type, {"M", "K"});
  if (!o.a_strides.empty()) g->arrays.at("A").strides = {E(o.a_strides[0]), E(o.a_strides[1])};
  if (!o.a_offset.empty()) g->arrays.at("A").offset = {E(o.a_offset[0]), E(o.a_offset[1])};
  std::vector<std::string> b_shape;
  for (size_t at = 0, comma; at != std::string::npos; at = comma == std::string::npos ? comma : comma + 2) {
    comma = o.b_shape.find(", ", at);
    b_shape.push_back(o.b_shape.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
  }
  add_array(*g, "B", o.type, b_shape);
  add_array(*g, "C", o.type, {"M", "N"});
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->name = n->label = "_MatMult_gemm";
  n->classpath = o.classpath;
  n->implementation = o.implementation;
  for (const auto& [key, text] : o.properties) n->properties[key] = text;
  n->in_connectors["_a"] = ir::DType{};
  n->in_connectors["_b"] = ir::DType{};
  if (o.cin) n->in_connectors["_cin"] = ir::DType{};
  n->out_connectors["_c"] = ir::DType{};
  const int mm = s.add_node(std::move(n));
  const std::string b_memlet = "B[0:" + b_shape[0] + ", 0:" + b_shape[1] + "]";
  if (o.batched) {
    for (const char* name : {"A", "B", "C"}) {
      ir::DataDescriptor& d = g->arrays.at(name);
      d.shape.insert(d.shape.begin(), sym::integer(2));
      d.strides.clear();
      d.offset.clear();
      ir::complete_defaults(d);
    }
    const std::string a = o.a_memlet == "A[0:M, 0:K]" ? "A[i, 0:M, 0:K]" : o.a_memlet;
    const auto [entry, exit] = map(s, {"i"}, "0:2", *o.batched);
    if (!o.outer_schedule) {
      edge_in(s, access(s, "A"), entry, mm, "_a", "A[0:2, 0:M, 0:K]", a);
      edge_in(s, access(s, "B"), entry, mm, "_b", "B[0:2, 0:K, 0:N]", "B[i, 0:K, 0:N]");
      edge_out(s, mm, "_c", exit, access(s, "C"), "C[i, 0:M, 0:N]", "C[0:2, 0:M, 0:N]");
      return g;
    }
    const auto [outer, outer_exit] = map(s, {"j"}, "0:3", *o.outer_schedule);
    s.node(outer)->label = s.node(outer_exit)->label = "outer";
    edge_in(s, access(s, "A"), outer, entry, "IN_A", "A[0:2, 0:M, 0:K]", "A[0:2, 0:M, 0:K]");
    edge_in(s, access(s, "B"), outer, entry, "IN_B", "B[0:2, 0:K, 0:N]", "B[0:2, 0:K, 0:N]");
    for (const char* name : {"A", "B"}) {
      s.node(entry)->in_connectors[std::string("IN_") + name] = ir::DType{};
      s.node(entry)->out_connectors[std::string("OUT_") + name] = ir::DType{};
    }
    edge(s, entry, "OUT_A", mm, "_a", a);
    edge(s, entry, "OUT_B", mm, "_b", "B[i, 0:K, 0:N]");
    edge_out(s, mm, "_c", exit, outer_exit, "C[i, 0:M, 0:N]", "C[0:2, 0:M, 0:N]");
    for (int e : s.out_edges(exit)) s.edge(e)->dst_conn = "IN_C";
    s.node(outer_exit)->in_connectors["IN_C"] = ir::DType{};
    s.node(outer_exit)->out_connectors["OUT_C"] = ir::DType{};
    edge(s, outer_exit, "OUT_C", access(s, "C"), "", "C[0:2, 0:M, 0:N]");
    return g;
  }
  edge(s, access(s, "A"), "", mm, "_a", o.a_memlet);
  edge(s, access(s, "B"), "", mm, "_b", b_memlet);
  if (o.cin) edge(s, access(s, "C"), "", mm, "_cin", "C[0:M, 0:N]");
  edge(s, mm, "_c", access(s, "C"), "", "C[0:M, 0:N]");
  return g;
}

std::vector<const ir::LibraryNode*> library_nodes(const ir::State& s) {
  std::vector<const ir::LibraryNode*> out;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Library) out.push_back(static_cast<const ir::LibraryNode*>(s.node(id)));
  return out;
}

// The one edge into `node` at `conn`.
const ir::DataflowEdge* in_edge(const ir::State& s, const ir::Node* node, const std::string& conn) {
  for (int e : s.edge_ids())
    if (s.node(s.edge(e)->dst) == node && s.edge(e)->dst_conn == conn) return s.edge(e);
  return nullptr;
}
const ir::DataflowEdge* out_edge(const ir::State& s, const ir::Node* node, const std::string& conn) {
  for (int e : s.edge_ids())
    if (s.node(s.edge(e)->src) == node && s.edge(e)->src_conn == conn) return s.edge(e);
  return nullptr;
}

// The container read at `conn` of `node` through an access node.
std::string data_in(const ir::State& s, const ir::Node* node, const std::string& conn) {
  const ir::DataflowEdge* e = in_edge(s, node, conn);
  return e ? e->memlet.data : std::string("(none)");
}

std::string shape_of(const ir::SDFG& g, const std::string& data) {
  std::string out;
  for (const sym::Expr& e : g.arrays.at(data).shape) out += (out.empty() ? "" : ", ") + sym::to_string(e);
  return out;
}

void expect_expanded(const ir::SDFG& g, T type) {
  const ir::State& s = *g.all_states()[0];
  std::vector<const ir::LibraryNode*> scatters, gemms, gathers;
  for (const ir::LibraryNode* n : library_nodes(s)) {
    if (n->classpath == "dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter") scatters.push_back(n);
    else if (n->classpath == "dace.libraries.pblas.nodes.pgemm.Pgemm") gemms.push_back(n);
    else if (n->classpath == "dace.libraries.pblas.nodes.pgeadd.BlockCyclicGather") gathers.push_back(n);
    else ADD_FAILURE() << "unexpected library node " << n->classpath;
  }
  ASSERT_EQ(scatters.size(), 2u);
  ASSERT_EQ(gemms.size(), 1u);
  ASSERT_EQ(gathers.size(), 1u);
  // DaCe declares Px and Py as int32 symbols.
  ASSERT_TRUE(g.symbols.count("Px") && g.symbols.count("Py"));
  EXPECT_EQ(g.symbols.at("Px"), ir::DType::of(T::Int32));
  EXPECT_EQ(g.symbols.at("Py"), ir::DType::of(T::Int32));
  // Pgemm: ReferenceOpenMPI, m n k of the global product, the local arrays of DaCe's body.
  const ir::LibraryNode& pg = *gemms[0];
  EXPECT_EQ(pg.implementation, "ReferenceOpenMPI");
  EXPECT_EQ(pg.properties.at("m"), "\"M\"");
  EXPECT_EQ(pg.properties.at("n"), "\"N\"");
  EXPECT_EQ(pg.properties.at("k"), "\"K\"");
  const std::string la = data_in(s, &pg, "_a"), lb = data_in(s, &pg, "_b");
  ASSERT_TRUE(g.arrays.count(la) && g.arrays.count(lb));
  EXPECT_EQ(shape_of(g, la), "int_floor(M, Px), int_floor(K, Py)");
  EXPECT_EQ(shape_of(g, lb), "int_floor(K, Px), int_floor(N, Py)");
  EXPECT_TRUE(g.arrays.at(la).transient);
  EXPECT_EQ(g.arrays.at(la).dtype, ir::DType::of(type));
  const ir::DataflowEdge* lc_edge = out_edge(s, &pg, "_c");
  ASSERT_TRUE(lc_edge);
  EXPECT_EQ(shape_of(g, lc_edge->memlet.data), "int_floor(M, Px), int_floor(N, Py)");
  // The scatters read A and B whole and write the local arrays Pgemm reads.
  std::set<std::string> scattered, targets;
  for (const ir::LibraryNode* sc : scatters) {
    scattered.insert(data_in(s, sc, "_inbuffer"));
    const ir::DataflowEdge* out = out_edge(s, sc, "_outbuffer");
    ASSERT_TRUE(out);
    targets.insert(out->memlet.data);
    EXPECT_EQ(g.arrays.at(data_in(s, sc, "_block_sizes")).dtype, ir::DType::of(T::Int32));
  }
  EXPECT_EQ(scattered, (std::set<std::string>{"A", "B"}));
  EXPECT_EQ(targets, (std::set<std::string>{la, lb}));
  // The gather reads Pgemm's local C and writes C.
  EXPECT_EQ(data_in(s, gathers[0], "_inbuffer"), lc_edge->memlet.data);
  const ir::DataflowEdge* c = out_edge(s, gathers[0], "_outbuffer");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->memlet.data, "C");
  // Block sizes: the same blocks as the local arrays, written by tasklets as DaCe's frontend.
  std::multiset<std::string> codes;
  for (int id : s.node_ids())
    if (s.node(id)->kind == ir::NodeKind::Tasklet) codes.insert(static_cast<const ir::Tasklet*>(s.node(id))->code.code);
  EXPECT_EQ(codes, (std::multiset<std::string>{"__out[0] = int_floor(M, Px)\n__out[1] = int_floor(K, Py)",
                                               "__out[0] = int_floor(K, Px)\n__out[1] = int_floor(N, Py)",
                                               "__out[0] = int_floor(M, Px)\n__out[1] = int_floor(N, Py)"}));
}

TEST(TransformExpandGemmPBLAS, GemmBecomesScatterPgemmGather) {
  auto g = product();
  ASSERT_TRUE(apply_once(*g, "ExpandGemmPBLAS"));
  expect_expanded(*g, T::Float64);
}

TEST(TransformExpandGemmPBLAS, MatMulComplexAndExplicitDefaults) {
  Options o;
  o.classpath = kMatMul;
  o.type = T::Complex64;
  o.properties = {{"alpha", "1.0"}, {"beta", "0"}, {"transA", "false"}, {"transB", "false"}};
  auto g = product(o);
  ASSERT_TRUE(apply_once(*g, "ExpandGemmPBLAS"));
  expect_expanded(*g, T::Complex64);
}

TEST(TransformExpandGemmPBLAS, ThroughExpandLibraryNodes) {
  auto g = product();
  std::unique_ptr<Pass> pass = make_pass("ExpandLibraryNodes");
  ASSERT_TRUE(pass);
  AnalysisManager am;
  Result<bool> changed = run_pass(*g, *pass, am);
  ASSERT_TRUE(changed.ok()) << changed.error().message;
  EXPECT_TRUE(*changed);
  expect_expanded(*g, T::Float64);
  // The expansion added access nodes, transients and the symbols Px, Py: the pass must say so,
  // or the analysis manager keeps stale access sets.
  const Modifies reported = pass->modifies();
  for (Modifies m : {Modifies::AccessNodes, Modifies::Descriptors, Modifies::Symbols, Modifies::Tasklets, Modifies::Memlets})
    EXPECT_TRUE(any(reported & m)) << to_string(m);
}

// Each refusal names its reason; the SDFG is left unchanged.
void expect_refused(const Options& o, const std::string& reason) {
  auto g = product(o);
  const std::unique_ptr<ir::SDFG> before = g->clone_sdfg();
  std::string reasons;
  EXPECT_FALSE(applies_anywhere(*g, "ExpandGemmPBLAS", &reasons)) << reason;
  EXPECT_NE(reasons.find(reason), std::string::npos) << reasons;
  std::string difference;
  EXPECT_TRUE(ir::structurally_equal(*g, *before, &difference)) << difference;
}

TEST(TransformExpandGemmPBLAS, Refusals) {
  Options o;
  o.implementation = "pure";
  {
    auto g = product(o);  // not even a match: only PBLAS nodes are candidates
    EXPECT_FALSE(applies_anywhere(*g, "ExpandGemmPBLAS"));
  }
  o = {};
  o.properties = {{"beta", "1.0"}};
  expect_refused(o, "has beta 1.0 (DaCe's PBLAS expansion: beta 0 only)");
  o = {};
  o.properties = {{"alpha", "2.5"}};
  expect_refused(o, "has alpha 2.5");
  o = {};
  o.properties = {{"transA", "true"}};
  expect_refused(o, "has transA true");
  o = {};
  o.type = T::Int32;
  expect_refused(o, "\"A\" has element type int32");
  o = {};
  o.cin = true;
  expect_refused(o, "has an input at connector _cin");
  // Maps whose iterations do not all run on every rank's host: the ranks would call the
  // collective product different numbers of times.
  o = {};
  o.batched = ir::ScheduleType::MPI;
  expect_refused(o, "(\"_MatMult_gemm\") is inside node 1 (\"m\"), a map scheduled MPI (its iterations are split");
  o = {};
  o.batched = ir::ScheduleType::GPU_Device;
  expect_refused(o, "(\"_MatMult_gemm\") is inside node 1 (\"m\"), a map scheduled GPU_Device");
  o = {};
  o.batched = ir::ScheduleType::Sequential;
  o.outer_schedule = ir::ScheduleType::MPI;
  expect_refused(o, "(\"outer\"), a map scheduled MPI");
  // In a map, each operand must be one whole matrix of its container.
  o = {};
  o.batched = ir::ScheduleType::Sequential;
  o.a_memlet = "A[0:2, 0:M, 0:K]";  // both matrices of A at once
  expect_refused(o, "connector _a: the memlet A[0:2, 0:M, 0:K] is not one whole matrix of \"A\"");
  o = {};
  o.batched = ir::ScheduleType::Sequential;
  o.a_memlet = "A[i, 0:M, 1:K]";  // a sub-block of A[i]
  expect_refused(o, "is not one whole matrix of \"A\"");
  o = {};
  o.b_shape = "M, N";  // B's rows are not A's columns
  expect_refused(o, "are not provably M x K, K x N -> M x N");
  o = {};
  o.a_memlet = "A[0:M, 0:K - 1]";  // a sub-block of A
  o.b_shape = "K - 1, N";
  expect_refused(o, "is not the whole of \"A\"");
  // The scatter reads A row-major from its start: another layout is refused.
  o = {};
  o.a_strides = {"1", "M"};  // Fortran order
  expect_refused(o, "\"A\" is not C-contiguous");
  o = {};
  o.a_strides = {"K + 3", "1"};  // padded rows
  expect_refused(o, "\"A\" is not C-contiguous");
  o = {};
  o.a_offset = {"1", "0"};
  expect_refused(o, "\"A\" is not C-contiguous");
}

// The nodes the expansion wrote, found by class.
struct Expanded {
  std::vector<int> scatters, gemms, gathers, tasklets;
};
Expanded expanded_nodes(const ir::State& s) {
  Expanded out;
  for (int id : s.node_ids()) {
    const ir::Node* n = s.node(id);
    if (n->kind == ir::NodeKind::Tasklet) out.tasklets.push_back(id);
    if (n->kind != ir::NodeKind::Library) continue;
    const std::string& c = static_cast<const ir::LibraryNode*>(n)->classpath;
    if (c == "dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter") out.scatters.push_back(id);
    if (c == "dace.libraries.pblas.nodes.pgemm.Pgemm") out.gemms.push_back(id);
    if (c == "dace.libraries.pblas.nodes.pgeadd.BlockCyclicGather") out.gathers.push_back(id);
  }
  return out;
}

// `for i in dace.map[0:2]: C[i] = A[i] @ B[i]` in a parallel map: one distributed product per
// iteration, so the map becomes Sequential (every rank calls the collectives once per
// iteration, in the same order, from one thread) and the scatter, Pgemm, gather and their
// block sizes are all inside it, reading A[i], B[i] from the map's entry and writing C[i] to
// its exit. The result validates (apply_once checks it).
TEST(TransformExpandGemmPBLAS, ProductInAParallelMapRunsSequentiallyPerIteration) {
  for (bool nested : {false, true}) {
    SCOPED_TRACE(nested ? "inside a second map" : "one map");
    Options o;
    o.classpath = kMatMul;
    o.batched = ir::ScheduleType::CPU_Multicore;
    if (nested) o.outer_schedule = ir::ScheduleType::Default;
    auto g = product(o);
    ASSERT_TRUE(apply_once(*g, "ExpandGemmPBLAS"));
    const ir::State& s = *g->all_states()[0];
    const ScopeTree scopes = ScopeTree::compute(s);
    std::vector<int> maps;
    for (int id : s.node_ids())
      if (s.node(id)->kind == ir::NodeKind::MapEntry) maps.push_back(id);
    ASSERT_EQ(maps.size(), nested ? 2u : 1u);
    for (int m : maps)
      EXPECT_EQ(static_cast<const ir::MapEntry*>(s.node(m))->map.schedule, ir::ScheduleType::Sequential);
    int inner = maps[0];
    for (int m : maps)
      if (static_cast<const ir::MapEntry*>(s.node(m))->map.params == std::vector<std::string>{"i"}) inner = m;
    const Expanded x = expanded_nodes(s);
    ASSERT_EQ(x.scatters.size(), 2u);
    ASSERT_EQ(x.gemms.size(), 1u);
    ASSERT_EQ(x.gathers.size(), 1u);
    ASSERT_EQ(x.tasklets.size(), 3u);
    for (const std::vector<int>* ids : {&x.scatters, &x.gemms, &x.gathers, &x.tasklets})
      for (int id : *ids) EXPECT_EQ(scopes.parent[static_cast<size_t>(id)], inner) << s.node(id)->label;
    // The scatters read iteration i's matrices from the map's entry, the gather writes C[i].
    std::set<std::string> read;
    for (int sc : x.scatters) {
      const ir::DataflowEdge* e = in_edge(s, s.node(sc), "_inbuffer");
      ASSERT_TRUE(e);
      EXPECT_EQ(e->src, inner);
      read.insert(e->memlet.data + "[" + sym::to_string(e->memlet.subset) + "]");
    }
    EXPECT_EQ(read, (std::set<std::string>{"A[i, 0:M, 0:K]", "B[i, 0:K, 0:N]"}));
    const ir::DataflowEdge* c = out_edge(s, s.node(x.gathers[0]), "_outbuffer");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->dst, scopes.exit_of(inner));
    EXPECT_EQ(c->memlet.data + "[" + sym::to_string(c->memlet.subset) + "]", "C[i, 0:M, 0:N]");
    // Pgemm's global sizes are one matrix's.
    const auto& pg = *static_cast<const ir::LibraryNode*>(s.node(x.gemms[0]));
    EXPECT_EQ(pg.properties.at("m") + pg.properties.at("n") + pg.properties.at("k"), "\"M\"\"N\"\"K\"");
  }
}

// The product in a nested SDFG (A, B, C and M, K, N mapped from a valid outer SDFG): Px and
// Py would be symbols of the nested SDFG only, neither in its symbol mapping nor arguments
// of the outer one, so the result would not validate. Refused naming the node, unchanged.
TEST(TransformExpandGemmPBLAS, NestedSdfgIsRefused) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer";
  for (const char* s : {"M", "N", "K"}) g->symbols[s] = ir::DType::of(T::Int32);
  add_array(*g, "A", T::Float64, {"M", "K"});
  add_array(*g, "B", T::Float64, {"K", "N"});
  add_array(*g, "C", T::Float64, {"M", "N"});
  ir::State& s = add_state(*g, *g, "outer");
  const int nested = add_nested(s, product(), {"A", "B"}, {"C"}, {{"M", "M"}, {"K", "K"}, {"N", "N"}});
  edge(s, access(s, "A"), "", nested, "A", "A[0:M, 0:K]");
  edge(s, access(s, "B"), "", nested, "B", "B[0:K, 0:N]");
  edge(s, nested, "C", access(s, "C"), "", "C[0:M, 0:N]");
  Status valid = analysis::validate(*g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  const std::unique_ptr<ir::SDFG> before = g->clone_sdfg();
  std::string reasons;
  EXPECT_FALSE(applies_anywhere(*g, "ExpandGemmPBLAS", &reasons));
  EXPECT_NE(reasons.find("(\"_MatMult_gemm\") is in a nested SDFG"), std::string::npos) << reasons;
  std::string difference;
  EXPECT_TRUE(ir::structurally_equal(*g, *before, &difference)) << difference;
}

}  // namespace
}  // namespace dace::transform::testing
