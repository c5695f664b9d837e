// The streaming `.sdfg` reader (skeleton DOM, state lists parsed one element at a time) gives
// the same SDFG as the whole-DOM reader for every real file, declines (so that the whole-DOM
// reader reports the documented error) on anything it cannot vouch for, and loads a generated
// 50,000-node SDFG with the node and edge counts its generator put in.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/validate.h"
#include "ir/state.h"
#include "ir/json/sdfg_json.h"
#include "generated_sdfg_support.h"
#include "sdfg_files_support.h"

#ifndef LIBDACE_TEST_CORPUS_DIR
#define LIBDACE_TEST_CORPUS_DIR "/work/shared/sdfg-corpus"
#endif
#ifndef LIBDACE_TEST_SOURCE_DIR
#define LIBDACE_TEST_SOURCE_DIR "."
#endif

namespace {

using namespace dace;
using namespace dace::ir;

std::vector<std::string> sdfg_files() {
  return testing_files::sdfg_files_below({LIBDACE_TEST_CORPUS_DIR, LIBDACE_TEST_SOURCE_DIR "/tests/data"});
}

using testing_files::slurp;

TEST(JsonStreaming, SameSdfgAsTheWholeDomReaderForEveryFile) {
  const auto files = sdfg_files();
  ASSERT_GE(files.size(), 44u);
  size_t streamed = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path);
    const std::string text = slurp(path);
    auto whole = json::read_sdfg_whole_dom(text);
    auto fast = json::read_sdfg_streaming(text);
    if (!whole.ok()) {
      // A file the reader refuses (tests/data holds some): streaming declines it or gives the
      // very same error.
      if (fast.ok()) EXPECT_EQ(*fast, nullptr) << "streaming accepted what the whole-DOM reader refuses";
      else EXPECT_EQ(fast.error().message, whole.error().message);
      continue;
    }
    ASSERT_TRUE(fast.ok()) << fast.error().message;
    ASSERT_NE(*fast, nullptr) << "streaming declined a file the whole-DOM reader reads";
    ++streamed;
    EXPECT_EQ(json::write_sdfg(**whole), json::write_sdfg(**fast));
  }
  // The shared corpus alone has 44 files that load.
  EXPECT_GE(streamed, 44u);
}

// A skeleton with one state whose node list is given.
std::string one_state(const std::string& state_members) {
  return R"({"type":"SDFG","attributes":{"name":"x","_arrays":{}},"nodes":[{"type":"SDFGState","label":"s",)" +
         state_members + R"(}],"edges":[],"start_block":0,"dace_version":"1.0.2"})";
}

TEST(JsonStreaming, SyntaxErrorInsideAStateListIsReportedWithItsPosition) {
  const std::string text = one_state(R"("nodes":[{"type":"AccessNode","attributes":{"data":"A"}} {}],"edges":[])");
  auto fast = json::read_sdfg_streaming(text);
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(*fast, nullptr);
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::ParseError);
  // The second node starts at this column of the single line; the whole-DOM parser names it.
  const int column = static_cast<int>(text.find("} {}]") + 3);
  EXPECT_NE(r.error().message.find("JSON syntax error at line 1, column " + std::to_string(column)), std::string::npos)
      << r.error().message;
}

TEST(JsonStreaming, ListThatIsNeverReadIsNotTrusted) {
  // The first "nodes" is overwritten by the second (as in nlohmann's DOM, the last duplicate
  // key wins), so nobody parses it: streaming must not accept the file, whose first list is
  // not JSON.
  const std::string text = one_state(R"("nodes":[tru],"nodes":[],"edges":[])");
  auto fast = json::read_sdfg_streaming(text);
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(*fast, nullptr);
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("JSON syntax error"), std::string::npos) << r.error().message;
}

TEST(JsonStreaming, ContentErrorsKeepTheirElementPath) {
  const std::string text = one_state(R"("nodes":[{"type":"AccessNode","attributes":{"data":5}}],"edges":[])");
  const std::string want = R"(sdfg "x" / state "s" / node 0 (AccessNode): property "data": expected string, got integer)";
  auto fast = json::read_sdfg_streaming(text);
  ASSERT_FALSE(fast.ok());
  EXPECT_EQ(fast.error().message, want);
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, want);
}

TEST(JsonStreaming, SyntaxErrorAfterAContentErrorIsReportedFirst) {
  // The whole-DOM reader parses everything before reading, so a syntax error anywhere wins
  // over a content error earlier in the file; streaming must not report the content error.
  const std::string text = one_state(R"("nodes":[{"type":"AccessNode","attributes":{"data":5}},tru],"edges":[])");
  auto fast = json::read_sdfg_streaming(text);
  ASSERT_TRUE(fast.ok()) << fast.error().message;
  EXPECT_EQ(*fast, nullptr);
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("JSON syntax error"), std::string::npos) << r.error().message;
}

