// Reading and writing a small hand-written SDFG: the model it yields, the canonical form
// written back, errors that name the element, and verbatim round trip of unknown content.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "json_test_sdfg.h"

namespace {

using namespace dace;
using namespace dace::ir;
using Json = nlohmann::ordered_json;

std::unique_ptr<SDFG> load(const std::string& text) {
  auto r = json::read_sdfg(text);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(*r) : nullptr;
}

Json small() { return Json::parse(test::kSmallSdfg); }

Json& node_attrs(Json& doc, int state, int node) { return doc["nodes"][state]["nodes"][node]["attributes"]; }

TEST(JsonRead, SmallSdfgModel) {
  auto sdfg = load(test::kSmallSdfg);
  ASSERT_TRUE(sdfg);
  EXPECT_EQ(sdfg->name, "small");
  EXPECT_EQ(sdfg->dace_version, "1.0.2");
  EXPECT_EQ(sdfg->arg_names, (std::vector<std::string>{"A", "B"}));
  ASSERT_EQ(sdfg->arrays.size(), 2u);
  const DataDescriptor& a = sdfg->arrays.at("A");
  EXPECT_EQ(a.kind, DataKind::Array);
  EXPECT_EQ(a.dtype, DType::of(ScalarType::Float64));
  ASSERT_EQ(a.shape.size(), 1u);
  EXPECT_EQ(a.shape[0], sym::symbol("N"));
  EXPECT_EQ(sdfg->symbols.at("N"), DType::of(ScalarType::Int64));

  ASSERT_EQ(sdfg->block_slots().size(), 2u);
  EXPECT_EQ(sdfg->start_block, 0);
  const auto* st = static_cast<const State*>(sdfg->block(0));
  ASSERT_EQ(st->kind, BlockKind::State);
  EXPECT_EQ(st->label, "compute");
  ASSERT_EQ(st->node_ids().size(), 5u);
  ASSERT_EQ(st->node(0)->kind, NodeKind::MapEntry);
  const auto& map = static_cast<const MapEntry*>(st->node(0))->map;
  EXPECT_EQ(map.params, (std::vector<std::string>{"i"}));
  ASSERT_EQ(map.range.rank(), 1u);
  EXPECT_EQ(map.range.dims[0].end, sym::sub(sym::symbol("N"), sym::integer(1)));
  ASSERT_EQ(st->node(1)->kind, NodeKind::MapExit);
  EXPECT_EQ(static_cast<const MapExit*>(st->node(1))->entry, 0);
  const auto* t = static_cast<const Tasklet*>(st->node(2));
  EXPECT_EQ(t->code.code, "b = a * 2");
  EXPECT_EQ(t->out_connectors.at("b"), DType::of(ScalarType::Float64));
  EXPECT_TRUE(t->in_connectors.at("a").is_unknown());
  EXPECT_EQ(t->guid, "g2");

  ASSERT_EQ(st->edge_ids().size(), 4u);
  const DataflowEdge* e = st->edge(1);
  EXPECT_EQ(e->src, 0);
  EXPECT_EQ(e->dst, 2);
  EXPECT_EQ(e->src_conn, "OUT_A");
  EXPECT_EQ(e->dst_conn, "a");
  EXPECT_EQ(e->memlet.data, "A");
  EXPECT_EQ(e->memlet.subset.dims[0].start, sym::symbol("i"));

  const InterstateEdge* ie = sdfg->edge(0);
  ASSERT_TRUE(ie);
  EXPECT_EQ(ie->condition.code, "N > 0");
  // Ordered as in the file, not alphabetically.
  ASSERT_EQ(ie->assignments.size(), 3u);
  EXPECT_EQ(ie->assignments[0], (std::pair<std::string, std::string>{"z", "N"}));
  EXPECT_EQ(ie->assignments[1], (std::pair<std::string, std::string>{"a", "z + 1"}));
  EXPECT_EQ(ie->assignments[2], (std::pair<std::string, std::string>{"m", "a * 2"}));
}

TEST(JsonWrite, CanonicalFormOfSmallSdfg) {
  auto sdfg = load(test::kSmallSdfg);
  ASSERT_TRUE(sdfg);
  Json out = Json::parse(json::write_sdfg(*sdfg));
  EXPECT_EQ(out["dace_version"], "1.0.2");
  EXPECT_FALSE(out["attributes"].contains("hash"));
  // Assignment order survives writing.
  Json as = out["edges"][0]["attributes"]["data"]["attributes"]["assignments"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : as.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"z", "a", "m"}));
  // Derived memlet fields, as DaCe computes them: A is read (source), B written (destination).
  Json m0 = out["nodes"][0]["edges"][0]["attributes"]["data"]["attributes"];
  EXPECT_EQ(m0["is_data_src"], true);
  EXPECT_EQ(m0["src_subset"], m0["subset"]);
  EXPECT_TRUE(m0["dst_subset"].is_null());
  EXPECT_EQ(m0["num_accesses"], "N");
  Json m3 = out["nodes"][0]["edges"][3]["attributes"]["data"]["attributes"];
  EXPECT_EQ(m3["is_data_src"], false);
  EXPECT_TRUE(m3["src_subset"].is_null());
  EXPECT_EQ(m3["dst_subset"], m3["subset"]);
  // Edge inside the map towards the exit: the path ends at B, so B is the destination.
  Json m2 = out["nodes"][0]["edges"][2]["attributes"]["data"]["attributes"];
  EXPECT_EQ(m2["is_data_src"], false);
  // Scope structure: the exit belongs to its entry's scope.
  Json scopes = out["nodes"][0]["scope_dict"];
  EXPECT_EQ(scopes["-1"], Json::array({0, 3, 4}));
  EXPECT_EQ(scopes["0"], Json::array({1, 2}));
  EXPECT_EQ(out["nodes"][0]["nodes"][1]["scope_entry"], "0");
  EXPECT_EQ(out["nodes"][0]["nodes"][0]["scope_exit"], "1");
  EXPECT_EQ(out["nodes"][0]["nodes"][2]["scope_entry"], "0");
  // Guids only when asked for.
  EXPECT_EQ(node_attrs(out, 0, 2)["guid"], "g2");
  Json no_guid = Json::parse(json::write_sdfg(*sdfg, {.pretty = false, .include_guids = false}));
  EXPECT_FALSE(node_attrs(no_guid, 0, 2).contains("guid"));
}

