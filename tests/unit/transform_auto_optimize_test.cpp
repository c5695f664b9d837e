// auto_optimize (CPU) on every DaCe-written corpus SDFG: the result validates, survives a
// JSON round trip, computes NumPy's outputs, and is the same bytes on a second run. Loops
// with a carried dependence (the time steps of heat_3d and jacobi_2d) must stay loops;
// doitgen's independent loops must become maps, as DaCe's own auto_optimize makes them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/cfg_list.h"
#include "transform/registry.h"

namespace dace::codegen::testing {
namespace {

std::vector<CorpusFile> corpus_files() { return simp_and_raw_files(corpus_case_dirs()); }

int count_loops(ir::SDFG& g) {
  int n = 0;
  for (const ir::ControlFlowRegion* r : transform::CfgList::of(g).regions) n += r->kind == ir::BlockKind::Loop;
  return n;
}

int count_maps(const ir::SDFG& g) {
  int n = 0;
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids()) n += s->node(id)->kind == ir::NodeKind::MapEntry;
  return n;
}

Result<std::unique_ptr<ir::SDFG>> auto_optimized(const std::string& file, double* ms = nullptr) {
  auto sdfg = ir::json::read_sdfg_file(file);
  if (!sdfg) return sdfg;
  const auto start = std::chrono::steady_clock::now();
  auto pass = transform::make_pass("auto_optimize");
  if (!pass) return make_error(Code::NotFound, "auto_optimize is not registered");
  transform::AnalysisManager am;
  Result<bool> r = transform::run_pass(**sdfg, *pass, am);
  if (!r) return r.take_error();
  if (ms) *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return sdfg;
}

class CorpusAutoOptimize : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusAutoOptimize, MatchesNumPyAndIsDeterministic) {
  const CorpusFile& cf = GetParam();
  double ms = 0;
  Result<std::unique_ptr<ir::SDFG>> g = auto_optimized(cf.sdfg, &ms);
  ASSERT_TRUE(g.ok()) << g.error().message;
  Status valid = analysis::validate(**g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  const int loops = count_loops(**g), maps = count_maps(**g);
  std::printf("[ auto_optimize ] %s: %.2f ms, %d loops, %d maps left\n", cf.name.c_str(), ms, loops, maps);

  const std::string text = ir::json::write_sdfg(**g);
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**back), text);

  Result<std::unique_ptr<ir::SDFG>> again = auto_optimized(cf.sdfg);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**again), text) << "auto_optimize is not deterministic";

  // Semantics of the kernels (NPBench's sources): time-step loops carry a dependence.
  if (cf.name.starts_with("heat_3d") || cf.name.starts_with("jacobi_2d")) {
    EXPECT_GE(loops, 1) << "a time-step loop became a map";
  }
  // mandelbrot1's time loop goes inside the map over rows (MoveLoopIntoOuterMapDimension):
  // threads fork once per call, not once per time step.
  if (cf.name == "mandelbrot1_raw") {
    for (int b : (*g)->block_slots()) EXPECT_NE((*g)->block(b)->kind, ir::BlockKind::Loop) << "time loop outside the maps";
  }
  if (cf.name == "doitgen_raw") {
    EXPECT_EQ(loops, 0) << "doitgen's r/q loops are independent";
  }
  // gemm (C = alpha * A @ B + beta * C): alpha moves behind the product, fuses with beta * C,
  // and the whole update folds into one Gemm reading A itself and updating C in place, with
  // the runtime scalars alpha and beta as its factors (no map over C is left).
  if (cf.name.ends_with("gemm_raw") || cf.name.ends_with("gemm_simp")) {
    EXPECT_EQ(maps, 0) << "gemm keeps a pass over C of its own";
    int gemms = 0;
    for (const ir::State* s : (*g)->all_states())
      for (int id : s->node_ids()) {
        if (s->node(id)->kind != ir::NodeKind::Library) continue;
        const auto& ln = static_cast<const ir::LibraryNode&>(*s->node(id));
        if (ln.classpath != "dace.libraries.blas.nodes.gemm.Gemm") continue;
        ++gemms;
        EXPECT_EQ(ln.properties.at("alpha"), "\"alpha\"");
        EXPECT_EQ(ln.properties.at("beta"), "\"beta\"");
        for (int e : s->in_edges(id)) {
          const std::string& conn = s->edge(e)->dst_conn;
          EXPECT_EQ(s->edge(e)->memlet.data, conn == "_a" ? "A" : conn == "_b" ? "B" : "C") << conn;
        }
        for (int e : s->out_edges(id)) EXPECT_EQ(s->edge(e)->memlet.data, "C");
      }
    EXPECT_EQ(gemms, 1);
  }
  // atax ((A @ x) @ A): the two matrix-vector products become one parallel pass over the rows
  // of A (MatVecPairFusedRows): no MatMul is left.
  if (cf.name.starts_with("atax")) {
    int matmuls = 0, chunk_maps = 0;
    for (const ir::State* s : (*g)->all_states())
      for (int id : s->node_ids()) {
        const ir::Node* n = s->node(id);
        if (n->kind == ir::NodeKind::Library)
          matmuls += static_cast<const ir::LibraryNode*>(n)->classpath == "dace.libraries.blas.nodes.matmul.MatMul";
        if (n->kind == ir::NodeKind::MapEntry) chunk_maps += n->label == "matvec_pair_chunks";
      }
    EXPECT_EQ(matmuls, 0);
    EXPECT_EQ(chunk_maps, 1);
  }

  Result<CompiledProgram> prog = compile(**g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(cf.dir, **g, *prog);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusAutoOptimize, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
