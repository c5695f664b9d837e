// Hostile `.sdfg` text: the bracket-depth pre-scan before parsing, and messages that stay
// short however deep the input nests.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ir/json/sdfg_json.h"
#include "json_test_sdfg.h"

namespace {

using namespace dace;
using namespace dace::ir;

std::string nested(int depth, const std::string& inner = "0") {
  return std::string(static_cast<size_t>(depth), '[') + inner + std::string(static_cast<size_t>(depth), ']');
}

// kSmallSdfg with an unmodeled SDFG attribute holding `value` (kept verbatim as an extra).
std::string with_extra(const std::string& value) {
  std::string text = test::kSmallSdfg;
  const std::string key = "\"attributes\": {";
  size_t at = text.find(key);
  EXPECT_NE(at, std::string::npos);
  return text.insert(at + key.size(), "\"unmodeled_property\": " + value + ", ");
}

TEST(JsonDepth, LimitIsExact) {
  EXPECT_TRUE(json::check_json_depth(nested(json::kMaxJsonDepth)).ok());
  EXPECT_TRUE(json::check_json_depth(nested(1023)).ok());
  Status refused = json::check_json_depth(nested(1025));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, Code::ParseError);
  // The bracket opening level 1025 is the 1025th character of line 1.
  EXPECT_EQ(refused.error().message, "JSON nested deeper than 1024 levels at line 1, column 1025 (byte offset 1024)");
  EXPECT_EQ(refused.error().line, 1);
  EXPECT_EQ(refused.error().column, 1025);
}

TEST(JsonDepth, LineAndColumnOfTheOffendingBracket) {
  std::string text = "{\n  \"a\":\n" + nested(5);
  Status refused = json::check_json_depth(text, 4);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().line, 3);
  EXPECT_EQ(refused.error().column, 4);
  EXPECT_NE(refused.error().message.find("line 3, column 4 (byte offset 12)"), std::string::npos)
      << refused.error().message;
}

TEST(JsonDepth, ObjectsAndArraysBothCount) {
  EXPECT_FALSE(json::check_json_depth("{\"a\": [{\"b\": [0]}]}", 3).ok());
  EXPECT_TRUE(json::check_json_depth("{\"a\": [{\"b\": [0]}]}", 4).ok());
  // Siblings do not add up.
  EXPECT_TRUE(json::check_json_depth("[[0], [0], {\"x\": [1]}, [[2]]]", 3).ok());
}

TEST(JsonDepth, BracketsInsideStringsAreIgnored) {
  std::string brackets(5000, '[');
  EXPECT_TRUE(json::check_json_depth("{\"s\": \"" + brackets + "\"}", 2).ok());
  EXPECT_TRUE(json::check_json_depth("[\"{{{{\", \"]]]]\", \"[[[[\"]", 1).ok());
  // Keys are strings too.
  EXPECT_TRUE(json::check_json_depth("{\"[[[[\": 1}", 1).ok());
}

