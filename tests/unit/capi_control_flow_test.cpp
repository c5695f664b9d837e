// C API: states, regions, loops, conditionals, break/continue/return, interstate edges.
#include <string>
#include <vector>

#include "capi_test_util.h"

using capi_test::SdfgTest;

namespace {

std::vector<dace_id_t> blocks_of(dace_sdfg_t* sdfg, dace_id_t region) {
  size_t n = 0;
  EXPECT_EQ(dace_region_list_blocks(nullptr, 0, &n, sdfg, region), DACE_OK);
  std::vector<dace_id_t> ids(n);
  EXPECT_EQ(dace_region_list_blocks(ids.data(), ids.size(), &n, sdfg, region), DACE_OK);
  return ids;
}

std::string block_prop(dace_sdfg_t* sdfg, dace_id_t block, const char* p) {
  const char* v = nullptr;
  EXPECT_EQ(dace_block_get_property(&v, sdfg, block, p), DACE_OK) << dace_last_error_message();
  return v ? v : "<null>";
}

}  // namespace

TEST_F(SdfgTest, StatesGetDistinctIdsAndLabels) {
  dace_id_t s1 = -1, s2 = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s1, sdfg, DACE_ROOT_REGION, "s1"));
  ASSERT_DACE_OK(dace_sdfg_add_state(&s2, sdfg, DACE_ROOT_REGION, nullptr));
  EXPECT_NE(s1, s2);
  EXPECT_NE(s1, state);
  const char* label = nullptr;
  ASSERT_DACE_OK(dace_block_get_label(&label, sdfg, s2));
  EXPECT_FALSE(std::string(label).empty());
  EXPECT_EQ((std::vector<dace_id_t>{state, s1, s2}), blocks_of(sdfg, DACE_ROOT_REGION));
  dace_block_kind_t kind;
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, s1));
  EXPECT_EQ(kind, DACE_BLOCK_STATE);
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, DACE_ROOT_REGION));
  EXPECT_EQ(kind, DACE_BLOCK_SDFG);
  dace_id_t start = -5;
  ASSERT_DACE_OK(dace_region_get_start_block(&start, sdfg, DACE_ROOT_REGION));
  EXPECT_EQ(start, state);  // the first block added
  ASSERT_DACE_OK(dace_region_set_start_block(sdfg, DACE_ROOT_REGION, s1));
  ASSERT_DACE_OK(dace_region_get_start_block(&start, sdfg, DACE_ROOT_REGION));
  EXPECT_EQ(start, s1);
  dace_id_t found = -1;
  ASSERT_DACE_OK(dace_sdfg_find_block(&found, sdfg, "s1"));
  EXPECT_EQ(found, s1);
  EXPECT_DACE_ERROR(dace_sdfg_find_block(&found, sdfg, "nope"), DACE_ERROR_NOT_FOUND, "block \"nope\"");
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &n, sdfg));
  EXPECT_EQ(n, 3u);
}

