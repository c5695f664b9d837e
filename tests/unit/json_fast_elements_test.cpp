// The fast way of reading a state's nodes and edges (src/ir/json/fast_elements.cpp): read
// straight from the text, it must give what the usual way (a DOM per element, Attrs) gives,
// take the elements it knows, and leave every other element — and every error — to the usual
// way, with the element's index in the message unchanged. Expected values are written out by
// hand from the texts below; the usual way (set_json_fast_path(false)) is the second reference.
#include <gtest/gtest.h>

#include <string>

#include "ir/equality.h"
#include "ir/json/json_internal.h"
#include "ir/json/sdfg_json.h"

namespace {

using namespace dace;
using namespace dace::ir;
namespace detail = dace::ir::json::detail;

// One state holding `nodes` and `edges` (JSON list contents), arrays A and B of N doubles.
std::string sdfg_with(const std::string& nodes, const std::string& edges) {
  return R"({"type": "SDFG", "dace_version": "1.0.2", "attributes": {"name": "f", "_arrays": {)"
         R"("A": {"type": "Array", "attributes": {"dtype": "float64", "shape": ["N"]}},)"
         R"("B": {"type": "Array", "attributes": {"dtype": "float64", "shape": ["N"]}}},)"
         R"( "symbols": {"N": "int64"}}, "start_block": 0, "edges": [], "nodes": [)"
         R"({"type": "SDFGState", "label": "s", "attributes": {}, "nodes": [)" +
         nodes + R"(], "edges": [)" + edges + "]}]}";
}

struct Read {
  Result<std::unique_ptr<SDFG>> sdfg;
  uint64_t fast = 0;  // elements the fast way read
};

Read read(const std::string& text, bool fast_path) {
  detail::set_json_fast_path(fast_path);
  const uint64_t before = detail::fast_elements_read();
  Read r{json::read_sdfg(text)};
  r.fast = detail::fast_elements_read() - before;
  detail::set_json_fast_path(true);
  return r;
}

// Reads `text` both ways; both must succeed with the same SDFG (bytes and hash).
std::unique_ptr<SDFG> read_both_ways(const std::string& text, uint64_t expected_fast) {
  Read usual = read(text, false);
  EXPECT_EQ(usual.fast, 0u);
  Read fast = read(text, true);
  EXPECT_TRUE(usual.sdfg.ok()) << usual.sdfg.error().message;
  EXPECT_TRUE(fast.sdfg.ok()) << fast.sdfg.error().message;
  if (!usual.sdfg.ok() || !fast.sdfg.ok()) return nullptr;
  EXPECT_EQ(fast.fast, expected_fast);
  std::string difference;
  EXPECT_TRUE(structurally_equal(**usual.sdfg, **fast.sdfg, &difference)) << difference;
  EXPECT_EQ(json::write_sdfg(**usual.sdfg), json::write_sdfg(**fast.sdfg));
  return std::move(*fast.sdfg);
}

const State& only_state(const SDFG& sdfg) { return *sdfg.all_states().front(); }

const char* kAccessA = R"({"type": "AccessNode", "label": "A", "attributes": {"data": "A"}})";
const char* kAccessB = R"({"type": "AccessNode", "label": "B", "attributes": {"data": "B"}})";

TEST(JsonFastElements, MapTaskletAndMemletsReadAsTheUsualWay) {
  const std::string nodes =
      std::string(kAccessA) + ", " + kAccessB +
      R"(, {"type": "MapEntry", "label": "m", "scope_entry": null, "scope_exit": "3",)"
      R"( "attributes": {"label": "m", "params": ["i"], "schedule": "CPU_Multicore", "collapse": 1,)"
      R"( "omp_schedule": "Static", "omp_chunk_size": 4, "gpu_block_size": [32, "8"], "unroll": false,)"
      R"( "range": {"type": "Range", "ranges": [{"start": "0", "end": "N - 1", "step": 1}]},)"
      R"( "instrument": "No_Instrumentation", "in_connectors": {"IN_A": null}, "out_connectors": {"OUT_A": null},)"
      R"( "debuginfo": {"type": "DebugInfo", "start_line": 7, "end_line": 9, "filename": "k.py"}, "guid": "g2"}},)"
      R"( {"type": "MapExit", "label": "m", "scope_entry": 2, "scope_exit": 3,)"
      R"( "attributes": {"in_connectors": {"IN_B": null}, "out_connectors": {"OUT_B": null}}},)"
      R"( {"type": "Tasklet", "label": "t", "scope_entry": "2", "scope_exit": "3",)"
      R"( "attributes": {"label": "t", "code": {"string_data": "b = a * 2", "language": "Python"},)"
      R"( "code_global": {"string_data": "// g", "language": "CPP"}, "side_effects": true,)"
      R"( "in_connectors": {"a": "float64"}, "out_connectors": {"b": {"type": "pointer", "dtype": "float64"}},)"
      R"( "my_property": [1, {"x": null}], "location": {}}})";
  auto memlet = [](const std::string& data, const std::string& subset, const std::string& more) {
    return R"({"type": "Memlet", "attributes": {"data": ")" + data + R"(", "subset": {"type": "Range", "ranges": [)" +
           subset + "]}" + more + "}}";
  };
  const std::string whole = R"({"start": "0", "end": "N - 1", "step": "1", "tile": "1"})";
  const std::string one = R"({"start": "i", "end": "i", "step": "1", "tile": "1"})";
  auto edge = [](int src, int dst, const std::string& sc, const std::string& dc, const std::string& m) {
    return R"({"type": "MultiConnectorEdge", "src": ")" + std::to_string(src) + R"(", "dst": ")" +
           std::to_string(dst) + R"(", "src_connector": )" + sc + R"(, "dst_connector": )" + dc +
           R"(, "attributes": {"data": )" + m + "}}";
  };
  const std::string edges =
      edge(0, 2, "null", R"("IN_A")", memlet("A", whole, R"(, "volume": "N", "num_accesses": "N")")) + ", " +
      edge(2, 4, R"("OUT_A")", R"("a")",
           memlet("A", one, R"(, "volume": 1, "dynamic": false, "is_data_src": true, "debuginfo": null)")) + ", " +
      edge(4, 3, R"("b")", R"("IN_B")",
           memlet("B", one, R"x(, "volume": {"main": "1", "approx": "1"}, "wcr": "(lambda x, y: x + y)",)x"
                            R"( "other_subset": {"type": "Range", "ranges": [{"start": "0", "end": "0"}]},)"
                            R"( "wcr_nonatomic": true, "guid": "e2", "unmodeled": "kept")")) + ", " +
      edge(3, 1, R"("OUT_B")", "null", memlet("B", whole, ""));
  auto sdfg = read_both_ways(sdfg_with(nodes, edges), 5 + 4);
  ASSERT_TRUE(sdfg);
  const State& st = only_state(*sdfg);
  ASSERT_EQ(st.node_ids().size(), 5u);
  const auto& map = static_cast<const MapEntry&>(*st.node(2));
  EXPECT_EQ(map.map.params, std::vector<std::string>{"i"});
  EXPECT_EQ(map.map.schedule, ScheduleType::CPU_Multicore);
  EXPECT_EQ(map.map.omp_chunk_size, 4);
  ASSERT_EQ(map.map.gpu_block_size.size(), 2u);
  EXPECT_EQ(sym::as_integer(map.map.gpu_block_size[1]), 8);
  EXPECT_EQ(map.debuginfo->start_line, 7);
  EXPECT_EQ(map.debuginfo->end_line, 9);
  EXPECT_EQ(map.debuginfo->filename, "k.py");
  EXPECT_TRUE(map.extra.empty());  // "instrument" holds DaCe's default
  const auto& exit = static_cast<const MapExit&>(*st.node(3));
  EXPECT_EQ(exit.entry, 2);
  EXPECT_EQ(exit.label, "m");
  const auto& t = static_cast<const Tasklet&>(*st.node(4));
  EXPECT_EQ(t.code.code, "b = a * 2");
  EXPECT_EQ(t.code_global->code, "// g");
  EXPECT_EQ(t.code_global->language, Language::CPP);
  EXPECT_TRUE(t.side_effects);
  EXPECT_EQ(t.out_connectors.at("b").pointer_depth, 1);
  // An unmodeled property is kept as compact JSON; "location" {} is DaCe's default and is not.
  ASSERT_EQ(t.extra.size(), 1u);
  EXPECT_EQ(t.extra.at("my_property"), R"([1,{"x":null}])");
  ASSERT_EQ(st.edge_ids().size(), 4u);
  const Memlet& wcr = st.edge(st.edge_ids()[2])->memlet;
  EXPECT_EQ(wcr.wcr, "(lambda x, y: x + y)");
  EXPECT_TRUE(wcr.wcr_nonatomic);
  EXPECT_EQ(sym::as_integer(wcr.volume), 1);
  ASSERT_TRUE(wcr.other_subset.has_value());
  EXPECT_EQ(wcr.other_subset->rank(), 1u);
  EXPECT_EQ(wcr.extra.at("unmodeled"), "\"kept\"");
  const Memlet& in = st.edge(st.edge_ids()[1])->memlet;
  EXPECT_EQ(in.is_data_src, std::optional<bool>(true));
}

