// The compile pipeline expands Gemm / MatMul nodes whose implementation is "PBLAS" by itself
// (pipeline/library_expansion_step.h), as DaCe expands library nodes by their implementation
// when it generates code. Inputs: DaCe 1.0.2's own SDFGs (tests/mpi/sdfgs, written by
// tests/mpi/make_distr_matmul_sdfgs.py). The expected structure is the body of DaCe's
// ExpandGemmPBLAS (gemm.py): two BlockCyclicScatter, one Pgemm, one BlockCyclicGather and the
// BLACS grid's symbols Px, Py. Runs on 1, 2 and 4 ranks against NumPy: mpi.distr_matmul.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ir/equality.h"
#include "ir/json/sdfg_json.h"
#include "ir/sdfg.h"
#include "analysis/validate.h"
#include "libdace.h"
#include "pipeline/library_expansion_step.h"
#include "plugin/registry.h"
#include "transform/scope_tree.h"
#include "transform_test_support.h"

namespace dace {
namespace {

std::unique_ptr<ir::SDFG> dace_written(const std::string& name) {
  auto g = ir::json::read_sdfg_file(std::string(LIBDACE_SOURCE_DIR) + "/tests/mpi/sdfgs/" + name + ".sdfg");
  EXPECT_TRUE(g.ok()) << name << ": " << (g.ok() ? "" : g.error().message);
  return g.ok() ? std::move(*g) : nullptr;
}

// Library nodes by class name (the last component of the classpath), every state.
std::map<std::string, int> library_classes(const ir::SDFG& g) {
  std::map<std::string, int> out;
  for (const ir::State* s : g.all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::Library) {
        const std::string& cp = static_cast<const ir::LibraryNode*>(s->node(id))->classpath;
        ++out[cp.substr(cp.rfind('.') + 1)];
      }
  return out;
}

ir::LibraryNode* pblas_product(ir::SDFG& g) {
  for (ir::State* s : g.all_states())
    for (int id : s->node_ids())
      if (s->node(id)->kind == ir::NodeKind::Library) {
        auto* l = static_cast<ir::LibraryNode*>(s->node(id));
        if (l->implementation == "PBLAS") return l;
      }
  return nullptr;
}

TEST(PipelineLibraryExpansion, PblasGemmAndMatMulBecomeTheDistributedProduct) {
  for (const char* name : {"gemm_pblas_f64", "gemm_pblas_c64", "matmul_pblas_c128"}) {
    SCOPED_TRACE(name);
    std::unique_ptr<ir::SDFG> g = dace_written(name);
    ASSERT_TRUE(g);
    ASSERT_TRUE(pipeline::has_distributed_products(*g));
    const std::string before = ir::content_hash(*g);
    std::unique_ptr<ir::SDFG> compiled;
    Status s = pipeline::expand_for_compile(*g, compiled);
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_TRUE(compiled);
    EXPECT_EQ(ir::content_hash(*g), before) << "the caller's SDFG must not change";
    const std::map<std::string, int> want{
        {"BlockCyclicScatter", 2}, {"Pgemm", 1}, {"BlockCyclicGather", 1}};
    EXPECT_EQ(library_classes(*compiled), want);
    EXPECT_FALSE(pipeline::has_distributed_products(*compiled));
    EXPECT_EQ(compiled->symbols.count("Px"), 1u);
    EXPECT_EQ(compiled->symbols.count("Py"), 1u);
  }
}

TEST(PipelineLibraryExpansion, NothingToExpandLeavesTheSdfgAlone) {
  std::unique_ptr<ir::SDFG> g = dace_written("distr_matmul_f64");  // Pgemm written by hand
  ASSERT_TRUE(g);
  EXPECT_FALSE(pipeline::has_distributed_products(*g));
  std::unique_ptr<ir::SDFG> compiled;
  ASSERT_TRUE(pipeline::expand_for_compile(*g, compiled).ok());
  EXPECT_FALSE(compiled) << "no copy when there is nothing to expand";
}

// Where the expansion refuses (DaCe's expansion raises NotImplementedError for beta != 0),
// the compile fails naming the node, instead of running a local gemm on every rank.
TEST(PipelineLibraryExpansion, RefusedExpansionIsUnsupportedNamingTheNode) {
  std::unique_ptr<ir::SDFG> g = dace_written("gemm_pblas_f64");
  ASSERT_TRUE(g);
  ir::LibraryNode* gemm = pblas_product(*g);
  ASSERT_TRUE(gemm);
  gemm->properties["beta"] = "1.0";
  std::unique_ptr<ir::SDFG> compiled;
  Status s = pipeline::expand_for_compile(*g, compiled);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::Unsupported);
  EXPECT_NE(s.error().message.find("(\"" + gemm->label + "\") has beta 1.0"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("implementation \"PBLAS\""), std::string::npos) << s.error().message;
  EXPECT_FALSE(compiled);
}

// The same through the C API's compile: the status and message reach the caller, before any
// plugin is needed (no MPI plugin is asked for).
TEST(PipelineLibraryExpansion, CompileReportsTheRefusal) {
  std::unique_ptr<ir::SDFG> g = dace_written("gemm_pblas_f64");
  ASSERT_TRUE(g);
  ir::LibraryNode* gemm = pblas_product(*g);
  ASSERT_TRUE(gemm);
  gemm->properties["alpha"] = "2.0";
  const std::string text = ir::json::write_sdfg(*g);
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_EQ(dace_sdfg_load_string(&sdfg, text.c_str()), DACE_OK) << dace_last_error_message();
  dace_context_t* ctx = nullptr;
  ASSERT_EQ(dace_context_create(&ctx), DACE_OK);
  dace_program_t* p = nullptr;
  EXPECT_EQ(dace_program_compile(&p, ctx, sdfg, nullptr), DACE_ERROR_UNSUPPORTED);
  const std::string message = dace_last_error_message();
  EXPECT_NE(message.find("(\"" + gemm->label + "\") has alpha 2.0"), std::string::npos) << message;
  EXPECT_EQ(p, nullptr);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

// DaCe's gemm_pblas_f64 nested in a valid outer SDFG (A, B, C and M, K, N mapped through).
// Expanding it in place would give Px and Py to the nested SDFG only (not to its symbol mapping
// nor the outer SDFG), which fails validation; the compile step inlines it first, and where it
// cannot (`no_inline`), declares Px and Py in the outer SDFG and maps them through, unless the
// nested SDFG lies in a map (`in_map`: 0:2, the product would run once per iteration), where
// ExpandGemmPBLAS refuses it, naming the node.
std::unique_ptr<ir::SDFG> nested_pblas_gemm(std::string& label, bool no_inline, bool in_map = false) {
  namespace ct = codegen::testing;
  std::unique_ptr<ir::SDFG> inner = dace_written("gemm_pblas_f64");
  if (!inner) return nullptr;
  ir::LibraryNode* gemm = pblas_product(*inner);
  EXPECT_TRUE(gemm);
  if (!gemm) return nullptr;
  label = gemm->label;
  auto g = std::make_unique<ir::SDFG>();
  g->name = "outer_of_gemm_pblas";
  for (const char* n : {"M", "K", "N"}) g->symbols[n] = ir::DType::of(ir::ScalarType::Int32);
  ct::add_array(*g, "A", ir::ScalarType::Float64, {"M", "K"});
  ct::add_array(*g, "B", ir::ScalarType::Float64, {"K", "N"});
  ct::add_array(*g, "C", ir::ScalarType::Float64, {"M", "N"});
  g->arg_names = {"A", "B", "C"};
  ir::State& s = ct::add_state(*g, *g, "outer");
  const int nested =
      transform::testing::add_nested(s, std::move(inner), {"A", "B"}, {"C"}, {{"M", "M"}, {"K", "K"}, {"N", "N"}});
  if (no_inline) s.node(nested)->extra["no_inline"] = "true";
  if (in_map) {
    const auto [entry, exit] = ct::map(s, {"i"}, "0:2", ir::ScheduleType::Sequential);
    ct::edge_in(s, ct::access(s, "A"), entry, nested, "A", "A[0:M, 0:K]", "A[0:M, 0:K]");
    ct::edge_in(s, ct::access(s, "B"), entry, nested, "B", "B[0:K, 0:N]", "B[0:K, 0:N]");
    ct::edge_out(s, nested, "C", exit, ct::access(s, "C"), "C[0:M, 0:N]", "C[0:M, 0:N]");
    return g;
  }
  ct::edge(s, ct::access(s, "A"), "", nested, "A", "A[0:M, 0:K]");
  ct::edge(s, ct::access(s, "B"), "", nested, "B", "B[0:K, 0:N]");
  ct::edge(s, nested, "C", ct::access(s, "C"), "", "C[0:M, 0:N]");
  return g;
}

// The nested SDFG that cannot be inlined (`no_inline`) but lies outside any scope: Px and Py
// are declared in the root and mapped to the nested SDFG's, and the product is expanded there
// (refused before: "is in a nested SDFG").
TEST(PipelineLibraryExpansion, ProductInANestedSdfgThatCannotBeInlinedIsExpandedThere) {
  std::string label;
  std::unique_ptr<ir::SDFG> g = nested_pblas_gemm(label, true);
  ASSERT_TRUE(g);
  ASSERT_TRUE(analysis::validate(*g).ok());
  std::unique_ptr<ir::SDFG> compiled;
  Status s = pipeline::expand_for_compile(*g, compiled);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(compiled);
  EXPECT_EQ(transform::testing::count_nodes(*compiled, ir::NodeKind::NestedSDFG), 1) << "still nested";
  EXPECT_TRUE(library_classes(*compiled).empty()) << "nothing expanded into the root";
  for (const ir::State* st : compiled->all_states())
    for (int id : st->node_ids())
      if (st->node(id)->kind == ir::NodeKind::NestedSDFG) {
        const std::map<std::string, int> want{{"BlockCyclicScatter", 2}, {"Pgemm", 1}, {"BlockCyclicGather", 1}};
        EXPECT_EQ(library_classes(*static_cast<const ir::NestedSDFGNode*>(st->node(id))->sdfg), want);
      }
  for (const char* grid : {"Px", "Py"}) {
    EXPECT_EQ(compiled->symbols.count(grid), 1u) << grid << " in the root";
    for (const ir::State* st : compiled->all_states())
      for (int id : st->node_ids())
        if (st->node(id)->kind == ir::NodeKind::NestedSDFG) {
          const auto* n = static_cast<const ir::NestedSDFGNode*>(st->node(id));
          ASSERT_TRUE(n->symbol_mapping.count(grid)) << grid << " mapped";
          EXPECT_EQ(sym::to_string(n->symbol_mapping.at(grid)), grid);
          EXPECT_EQ(n->sdfg->symbols.count(grid), 1u) << grid << " in the nested SDFG";
        }
  }
  Status valid = analysis::validate(*compiled);
  EXPECT_TRUE(valid.ok()) << valid.error().message;
}

TEST(PipelineLibraryExpansion, NestedProductIsInlinedAndExpanded) {
  std::string label;
  std::vector<std::unique_ptr<ir::SDFG>> programs;
  programs.push_back(nested_pblas_gemm(label, false));
  programs.push_back(dace_written("matmul_pblas_nested_f64"));  // DaCe's: a called @dace.program, not simplified
  for (std::unique_ptr<ir::SDFG>& g : programs) {
    ASSERT_TRUE(g);
    SCOPED_TRACE(g->name);
    Status valid = analysis::validate(*g);
    ASSERT_TRUE(valid.ok()) << "the input is valid: " << valid.error().message;
    ASSERT_TRUE(pipeline::has_distributed_products(*g));
    std::unique_ptr<ir::SDFG> compiled;
    std::vector<std::string> products;
    Status s = pipeline::expand_for_compile(*g, compiled, &products);
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_TRUE(compiled);
    const std::map<std::string, int> want{{"BlockCyclicScatter", 2}, {"Pgemm", 1}, {"BlockCyclicGather", 1}};
    EXPECT_EQ(library_classes(*compiled), want);
    EXPECT_EQ(compiled->symbols.count("Px"), 1u) << "the grid's symbols belong to the root";
    EXPECT_EQ(compiled->symbols.count("Py"), 1u);
    ASSERT_EQ(products.size(), 1u);
    EXPECT_EQ(products[0].rfind("sdfg \"" + compiled->name + "\" / state ", 0), 0u) << products[0];
  }
}

// The same nested SDFG inside a map of two iterations: not prepared (a product per iteration
// from a nested SDFG is not supported), refused naming the node.
TEST(PipelineLibraryExpansion, NestedPblasProductInAMapIsUnsupportedNamingTheNode) {
  std::string label;
  std::unique_ptr<ir::SDFG> g = nested_pblas_gemm(label, true, true);
  ASSERT_TRUE(g);
  Status valid = analysis::validate(*g);
  ASSERT_TRUE(valid.ok()) << "the input is valid: " << valid.error().message;
  ASSERT_TRUE(pipeline::has_distributed_products(*g));
  const std::string before = ir::content_hash(*g);
  std::unique_ptr<ir::SDFG> compiled;
  Status s = pipeline::expand_for_compile(*g, compiled);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::Unsupported) << s.error().message;
  EXPECT_NE(s.error().message.find("(\"" + label + "\") is in a nested SDFG"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("implementation \"PBLAS\""), std::string::npos) << s.error().message;
  EXPECT_FALSE(compiled);
  EXPECT_EQ(ir::content_hash(*g), before) << "the caller's SDFG must not change";

  // Through the C API: Unsupported naming the node, not an invalid SDFG blamed on the user.
  const std::string text = ir::json::write_sdfg(*g);
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_EQ(dace_sdfg_load_string(&sdfg, text.c_str()), DACE_OK) << dace_last_error_message();
  dace_context_t* ctx = nullptr;
  ASSERT_EQ(dace_context_create(&ctx), DACE_OK);
  dace_program_t* p = nullptr;
  EXPECT_EQ(dace_program_compile(&p, ctx, sdfg, nullptr), DACE_ERROR_UNSUPPORTED);
  const std::string message = dace_last_error_message();
  EXPECT_NE(message.find("(\"" + label + "\") is in a nested SDFG"), std::string::npos) << message;
  EXPECT_EQ(p, nullptr);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

// DaCe's MatMul with implementation PBLAS inside `for i in dace.map[0:1]` (DaCe's simplify
// keeps the map): the compile step takes the product out of the map of one iteration
// (TrivialMapElimination, recorded in the copy's history) and expands it.
TEST(PipelineLibraryExpansion, ProductInAMapOfOneIterationIsExpanded) {
  std::unique_ptr<ir::SDFG> g = dace_written("matmul_pblas_map1_f64");
  ASSERT_TRUE(g);
  ir::LibraryNode* product = pblas_product(*g);
  ASSERT_TRUE(product);
  ASSERT_EQ(product->classpath, "dace.libraries.blas.nodes.matmul.MatMul");
  const std::string label = product->label;
  std::unique_ptr<ir::SDFG> compiled;
  std::vector<std::string> products;
  Status s = pipeline::expand_for_compile(*g, compiled, &products);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(compiled);
  const std::map<std::string, int> want{{"BlockCyclicScatter", 2}, {"Pgemm", 1}, {"BlockCyclicGather", 1}};
  EXPECT_EQ(library_classes(*compiled), want);
  int map_entries = 0;
  for (const ir::State* st : compiled->all_states())
    for (int id : st->node_ids()) map_entries += st->node(id)->kind == ir::NodeKind::MapEntry;
  EXPECT_EQ(map_entries, 0) << "the map of one iteration is gone";
  ASSERT_EQ(products.size(), 1u);
  EXPECT_NE(products[0].find("(LibraryNode \"" + label + "\")"), std::string::npos) << products[0];
}

// The same program written without simplify (DaCe 1.0.2's frontend): the map of one iteration
// holds a nested SDFG of three states with the product. InlineMultistateSDFG does not inline
// inside a map, so the map has to go first although the product is not directly in it.
TEST(PipelineLibraryExpansion, ProductInANestedSdfgInAMapOfOneIterationIsExpanded) {
  std::unique_ptr<ir::SDFG> g = dace_written("matmul_pblas_map1_nested_f64");
  ASSERT_TRUE(g);
  ASSERT_TRUE(analysis::validate(*g).ok());
  ASSERT_EQ(transform::testing::count_nodes(*g, ir::NodeKind::MapEntry), 1);
  ASSERT_EQ(transform::testing::count_nodes(*g, ir::NodeKind::NestedSDFG), 1);
  std::unique_ptr<ir::SDFG> compiled;
  std::vector<std::string> products;
  Status s = pipeline::expand_for_compile(*g, compiled, &products);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(compiled);
  const std::map<std::string, int> want{{"BlockCyclicScatter", 2}, {"Pgemm", 1}, {"BlockCyclicGather", 1}};
  EXPECT_EQ(library_classes(*compiled), want);
  EXPECT_EQ(transform::testing::count_nodes(*compiled, ir::NodeKind::MapEntry), 0) << "the map of one iteration is gone";
  EXPECT_EQ(transform::testing::count_nodes(*compiled, ir::NodeKind::NestedSDFG), 0) << "the nested SDFG is inlined";
  EXPECT_EQ(compiled->symbols.count("Px"), 1u) << "the grid's symbols belong to the root";
  EXPECT_EQ(compiled->symbols.count("Py"), 1u);
  ASSERT_EQ(products.size(), 1u);
  EXPECT_EQ(products[0].rfind("sdfg \"" + compiled->name + "\" / state ", 0), 0u) << products[0];
}

// DaCe's `for i in dace.map[0:3]: C[i] = A[i] @ B[i]` (MatMul, implementation PBLAS, on 3-D
// arrays; the map's schedule Default, which would run in parallel): one distributed product per
// iteration, so the map stays, becomes Sequential, and holds the scatter, Pgemm and gather of
// that iteration's matrices; Px and Py are declared in the root. Refused before.
TEST(PipelineLibraryExpansion, ProductInAMapOfThreeIterationsIsExpandedInTheSequentialMap) {
  std::unique_ptr<ir::SDFG> g = dace_written("matmul_pblas_map3_f64");
  ASSERT_TRUE(g);
  ASSERT_EQ(transform::testing::count_nodes(*g, ir::NodeKind::MapEntry), 1);
  std::unique_ptr<ir::SDFG> compiled;
  std::vector<std::string> products;
  Status s = pipeline::expand_for_compile(*g, compiled, &products);
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_TRUE(compiled);
  const std::map<std::string, int> want{{"BlockCyclicScatter", 2}, {"Pgemm", 1}, {"BlockCyclicGather", 1}};
  EXPECT_EQ(library_classes(*compiled), want);
  int maps = 0;
  for (const ir::State* st : compiled->all_states()) {
    const transform::ScopeTree scopes = transform::ScopeTree::compute(*st);
    for (int id : st->node_ids()) {
      const ir::Node* n = st->node(id);
      if (n->kind == ir::NodeKind::MapEntry) {
        ++maps;
        EXPECT_EQ(static_cast<const ir::MapEntry*>(n)->map.schedule, ir::ScheduleType::Sequential);
      }
      if (n->kind == ir::NodeKind::Library) {
        EXPECT_GE(scopes.parent[static_cast<size_t>(id)], 0) << n->label << " in the map";
      }
    }
  }
  EXPECT_EQ(maps, 1);
  EXPECT_EQ(compiled->symbols.count("Px"), 1u);
  EXPECT_EQ(compiled->symbols.count("Py"), 1u);
  EXPECT_TRUE(analysis::validate(*compiled).ok());
  ASSERT_EQ(products.size(), 1u);
}

// The same map scheduled MPI splits its iterations over the ranks, which would then call the
// collective product different numbers of times: refused, naming the product and the map.
TEST(PipelineLibraryExpansion, ProductInAnMpiMapIsRefusedNamingTheMap) {
  std::unique_ptr<ir::SDFG> g = dace_written("matmul_pblas_map3_f64");
  ASSERT_TRUE(g);
  const std::string label = pblas_product(*g)->label;
  std::string map_label;
  for (ir::State* st : g->all_states())
    for (int id : st->node_ids())
      if (st->node(id)->kind == ir::NodeKind::MapEntry) {
        auto* entry = static_cast<ir::MapEntry*>(st->node(id));
        entry->map.schedule = ir::ScheduleType::MPI;
        map_label = entry->label;
      }
  ASSERT_FALSE(map_label.empty());
  std::unique_ptr<ir::SDFG> compiled;
  Status s = pipeline::expand_for_compile(*g, compiled);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::Unsupported);
  EXPECT_NE(s.error().message.find("(\"" + label + "\") is inside node "), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("(\"" + map_label + "\"), a map scheduled MPI"), std::string::npos)
      << s.error().message;
  EXPECT_FALSE(compiled);
}

// An implementation of the distributed product's classes as the MPI plugin registers them
// (lowered by the plugin itself, through ScaLAPACK); never asked to lower here.
struct PblasLowering : plugin::LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
  bool lowers_to_ir() const override { return true; }
  std::string_view vendor_library() const override { return "libscalapack-openmpi.so.2.2"; }
};

std::unique_ptr<plugin::Registry> pblas_registry(bool scalapack_loaded) {
  auto r = std::make_unique<plugin::Registry>("mpi");
  for (const char* cls : {"dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter",
                          "dace.libraries.pblas.nodes.pgeadd.BlockCyclicGather", "dace.libraries.pblas.nodes.pgemm.Pgemm"})
    EXPECT_TRUE(r->add_expansion(cls, "ReferenceOpenMPI", std::make_shared<PblasLowering>()).ok());
  EXPECT_TRUE(r->add_vendor_library("libscalapack-openmpi.so.2.2", false).ok());
  r->set_vendor_library_status("libscalapack-openmpi.so.2.2", scalapack_loaded,
                               scalapack_loaded ? "" : "libscalapack-openmpi.so.2.2: cannot open shared object file");
  return r;
}

// Where the expanded product cannot run (no MPI plugin, ScaLAPACK missing, the plugin failed
// to load), the refusal names the Gemm / MatMul the user wrote, not the nodes it became.
TEST(PipelineLibraryExpansion, ProductThatCannotRunHereIsRefusedNamingIt) {
  std::unique_ptr<ir::SDFG> g = dace_written("gemm_pblas_f64");
  ASSERT_TRUE(g);
  const std::string label = pblas_product(*g)->label;
  std::unique_ptr<ir::SDFG> compiled;
  std::vector<std::string> products;
  ASSERT_TRUE(pipeline::expand_for_compile(*g, compiled, &products).ok());
  ASSERT_EQ(products.size(), 1u);
  // The core names no target: the product needs a plugin for DaCe's PBLAS library.
  const std::string head = "library node with implementation \"PBLAS\" at " + products[0] +
                           " cannot be compiled: the distributed product (BlockCyclicScatter, Pgemm, BlockCyclicGather) "
                           "needs a backend plugin for DaCe's library \"dace.libraries.pblas\"";
  ASSERT_NE(head.find("(LibraryNode \"" + label + "\")"), std::string::npos) << head;

  codegen::LowerOptions options;  // no registry: no plugin at all
  Status s = pipeline::check_distributed_products_runnable(products, Status::success(), options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::Unsupported);
  EXPECT_EQ(s.error().message.rfind(head, 0), 0u) << s.error().message;
  EXPECT_NE(s.error().message.find("no plugin that is loaded or found here lowers "
                                   "dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter"),
            std::string::npos)
      << s.error().message;
  for (const char* target : {"MPI", "ScaLAPACK"})  // no plugin here: nothing may name one
    EXPECT_EQ(s.error().message.find(target), std::string::npos) << s.error().message;

  std::unique_ptr<plugin::Registry> no_scalapack = pblas_registry(false);
  options.registry = no_scalapack.get();
  s = pipeline::check_distributed_products_runnable(products, Status::success(), options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::Unsupported);
  EXPECT_EQ(s.error().message.rfind(head, 0), 0u) << s.error().message;
  EXPECT_NE(s.error().message.find("implementation \"ReferenceOpenMPI\" needs the vendor library "
                                   "\"libscalapack-openmpi.so.2.2\", which cannot be loaded: "
                                   "libscalapack-openmpi.so.2.2: cannot open shared object file"),
            std::string::npos)
      << s.error().message;

  const Status load_failed = make_error(Code::PluginUnavailable, "plugin \"libdace_plugin_mpi.so\": cannot be loaded");
  s = pipeline::check_distributed_products_runnable(products, load_failed, options);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, Code::PluginUnavailable);
  EXPECT_EQ(s.error().message.rfind(head, 0), 0u) << s.error().message;
  EXPECT_NE(s.error().message.find("loading the plugins failed: plugin \"libdace_plugin_mpi.so\": cannot be loaded"),
            std::string::npos)
      << s.error().message;

  std::unique_ptr<plugin::Registry> runnable = pblas_registry(true);
  options.registry = runnable.get();
  EXPECT_TRUE(pipeline::check_distributed_products_runnable(products, Status::success(), options).ok());
  // Nothing expanded: the loader's status as it is.
  EXPECT_EQ(pipeline::check_distributed_products_runnable({}, load_failed, options).error().message,
            load_failed.error().message);
}

}  // namespace
}  // namespace dace
