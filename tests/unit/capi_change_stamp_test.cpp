// Every mutating function of the C API (each function of include/libdace.h that takes a
// non-const dace_sdfg_t*) moves the IR's change stamp (ir::SDFG::last_change) of the SDFG it
// edits, which the handle's remembered content hash is keyed by: one successful call per
// function, and the next dace_sdfg_hash must equal that of a fresh copy loaded from the saved
// JSON. A completeness check reads the header, so a new mutating function needs a row here.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "builder/api_internal.h"
#include "capi_program_test_util.h"
#include "capi_status_contract.h"

namespace capi_contract {
namespace {

// Functions with a non-const dace_sdfg_t* that do not edit: they count as mutating calls for
// threading (or free the handle) only.
const std::set<std::string> kNotEdits = {"dace_sdfg_release", "dace_node_get_nested_sdfg",
                                         "dace_sdfg_match_transformation"};

struct Edit {
  const char* function;
  // Runs on the contract fixture, or (on_valid) on the axpb SDFG, which validates (the
  // optimizer's functions refuse an SDFG that does not).
  std::function<dace_status_t(Fixture&, dace_sdfg_t*)> call;
  bool on_valid = false;
  // Runs before the stamp is read (what the edit needs that the SDFGs lack).
  std::function<dace_status_t(Fixture&, dace_sdfg_t*)> prepare = nullptr;
};

#define EDIT [](Fixture & f [[maybe_unused]], dace_sdfg_t * h [[maybe_unused]]) -> dace_status_t

std::vector<Edit> edits() {
  static const char* const kArgNames[] = {"A", "B"};
  static const char* const kParams[] = {"k"};
  static const char* const kRanges[] = {"0:N"};
  return {
      {"dace_sdfg_set_name", EDIT { return dace_sdfg_set_name(f.sdfg, "renamed"); }},
      {"dace_sdfg_add_symbol", EDIT { return dace_sdfg_add_symbol(f.sdfg, "M", DACE_INT64); }},
      {"dace_sdfg_remove_symbol", EDIT { return dace_sdfg_remove_symbol(f.sdfg, "M"); }, false,
       EDIT { return dace_sdfg_add_symbol(f.sdfg, "M", DACE_INT64); }},
      {"dace_sdfg_add_scalar", EDIT { return dace_sdfg_add_scalar(f.sdfg, "q", DACE_FLOAT64, nullptr); }},
      {"dace_sdfg_add_array", EDIT { return dace_sdfg_add_array(f.sdfg, "C", DACE_FLOAT64, "N", nullptr); }},
      {"dace_sdfg_add_transient", EDIT { return dace_sdfg_add_transient(f.sdfg, "U", DACE_FLOAT64, "N", nullptr); }},
      {"dace_sdfg_add_stream", EDIT { return dace_sdfg_add_stream(f.sdfg, "S2", DACE_FLOAT64, nullptr, nullptr); }},
      {"dace_sdfg_add_view", EDIT { return dace_sdfg_add_view(f.sdfg, "V", DACE_FLOAT64, "N", nullptr); }},
      {"dace_sdfg_add_reference", EDIT { return dace_sdfg_add_reference(f.sdfg, "R", DACE_FLOAT64, "N", nullptr); }},
      {"dace_sdfg_remove_data", EDIT { return dace_sdfg_remove_data(f.sdfg, "T"); }},
      {"dace_sdfg_set_arg_names", EDIT { return dace_sdfg_set_arg_names(f.sdfg, kArgNames, 2); }},
      {"dace_data_set_transient", EDIT { return dace_data_set_transient(f.sdfg, "T", 0); }},
      {"dace_data_set_storage", EDIT { return dace_data_set_storage(f.sdfg, "A", DACE_STORAGE_CPU_HEAP); }},
      {"dace_data_set_lifetime", EDIT { return dace_data_set_lifetime(f.sdfg, "T", DACE_LIFETIME_SDFG); }},
      {"dace_data_set_shape", EDIT { return dace_data_set_shape(f.sdfg, "T", "N + 1"); }},
      {"dace_data_set_strides", EDIT { return dace_data_set_strides(f.sdfg, "T", "2"); }},
      {"dace_sdfg_add_state", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_state(&id, f.sdfg, DACE_ROOT_REGION, "s2");
       }},
      {"dace_sdfg_add_region", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_region(&id, f.sdfg, DACE_ROOT_REGION, "r");
       }},
      {"dace_sdfg_add_loop", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_loop(&id, f.sdfg, DACE_ROOT_REGION, "l2", "k", "k = 0", "k < N", "k = k + 1", 0);
       }},
      {"dace_sdfg_add_conditional", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_conditional(&id, f.sdfg, DACE_ROOT_REGION, "c2");
       }},
      {"dace_conditional_add_branch", EDIT {
         dace_id_t id = -1;
         return dace_conditional_add_branch(&id, f.sdfg, f.cond, "N > 2");
       }},
      {"dace_sdfg_add_break", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_break(&id, f.sdfg, f.loop, "brk");
       }},
      {"dace_sdfg_add_continue", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_continue(&id, f.sdfg, f.loop, "cont");
       }},
      {"dace_sdfg_add_return", EDIT {
         dace_id_t id = -1;
         return dace_sdfg_add_return(&id, f.sdfg, DACE_ROOT_REGION, "ret");
       }},
      {"dace_sdfg_remove_block", EDIT { return dace_sdfg_remove_block(f.sdfg, f.then); }},
      {"dace_region_set_start_block", EDIT { return dace_region_set_start_block(f.sdfg, DACE_ROOT_REGION, f.s0); }},
      {"dace_block_set_label", EDIT { return dace_block_set_label(f.sdfg, f.s1, "renamed"); }},
      {"dace_loop_set_header", EDIT { return dace_loop_set_header(f.sdfg, f.loop, "i", "i = 1", "i < N", "i = i + 1", 0); }},
      {"dace_sdfg_add_interstate_edge", EDIT {
         dace_id_t e = -1, region = -1;
         return dace_sdfg_add_interstate_edge(&e, &region, f.sdfg, f.s0, f.cond, nullptr, nullptr);
       }},
      {"dace_interstate_edge_remove", EDIT { return dace_interstate_edge_remove(f.sdfg, DACE_ROOT_REGION, f.istate_edge); }},
      {"dace_interstate_edge_set_condition",
       EDIT { return dace_interstate_edge_set_condition(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "N > 3"); }},
      {"dace_interstate_edge_set_assignments",
       EDIT { return dace_interstate_edge_set_assignments(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "k = 2"); }},
      {"dace_interstate_edge_add_assignment",
       EDIT { return dace_interstate_edge_add_assignment(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "m", "3"); }},
      {"dace_state_add_access", EDIT {
         dace_id_t n = -1;
         return dace_state_add_access(&n, f.sdfg, f.s1, "B");
       }},
      {"dace_state_add_tasklet", EDIT {
         dace_id_t n = -1;
         return dace_state_add_tasklet(&n, f.sdfg, f.s1, "t", "a", "b", "b = a", DACE_LANGUAGE_PYTHON);
       }},
      {"dace_state_add_map", EDIT {
         dace_id_t e = -1, x = -1;
         return dace_state_add_map(&e, &x, f.sdfg, f.s1, "m", "k=0:N", nullptr);
       }},
      {"dace_state_add_map_dict", EDIT {
         dace_id_t e = -1, x = -1;
         return dace_state_add_map_dict(&e, &x, f.sdfg, f.s1, "m", kParams, kRanges, 1, nullptr);
       }},
      {"dace_state_add_consume", EDIT {
         dace_id_t e = -1, x = -1;
         return dace_state_add_consume(&e, &x, f.sdfg, f.s1, "c", "p", "1", nullptr, nullptr, DACE_SCHEDULE_DEFAULT);
       }},
      {"dace_state_add_nested_sdfg", EDIT {
         dace_id_t n = -1;
         return dace_state_add_nested_sdfg(&n, f.sdfg, f.s1, f.inner, "nested2", "X", nullptr, "N: N");
       }},
      {"dace_state_add_library_node", EDIT {
         dace_id_t n = -1;
         return dace_state_add_library_node(&n, f.sdfg, f.s1, "lib2", "dace.libraries.blas.nodes.matmul.MatMul", nullptr,
                                            nullptr, "_a, _b", "_c");
       }},
      {"dace_state_add_mapped_tasklet", EDIT {
         return dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, f.sdfg, f.s1, "mt", "k=0:N", "a: A[k]", "b = a",
                                              "b: B[k]", nullptr);
       }},
      {"dace_state_remove_node", EDIT { return dace_state_remove_node(f.sdfg, f.s1, f.lib); }},
      {"dace_node_set_label", EDIT { return dace_node_set_label(f.sdfg, f.s0, f.tasklet, "t2"); }},
      {"dace_node_add_in_connector", EDIT { return dace_node_add_in_connector(f.sdfg, f.s0, f.tasklet, "c", nullptr); }},
      {"dace_node_add_out_connector", EDIT { return dace_node_add_out_connector(f.sdfg, f.s0, f.tasklet, "d", nullptr); }},
      {"dace_node_remove_connector", EDIT { return dace_node_remove_connector(f.sdfg, f.s1, f.lib, 0, "_a"); }},
      {"dace_node_set_data", EDIT { return dace_node_set_data(f.sdfg, f.s1, f.s1_acc, "B"); }},
      {"dace_node_set_code",
       EDIT { return dace_node_set_code(f.sdfg, f.s0, f.tasklet, "b = a + 1", DACE_LANGUAGE_PYTHON); }},
      {"dace_node_set_schedule", EDIT { return dace_node_set_schedule(f.sdfg, f.s0, f.entry, DACE_SCHEDULE_SEQUENTIAL); }},
      {"dace_node_set_map_ranges", EDIT { return dace_node_set_map_ranges(f.sdfg, f.s0, f.entry, "i=1:N"); }},
      {"dace_node_set_map_options", EDIT {
         dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
         o.collapse = 1;
         o.unroll = 1;
         return dace_node_set_map_options(f.sdfg, f.s0, f.entry, &o);
       }},
      {"dace_node_set_symbol_mapping", EDIT { return dace_node_set_symbol_mapping(f.sdfg, f.s1, f.nested, "N: N + 1"); }},
      {"dace_node_set_library_properties",
       EDIT { return dace_node_set_library_properties(f.sdfg, f.s1, f.lib, nullptr, nullptr); }},
      {"dace_state_add_edge", EDIT {
         dace_id_t e = -1;
         return dace_state_add_edge(&e, f.sdfg, f.s1, f.s1_acc, nullptr, f.nested, "X", "A[0:N]", nullptr);
       }},
      {"dace_state_remove_edge", EDIT { return dace_state_remove_edge(f.sdfg, f.s0, f.edge); }},
      {"dace_edge_set_memlet", EDIT { return dace_edge_set_memlet(f.sdfg, f.s0, f.edge, "A[1:N]", nullptr); }},
      {"dace_sdfg_simplify", EDIT { return dace_sdfg_simplify(h); }, true},
      {"dace_sdfg_auto_optimize", EDIT { return dace_sdfg_auto_optimize(h, DACE_DEVICE_CPU, nullptr); }, true},
      {"dace_sdfg_apply_transformation", EDIT { return dace_sdfg_apply_transformation(h, "MapTiling", nullptr); }, true},
      {"dace_sdfg_apply_transformation_repeated", EDIT {
         int32_t n = 0;
         return dace_sdfg_apply_transformation_repeated(&n, h, "TrivialMapElimination", nullptr);
       },
       true},
      {"dace_sdfg_replay_history", EDIT { return dace_sdfg_replay_history(h, "[]"); }, true},
      {"dace_sdfg_revert_history", EDIT { return dace_sdfg_revert_history(h, 1); }, true,
       EDIT { return dace_sdfg_apply_transformation(h, "MapTiling", nullptr); }},
      {"dace_sdfg_set_instrument", EDIT { return dace_sdfg_set_instrument(f.sdfg, "Timer"); }},
      {"dace_state_set_instrument", EDIT { return dace_state_set_instrument(f.sdfg, f.s0, "Timer"); }},
      {"dace_node_set_instrument", EDIT { return dace_node_set_instrument(f.sdfg, f.s0, f.entry, "Timer"); }},
      {"dace_sdfg_instrument", EDIT {
         int32_t n = 0;
         return dace_sdfg_instrument(&n, f.sdfg, "all");
       }},
  };
}

