// Random sequences of optimizer steps on the corpus: from a fixed seed (deterministic), each
// step picks a registered pattern transformation that has a legal match (3 times in 4) or a
// registered pass, uniformly, then one of the transformation's legal matches uniformly, and
// applies it; after every step that changed something the SDFG must validate and still compute the corpus's NumPy outputs. The
// registry is read at run time, so transformations registered later take part without editing
// this test. At the end the recorded history must replay on the input to the same bytes, and
// a revert of a random number of steps must equal the replay of the rest.
//
// On a failure the trace names the seed, the file and the steps so far as a history JSON list:
// save it as HIST.json and `dace optimize FILE -o OUT --replay HIST.json` reproduces the
// SDFG; LIBDACE_RANDOM_SEED=<n> runs the test with another seed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform/apply.h"
#include "transform/history.h"
#include "transform/registry.h"
#include "transform/replay.h"
#include "transform/revert.h"

namespace dace::codegen::testing {
namespace {

constexpr uint64_t kDefaultSeed = 20261125;
constexpr int kSteps = 8;

uint64_t base_seed() {
  if (const char* s = std::getenv("LIBDACE_RANDOM_SEED"); s && *s) return std::strtoull(s, nullptr, 10);
  return kDefaultSeed;
}

// FNV-1a: each file gets its own stream, independent of the order the tests run in.
uint64_t seed_for(const std::string& name) {
  uint64_t h = 1469598103934665603ull ^ base_seed();
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

// Uniform in [0, n) from the raw engine output: std::uniform_int_distribution is not the same
// on every standard library, and the sequence must be.
size_t pick(std::mt19937_64& rng, size_t n) { return static_cast<size_t>(rng() % n); }

// The raw and simp files of the corpus (not the 2.0a5 copies: same kernels, and each step
// costs a compile).
std::vector<CorpusFile> files() {
  std::vector<CorpusFile> out;
  for (const CorpusFile& f : simp_and_raw_files(corpus_case_dirs()))
    if (f.name.rfind("v2_0a5_", 0) != 0) out.push_back(f);
  return out;
}

// One step: a pass (by name), or a pattern transformation at one of its legal matches.
struct Step {
  transform::HistoryEntry entry;
  size_t legal = 0;  // how many legal matches there were to choose from
};

// The candidates now: every pass, and every pattern transformation with a legal match. A
// pattern transformation is chosen 3 times in 4 when one applies (there are more passes than
// applicable patterns, and passes often find nothing to do).
std::optional<Step> choose(ir::SDFG& g, std::mt19937_64& rng) {
  std::vector<std::string> names, passes;
  std::vector<std::vector<transform::Match>> matches;
  for (const std::string& name : transform::registered_names()) {
    // GPUTransformSDFG and auto_optimize_gpu move the program to a GPU (GPU_Device maps,
    // GPU_Global data), which this test's CPU compile cannot run; the CUDA tests check them.
    // MPITransformMap's MPI maps need mpirun and the MPI plugin (CorpusOptimize runs it as
    // one rank; ctest mpi.map_schedule_np* under mpirun).
    if (name == "GPUTransformSDFG" || name == "auto_optimize_gpu" || name == "MPITransformMap") continue;
    if (!transform::is_pattern_transformation(name)) {
      passes.push_back(name);
      continue;
    }
    auto t = transform::make_transformation(name);
    transform::AnalysisManager am;
    std::vector<transform::Match> legal;
    for (const transform::Match& m : t->enumerate(g, am))
      if (t->can_be_applied(g, m, am)) legal.push_back(m);
    if (legal.empty()) continue;
    names.push_back(name);
    matches.push_back(std::move(legal));
  }
  Step s;
  if (names.empty() || pick(rng, 4) == 0) {
    if (passes.empty()) return std::nullopt;
    s.entry.transformation = passes[pick(rng, passes.size())];
    s.entry.kind = transform::HistoryEntry::Kind::Pass;
    s.entry.properties = transform::make_pass(s.entry.transformation)->properties().to_json();
    return s;
  }
  const size_t i = pick(rng, names.size());
  s.entry.transformation = names[i];
  s.legal = matches[i].size();
  s.entry.kind = transform::HistoryEntry::Kind::Pattern;
  s.entry.match = matches[i][pick(rng, matches[i].size())];
  s.entry.properties = transform::make_transformation(names[i])->properties().to_json();
  return s;
}

class TransformRandomSequence : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(TransformRandomSequence, EveryStepValidatesAndMatchesNumPy) {
  const CorpusFile& cf = GetParam();
  const uint64_t seed = seed_for(cf.name);
  std::mt19937_64 rng(seed);
  Result<std::unique_ptr<ir::SDFG>> loaded = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  ir::SDFG& g = **loaded;
  const size_t history_before = transform::history_size(g);

  std::vector<transform::HistoryEntry> done;  // the steps that changed something, as recorded
  std::string chosen;                          // every step chosen, for the log
  for (int step = 0; step < kSteps; ++step) {
    std::optional<Step> s = choose(g, rng);
    if (!s) break;
    chosen += (chosen.empty() ? "" : ", ") + s->entry.transformation +
              (s->legal ? " at " + transform::to_string(s->entry.match) + " (of " + std::to_string(s->legal) + ")" : "");
    SCOPED_TRACE("seed " + std::to_string(base_seed()) + ", file " + cf.sdfg + ", step " + std::to_string(step) + ": " +
                 s->entry.transformation + "\nsteps so far (replay with dace optimize FILE -o OUT --replay):\n" +
                 transform::history_json([&] {
                   std::vector<transform::HistoryEntry> all = done;
                   all.push_back(s->entry);
                   return all;
                 }()));
    transform::AnalysisManager am;
    Status applied = transform::apply_entry(g, s->entry, am);
    ASSERT_TRUE(applied.ok()) << applied.error().message;
    Status valid = analysis::validate(g);
    ASSERT_TRUE(valid.ok()) << valid.error().message;
    const std::vector<transform::HistoryEntry> now = transform::history_of(g);
    const size_t before = done.size();
    done.assign(now.begin() + static_cast<std::ptrdiff_t>(history_before), now.end());
    if (done.size() == before) continue;  // a pass that found nothing to do: same SDFG
    Result<CompiledProgram> prog = compile(g);
    ASSERT_TRUE(prog.ok()) << prog.error().message;
    run_corpus_case(cf.dir, g, *prog);
    if (HasFailure()) return;
  }
  std::printf("[ random ] %s (seed %llu): %s\n", cf.name.c_str(), static_cast<unsigned long long>(base_seed()),
              chosen.c_str());

  // The recorded history replays on the input to the same bytes.
  const std::string result = ir::json::write_sdfg(g);
  Result<std::unique_ptr<ir::SDFG>> fresh = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(fresh.ok());
  transform::AnalysisManager am;
  Status r = transform::replay(**fresh, done, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(ir::json::write_sdfg(**fresh), result) << "replay of: " << transform::history_json(done);

  // Reverting some of this run's steps equals replaying the others (files with a history of
  // their own and no original cannot be reverted).
  if (done.empty() || history_before > 0) return;
  const size_t k = 1 + pick(rng, done.size());
  Result<std::unique_ptr<ir::SDFG>> back = transform::reverted(g, k);
  ASSERT_TRUE(back.ok()) << back.error().message;
  Result<std::unique_ptr<ir::SDFG>> prefix = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(prefix.ok());
  const std::vector<transform::HistoryEntry> kept(done.begin(), done.end() - static_cast<std::ptrdiff_t>(k));
  ASSERT_TRUE(transform::replay(**prefix, kept, am).ok());
  EXPECT_EQ(ir::json::write_sdfg(**back), ir::json::write_sdfg(**prefix)) << "revert " << k << " of "
                                                                          << transform::history_json(done);
}

INSTANTIATE_TEST_SUITE_P(Corpus, TransformRandomSequence, ::testing::ValuesIn(files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.name; });

}  // namespace
}  // namespace dace::codegen::testing