TEST(JsonDepth, EscapedQuotesDoNotEndTheString) {
  // "a\"[[[" is one string: the brackets are inside it.
  EXPECT_TRUE(json::check_json_depth(R"(["a\"[[[[[", 1])", 1).ok());
  // An escaped backslash ends before the quote, which then closes the string: the brackets
  // after it count.
  EXPECT_FALSE(json::check_json_depth(R"(["a\\", [[[0]]]])", 3).ok());
  EXPECT_TRUE(json::check_json_depth(R"(["a\\", [[[0]]]])", 4).ok());
  // \u escapes and an escaped quote at the very end of the text.
  EXPECT_TRUE(json::check_json_depth(R"(["\u005b\u005b", "x\""])", 1).ok());
  EXPECT_TRUE(json::check_json_depth(R"(["\)", 1).ok());
}

TEST(JsonDepth, ReaderRefusesBeforeParsing) {
  // 200,000 levels inside an unmodeled attribute crashed the parser / dump before.
  auto r = json::read_sdfg(with_extra(nested(200000)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::ParseError);
  EXPECT_NE(r.error().message.find("JSON nested deeper than 1024 levels at line "), std::string::npos)
      << r.error().message;
  EXPECT_GT(r.error().line, 0);

  // Within the bound, the extra is kept and written back verbatim.
  auto ok = json::read_sdfg(with_extra(nested(1000)));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  std::string written = json::write_sdfg(**ok, {.pretty = false});
  EXPECT_NE(written.find(nested(1000)), std::string::npos);
  auto again = json::read_sdfg(written);
  ASSERT_TRUE(again.ok()) << again.error().message;
}

TEST(JsonDepth, TheBoundCountsEveryLevelAboveAValue) {
  // The reader checks the depth while it reads (no pass of its own): the levels above a value
  // count, in the SDFG's attributes and in a state's node list alike, and the message is the
  // one check_json_depth gives for the same text.
  // Root object (1), "attributes" (2), then the value's own levels.
  auto attribute_ok = json::read_sdfg(with_extra(nested(json::kMaxJsonDepth - 2)));
  ASSERT_TRUE(attribute_ok.ok()) << attribute_ok.error().message;
  const std::string too_deep = with_extra(nested(json::kMaxJsonDepth - 1));
  auto attribute_refused = json::read_sdfg(too_deep);
  ASSERT_FALSE(attribute_refused.ok());
  Status scan = json::check_json_depth(too_deep);
  ASSERT_FALSE(scan.ok());
  EXPECT_EQ(attribute_refused.error().message, scan.error().message);
  // Line 3 is `  "attributes": {"unmodeled_property": [[...`: the value's first bracket, level 3,
  // is column 40, so level 1025 is column 40 + 1022.
  EXPECT_EQ(attribute_refused.error().message,
            "JSON nested deeper than 1024 levels at line 3, column 1062 (byte offset 1081)");

  // Root (1), "nodes" (2), the state (3), its "nodes" (4), the tasklet (5), its "attributes" (6).
  auto in_node = [](int levels) {
    std::string text = test::kSmallSdfg;
    const std::string key = "\"attributes\": {\"code\"";
    size_t at = text.find(key);
    EXPECT_NE(at, std::string::npos);
    return text.insert(at + std::string("\"attributes\": {").size(), "\"unmodeled\": " + nested(levels) + ", ");
  };
  auto node_ok = json::read_sdfg(in_node(json::kMaxJsonDepth - 6));
  ASSERT_TRUE(node_ok.ok()) << node_ok.error().message;
  const std::string node_too_deep = in_node(json::kMaxJsonDepth - 5);
  auto node_refused = json::read_sdfg(node_too_deep);
  ASSERT_FALSE(node_refused.ok());
  Status node_scan = json::check_json_depth(node_too_deep);
  ASSERT_FALSE(node_scan.ok());
  EXPECT_EQ(node_refused.error().message, node_scan.error().message);
  EXPECT_EQ(node_refused.error().line, node_scan.error().line);
  EXPECT_EQ(node_refused.error().column, node_scan.error().column);
}

TEST(JsonDepth, SemanticNestingMessageNamesTheElementOnce) {
  // Control-flow regions nested 200 levels: within the JSON bound, beyond the reader's.
  const int depth = 200;
  std::string open, close;
  for (int i = 0; i < depth; ++i) {
    open += R"({"type": "ControlFlowRegion", "label": "r", "attributes": {}, "edges": [], "start_block": 0, "nodes": [)";
    close += "]}";
  }
  std::string text = R"({"type": "SDFG", "attributes": {"name": "deep", "_arrays": {}, "symbols": {}},)"
                     R"( "dace_version": "1.0.2", "start_block": 0, "edges": [], "nodes": [)" +
                     open + R"({"type": "SDFGState", "label": "s", "nodes": [], "edges": [], "attributes": {}})" +
                     close + "]}";
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  const std::string& m = r.error().message;
  EXPECT_EQ(r.error().code, Code::ParseError);
  EXPECT_NE(m.find("sdfg \"deep\" / ... ("), std::string::npos) << m;
  EXPECT_NE(m.find("nested deeper than 128 levels"), std::string::npos) << m;
  size_t count = 0;
  for (size_t at = m.find("region \"r\""); at != std::string::npos; at = m.find("region \"r\"", at + 1)) ++count;
  EXPECT_EQ(count, 1u) << m;
  EXPECT_LT(m.size(), 200u) << m;
}

// One state holding `depth` map scopes nested in each other around one tasklet, with a memlet
// path through all of them (tests/fuzz/hostile_gen.py deep_maps, smaller).
std::string nested_maps(int depth) {
  auto id = [](int k) { return "\"" + std::to_string(k) + "\""; };
  auto entry = [](int k) { return 3 + 2 * k; };
  auto exit = [](int k) { return 4 + 2 * k; };
  const std::string memlet_a =
      R"({"type": "Memlet", "attributes": {"data": "A", "subset": {"type": "Range", "ranges": [{"start": "0", "end": "0", "step": "1", "tile": "1"}]}}})";
  const std::string memlet_b =
      R"({"type": "Memlet", "attributes": {"data": "B", "subset": {"type": "Range", "ranges": [{"start": "0", "end": "0", "step": "1", "tile": "1"}]}}})";
  auto edge = [&](int src, int dst, const std::string& m, const std::string& sc, const std::string& dc) {
    return R"({"type": "MultiConnectorEdge", "attributes": {"data": )" + m + R"(}, "src": )" + id(src) +
           R"(, "dst": )" + id(dst) + R"(, "src_connector": )" + sc + R"(, "dst_connector": )" + dc + "}";
  };
  std::string nodes =
      R"({"type": "AccessNode", "label": "A", "attributes": {"data": "A"}},)"
      R"({"type": "AccessNode", "label": "B", "attributes": {"data": "B"}},)"
      R"({"type": "Tasklet", "label": "t", "attributes": {"code": {"string_data": "b = a", "language": "Python"},)"
      R"( "in_connectors": {"a": null}, "out_connectors": {"b": null}}})";
  for (int k = 0; k < depth; ++k) {
    nodes += R"(, {"type": "MapEntry", "scope_entry": )" + (k ? id(entry(k - 1)) : std::string("null")) +
             R"(, "scope_exit": )" + id(exit(k)) + R"(, "attributes": {"label": "m", "params": ["i)" +
             std::to_string(k) +
             R"("], "range": {"type": "Range", "ranges": [{"start": "0", "end": "0", "step": "1", "tile": "1"}]},)"
             R"( "in_connectors": {"IN_A": null}, "out_connectors": {"OUT_A": null}}})";
    nodes += R"(, {"type": "MapExit", "scope_entry": )" + id(entry(k)) + R"(, "scope_exit": )" + id(exit(k)) +
             R"(, "attributes": {"in_connectors": {"IN_B": null}, "out_connectors": {"OUT_B": null}}})";
  }
  std::string edges = edge(0, entry(0), memlet_a, "null", "\"IN_A\"");
  for (int k = 0; k + 1 < depth; ++k) edges += ", " + edge(entry(k), entry(k + 1), memlet_a, "\"OUT_A\"", "\"IN_A\"");
  edges += ", " + edge(entry(depth - 1), 2, memlet_a, "\"OUT_A\"", "\"a\"");
  edges += ", " + edge(2, exit(depth - 1), memlet_b, "\"b\"", "\"IN_B\"");
  for (int k = depth - 1; k > 0; --k) edges += ", " + edge(exit(k), exit(k - 1), memlet_b, "\"OUT_B\"", "\"IN_B\"");
  edges += ", " + edge(exit(0), 1, memlet_b, "\"OUT_B\"", "null");
  return R"({"type": "SDFG", "dace_version": "1.0.2", "attributes": {"name": "maps", "_arrays": {)"
         R"("A": {"type": "Array", "attributes": {"dtype": "float64", "shape": ["1"]}},)"
         R"("B": {"type": "Array", "attributes": {"dtype": "float64", "shape": ["1"]}}}},)"
         R"( "start_block": 0, "edges": [], "nodes": [{"type": "SDFGState", "label": "s", "attributes": {},)"
         R"( "nodes": [)" + nodes + R"(], "edges": [)" + edges + "]}]}";
}

