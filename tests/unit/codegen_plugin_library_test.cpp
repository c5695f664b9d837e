// Library nodes a plugin lowers to IR itself (LibraryExpansion::lowers_to_ir) for a class the
// core also lowers: the plugin's usable implementation comes first (how the CPU plugin's CBLAS
// calls replace the core's matrix-product loops), "pure" keeps the core's lowering, and an
// implementation whose vendor library did not load is skipped, and named when nothing else
// lowers the class.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "codegen/plugin_nodes.h"
#include "codegen/scalar_ops.h"
#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "plugin/registry.h"

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

constexpr const char* kTranspose = "dace.libraries.standard.nodes.transpose.Transpose";
constexpr const char* kVendorLibrary = "libdace_test_vendor_transpose.so";

// Stores 7 into the first element of the node's `_out` (and nothing else), so a run shows
// whose lowering ran.
class StoreSeven final : public plugin::LibraryExpansion {
 public:
  Status expand(transform::ExpansionContext&) const override {
    return make_error(Code::Unsupported, "emitted during lowering");
  }
  bool lowers_to_ir() const override { return true; }
  std::string_view vendor_library() const override { return kVendorLibrary; }
  Status lower_node(LibraryNodeContext& context) const override {
    Result<Operand> out = library_operand(context.se, context.node_id, "_out", false);
    if (!out) return out.take_error();
    llvm::IRBuilder<>& b = context.builder();
    store_scalar(b, {constant_float(b, T::Float64, 7.0), T::Float64}, out->base);
    return Status::success();
  }
};

std::unique_ptr<plugin::Registry> vendor_registry(const std::string& cls, bool loaded) {
  auto r = std::make_unique<plugin::Registry>("test");
  (void)r->add_expansion(cls, "Vendor", std::make_shared<StoreSeven>());
  (void)r->add_vendor_library(kVendorLibrary, false);
  r->set_vendor_library_status(kVendorLibrary, loaded, loaded ? "" : "not installed");
  return r;
}

// B (2 x 2) <- node(A): a Transpose unless `cls` says otherwise.
std::unique_ptr<ir::SDFG> one_node(const std::string& cls, const std::string& implementation) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "plugin_node";
  add_array(*g, "A", T::Float64, {"2", "2"});
  add_array(*g, "B", T::Float64, {"2", "2"});
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "node";
  n->classpath = cls;
  n->implementation = implementation;
  n->in_connectors["_inp"] = ir::DType{};
  n->out_connectors["_out"] = ir::DType{};
  int id = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", id, "_inp", "A[0:2, 0:2]");
  edge(s, id, "_out", access(s, "B"), "", "B[0:2, 0:2]");
  return g;
}

std::vector<double> run_node(const ir::SDFG& g, const plugin::Registry& registry) {
  LowerOptions o;
  o.registry = &registry;
  Result<CompiledProgram> p = compile(g, o);
  EXPECT_TRUE(p.ok()) << p.error().message;
  std::vector<double> a = {1, 2, 3, 4}, b(4, -1.0);
  if (!p.ok()) return {};
  EXPECT_TRUE(run(*p, {{"A", ArgValue::pointer(a.data())}, {"B", ArgValue::pointer(b.data())}}).ok());
  return b;
}

TEST(CodegenPluginLibrary, UsablePluginImplementationComesBeforeTheCoresLowering) {
  auto loaded = vendor_registry(kTranspose, true);
  EXPECT_EQ(run_node(*one_node(kTranspose, ""), *loaded), (std::vector<double>{7, -1, -1, -1}));
  // The node's own implementation names the plugin's: the same.
  EXPECT_EQ(run_node(*one_node(kTranspose, "Vendor"), *loaded), (std::vector<double>{7, -1, -1, -1}));
}

TEST(CodegenPluginLibrary, PureAndUnloadedVendorLibraryKeepTheCoresLowering) {
  const std::vector<double> transposed = {1, 3, 2, 4};  // A = [[1, 2], [3, 4]]
  auto loaded = vendor_registry(kTranspose, true);
  EXPECT_EQ(run_node(*one_node(kTranspose, "pure"), *loaded), transposed);
  auto absent = vendor_registry(kTranspose, false);
  EXPECT_EQ(run_node(*one_node(kTranspose, ""), *absent), transposed);
}

TEST(CodegenPluginLibrary, ClassOnlyAPluginLowersNamesItsMissingVendorLibrary) {
  const std::string cls = "dace.libraries.example.nodes.shuffle.Shuffle";
  auto absent = vendor_registry(cls, false);
  LowerOptions o;
  o.registry = absent.get();
  Result<CompiledProgram> p = compile(*one_node(cls, ""), o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find(cls), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("implementation \"Vendor\" needs the vendor library \"" + std::string(kVendorLibrary) + "\""), std::string::npos)
      << p.error().message;
  auto loaded = vendor_registry(cls, true);
  EXPECT_EQ(run_node(*one_node(cls, ""), *loaded), (std::vector<double>{7, -1, -1, -1}));
}

}  // namespace
}  // namespace dace::codegen::testing