TEST(JsonFastElements, OtherElementsAndOddValuesTakeTheUsualWay) {
  // Escapes, a float, a duplicate key, an "Indices" subset, an integer written as a string:
  // each element holding one is read the usual way; the others stay fast.
  const std::string nodes =
      std::string(kAccessA) + ", " + kAccessB +
      R"(, {"type": "Tasklet", "label": "t", "attributes": {"code": {"string_data": "b = a\nb = b + 1",)"
      R"( "language": "Python"}, "in_connectors": {"a": null}, "out_connectors": {"b": null}}})"
      R"(, {"type": "AccessNode", "label": "A", "attributes": {"data": "B", "data": "A"}})"
      R"(, {"type": "AccessNode", "label": "A", "attributes": {"data": "A", "weight": 0.5}})"
      R"(, {"type": "MapEntry", "label": "m", "scope_exit": "6", "attributes": {"label": "m", "params": ["i"],)"
      R"( "collapse": "2", "range": {"type": "Range", "ranges": [{"start": "0", "end": "N - 1"}]}}})"
      R"(, {"type": "MapExit", "label": "m", "scope_entry": "5", "attributes": {}})";
  const std::string edges =
      R"({"type": "MultiConnectorEdge", "src": "0", "dst": "2", "src_connector": null, "dst_connector": "a",)"
      R"( "attributes": {"data": {"type": "Memlet", "attributes": {"data": "A",)"
      R"( "subset": {"type": "Indices", "indices": ["0"]}}}}},)"
      R"( {"type": "MultiConnectorEdge", "src": "2", "dst": "1", "src_connector": "b", "dst_connector": null,)"
      R"( "attributes": {"data": {"type": "Memlet", "attributes": {"data": "B",)"
      R"( "subset": {"type": "Range", "ranges": [{"start": "0", "end": "0"}]}}}}})";
  // Fast: the two access nodes, the map exit and the second edge.
  auto sdfg = read_both_ways(sdfg_with(nodes, edges), 4);
  ASSERT_TRUE(sdfg);
  const State& st = only_state(*sdfg);
  EXPECT_EQ(static_cast<const Tasklet&>(*st.node(2)).code.code, "b = a\nb = b + 1");
  // The last of two equal keys counts, as in the usual way.
  EXPECT_EQ(static_cast<const AccessNode&>(*st.node(3)).data, "A");
  EXPECT_EQ(st.node(4)->extra.at("weight"), "0.5");
  EXPECT_EQ(static_cast<const MapEntry&>(*st.node(5)).map.collapse, 2);
  EXPECT_EQ(static_cast<const MapExit&>(*st.node(6)).entry, 5);
  EXPECT_EQ(st.edge(st.edge_ids()[0])->memlet.subset.rank(), 1u);
}

