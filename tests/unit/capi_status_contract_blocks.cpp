// Status-contract rows of the control-flow functions: blocks, regions, loops, conditionals
// and interstate edges (see capi_status_contract_test.cpp for the rules the rows check).
#include <string>
#include <vector>

#include "capi_status_contract.h"

namespace capi_contract {
namespace {

using AddBlockFn = dace_status_t (*)(dace_id_t*, dace_sdfg_t*, dace_id_t, const char*);

// Rows every add_<block>(out, sdfg, parent, label) shares: NULL out-id, NULL sdfg, a parent
// that does not exist (NOT_FOUND), a parent that is no region (a state, a conditional:
// wrong kind) and a label that exists (ALREADY_EXISTS). `parent` is the fixture's region
// valid for this kind of block (break/continue need a loop).
void add_block_rows(std::vector<Row>& rows, const char* function, const char* out_name, AddBlockFn fn,
                    bool needs_loop) {
  auto parent = [needs_loop](const Fixture& f) { return needs_loop ? f.loop : DACE_ROOT_REGION; };
  rows.push_back({function, "NULL out-id", [fn, parent](Fixture& f) { return fn(nullptr, f.sdfg, parent(f), "fresh"); },
                  DACE_ERROR_INVALID_ARGUMENT, {out_name}});
  rows.push_back({function, "NULL sdfg",
                  [fn, out_name](Fixture& f) {
                    dace_id_t id = kId;
                    dace_status_t s = fn(&id, nullptr, DACE_ROOT_REGION, "fresh");
                    f.kept(id == kId, out_name);
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "parent that does not exist",
                  [fn, out_name](Fixture& f) {
                    dace_id_t id = kId;
                    dace_status_t s = fn(&id, f.sdfg, 4711, "fresh");
                    f.kept(id == kId, out_name);
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"4711"}});
  rows.push_back({function, "parent is a state (no region)",
                  [fn, out_name](Fixture& f) {
                    dace_id_t id = kId;
                    dace_status_t s = fn(&id, f.sdfg, f.s0, "fresh");
                    f.kept(id == kId, out_name);
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"\"s0\"", "not a control-flow region"}});
  rows.push_back({function, "parent is a conditional (blocks go into its branches)",
                  [fn, out_name](Fixture& f) {
                    dace_id_t id = kId;
                    dace_status_t s = fn(&id, f.sdfg, f.cond, "fresh");
                    f.kept(id == kId, out_name);
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"\"cond\""}});
  rows.push_back({function, "label that exists",
                  [fn, parent, out_name](Fixture& f) {
                    dace_id_t id = kId;
                    dace_status_t s = fn(&id, f.sdfg, parent(f), "body");
                    f.kept(id == kId, out_name);
                    return s;
                  },
                  DACE_ERROR_ALREADY_EXISTS, {"\"body\""}});
}

dace_status_t add_loop(dace_id_t* out, dace_sdfg_t* sdfg, dace_id_t parent, const char* label) {
  return dace_sdfg_add_loop(out, sdfg, parent, label, "k", "k = 0", "k < N", "k = k + 1", 0);
}

// Rows of (T* out, sdfg, id) getters over blocks: NULL out, NULL sdfg, id that does not exist.
template <class T, class Fn>
void block_getter_rows(std::vector<Row>& rows, const char* function, const char* out_name, Fn fn, T sentinel) {
  rows.push_back({function, "NULL out-parameter", [fn](Fixture& f) { return fn(nullptr, f.sdfg, f.s0); },
                  DACE_ERROR_INVALID_ARGUMENT, {out_name}});
  rows.push_back({function, "NULL sdfg",
                  [fn, sentinel, out_name](Fixture& f) {
                    T v = sentinel;
                    dace_status_t s = fn(&v, nullptr, f.s0);
                    f.kept(v == sentinel, out_name);
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "block that does not exist",
                  [fn, sentinel, out_name](Fixture& f) {
                    T v = sentinel;
                    dace_status_t s = fn(&v, f.sdfg, 4711);
                    f.kept(v == sentinel, out_name);
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"block 4711"}});
}

// Rows of two-call list functions over a region-like id: NULL out_count, NULL sdfg, an id
// that does not exist, and `wrong` (an id of the wrong kind, INVALID_ARGUMENT).
using ListFn = dace_status_t (*)(dace_id_t*, size_t, size_t*, const dace_sdfg_t*, dace_id_t);
void list_rows(std::vector<Row>& rows, const char* function, ListFn fn, dace_id_t Fixture::* good,
               dace_id_t Fixture::* wrong, const char* wrong_word) {
  rows.push_back({function, "NULL out_count",
                  [fn, good](Fixture& f) {
                    dace_id_t ids[8];
                    return fn(ids, 8, nullptr, f.sdfg, f.*good);
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"out_count"}});
  rows.push_back({function, "NULL sdfg",
                  [fn, good](Fixture& f) {
                    size_t n = kCount;
                    dace_status_t s = fn(nullptr, 0, &n, nullptr, f.*good);
                    f.kept(n == kCount, "out_count");
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "id that does not exist",
                  [fn](Fixture& f) {
                    size_t n = kCount;
                    dace_id_t ids[2] = {kId, kId};
                    dace_status_t s = fn(ids, 2, &n, f.sdfg, 4711);
                    f.kept(n == kCount && ids[0] == kId, "out_count/out_ids");
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"4711"}});
  rows.push_back({function, "id of the wrong kind",
                  [fn, wrong](Fixture& f) {
                    size_t n = kCount;
                    dace_id_t ids[2] = {kId, kId};
                    dace_status_t s = fn(ids, 2, &n, f.sdfg, f.*wrong);
                    f.kept(n == kCount && ids[0] == kId, "out_count/out_ids");
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {wrong_word}});
}

// Rows of interstate-edge functions addressed by (region, edge): NULL sdfg, a region that
// does not exist, a region id that is a state, an edge slot that does not exist.
template <class Fn>
void istate_edge_rows(std::vector<Row>& rows, const char* function, Fn fn) {
  rows.push_back({function, "NULL sdfg", [fn](Fixture& f) { return fn(f, nullptr, DACE_ROOT_REGION, f.istate_edge); },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "region that does not exist",
                  [fn](Fixture& f) { return fn(f, f.sdfg, 4711, f.istate_edge); }, DACE_ERROR_NOT_FOUND, {"4711"}});
  rows.push_back({function, "region id of a state", [fn](Fixture& f) { return fn(f, f.sdfg, f.s0, f.istate_edge); },
                  DACE_ERROR_INVALID_ARGUMENT, {"\"s0\""}});
  rows.push_back({function, "edge that does not exist",
                  [fn](Fixture& f) { return fn(f, f.sdfg, DACE_ROOT_REGION, 99); },
                  DACE_ERROR_NOT_FOUND, {"99"}});
}

}  // namespace

std::vector<Row> rows_blocks() {
  std::vector<Row> rows = {
      // --- loops: `condition` is required; init/update/condition are parsed.
      {"dace_sdfg_add_loop", "NULL condition",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_add_loop(&id, f.sdfg, DACE_ROOT_REGION, "l2", "k", "k = 0", nullptr, nullptr, 0);
         f.kept(id == kId, "out_loop");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"condition"}},
      {"dace_sdfg_add_loop", "malformed condition",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_sdfg_add_loop(&id, f.sdfg, DACE_ROOT_REGION, "l2", "k", "k = 0", "k <", nullptr, 0);
       },
       DACE_ERROR_PARSE, {"condition"}},
      {"dace_sdfg_add_loop", "malformed init",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_sdfg_add_loop(&id, f.sdfg, DACE_ROOT_REGION, "l2", "k", "k = = 0", "k < N", nullptr, 0);
       },
       DACE_ERROR_PARSE, {"init"}},
      {"dace_sdfg_add_loop", "loop variable that is no identifier",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_sdfg_add_loop(&id, f.sdfg, DACE_ROOT_REGION, "l2", "2k", nullptr, "N > 0", nullptr, 0);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"2k"}},

      // --- branches: the conditional must exist and be a conditional; else stays last.
      {"dace_conditional_add_branch", "NULL out_region",
       CONTRACT_CALL { return dace_conditional_add_branch(nullptr, f.sdfg, f.cond, "N > 5"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_region"}},
      {"dace_conditional_add_branch", "NULL sdfg",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_conditional_add_branch(&id, nullptr, f.cond, "N > 5");
         f.kept(id == kId, "out_region");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_conditional_add_branch", "conditional that does not exist",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_conditional_add_branch(&id, f.sdfg, 4711, "N > 5");
         f.kept(id == kId, "out_region");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_conditional_add_branch", "block that is no conditional",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_conditional_add_branch(&id, f.sdfg, f.loop, "N > 5");
         f.kept(id == kId, "out_region");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"loop\"", "ConditionalBlock"}},
      {"dace_conditional_add_branch", "malformed condition",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_conditional_add_branch(&id, f.sdfg, f.cond, "N >");
         f.kept(id == kId, "out_region");
         return s;
       },
       DACE_ERROR_PARSE, {"\"cond\""}},
      {"dace_conditional_add_branch", "branch after the else branch",
       CONTRACT_CALL {
         // On its own SDFG: adding the else branch changes the fixture.
         dace_sdfg_t* s = nullptr;
         dace_id_t c = -1, b = -1, id = kId;
         if (dace_sdfg_create(&s, "branches") != DACE_OK ||
             dace_sdfg_add_conditional(&c, s, DACE_ROOT_REGION, "c") != DACE_OK ||
             dace_conditional_add_branch(&b, s, c, nullptr) != DACE_OK) {
           dace_sdfg_release(s);
           return DACE_ERROR_INTERNAL;
         }
         dace_status_t r = dace_conditional_add_branch(&id, s, c, "1 > 0");
         f.kept(id == kId, "out_region");
         size_t n = 0;
         f.check(dace_conditional_list_branches(nullptr, 0, &n, s, c) == DACE_OK && n == 1,
                 "the failed call must not add a branch");
         dace_sdfg_release(s);
         return r;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"else"}},

      // --- break/continue must be inside a loop.
      {"dace_sdfg_add_break", "outside any loop",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_add_break(&id, f.sdfg, DACE_ROOT_REGION, "brk");
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"loop"}},
      {"dace_sdfg_add_continue", "outside any loop (in a conditional's branch)",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_add_continue(&id, f.sdfg, f.branch, "cnt");
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"loop"}},

