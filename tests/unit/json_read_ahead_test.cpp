// Large states read two at a time (src/ir/json/read_sdfg.cpp, docs/sdfg-json.md "Reading large
// files"): the SDFG must be the one the whole-DOM reader builds from the same text, and the
// error reported must be the first in the file, whichever thread met it.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "ir/json/json_internal.h"
#include "ir/json/sdfg_json.h"

namespace {

using namespace dace;
using namespace dace::ir;
namespace detail = dace::ir::json::detail;

// A state of `units` access -> tasklet -> access chains over array A (about 600 bytes each);
// `bad_tasklet` >= 0 gives that unit's tasklet an unknown schedule (a content error).
std::string state(int id, int units, int bad_tasklet = -1) {
  std::string nodes, edges;
  for (int u = 0; u < units; ++u) {
    const int a = 3 * u, t = a + 1, b = a + 2;
    const std::string k = std::to_string(u % 7);
    if (u) {
      nodes += ", ";
      edges += ", ";
    }
    nodes += R"({"type": "AccessNode", "label": "A", "attributes": {"data": "A"}}, )";
    nodes += R"({"type": "Tasklet", "label": "t", "attributes": {"label": "t", "code": {"string_data": "y = x + 1",)"
             R"( "language": "Python"}, "in_connectors": {"x": null}, "out_connectors": {"y": null})";
    if (u == bad_tasklet) nodes += R"(, "side_effects": "sometimes")";
    nodes += "}}, ";
    nodes += R"({"type": "AccessNode", "label": "A", "attributes": {"data": "A"}})";
    auto memlet = [&](const std::string& index) {
      return R"({"type": "Memlet", "attributes": {"data": "A", "subset": {"type": "Range", "ranges": [{"start": ")" +
             index + R"(", "end": ")" + index + R"(", "step": "1", "tile": "1"}]}}})";
    };
    edges += R"({"type": "MultiConnectorEdge", "src": ")" + std::to_string(a) + R"(", "dst": ")" +
             std::to_string(t) + R"(", "src_connector": null, "dst_connector": "x", "attributes": {"data": )" +
             memlet(k) + "}}, ";
    edges += R"({"type": "MultiConnectorEdge", "src": ")" + std::to_string(t) + R"(", "dst": ")" +
             std::to_string(b) + R"(", "src_connector": "y", "dst_connector": null, "attributes": {"data": )" +
             memlet(std::to_string(u % 7 + 1)) + "}}";
  }
  return R"({"type": "SDFGState", "label": "s)" + std::to_string(id) + R"(", "attributes": {}, "nodes": [)" + nodes +
         R"(], "edges": [)" + edges + "]}";
}

std::string sdfg_of(const std::vector<std::string>& states) {
  std::string blocks, edges;
  for (size_t i = 0; i < states.size(); ++i) {
    blocks += (i ? ", " : "") + states[i];
    if (i + 1 < states.size())
      edges += std::string(i ? ", " : "") + R"({"type": "Edge", "src": ")" + std::to_string(i) + R"(", "dst": ")" +
               std::to_string(i + 1) + R"(", "attributes": {"data": {"type": "InterstateEdge", "attributes": {}}}})";
  }
  return R"({"type": "SDFG", "dace_version": "1.0.2", "attributes": {"name": "big", "_arrays": {)"
         R"("A": {"type": "Array", "attributes": {"dtype": "float64", "shape": ["8"]}}}}, "start_block": 0,)"
         R"( "nodes": [)" + blocks + R"(], "edges": [)" + edges + "]}";
}

constexpr int kUnits = 500;  // about 300 KB of lists per state: past the read-ahead threshold

TEST(JsonReadAhead, LargeStatesReadAsTheWholeDomReaderReadsThem) {
  const std::string text = sdfg_of({state(0, kUnits), state(1, kUnits), state(2, kUnits), state(3, 5)});
  const uint64_t before = detail::blocks_read_ahead();
  auto streamed = json::read_sdfg(text);
  ASSERT_TRUE(streamed.ok()) << streamed.error().message;
  // States 0 and 1 are a pair; 2 is followed by a small state, so it is read alone (and on a
  // machine with one core every state is).
  EXPECT_EQ(detail::blocks_read_ahead() - before, std::thread::hardware_concurrency() > 1 ? 1u : 0u);
  auto whole = json::read_sdfg_whole_dom(text);
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  EXPECT_EQ(json::write_sdfg(**streamed), json::write_sdfg(**whole));
  const auto states = (*streamed)->all_states();
  ASSERT_EQ(states.size(), 4u);
  EXPECT_EQ(states[1]->node_ids().size(), 3u * kUnits);
  EXPECT_EQ(states[1]->edge_ids().size(), 2u * kUnits);
  EXPECT_EQ(states[1]->label, "s1");
}

TEST(JsonReadAhead, TheFirstErrorInTheFileIsReported) {
  // Errors in both states of a pair: the first state's is reported. Only in the second: that.
  const std::string both = sdfg_of({state(0, kUnits, 400), state(1, kUnits, 3)});
  auto r = json::read_sdfg(both);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message,
            "sdfg \"big\" / state \"s0\" / node 1201 (Tasklet): property \"side_effects\": expected boolean, got "
            "string");
  auto whole = json::read_sdfg_whole_dom(both);
  ASSERT_FALSE(whole.ok());
  EXPECT_EQ(whole.error().message, r.error().message);

  const std::string second = sdfg_of({state(0, kUnits), state(1, kUnits, 3)});
  auto s = json::read_sdfg(second);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            "sdfg \"big\" / state \"s1\" / node 10 (Tasklet): property \"side_effects\": expected boolean, got string");
}

}  // namespace