using capi_test::fresh_hash_of;
using capi_test::hash_of;

TEST(CApiChangeStamp, EveryMutatingFunctionMovesIt) {
  for (const Edit& e : edits()) {
    SCOPED_TRACE(e.function);
    Fixture f;
    build_fixture(f);
    if (::testing::Test::HasFatalFailure()) return;
    dace_sdfg_t* valid = capi_test::make_axpb("stamped");
    dace_sdfg_t* target = e.on_valid ? valid : f.sdfg;
    if (e.prepare) {
      ASSERT_EQ(e.prepare(f, valid), DACE_OK) << dace_last_error_message();
    }
    (void)hash_of(target);  // remembered, keyed by the stamp
    const uint64_t before = target->sdfg->last_change();
    ASSERT_EQ(e.call(f, valid), DACE_OK) << dace_last_error_message();
    EXPECT_GT(target->sdfg->last_change(), before);
    EXPECT_EQ(hash_of(target), fresh_hash_of(target));
    dace_sdfg_release(valid);
    dace_sdfg_release(f.sdfg);
    dace_sdfg_release(f.inner);
  }
}

// The table covers every function of the header that takes a non-const SDFG handle.
TEST(CApiChangeStamp, EveryMutatingFunctionHasARow) {
  std::ifstream in(std::string(LIBDACE_SOURCE_DIR) + "/include/libdace.h");
  ASSERT_TRUE(in) << "cannot read include/libdace.h";
  std::stringstream text;
  text << in.rdbuf();
  // Declarations up to their ';', joined across lines.
  static const std::regex decl(R"(DACE_API\s+[^(;]*?\b(dace_[A-Za-z0-9_]+)\s*\(([^;]*)\);)");
  static const std::regex mutable_sdfg(R"((^|[(,])\s*dace_sdfg_t\s*\*\s*[A-Za-z_])");
  std::set<std::string> covered;
  for (const Edit& e : edits()) covered.insert(e.function);
  const std::string all = text.str();
  int mutating = 0;
  for (std::sregex_iterator it(all.begin(), all.end(), decl), end; it != end; ++it) {
    const std::string name = (*it)[1], params = (*it)[2];
    if (!std::regex_search(params, mutable_sdfg) || kNotEdits.count(name)) continue;
    ++mutating;
    EXPECT_TRUE(covered.count(name)) << name << " takes a mutable SDFG handle but has no row here";
  }
  EXPECT_GT(mutating, 50) << "the header parse found too few functions";
}

}  // namespace
}  // namespace capi_contract