      // --- remove_block
      {"dace_sdfg_remove_block", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_remove_block(nullptr, f.s0); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_remove_block", "block that does not exist",
       CONTRACT_CALL { return dace_sdfg_remove_block(f.sdfg, 4711); }, DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_sdfg_remove_block", "the root region",
       CONTRACT_CALL { return dace_sdfg_remove_block(f.sdfg, DACE_ROOT_REGION); }, DACE_ERROR_INVALID_ARGUMENT,
       {"root"}},

      // --- list_states
      {"dace_sdfg_list_states", "NULL out_count",
       CONTRACT_CALL {
         dace_id_t ids[8];
         return dace_sdfg_list_states(ids, 8, nullptr, f.sdfg);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_sdfg_list_states", "NULL sdfg",
       CONTRACT_CALL {
         size_t n = kCount;
         dace_status_t s = dace_sdfg_list_states(nullptr, 0, &n, nullptr);
         f.kept(n == kCount, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},

      // --- start blocks
      {"dace_region_get_start_block", "NULL out_block",
       CONTRACT_CALL { return dace_region_get_start_block(nullptr, f.sdfg, DACE_ROOT_REGION); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_block"}},
      {"dace_region_get_start_block", "NULL sdfg",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_region_get_start_block(&id, nullptr, DACE_ROOT_REGION);
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_region_get_start_block", "region that does not exist",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_region_get_start_block(&id, f.sdfg, 4711);
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_region_get_start_block", "region id of a state",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_region_get_start_block(&id, f.sdfg, f.s1);
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"s1\""}},
      {"dace_region_set_start_block", "NULL sdfg",
       CONTRACT_CALL { return dace_region_set_start_block(nullptr, DACE_ROOT_REGION, f.s1); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_region_set_start_block", "region that does not exist",
       CONTRACT_CALL { return dace_region_set_start_block(f.sdfg, 4711, f.s1); }, DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_region_set_start_block", "block that does not exist",
       CONTRACT_CALL { return dace_region_set_start_block(f.sdfg, DACE_ROOT_REGION, 4711); }, DACE_ERROR_NOT_FOUND,
       {"4711"}},
      {"dace_region_set_start_block", "block of another region",
       CONTRACT_CALL { return dace_region_set_start_block(f.sdfg, DACE_ROOT_REGION, f.body); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"body\""}},

      // --- labels
      {"dace_block_set_label", "NULL sdfg", CONTRACT_CALL { return dace_block_set_label(nullptr, f.s0, "x"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_block_set_label", "NULL label", CONTRACT_CALL { return dace_block_set_label(f.sdfg, f.s0, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"label"}},
      {"dace_block_set_label", "block that does not exist",
       CONTRACT_CALL { return dace_block_set_label(f.sdfg, 4711, "x"); }, DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_block_set_label", "label of another block",
       CONTRACT_CALL { return dace_block_set_label(f.sdfg, f.s0, "s1"); }, DACE_ERROR_ALREADY_EXISTS, {"\"s1\""}},
      {"dace_block_set_label", "empty label", CONTRACT_CALL { return dace_block_set_label(f.sdfg, f.s0, ""); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"s0\"", "label"}},
      {"dace_region_set_start_block", "region id of a conditional",
       CONTRACT_CALL { return dace_region_set_start_block(f.sdfg, f.cond, f.branch); }, DACE_ERROR_INVALID_ARGUMENT,
       {"\"cond\""}},
      {"dace_loop_set_header", "loop variable that is no identifier",
       CONTRACT_CALL { return dace_loop_set_header(f.sdfg, f.loop, "1x", nullptr, "i < 2", nullptr, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"1x"}},
      {"dace_conditional_list_branches", "a branch region (no conditional)",
       CONTRACT_CALL {
         size_t n = kCount;
         dace_status_t s = dace_conditional_list_branches(nullptr, 0, &n, f.sdfg, f.branch);
         f.kept(n == kCount, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"ConditionalBlock"}},
      {"dace_sdfg_add_interstate_edge", "the root region as an endpoint",
       CONTRACT_CALL {
         dace_id_t e = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, nullptr, f.sdfg, DACE_ROOT_REGION, f.s0, nullptr, nullptr);
         f.kept(e == kId, "out_edge");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"root"}},
      {"dace_block_get_parent", "the root region (has no parent)",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_block_get_parent(&id, f.sdfg, DACE_ROOT_REGION);
         f.kept(id == kId, "out_region");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"root"}},

      // --- find_block
      {"dace_sdfg_find_block", "NULL out_block", CONTRACT_CALL { return dace_sdfg_find_block(nullptr, f.sdfg, "s0"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_block"}},
      {"dace_sdfg_find_block", "NULL sdfg",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_find_block(&id, nullptr, "s0");
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_find_block", "NULL label",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_find_block(&id, f.sdfg, nullptr);
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"label"}},
      {"dace_sdfg_find_block", "empty label (a label that does not exist)",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_find_block(&id, f.sdfg, "");
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"block \"\""}},
      {"dace_sdfg_add_loop", "empty condition (required)",
       CONTRACT_CALL {
         dace_id_t id = kId;
         return dace_sdfg_add_loop(&id, f.sdfg, DACE_ROOT_REGION, "l2", "k", nullptr, "", nullptr, 0);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"condition"}},
      {"dace_block_get_property", "empty property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_block_get_property(&v, f.sdfg, f.loop, "");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"loop\""}},
      {"dace_interstate_edge_add_assignment", "empty name",
       CONTRACT_CALL { return dace_interstate_edge_add_assignment(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "", "1"); },
       DACE_ERROR_INVALID_ARGUMENT, {"assignment target"}},
      {"dace_sdfg_find_block", "label that does not exist",
       CONTRACT_CALL {
         dace_id_t id = kId;
         dace_status_t s = dace_sdfg_find_block(&id, f.sdfg, "nosuchblock");
         f.kept(id == kId, "out_block");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"nosuchblock"}},

      // --- block properties
      {"dace_block_get_property", "NULL property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_block_get_property(&v, f.sdfg, f.loop, nullptr);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"property"}},
      {"dace_block_get_property", "property the kind lacks (condition of a state)",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_block_get_property(&v, f.sdfg, f.s0, "condition");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"s0\"", "condition"}},
      {"dace_block_get_property", "property of no kind",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_block_get_property(&v, f.sdfg, f.loop, "colour");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"colour"}},

      // --- loop headers
      {"dace_loop_set_header", "NULL sdfg",
       CONTRACT_CALL { return dace_loop_set_header(nullptr, f.loop, "i", nullptr, "i < 2", nullptr, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_loop_set_header", "loop that does not exist",
       CONTRACT_CALL { return dace_loop_set_header(f.sdfg, 4711, "i", nullptr, "i < 2", nullptr, 0); },
       DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_loop_set_header", "block that is no loop",
       CONTRACT_CALL { return dace_loop_set_header(f.sdfg, f.s0, "i", nullptr, "i < 2", nullptr, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"\"s0\"", "LoopRegion"}},
      {"dace_loop_set_header", "malformed init (nothing replaced)",
       CONTRACT_CALL { return dace_loop_set_header(f.sdfg, f.loop, "j", "j = ", "j < 2", nullptr, 0); },
       DACE_ERROR_PARSE, {"\"loop\"", "init"}},
      {"dace_loop_set_header", "NULL condition",
       CONTRACT_CALL { return dace_loop_set_header(f.sdfg, f.loop, "i", "i = 0", nullptr, nullptr, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"condition"}},
      {"dace_loop_set_header", "malformed update (nothing replaced)",
       CONTRACT_CALL { return dace_loop_set_header(f.sdfg, f.loop, "i", "i = 5", "i < 9", "i = + ", 0); },
       DACE_ERROR_PARSE, {"update"}},

      // --- interstate edges
      {"dace_sdfg_add_interstate_edge", "NULL out_edge",
       CONTRACT_CALL { return dace_sdfg_add_interstate_edge(nullptr, nullptr, f.sdfg, f.s1, f.s0, nullptr, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_edge"}},
      {"dace_sdfg_add_interstate_edge", "NULL sdfg",
       CONTRACT_CALL {
         dace_id_t e = kId, r = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, &r, nullptr, f.s1, f.s0, nullptr, nullptr);
         f.kept(e == kId && r == kId, "out_edge/out_region");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_add_interstate_edge", "source that does not exist",
       CONTRACT_CALL {
         dace_id_t e = kId, r = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, &r, f.sdfg, 4711, f.s0, nullptr, nullptr);
         f.kept(e == kId && r == kId, "out_edge/out_region");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"4711"}},
      {"dace_sdfg_add_interstate_edge", "destination that does not exist",
       CONTRACT_CALL {
         dace_id_t e = kId, r = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, &r, f.sdfg, f.s0, 4712, nullptr, nullptr);
         f.kept(e == kId && r == kId, "out_edge/out_region");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"4712"}},
      {"dace_sdfg_add_interstate_edge", "blocks of different regions",
       CONTRACT_CALL {
         dace_id_t e = kId, r = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, &r, f.sdfg, f.s0, f.body, nullptr, nullptr);
         f.kept(e == kId && r == kId, "out_edge/out_region");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"s0\"", "\"body\""}},
      {"dace_sdfg_add_interstate_edge", "malformed condition",
       CONTRACT_CALL {
         dace_id_t e = kId, r = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, &r, f.sdfg, f.s1, f.s0, "N >", nullptr);
         f.kept(e == kId && r == kId, "out_edge/out_region");
         return s;
       },
       DACE_ERROR_PARSE, {"\"s1\""}},
      {"dace_sdfg_add_interstate_edge", "malformed assignments",
       CONTRACT_CALL {
         dace_id_t e = kId, r = kId;
         dace_status_t s = dace_sdfg_add_interstate_edge(&e, &r, f.sdfg, f.s1, f.s0, nullptr, "k = ; j = 1");
         f.kept(e == kId && r == kId, "out_edge/out_region");
         return s;
       },
       DACE_ERROR_PARSE, {"\"s1\""}},
      {"dace_interstate_edge_get_endpoints", "edge of a region that does not have it (the loop's body)",
       CONTRACT_CALL {
         dace_id_t a = kId, b = kId;
         dace_status_t s = dace_interstate_edge_get_endpoints(&a, &b, f.sdfg, f.loop, f.istate_edge);
         f.kept(a == kId && b == kId, "out_src/out_dst");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"loop\""}},
      {"dace_interstate_edge_assignment_count", "NULL out_count",
       CONTRACT_CALL {
         return dace_interstate_edge_assignment_count(nullptr, f.sdfg, DACE_ROOT_REGION, f.istate_edge);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_interstate_edge_get_condition", "NULL out_condition",
       CONTRACT_CALL { return dace_interstate_edge_get_condition(nullptr, f.sdfg, DACE_ROOT_REGION, f.istate_edge); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_condition"}},
      {"dace_interstate_edge_get_assignments", "NULL out_assignments",
       CONTRACT_CALL {
         return dace_interstate_edge_get_assignments(nullptr, f.sdfg, DACE_ROOT_REGION, f.istate_edge);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_assignments"}},
      {"dace_interstate_edge_get_assignment", "index >= count",
       CONTRACT_CALL {
         const char *n = kStr, *v = kStr;
         dace_status_t s = dace_interstate_edge_get_assignment(&n, &v, f.sdfg, DACE_ROOT_REGION, f.istate_edge, 1);
         f.kept(n == kStr && v == kStr, "out_name/out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"index 1"}},
      {"dace_interstate_edge_set_condition", "malformed condition",
       CONTRACT_CALL { return dace_interstate_edge_set_condition(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "N >"); },
       DACE_ERROR_PARSE, {"condition"}},
      {"dace_interstate_edge_set_assignments", "malformed assignments (old ones kept)",
       CONTRACT_CALL {
         return dace_interstate_edge_set_assignments(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "x = 1; y = ");
       },
       DACE_ERROR_PARSE, {}},
      {"dace_interstate_edge_add_assignment", "NULL name",
       CONTRACT_CALL {
         return dace_interstate_edge_add_assignment(f.sdfg, DACE_ROOT_REGION, f.istate_edge, nullptr, "1");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"assignment target"}},
      {"dace_interstate_edge_add_assignment", "name that is no identifier",
       CONTRACT_CALL {
         return dace_interstate_edge_add_assignment(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "a b", "1");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"a b"}},
      {"dace_interstate_edge_add_assignment", "NULL value",
       CONTRACT_CALL {
         return dace_interstate_edge_add_assignment(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "k", nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"value"}},
      {"dace_interstate_edge_add_assignment", "malformed value",
       CONTRACT_CALL {
         return dace_interstate_edge_add_assignment(f.sdfg, DACE_ROOT_REGION, f.istate_edge, "k", "1 +");
       },
       DACE_ERROR_PARSE, {"value"}},
  };
  add_block_rows(rows, "dace_sdfg_add_state", "out_state", dace_sdfg_add_state, false);
  add_block_rows(rows, "dace_sdfg_add_region", "out_region", dace_sdfg_add_region, false);
  add_block_rows(rows, "dace_sdfg_add_loop", "out_loop", add_loop, false);
  add_block_rows(rows, "dace_sdfg_add_conditional", "out_conditional", dace_sdfg_add_conditional, false);
  add_block_rows(rows, "dace_sdfg_add_break", "out_block", dace_sdfg_add_break, true);
  add_block_rows(rows, "dace_sdfg_add_continue", "out_block", dace_sdfg_add_continue, true);
  add_block_rows(rows, "dace_sdfg_add_return", "out_block", dace_sdfg_add_return, false);
  // add_loop rows are generated through a wrapper; its name in the table is the real one.
  block_getter_rows<dace_block_kind_t>(rows, "dace_block_get_kind", "out_kind", dace_block_get_kind,
                                       DACE_BLOCK_CONTINUE);
  block_getter_rows<const char*>(rows, "dace_block_get_label", "out_label", dace_block_get_label, kStr);
  block_getter_rows<dace_id_t>(rows, "dace_block_get_parent", "out_region", dace_block_get_parent, kId);
  block_getter_rows<const char*>(
      rows, "dace_block_get_property", "out_value",
      [](const char** out, const dace_sdfg_t* s, dace_id_t b) { return dace_block_get_property(out, s, b, "label"); },
      kStr);
  list_rows(rows, "dace_region_list_blocks", dace_region_list_blocks, &Fixture::loop, &Fixture::s0, "\"s0\"");
  list_rows(rows, "dace_conditional_list_branches", dace_conditional_list_branches, &Fixture::cond, &Fixture::loop,
            "\"loop\"");
  list_rows(rows, "dace_region_list_edges", dace_region_list_edges, &Fixture::loop, &Fixture::s0, "\"s0\"");

  istate_edge_rows(rows, "dace_interstate_edge_remove", [](Fixture&, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
    return dace_interstate_edge_remove(s, r, e);
  });
  istate_edge_rows(rows, "dace_interstate_edge_get_endpoints",
                   [](Fixture& f, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
    dace_id_t a = kId, b = kId;
    dace_status_t st = dace_interstate_edge_get_endpoints(&a, &b, s, r, e);
    f.kept(a == kId && b == kId, "out_src/out_dst");
    return st;
  });
  istate_edge_rows(rows, "dace_interstate_edge_get_condition",
                   [](Fixture& f, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
    const char* v = kStr;
    dace_status_t st = dace_interstate_edge_get_condition(&v, s, r, e);
    f.kept(v == kStr, "out_condition");
    return st;
  });
  istate_edge_rows(rows, "dace_interstate_edge_get_assignments",
                   [](Fixture& f, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
                     const char* v = kStr;
                     dace_status_t st = dace_interstate_edge_get_assignments(&v, s, r, e);
                     f.kept(v == kStr, "out_assignments");
                     return st;
                   });
  istate_edge_rows(rows, "dace_interstate_edge_assignment_count",
                   [](Fixture& f, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
                     size_t n = kCount;
                     dace_status_t st = dace_interstate_edge_assignment_count(&n, s, r, e);
                     f.kept(n == kCount, "out_count");
                     return st;
                   });
  istate_edge_rows(rows, "dace_interstate_edge_get_assignment",
                   [](Fixture& f, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
                     const char *n = kStr, *v = kStr;
                     dace_status_t st = dace_interstate_edge_get_assignment(&n, &v, s, r, e, 0);
                     f.kept(n == kStr && v == kStr, "out_name/out_value");
                     return st;
                   });
  istate_edge_rows(rows, "dace_interstate_edge_set_condition", [](Fixture&, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
    return dace_interstate_edge_set_condition(s, r, e, "N > 3");
  });
  istate_edge_rows(rows, "dace_interstate_edge_set_assignments",
                   [](Fixture&, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
                     return dace_interstate_edge_set_assignments(s, r, e, "j = 2");
                   });
  istate_edge_rows(rows, "dace_interstate_edge_add_assignment", [](Fixture&, dace_sdfg_t* s, dace_id_t r, dace_id_t e) {
    return dace_interstate_edge_add_assignment(s, r, e, "k", "2");
  });
  return rows;
}

}  // namespace capi_contract
