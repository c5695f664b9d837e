// GPUTransformSDFG on top-level nested SDFGs: DaCe 1.0.2 moves their bodies to the GPU too
// (recursively, every free tasklet of a GPU_Default body into a one-point kernel), so that
// the final simplify, which inlines them, leaves no host access to device data. The
// reference is DaCe itself: tests/data/gpu_transform/generate.py stores DaCe's result on
// mandelbrot1's raw SDFG (its two `linspace` calls are nested SDFGs with free tasklets).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus_case.h"
#include "cuda_emulation_support.h"
#include "ir/json/sdfg_json.h"
#include "transform/auto_optimize.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kDaCe = fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "gpu_transform";

// How many containers of each (type, storage, transient) and scheduled nodes of each
// (type, schedule) an SDFG and its nested SDFGs hold. Names are left out: DaCe and libdace
// inline the two `linspace` bodies in different orders, so their renamed transients differ.
void census(const nlohmann::json& sdfg, std::map<std::string, int>& out) {
  for (const auto& [name, desc] : sdfg["attributes"]["_arrays"].items()) {
    const nlohmann::json& a = desc["attributes"];
    out["array " + desc["type"].get<std::string>() + " " + a.value("storage", "Default") +
        (a.value("transient", false) ? " transient" : "")]++;
  }
  std::vector<const nlohmann::json*> regions{&sdfg};
  while (!regions.empty()) {
    const nlohmann::json& region = *regions.back();
    regions.pop_back();
    for (const nlohmann::json& block : region["nodes"]) {
      if (block["type"] != "SDFGState") {
        if (block.contains("nodes")) regions.push_back(&block);
        if (block.contains("branches"))
          for (const nlohmann::json& branch : block["branches"]) regions.push_back(&branch[1]);
        continue;
      }
      for (const nlohmann::json& node : block["nodes"]) {
        const nlohmann::json& a = node["attributes"];
        if (a.contains("schedule")) out["node " + node["type"].get<std::string>() + " " + a["schedule"].get<std::string>()]++;
        if (node["type"] == "NestedSDFG") census(a["sdfg"], out);
      }
    }
  }
}

std::map<std::string, int> census_of(const ir::SDFG& g) {
  std::map<std::string, int> out;
  census(nlohmann::json::parse(ir::json::write_sdfg(g)), out);
  return out;
}

std::string raw_mandelbrot1() { return std::string(LIBDACE_CORPUS_DIR) + "/mandelbrot1/mandelbrot1.raw.sdfg"; }

TEST(TransformGPUTransformNested, Mandelbrot1StoragesAndSchedulesEqualDaCesAndMatchNumPyEmulated) {
  if (!fs::exists(raw_mandelbrot1())) GTEST_SKIP() << "no corpus at " << LIBDACE_CORPUS_DIR;
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(raw_mandelbrot1());
  ASSERT_TRUE(g.ok()) << g.error().message;
  Result<std::unique_ptr<ir::SDFG>> dace = ir::json::read_sdfg_file((kDaCe / "mandelbrot1.dace.sdfgz").string());
  ASSERT_TRUE(dace.ok()) << dace.error().message;
  ASSERT_TRUE(apply_once(**g, "GPUTransformSDFG"));
  // Validation refuses host code touching GPU_Global data: before the bodies moved, the
  // inlined `linspace` tasklets wrote a GPU_Global scalar on the host.
  Status valid = analysis::validate(**g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  const std::map<std::string, int> ours = census_of(**g), theirs = census_of(**dace);
  EXPECT_GE(theirs.count("node MapEntry GPU_Device"), 1u) << "the generated reference changed";
  EXPECT_EQ(ours, theirs);

  REQUIRE_CUDA_PLUGIN();
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile_emulated(**g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(std::string(LIBDACE_CORPUS_DIR) + "/mandelbrot1", **g, *prog);
}

// A nested SDFG that writes its output with write-conflict resolution (NumPy's
// `H[idx[i]] += 1` as DaCe's frontend writes it: the nested SDFG's outer memlet covers all of
// H, its inner edge adds) reads the output too: H's values must reach the device before the
// kernel adds to them. Before, H counted as fully written and started from the device's
// uninitialized memory (all 5 bins wrong, emulated).
TEST(TransformGPUTransformNested, OutputWrittenWithWcrInsideANestedSdfgIsCopiedIn) {
  const fs::path dir = fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "frontend" / "histogram";
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file((dir / "histogram.raw.sdfgz").string());
  ASSERT_TRUE(g.ok()) << g.error().message;
  ASSERT_TRUE(apply_once(**g, "GPUTransformSDFG"));
  Status valid = analysis::validate(**g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  // The copy-in state copies H to its device clone.
  bool copied_in = false;
  for (const ir::State* st : (*g)->all_states())
    for (int e : st->edge_ids()) {
      const ir::DataflowEdge* edge = st->edge(e);
      const ir::Node* src = st->node(edge->src);
      const ir::Node* dst = st->node(edge->dst);
      if (src->kind == ir::NodeKind::Access && dst->kind == ir::NodeKind::Access &&
          static_cast<const ir::AccessNode*>(src)->data == "H" && static_cast<const ir::AccessNode*>(dst)->data != "H")
        copied_in = true;
    }
  EXPECT_TRUE(copied_in) << "no copy of H to the device";
  REQUIRE_CUDA_PLUGIN();
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile_emulated(**g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(dir.string(), **g, *prog);
}

// A triangular loop nest (`for i: for j in range(i + 1): B[i, j] = ...`) becomes a map over i
// whose propagated memlet covers all of B: the map does not write all of it, so B is copied
// to the device first (before, its upper triangle came back as the device's uninitialized
// memory: inf and garbage). Through the whole GPU pipeline, emulated, against NumPy.
TEST(TransformGPUTransformNested, MapWritingPartOfItsPropagatedRangeCopiesTheOutputIn) {
  const fs::path dir = fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "frontend" / "lower_tri";
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file((dir / "lower_tri.raw.sdfgz").string());
  ASSERT_TRUE(g.ok()) << g.error().message;
  std::unique_ptr<Pipeline> pipeline = make_auto_optimize_gpu_pipeline();
  AnalysisManager am;
  Result<bool> r = pipeline->apply(**g, am);
  ASSERT_TRUE(r.ok()) << r.error().message;
  Status valid = analysis::validate(**g);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  REQUIRE_CUDA_PLUGIN();
  Result<codegen::testing::CompiledProgram> prog = codegen::testing::compile_emulated(**g);
  ASSERT_TRUE(prog.ok()) << prog.error().message;
  codegen::testing::run_corpus_case(dir.string(), **g, *prog);
}

}  // namespace
}  // namespace dace::transform::testing
