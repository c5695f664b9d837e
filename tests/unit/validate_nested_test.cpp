// NestedSDFG validation rules and recursion into nested SDFGs.
#include "validate_builder.h"

namespace vtest {
namespace {

const std::string kNode = "sdfg \"outer\" / state \"s\" / node 1 (NestedSDFG \"nest\")";

// Inner SDFG: y[i] = x[i] * 2 over M elements (x, y non-transient).
std::unique_ptr<SDFG> inner_sdfg() {
  Builder b("inner");
  b.symbol("M");
  b.data("x", array({"M"}));
  b.data("y", array({"M"}));
  State& s = b.block("s");
  int x = Builder::access(s, "x");
  int y = Builder::access(s, "y");
  auto [me, mx] = Builder::map(s, "m", {"i"}, "0:M");
  int t = Builder::tasklet(s, "t", {"a"}, {"o"}, "o = a * 2");
  Builder::conn_in(s, me, "IN_x");
  Builder::conn_out(s, me, "OUT_x");
  Builder::conn_in(s, mx, "IN_y");
  Builder::conn_out(s, mx, "OUT_y");
  b.edge(s, x, "", me, "IN_x", "x[0:M]");
  b.edge(s, me, "OUT_x", t, "a", "x[i]");
  b.edge(s, t, "o", mx, "IN_y", "y[i]");
  b.edge(s, mx, "OUT_y", y, "", "y[0:M]");
  return std::move(b.owned);
}

// Outer SDFG: A -> nest(x -> y) -> B, M mapped to N. Nodes: 0 A, 1 nest, 2 B.
Builder outer_sdfg() {
  Builder b("outer");
  b.symbol("N");
  b.data("A", array({"N"}));
  b.data("B", array({"N"}));
  State& s = b.block("s");
  int a = Builder::access(s, "A");
  auto n = std::make_unique<NestedSDFGNode>();
  n->label = "nest";
  n->sdfg = inner_sdfg();
  n->sdfg->parent_node = n.get();
  n->in_connectors["x"] = DType{};
  n->out_connectors["y"] = DType{};
  n->symbol_mapping["M"] = E("N");
  int nid = s.add_node(std::move(n));
  int o = Builder::access(s, "B");
  b.edge(s, a, "", nid, "x", "A[0:N]");
  b.edge(s, nid, "y", o, "", "B[0:N]");
  return b;
}

NestedSDFGNode& nested(Builder& b) { return static_cast<NestedSDFGNode&>(*b.g->all_states()[0]->node(1)); }

TEST(ValidateNested, Valid) {
  Builder b = outer_sdfg();
  expect_valid(*b.g);
}

TEST(ValidateNested, NoSdfg) {
  Builder b = outer_sdfg();
  nested(b).sdfg.reset();
  expect_error(*b.g, kNode + ": nested SDFG node holds no SDFG");
}

TEST(ValidateNested, ParentPointerNotSet) {
  Builder b = outer_sdfg();
  nested(b).sdfg->parent_node = nullptr;
  expect_error(*b.g, kNode + ": the nested SDFG's parent node pointer does not point to this node");
}

TEST(ValidateNested, InvalidName) {
  Builder b = outer_sdfg();
  nested(b).label = "a.b";
  expect_error(*b.g, "sdfg \"outer\" / state \"s\" / node 1 (NestedSDFG \"a.b\"): invalid nested SDFG name");
}

TEST(ValidateNested, ConnectorWithoutInnerData) {
  Builder b = outer_sdfg();
  NestedSDFGNode& n = nested(b);
  n.in_connectors["z"] = DType{};
  State& s = *b.g->all_states()[0];
  b.edge(s, Builder::access(s, "A"), "", 1, "z", "A[0:N]");
  expect_error(*b.g, kNode + " / connector \"z\": connector has no data descriptor of the same name in the nested SDFG");
}

TEST(ValidateNested, ConnectorToTransient) {
  Builder b = outer_sdfg();
  nested(b).sdfg->arrays["x"].transient = true;
  expect_error(*b.g, kNode + " / connector \"x\": connector's data descriptor in the nested SDFG is transient");
}

TEST(ValidateNested, NonTransientWithoutConnector) {
  Builder b = outer_sdfg();
  nested(b).sdfg->arrays["w"] = array({"M"});
  expect_error(*b.g, kNode + ": non-transient data \"w\" of the nested SDFG has no connector");
}

TEST(ValidateNested, SymbolNotMapped) {
  Builder b = outer_sdfg();
  nested(b).symbol_mapping.clear();
  expect_error(*b.g, kNode + ": symbol \"M\" of the nested SDFG is not in its symbol mapping");
}

TEST(ValidateNested, MappingUsesUndefinedSymbol) {
  Builder b = outer_sdfg();
  nested(b).symbol_mapping["M"] = E("K + 1");
  expect_error(*b.g, kNode + " / symbol mapping \"M\": undefined symbol \"K\" in symbol mapping");
}

TEST(ValidateNested, MappingNullExpression) {
  Builder b = outer_sdfg();
  nested(b).symbol_mapping["M"] = nullptr;
  expect_error(*b.g, kNode + " / symbol mapping \"M\": symbol mapping has a null expression");
}

TEST(ValidateNested, InnerErrorsCarryFullPath) {
  Builder b = outer_sdfg();
  nested(b).sdfg->all_states()[0]->node(4)->label = "bad name";
  expect_error(*b.g, kNode + " / sdfg \"inner\" / state \"s\" / node 4 (Tasklet \"bad name\"): invalid tasklet name");
}

TEST(ValidateNested, InnerDataWithoutOuterConnector) {
  Builder b = outer_sdfg();
  NestedSDFGNode& n = nested(b);
  n.out_connectors.erase("y");
  b.g->all_states()[0]->remove_edge(1);
  expect_error(*b.g, kNode + " / sdfg \"inner\" / state \"s\" / node 1 (AccessNode \"y\"): non-transient data \"y\" is "
                             "used in a nested SDFG but has no matching connector on the nested SDFG node");
}

TEST(ValidateNested, WriteToInputOnlyConnector) {
  Builder b = outer_sdfg();
  NestedSDFGNode& n = nested(b);
  n.out_connectors.erase("y");
  n.in_connectors["y"] = DType{};
  State& s = *b.g->all_states()[0];
  s.remove_edge(1);
  b.edge(s, Builder::access(s, "B"), "", 1, "y", "B[0:N]");
  expect_error(*b.g, kNode + " / sdfg \"inner\" / state \"s\" / node 1 (AccessNode \"y\"): data \"y\" is written, but "
                             "is only an input connector of the nested SDFG node");
}

TEST(ValidateNested, InOutConnectorDifferentData) {
  Builder b = outer_sdfg();
  NestedSDFGNode& n = nested(b);
  n.out_connectors.erase("y");
  n.out_connectors["x"] = DType{};
  n.in_connectors.erase("x");
  n.in_connectors["x"] = DType{};
  // x is now read from A and written to B; y must stay an output too.
  n.out_connectors["y"] = DType{};
  State& s = *b.g->all_states()[0];
  b.edge(s, 1, "x", Builder::access(s, "B"), "", "B[0:N]");
  auto errors = analysis::validate_all(*b.g);
  bool found = false;
  for (const auto& e : errors)
    if (e.message == kNode + " / connector \"x\": in-out connector reads \"A\" but writes \"B\"") found = true;
  EXPECT_TRUE(found) << all_messages(errors);
}

TEST(ValidateNested, InputMustComeFromAccessNode) {
  Builder b = outer_sdfg();
  State& s = *b.g->all_states()[0];
  int t = Builder::tasklet(s, "t", {}, {"o"}, "o = 1");
  s.set_edge_ends(0, t, s.edge(0)->dst);
  s.edge(0)->src_conn = "o";
  s.edge(0)->memlet = *parse_memlet("A[0]");
  auto errors = analysis::validate_all(*b.g);
  bool found = false;
  for (const auto& e : errors)
    if (e.message == "sdfg \"outer\" / state \"s\" / edge 0 (3.o -> 1.x): data entering a nested SDFG must come from "
                     "an access node")
      found = true;
  EXPECT_TRUE(found) << all_messages(errors);
}

}  // namespace
}  // namespace vtest
