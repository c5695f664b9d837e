// Instrumentation (docs/instrumentation.md): off costs nothing (the IR is byte-identical to
// an SDFG that never had a timer), the property is part of the content hash (the JIT cache
// key), types libdace does not implement are refused naming the element, and a timed
// program reports its SDFG, state and map with DaCe's locators, nested in time.
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "capi_program_test_util.h"
#include "codegen/lower.h"
#include "cpu_test_registry.h"
#include "ir/equality.h"
#include "ir/instrument.h"
#include "ir/json/sdfg_json.h"
#include "ir/path.h"

namespace dace {
namespace {

Result<codegen::LoweredModule> lower_with_cpu(const ir::SDFG& g, llvm::LLVMContext& ctx) {
  codegen::LowerOptions options;
  options.registry = &codegen::testing::cpu_schedule_registry();
  return codegen::lower(g, ctx, options);
}

std::string lower_text(const ir::SDFG& g) {
  llvm::LLVMContext ctx;
  Result<codegen::LoweredModule> m = lower_with_cpu(g, ctx);
  EXPECT_TRUE(m.ok()) << m.error().message;
  return m.ok() ? codegen::module_text(*m->module) : std::string();
}

std::unique_ptr<ir::SDFG> corpus(const char* kernel) {
  std::string path = std::string(LIBDACE_CORPUS_DIR) + "/" + kernel;
  if (!std::filesystem::exists(path)) return nullptr;
  auto g = ir::json::read_sdfg_file(path);
  EXPECT_TRUE(g.ok()) << g.error().message;
  return g.ok() ? std::move(*g) : nullptr;
}

TEST(InstrumentIr, OffIsByteIdenticalAndOnChangesTheCacheKey) {
  for (const char* kernel : {"heat_3d/heat_3d.simp.sdfg", "gemm/gemm.simp.sdfg", "jacobi_2d/jacobi_2d.raw.sdfg"}) {
    auto g = corpus(kernel);
    if (!g) GTEST_SKIP() << "corpus not found at " << LIBDACE_CORPUS_DIR;
    const std::string hash0 = ir::content_hash(*g);
    const std::string text0 = lower_text(*g);
    ASSERT_FALSE(text0.empty());
    EXPECT_EQ(text0.find("__dace_instr"), std::string::npos) << kernel;
    EXPECT_EQ(text0.find("clock_gettime"), std::string::npos) << kernel;

    auto all = ir::parse_instrument_selection("all");
    ASSERT_TRUE(all.ok());
    EXPECT_GT(ir::apply_instrument_selection(*g, *all), 1) << kernel;
    EXPECT_NE(ir::content_hash(*g), hash0) << kernel << ": timers must change the JIT cache key";
    const std::string timed = lower_text(*g);
    EXPECT_NE(timed.find("__dace_instr_elements"), std::string::npos) << kernel;
    EXPECT_NE(timed.find("clock_gettime"), std::string::npos) << kernel;

    auto none = ir::parse_instrument_selection("none");
    ASSERT_TRUE(none.ok());
    ir::apply_instrument_selection(*g, *none);
    EXPECT_EQ(ir::content_hash(*g), hash0) << kernel;
    EXPECT_EQ(lower_text(*g), text0) << kernel << ": the IR with timers removed must be byte-identical";
  }
}

// DaCe's explicit default, as its 0.14-era files write it, reads as no instrumentation.
TEST(InstrumentIr, ExplicitNoInstrumentationInJsonIsTheDefault) {
  auto g = corpus("heat_3d/heat_3d.simp.sdfg");
  if (!g) GTEST_SKIP() << "corpus not found at " << LIBDACE_CORPUS_DIR;
  nlohmann::json doc = nlohmann::json::parse(ir::json::write_sdfg(*g));
  // Every state and node of the root region gets an explicit "instrument": "No_Instrumentation".
  size_t added = 0;
  for (auto& block : doc["nodes"]) {
    if (block["type"] != "SDFGState") continue;
    block["attributes"]["instrument"] = "No_Instrumentation";
    ++added;
    for (auto& node : block["nodes"]) {
      node["attributes"]["instrument"] = "No_Instrumentation";
      ++added;
    }
  }
  doc["attributes"]["instrument"] = "No_Instrumentation";
  ASSERT_GT(added, 1u);
  const std::string text = doc.dump();
  auto h = ir::json::read_sdfg(text);
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(ir::content_hash(**h), ir::content_hash(*g));
  EXPECT_EQ(lower_text(**h), lower_text(*g));
}

TEST(InstrumentIr, TypesLibdaceDoesNotImplementAreRefusedNamingTheElement) {
  auto g = corpus("heat_3d/heat_3d.simp.sdfg");
  if (!g) GTEST_SKIP() << "corpus not found at " << LIBDACE_CORPUS_DIR;
  ir::State* state = g->all_states().back();
  state->extra["instrument"] = "\"PAPI_Counters\"";  // as DaCe writes it into a file
  llvm::LLVMContext ctx;
  Result<codegen::LoweredModule> m = lower_with_cpu(*g, ctx);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, Code::Unsupported);
  EXPECT_NE(m.error().message.find(ir::path_of(*g, *state)), std::string::npos) << m.error().message;
  EXPECT_NE(m.error().message.find("PAPI_Counters"), std::string::npos) << m.error().message;