TEST_F(SdfgTest, BlockErrors) {
  dace_id_t b = -1;
  EXPECT_DACE_ERROR(dace_sdfg_add_state(&b, sdfg, DACE_ROOT_REGION, "s0"), DACE_ERROR_ALREADY_EXISTS,
                    "block \"s0\"");
  EXPECT_DACE_ERROR(dace_sdfg_add_state(&b, sdfg, 99, "x"), DACE_ERROR_NOT_FOUND, "block 99");
  EXPECT_DACE_ERROR(dace_sdfg_add_state(&b, sdfg, state, "x"), DACE_ERROR_INVALID_ARGUMENT,
                    "state \"s0\" (block 0): a SDFGState is not a control-flow region");
  EXPECT_EQ(dace_sdfg_add_state(nullptr, sdfg, DACE_ROOT_REGION, "x"), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_add_state(&b, nullptr, DACE_ROOT_REGION, "x"), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_DACE_ERROR(dace_sdfg_add_break(&b, sdfg, DACE_ROOT_REGION, "brk"), DACE_ERROR_INVALID_ARGUMENT,
                    "inside a loop");
  EXPECT_EQ(dace_sdfg_add_continue(&b, sdfg, DACE_ROOT_REGION, "cnt"), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(blocks_of(sdfg, DACE_ROOT_REGION).size(), 1u);
  EXPECT_DACE_ERROR(dace_block_set_label(sdfg, state, ""), DACE_ERROR_INVALID_ARGUMENT, "empty label");
  dace_id_t s1 = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s1, sdfg, DACE_ROOT_REGION, "s1"));
  EXPECT_EQ(dace_block_set_label(sdfg, s1, "s0"), DACE_ERROR_ALREADY_EXISTS);
  ASSERT_DACE_OK(dace_block_set_label(sdfg, s1, "renamed"));
  const char* label = nullptr;
  ASSERT_DACE_OK(dace_block_get_label(&label, sdfg, s1));
  EXPECT_STREQ(label, "renamed");
  EXPECT_EQ(dace_sdfg_remove_block(sdfg, DACE_ROOT_REGION), DACE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(dace_sdfg_remove_block(sdfg, 1234), DACE_ERROR_NOT_FOUND);
}

TEST_F(SdfgTest, LoopRegionWithBodyBreakContinue) {
  dace_id_t loop = -1, body = -1, brk = -1, cont = -1, ret = -1;
  ASSERT_DACE_OK(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "for_i", "i", "i = 0", "i < N", "i = i + 1", 0));
  ASSERT_DACE_OK(dace_sdfg_add_state(&body, sdfg, loop, "body"));
  ASSERT_DACE_OK(dace_sdfg_add_break(&brk, sdfg, loop, "brk"));
  ASSERT_DACE_OK(dace_sdfg_add_continue(&cont, sdfg, loop, nullptr));
  ASSERT_DACE_OK(dace_sdfg_add_return(&ret, sdfg, DACE_ROOT_REGION, "ret"));
  EXPECT_EQ((std::vector<dace_id_t>{body, brk, cont}), blocks_of(sdfg, loop));
  dace_block_kind_t kind;
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, loop));
  EXPECT_EQ(kind, DACE_BLOCK_LOOP);
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, brk));
  EXPECT_EQ(kind, DACE_BLOCK_BREAK);
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, cont));
  EXPECT_EQ(kind, DACE_BLOCK_CONTINUE);
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, ret));
  EXPECT_EQ(kind, DACE_BLOCK_RETURN);
  dace_id_t parent = -5;
  ASSERT_DACE_OK(dace_block_get_parent(&parent, sdfg, body));
  EXPECT_EQ(parent, loop);
  ASSERT_DACE_OK(dace_block_get_parent(&parent, sdfg, loop));
  EXPECT_EQ(parent, DACE_ROOT_REGION);
  EXPECT_EQ(block_prop(sdfg, loop, "loop_variable"), "i");
  EXPECT_EQ(block_prop(sdfg, loop, "init"), "i = 0");
  EXPECT_EQ(block_prop(sdfg, loop, "condition"), "i < N");
  EXPECT_EQ(block_prop(sdfg, loop, "update"), "i = i + 1");
  EXPECT_EQ(block_prop(sdfg, loop, "inverted"), "0");
  const char* v = nullptr;
  EXPECT_DACE_ERROR(dace_block_get_property(&v, sdfg, body, "condition"), DACE_ERROR_NOT_FOUND,
                    "state \"body\": a SDFGState has no property \"condition\"");
  ASSERT_DACE_OK(dace_loop_set_header(sdfg, loop, "i", nullptr, "i >= 0", "i = i - 1", 1));
  EXPECT_EQ(block_prop(sdfg, loop, "init"), "");
  EXPECT_EQ(block_prop(sdfg, loop, "inverted"), "1");
  EXPECT_EQ(dace_loop_set_header(sdfg, body, "i", nullptr, "i < 2", nullptr, 0), DACE_ERROR_INVALID_ARGUMENT);
  // Nested states are among all states.
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_list_states(nullptr, 0, &n, sdfg));
  EXPECT_EQ(n, 2u);
  // Removing the loop removes its body.
  ASSERT_DACE_OK(dace_sdfg_remove_block(sdfg, loop));
  EXPECT_EQ(dace_block_get_kind(&kind, sdfg, body), DACE_ERROR_NOT_FOUND);
}

TEST_F(SdfgTest, LoopHeaderParseErrors) {
  dace_id_t loop = -1;
  EXPECT_DACE_ERROR(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "l", "i", "i = 0", "i <", "i = i + 1", 0),
                    DACE_ERROR_PARSE, "loop condition");
  EXPECT_EQ(dace_last_error_column(), 4);  // end of "i <"
  EXPECT_DACE_ERROR(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "l", "i", "i == 0", "i < N", nullptr, 0),
                    DACE_ERROR_PARSE, "loop init");
  EXPECT_DACE_ERROR(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "l", "i", "i = 0", nullptr, nullptr, 0),
                    DACE_ERROR_INVALID_ARGUMENT, "condition is required");
  EXPECT_DACE_ERROR(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "l", "1i", "i = 0", "i < N", nullptr, 0),
                    DACE_ERROR_INVALID_ARGUMENT, "loop variable");
  EXPECT_EQ(blocks_of(sdfg, DACE_ROOT_REGION).size(), 1u);
}

