// Every DaCe-written raw and simp SDFG of the corpus (and their 2.0a5 dialect versions) is
// simplified, then TrivialMapElimination and MapCollapse are applied repeatedly; the result
// must validate, survive a JSON round trip, and still compute NumPy's outputs. Each
// transformation is also applied alone at every one of its legal matches and repeatedly, and
// the whole optimization must give the same bytes, hash and history on every run and on
// replay.
#include <gtest/gtest.h>

#include <cstdio>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "codegen_test_unoptimized.h"
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

// The corpus, then tests/data/transform_cases: DaCe-written programs that the
// transformations no corpus SDFG matches do match (generate.py there).
std::vector<CorpusFile> corpus_files() {
  std::vector<CorpusFile> files = simp_and_raw_files(corpus_case_dirs());
  for (CorpusFile& f : compressed_simp_and_raw_files(case_dirs_under(fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "transform_cases"))) {
    f.name = "case_" + f.name;
    files.push_back(std::move(f));
  }
  return files;
}

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

// The hash of `g` without its history and stored original: applications at different
// matches (or repeated ones) that leave the same SDFG compute the same, so one check covers
// them.
std::string hash_without_history(const ir::SDFG& g) {
  std::unique_ptr<ir::SDFG> copy = g.clone_sdfg();
  copy->extra.erase("transformation_hist");
  copy->extra.erase(transform::kOriginalKey);
  return ir::content_hash(*copy);
}

// Validates a transformed SDFG and runs it on the case against NumPy's outputs; each distinct
// SDFG is compiled once per test and optimization level. Counts what it did for the summary line.
class TransformedChecker {
 public:
  explicit TransformedChecker(const CorpusFile& cf) : cf_(cf) {}

  // `optimized`: compiled with LLVM's optimizations (level 3), which exploit what level 0
  // ignores (`noalias` arguments, vectorized loops), so a miscompile only they expose shows.
  void check(const std::string& name, ir::SDFG& g, bool optimized = false) {
    Status valid = analysis::validate(g);
    ASSERT_TRUE(valid.ok()) << valid.error().message;
    // GPUTransformSDFG's output runs on a GPU (GPU_Device maps, GPU_Global data): the CPU
    // lowering used here refuses it. It is checked for structure here, for PTX by
    // ctest cuda.ptx_corpus (raw SDFGs after --auto gpu).
    if (name == "GPUTransformSDFG") {
      ++not_run_;
      return;
    }
    if (name == "MPITransformMap") as_one_rank(g);
    if (!seen_.insert(hash_without_history(g) + (optimized ? " O3" : " O0")).second) {
      ++same_;
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    Result<CompiledProgram> prog = optimized ? compile(g) : compile_unoptimized(g);
    ASSERT_TRUE(prog.ok()) << prog.error().message;
    run_corpus_case(cf_.dir, g, *prog);
    ++run_;
    ms_ += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }

  void summary() const {
    std::printf("[ checked ] %s: %d SDFGs compiled and run (%.0f ms), %d equal to one already run, %d not run%s\n",
                cf_.name.c_str(), run_, ms_, same_, not_run_,
                not_run_ ? " (GPUTransformSDFG: its output needs a GPU or the emulated device; validated only)" : "");
  }

 private:
  const CorpusFile& cf_;
  std::set<std::string> seen_;
  int run_ = 0, same_ = 0, not_run_ = 0;
  double ms_ = 0;
};

// Properties for transformations that apply nowhere with their defaults. AccumulateTransient
// needs the WCR's identity: 0, the sum's (every WCR at its matches in the corpus and in
// tests/data/transform_cases is a sum; another one would make the check fail, not pass).
const std::map<std::string, std::string> kTestProperties = {{"AccumulateTransient", R"({"identity": "0"})"}};

// Transformations that match what they create, so applying them until no match is left never
// ends: StripMining and MapTiling tile any map, their own tile maps and tiled maps included
// (in DaCe too); MapInterchange swaps the two maps back (in DaCe too); GPUTransformSDFG matches
// the whole SDFG, already transformed or not. Repeated, they are applied three times (the
// first legal match each time: for the tilings, the same map's tiles tiled again, nested
// ranges and all) and that result is checked.
const std::set<std::string> kMatchesItsOwnResult = {"GPUTransformSDFG", "MapInterchange", "MapTiling",
                                                    "StripMining"};

// Every registered pattern transformation (a new one is covered without editing this test),
// applied alone at each of its legal matches, each on a fresh copy of the file, and applied
// repeatedly until no match is left (as apply_repeated and `dace optimize --apply-repeated`
// do; bounded, see below): each result must validate and compute NumPy's outputs. Each match's
// result is compiled without LLVM's optimizations (ten times less time per SDFG); the repeated
// result with them too, so what only optimized code exposes is checked once per transformation.
TEST_P(CorpusOptimize, EachTransformationAtEveryMatchAndRepeatedMatchesNumPy) {
  const CorpusFile& cf = GetParam();
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  TransformedChecker checker(cf);
  for (const std::string& name : transform::registered_names()) {
    if (!transform::is_pattern_transformation(name)) continue;
    auto t = transform::make_transformation(name);
    if (auto p = kTestProperties.find(name); p != kTestProperties.end()) {
      Status set = t->properties().set_from_json(p->second);
      ASSERT_TRUE(set.ok()) << set.error().message;
    }
    transform::AnalysisManager am;
    std::vector<transform::Match> legal;
    for (const transform::Match& m : t->enumerate(**sdfg, am))
      if (t->can_be_applied(**sdfg, m, am)) legal.push_back(m);
    if (legal.empty()) continue;
    for (const transform::Match& m : legal) {
      SCOPED_TRACE(name + " at " + transform::to_string(m));
      std::unique_ptr<ir::SDFG> g = (*sdfg)->clone_sdfg();
      transform::AnalysisManager gam;
      Status a = transform::apply_at(*g, *t, m, gam);
      ASSERT_TRUE(a.ok()) << a.error().message;
      ASSERT_NO_FATAL_FAILURE(checker.check(name, *g));
    }
    SCOPED_TRACE(name + " repeated");
    std::unique_ptr<ir::SDFG> g = (*sdfg)->clone_sdfg();
    transform::AnalysisManager gam;
    // apply_repeated's loop (the first legal match until none is left), bounded: a
    // transformation that matches what it creates never runs out of matches.
    const bool rematches = kMatchesItsOwnResult.count(name) > 0;
    const size_t bound = rematches ? 3 : 4 * legal.size() + 8;
    size_t n = 0;
    bool left = true;
    while (n < bound) {
      Result<std::optional<transform::Match>> m = transform::apply_first(*g, *t, gam);
      ASSERT_TRUE(m.ok()) << m.error().message;
      if (!*m) {
        left = false;
        break;
      }
      ++n;
    }
    EXPECT_GE(n, 1u);
    EXPECT_TRUE(rematches || !left) << name << " still matches after " << n
                                    << " applications; if it matches what it creates, list it in kMatchesItsOwnResult";
    std::printf("[ applied ] %s: %s at each of %zu legal matches, repeated %zu times%s\n", cf.name.c_str(),
                name.c_str(), legal.size(), n, left ? " (stopped there: it matches what it creates)" : "");
    ASSERT_NO_FATAL_FAILURE(checker.check(name, *g));
    ASSERT_NO_FATAL_FAILURE(checker.check(name, *g, /*optimized=*/true));
  }
  checker.summary();
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusOptimize, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