  state->extra.erase("instrument");
  for (int id : state->node_ids())
    if (state->node(id)->kind == ir::NodeKind::Access) {
      state->node(id)->extra["instrument"] = "\"Save\"";  // DaCe's DataInstrumentationType
      llvm::LLVMContext ctx2;
      Result<codegen::LoweredModule> m2 = lower_with_cpu(*g, ctx2);
      ASSERT_FALSE(m2.ok());
      EXPECT_NE(m2.error().message.find(ir::path_of_node(*g, *state, id)), std::string::npos) << m2.error().message;
      break;
    }
}

TEST(InstrumentSelection, ParsesDaceStyleWordsAndRefusesOthers) {
  auto s = ir::parse_instrument_selection("states,maps");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->states && s->maps && !s->program && !s->nodes && !s->none);
  EXPECT_FALSE(ir::parse_instrument_selection("maps,loops").ok());
  EXPECT_FALSE(ir::parse_instrument_selection("").ok());
  EXPECT_FALSE(ir::parse_instrument_selection("Maps").ok());
}

// The axpb program with timers on the SDFG, its only state and its map, called through the
// C API: three events per call, located as DaCe locates them, the map inside the state
// inside the program, the outputs unchanged, one file per call in the chosen directory.
TEST(CapiInstrument, ReportOfATimedProgram) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("axpb_timed");
  dace_id_t state = -1;
  ASSERT_DACE_OK(dace_sdfg_find_block(&state, sdfg, "s0"));
  size_t count = 0;
  ASSERT_DACE_OK(dace_state_list_nodes(nullptr, 0, &count, sdfg, state));
  std::vector<dace_id_t> nodes(count);
  ASSERT_DACE_OK(dace_state_list_nodes(nodes.data(), count, &count, sdfg, state));
  dace_id_t entry = -1;
  size_t entry_dense = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    dace_node_kind_t kind;
    ASSERT_DACE_OK(dace_node_get_kind(&kind, sdfg, state, nodes[i]));
    if (kind == DACE_NODE_MAP_ENTRY) {
      entry = nodes[i];
      entry_dense = i;
    }
  }
  ASSERT_GE(entry, 0);
  const char* v = nullptr;
  ASSERT_DACE_OK(dace_node_get_label(&v, sdfg, state, entry));
  const std::string map_event = std::string("Map ") + v;  // DaCe's name: "Map <label>"
  ASSERT_DACE_OK(dace_node_get_instrument(&v, sdfg, state, entry));
  EXPECT_STREQ(v, "No_Instrumentation");
  ASSERT_DACE_OK(dace_sdfg_set_instrument(sdfg, "Timer"));
  ASSERT_DACE_OK(dace_state_set_instrument(sdfg, state, "Timer"));
  ASSERT_DACE_OK(dace_node_set_instrument(sdfg, state, entry, "Timer"));
  ASSERT_DACE_OK(dace_sdfg_get_instrument(&v, sdfg));
  EXPECT_STREQ(v, "Timer");
  ASSERT_DACE_OK(dace_state_get_instrument(&v, sdfg, state));
  EXPECT_STREQ(v, "Timer");
  ASSERT_DACE_OK(dace_node_get_instrument(&v, sdfg, state, entry));
  EXPECT_STREQ(v, "Timer");
  // The property is DaCe's and survives a save/load round trip.
  char* json = nullptr;
  ASSERT_DACE_OK(dace_sdfg_to_json(&json, sdfg, nullptr));
  EXPECT_NE(std::string(json).find("\"instrument\": \"Timer\""), std::string::npos);
  dace_string_free(json);

  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("libdace_instrument_test_" + std::to_string(::getpid())))
                              .string();
  std::filesystem::remove_all(dir);
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  ASSERT_DACE_OK(dace_context_set_option(ctx, "instrument_dir", dir.c_str()));
  dace_program_t* program = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&program, ctx, sdfg, nullptr));
  EXPECT_DACE_ERROR(dace_program_last_report(&v, nullptr, program), DACE_ERROR_NOT_FOUND, "not called");

  const size_t n = 1 << 16;
  std::vector<double> a(n), b(n, -1.0);
  for (size_t i = 0; i < n; ++i) a[i] = 0.25 * static_cast<double>(i) - 7;
  std::set<std::string> paths;
  for (int call = 0; call < 2; ++call) {
    ASSERT_DACE_OK(capi_test::call_axpb(program, a, b, 1.5));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(b[i], a[i] * 2 + 1.5) << i;
    const char* report = nullptr;
    const char* path = nullptr;
    ASSERT_DACE_OK(dace_program_last_report(&report, &path, program));
    ASSERT_NE(path, nullptr);
    paths.insert(path);
    std::ifstream in(path);
    std::stringstream file;
    file << in.rdbuf();
    EXPECT_EQ(file.str(), std::string(report) + "\n");
    nlohmann::json r = nlohmann::json::parse(report);
    ASSERT_TRUE(r.contains("sdfgHash"));
    const auto& events = r["traceEvents"];
    ASSERT_EQ(events.size(), 3u) << report;
    std::map<std::string, nlohmann::json> by_name;
    for (const auto& e : events) {
      EXPECT_EQ(e["ph"], "X");
      EXPECT_EQ(e["cat"], "Timer");
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      by_name[e["name"].get<std::string>()] = e;
    }
    ASSERT_TRUE(by_name.count("SDFG axpb_timed")) << report;
    ASSERT_TRUE(by_name.count("State s0")) << report;
    ASSERT_TRUE(by_name.count(map_event)) << report;
    const auto& p = by_name["SDFG axpb_timed"];
    const auto& s = by_name["State s0"];
    const auto& m = by_name[map_event];
    EXPECT_EQ(p["args"], nlohmann::json({{"cfg_id", 0}}));
    EXPECT_EQ(s["args"], nlohmann::json({{"cfg_id", 0}, {"state_id", 0}}));
    EXPECT_EQ(m["args"], nlohmann::json({{"cfg_id", 0}, {"state_id", 0}, {"id", static_cast<int>(entry_dense)}}));
    auto end = [](const nlohmann::json& e) { return e["ts"].get<double>() + e["dur"].get<double>(); };
    EXPECT_LE(p["ts"].get<double>(), s["ts"].get<double>());
    EXPECT_LE(s["ts"].get<double>(), m["ts"].get<double>());
    EXPECT_LE(end(m), end(s));
    EXPECT_LE(end(s), end(p));
  }
  EXPECT_EQ(paths.size(), 2u) << "one report file per call";
  dace_program_release(program);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
  std::filesystem::remove_all(dir);
}

