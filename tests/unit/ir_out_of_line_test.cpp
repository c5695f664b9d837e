// OutOfLine<T>, OptionalOutOfLine<T> and ExtraProperties: members stored behind one pointer,
// allocated only when they hold something other than the default (docs/sdfg-json.md "Memory
// of the IR"). SparseMap and EdgeList have tests of their own.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/json/sdfg_json.h"
#include "ir/state.h"

namespace dace::ir {
namespace {

TEST(IrOutOfLine, IsOnePointerWide) {
  // The point of both types: an element that leaves them at their defaults pays a pointer,
  // where the inline members took 64 (DebugInfo), 32 (string) and 48 (std::map) bytes.
  EXPECT_EQ(sizeof(OutOfLine<DebugInfo>), sizeof(void*));
  EXPECT_EQ(sizeof(OutOfLine<std::string>), sizeof(void*));
  EXPECT_EQ(sizeof(ExtraProperties), sizeof(void*));
  EXPECT_EQ(sizeof(Connectors), sizeof(void*));
  EXPECT_EQ(sizeof(OptionalOutOfLine<sym::Subset>), sizeof(void*));
  // An adjacency list: two ids inline in 16 bytes (a std::vector was 24 plus a heap block).
  EXPECT_EQ(sizeof(EdgeList), 16u);
}

TEST(IrOptionalOutOfLine, BehavesAsAnOptionalAndCopiesDeeply) {
  OptionalOutOfLine<std::string> v;
  EXPECT_FALSE(v.has_value());
  EXPECT_FALSE(static_cast<bool>(v));
  EXPECT_EQ(static_cast<std::optional<std::string>>(v), std::nullopt);
  v = std::string();  // present though empty: unlike OutOfLine, no value counts as absent
  EXPECT_TRUE(v.has_value());
  v = "0:N";
  EXPECT_EQ(*v, "0:N");
  EXPECT_EQ(v->size(), 3u);
  OptionalOutOfLine<std::string> copy = v;
  copy->append(", 1");
  EXPECT_EQ(*v, "0:N");
  EXPECT_EQ(*copy, "0:N, 1");
  EXPECT_FALSE(copy == v);
  EXPECT_EQ(static_cast<std::optional<std::string>>(copy), std::optional<std::string>("0:N, 1"));
  copy = std::nullopt;
  EXPECT_FALSE(copy.has_value());
  EXPECT_FALSE(copy == v);
  v.reset();
  EXPECT_TRUE(copy == v);  // both absent
  OptionalOutOfLine<std::string> moved = std::move(copy);
  EXPECT_FALSE(moved.has_value());
}

// A memlet's write-conflict resolution and other_subset are out of line: set, they are read
// and written as before; unset (the usual memlet), they are absent from the file.
TEST(IrOutOfLine, MemletWcrAndOtherSubsetKeepTheirValues) {
  Memlet m;
  EXPECT_TRUE(m.wcr.empty());
  EXPECT_FALSE(m.other_subset.has_value());
  m.wcr = "lambda a, b: a + b";
  auto other = sym::parse_subset("1:N");
  ASSERT_TRUE(other.ok());
  m.other_subset = *other;
  Memlet copy = m;
  m.wcr = "";
  m.other_subset.reset();
  EXPECT_EQ(copy.wcr.get(), "lambda a, b: a + b");
  ASSERT_TRUE(copy.other_subset.has_value());
  EXPECT_EQ(sym::to_string(*copy.other_subset), "1:N");
  EXPECT_TRUE(m.wcr.empty());
  EXPECT_FALSE(m.other_subset.has_value());
}

TEST(IrOutOfLine, ReadsTheDefaultUntilSetAndCopiesDeeply) {
  OutOfLine<std::string> guid;
  EXPECT_TRUE(guid.empty());
  EXPECT_EQ(guid.get(), "");
  guid = "abc";
  EXPECT_EQ(guid.get(), "abc");
  OutOfLine<std::string> copy = guid;
  copy.mut() += "d";
  EXPECT_EQ(guid.get(), "abc");
  EXPECT_EQ(copy.get(), "abcd");
  EXPECT_FALSE(guid == copy);
  guid.clear();
  EXPECT_EQ(guid.get(), "");
  guid = std::string();  // the default again: equal to one never set
  EXPECT_TRUE(guid == OutOfLine<std::string>());
}

TEST(IrOutOfLine, DebugInfoMemberConvertsBothWays) {
  AccessNode node;
  EXPECT_FALSE(node.debuginfo->present);
  DebugInfo d;
  d.present = true;
  d.start_line = 7;
  d.filename = "prog.py";
  node.debuginfo = d;
  const DebugInfo& read = node.debuginfo;
  EXPECT_TRUE(read.present);
  EXPECT_EQ(read.start_line, 7);
  EXPECT_EQ(read.filename, "prog.py");
  std::unique_ptr<Node> clone = node.clone();
  node.debuginfo.mut().start_line = 9;
  EXPECT_EQ(clone->debuginfo->start_line, 7);
}

TEST(IrOutOfLine, TaskletCodeDefaultsToEmptyCpp) {
  Tasklet t;
  EXPECT_EQ(t.code_global->code, "");
  EXPECT_EQ(t.code_global->language, Language::CPP);
  EXPECT_EQ(t.code_exit->language, Language::CPP);
  t.code_init = CodeBlock{"", Language::Python};  // not the default: kept
  EXPECT_EQ(t.code_init->language, Language::Python);
  t.code_init = CodeBlock{"", Language::CPP};
  EXPECT_TRUE((t.code_init == CodeBlock{"", Language::CPP}));
}

TEST(IrExtraProperties, BehavesAsAMapBeforeAndAfterItsFirstKey) {
  ExtraProperties extra;
  EXPECT_TRUE(extra.empty());
  EXPECT_EQ(extra.size(), 0u);
  EXPECT_TRUE(extra.begin() == extra.end());
  EXPECT_TRUE(extra.find("x") == extra.end());
  EXPECT_EQ(extra.count("x"), 0u);
  EXPECT_FALSE(extra.contains("x"));
  EXPECT_EQ(extra.erase("x"), 0u);
  EXPECT_THROW((void)static_cast<const ExtraProperties&>(extra).at("x"), std::out_of_range);

  extra["zeta"] = "1";
  extra.emplace("alpha", "\"a\"");
  extra.insert({"mid", "null"});
  std::vector<std::string> keys;
  for (const auto& [key, text] : extra) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"alpha", "mid", "zeta"}));  // key order
  EXPECT_EQ(extra.at("alpha"), "\"a\"");
  ASSERT_TRUE(extra.find("mid") != extra.end());

  ExtraProperties copy = extra;
  copy["zeta"] = "2";
  EXPECT_EQ(extra.at("zeta"), "1");
  EXPECT_FALSE(copy == extra);

  EXPECT_EQ(extra.erase("alpha") + extra.erase("mid") + extra.erase("zeta"), 3u);
  EXPECT_TRUE(extra.empty());
  EXPECT_TRUE(extra == ExtraProperties());  // emptied equals never filled
}