TEST_F(SdfgTest, ConditionalBranches) {
  dace_id_t cond = -1, then_r = -1, elif_r = -1, else_r = -1, in_then = -1;
  ASSERT_DACE_OK(dace_sdfg_add_conditional(&cond, sdfg, DACE_ROOT_REGION, "if_x"));
  ASSERT_DACE_OK(dace_conditional_add_branch(&then_r, sdfg, cond, "N > 3"));
  ASSERT_DACE_OK(dace_conditional_add_branch(&elif_r, sdfg, cond, "N > 1"));
  ASSERT_DACE_OK(dace_conditional_add_branch(&else_r, sdfg, cond, nullptr));
  dace_id_t extra = -1;
  EXPECT_DACE_ERROR(dace_conditional_add_branch(&extra, sdfg, cond, "N > 0"), DACE_ERROR_INVALID_ARGUMENT,
                    "else branch must stay last");
  EXPECT_DACE_ERROR(dace_conditional_add_branch(&extra, sdfg, state, "N > 0"), DACE_ERROR_INVALID_ARGUMENT,
                    "not a ConditionalBlock");
  EXPECT_DACE_ERROR(dace_sdfg_add_state(&in_then, sdfg, cond, "bad"), DACE_ERROR_INVALID_ARGUMENT,
                    "add blocks to one of its branches");
  ASSERT_DACE_OK(dace_sdfg_add_state(&in_then, sdfg, then_r, "then_state"));
  size_t n = 0;
  std::vector<dace_id_t> branches(3);
  ASSERT_DACE_OK(dace_conditional_list_branches(branches.data(), branches.size(), &n, sdfg, cond));
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(branches, (std::vector<dace_id_t>{then_r, elif_r, else_r}));
  EXPECT_EQ(block_prop(sdfg, then_r, "condition"), "N > 3");
  EXPECT_EQ(block_prop(sdfg, else_r, "condition"), "");
  dace_id_t parent = -5;
  ASSERT_DACE_OK(dace_block_get_parent(&parent, sdfg, then_r));
  EXPECT_EQ(parent, cond);
  ASSERT_DACE_OK(dace_block_get_parent(&parent, sdfg, in_then));
  EXPECT_EQ(parent, then_r);
  dace_block_kind_t kind;
  ASSERT_DACE_OK(dace_block_get_kind(&kind, sdfg, then_r));
  EXPECT_EQ(kind, DACE_BLOCK_REGION);
  dace_id_t cond2 = -1;
  ASSERT_DACE_OK(dace_sdfg_add_conditional(&cond2, sdfg, DACE_ROOT_REGION, "if_y"));
  EXPECT_DACE_ERROR(dace_conditional_add_branch(&extra, sdfg, cond2, "N >"), DACE_ERROR_PARSE, "branch condition");
  ASSERT_DACE_OK(dace_conditional_list_branches(nullptr, 0, &n, sdfg, cond2));
  EXPECT_EQ(n, 0u);
  // Removing a branch region.
  ASSERT_DACE_OK(dace_sdfg_remove_block(sdfg, elif_r));
  ASSERT_DACE_OK(dace_conditional_list_branches(branches.data(), branches.size(), &n, sdfg, cond));
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(branches[1], else_r);
}

