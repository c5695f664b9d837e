// Status-contract rows of the instrumentation functions (include/libdace.h,
// "Instrumentation"): bad values name the element, unsupported DaCe types are
// DACE_ERROR_UNSUPPORTED, elements without a timer are refused, nothing changes on failure.
#include "capi_status_contract.h"

namespace capi_contract {

std::vector<Row> rows_instrument() {
  return {
      {"dace_sdfg_set_instrument", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_set_instrument(nullptr, "Timer"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_set_instrument", "NULL value", CONTRACT_CALL { return dace_sdfg_set_instrument(f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"value"}},
      {"dace_sdfg_set_instrument", "no DaCe instrumentation type",
       CONTRACT_CALL { return dace_sdfg_set_instrument(f.sdfg, "Stopwatch"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"sdfg \"contract\"", "\"Stopwatch\""}},
      {"dace_sdfg_set_instrument", "DaCe type libdace does not implement",
       CONTRACT_CALL { return dace_sdfg_set_instrument(f.sdfg, "PAPI_Counters"); }, DACE_ERROR_UNSUPPORTED,
       {"sdfg \"contract\"", "\"PAPI_Counters\"", "not implemented"}},
      {"dace_sdfg_get_instrument", "NULL out_value",
       CONTRACT_CALL { return dace_sdfg_get_instrument(nullptr, f.sdfg); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_value"}},
      {"dace_sdfg_get_instrument", "NULL sdfg",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_instrument(&v, nullptr);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_state_set_instrument", "NULL value",
       CONTRACT_CALL { return dace_state_set_instrument(f.sdfg, f.s0, nullptr); }, DACE_ERROR_INVALID_ARGUMENT,
       {"value"}},
      {"dace_state_set_instrument", "state that does not exist",
       CONTRACT_CALL { return dace_state_set_instrument(f.sdfg, 4711, "Timer"); }, DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_state_set_instrument", "a loop (no instrument property in DaCe)",
       CONTRACT_CALL { return dace_state_set_instrument(f.sdfg, f.loop, "Timer"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"\"loop\""}},
      {"dace_state_set_instrument", "no DaCe instrumentation type",
       CONTRACT_CALL { return dace_state_set_instrument(f.sdfg, f.s0, "timer"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"state \"s0\"", "\"timer\""}},
      {"dace_state_set_instrument", "DaCe type libdace does not implement",
       CONTRACT_CALL { return dace_state_set_instrument(f.sdfg, f.s1, "LIKWID_CPU"); }, DACE_ERROR_UNSUPPORTED,
       {"state \"s1\"", "\"LIKWID_CPU\""}},
      {"dace_state_get_instrument", "state that does not exist",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_state_get_instrument(&v, f.sdfg, 4711);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_state_get_instrument", "NULL out_value",
       CONTRACT_CALL { return dace_state_get_instrument(nullptr, f.sdfg, f.s0); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_value"}},
      {"dace_node_set_instrument", "NULL value",
       CONTRACT_CALL { return dace_node_set_instrument(f.sdfg, f.s0, f.entry, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"value"}},
      {"dace_node_set_instrument", "node that does not exist",
       CONTRACT_CALL { return dace_node_set_instrument(f.sdfg, f.s0, 4711, "Timer"); }, DACE_ERROR_NOT_FOUND,
       {"4711"}},
      {"dace_node_set_instrument", "an access node (data instrumentation)",
       CONTRACT_CALL { return dace_node_set_instrument(f.sdfg, f.s0, f.acc_a, "Timer"); },
       DACE_ERROR_INVALID_ARGUMENT, {"AccessNode", "no timer"}},
      {"dace_node_set_instrument", "a map exit (the entry holds the property)",
       CONTRACT_CALL { return dace_node_set_instrument(f.sdfg, f.s0, f.exit, "Timer"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"MapExit", "entry"}},
      {"dace_node_set_instrument", "DaCe type libdace does not implement",
       CONTRACT_CALL { return dace_node_set_instrument(f.sdfg, f.s0, f.entry, "GPU_Events"); },
       DACE_ERROR_UNSUPPORTED, {"state \"s0\"", "MapEntry", "\"GPU_Events\""}},
      {"dace_node_set_instrument", "no DaCe instrumentation type on a library node",
       CONTRACT_CALL { return dace_node_set_instrument(f.sdfg, f.s1, f.lib, ""); }, DACE_ERROR_INVALID_ARGUMENT,
       {"\"lib\"", "instrument"}},
      {"dace_node_get_instrument", "node that does not exist",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_instrument(&v, f.sdfg, f.s0, 4711);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_node_get_instrument", "NULL out_value",
       CONTRACT_CALL { return dace_node_get_instrument(nullptr, f.sdfg, f.s0, f.tasklet); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_value"}},
      {"dace_sdfg_instrument", "NULL selection", CONTRACT_CALL { return dace_sdfg_instrument(nullptr, f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"selection"}},
      {"dace_sdfg_instrument", "unknown selection word",
       CONTRACT_CALL {
         int32_t n = 4242;
         dace_status_t s = dace_sdfg_instrument(&n, f.sdfg, "maps,loops");
         f.kept(n == 4242, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"loops\""}},
      {"dace_program_last_report", "NULL program",
       CONTRACT_CALL { return dace_program_last_report(nullptr, nullptr, nullptr); }, DACE_ERROR_INVALID_ARGUMENT,
       {"program"}},
      {"dace_program_last_report", "program without instrumentation",
       CONTRACT_CALL {
         const char* j = kStr;
         dace_status_t s = dace_program_last_report(&j, nullptr, f.program);
         f.kept(j == kStr, "out_json");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"instrumented"}, true},
  };
}

}  // namespace capi_contract
