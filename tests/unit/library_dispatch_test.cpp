// Library nodes are lowered by DaCe's full class path: every library-node class DaCe 1.0.2
// defines (tests/data/library_nodes/dace_1_0_2_classes.txt, written by its generate.py) either
// has a lowering, tested against references in codegen_*_test.cpp, or is refused with
// Unsupported naming the class -- never compiled as another class with the same short name
// (DaCe's MPI Reduce once compiled as a local reduction).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "ir/json/sdfg_json.h"
#include "plugin/registry.h"

#ifndef LIBDACE_SOURCE_DIR
#define LIBDACE_SOURCE_DIR "."
#endif

namespace dace::codegen::testing {
namespace {

using T = ir::ScalarType;

// Classes libdace lowers; their results are checked in codegen_blas_test, codegen_library_*
// and the DaCe-written frontend and corpus cases.
const std::set<std::string> kLowered = {
    "dace.libraries.blas.nodes.batched_matmul.BatchedMatMul", "dace.libraries.blas.nodes.dot.Dot",
    "dace.libraries.blas.nodes.gemm.Gemm",                     "dace.libraries.blas.nodes.gemv.Gemv",
    "dace.libraries.blas.nodes.matmul.MatMul",                 "dace.libraries.standard.nodes.reduce.Reduce",
    "dace.libraries.standard.nodes.transpose.Transpose",      "dace.libraries.standard.nodes.ttranspose.TensorTranspose",
};

std::vector<std::string> dace_classes() {
  std::ifstream in(std::string(LIBDACE_SOURCE_DIR) + "/tests/data/library_nodes/dace_1_0_2_classes.txt");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

// B[0:4] <- node(A[0:4]): the shape of a Reduce over a vector, for any class path.
std::unique_ptr<ir::SDFG> one_node(const std::string& classpath) {
  auto g = std::make_unique<ir::SDFG>();
  g->name = "lib";
  add_array(*g, "A", T::Float64, {"4"});
  add_array(*g, "B", T::Float64, {"4"});
  ir::State& s = add_state(*g, *g, "s");
  auto n = std::make_unique<ir::LibraryNode>();
  n->label = n->name = "node";
  n->classpath = classpath;
  n->in_connectors["_in"] = ir::DType{};
  n->out_connectors["_out"] = ir::DType{};
  int id = s.add_node(std::move(n));
  edge(s, access(s, "A"), "", id, "_in", "A[0:4]");
  edge(s, id, "_out", access(s, "B"), "", "B[0:4]");
  return g;
}

TEST(LibraryDispatch, EveryDaceClassIsLoweredOrRefused) {
  std::vector<std::string> classes = dace_classes();
  ASSERT_GE(classes.size(), 40u) << "class list missing or truncated";
  size_t refused = 0;
  for (const std::string& cls : classes) {
    if (kLowered.count(cls)) continue;
    SCOPED_TRACE(cls);
    Result<CompiledProgram> p = compile(*one_node(cls));
    ASSERT_FALSE(p.ok()) << "compiled although libdace has no lowering for it";
    EXPECT_EQ(p.error().code, Code::Unsupported) << p.error().message;
    EXPECT_NE(p.error().message.find(cls), std::string::npos) << p.error().message;
    ++refused;
  }
  EXPECT_EQ(refused + kLowered.size(), classes.size()) << "a lowered class is missing from DaCe's list";
}

TEST(LibraryDispatch, SameShortNameInAnotherLibraryIsNotReused) {
  for (const char* cls : {"dace.libraries.mpi.nodes.reduce.Reduce", "my.own.Reduce", "Reduce", "MatMul"}) {
    SCOPED_TRACE(cls);
    Result<CompiledProgram> p = compile(*one_node(cls));
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, Code::Unsupported);
  }
  Result<CompiledProgram> mpi = compile(*one_node("dace.libraries.mpi.nodes.reduce.Reduce"));
  ASSERT_FALSE(mpi.ok());
  // The core names no backend: the class's library package says which one it needs.
  EXPECT_NE(mpi.error().message.find("it needs a backend plugin for DaCe's library \"dace.libraries.mpi\""),
            std::string::npos)
      << mpi.error().message;
}

// A plugin implementation that lowers a node itself and calls a vendor library (the MPI
// plugin's PBLAS nodes and ScaLAPACK); never asked to lower here.
struct VendorLowering : plugin::LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
  bool lowers_to_ir() const override { return true; }
  std::string_view vendor_library() const override { return "libscalapack-openmpi.so.2.2"; }
};

// The MPI plugin is there but ScaLAPACK is not: the refusal says so (the vendor library and
// the loader's message), not that the MPI plugin is missing.
TEST(LibraryDispatch, PluginClassWhoseVendorLibraryIsMissingSaysWhich) {
  const std::string pgemm = "dace.libraries.pblas.nodes.pgemm.Pgemm";
  plugin::Registry registry("mpi");
  ASSERT_TRUE(registry.add_expansion(pgemm, "ReferenceOpenMPI", std::make_shared<VendorLowering>()).ok());
  ASSERT_TRUE(registry.add_vendor_library("libscalapack-openmpi.so.2.2", false).ok());
  registry.set_vendor_library_status("libscalapack-openmpi.so.2.2", false,
                                     "libscalapack-openmpi.so.2.2: cannot open shared object file");
  LowerOptions options = parallel_test_options();
  options.registry = &registry;
  Result<CompiledProgram> p = compile(*one_node(pgemm), options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  const std::string& m = p.error().message;
  EXPECT_NE(m.find("library node " + pgemm + " cannot be compiled: implementation \"ReferenceOpenMPI\" needs the "
                   "vendor library \"libscalapack-openmpi.so.2.2\", which cannot be loaded: "
                   "libscalapack-openmpi.so.2.2: cannot open shared object file"),
            std::string::npos)
      << m;
  EXPECT_EQ(m.find("needs a backend plugin"), std::string::npos) << m;
}

// DaCe's distributed reduce_matvec (MPI Reduce of partial products) must not compile as a
// local program.
TEST(LibraryDispatch, MpiCorpusProgramIsRefusedNamingMpi) {
  const std::string corpus = std::string(LIBDACE_SOURCE_DIR) + "/../shared/sdfg-corpus-mpi";
  if (!std::filesystem::is_directory(corpus)) GTEST_SKIP() << "MPI corpus not found: " << corpus;
  for (const char* variant : {"raw", "simp"}) {
    std::string path = corpus + "/reduce_matvec/reduce_matvec." + variant + ".sdfg";
    SCOPED_TRACE(path);
    auto g = ir::json::read_sdfg_file(path);
    ASSERT_TRUE(g.ok()) << g.error().message;
    Result<CompiledProgram> p = compile(**g);
    ASSERT_FALSE(p.ok()) << "an MPI program compiled without the MPI backend";
    EXPECT_EQ(p.error().code, Code::Unsupported) << p.error().message;
    // Named by its library package: the core names no backend plugin.
    EXPECT_NE(p.error().message.find("needs a backend plugin for DaCe's library \"dace.libraries.mpi\""),
              std::string::npos)
        << p.error().message;
  }
}

}  // namespace
}  // namespace dace::codegen::testing
