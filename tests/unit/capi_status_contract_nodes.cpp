// Status-contract rows of the dataflow functions: nodes (rows_nodes) and edges/memlets
// (rows_edges); see capi_status_contract_test.cpp for the rules the rows check.
#include <string>
#include <vector>

#include "capi_status_contract.h"

namespace capi_contract {
namespace {

// (f, sdfg, state, node-or-edge) -> status; the call under test with all other arguments valid.
using AddressedCall = std::function<dace_status_t(Fixture&, dace_sdfg_t*, dace_id_t, dace_id_t)>;

// Rows every function addressed by (state, element id) shares: NULL sdfg, a state that does
// not exist (NOT_FOUND), a state id that is a loop (wrong kind: INVALID_ARGUMENT) and an
// element slot that does not exist (NOT_FOUND). `id` picks the valid element of s0 or s1.
void addressed_rows(std::vector<Row>& rows, const char* function, const char* element, bool in_s1,
                    dace_id_t Fixture::* id, AddressedCall call) {
  auto state = [in_s1](const Fixture& f) { return in_s1 ? f.s1 : f.s0; };
  rows.push_back({function, "NULL sdfg", [call, state, id](Fixture& f) { return call(f, nullptr, state(f), f.*id); },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "state that does not exist",
                  [call, id](Fixture& f) { return call(f, f.sdfg, 4711, f.*id); }, DACE_ERROR_NOT_FOUND, {"4711"}});
  rows.push_back({function, "state id of a loop (no state)",
                  [call, id](Fixture& f) { return call(f, f.sdfg, f.loop, f.*id); }, DACE_ERROR_INVALID_ARGUMENT,
                  {"\"loop\"", "not a state"}});
  rows.push_back({function, std::string(element) == "edge" ? "edge that does not exist" : "node that does not exist",
                  [call, state](Fixture& f) { return call(f, f.sdfg, state(f), 99); }, DACE_ERROR_NOT_FOUND,
                  {std::string(element) + " 99"}});
}

// Rows of functions addressed by a state only (the add_* family): NULL sdfg, state missing,
// state id of a loop.
using StateCall = std::function<dace_status_t(Fixture&, dace_sdfg_t*, dace_id_t)>;
void state_rows(std::vector<Row>& rows, const char* function, StateCall call) {
  rows.push_back({function, "NULL sdfg", [call](Fixture& f) { return call(f, nullptr, f.s1); },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "state that does not exist", [call](Fixture& f) { return call(f, f.sdfg, 4711); },
                  DACE_ERROR_NOT_FOUND, {"4711"}});
  rows.push_back({function, "state id of a conditional (no state)",
                  [call](Fixture& f) { return call(f, f.sdfg, f.cond); },
                  DACE_ERROR_INVALID_ARGUMENT, {"\"cond\"", "not a state"}});
}

// One row with the addressed element of the wrong kind (e.g. a tasklet where a map is needed).
Row wrong_kind(const char* function, const char* what, std::function<dace_status_t(Fixture&)> call,
               std::vector<std::string> words) {
  return {function, what, std::move(call), DACE_ERROR_INVALID_ARGUMENT, std::move(words)};
}

}  // namespace

std::vector<Row> rows_nodes() {
  std::vector<Row> rows = {
      // --- add_access
      {"dace_state_add_access", "NULL out_node",
       CONTRACT_CALL {
         return dace_state_add_access(nullptr, f.sdfg, f.s1, "B");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_node"}},
      {"dace_state_add_access", "NULL data",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_access(&id, f.sdfg, f.s1, nullptr);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"data"}},
      {"dace_state_add_access", "empty data (a name that does not exist)",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_access(&id, f.sdfg, f.s1, "");
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"data container \"\""}},
      {"dace_state_add_access", "container that does not exist",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_access(&id, f.sdfg, f.s1, "nope");
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"nope"}},

      // --- add_tasklet
      {"dace_state_add_tasklet", "NULL out_node",
       CONTRACT_CALL {
         return dace_state_add_tasklet(nullptr, f.sdfg, f.s1, "t", "a", "b", "b = a", DACE_LANGUAGE_PYTHON);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_node"}},
      {"dace_state_add_tasklet", "NULL code",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_tasklet(&id, f.sdfg, f.s1, "t", "a", "b", nullptr, DACE_LANGUAGE_PYTHON);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"code"}},
      {"dace_state_add_tasklet", "malformed Python code (line and column given)",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s =
             dace_state_add_tasklet(&id, f.sdfg, f.s1, "badcode", "a", "b", "b = a\nb = (a +", DACE_LANGUAGE_PYTHON);
         f.kept(id == kId, "out_node");
         f.check(dace_last_error_line() == 2 && dace_last_error_column() > 0,
                 "the parse error must give line 2 and a column");
         return s;
       },
       DACE_ERROR_PARSE, {"\"badcode\""}},
      {"dace_state_add_tasklet", "language out of range",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s =
             dace_state_add_tasklet(&id, f.sdfg, f.s1, "t", "a", "b", "b = a", static_cast<dace_language_t>(31));
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"language"}},
      {"dace_state_add_tasklet", "the same connector twice",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_tasklet(&id, f.sdfg, f.s1, "t", "a, a", "b", "b = a", DACE_LANGUAGE_PYTHON);
       },
       DACE_ERROR_ALREADY_EXISTS, {"\"a\""}},

      {"dace_state_add_tasklet", "malformed connector list",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_tasklet(&id, f.sdfg, f.s1, "t", "a b c", "x", "x = 1", DACE_LANGUAGE_PYTHON);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_PARSE, {"inputs"}},
      {"dace_state_add_tasklet", "connector of an unknown type",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_tasklet(&id, f.sdfg, f.s1, "t", "a: floatzz", "x", "x = 1", DACE_LANGUAGE_PYTHON);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"floatzz", "\"a\""}},

      // --- add_map / add_map_dict
      {"dace_state_add_map", "NULL out_entry",
       CONTRACT_CALL {
         dace_id_t x = kId;
         dace_status_t s = dace_state_add_map(nullptr, &x, f.sdfg, f.s1, "m", "i=0:N", nullptr);
         f.kept(x == kId, "out_exit");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_entry"}},
      {"dace_state_add_map", "NULL ranges",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         dace_status_t s = dace_state_add_map(&e, &x, f.sdfg, f.s1, "m", nullptr, nullptr);
         f.kept(e == kId && x == kId, "out_entry/out_exit");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"ranges"}},
      {"dace_state_add_map", "malformed ranges",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         dace_status_t s = dace_state_add_map(&e, &x, f.sdfg, f.s1, "m", "i=0:N +", nullptr);
         f.kept(e == kId && x == kId, "out_entry/out_exit");
         return s;
       },
       DACE_ERROR_PARSE, {"\"m\""}},
      {"dace_state_add_map", "map options of unknown version",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.version = 0;
         return dace_state_add_map(&e, &x, f.sdfg, f.s1, "m", "i=0:N", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_map_options_t", "version 0"}},
      {"dace_state_add_map", "schedule out of range",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.schedule = static_cast<dace_schedule_t>(-2);
         return dace_state_add_map(&e, &x, f.sdfg, f.s1, "m", "i=0:N", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"schedule"}},
      {"dace_state_add_map", "collapse < 1",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.collapse = 0;
         return dace_state_add_map(&e, &x, f.sdfg, f.s1, "m", "i=0:N", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"collapse"}},
      {"dace_state_add_map_dict", "NULL out_entry",
       CONTRACT_CALL {
         const char* p[] = {"i"};
         const char* r[] = {"0:N"};
         dace_id_t x = kId;
         return dace_state_add_map_dict(nullptr, &x, f.sdfg, f.s1, "m", p, r, 1, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_entry"}},
      {"dace_state_add_map_dict", "NULL params with a count",
       CONTRACT_CALL {
         const char* r[] = {"0:N"};
         dace_id_t e = kId, x = kId;
         dace_status_t s = dace_state_add_map_dict(&e, &x, f.sdfg, f.s1, "m", nullptr, r, 1, nullptr);
         f.kept(e == kId && x == kId, "out_entry/out_exit");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"params"}},
      {"dace_state_add_map_dict", "NULL ranges with a count",
       CONTRACT_CALL {
         const char* p[] = {"i"};
         dace_id_t e = kId, x = kId;
         return dace_state_add_map_dict(&e, &x, f.sdfg, f.s1, "m", p, nullptr, 1, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"ranges"}},
      {"dace_state_add_map_dict", "NULL parameter entry",
       CONTRACT_CALL {
         const char* p[] = {"i", nullptr};
         const char* r[] = {"0:N", "0:N"};
         dace_id_t e = kId, x = kId;
         return dace_state_add_map_dict(&e, &x, f.sdfg, f.s1, "m", p, r, 2, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"NULL"}},
      {"dace_state_add_map_dict", "malformed range",
       CONTRACT_CALL {
         const char* p[] = {"i"};
         const char* r[] = {"0:"};
         dace_id_t e = kId, x = kId;
         dace_status_t s = dace_state_add_map_dict(&e, &x, f.sdfg, f.s1, "m", p, r, 1, nullptr);
         f.kept(e == kId && x == kId, "out_entry/out_exit");
         return s;
       },
       DACE_ERROR_PARSE, {"\"m\""}},
      {"dace_state_add_map_dict", "parameter that is no identifier",
       CONTRACT_CALL {
         const char* p[] = {"1i"};
         const char* r[] = {"0:N"};
         dace_id_t e = kId, x = kId;
         return dace_state_add_map_dict(&e, &x, f.sdfg, f.s1, "m", p, r, 1, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"1i"}},

      // --- add_consume
      {"dace_state_add_consume", "NULL out_entry",
       CONTRACT_CALL {
         dace_id_t x = kId;
         return dace_state_add_consume(nullptr, &x, f.sdfg, f.s1, "c", "p", "1", nullptr, nullptr,
                                       DACE_SCHEDULE_DEFAULT);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_entry"}},
      {"dace_state_add_consume", "NULL pe_index",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         dace_status_t s =
             dace_state_add_consume(&e, &x, f.sdfg, f.s1, "c", nullptr, "1", nullptr, nullptr, DACE_SCHEDULE_DEFAULT);
         f.kept(e == kId && x == kId, "out_entry/out_exit");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"pe_index"}},
      {"dace_state_add_consume", "empty pe_index",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_consume(&e, nullptr, f.sdfg, f.s1, "c", "", "1", nullptr, nullptr,
                                       DACE_SCHEDULE_DEFAULT);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"pe_index"}},
      {"dace_state_add_map", "empty ranges (a map needs a parameter)",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_map(&e, nullptr, f.sdfg, f.s1, "m", "", nullptr);
       },
       DACE_ERROR_PARSE, {"ranges"}},
      {"dace_state_add_library_node", "empty classpath",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_library_node(&id, f.sdfg, f.s1, "l2", "", nullptr, nullptr, nullptr, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"classpath"}},
      {"dace_state_add_consume", "NULL num_pes",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         return dace_state_add_consume(&e, &x, f.sdfg, f.s1, "c", "p", nullptr, nullptr, nullptr,
                                       DACE_SCHEDULE_DEFAULT);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"num_pes"}},
      {"dace_state_add_consume", "malformed num_pes",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         return dace_state_add_consume(&e, &x, f.sdfg, f.s1, "c", "p", "2 *", nullptr, nullptr, DACE_SCHEDULE_DEFAULT);
       },
       DACE_ERROR_PARSE, {"num_pes"}},
      {"dace_state_add_consume", "schedule out of range",
       CONTRACT_CALL {
         dace_id_t e = kId, x = kId;
         return dace_state_add_consume(&e, &x, f.sdfg, f.s1, "c", "p", "1", nullptr, nullptr,
                                       static_cast<dace_schedule_t>(1000));
       },
       DACE_ERROR_INVALID_ARGUMENT, {"schedule"}},

      // --- add_nested_sdfg: connectors must name containers of `inner`.
      {"dace_state_add_nested_sdfg", "NULL out_node",
       CONTRACT_CALL {
         return dace_state_add_nested_sdfg(nullptr, f.sdfg, f.s1, f.inner, "n2", "X", nullptr, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_node"}},
      {"dace_state_add_nested_sdfg", "NULL inner",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_nested_sdfg(&id, f.sdfg, f.s1, nullptr, "n2", "X", nullptr, nullptr);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"inner"}},
      {"dace_state_add_nested_sdfg", "connector that names no container of inner",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_nested_sdfg(&id, f.sdfg, f.s1, f.inner, "n2", "Y", nullptr, nullptr);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"Y\""}},
      {"dace_state_add_nested_sdfg", "the SDFG itself as inner",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_nested_sdfg(&id, f.sdfg, f.s1, f.sdfg, "self", nullptr, nullptr, nullptr);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"itself"}},
      {"dace_state_add_nested_sdfg", "malformed symbol mapping",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_nested_sdfg(&id, f.sdfg, f.s1, f.inner, "n2", "X", nullptr, "N: N +");
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_PARSE, {"\"n2\""}},

      // --- add_library_node
      {"dace_state_add_library_node", "NULL out_node",
       CONTRACT_CALL {
         return dace_state_add_library_node(nullptr, f.sdfg, f.s1, "l2", "dace.libraries.blas.nodes.matmul.MatMul",
                                            nullptr, nullptr, nullptr, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_node"}},
      {"dace_state_add_library_node", "NULL classpath",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s =
             dace_state_add_library_node(&id, f.sdfg, f.s1, "l2", nullptr, nullptr, nullptr, nullptr, nullptr);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"classpath"}},
      {"dace_state_add_library_node", "malformed properties JSON",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_state_add_library_node(&id, f.sdfg, f.s1, "l2",
                                                       "dace.libraries.blas.nodes.matmul.MatMul",
                                                       nullptr, "{\"alpha\": ", nullptr, nullptr);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_PARSE, {"\"l2\""}},
      {"dace_state_add_library_node", "properties JSON that is no object",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_library_node(&id, f.sdfg, f.s1, "l2", "dace.libraries.blas.nodes.matmul.MatMul",
                                            nullptr, "[1, 2]", nullptr, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"l2\"", "object"}},

      // --- add_mapped_tasklet: any out id may be NULL; all are untouched on error.
      {"dace_state_add_mapped_tasklet", "NULL code",
       CONTRACT_CALL {
         dace_id_t t = kId, e = kId, x = kId;
         dace_status_t s =
             dace_state_add_mapped_tasklet(&t, &e, &x, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", nullptr, "b: B[i]",
                                           nullptr);
         f.kept(t == kId && e == kId && x == kId, "out_tasklet/out_entry/out_exit");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"code"}},
      {"dace_state_add_mapped_tasklet", "NULL map_ranges",
       CONTRACT_CALL {
         dace_id_t t = kId;
         dace_status_t s = dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", nullptr, "a: A[i]",
                                                         "b = a", "b: B[i]", nullptr);
         f.kept(t == kId, "out_tasklet");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"map_ranges"}},
      {"dace_state_add_mapped_tasklet", "malformed map ranges",
       CONTRACT_CALL {
         dace_id_t t = kId;
         dace_status_t s = dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:", "a: A[i]",
                                                         "b = a", "b: B[i]", nullptr);
         f.kept(t == kId, "out_tasklet");
         return s;
       },
       DACE_ERROR_PARSE, {"\"mt\""}},
      {"dace_state_add_mapped_tasklet", "input memlet of a container that does not exist",
       CONTRACT_CALL {
         dace_id_t t = kId, e = kId, x = kId;
         dace_status_t s = dace_state_add_mapped_tasklet(&t, &e, &x, f.sdfg, f.s1, "mt", "i=0:N", "a: Nope[i]",
                                                         "b = a", "b: B[i]", nullptr);
         f.kept(t == kId && e == kId && x == kId, "out_tasklet/out_entry/out_exit");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"Nope"}},
      {"dace_state_add_mapped_tasklet", "malformed code (nothing half-built)",
       CONTRACT_CALL {
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", "b = (a",
                                              "b: B[i]", nullptr);
       },
       DACE_ERROR_PARSE, {"\"mt\""}},
      {"dace_state_add_mapped_tasklet", "options of unknown version",
       CONTRACT_CALL {
         dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
         o.version = 0;
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", "b = a",
                                              "b: B[i]", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_mapped_tasklet_options_t", "version 0"}},
      {"dace_state_add_mapped_tasklet", "language out of range",
       CONTRACT_CALL {
         dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
         o.language = static_cast<dace_language_t>(9);
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", "b = a",
                                              "b: B[i]", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"language"}},

      // With external edges the access nodes outside the map are built too: a late error
      // (an output, the WCR) must still leave nothing behind.
      {"dace_state_add_mapped_tasklet", "external edges, output container that does not exist",
       CONTRACT_CALL {
         dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
         o.external_edges = 1;
         dace_id_t t = kId;
         dace_status_t s = dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]",
                                                         "b = a", "b: Nope[i]", &o);
         f.kept(t == kId, "out_tasklet");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"mt\"", "\"b\"", "Nope"}},
      {"dace_state_add_mapped_tasklet", "external edges, malformed output WCR",
       CONTRACT_CALL {
         dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
         o.external_edges = 1;
         o.output_wcr = "lambda a, b: a +";
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", "b = a",
                                              "b: B[i]", &o);
       },
       DACE_ERROR_PARSE, {"\"mt\"", "WCR"}},
      {"dace_state_add_mapped_tasklet", "malformed output memlet",
       CONTRACT_CALL {
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", "b = a",
                                              "b: B[i", nullptr);
       },
       DACE_ERROR_PARSE, {"\"mt\"", "\"b\""}},
      {"dace_state_add_mapped_tasklet", "input entry without 'connector: memlet'",
       CONTRACT_CALL {
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a A[i]", "b = a",
                                              "b: B[i]", nullptr);
       },
       DACE_ERROR_PARSE, {"inputs"}},
      {"dace_state_add_mapped_tasklet", "input connector twice",
       CONTRACT_CALL {
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]; a: B[i]",
                                              "b = a", "b: B[i]", nullptr);
       },
       DACE_ERROR_ALREADY_EXISTS, {"\"a\""}},
      {"dace_state_add_mapped_tasklet", "schedule out of range",
       CONTRACT_CALL {
         dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
         o.schedule = static_cast<dace_schedule_t>(99);
         dace_id_t t = kId;
         return dace_state_add_mapped_tasklet(&t, nullptr, nullptr, f.sdfg, f.s1, "mt", "i=0:N", "a: A[i]", "b = a",
                                              "b: B[i]", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"schedule"}},
      {"dace_state_add_nested_sdfg", "output connector that names no container of inner",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_nested_sdfg(&id, f.sdfg, f.s1, f.inner, "n2", "X", "Y", nullptr);
       },
       DACE_ERROR_NOT_FOUND, {"\"Y\""}},
      {"dace_state_add_tasklet", "connector both input and output",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_tasklet(&id, f.sdfg, f.s1, "t", "a", "a", "a = 1", DACE_LANGUAGE_PYTHON);
       },
       DACE_ERROR_ALREADY_EXISTS, {"\"a\""}},
      {"dace_state_add_map", "parameter twice",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_map(&e, nullptr, f.sdfg, f.s1, "m", "i=0:N, i=0:N", nullptr);
       },
       DACE_ERROR_ALREADY_EXISTS, {"\"i\""}},
      {"dace_state_add_map_dict", "no parameter (count 0)",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_status_t s = dace_state_add_map_dict(&e, nullptr, f.sdfg, f.s1, "m", nullptr, nullptr, 0, nullptr);
         f.kept(e == kId, "out_entry");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"parameter"}},
      {"dace_state_add_library_node", "malformed connector list",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_state_add_library_node(&id, f.sdfg, f.s1, "l2", "dace.libraries.blas.nodes.matmul.MatMul",
                                            nullptr, nullptr, "_a _b", nullptr);
       },
       DACE_ERROR_PARSE, {"inputs"}},

      // --- list_nodes
      {"dace_state_list_nodes", "NULL out_count",
       CONTRACT_CALL {
         dace_id_t ids[8];
         return dace_state_list_nodes(ids, 8, nullptr, f.sdfg, f.s0);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},

      // --- queries and setters with bad non-id arguments
      {"dace_node_get_kind", "NULL out_kind",
       CONTRACT_CALL {
         return dace_node_get_kind(nullptr, f.sdfg, f.s0, f.tasklet);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_kind"}},
      {"dace_node_get_label", "NULL out_label",
       CONTRACT_CALL { return dace_node_get_label(nullptr, f.sdfg, f.s0, f.tasklet); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_label"}},
      {"dace_node_set_label", "NULL label",
       CONTRACT_CALL {
         return dace_node_set_label(f.sdfg, f.s0, f.tasklet, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"label"}},
      {"dace_node_set_label", "empty label", CONTRACT_CALL { return dace_node_set_label(f.sdfg, f.s0, f.tasklet, ""); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"axpb\"", "label"}},
      {"dace_node_get_property", "NULL out_value",
       CONTRACT_CALL { return dace_node_get_property(nullptr, f.sdfg, f.s0, f.tasklet, "code"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_value"}},
      {"dace_node_get_property", "NULL property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_property(&v, f.sdfg, f.s0, f.tasklet, nullptr);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"property"}},
      {"dace_node_get_property", "empty property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_property(&v, f.sdfg, f.s0, f.tasklet, "");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"axpb\""}},
      {"dace_node_add_in_connector", "empty name",
       CONTRACT_CALL { return dace_node_add_in_connector(f.sdfg, f.s0, f.tasklet, "", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"connector name"}},
      {"dace_node_add_out_connector", "empty name",
       CONTRACT_CALL { return dace_node_add_out_connector(f.sdfg, f.s0, f.tasklet, "", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"connector name"}},
      {"dace_node_remove_connector", "empty name",
       CONTRACT_CALL { return dace_node_remove_connector(f.sdfg, f.s0, f.tasklet, 0, ""); }, DACE_ERROR_NOT_FOUND,
       {"connector \"\""}},
      {"dace_node_get_connector_type", "empty name",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_connector_type(&v, f.sdfg, f.s0, f.tasklet, 0, "");
         f.kept(v == kStr, "out_dtype");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"connector \"\""}},
      {"dace_node_set_data", "empty data", CONTRACT_CALL { return dace_node_set_data(f.sdfg, f.s1, f.s1_acc, ""); },
       DACE_ERROR_NOT_FOUND, {"data container \"\""}},
      {"dace_node_set_map_ranges", "empty ranges",
       CONTRACT_CALL { return dace_node_set_map_ranges(f.sdfg, f.s0, f.entry, ""); }, DACE_ERROR_PARSE, {"ranges"}},
      {"dace_node_get_property", "property the kind lacks (code of an AccessNode)",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_property(&v, f.sdfg, f.s0, f.acc_a, "code");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"code", "AccessNode"}},
      {"dace_node_add_in_connector", "NULL name",
       CONTRACT_CALL { return dace_node_add_in_connector(f.sdfg, f.s0, f.tasklet, nullptr, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_node_add_in_connector", "connector that exists",
       CONTRACT_CALL { return dace_node_add_in_connector(f.sdfg, f.s0, f.tasklet, "a", nullptr); },
       DACE_ERROR_ALREADY_EXISTS, {"\"a\""}},
      {"dace_node_add_in_connector", "name that is no identifier",
       CONTRACT_CALL { return dace_node_add_in_connector(f.sdfg, f.s0, f.tasklet, "a b", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"a b"}},
      {"dace_node_add_in_connector", "unknown type text",
       CONTRACT_CALL { return dace_node_add_in_connector(f.sdfg, f.s0, f.tasklet, "q", "float64**("); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"q\"", "float64**("}},
      {"dace_node_add_out_connector", "NULL name",
       CONTRACT_CALL { return dace_node_add_out_connector(f.sdfg, f.s0, f.tasklet, nullptr, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_node_add_out_connector", "connector that exists",
       CONTRACT_CALL { return dace_node_add_out_connector(f.sdfg, f.s0, f.tasklet, "b", "float64"); },
       DACE_ERROR_ALREADY_EXISTS, {"\"b\""}},
      {"dace_node_remove_connector", "NULL name",
       CONTRACT_CALL { return dace_node_remove_connector(f.sdfg, f.s0, f.tasklet, 0, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_node_remove_connector", "connector that does not exist",
       CONTRACT_CALL { return dace_node_remove_connector(f.sdfg, f.s0, f.tasklet, 0, "zz"); }, DACE_ERROR_NOT_FOUND,
       {"\"zz\""}},
      {"dace_node_remove_connector", "connector an edge uses",
       CONTRACT_CALL { return dace_node_remove_connector(f.sdfg, f.s0, f.tasklet, 0, "a"); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"a\""}},
      {"dace_node_get_connector_type", "NULL out_dtype",
       CONTRACT_CALL { return dace_node_get_connector_type(nullptr, f.sdfg, f.s0, f.tasklet, 0, "a"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_dtype"}},
      {"dace_node_get_connector_type", "NULL name",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_connector_type(&v, f.sdfg, f.s0, f.tasklet, 0, nullptr);
         f.kept(v == kStr, "out_dtype");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_node_get_connector_type", "connector that does not exist (an output asked as input)",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_node_get_connector_type(&v, f.sdfg, f.s0, f.tasklet, 0, "b");
         f.kept(v == kStr, "out_dtype");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"b\""}},
      {"dace_node_set_data", "NULL data", CONTRACT_CALL { return dace_node_set_data(f.sdfg, f.s1, f.s1_acc, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"data"}},
      {"dace_node_set_data", "container that does not exist",
       CONTRACT_CALL { return dace_node_set_data(f.sdfg, f.s1, f.s1_acc, "nope"); }, DACE_ERROR_NOT_FOUND, {"nope"}},
      wrong_kind("dace_node_set_data", "node that is no AccessNode",
                 CONTRACT_CALL { return dace_node_set_data(f.sdfg, f.s0, f.tasklet, "B"); }, {"\"axpb\""}),
      {"dace_node_set_code", "NULL code",
       CONTRACT_CALL { return dace_node_set_code(f.sdfg, f.s0, f.tasklet, nullptr, DACE_LANGUAGE_PYTHON); },
       DACE_ERROR_INVALID_ARGUMENT, {"code"}},
      {"dace_node_set_code", "malformed Python (old code kept)",
       CONTRACT_CALL { return dace_node_set_code(f.sdfg, f.s0, f.tasklet, "b = a +", DACE_LANGUAGE_PYTHON); },
       DACE_ERROR_PARSE, {"\"axpb\""}},
      {"dace_node_set_code", "language out of range",
       CONTRACT_CALL { return dace_node_set_code(f.sdfg, f.s0, f.tasklet, "b = a", static_cast<dace_language_t>(-1)); },
       DACE_ERROR_INVALID_ARGUMENT, {"language"}},
      wrong_kind("dace_node_set_code", "node that is no Tasklet",
                 CONTRACT_CALL { return dace_node_set_code(f.sdfg, f.s0, f.acc_a, "b = a", DACE_LANGUAGE_PYTHON); },
                 {"AccessNode"}),
      {"dace_node_set_schedule", "schedule out of range",
       CONTRACT_CALL { return dace_node_set_schedule(f.sdfg, f.s0, f.entry, static_cast<dace_schedule_t>(77)); },
       DACE_ERROR_INVALID_ARGUMENT, {"schedule"}},
      wrong_kind("dace_node_set_schedule", "node without a schedule (Tasklet)",
                 CONTRACT_CALL { return dace_node_set_schedule(f.sdfg, f.s0, f.tasklet, DACE_SCHEDULE_SEQUENTIAL); },
                 {"\"axpb\""}),
      {"dace_node_set_map_ranges", "NULL ranges",
       CONTRACT_CALL { return dace_node_set_map_ranges(f.sdfg, f.s0, f.entry, nullptr); }, DACE_ERROR_INVALID_ARGUMENT,
       {"ranges"}},
      {"dace_node_set_map_ranges", "malformed ranges",
       CONTRACT_CALL { return dace_node_set_map_ranges(f.sdfg, f.s0, f.entry, "i=0:N, j="); }, DACE_ERROR_PARSE, {}},
      wrong_kind("dace_node_set_map_ranges", "node that is no map",
                 CONTRACT_CALL { return dace_node_set_map_ranges(f.sdfg, f.s1, f.centry, "i=0:N"); }, {}),
      {"dace_node_set_map_options", "map options of unknown version",
       CONTRACT_CALL {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.version = 2;
         return dace_node_set_map_options(f.sdfg, f.s0, f.exit, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_map_options_t", "version 2"}},
      {"dace_node_set_map_options", "omp_schedule out of range",
       CONTRACT_CALL {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.omp_schedule = static_cast<dace_omp_schedule_t>(12);
         return dace_node_set_map_options(f.sdfg, f.s0, f.entry, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"omp_schedule"}},
      wrong_kind("dace_node_set_map_options", "node that is no map",
                 CONTRACT_CALL {
                   dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
                   return dace_node_set_map_options(f.sdfg, f.s0, f.tasklet, &o);
                 },
                 {"\"axpb\""}),
      {"dace_node_set_map_options", "malformed gpu_block_size (schedule not applied either)",
       CONTRACT_CALL {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.schedule = DACE_SCHEDULE_SEQUENTIAL;
         o.gpu_block_size = "32, x(";
         return dace_node_set_map_options(f.sdfg, f.s0, f.entry, &o);
       },
       DACE_ERROR_PARSE, {"gpu_block_size"}},
      {"dace_node_set_map_options", "collapse < 1",
       CONTRACT_CALL {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.schedule = DACE_SCHEDULE_SEQUENTIAL;
         o.collapse = 0;
         return dace_node_set_map_options(f.sdfg, f.s0, f.entry, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"collapse"}},
      {"dace_node_set_map_ranges", "malformed ranges given to the exit",
       CONTRACT_CALL { return dace_node_set_map_ranges(f.sdfg, f.s0, f.exit, "i=0:"); }, DACE_ERROR_PARSE,
       {"MapExit"}},
      {"dace_node_set_symbol_mapping", "symbol mapped twice",
       CONTRACT_CALL { return dace_node_set_symbol_mapping(f.sdfg, f.s1, f.nested, "N: 1, N: 2"); },
       DACE_ERROR_ALREADY_EXISTS, {"\"N\""}},
      {"dace_node_set_library_properties", "implementation with malformed JSON (neither applied)",
       CONTRACT_CALL { return dace_node_set_library_properties(f.sdfg, f.s1, f.lib, "pure", "{bad"); },
       DACE_ERROR_PARSE, {"\"lib\""}},
      {"dace_node_set_library_properties", "properties that are no JSON object",
       CONTRACT_CALL { return dace_node_set_library_properties(f.sdfg, f.s1, f.lib, "pure", "[1]"); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"lib\"", "object"}},
      {"dace_node_get_map_options", "NULL out_options",
       CONTRACT_CALL { return dace_node_get_map_options(nullptr, f.sdfg, f.s0, f.entry); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_options"}},
      {"dace_node_get_map_options", "out_options of unknown version (nothing written)",
       CONTRACT_CALL {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.version = 0;
         o.collapse = 99;
         dace_status_t s = dace_node_get_map_options(&o, f.sdfg, f.s0, f.entry);
         f.kept(o.collapse == 99, "out_options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_map_options_t", "version 0"}},
      {"dace_node_get_map_options", "node that is no map",
       CONTRACT_CALL {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.collapse = 99;
         dace_status_t s = dace_node_get_map_options(&o, f.sdfg, f.s0, f.acc_b);
         f.kept(o.collapse == 99, "out_options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"AccessNode"}},
      {"dace_node_set_symbol_mapping", "malformed mapping",
       CONTRACT_CALL { return dace_node_set_symbol_mapping(f.sdfg, f.s1, f.nested, "N: N -"); }, DACE_ERROR_PARSE,
       {"\"nested\""}},
      wrong_kind("dace_node_set_symbol_mapping", "node that is no NestedSDFG",
                 CONTRACT_CALL { return dace_node_set_symbol_mapping(f.sdfg, f.s1, f.lib, "N: N"); }, {"\"lib\""}),
      {"dace_map_propagate_memlet", "NULL out_memlet",
       CONTRACT_CALL { return dace_map_propagate_memlet(nullptr, f.sdfg, f.s0, f.entry, "A[i]"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_memlet"}},
      {"dace_map_propagate_memlet", "NULL memlet",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_map_propagate_memlet(&v, f.sdfg, f.s0, f.entry, nullptr);
         f.kept(v == kStr, "out_memlet");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"memlet"}},
      {"dace_map_propagate_memlet", "malformed memlet",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_map_propagate_memlet(&v, f.sdfg, f.s0, f.entry, "A[i");
         f.kept(v == kStr, "out_memlet");
         return s;
       },
       DACE_ERROR_PARSE, {}},
      {"dace_map_propagate_memlet", "container that does not exist",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_map_propagate_memlet(&v, f.sdfg, f.s0, f.entry, "Nope[i]");
         f.kept(v == kStr, "out_memlet");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"Nope"}},
      {"dace_map_propagate_memlet", "node that is no map",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_map_propagate_memlet(&v, f.sdfg, f.s0, f.tasklet, "A[i]");
         f.kept(v == kStr, "out_memlet");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"axpb\""}},
      {"dace_node_get_nested_sdfg", "NULL out_sdfg",
       CONTRACT_CALL {
         return dace_node_get_nested_sdfg(nullptr, f.sdfg, f.s1, f.nested);
       }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_sdfg"}},
      {"dace_node_get_nested_sdfg", "node that is no NestedSDFG",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_node_get_nested_sdfg(&out, f.sdfg, f.s1, f.lib);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"lib\""}},
      {"dace_node_set_library_properties", "malformed properties JSON",
       CONTRACT_CALL { return dace_node_set_library_properties(f.sdfg, f.s1, f.lib, nullptr, "{\"x\": [1,"); },
       DACE_ERROR_PARSE, {"\"lib\""}},
      wrong_kind("dace_node_set_library_properties", "node that is no LibraryNode",
                 CONTRACT_CALL { return dace_node_set_library_properties(f.sdfg, f.s1, f.nested, "pure", nullptr); },
                 {"\"nested\""}),
      {"dace_node_get_scope_partner", "NULL out_node",
       CONTRACT_CALL {
         return dace_node_get_scope_partner(nullptr, f.sdfg, f.s0, f.entry);
       }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_node"}},
      {"dace_node_get_scope_partner", "node that is no scope entry or exit",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_node_get_scope_partner(&id, f.sdfg, f.s0, f.tasklet);
         f.kept(id == kId, "out_node");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"axpb\""}},
      {"dace_node_get_scope_parent", "NULL out_entry",
       CONTRACT_CALL { return dace_node_get_scope_parent(nullptr, f.sdfg, f.s0, f.tasklet); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_entry"}},
  };

  state_rows(rows, "dace_state_add_access", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t id = kId;
    dace_status_t r = dace_state_add_access(&id, s, st, "B");
    f.kept(id == kId, "out_node");
    return r;
  });
  state_rows(rows, "dace_state_add_tasklet", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t id = kId;
    dace_status_t r = dace_state_add_tasklet(&id, s, st, "t", "a", "b", "b = a", DACE_LANGUAGE_PYTHON);
    f.kept(id == kId, "out_node");
    return r;
  });
  state_rows(rows, "dace_state_add_map", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t e = kId, x = kId;
    dace_status_t r = dace_state_add_map(&e, &x, s, st, "m", "i=0:N", nullptr);
    f.kept(e == kId && x == kId, "out_entry/out_exit");
    return r;
  });
  state_rows(rows, "dace_state_add_map_dict", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    const char* p[] = {"i"};
    const char* rg[] = {"0:N"};
    dace_id_t e = kId, x = kId;
    dace_status_t r = dace_state_add_map_dict(&e, &x, s, st, "m", p, rg, 1, nullptr);
    f.kept(e == kId && x == kId, "out_entry/out_exit");
    return r;
  });
  state_rows(rows, "dace_state_add_consume", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t e = kId, x = kId;
    dace_status_t r = dace_state_add_consume(&e, &x, s, st, "c", "p", "1", nullptr, nullptr, DACE_SCHEDULE_DEFAULT);
    f.kept(e == kId && x == kId, "out_entry/out_exit");
    return r;
  });
  state_rows(rows, "dace_state_add_nested_sdfg", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t id = kId;
    dace_status_t r = dace_state_add_nested_sdfg(&id, s, st, f.inner, "n2", "X", nullptr, nullptr);
    f.kept(id == kId, "out_node");
    return r;
  });
  state_rows(rows, "dace_state_add_library_node", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t id = kId;
    dace_status_t r = dace_state_add_library_node(&id, s, st, "l2", "dace.libraries.blas.nodes.matmul.MatMul", nullptr,
                                                  nullptr, nullptr, nullptr);
    f.kept(id == kId, "out_node");
    return r;
  });
  state_rows(rows, "dace_state_add_mapped_tasklet", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t t = kId, e = kId, x = kId;
    dace_status_t r =
        dace_state_add_mapped_tasklet(&t, &e, &x, s, st, "mt", "i=0:N", "a: A[i]", "b = a", "b: B[i]", nullptr);
    f.kept(t == kId && e == kId && x == kId, "out_tasklet/out_entry/out_exit");
    return r;
  });
  state_rows(rows, "dace_state_list_nodes", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    size_t n = kCount;
    dace_status_t r = dace_state_list_nodes(nullptr, 0, &n, s, st);
    f.kept(n == kCount, "out_count");
    return r;
  });

  auto node = [&rows](const char* fn, bool in_s1, dace_id_t Fixture::* id, AddressedCall call) {
    addressed_rows(rows, fn, "node", in_s1, id, std::move(call));
  };
  node("dace_state_remove_node", false, &Fixture::tasklet,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) { return dace_state_remove_node(s, st, n); });
  node("dace_node_get_kind", false, &Fixture::tasklet, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    dace_node_kind_t k = DACE_NODE_LIBRARY;
    dace_status_t r = dace_node_get_kind(&k, s, st, n);
    f.kept(k == DACE_NODE_LIBRARY, "out_kind");
    return r;
  });
  node("dace_node_get_label", false, &Fixture::tasklet, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    const char* v = kStr;
    dace_status_t r = dace_node_get_label(&v, s, st, n);
    f.kept(v == kStr, "out_label");
    return r;
  });
  node("dace_node_set_label", false, &Fixture::tasklet,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) { return dace_node_set_label(s, st, n, "renamed"); });
  node("dace_node_get_property", false, &Fixture::tasklet, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    const char* v = kStr;
    dace_status_t r = dace_node_get_property(&v, s, st, n, "label");
    f.kept(v == kStr, "out_value");
    return r;
  });
  node("dace_node_add_in_connector", false, &Fixture::tasklet, [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    return dace_node_add_in_connector(s, st, n, "c", nullptr);
  });
  node("dace_node_add_out_connector", false, &Fixture::tasklet,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    return dace_node_add_out_connector(s, st, n, "d", nullptr);
  });
  node("dace_node_remove_connector", false, &Fixture::tasklet, [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    return dace_node_remove_connector(s, st, n, 0, "a");
  });
  node("dace_node_get_connector_type", false, &Fixture::tasklet,
       [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
         const char* v = kStr;
         dace_status_t r = dace_node_get_connector_type(&v, s, st, n, 0, "a");
         f.kept(v == kStr, "out_dtype");
         return r;
       });
  node("dace_node_set_data", true, &Fixture::s1_acc,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) { return dace_node_set_data(s, st, n, "B"); });
  node("dace_node_set_code", false, &Fixture::tasklet, [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    return dace_node_set_code(s, st, n, "b = a + 1", DACE_LANGUAGE_PYTHON);
  });
  node("dace_node_set_schedule", false, &Fixture::entry, [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    return dace_node_set_schedule(s, st, n, DACE_SCHEDULE_SEQUENTIAL);
  });
  node("dace_node_set_map_ranges", false, &Fixture::entry,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) { return dace_node_set_map_ranges(s, st, n, "i=0:2"); });
  node("dace_node_set_map_options", false, &Fixture::entry, [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
    o.schedule = DACE_SCHEDULE_SEQUENTIAL;
    return dace_node_set_map_options(s, st, n, &o);
  });
  node("dace_node_get_map_options", false, &Fixture::entry, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
    o.collapse = 99;
    dace_status_t r = dace_node_get_map_options(&o, s, st, n);
    f.kept(o.collapse == 99, "out_options");
    return r;
  });
  node("dace_node_set_symbol_mapping", true, &Fixture::nested,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
         return dace_node_set_symbol_mapping(s, st, n, "N: 4");
       });
  node("dace_map_propagate_memlet", false, &Fixture::entry, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    const char* v = kStr;
    dace_status_t r = dace_map_propagate_memlet(&v, s, st, n, "A[i]");
    f.kept(v == kStr, "out_memlet");
    return r;
  });
  node("dace_node_get_nested_sdfg", true, &Fixture::nested, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
    dace_status_t r = dace_node_get_nested_sdfg(&out, s, st, n);
    f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
    return r;
  });
  node("dace_node_set_library_properties", true, &Fixture::lib,
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    return dace_node_set_library_properties(s, st, n, "pure", "{}");
  });
  node("dace_node_get_scope_partner", false, &Fixture::entry,
       [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    dace_id_t id = kId;
    dace_status_t r = dace_node_get_scope_partner(&id, s, st, n);
    f.kept(id == kId, "out_node");
    return r;
  });
  node("dace_node_get_scope_parent", false, &Fixture::tasklet,
       [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    dace_id_t id = kId;
    dace_status_t r = dace_node_get_scope_parent(&id, s, st, n);
    f.kept(id == kId, "out_entry");
    return r;
  });
  return rows;
}

std::vector<Row> rows_edges() {
  std::vector<Row> rows = {
      {"dace_state_add_edge", "NULL out_edge",
       CONTRACT_CALL {
         return dace_state_add_edge(nullptr, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "A", nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_edge"}},
      {"dace_state_add_edge", "source node that does not exist",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_status_t s = dace_state_add_edge(&e, f.sdfg, f.s0, 99, nullptr, f.acc_b, nullptr, "A", nullptr);
         f.kept(e == kId, "out_edge");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"node 99"}},
      {"dace_state_add_edge", "destination node that does not exist",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, 98, nullptr, "A", nullptr);
       },
       DACE_ERROR_NOT_FOUND, {"node 98"}},
      {"dace_state_add_edge", "connector that does not exist (on a tasklet)",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_status_t s = dace_state_add_edge(&e, f.sdfg, f.s0, f.tasklet, "zz", f.acc_b, nullptr, "B[0]", nullptr);
         f.kept(e == kId, "out_edge");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"zz\""}},
      {"dace_state_add_edge", "malformed memlet",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_status_t s = dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "A[0:", nullptr);
         f.kept(e == kId, "out_edge");
         return s;
       },
       DACE_ERROR_PARSE, {}},
      {"dace_state_add_edge", "memlet of a container that does not exist",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "Nope[0]", nullptr);
       },
       DACE_ERROR_NOT_FOUND, {"Nope"}},
      {"dace_state_add_edge", "memlet options of unknown version",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
         o.version = 0;
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "A", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_memlet_options_t", "version 0"}},
      {"dace_state_add_edge", "malformed WCR",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
         o.wcr = "lambda a, b: a +";
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "A", &o);
       },
       DACE_ERROR_PARSE, {"WCR"}},
      {"dace_state_add_edge", "a node joined to itself",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_status_t s = dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_a, nullptr, "A", nullptr);
         f.kept(e == kId, "out_edge");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"itself"}},
      {"dace_state_add_edge", "destination connector that does not exist",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.tasklet, "zz", "A[0]", nullptr);
       },
       DACE_ERROR_NOT_FOUND, {"\"zz\""}},
      {"dace_state_add_edge", "malformed volume",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
         o.volume = "N +";
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "A", &o);
       },
       DACE_ERROR_PARSE, {"volume"}},
      {"dace_state_add_edge", "subset of the wrong rank",
       CONTRACT_CALL {
         dace_id_t e = kId;
         return dace_state_add_edge(&e, f.sdfg, f.s0, f.acc_a, nullptr, f.acc_b, nullptr, "A[0, 0]", nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}},
      {"dace_edge_set_memlet", "valid memlet, malformed WCR (memlet kept)",
       CONTRACT_CALL {
         dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
         o.wcr = "lambda a: ";
         return dace_edge_set_memlet(f.sdfg, f.s0, f.edge, "A[0:2]", &o);
       },
       DACE_ERROR_PARSE, {"WCR"}},
      {"dace_state_list_edges", "NULL out_count",
       CONTRACT_CALL {
         dace_id_t ids[8];
         return dace_state_list_edges(ids, 8, nullptr, f.sdfg, f.s0);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_node_list_in_edges", "NULL out_count",
       CONTRACT_CALL { return dace_node_list_in_edges(nullptr, 0, nullptr, f.sdfg, f.s0, f.tasklet); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_node_list_out_edges", "NULL out_count",
       CONTRACT_CALL { return dace_node_list_out_edges(nullptr, 0, nullptr, f.sdfg, f.s0, f.tasklet); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_edge_get_memlet", "NULL out_memlet",
       CONTRACT_CALL { return dace_edge_get_memlet(nullptr, f.sdfg, f.s0, f.edge); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_memlet"}},
      {"dace_edge_get_memlet_property", "NULL out_value",
       CONTRACT_CALL { return dace_edge_get_memlet_property(nullptr, f.sdfg, f.s0, f.edge, "data"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_value"}},
      {"dace_edge_get_memlet_property", "NULL property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_edge_get_memlet_property(&v, f.sdfg, f.s0, f.edge, nullptr);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"property"}},
      {"dace_edge_get_memlet_property", "empty property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_edge_get_memlet_property(&v, f.sdfg, f.s0, f.edge, "");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"edge"}},
      {"dace_edge_get_memlet_property", "property that does not exist",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_edge_get_memlet_property(&v, f.sdfg, f.s0, f.edge, "colour");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"colour"}},
      {"dace_edge_set_memlet", "malformed memlet (old memlet kept)",
       CONTRACT_CALL { return dace_edge_set_memlet(f.sdfg, f.s0, f.edge, "A[0:N", nullptr); }, DACE_ERROR_PARSE, {}},
      {"dace_edge_set_memlet", "memlet of a container that does not exist",
       CONTRACT_CALL { return dace_edge_set_memlet(f.sdfg, f.s0, f.edge, "Nope[0:N]", nullptr); }, DACE_ERROR_NOT_FOUND,
       {"Nope"}},
      {"dace_edge_set_memlet", "memlet options of unknown version",
       CONTRACT_CALL {
         dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
         o.version = 3;
         return dace_edge_set_memlet(f.sdfg, f.s0, f.edge, "A[0:N]", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_memlet_options_t", "version 3"}},
  };

  state_rows(rows, "dace_state_add_edge", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    dace_id_t e = kId;
    dace_status_t r = dace_state_add_edge(&e, s, st, 0, nullptr, 1, nullptr, "A", nullptr);
    f.kept(e == kId, "out_edge");
    return r;
  });
  state_rows(rows, "dace_state_list_edges", [](Fixture& f, dace_sdfg_t* s, dace_id_t st) {
    size_t n = kCount;
    dace_status_t r = dace_state_list_edges(nullptr, 0, &n, s, st);
    f.kept(n == kCount, "out_count");
    return r;
  });
  auto node = [&rows](const char* fn, dace_id_t Fixture::* id, AddressedCall call) {
    addressed_rows(rows, fn, "node", false, id, std::move(call));
  };
  auto edge = [&rows](const char* fn, AddressedCall call) {
    addressed_rows(rows, fn, "edge", false, &Fixture::edge, std::move(call));
  };
  node("dace_node_list_in_edges", &Fixture::tasklet, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    size_t c = kCount;
    dace_status_t r = dace_node_list_in_edges(nullptr, 0, &c, s, st, n);
    f.kept(c == kCount, "out_count");
    return r;
  });
  node("dace_node_list_out_edges", &Fixture::tasklet, [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t n) {
    size_t c = kCount;
    dace_status_t r = dace_node_list_out_edges(nullptr, 0, &c, s, st, n);
    f.kept(c == kCount, "out_count");
    return r;
  });
  edge("dace_state_remove_edge",
       [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t e) { return dace_state_remove_edge(s, st, e); });
  edge("dace_edge_get_endpoints", [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t e) {
    dace_id_t a = kId, b = kId;
    const char *ca = kStr, *cb = kStr;
    dace_status_t r = dace_edge_get_endpoints(&a, &ca, &b, &cb, s, st, e);
    f.kept(a == kId && b == kId && ca == kStr && cb == kStr, "out_src/out_src_conn/out_dst/out_dst_conn");
    return r;
  });
  edge("dace_edge_get_memlet", [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t e) {
    const char* v = kStr;
    dace_status_t r = dace_edge_get_memlet(&v, s, st, e);
    f.kept(v == kStr, "out_memlet");
    return r;
  });
  edge("dace_edge_get_memlet_property", [](Fixture& f, dace_sdfg_t* s, dace_id_t st, dace_id_t e) {
    const char* v = kStr;
    dace_status_t r = dace_edge_get_memlet_property(&v, s, st, e, "data");
    f.kept(v == kStr, "out_value");
    return r;
  });
  edge("dace_edge_set_memlet", [](Fixture&, dace_sdfg_t* s, dace_id_t st, dace_id_t e) {
    return dace_edge_set_memlet(s, st, e, "A[0:2]", nullptr);
  });
  return rows;
}

}  // namespace capi_contract