// Unmodeled properties and guids of nodes and memlets, debuginfo (given, null, omitted) and an
// empty Python global code on a tasklet (not the default, which is C++) are written back as read.
TEST(IrOutOfLine, RareMembersRoundTripThroughJson) {
  const std::string text = R"({"type": "SDFG", "attributes": {"name": "rare", "_arrays": {"A": {"type": "Array",
    "attributes": {"shape": ["4"], "strides": ["1"], "total_size": "4", "offset": ["0"], "dtype": "float64"}}}},
  "nodes": [{"type": "SDFGState", "label": "s0", "id": 0, "attributes": {}, "nodes": [
    {"type": "AccessNode", "label": "A", "id": 0, "attributes": {"data": "A", "guid": "n0", "my_flag": 3,
      "debuginfo": {"type": "DebugInfo", "start_line": 4, "end_line": 4, "start_column": 1, "end_column": 9,
                    "filename": "p.py"}}},
    {"type": "Tasklet", "label": "t", "id": 1, "attributes": {"label": "t", "guid": "n1",
      "code": {"string_data": "b = a", "language": "Python"},
      "code_global": {"string_data": "", "language": "Python"},
      "in_connectors": {"a": "float64"}, "out_connectors": {"b": null}}},
    {"type": "AccessNode", "label": "A", "id": 2, "attributes": {"data": "A"}}],
   "edges": [
    {"type": "MultiConnectorEdge", "src": "0", "dst": "1", "src_connector": null, "dst_connector": "a",
     "attributes": {"data": {"type": "Memlet", "attributes": {"data": "A", "guid": "m0", "their_key": [1, 2],
       "subset": {"type": "Range", "ranges": [{"start": "0", "end": "0", "step": "1", "tile": "1"}]},
       "debuginfo": {"type": "DebugInfo", "start_line": 5, "end_line": 5, "start_column": 0, "end_column": 2,
                     "filename": "q.py"}}}}},
    {"type": "MultiConnectorEdge", "src": "1", "dst": "2", "src_connector": "b", "dst_connector": null,
     "attributes": {"data": {"type": "Memlet", "attributes": {"data": "A", "debuginfo": null,
       "subset": {"type": "Range", "ranges": [{"start": "1", "end": "1", "step": "1", "tile": "1"}]}}}}}]}],
  "edges": [], "start_block": 0, "dace_version": "1.0.2"})";
  auto sdfg = json::read_sdfg(text);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  const auto* st = static_cast<const State*>((*sdfg)->block(0));
  ASSERT_NE(st, nullptr);
  const Node* access = st->node(0);
  EXPECT_EQ(access->guid.get(), "n0");
  EXPECT_EQ(access->debuginfo->start_line, 4);
  EXPECT_EQ(access->debuginfo->filename, "p.py");
  EXPECT_EQ(access->extra.at("my_flag"), "3");
  const auto* tasklet = static_cast<const Tasklet*>(st->node(1));
  EXPECT_EQ(tasklet->code_global->language, Language::Python);
  EXPECT_EQ(tasklet->code_init->language, Language::CPP);
  EXPECT_TRUE(st->node(2)->guid.empty());
  EXPECT_TRUE(st->node(2)->extra.empty());
  const Memlet& m = st->edge(0)->memlet;
  EXPECT_EQ(m.guid.get(), "m0");
  EXPECT_EQ(m.debuginfo->filename, "q.py");
  EXPECT_EQ(m.extra.at("their_key"), "[1,2]");
  EXPECT_FALSE(st->edge(1)->memlet.debuginfo->present);  // null
  // Omitted: DaCe's default DebugInfo(0, 0, 0, 0), which is not the IR's default (absent).
  EXPECT_TRUE(st->node(2)->debuginfo->present);
  EXPECT_EQ(st->node(2)->debuginfo->start_line, 0);

  // Written and read again: the same SDFG, every rare member still there.
  const std::string written = json::write_sdfg(**sdfg);
  EXPECT_NE(written.find("\"their_key\""), std::string::npos);
  EXPECT_NE(written.find("\"my_flag\""), std::string::npos);
  EXPECT_NE(written.find("\"q.py\""), std::string::npos);
  EXPECT_NE(written.find("\"code_global\""), std::string::npos);
  auto again = json::read_sdfg(written);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(json::write_sdfg(**again), written);
}

}  // namespace
}  // namespace dace::ir