// A timer on the tasklet inside axpb's parallel map: one event per iteration, recorded by
// whichever thread ran it. The SDFG, state and map are timed by the calling thread (tid 0);
// the threads are numbered densely; one thread runs one iteration at a time, so the events
// of one tid never overlap (all on one track, as before per-thread ids, they would as soon
// as two threads ran together); every iteration lies inside the map's span.
TEST(CapiInstrument, EventsInsideAParallelMapCarryTheirThread) {
  dace_sdfg_t* sdfg = capi_test::make_axpb("axpb_threads");
  dace_id_t state = -1;
  ASSERT_DACE_OK(dace_sdfg_find_block(&state, sdfg, "s0"));
  size_t count = 0;
  ASSERT_DACE_OK(dace_state_list_nodes(nullptr, 0, &count, sdfg, state));
  std::vector<dace_id_t> nodes(count);
  ASSERT_DACE_OK(dace_state_list_nodes(nodes.data(), count, &count, sdfg, state));
  for (dace_id_t node : nodes) {
    dace_node_kind_t kind;
    ASSERT_DACE_OK(dace_node_get_kind(&kind, sdfg, state, node));
    if (kind == DACE_NODE_MAP_ENTRY || kind == DACE_NODE_TASKLET) {
      ASSERT_DACE_OK(dace_node_set_instrument(sdfg, state, node, "Timer"));
    }
  }
  ASSERT_DACE_OK(dace_state_set_instrument(sdfg, state, "Timer"));
  ASSERT_DACE_OK(dace_sdfg_set_instrument(sdfg, "Timer"));
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  ASSERT_DACE_OK(dace_context_set_option(ctx, "instrument_dir", "-"));
  dace_compile_options_t options = DACE_COMPILE_OPTIONS_INIT;
  options.num_threads = 2;
  dace_program_t* program = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&program, ctx, sdfg, &options));

  const size_t n = 20000;
  std::vector<double> a(n), b(n, 0.0);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<double>(i % 97) - 3;
  size_t most_threads = 0;
  for (int call = 0; call < 3; ++call) {
    ASSERT_DACE_OK(capi_test::call_axpb(program, a, b, 0.5));
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(b[i], a[i] * 2 + 0.5) << i;
    const char* report = nullptr;
    ASSERT_DACE_OK(dace_program_last_report(&report, nullptr, program));
    nlohmann::json r = nlohmann::json::parse(report);
    std::map<int, std::vector<std::pair<double, double>>> tasklets_by_tid;
    double map_start = -1, map_end = -1;
    size_t tasklets = 0;
    for (const auto& e : r["traceEvents"]) {
      const std::string name = e["name"];
      const int tid = e["tid"];
      const double ts = e["ts"], end = ts + e["dur"].get<double>();
      if (name.rfind("Tasklet ", 0) == 0) {
        ++tasklets;
        tasklets_by_tid[tid].push_back({ts, end});
      } else {
        EXPECT_EQ(tid, 0) << name << " is timed by the calling thread";
        if (name.rfind("Map ", 0) == 0) map_start = ts, map_end = end;
      }
    }
    ASSERT_EQ(tasklets, n) << "one event per iteration";
    ASSERT_GE(map_start, 0.0);
    ASSERT_LE(tasklets_by_tid.size(), 2u) << "two threads run the map";
    int expect_tid = tasklets_by_tid.count(0) ? 0 : 1;  // the caller may have left every piece to a helper
    for (auto& [tid, spans] : tasklets_by_tid) {
      EXPECT_EQ(tid, expect_tid++) << "dense thread numbers";
      std::sort(spans.begin(), spans.end());
      for (size_t i = 0; i < spans.size(); ++i) {
        EXPECT_GE(spans[i].first, map_start);
        EXPECT_LE(spans[i].second, map_end);
        if (i) {
          ASSERT_GE(spans[i].first, spans[i - 1].second) << "tid " << tid << ": overlapping iterations";
        }
      }
    }
    most_threads = std::max(most_threads, tasklets_by_tid.size());
  }
  if (most_threads < 2) std::printf("note: one thread ran every iteration in all calls (loaded machine)\n");
  dace_program_release(program);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

}  // namespace
}  // namespace dace