// An SDFG with one top-level block whose members are given (the block's own braces included).
std::string one_block(const std::string& block) {
  return R"({"type":"SDFG","attributes":{"name":"x","_arrays":{}},"nodes":[)" + block +
         R"(],"edges":[],"start_block":0,"dace_version":"1.0.2"})";
}

// Both readers give the same outcome: the same error message, or SDFGs that write the same
// bytes. The whole-DOM reader is the reference: nlohmann's DOM keeps the last value of a
// duplicate key, at the first key's position.
void expect_same_as_whole_dom(const std::string& text) {
  auto whole = json::read_sdfg_whole_dom(text);
  auto r = json::read_sdfg(text);
  ASSERT_EQ(r.ok(), whole.ok()) << (r.ok() ? whole.error().message : r.error().message);
  if (!whole.ok()) {
    EXPECT_EQ(r.error().message, whole.error().message);
    return;
  }
  EXPECT_EQ(json::write_sdfg(**r), json::write_sdfg(**whole));
}

const char* kBadNodes = R"([{"type":"AccessNode","attributes":{"data":5}}])";
const char* kOneAccessNode = R"([{"type":"AccessNode","label":"A","attributes":{"data":"A"}}])";

TEST(JsonStreaming, StateListBeforeTheTypeIsReplacedByALaterDuplicate) {
  // The first "nodes" comes before "type", the second after it: the second is the state's
  // node list (last value wins), the first is only syntax. The streaming reader used to read
  // the first one (a content error the whole-DOM reader never sees).
  const std::string text =
      one_block(std::string(R"({"label":"s","nodes":)") + kBadNodes + R"(,"type":"SDFGState","nodes":[],"edges":[]})");
  auto whole = json::read_sdfg_whole_dom(text);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  expect_same_as_whole_dom(text);
}

TEST(JsonStreaming, StateListWithTheTypeKnownIsReplacedByALaterDuplicate) {
  // Reversed: the type is known at the first list, and the bad list comes last (the last value
  // wins, so the error is the whole-DOM reader's too).
  const std::string text = one_block(std::string(R"({"type":"SDFGState","label":"s","nodes":[],"nodes":)") +
                                     kBadNodes + R"(,"edges":[]})");
  auto whole = json::read_sdfg_whole_dom(text);
  ASSERT_FALSE(whole.ok());
  expect_same_as_whole_dom(text);
}

// A loop region whose "type" is given twice: first as a state (so its block list looked like a
// state's node list to the streaming reader), then as what it is. nlohmann's DOM keeps the
// last type, LoopRegion, whose "nodes" are blocks.
TEST(JsonStreaming, BlockListOfARegionWhoseTypeIsFirstAStateIsReadAsBlocks) {
  const std::string state = R"({"type":"SDFGState","label":"body","nodes":[],"edges":[]})";
  const std::string loop = R"({"type":"SDFGState","label":"loop","nodes":[)" + state +
                           R"(],"edges":[],"start_block":0,"attributes":{"loop_variable":"i",)"
                           R"("init_statement":{"string_data":"i = 0","language":"Python"},)"
                           R"("loop_condition":{"string_data":"i < 4","language":"Python"},)"
                           R"("update_statement":{"string_data":"i = i + 1","language":"Python"}},)"
                           R"("type":"LoopRegion"})";
  auto whole = json::read_sdfg_whole_dom(one_block(loop));
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  expect_same_as_whole_dom(one_block(loop));
  // Read as a loop holding the state "body".
  EXPECT_NE(json::write_sdfg(**whole).find("\"body\""), std::string::npos);
}

TEST(JsonStreaming, StateWhoseTypeIsReplacedByANonStringIsNotReadAsAState) {
  const std::string text =
      one_block(std::string(R"({"type":"SDFGState","label":"s","nodes":)") + kOneAccessNode + R"(,"type":5})");
  expect_same_as_whole_dom(text);
}

using testing_files::generate_chain_sdfg;
using testing_files::Generated;

TEST(JsonStreaming, GeneratedFiftyThousandNodeSdfgLoadsAndValidates) {
  const Generated g = generate_chain_sdfg(16667);
  ASSERT_EQ(g.nodes, 50001);
  auto fast = json::read_sdfg_streaming(g.text);
  ASSERT_TRUE(fast.ok()) << fast.error().message;
  ASSERT_NE(*fast, nullptr);
  const SDFG& sdfg = **fast;
  int states = 0, nodes = 0, edges = 0;
  for (int id : sdfg.block_slots()) {
    const auto* st = dynamic_cast<const State*>(sdfg.block(id));
    if (!st) continue;
    ++states;
    nodes += static_cast<int>(st->node_ids().size());
    edges += static_cast<int>(st->edge_ids().size());
  }
  EXPECT_EQ(states, g.states);
  EXPECT_EQ(nodes, g.nodes);
  EXPECT_EQ(edges, g.edges);
  EXPECT_EQ(static_cast<int>(sdfg.edge_slots().size()), g.states - 1);
  auto errors = analysis::validate_all(sdfg);
  EXPECT_TRUE(errors.empty()) << errors.front().message;
}

}  // namespace