TEST(JsonWrite, RemovedSlotsAreNumberedDensely) {
  auto sdfg = load(test::kSmallSdfg);
  ASSERT_TRUE(sdfg);
  auto* st = static_cast<State*>(sdfg->block(0));
  int extra = st->add_node(std::make_unique<AccessNode>());
  static_cast<AccessNode*>(st->node(extra))->data = "A";
  st->remove_node(3);  // A, and the edge reading it
  Json out = Json::parse(json::write_sdfg(*sdfg));
  Json nodes = out["nodes"][0]["nodes"];
  ASSERT_EQ(nodes.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(nodes[i]["id"], i);
  // Slot 4 (B) is now id 3, the new node (slot 5) is id 4.
  EXPECT_EQ(nodes[3]["attributes"]["data"], "B");
  EXPECT_EQ(nodes[4]["attributes"]["data"], "A");
  Json edges = out["nodes"][0]["edges"];
  ASSERT_EQ(edges.size(), 3u);
  EXPECT_EQ(edges[2]["dst"], "3");
  auto back = load(out.dump());
  ASSERT_TRUE(back);
  EXPECT_TRUE(structurally_equal(*sdfg, *back));
}

TEST(JsonRoundTrip, UnknownPropertiesAndLibraryNodesSurvive) {
  Json doc = small();
  node_attrs(doc, 0, 2)["my_future_property"] = Json::parse(R"({"k": [1, 2.5, null, "x"]})");
  doc["attributes"]["some_sdfg_setting"] = "value";
  doc["nodes"][0]["attributes"]["state_flag"] = 7;
  Json lib = Json::parse(R"({
    "type": "LibraryNode", "label": "mylib",
    "attributes": {"name": "mylib", "implementation": "fast", "alpha": 2.5,
                   "weird": {"nested": [true, {"a": null}]}, "debuginfo": null, "label": "mylib",
                   "in_connectors": {"_in": null}, "out_connectors": {"_out": {"type": "pointer", "dtype": "float32"}},
                   "guid": "lib"},
    "id": 5, "scope_entry": null, "scope_exit": null, "classpath": "my.unknown.library.Frobnicate"})");
  doc["nodes"][1]["nodes"].push_back(lib);
  auto sdfg = load(doc.dump());
  ASSERT_TRUE(sdfg);
  const auto* st = static_cast<const State*>(sdfg->block(1));
  ASSERT_EQ(st->node(0)->kind, NodeKind::Library);
  const auto* ln = static_cast<const LibraryNode*>(st->node(0));
  EXPECT_EQ(ln->classpath, "my.unknown.library.Frobnicate");
  EXPECT_EQ(ln->implementation, "fast");
  EXPECT_EQ(ln->properties.at("alpha"), "2.5");
  EXPECT_EQ(ln->out_connectors.at("_out"), DType::pointer_to(ScalarType::Float32));

  Json out = Json::parse(json::write_sdfg(*sdfg));
  EXPECT_EQ(node_attrs(out, 0, 2)["my_future_property"], node_attrs(doc, 0, 2)["my_future_property"]);
  EXPECT_EQ(out["attributes"]["some_sdfg_setting"], "value");
  EXPECT_EQ(out["nodes"][0]["attributes"]["state_flag"], 7);
  Json lib_out = out["nodes"][1]["nodes"][0];
  EXPECT_EQ(lib_out["classpath"], lib["classpath"]);
  for (const char* key : {"name", "implementation", "alpha", "weird", "in_connectors", "out_connectors", "label"})
    EXPECT_EQ(lib_out["attributes"][key], lib["attributes"][key]) << key;
}

