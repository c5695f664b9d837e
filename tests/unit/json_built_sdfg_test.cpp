// Writing an SDFG built in C++ (not read from a file): defaults the model leaves open (null
// volume, whole-array memlets, unknown is_data_src, no start block) are written the way DaCe
// fills them in, and control-flow regions and nested SDFGs round-trip.
// Set LIBDACE_JSON_DUMP=<path> to keep the written file (e.g. to load it in DaCe with
// tests/scripts/dace_load_validate.py).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

#include "ir/equality.h"
#include "ir/json/sdfg_json.h"

namespace {

using namespace dace;
using namespace dace::ir;
using Json = nlohmann::ordered_json;

sym::Expr N() { return sym::symbol("N"); }

DataDescriptor array(std::vector<sym::Expr> shape, bool transient = false) {
  DataDescriptor d;
  d.kind = DataKind::Array;
  d.dtype = DType::of(ScalarType::Float64);
  d.shape = std::move(shape);
  d.transient = transient;
  complete_defaults(d);
  return d;
}

int access(State& st, const std::string& data) {
  auto n = std::make_unique<AccessNode>();
  n->data = n->label = data;
  return st.add_node(std::move(n));
}

// B[i] = A[i] * 2 for i in 0:N.
void fill_map_state(State& st) {
  int a = access(st, "A"), b = access(st, "B");
  auto entry = std::make_unique<MapEntry>();
  entry->label = "double";
  entry->map.params = {"i"};
  entry->map.range.dims.push_back({sym::integer(0), sym::sub(N(), sym::integer(1)), sym::integer(1), sym::integer(1)});
  entry->in_connectors["IN_A"] = DType{};
  entry->out_connectors["OUT_A"] = DType{};
  int me = st.add_node(std::move(entry));
  auto exit = std::make_unique<MapExit>();
  exit->entry = me;
  exit->in_connectors["IN_B"] = DType{};
  exit->out_connectors["OUT_B"] = DType{};
  int mx = st.add_node(std::move(exit));
  auto t = std::make_unique<Tasklet>();
  t->label = "twice";
  t->code.code = "b = a * 2";
  t->in_connectors["a"] = DType{};
  t->out_connectors["b"] = DType{};
  int tk = st.add_node(std::move(t));
  auto memlet = [](const std::string& data, std::vector<sym::Range> dims) {
    Memlet m;
    m.data = data;
    m.subset.dims = std::move(dims);
    return m;  // volume left null: derived on writing
  };
  sym::Range at_i{sym::symbol("i"), sym::symbol("i"), sym::integer(1), sym::integer(1)};
  auto connect = [&](int src, int dst, const char* sc, const char* dc, Memlet m) {
    DataflowEdge e;
    e.src = src;
    e.dst = dst;
    e.src_conn = sc;
    e.dst_conn = dc;
    e.memlet = std::move(m);
    st.add_edge(std::move(e));
  };
  connect(a, me, "", "IN_A", memlet("A", {}));  // "A": the whole array
  connect(me, tk, "OUT_A", "a", memlet("A", {at_i}));
  connect(tk, mx, "b", "IN_B", memlet("B", {at_i}));
  connect(mx, b, "OUT_B", "", memlet("B", {}));
}

std::unique_ptr<SDFG> build() {
  auto sdfg = std::make_unique<SDFG>();
  sdfg->name = "built";
  sdfg->symbols["N"] = DType::of(ScalarType::Int64);
  sdfg->arrays["A"] = array({N()});
  sdfg->arrays["B"] = array({N()});
  sdfg->arg_names = {"A", "B"};
  sdfg->using_explicit_control_flow = true;

  auto first = std::make_unique<State>();
  first->label = "first";
  fill_map_state(*first);
  int s0 = sdfg->add_block(std::move(first));

  auto loop = std::make_unique<LoopRegion>();
  loop->label = "loop";
  loop->loop_variable = "k";
  loop->init_statement.code = "k = 0";
  loop->loop_condition.code = "k < 3";
  loop->update_statement.code = "k = k + 1";
  auto body = std::make_unique<State>();
  body->label = "body";
  fill_map_state(*body);
  loop->start_block = loop->add_block(std::move(body));
  int l = sdfg->add_block(std::move(loop));

  auto cond = std::make_unique<ConditionalBlock>();
  cond->label = "branch";
  for (int k = 0; k < 2; ++k) {
    auto region = std::make_unique<ControlFlowRegion>();
    region->label = k == 0 ? "then" : "else";
    auto st = std::make_unique<State>();
    st->label = k == 0 ? "then_state" : "else_state";
    region->add_block(std::move(st));
    std::optional<CodeBlock> c;
    if (k == 0) c = CodeBlock{"N > 4", Language::Python};
    cond->branches.emplace_back(c, std::move(region));
  }
  int c = sdfg->add_block(std::move(cond));

  auto last = std::make_unique<State>();
  last->label = "last";
  auto nested = std::make_unique<NestedSDFGNode>();
  nested->label = "inner";
  nested->sdfg = std::make_unique<SDFG>();
  nested->sdfg->name = "inner";
  nested->sdfg->symbols["M"] = DType::of(ScalarType::Int64);
  nested->sdfg->arrays["X"] = array({sym::symbol("M")});
  auto inner_state = std::make_unique<State>();
  inner_state->label = "inner_state";
  nested->sdfg->add_block(std::move(inner_state));
  nested->sdfg->parent_node = nested.get();
  nested->symbol_mapping["M"] = N();
  nested->in_connectors["X"] = DType{};
  NestedSDFGNode* nested_ptr = nested.get();
  int an = access(*last, "A");
  int nn = last->add_node(std::move(nested));
  DataflowEdge ne;
  ne.src = an;
  ne.dst = nn;
  ne.dst_conn = "X";
  ne.memlet.data = "A";
  last->add_edge(std::move(ne));
  (void)nested_ptr;
  int s3 = sdfg->add_block(std::move(last));

  InterstateEdge e0;
  e0.src = s0;
  e0.dst = l;
  e0.assignments = {{"j", "N - 1"}, {"h", "N * 2"}};
  sdfg->add_edge(e0);
  for (auto [src, dst] : {std::pair{l, c}, std::pair{c, s3}}) {
    InterstateEdge e;
    e.src = src;
    e.dst = dst;
    sdfg->add_edge(std::move(e));
  }
  sdfg->for_each_block([&](ControlFlowBlock& b) { sdfg->register_block(b); });
  relink_parents(*sdfg);
  return sdfg;
}

TEST(JsonBuilt, WritesDaceDefaultsAndRoundTrips) {
  auto sdfg = build();
  std::string text = json::write_sdfg(*sdfg);
  if (const char* dump = std::getenv("LIBDACE_JSON_DUMP")) std::ofstream(dump) << text;
  Json out = Json::parse(text);

  // Whole-array memlet: subset 0:N (inclusive end N - 1), volume N, A is the source.
  Json m0 = out["nodes"][0]["edges"][0]["attributes"]["data"]["attributes"];
  EXPECT_EQ(m0["subset"]["ranges"][0]["start"], "0");
  EXPECT_EQ(m0["subset"]["ranges"][0]["end"], sym::to_string(sym::sub(N(), sym::integer(1))));
  EXPECT_EQ(m0["volume"], "N");
  EXPECT_EQ(m0["is_data_src"], true);
  // Per-element memlet: volume 1.
  Json m1 = out["nodes"][0]["edges"][1]["attributes"]["data"]["attributes"];
  EXPECT_EQ(m1["volume"], "1");
  EXPECT_EQ(m1["num_accesses"], "1");
  Json m3 = out["nodes"][0]["edges"][3]["attributes"]["data"]["attributes"];
  EXPECT_EQ(m3["is_data_src"], false);
  // No start block set: null, DaCe takes the source block.
  EXPECT_TRUE(out["start_block"].is_null());
  EXPECT_EQ(out["attributes"]["using_experimental_blocks"], true);
  EXPECT_EQ(out["attributes"]["global_code"]["frame"]["string_data"], "");
  // Control flow regions in DaCe 1.0.2's form.
  Json loop = out["nodes"][1];
  EXPECT_EQ(loop["type"], "LoopRegion");
  EXPECT_EQ(loop["attributes"]["loop_variable"], "k");
  EXPECT_EQ(loop["attributes"]["loop_condition"]["string_data"], "k < 3");
  EXPECT_EQ(loop["start_block"], 0);
  EXPECT_EQ(loop["cfg_list_id"], 1);
  Json cond = out["nodes"][2];
  EXPECT_EQ(cond["type"], "ConditionalBlock");
  ASSERT_EQ(cond["branches"].size(), 2u);
  EXPECT_EQ(cond["branches"][0][0]["string_data"], "N > 4");
  EXPECT_TRUE(cond["branches"][1][0].is_null());
  EXPECT_EQ(cond["branches"][0][1]["type"], "ControlFlowRegion");
  EXPECT_EQ(cond["branches"][0][1]["cfg_list_id"], 2);
  EXPECT_EQ(cond["branches"][1][1]["cfg_list_id"], 3);
  Json nested = out["nodes"][3]["nodes"][1]["attributes"];
  EXPECT_EQ(nested["sdfg"]["attributes"]["name"], "inner");
  EXPECT_EQ(nested["sdfg"]["cfg_list_id"], 4);
  EXPECT_FALSE(nested["sdfg"].contains("dace_version"));
  EXPECT_EQ(nested["symbol_mapping"]["M"], "N");
  // Ordered assignments.
  Json as = out["edges"][0]["attributes"]["data"]["attributes"]["assignments"];
  EXPECT_EQ(as.begin().key(), "j");

  auto back = json::read_sdfg(text);
  ASSERT_TRUE(back.ok()) << back.error().message;
  std::string diff;
  EXPECT_TRUE(structurally_equal(*sdfg, **back, &diff)) << diff;
  EXPECT_EQ(content_hash(*sdfg), content_hash(**back));
  EXPECT_EQ(text, json::write_sdfg(**back));
  // The nested SDFG knows its node, block ids cover every block.
  const auto* last = static_cast<const State*>((*back)->block(3));
  const auto* nn = static_cast<const NestedSDFGNode*>(last->node(1));
  ASSERT_TRUE(nn->sdfg);
  EXPECT_EQ(nn->sdfg->parent_node, nn);
  EXPECT_EQ((*back)->next_block_id(), 9);  // 4 top-level + loop body + 2 branches + 2 branch states
}

}  // namespace
