// The fixture and runner of the status-contract tables (see capi_status_contract.h).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "capi_program_test_util.h"
#include "capi_status_contract.h"

namespace capi_contract {
namespace {

dace_id_t find_node(dace_sdfg_t* sdfg, dace_id_t state, dace_node_kind_t kind, const char* data) {
  size_t n = 0;
  EXPECT_DACE_OK(dace_state_list_nodes(nullptr, 0, &n, sdfg, state));
  std::vector<dace_id_t> ids(n);
  EXPECT_DACE_OK(dace_state_list_nodes(ids.data(), ids.size(), &n, sdfg, state));
  for (dace_id_t id : ids) {
    dace_node_kind_t k{};
    EXPECT_DACE_OK(dace_node_get_kind(&k, sdfg, state, id));
    if (k != kind) continue;
    if (!data) return id;
    const char* d = nullptr;
    EXPECT_DACE_OK(dace_node_get_property(&d, sdfg, state, id, "data"));
    if (d && std::string(d) == data) return id;
  }
  return -1;
}

std::string json_of(const dace_sdfg_t* sdfg) {
  char* json = nullptr;
  if (dace_sdfg_to_json(&json, sdfg, nullptr) != DACE_OK) return std::string("<to_json failed: ") +
                                                              dace_last_error_message() + ">";
  std::string out(json);
  dace_string_free(json);
  return out;
}

std::string hash_of(const dace_sdfg_t* sdfg) {
  char hash[65] = {};
  if (dace_sdfg_hash(hash, sdfg) != DACE_OK) return "<hash failed>";
  return hash;
}

// Saved JSON before and after a row: on a difference, the first differing place (the whole
// documents would drown the report).
void expect_same(const std::string& before, const std::string& after, const char* what) {
  if (before == after) return;
  size_t i = 0;
  while (i < before.size() && i < after.size() && before[i] == after[i]) ++i;
  const size_t from = i > 150 ? i - 150 : 0;
  ADD_FAILURE() << what << " changed; first difference at byte " << i << "\nbefore: ..." << before.substr(from, 300)
                << "\nafter:  ..." << after.substr(from, 300);
}

// The axpb program (arguments A, B, N, s), compiled once for all rows; NULL when the CPU
// plugin cannot be loaded here (program rows are then skipped and say so).
struct Shared {
  dace_context_t* ctx = nullptr;
  dace_program_t* program = nullptr;
  int32_t array_index = -1, scalar_index = -1;
  Shared() {
    if (dace_context_create(&ctx) != DACE_OK) return;
    dace_sdfg_t* sdfg = capi_test::make_axpb("contract_program");
    dace_compile_options_t co = DACE_COMPILE_OPTIONS_INIT;
    co.opt_level = 0;
    if (dace_program_compile(&program, ctx, sdfg, &co) != DACE_OK) {
      std::printf("program rows skipped: %s\n", dace_last_error_message());
      program = nullptr;
    }
    dace_sdfg_release(sdfg);
    int32_t count = 0;
    if (program && dace_program_argument_count(&count, program) == DACE_OK) {
      for (int32_t i = 0; i < count; ++i) {
        const char* name = nullptr;
        dace_program_argument_info(&name, nullptr, nullptr, program, i);
        if (std::string(name) == "A") array_index = i;
        if (std::string(name) == "s") scalar_index = i;
      }
    }
  }
  ~Shared() {
    dace_program_release(program);
    dace_context_release(ctx);
  }
};

Shared& shared() {
  static Shared s;
  return s;
}

}  // namespace

void build_fixture(Fixture& f) {
  dace_sdfg_t* s = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&s, "contract"));
  f.sdfg = s;
  ASSERT_DACE_OK(dace_sdfg_add_symbol(s, "N", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_array(s, "A", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_array(s, "B", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_scalar(s, "s", DACE_FLOAT64, nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_transient(s, "T", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_stream(s, "S", DACE_FLOAT64, nullptr, nullptr));

  ASSERT_DACE_OK(dace_sdfg_add_state(&f.s0, s, DACE_ROOT_REGION, "s0"));
  dace_mapped_tasklet_options_t mo = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  mo.external_edges = 1;
  ASSERT_DACE_OK(dace_state_add_mapped_tasklet(&f.tasklet, &f.entry, &f.exit, s, f.s0, "axpb", "i=0:N", "a: A[i]",
                                               "b = a", "b: B[i]", &mo));
  f.acc_a = find_node(s, f.s0, DACE_NODE_ACCESS, "A");
  f.acc_b = find_node(s, f.s0, DACE_NODE_ACCESS, "B");
  ASSERT_GE(f.acc_a, 0);
  size_t n = 0;
  dace_id_t out_edges[4];
  ASSERT_DACE_OK(dace_node_list_out_edges(out_edges, 4, &n, s, f.s0, f.acc_a));
  ASSERT_EQ(n, 1u);
  f.edge = out_edges[0];

  ASSERT_DACE_OK(dace_sdfg_add_state(&f.s1, s, DACE_ROOT_REGION, "s1"));
  ASSERT_DACE_OK(dace_state_add_access(&f.s1_acc, s, f.s1, "A"));
  ASSERT_DACE_OK(dace_sdfg_create(&f.inner, "inner"));
  ASSERT_DACE_OK(dace_sdfg_add_symbol(f.inner, "N", DACE_INT64));
  ASSERT_DACE_OK(dace_sdfg_add_array(f.inner, "X", DACE_FLOAT64, "N", nullptr));
  ASSERT_DACE_OK(dace_state_add_nested_sdfg(&f.nested, s, f.s1, f.inner, "nested", "X", nullptr, "N: N"));
  ASSERT_DACE_OK(dace_state_add_library_node(&f.lib, s, f.s1, "lib", "dace.libraries.blas.nodes.matmul.MatMul",
                                             nullptr, nullptr, "_a, _b", "_c"));
  ASSERT_DACE_OK(dace_state_add_consume(&f.centry, &f.cexit, s, f.s1, "consume", "p", "1", nullptr, nullptr,
                                        DACE_SCHEDULE_DEFAULT));
  dace_id_t region = -2;
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&f.istate_edge, &region, s, f.s0, f.s1, "N > 0", "j = 1"));

  ASSERT_DACE_OK(dace_sdfg_add_loop(&f.loop, s, DACE_ROOT_REGION, "loop", "i", "i = 0", "i < N", "i = i + 1", 0));
  ASSERT_DACE_OK(dace_sdfg_add_state(&f.body, s, f.loop, "body"));
  ASSERT_DACE_OK(dace_sdfg_add_conditional(&f.cond, s, DACE_ROOT_REGION, "cond"));
  ASSERT_DACE_OK(dace_conditional_add_branch(&f.branch, s, f.cond, "N > 1"));
  ASSERT_DACE_OK(dace_sdfg_add_state(&f.then, s, f.branch, "then"));
  dace_id_t e = -1;
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&e, nullptr, s, f.s1, f.loop, nullptr, nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&e, nullptr, s, f.loop, f.cond, nullptr, nullptr));
}