TEST(JsonRead, OtherDialectForms) {
  Json doc = small();
  // DaCe >= 2.0a4: typed symbols, DebugInfo by file index, compact DebugInfo.
  doc["source_files"] = Json::array({"a.py", "kernel.py"});
  doc["dace_version"] = "2.0.0a5";
  doc["attributes"]["_arrays"]["A"]["attributes"]["shape"] = Json::array({"symbol($N, dtype=dace.int64)"});
  node_attrs(doc, 0, 2)["debuginfo"] = Json::parse(R"({"type": "DebugInfo", "start_line": 7, "start_column": 3, "file_index": 1})");
  // DaCe 0.14: start_state and qualified enum names.
  doc.erase("start_block");
  doc["start_state"] = 1;
  node_attrs(doc, 0, 0)["schedule"] = "ScheduleType.CPU_Multicore";
  auto sdfg = load(doc.dump());
  ASSERT_TRUE(sdfg);
  EXPECT_EQ(sdfg->arrays.at("A").shape[0], sym::symbol("N"));
  EXPECT_EQ(sdfg->start_block, 1);
  const auto* st = static_cast<const State*>(sdfg->block(0));
  const DebugInfo& d = st->node(2)->debuginfo;
  EXPECT_TRUE(d.present);
  EXPECT_EQ(d.filename, "kernel.py");
  EXPECT_EQ(d.start_line, 7);
  EXPECT_EQ(d.end_line, 7);
  EXPECT_EQ(d.start_column, 3);
  EXPECT_EQ(d.end_column, 3);
  EXPECT_EQ(static_cast<const MapEntry*>(st->node(0))->map.schedule, ScheduleType::CPU_Multicore);
  Json out = Json::parse(json::write_sdfg(*sdfg));
  EXPECT_EQ(out["attributes"]["_arrays"]["A"]["attributes"]["shape"], Json::array({"N"}));
  EXPECT_EQ(node_attrs(out, 0, 2)["debuginfo"]["filename"], "kernel.py");
  EXPECT_EQ(node_attrs(out, 0, 0)["schedule"], "CPU_Multicore");
  EXPECT_EQ(out["start_block"], 1);
  EXPECT_FALSE(out.contains("source_files"));
}

// ---- errors ----

Error load_error(const Json& doc) {
  auto r = json::read_sdfg(doc.dump());
  EXPECT_FALSE(r.ok());
  if (r.ok()) return {};
  EXPECT_EQ(r.error().code, Code::ParseError);
  return r.error();
}

void expect_mentions(const Error& e, std::initializer_list<const char*> parts) {
  for (const char* p : parts) EXPECT_NE(e.message.find(p), std::string::npos) << "'" << p << "' not in: " << e.message;
}

TEST(JsonErrors, WrongTypesNameTheElement) {
  {
    Json doc = small();
    node_attrs(doc, 0, 3)["data"] = 5;
    expect_mentions(load_error(doc), {"sdfg \"small\"", "state \"compute\"", "node 3", "\"data\"", "expected string"});
  }
  {
    Json doc = small();
    doc["attributes"]["_arrays"]["B"]["attributes"]["shape"] = "N";
    expect_mentions(load_error(doc), {"data \"B\"", "\"shape\"", "expected list"});
  }
  {
    Json doc = small();
    doc["attributes"]["_arrays"]["B"]["attributes"]["transient"] = "yes";
    expect_mentions(load_error(doc), {"data \"B\"", "\"transient\"", "expected boolean"});
  }
  {
    Json doc = small();
    node_attrs(doc, 0, 0)["params"] = Json::array({1});
    expect_mentions(load_error(doc), {"node 0", "\"params\""});
  }
  {
    Json doc = small();
    doc["nodes"][0]["edges"][1]["attributes"]["data"]["attributes"]["subset"]["ranges"][0]["start"] = "i +";
    expect_mentions(load_error(doc), {"edge 1", "\"subset\"", "i +"});
  }
  {
    Json doc = small();
    doc["edges"][0]["attributes"]["data"]["attributes"]["assignments"]["z"] = Json::array();
    expect_mentions(load_error(doc), {"interstate edge 0", "\"assignments\""});
  }
  {
    Json doc = small();
    node_attrs(doc, 0, 0)["schedule"] = "Warp_Speed";
    expect_mentions(load_error(doc), {"node 0", "\"schedule\"", "Warp_Speed"});
  }
  {
    Json doc = small();
    doc["nodes"][0]["nodes"][2]["attributes"]["code"] = 3;
    expect_mentions(load_error(doc), {"node 2", "\"code\""});
  }
}