TEST(JsonDepth, MapScopesNestUpToTheBound) {
  auto ok = json::read_sdfg(nested_maps(json::kMaxScopeDepth));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  // What is written reads back: the bound holds for libdace's own output.
  auto again = json::read_sdfg(json::write_sdfg(**ok));
  ASSERT_TRUE(again.ok()) << again.error().message;

  auto r = json::read_sdfg(nested_maps(json::kMaxScopeDepth + 1));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::ParseError);
  // The entry opening level 1025 is map 1024 (counting from 0): node 3 + 2 * 1024.
  EXPECT_EQ(r.error().message,
            "sdfg \"maps\" / state \"s\" / node 2051 (MapEntry): map and consume scopes nested deeper than "
            "1024 levels");
}

TEST(JsonDepth, SiblingScopesDoNotAddUp) {
  // Two top-level maps side by side, each 600 deep: 1200 scopes, none deeper than 600.
  std::string one = nested_maps(600);
  auto a = json::read_sdfg(one);
  ASSERT_TRUE(a.ok()) << a.error().message;
  State& st = *(*a)->all_states().front();
  // A second copy of every node and edge of the state, side by side with the first.
  std::map<int, int> copy_of;
  for (int id : st.node_ids()) copy_of[id] = st.add_node(st.node(id)->clone());
  for (auto [from, to] : copy_of)
    if (auto* exit = dynamic_cast<MapExit*>(st.node(to))) st.set_scope_entry(to, copy_of.at(exit->entry));
  for (int eid : st.edge_ids()) {
    DataflowEdge e = *st.edge(eid);
    e.src = copy_of.at(e.src);
    e.dst = copy_of.at(e.dst);
    st.add_edge(std::move(e));
  }
  ASSERT_EQ(st.node_ids().size(), 2u * (3 + 2 * 600));
  auto again = json::read_sdfg(json::write_sdfg(**a));
  ASSERT_TRUE(again.ok()) << again.error().message;
}

