// Status-contract rows of the transformation functions (libdace.h, "Transformations"): NULL
// arguments, unknown names (NOT_FOUND listing the known ones), malformed properties JSON
// (PARSE), properties that are no object or name an unknown property (INVALID_ARGUMENT), a
// location whose element does not exist or where the pattern does not apply
// (INVALID_ARGUMENT, naming it), an invalid SDFG (INVALID_SDFG), and histories that do not
// replay or revert. run_rows checks that the SDFG saves byte-identically after each failed call.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "capi_program_test_util.h"
#include "capi_status_contract.h"

namespace capi_contract {
namespace {

dace_sdfg_t* nested_of(Fixture& f) {
  dace_sdfg_t* n = nullptr;
  if (dace_node_get_nested_sdfg(&n, f.sdfg, f.s1, f.nested) != DACE_OK) return nullptr;
  return n;
}

// A location in the fixture's state s0 (DaCe node ids: s0 is block 0 of cfg 0).
std::string at_s0(dace_id_t a, dace_id_t b) {
  return "{\"cfg_id\": 0, \"state_id\": 0, \"_subgraph\": {\"0\": " + std::to_string(a) + ", \"1\": " +
         std::to_string(b) + "}}";
}

// The fixture SDFG is not valid (isolated nodes), so rows that need a valid SDFG call on
// a small valid one (axpb: A -> map -> tasklet -> map -> B in state 0) and check here that
// the failed call left it byte-identical.
std::string json_text(const dace_sdfg_t* sdfg) {
  char* json = nullptr;
  if (dace_sdfg_to_json(&json, sdfg, nullptr) != DACE_OK) return "<to_json failed>";
  std::string out(json);
  dace_string_free(json);
  return out;
}

template <class Call>
dace_status_t on_valid(Fixture& f, Call call) {
  dace_sdfg_t* g = capi_test::make_axpb("valid");
  const std::string before = json_text(g);
  const dace_status_t st = call(g);
  f.check(json_text(g) == before, "the valid SDFG changed in a failed call");
  dace_sdfg_release(g);
  return st;
}

// The valid SDFG given a one-entry history and itself as the original, its saved JSON edited by `edit` (to drop the
// original, or to put an entry there that does not apply), then the revert of 1 step.
template <class Edit>
dace_status_t revert_edited(Fixture& f, Edit edit) {
  return on_valid(f, [&](dace_sdfg_t* g) -> dace_status_t {
    nlohmann::json j = nlohmann::json::parse(json_text(g));
    j["attributes"]["transformation_hist"] =
        nlohmann::json::parse(R"([{"type": "Pass", "transformation": "RemoveUnusedSymbols", "recursive": true}])");
    j["attributes"]["orig_sdfg"] = nlohmann::json::parse(json_text(g));
    edit(j);
    dace_sdfg_t* edited = nullptr;
    if (dace_sdfg_load_string(&edited, j.dump().c_str()) != DACE_OK) return DACE_OK;
    const std::string before = json_text(edited);
    const dace_status_t st = dace_sdfg_revert_history(edited, 1);
    f.check(json_text(edited) == before, "the edited SDFG changed in a failed revert");
    dace_sdfg_release(edited);
    return st;
  });
}

}  // namespace

std::vector<Row> rows_transform() {
  return {
      // --- simplify
      {"dace_sdfg_simplify", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_simplify(nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_simplify", "an invalid SDFG", CONTRACT_CALL { return dace_sdfg_simplify(f.sdfg); },
       DACE_ERROR_INVALID_SDFG, {"simplify", "\"contract\""}},
      {"dace_sdfg_simplify", "borrowed nested SDFG",
       CONTRACT_CALL { return dace_sdfg_simplify(nested_of(f)); }, DACE_ERROR_INVALID_ARGUMENT,
       {"nested", "top-level"}},

      // --- auto_optimize
      {"dace_sdfg_auto_optimize", "NULL sdfg",
       CONTRACT_CALL { return dace_sdfg_auto_optimize(nullptr, DACE_DEVICE_CPU, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_auto_optimize", "an invalid SDFG",
       CONTRACT_CALL { return dace_sdfg_auto_optimize(f.sdfg, DACE_DEVICE_CPU, nullptr); }, DACE_ERROR_INVALID_SDFG,
       {"auto_optimize", "\"contract\""}},
      {"dace_sdfg_auto_optimize", "borrowed nested SDFG",
       CONTRACT_CALL { return dace_sdfg_auto_optimize(nested_of(f), DACE_DEVICE_CPU, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"nested", "top-level"}},
      {"dace_sdfg_auto_optimize", "GPU device, unknown option",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) {
           return dace_sdfg_auto_optimize(g, DACE_DEVICE_GPU, "{\"block_size\": 64}");
         });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"auto_optimize_gpu", "block_size"}},
      {"dace_sdfg_auto_optimize", "GPU device, options no object",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) { return dace_sdfg_auto_optimize(g, DACE_DEVICE_GPU, "[1]"); });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"auto_optimize_gpu", "object"}},
      {"dace_sdfg_auto_optimize", "GPU device, an invalid SDFG",
       CONTRACT_CALL { return dace_sdfg_auto_optimize(f.sdfg, DACE_DEVICE_GPU, nullptr); }, DACE_ERROR_INVALID_SDFG,
       {"auto_optimize_gpu", "\"contract\""}},
      {"dace_sdfg_auto_optimize", "unknown device",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) { return dace_sdfg_auto_optimize(g, static_cast<dace_device_t>(7), nullptr); });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"device", "7"}},
      {"dace_sdfg_auto_optimize", "malformed options JSON",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) { return dace_sdfg_auto_optimize(g, DACE_DEVICE_CPU, "{oops"); });
       },
       DACE_ERROR_PARSE, {"auto_optimize", "options"}},
      {"dace_sdfg_auto_optimize", "unknown option",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) {
           return dace_sdfg_auto_optimize(g, DACE_DEVICE_CPU, "{\"tile_size\": 4}");
         });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"tile_size"}},

      // --- the registry
      {"dace_sdfg_transformation_count", "NULL out_count",
       CONTRACT_CALL { return dace_sdfg_transformation_count(nullptr); }, DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_sdfg_transformation_name", "NULL out_name",
       CONTRACT_CALL { return dace_sdfg_transformation_name(nullptr, 0); }, DACE_ERROR_INVALID_ARGUMENT, {"out_name"}},
      {"dace_sdfg_transformation_name", "index past the count",
       CONTRACT_CALL {
         const char* s = kStr;
         dace_status_t st = dace_sdfg_transformation_name(&s, 100000);
         f.kept(s == kStr, "out_name");
         return st;
       },
       DACE_ERROR_NOT_FOUND, {"index 100000"}},
      {"dace_sdfg_transformation_is_pass", "NULL out_is_pass",
       CONTRACT_CALL { return dace_sdfg_transformation_is_pass(nullptr, "MapFusion"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_is_pass"}},
      {"dace_sdfg_transformation_is_pass", "NULL name",
       CONTRACT_CALL {
         int32_t p = 7;
         dace_status_t st = dace_sdfg_transformation_is_pass(&p, nullptr);
         f.kept(p == 7, "out_is_pass");
         return st;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_transformation_is_pass", "unknown name",
       CONTRACT_CALL {
         int32_t p = 7;
         dace_status_t st = dace_sdfg_transformation_is_pass(&p, "NoSuchFusion");
         f.kept(p == 7, "out_is_pass");
         return st;
       },
       DACE_ERROR_NOT_FOUND, {"NoSuchFusion", "MapFusion", "simplify"}},
      {"dace_sdfg_transformation_is_pass", "empty name",
       CONTRACT_CALL {
         int32_t p = 7;
         return dace_sdfg_transformation_is_pass(&p, "");
       },
       DACE_ERROR_NOT_FOUND, {"unknown transformation"}},

      // --- matches
      {"dace_sdfg_match_transformation", "NULL out_matches_json",
       CONTRACT_CALL { return dace_sdfg_match_transformation(nullptr, f.sdfg, "MapFusion", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_matches_json"}},
      {"dace_sdfg_match_transformation", "NULL sdfg",
       CONTRACT_CALL {
         const char* s = kStr;
         dace_status_t st = dace_sdfg_match_transformation(&s, nullptr, "MapFusion", nullptr);
         f.kept(s == kStr, "out_matches_json");
         return st;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_match_transformation", "unknown name",
       CONTRACT_CALL {
         const char* s = kStr;
         dace_status_t st = dace_sdfg_match_transformation(&s, f.sdfg, "MapFuse", nullptr);
         f.kept(s == kStr, "out_matches_json");
         return st;
       },
       DACE_ERROR_NOT_FOUND, {"\"MapFuse\"", "known: ", "MapCollapse"}},
      {"dace_sdfg_match_transformation", "a pass",
       CONTRACT_CALL {
         const char* s = kStr;
         return dace_sdfg_match_transformation(&s, f.sdfg, "simplify", nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"simplify", "pass"}},
      {"dace_sdfg_match_transformation", "malformed properties JSON",
       CONTRACT_CALL {
         const char* s = kStr;
         return dace_sdfg_match_transformation(&s, f.sdfg, "MapCollapse", "{\"a\": ");
       },
       DACE_ERROR_PARSE, {"MapCollapse", "JSON"}},
      {"dace_sdfg_match_transformation", "properties with a location",
       CONTRACT_CALL {
         const char* s = kStr;
         return dace_sdfg_match_transformation(&s, f.sdfg, "MapCollapse", at_s0(f.entry, f.tasklet).c_str());
       },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "location"}},
      {"dace_sdfg_match_transformation", "borrowed nested SDFG",
       CONTRACT_CALL {
         const char* s = kStr;
         return dace_sdfg_match_transformation(&s, nested_of(f), "MapCollapse", nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"nested"}},

      // --- apply once
      {"dace_sdfg_apply_transformation", "NULL sdfg",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(nullptr, "MapCollapse", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_apply_transformation", "NULL name",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, nullptr, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_apply_transformation", "unknown name",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, "LoopToMapX", nullptr); }, DACE_ERROR_NOT_FOUND,
       {"\"LoopToMapX\"", "StateFusion"}},
      {"dace_sdfg_apply_transformation", "malformed properties JSON",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, "MapCollapse", "{cfg_id: 0}"); },
       DACE_ERROR_PARSE, {"MapCollapse", "column"}},
      {"dace_sdfg_apply_transformation", "properties that are no JSON object",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, "MapCollapse", "[1, 2]"); },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "object"}},
      {"dace_sdfg_apply_transformation", "unknown property",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, "MapCollapse", "{\"no_such_prop\": 1}"); },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "no_such_prop"}},
      {"dace_sdfg_apply_transformation", "properties naming another transformation",
       CONTRACT_CALL {
         return dace_sdfg_apply_transformation(f.sdfg, "MapCollapse", "{\"transformation\": \"MapFusion\"}");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "MapFusion"}},
      {"dace_sdfg_apply_transformation", "location in a state that does not exist",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) {
           return dace_sdfg_apply_transformation(
               g, "MapCollapse", "{\"cfg_id\": 0, \"state_id\": 99, \"_subgraph\": {\"0\": 1, \"1\": 2}}");
         });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "state", "99"}},
      {"dace_sdfg_apply_transformation", "location of a node that does not exist",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) {
           return dace_sdfg_apply_transformation(g, "MapCollapse", at_s0(77, 1).c_str());
         });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "node 77"}},
      {"dace_sdfg_apply_transformation", "location where the pattern does not apply",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) {
           return dace_sdfg_apply_transformation(g, "MapCollapse", at_s0(0, 1).c_str());
         });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "cfg 0 / state 0"}},
      {"dace_sdfg_apply_transformation", "location for a pass",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, "simplify", at_s0(f.entry, f.tasklet).c_str()); },
       DACE_ERROR_INVALID_ARGUMENT, {"simplify", "location"}},
      {"dace_sdfg_apply_transformation", "no legal match anywhere",
       CONTRACT_CALL {
         return on_valid(f, [](dace_sdfg_t* g) { return dace_sdfg_apply_transformation(g, "MapCollapse", nullptr); });
       },
       DACE_ERROR_NOT_FOUND, {"MapCollapse", "no legal match", "\"valid\""}},
      {"dace_sdfg_apply_transformation", "an invalid SDFG",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(f.sdfg, "StateFusion", nullptr); },
       DACE_ERROR_INVALID_SDFG, {"StateFusion", "invalid", "\"contract\""}},
      {"dace_sdfg_apply_transformation", "borrowed nested SDFG",
       CONTRACT_CALL { return dace_sdfg_apply_transformation(nested_of(f), "MapCollapse", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"nested"}},

      // --- apply repeatedly
      {"dace_sdfg_apply_transformation_repeated", "NULL sdfg",
       CONTRACT_CALL {
         int32_t n = 7;
         dace_status_t st = dace_sdfg_apply_transformation_repeated(&n, nullptr, "MapCollapse", nullptr);
         f.kept(n == 7, "out_applied");
         return st;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_apply_transformation_repeated", "unknown name",
       CONTRACT_CALL {
         int32_t n = 7;
         dace_status_t st = dace_sdfg_apply_transformation_repeated(&n, f.sdfg, "Fusion", nullptr);
         f.kept(n == 7, "out_applied");
         return st;
       },
       DACE_ERROR_NOT_FOUND, {"\"Fusion\"", "MapFusion"}},
      {"dace_sdfg_apply_transformation_repeated", "a pass",
       CONTRACT_CALL { return dace_sdfg_apply_transformation_repeated(nullptr, f.sdfg, "simplify", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"simplify", "pass"}},
      {"dace_sdfg_apply_transformation_repeated", "a location",
       CONTRACT_CALL {
         return dace_sdfg_apply_transformation_repeated(nullptr, f.sdfg, "MapCollapse",
                                                        at_s0(f.entry, f.tasklet).c_str());
       },
       DACE_ERROR_INVALID_ARGUMENT, {"MapCollapse", "location"}},
      {"dace_sdfg_apply_transformation_repeated", "property of the wrong type",
       CONTRACT_CALL {
         return dace_sdfg_apply_transformation_repeated(nullptr, f.sdfg, "MapCollapse", "{\"bogus\": true}");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"bogus"}},

      // --- history
      {"dace_sdfg_history_json", "NULL out_json",
       CONTRACT_CALL { return dace_sdfg_history_json(nullptr, f.sdfg); }, DACE_ERROR_INVALID_ARGUMENT, {"out_json"}},
      {"dace_sdfg_history_json", "NULL sdfg",
       CONTRACT_CALL {
         const char* s = kStr;
         dace_status_t st = dace_sdfg_history_json(&s, nullptr);
         f.kept(s == kStr, "out_json");
         return st;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_replay_history", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_replay_history(nullptr, "[]"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_replay_history", "NULL history_json",
       CONTRACT_CALL { return dace_sdfg_replay_history(f.sdfg, nullptr); }, DACE_ERROR_INVALID_ARGUMENT,
       {"history_json"}},
      {"dace_sdfg_replay_history", "malformed JSON",
       CONTRACT_CALL { return dace_sdfg_replay_history(f.sdfg, "[{\"type\": "); }, DACE_ERROR_PARSE, {"JSON"}},
      {"dace_sdfg_replay_history", "entry of an unknown transformation",
       CONTRACT_CALL {
         return dace_sdfg_replay_history(
             f.sdfg, "[{\"type\": \"Pass\", \"transformation\": \"NoSuchPass\"}]");
       },
       DACE_ERROR_NOT_FOUND, {"history entry 0", "NoSuchPass"}},
      {"dace_sdfg_replay_history", "second entry does not apply (the first is not kept)",
       CONTRACT_CALL {
         const std::string h = "[{\"type\": \"Pass\", \"transformation\": \"simplify\"},"
                               " {\"type\": \"PatternTransformation\", \"transformation\": \"MapCollapse\", "
                               "\"cfg_id\": 0, \"state_id\": 0, \"_subgraph\": {\"0\": 0, \"1\": 1}}]";
         return on_valid(f, [&](dace_sdfg_t* g) { return dace_sdfg_replay_history(g, h.c_str()); });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"history entry 1 (MapCollapse)"}},
      {"dace_sdfg_replay_history", "an invalid SDFG",
       CONTRACT_CALL { return dace_sdfg_replay_history(f.sdfg, "[]"); }, DACE_ERROR_INVALID_SDFG, {"replay"}},
      {"dace_sdfg_replay_history", "borrowed nested SDFG",
       CONTRACT_CALL { return dace_sdfg_replay_history(nested_of(f), "[]"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"nested"}},
      // --- revert
      {"dace_sdfg_revert_history", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_revert_history(nullptr, 1); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_revert_history", "more steps than the history holds",
       CONTRACT_CALL { return dace_sdfg_revert_history(f.sdfg, 1); }, DACE_ERROR_INVALID_ARGUMENT,
       {"revert 1", "history holds 0"}},
      {"dace_sdfg_revert_history", "no original stored",
       CONTRACT_CALL { return revert_edited(f, [](nlohmann::json& j) { j["attributes"].erase("orig_sdfg"); }); },
       DACE_ERROR_NOT_FOUND, {"orig_sdfg"}},
      {"dace_sdfg_revert_history", "unreadable original",
       CONTRACT_CALL {
         return revert_edited(f, [](nlohmann::json& j) { j["attributes"]["orig_sdfg"] = {{"type", "SDFG"}}; });
       },
       DACE_ERROR_PARSE, {"orig_sdfg", "unreadable"}},
      {"dace_sdfg_revert_history", "a kept entry does not apply to the original",
       CONTRACT_CALL {
         return revert_edited(f, [](nlohmann::json& j) {
           j["attributes"]["transformation_hist"].insert(
               j["attributes"]["transformation_hist"].begin(),
               nlohmann::json::parse(R"({"type": "PatternTransformation", "transformation": "MapCollapse",)"
                                     R"( "cfg_id": 0, "state_id": 0, "_subgraph": {"0": 0, "1": 1}})"));
         });
       },
       DACE_ERROR_INVALID_ARGUMENT, {"history entry 0 (MapCollapse)"}},
      {"dace_sdfg_revert_history", "borrowed nested SDFG",
       CONTRACT_CALL { return dace_sdfg_revert_history(nested_of(f), 1); }, DACE_ERROR_INVALID_ARGUMENT,
       {"nested"}},
  };
}

}  // namespace capi_contract