TEST(JsonErrors, StructuralProblems) {
  {
    Json doc = small();
    doc["attributes"].erase("name");
    expect_mentions(load_error(doc), {"\"name\""});
  }
  {
    Json doc = small();
    doc["nodes"][0]["nodes"][2]["type"] = "Teleporter";
    expect_mentions(load_error(doc), {"node 2", "Teleporter"});
  }
  {
    Json doc = small();
    doc["nodes"][0]["edges"][0]["src"] = "17";
    expect_mentions(load_error(doc), {"edge 0", "\"src\"", "17"});
  }
  {
    Json doc = small();
    doc["edges"][0]["dst"] = "9";
    expect_mentions(load_error(doc), {"interstate edge 0", "\"dst\""});
  }
  {
    Json doc = small();
    doc["attributes"]["_arrays"]["A"]["type"] = "Hologram";
    expect_mentions(load_error(doc), {"data \"A\"", "Hologram"});
  }
  {
    Json doc = small();
    doc["type"] = "SDFGState";
    expect_mentions(load_error(doc), {"\"type\""});
  }
  for (const char* text : {"[]", "42", "null", "\"SDFG\"", "{}"}) {
    auto r = json::read_sdfg(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code, Code::ParseError) << text;
  }
}

TEST(JsonErrors, SyntaxErrorPositionIsLineAndColumn) {
  // Hand-placed error: line 3, column 9 holds the stray '@'.
  std::string text = "{\n  \"type\": \"SDFG\",\n  \"x\": 1@\n}";
  auto r = json::read_sdfg(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::ParseError);
  EXPECT_EQ(r.error().line, 3);
  EXPECT_EQ(r.error().column, 9);
  EXPECT_NE(r.error().message.find("line 3, column 9"), std::string::npos) << r.error().message;
}

TEST(JsonErrors, DeepNestingIsRejectedNotCrashing) {
  // A chain of nested SDFGs deeper than any real file: 131 SDFGs, past the 128 levels of SDFGs
  // and regions (an SDFG and its top-level graph count once).
  Json inner = small();
  for (int i = 0; i < 130; ++i) {
    Json outer = small();
    Json nested = Json::parse(R"({"type": "NestedSDFG", "label": "n", "attributes": {"label": "n"},
                                  "id": 0, "scope_entry": null, "scope_exit": null})");
    nested["attributes"]["sdfg"] = std::move(inner);
    outer["nodes"][1]["nodes"] = Json::array();
    outer["nodes"][1]["nodes"].push_back(std::move(nested));
    inner = std::move(outer);
  }
  auto r = json::read_sdfg(inner.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::ParseError);
}

TEST(JsonFiles, MissingFileIsIoError) {
  auto r = json::read_sdfg_file("/nonexistent/dir/x.sdfg");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Code::IoError);
  auto sdfg = load(test::kSmallSdfg);
  ASSERT_TRUE(sdfg);
  EXPECT_EQ(json::write_sdfg_file(*sdfg, "/nonexistent/dir/x.sdfg").error().code, Code::IoError);
}

TEST(JsonFiles, GzipHelpers) {
  std::string data;
  for (int i = 0; i < 100000; ++i) data += static_cast<char>((i * 7919) % 251);
  auto packed = json::gzip_compress(data);
  ASSERT_TRUE(packed.ok());
  EXPECT_TRUE(json::is_gzip(*packed));
  EXPECT_FALSE(json::is_gzip(data.substr(0, 10)));
  auto back = json::gzip_decompress(*packed);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, data);
  // Deterministic bytes (no timestamp in the header).
  EXPECT_EQ(*packed, *json::gzip_compress(data));
  for (size_t cut : {size_t(1), size_t(10), packed->size() / 2, packed->size() - 1}) {
    auto bad = json::gzip_decompress(packed->substr(0, cut));
    ASSERT_FALSE(bad.ok()) << cut;
    EXPECT_EQ(bad.error().code, Code::ParseError);
  }
}

}  // namespace
