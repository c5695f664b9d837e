// InlineSDFG on nested SDFG nodes whose schedule is not Default: DaCe 1.0.2 re-defaults the
// nested SDFG's Default schedules and storages from the node's schedule before inlining
// (set_default_schedule_and_storage_types, with its GPU thread-block cases). The inputs and
// DaCe's own results come from tests/data/inline_schedules/generate.py (DaCe 1.0.2 applying
// its InlineSDFG to the same input); every schedule and storage of our result must equal
// DaCe's, and the CPU cases must still compute NumPy's outputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus_case.h"
#include "ir/json/sdfg_json.h"
#include "transform_test_support.h"

namespace dace::transform::testing {
namespace {

namespace fs = std::filesystem;
using codegen::testing::CompiledProgram;

const fs::path kRoot = fs::path(LIBDACE_SOURCE_DIR) / "tests" / "data" / "inline_schedules";

// "node <nested labels/>label" -> schedule and "array <nested labels/>name" -> storage, from
// the SDFG's JSON (an absent property is DaCe's default, Default).
void collect(const nlohmann::json& sdfg, const std::string& prefix, std::map<std::string, std::string>& out) {
  for (const auto& [name, desc] : sdfg["attributes"]["_arrays"].items())
    out["array " + prefix + name] = desc["attributes"].value("storage", "Default");
  std::vector<const nlohmann::json*> regions{&sdfg};
  while (!regions.empty()) {
    const nlohmann::json& region = *regions.back();
    regions.pop_back();
    for (const nlohmann::json& block : region["nodes"]) {
      if (block["type"] != "SDFGState") {
        if (block.contains("nodes")) regions.push_back(&block);
        continue;
      }
      for (const nlohmann::json& node : block["nodes"]) {
        const nlohmann::json& a = node["attributes"];
        const std::string label = a.value("label", "");
        if (a.contains("schedule")) out["node " + prefix + label] = a["schedule"].get<std::string>();
        if (node["type"] == "NestedSDFG") collect(a["sdfg"], prefix + label + "/", out);
      }
    }
  }
}

std::map<std::string, std::string> properties(const ir::SDFG& g) {
  std::map<std::string, std::string> out;
  collect(nlohmann::json::parse(ir::json::write_sdfg(g)), "", out);
  return out;
}

std::unique_ptr<ir::SDFG> read(const fs::path& file) {
  Result<std::unique_ptr<ir::SDFG>> g = ir::json::read_sdfg_file(file.string());
  EXPECT_TRUE(g.ok()) << file << ": " << (g.ok() ? "" : g.error().message);
  return g.ok() ? std::move(*g) : nullptr;
}

TEST(TransformInlineSchedules, SchedulesAndStoragesEqualDaCesAndCpuCasesMatchNumPy) {
  int cases = 0, runs = 0;
  for (const char* name : {"multicore", "multicore_node", "multicore_deep", "sequential", "gpu_threadblock",
                           "gpu_device", "gpu_device_sequential", "gpu_device_dynamic", "gpu_default"}) {
    SCOPED_TRACE(name);
    const fs::path dir = kRoot / name;
    std::unique_ptr<ir::SDFG> g = read(dir / (std::string(name) + ".sdfgz"));
    std::unique_ptr<ir::SDFG> dace = read(dir / (std::string(name) + ".dace.sdfgz"));
    ASSERT_TRUE(g && dace);
    ASSERT_TRUE(apply_once(*g, "InlineSDFG"));
    EXPECT_EQ(count_nodes(*g, ir::NodeKind::NestedSDFG), count_nodes(*dace, ir::NodeKind::NestedSDFG));
    const std::map<std::string, std::string> ours = properties(*g), theirs = properties(*dace);
    EXPECT_TRUE(theirs.count("array tmp") && theirs.count("node first")) << "the generated cases changed";
    EXPECT_EQ(ours, theirs);
    ++cases;
    if (!fs::exists(dir / "case.json")) continue;  // GPU cases: schedules and storages only
    Result<CompiledProgram> prog = codegen::testing::compile(*g);
    ASSERT_TRUE(prog.ok()) << prog.error().message;
    codegen::testing::run_corpus_case(dir.string(), *g, *prog);
    ++runs;
  }
  EXPECT_EQ(cases, 9);
  EXPECT_EQ(runs, 4);
}

// The FPGA case stays refused (DaCe never inlines FPGA_Device nested SDFGs), and nothing
// changes: the refusal must come from the schedule, since the same SDFG inlines otherwise.
TEST(TransformInlineSchedules, RefusesAnFpgaNodeAndLeavesTheSdfgUnchanged) {
  std::unique_ptr<ir::SDFG> g = read(kRoot / "multicore" / "multicore.sdfgz");
  ASSERT_TRUE(g);
  for (const ir::State* st : g->all_states())
    for (int n : st->node_ids())
      if (st->node(n)->kind == ir::NodeKind::NestedSDFG)
        static_cast<ir::NestedSDFGNode*>(const_cast<ir::Node*>(st->node(n)))->schedule = ir::ScheduleType::FPGA_Device;
  const std::string before = ir::json::write_sdfg(*g);
  std::string why;
  EXPECT_FALSE(applies_anywhere(*g, "InlineSDFG", &why));
  EXPECT_NE(why.find("FPGA_Device"), std::string::npos) << why;
  EXPECT_EQ(ir::json::write_sdfg(*g), before);
}

}  // namespace
}  // namespace dace::transform::testing
