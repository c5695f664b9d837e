// Shared by the status-contract tests (tests/unit/capi_status_contract_*.cpp): one table row
// per (C API function, bad input) with the status and the message words include/libdace.h
// documents, a fixture SDFG that has one element of every kind the rows address, and the
// runner that checks the header's "a failed call changes nothing" rule for every row.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace capi_contract {

// A fresh copy per row, so that a row whose call wrongly succeeds cannot disturb the next.
//   sdfg "contract": symbol N; arrays A[N], B[N]; scalar s; transient T[N]; stream S;
//   root region: state s0 -> state s1 -> loop "loop" (state "body") -> conditional "cond"
//     (one branch "N > 1" holding state "then");
//   s0: A -> map entry -> tasklet "axpb" (a -> b) -> map exit -> B (DaCe's mapped tasklet);
//   s1: access A, nested SDFG "nested" (inner: symbol N, array X[N]; input X), library node
//     "lib" (MatMul; _a, _b -> _c), consume scope over S.
struct Fixture {
  dace_sdfg_t* sdfg = nullptr;
  dace_sdfg_t* inner = nullptr;  // owned copy of the nested SDFG's source (for add_nested_sdfg)
  dace_context_t* ctx = nullptr;       // shared by all rows
  dace_program_t* program = nullptr;   // shared: the compiled axpb program (A, B, N, s), or NULL
  dace_id_t s0 = -1, s1 = -1, loop = -1, body = -1, cond = -1, branch = -1, then = -1;
  dace_id_t acc_a = -1, entry = -1, exit = -1, tasklet = -1, acc_b = -1;  // in s0
  dace_id_t s1_acc = -1, nested = -1, lib = -1, centry = -1, cexit = -1;  // in s1
  dace_id_t edge = -1;            // a dataflow edge of s0 (A -> map entry)
  dace_id_t istate_edge = -1;     // the interstate edge s0 -> s1 in the root region (assigns j = 1)
  dace_id_t array_index = -1;     // program argument index of array "A"
  dace_id_t scalar_index = -1;    // program argument index of scalar "s"
  // Failed checks of the current row (out-parameters written on error, ...), reported by
  // the runner.
  std::vector<std::string> problems;
  void check(bool ok, const std::string& what) {
    if (!ok) problems.push_back(what);
  }
  // Records a problem unless `ok`: `what` names the out-parameter that was written.
  void kept(bool ok, const char* what) { check(ok, std::string(what) + " was written by a failed call"); }
};

// A row's call: `f` may go unused (NULL-handle rows).
#define CONTRACT_CALL [](::capi_contract::Fixture & f [[maybe_unused]]) -> dace_status_t

struct Row {
  const char* function;
  const char* bad_input;
  std::function<dace_status_t(Fixture&)> call;
  dace_status_t expected;
  std::vector<std::string> words;  // each must appear in dace_last_error_message()
  bool needs_program = false;
};

// Tables, one per file; the completeness test joins them.
std::vector<Row> rows_general();   // status, options, context, lifecycle, I/O, symbols
std::vector<Row> rows_data();      // data descriptors and arg names
std::vector<Row> rows_blocks();    // blocks, regions, interstate edges
std::vector<Row> rows_nodes();     // dataflow nodes
std::vector<Row> rows_edges();     // dataflow edges and memlets
std::vector<Row> rows_program();   // compiled programs

// Builds the fixture SDFG described above into `f` (sdfg, inner and the element ids).
void build_fixture(Fixture& f);

// Runs every row (building a fresh fixture each time) with gtest expectations: the status,
// the last-error status and message words, out-parameters untouched, and the SDFG's saved
// JSON and hash byte-identical before and after the call.
void run_rows(const std::vector<Row>& rows);

// Sentinels written into out-parameters before a failing call.
inline constexpr dace_id_t kId = 7777;
inline constexpr size_t kCount = 4242;
inline const char* const kStr = "untouched";

}  // namespace capi_contract