// `depth` SDFGs, each but the innermost holding the next in a nested SDFG node.
std::string nested_sdfgs(int depth) {
  const std::string head =
      R"({"type": "SDFG", "dace_version": "1.0.2", "attributes": {"name": "n", "_arrays": {}}, "start_block": 0,)"
      R"( "edges": [], "nodes": [{"type": "SDFGState", "label": "s", "attributes": {}, "edges": [], "nodes": [)";
  std::string open, close;
  for (int i = 1; i < depth; ++i) {
    open += head + R"({"type": "NestedSDFG", "label": "x", "attributes": {"sdfg": )";
    close += "}}]}]}";
  }
  return open + head + "]}]}" + close;
}

TEST(JsonDepth, NestedSdfgsCountOneLevelEach) {
  // The root SDFG is level 1; an SDFG and its top-level graph are one level, not two.
  auto ok = json::read_sdfg(nested_sdfgs(128));
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  auto r = json::read_sdfg(nested_sdfgs(129));
  ASSERT_FALSE(r.ok());
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("sdfg \"n\" / ... ("), std::string::npos) << m;
  EXPECT_NE(m.find("nested deeper than 128 levels"), std::string::npos) << m;
  EXPECT_LT(m.size(), 200u) << m;
}

TEST(JsonDepth, LongQuotedTextIsShortenedInMessages) {
  // A memlet subset expression nested far deeper than the expression parser allows: the
  // message quotes the expression, but not all 200,000 parentheses of it.
  std::string deep = std::string(100000, '(') + "0" + std::string(100000, ')');
  std::string text = test::kSmallSdfg;
  const std::string key = "\"start\": \"0\"";
  size_t at = text.find(key);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, key.size(), "\"start\": \"" + deep + "\"");
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  EXPECT_LT(r.error().message.size(), 1000u);
  EXPECT_NE(r.error().message.find("characters) ..."), std::string::npos) << r.error().message;
}

}  // namespace
