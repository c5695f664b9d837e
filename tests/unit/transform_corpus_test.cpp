// Every DaCe-written raw and simp SDFG of the corpus (and their 2.0a5 dialect versions) is
// simplified, then TrivialMapElimination and MapCollapse are applied repeatedly; the result
// must validate, survive a JSON round trip, and still compute NumPy's outputs. Each
// transformation is also applied alone at (up to four of) its legal matches, and the whole
// optimization must give the same bytes, hash and history on every run and on replay.
#include <gtest/gtest.h>

#include <cstdio>

#include <cctype>
#include <chrono>
#include <filesystem>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/history.h"
#include "transform/registry.h"
#include "transform/replay.h"
#include "transform/simplify.h"

namespace dace::codegen::testing {
namespace {

namespace fs = std::filesystem;

std::vector<CorpusFile> corpus_files() { return simp_and_raw_files(corpus_case_dirs()); }

// MPITransformMap's output as one rank runs it: the MPI maps sequential (one rank runs every
// iteration) and __dace_comm_size the constant 1, so the single tile spans the whole range
// and the local copies (trans_X) carry everything. The MPI schedule itself needs mpirun and
// the MPI plugin (ctest mpi.map_schedule_np*).
void as_one_rank(ir::SDFG& g) {
  for (ir::State* st : g.all_states())
    for (int id : st->node_ids()) {
      ir::Node* n = st->node(id);
      if (n->kind == ir::NodeKind::MapEntry) {
        auto* e = static_cast<ir::MapEntry*>(n);
        if (e->map.schedule == ir::ScheduleType::MPI) e->map.schedule = ir::ScheduleType::Sequential;
      } else if (n->kind == ir::NodeKind::NestedSDFG) {
        auto* nested = static_cast<ir::NestedSDFGNode*>(n);
        if (nested->sdfg) as_one_rank(*nested->sdfg);
      }
    }
  if (g.symbols.erase("__dace_comm_size"))
    g.constants["__dace_comm_size"] = ir::Constant{ir::DType::of(ir::ScalarType::Int32), "1"};
}

class CorpusOptimize : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusOptimize, SimplifiedMatchesNumPy) {
  const CorpusFile& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  ir::SDFG& g = **sdfg;
  const size_t blocks_before = g.all_states().size();

  const auto start = std::chrono::steady_clock::now();
  transform::AnalysisManager am;
  auto simplify = transform::make_simplify_pipeline();
  Result<bool> r = transform::run_pass(g, *simplify, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (const char* name : {"TrivialMapElimination", "MapCollapse"}) {
    auto t = transform::make_transformation(name);
    Result<int> n = transform::apply_repeated(g, *t, am);
    ASSERT_TRUE(n.ok()) << n.error().message;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  Status valid = analysis::validate(g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  RecordProperty("optimize_ms", std::to_string(ms));
  RecordProperty("states", std::to_string(blocks_before) + " -> " + std::to_string(g.all_states().size()));
  RecordProperty("applied", std::to_string(transform::history_of(g).size()));
  std::printf("[ optimize ] %s: %.2f ms, states %zu -> %zu, %zu steps\n", cf.name.c_str(), ms, blocks_before,
              g.all_states().size(), transform::history_of(g).size());

  // What we write, we read back the same.
  const std::string text = ir::json::write_sdfg(g);
  Result<std::unique_ptr<ir::SDFG>> back = ir::json::read_sdfg(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**back), text);

  Result<CompiledProgram> prog = compile(g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  run_corpus_case(cf.dir, g, *prog);
}

// simplify, then TrivialMapElimination and MapCollapse repeatedly, as `dace optimize` would.
std::string optimized_bytes(const std::string& file, std::vector<transform::HistoryEntry>* history) {
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(file);
  EXPECT_TRUE(sdfg.ok()) << sdfg.error().message;
  if (!sdfg.ok()) return {};
  transform::AnalysisManager am;
  EXPECT_TRUE(transform::run_pass(**sdfg, *transform::make_simplify_pipeline(), am).ok());
  for (const char* name : {"TrivialMapElimination", "MapCollapse"})
    EXPECT_TRUE(transform::apply_repeated(**sdfg, *transform::make_transformation(name), am).ok());
  if (history) *history = transform::history_of(**sdfg);
  return ir::json::write_sdfg(**sdfg) + "\nhash " + ir::content_hash(**sdfg);
}

TEST_P(CorpusOptimize, DeterministicAndReplayable) {
  const CorpusFile& cf = GetParam();
  std::vector<transform::HistoryEntry> history;
  const std::string first = optimized_bytes(cf.sdfg, &history);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(optimized_bytes(cf.sdfg, nullptr), first);

  // The history, saved as `dace optimize --record` writes it, replays on the file to the same
  // bytes (history included).
  Result<std::vector<transform::HistoryEntry>> parsed = transform::parse_history(transform::history_json(history));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  Result<std::unique_ptr<ir::SDFG>> fresh = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(fresh.ok());
  transform::AnalysisManager am;
  Status s = transform::replay(**fresh, *parsed, am);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**fresh) + "\nhash " + ir::content_hash(**fresh), first);
}

TEST_P(CorpusOptimize, EachTransformationAloneMatchesNumPy) {
  const CorpusFile& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  // Every registered pattern transformation: a new one is covered without editing this test.
  for (const std::string& name : transform::registered_names()) {
    if (!transform::is_pattern_transformation(name)) continue;
    auto t = transform::make_transformation(name);
    transform::AnalysisManager am;
    std::vector<transform::Match> legal;
    for (const transform::Match& m : t->enumerate(**sdfg, am))
      if (t->can_be_applied(**sdfg, m, am)) legal.push_back(m);
    // Up to four, spread over the list (first and last included): each compile costs.
    std::vector<transform::Match> picked;
    const size_t k = std::min<size_t>(4, legal.size());
    for (size_t i = 0; i < k; ++i) picked.push_back(legal[k == 1 ? 0 : i * (legal.size() - 1) / (k - 1)]);
    std::printf("[ alone ] %s: %s at %zu of %zu legal matches\n", cf.name.c_str(), name.c_str(), picked.size(),
                legal.size());
    for (const transform::Match& m : picked) {
      SCOPED_TRACE(name + " at " + transform::to_string(m));
      std::unique_ptr<ir::SDFG> g = (*sdfg)->clone_sdfg();
      transform::AnalysisManager gam;
      Status a = transform::apply_at(*g, *t, m, gam);
      ASSERT_TRUE(a.ok()) << a.error().message;
      Status valid = analysis::validate(*g);
      ASSERT_TRUE(valid.ok()) << valid.error().message;
      // GPUTransformSDFG's output runs on a GPU (GPU_Device maps, GPU_Global data): the CPU
      // lowering used here refuses it. It is checked for structure here, for PTX by
      // ctest cuda.ptx_corpus (raw SDFGs after --auto gpu).
      if (name == "GPUTransformSDFG") {
        std::printf("[ SKIPPED  ] running %s's output needs a GPU or the emulated device\n", name.c_str());
        continue;
      }
      if (name == "MPITransformMap") as_one_rank(*g);
      Result<CompiledProgram> prog = compile(*g);
      ASSERT_TRUE(prog.ok()) << prog.error().message;
      run_corpus_case(cf.dir, *g, *prog);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusOptimize, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
