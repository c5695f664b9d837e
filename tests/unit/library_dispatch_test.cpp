// Library nodes are lowered by DaCe's full class path: every library-node class DaCe 1.0.2
// defines (tests/data/library_nodes/dace_1_0_2_classes.txt, written by its generate.py) either
// has a lowering, tested against references in codegen_*_test.cpp, or is refused with
// Unsupported naming the class -- never compiled as another class with the same short name
// (DaCe's MPI Reduce once compiled as a local reduction).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <string>

#include "codegen_test_builder.h"
#include "codegen_test_support.h"
#include "ir/json/sdfg_json.h"
#include "plugin/manifest.h"
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

// The library classes the MPI plugin's own manifest declares (plugins/mpi/manifest.in), as
// discovery finds them beside its shared object; null when the file cannot be read.
std::optional<LowerOptions> with_mpi_manifest() {
  std::ifstream in(std::string(LIBDACE_SOURCE_DIR) + "/plugins/mpi/manifest.in");
  if (!in) return std::nullopt;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Result<plugin::PluginManifest> m = plugin::parse_manifest(text, "manifest.in");
  if (!m.ok()) return std::nullopt;
  LowerOptions options = parallel_test_options();
  options.declared_library_classes.assign(m->library_prefixes.begin(), m->library_prefixes.end());
  return options;
}

const char* const kNeedsPlugin = "it needs a backend plugin for DaCe's library \"";
const char* const kNoLowering = "libdace has no lowering for this class";

TEST(LibraryDispatch, SameShortNameInAnotherLibraryIsNotReused) {
  for (const char* cls : {"dace.libraries.mpi.nodes.reduce.Reduce", "my.own.Reduce", "Reduce", "MatMul"}) {
    SCOPED_TRACE(cls);
    Result<CompiledProgram> p = compile(*one_node(cls));
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, Code::Unsupported);
  }
  // The core names no backend: where a plugin found here declares DaCe's MPI library (its
  // manifest, loaded or not), the class's library package says which one it needs.
  std::optional<LowerOptions> options = with_mpi_manifest();
  ASSERT_TRUE(options) << "plugins/mpi/manifest.in missing or unreadable";
  Result<CompiledProgram> mpi = compile(*one_node("dace.libraries.mpi.nodes.reduce.Reduce"), *options);
  ASSERT_FALSE(mpi.ok());
  EXPECT_NE(mpi.error().message.find(std::string(kNeedsPlugin) + "dace.libraries.mpi\""), std::string::npos)
      << mpi.error().message;
}

// A library no plugin here declares (DaCe's stencil and FFT libraries; MPI without a plugin
// that declares it) is one libdace has no lowering for, not one a plugin would lower.
TEST(LibraryDispatch, LibraryNoPluginDeclaresHasNoLowering) {
  std::optional<LowerOptions> mpi_declared = with_mpi_manifest();
  ASSERT_TRUE(mpi_declared) << "plugins/mpi/manifest.in missing or unreadable";
  for (const char* cls : {"dace.libraries.stencil.stencil.Stencil", "dace.libraries.fft.nodes.fft.FFT",
                          "dace.libraries.sparse.nodes.csrmm.CSRMM"}) {
    SCOPED_TRACE(cls);
    Result<CompiledProgram> p = compile(*one_node(cls), *mpi_declared);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, Code::Unsupported);
    EXPECT_NE(p.error().message.find(std::string("library node ") + cls + " cannot be compiled: " + kNoLowering),
              std::string::npos)
        << p.error().message;
    EXPECT_EQ(p.error().message.find("backend plugin"), std::string::npos) << p.error().message;
  }
  Result<CompiledProgram> mpi = compile(*one_node("dace.libraries.mpi.nodes.send.Send"));
  ASSERT_FALSE(mpi.ok());
  EXPECT_NE(mpi.error().message.find(kNoLowering), std::string::npos) << mpi.error().message;
}

// Some implementation of another class of the library is registered (a plugin loaded without
// a manifest): the library is declared, so a class of it no plugin lowers needs a plugin.
struct NeverCalledExpansion : plugin::LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
};

TEST(LibraryDispatch, LibraryARegisteredPluginImplementsNeedsAPlugin) {
  plugin::Registry registry("fft_demo");
  ASSERT_TRUE(registry.add_expansion("dace.libraries.fft.nodes.fft.FFT", "Demo",
                                     std::make_shared<NeverCalledExpansion>()).ok());
  LowerOptions options = parallel_test_options();
  options.registry = &registry;
  Result<CompiledProgram> p = compile(*one_node("dace.libraries.fft.nodes.fft.IFFT"), options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find(std::string(kNeedsPlugin) + "dace.libraries.fft\""), std::string::npos)
      << p.error().message;
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
    // The MPI plugin found (its manifest) but not lowering these nodes here.
    std::optional<LowerOptions> options = with_mpi_manifest();
    ASSERT_TRUE(options) << "plugins/mpi/manifest.in missing or unreadable";
    Result<CompiledProgram> p = compile(**g, *options);
    ASSERT_FALSE(p.ok()) << "an MPI program compiled without the MPI backend";
    EXPECT_EQ(p.error().code, Code::Unsupported) << p.error().message;
    // Named by its library package: the core names no backend plugin.
    EXPECT_NE(p.error().message.find(std::string(kNeedsPlugin) + "dace.libraries.mpi\""), std::string::npos)
        << p.error().message;
  }
}

}  // namespace
}  // namespace dace::codegen::testing