void run_rows(const std::vector<Row>& rows) {
  Shared& sh = shared();
  ASSERT_NE(sh.ctx, nullptr);
  // A context option every row must leave alone (dace_context_set_option rows).
  ASSERT_DACE_OK(dace_context_set_option(sh.ctx, "contract_key", "v"));
  for (const Row& r : rows) {
    if (r.needs_program && !sh.program) continue;
    SCOPED_TRACE(std::string(r.function) + " with " + r.bad_input);
    Fixture f;
    build_fixture(f);
    if (::testing::Test::HasFatalFailure()) return;
    f.ctx = sh.ctx;
    f.program = sh.program;
    f.array_index = sh.array_index;
    f.scalar_index = sh.scalar_index;
    const std::string before = json_of(f.sdfg), hash_before = hash_of(f.sdfg);
    const std::string inner_before = json_of(f.inner);
    dace_clear_last_error();

    const dace_status_t got = r.call(f);

    const std::string msg = dace_last_error_message();
    EXPECT_EQ(got, r.expected) << "message: " << msg;
    if (r.expected != DACE_OK) {
      EXPECT_EQ(dace_last_error_status(), r.expected) << "the last-error record must hold the returned status";
      EXPECT_FALSE(msg.empty()) << "a failed call must say why";
    }
    for (const auto& w : r.words) EXPECT_NE(msg.find(w), std::string::npos) << "message: " << msg << "\nword: " << w;
    for (const auto& p : f.problems) ADD_FAILURE() << p;
    // "A failed call changes nothing": the SDFG saves byte-identically and hashes the same.
    expect_same(before, json_of(f.sdfg), "the SDFG");
    EXPECT_EQ(hash_of(f.sdfg), hash_before) << "the SDFG's hash changed";
    expect_same(inner_before, json_of(f.inner), "the caller's inner SDFG");
    const char* v = nullptr;
    EXPECT_EQ(dace_context_get_option(&v, sh.ctx, "contract_key"), DACE_OK);
    EXPECT_STREQ(v ? v : "<unset>", "v") << "the context's options changed";
    dace_sdfg_release(f.sdfg);
    dace_sdfg_release(f.inner);
  }
}

}  // namespace capi_contract