TEST(JsonFastElements, ErrorsNameTheElementAfterFastOnes) {
  // Nodes 0 and 1 are read the fast way; node 2's type is unknown, edge 1 names no node. The
  // messages count the elements read the fast way too.
  const std::string nodes = std::string(kAccessA) + ", " + kAccessB + R"(, {"type": "Bogus", "attributes": {}})";
  Read bad_node = read(sdfg_with(nodes, ""), true);
  ASSERT_FALSE(bad_node.sdfg.ok());
  EXPECT_EQ(bad_node.fast, 2u);
  EXPECT_EQ(bad_node.sdfg.error().message,
            "sdfg \"f\" / state \"s\" / node 2: property \"type\": unknown node type \"Bogus\"");
  Read bad_node_usual = read(sdfg_with(nodes, ""), false);
  ASSERT_FALSE(bad_node_usual.sdfg.ok());
  EXPECT_EQ(bad_node_usual.sdfg.error().message, bad_node.sdfg.error().message);

  const std::string edge =
      R"({"type": "MultiConnectorEdge", "src": "0", "dst": "1", "src_connector": null, "dst_connector": null,)"
      R"( "attributes": {"data": {"type": "Memlet", "attributes": {"data": "A",)"
      R"( "subset": {"type": "Range", "ranges": [{"start": "0", "end": "0"}]}}}}})";
  std::string bad_edge = edge;
  bad_edge.replace(bad_edge.find("\"dst\": \"1\""), 10, "\"dst\": \"7\"");
  Read edge_read = read(sdfg_with(std::string(kAccessA) + ", " + kAccessB, edge + ", " + bad_edge), true);
  ASSERT_FALSE(edge_read.sdfg.ok());
  EXPECT_EQ(edge_read.fast, 3u);  // two nodes, the first edge
  EXPECT_EQ(edge_read.sdfg.error().message, "sdfg \"f\" / state \"s\" / edge 1: property \"dst\": no node 7");
}