TEST_F(SdfgTest, InterstateEdgesConditionAndOrderedAssignments) {
  dace_id_t s1 = -1, e = -1, region = -5;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s1, sdfg, DACE_ROOT_REGION, "s1"));
  ASSERT_DACE_OK(dace_sdfg_add_interstate_edge(&e, &region, sdfg, state, s1, "k < N", "k = k + 1; j = 0"));
  EXPECT_EQ(region, DACE_ROOT_REGION);
  dace_id_t src = -1, dst = -1;
  ASSERT_DACE_OK(dace_interstate_edge_get_endpoints(&src, &dst, sdfg, region, e));
  EXPECT_EQ(src, state);
  EXPECT_EQ(dst, s1);
  const char* text = nullptr;
  ASSERT_DACE_OK(dace_interstate_edge_get_condition(&text, sdfg, region, e));
  EXPECT_STREQ(text, "k < N");
  ASSERT_DACE_OK(dace_interstate_edge_get_assignments(&text, sdfg, region, e));
  EXPECT_STREQ(text, "k = k + 1; j = 0");
  size_t n = 0;
  ASSERT_DACE_OK(dace_interstate_edge_assignment_count(&n, sdfg, region, e));
  EXPECT_EQ(n, 2u);
  const char* name = nullptr;
  const char* value = nullptr;
  ASSERT_DACE_OK(dace_interstate_edge_get_assignment(&name, &value, sdfg, region, e, 0));
  EXPECT_STREQ(name, "k");
  EXPECT_STREQ(value, "k + 1");
  ASSERT_DACE_OK(dace_interstate_edge_get_assignment(&name, &value, sdfg, region, e, 1));
  EXPECT_STREQ(name, "j");
  EXPECT_STREQ(value, "0");
  EXPECT_EQ(dace_interstate_edge_get_assignment(&name, &value, sdfg, region, e, 2), DACE_ERROR_NOT_FOUND);
  ASSERT_DACE_OK(dace_interstate_edge_add_assignment(sdfg, region, e, "m", "j * 2"));
  ASSERT_DACE_OK(dace_interstate_edge_get_assignments(&text, sdfg, region, e));
  EXPECT_STREQ(text, "k = k + 1; j = 0; m = j * 2");
  ASSERT_DACE_OK(dace_interstate_edge_set_assignments(sdfg, region, e, "x = 1"));
  ASSERT_DACE_OK(dace_interstate_edge_get_assignments(&text, sdfg, region, e));
  EXPECT_STREQ(text, "x = 1");
  ASSERT_DACE_OK(dace_interstate_edge_set_condition(sdfg, region, e, nullptr));
  ASSERT_DACE_OK(dace_interstate_edge_get_condition(&text, sdfg, region, e));
  EXPECT_STREQ(text, "1");
  std::vector<dace_id_t> ids(4);
  ASSERT_DACE_OK(dace_region_list_edges(ids.data(), ids.size(), &n, sdfg, region));
  EXPECT_EQ(n, 1u);
  EXPECT_EQ(ids[0], e);
  ASSERT_DACE_OK(dace_interstate_edge_remove(sdfg, region, e));
  ASSERT_DACE_OK(dace_region_list_edges(nullptr, 0, &n, sdfg, region));
  EXPECT_EQ(n, 0u);
  EXPECT_DACE_ERROR(dace_interstate_edge_remove(sdfg, region, e), DACE_ERROR_NOT_FOUND, "interstate edge 0");
}

TEST_F(SdfgTest, InterstateEdgeErrors) {
  dace_id_t s1 = -1, loop = -1, inner = -1, e = -1;
  ASSERT_DACE_OK(dace_sdfg_add_state(&s1, sdfg, DACE_ROOT_REGION, "s1"));
  ASSERT_DACE_OK(dace_sdfg_add_loop(&loop, sdfg, DACE_ROOT_REGION, "l", "i", "i = 0", "i < N", "i = i + 1", 0));
  ASSERT_DACE_OK(dace_sdfg_add_state(&inner, sdfg, loop, "inner"));
  EXPECT_DACE_ERROR(dace_sdfg_add_interstate_edge(&e, nullptr, sdfg, state, inner, nullptr, nullptr),
                    DACE_ERROR_INVALID_ARGUMENT, "same region");
  // "k = k +; j = 0": the error is in the first assignment, at the ';' (column 8).
  EXPECT_DACE_ERROR(dace_sdfg_add_interstate_edge(&e, nullptr, sdfg, state, s1, nullptr, "k = k +; j = 0"),
                    DACE_ERROR_PARSE, "assignments");
  EXPECT_EQ(dace_last_error_column(), 8);
  // Second assignment "j == 0" starts at column 11; the parser stops at "==" (column 13).
  EXPECT_EQ(dace_sdfg_add_interstate_edge(&e, nullptr, sdfg, state, s1, nullptr, "k = k + 1; j == 0"),
            DACE_ERROR_PARSE);
  EXPECT_GE(dace_last_error_column(), 11);
  EXPECT_DACE_ERROR(dace_sdfg_add_interstate_edge(&e, nullptr, sdfg, state, s1, "k <", nullptr), DACE_ERROR_PARSE,
                    "condition");
  EXPECT_EQ(dace_sdfg_add_interstate_edge(&e, nullptr, sdfg, state, 77, nullptr, nullptr), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(dace_sdfg_add_interstate_edge(&e, nullptr, sdfg, DACE_ROOT_REGION, s1, nullptr, nullptr),
            DACE_ERROR_INVALID_ARGUMENT);
  size_t n = 0;
  ASSERT_DACE_OK(dace_region_list_edges(nullptr, 0, &n, sdfg, DACE_ROOT_REGION));
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(dace_interstate_edge_add_assignment(sdfg, DACE_ROOT_REGION, 0, "x", "1"), DACE_ERROR_NOT_FOUND);
}