TEST(JsonFastElements, ADeclinedElementLeavesNoTrace) {
  // The memlet's "wcr_nonatomic" is not a boolean: the fast way has read the node references,
  // connectors and most of the memlet when it declines; the usual way then reports the error,
  // and an SDFG read afterwards is not affected.
  const std::string edge =
      R"({"type": "MultiConnectorEdge", "src": "0", "dst": "1", "src_connector": null, "dst_connector": null,)"
      R"( "attributes": {"data": {"type": "Memlet", "attributes": {"data": "A", "wcr_nonatomic": 3,)"
      R"( "subset": {"type": "Range", "ranges": [{"start": "0", "end": "0"}]}}}}})";
  Read r = read(sdfg_with(std::string(kAccessA) + ", " + kAccessB, edge), true);
  ASSERT_FALSE(r.sdfg.ok());
  EXPECT_EQ(r.fast, 2u);
  EXPECT_NE(r.sdfg.error().message.find("edge 0: property \"wcr_nonatomic\": expected boolean"), std::string::npos)
      << r.sdfg.error().message;
  std::string fixed = edge;
  fixed.replace(fixed.find("\"wcr_nonatomic\": 3"), 18, "\"wcr_nonatomic\": true");
  auto sdfg = read_both_ways(sdfg_with(std::string(kAccessA) + ", " + kAccessB, fixed), 3);
  ASSERT_TRUE(sdfg);
  EXPECT_EQ(only_state(*sdfg).edge_ids().size(), 1u);
}

}  // namespace
