// Every *.opt.sdfg of the corpus (DaCe's auto_optimize output, with BLAS nodes expanded into
// C++ tasklets that call CBLAS): those that compile run on their case.json and must match
// NumPy; those that do not must fail with Unsupported naming the element, and the list of
// them is fixed below so that a change in either direction shows up.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "analysis/validate.h"
#include "codegen_test_support.h"
#include "ir/json/sdfg_json.h"
#include "ir/npy.h"
#include "plugin/registry.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace dace::codegen::testing {
namespace {

namespace fs = std::filesystem;

struct CorpusFile {
  std::string sdfg;    // path
  std::string dir;     // folder with case.json
  std::string kernel;  // test name
};

std::vector<CorpusFile> opt_files() {
  std::vector<CorpusFile> out;
  fs::path root(LIBDACE_CORPUS_DIR);
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.is_directory() && fs::exists(e.path() / "case.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& d : dirs) {
    std::string kernel = d.filename().string();
    fs::path f = d / (kernel + ".opt.sdfg");
    if (fs::exists(f)) out.push_back({f.string(), d.string(), kernel});
  }
  return out;
}

void PrintTo(const CorpusFile& f, std::ostream* os) { *os << f.sdfg; }

// Kernels whose opt.sdfg libdace cannot compile yet, with a piece of the expected message.
const std::map<std::string, std::string>& expected_unsupported() {
  static const std::map<std::string, std::string> m = {};
  return m;
}

struct Multicore : plugin::ScheduleLowering {
  Status lower_scope(codegen::ScopeContext&) const override { return Status::success(); }
  std::string_view runtime_entry() const override { return "dace_cpu_parallel_for"; }
};
struct OpenBlas : plugin::LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
  std::string_view vendor_library() const override { return "libopenblas.so.0"; }
};

// The CPU plugin's registrations (CPU_Multicore, OpenBLAS) with libopenblas loaded into the
// test session; null when libopenblas is not installed.
const plugin::Registry* cpu_registry() {
  static std::unique_ptr<plugin::Registry> r = []() -> std::unique_ptr<plugin::Registry> {
    if (!dlopen("libopenblas.so.0", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE)) return nullptr;
    if (!session().add_library("libopenblas.so.0").ok()) return nullptr;
    auto reg = std::make_unique<plugin::Registry>("cpu");
    (void)reg->add_schedule("CPU_Multicore", std::make_shared<Multicore>());
    for (const char* c : {"dace.libraries.blas.nodes.matmul.MatMul", "dace.libraries.blas.nodes.gemm.Gemm",
                          "dace.libraries.blas.nodes.gemv.Gemv", "dace.libraries.blas.nodes.dot.Dot"})
      (void)reg->add_expansion(c, "OpenBLAS", std::make_shared<OpenBlas>());
    (void)reg->add_vendor_library("libopenblas.so.0", false);
    reg->set_vendor_library_status("libopenblas.so.0", true, "");
    return reg;
  }();
  return r.get();
}

// Buffer for one array argument.
struct Buffer {
  std::vector<uint8_t> storage;
  uint8_t* data() { return storage.data(); }
};

// Runs one SDFG file on its case and compares with NumPy's outputs.
void run_case(const CorpusFile& cf, const ir::SDFG& g, const CompiledProgram& compiled) {

  std::ifstream in(cf.dir + "/case.json");
  ASSERT_TRUE(in.good());
  nlohmann::json cs = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(cs.is_discarded());

  // Inputs, and symbol values (case symbols plus 0-d inputs named like free symbols).
  std::map<std::string, npy::Array> inputs;
  for (auto& [name, file] : cs["inputs"].items()) {
    Result<npy::Array> a = npy::read(cf.dir + "/" + file.get<std::string>());
    ASSERT_TRUE(a.ok()) << a.error().message;
    inputs[name] = std::move(*a);
  }
  std::map<std::string, int64_t> symbols;
  for (auto& [name, v] : cs["symbols"].items()) symbols[name] = v.get<int64_t>();
  for (auto& [name, a] : inputs)
    if (a.shape.empty() && !tasklet::is_float(a.dtype) && !tasklet::is_complex(a.dtype))
      symbols.emplace(name, static_cast<int64_t>(a.at(0)));

  std::map<std::string, ArgValue> values;
  std::map<std::string, Buffer> buffers;
  for (const auto& a : compiled.init_arguments) {
    auto s = symbols.find(a.name);
    ASSERT_NE(s, symbols.end()) << "no value for symbol " << a.name;
    values[a.name] = scalar_of(a.dtype.scalar == tasklet::ScalarType::Unknown ? tasklet::ScalarType::Int64 : a.dtype.scalar,
                               static_cast<double>(s->second));
  }
  for (const auto& a : compiled.arguments) {
    const ir::DataDescriptor* desc = nullptr;
    if (auto d = g.arrays.find(a.name); d != g.arrays.end()) desc = &d->second;
    if (a.kind == analysis::Argument::Kind::Array) {
      ASSERT_NE(desc, nullptr);
      sym::Expr total = desc->total_size ? desc->total_size : ir::product(desc->shape);
      Result<int64_t> n = sym::evaluate(total, symbols);
      ASSERT_TRUE(n.ok()) << a.name << ": " << n.error().message;
      int es = tasklet::type_size(desc->dtype.scalar);
      Buffer& buf = buffers[a.name];
      buf.storage.assign(static_cast<size_t>(std::max<int64_t>(1, *n) * es + 64), 0);
      if (auto it = inputs.find(a.name); it != inputs.end()) {
        ASSERT_EQ(it->second.dtype, desc->dtype.scalar) << a.name;
        ASSERT_LE(it->second.data.size(), buf.storage.size()) << a.name;
        std::memcpy(buf.data(), it->second.data.data(), it->second.data.size());
      }
      values[a.name] = ArgValue::pointer(buf.data());
    } else if (auto it = inputs.find(a.name); it != inputs.end()) {
      values[a.name] = scalar_of(desc ? desc->dtype.scalar : a.dtype.scalar, it->second.at(0));
      if (desc && tasklet::is_integer(desc->dtype.scalar) && it->second.element_size() == 8)
        std::memcpy(values[a.name].bytes, it->second.data.data(), 8);  // exact 64-bit integers
    } else if (auto s = symbols.find(a.name); s != symbols.end()) {
      values[a.name] = scalar_of(a.dtype.scalar == tasklet::ScalarType::Unknown ? tasklet::ScalarType::Int64 : a.dtype.scalar,
                                 static_cast<double>(s->second));
    } else {
      FAIL() << "no value for argument " << a.name;
    }
  }
  Status ran = run(compiled, values);
  ASSERT_TRUE(ran.ok()) << ran.error().message;

  double rtol = cs.value("rtol", 1e-10), atol = cs.value("atol", 1e-12);
  for (auto& [name, file] : cs["expected_outputs"].items()) {
    Result<npy::Array> expected = npy::read(cf.dir + "/" + file.get<std::string>());
    ASSERT_TRUE(expected.ok()) << expected.error().message;
    auto buf = buffers.find(name);
    ASSERT_NE(buf, buffers.end()) << "output " << name << " is not an array argument";
    const ir::DataDescriptor& desc = g.arrays.at(name);
    npy::Array got;
    got.dtype = desc.dtype.scalar;
    got.data.assign(buf->second.storage.begin(), buf->second.storage.begin() + expected->size() * tasklet::type_size(got.dtype));
    bool complex = tasklet::is_complex(got.dtype);
    int comps = complex ? 2 : 1;
    int mismatches = 0;
    for (int64_t i = 0; i < expected->size(); ++i) {
      for (int c = 0; c < comps; ++c) {
        double e, g;
        if (complex) {
          auto part = [&](const npy::Array& arr) {
            if (arr.dtype == tasklet::ScalarType::Complex128) return arr.as<double>()[2 * i + c];
            return static_cast<double>(arr.as<float>()[2 * i + c]);
          };
          e = part(*expected);
          g = part(got);
        } else {
          e = expected->at(i);
          g = got.at(i);
        }
        bool ok = std::abs(g - e) <= atol + rtol * std::abs(e) || (std::isnan(e) && std::isnan(g));
        if (!ok && ++mismatches <= 5) ADD_FAILURE() << name << "[" << i << "]" << (c ? ".imag" : "") << ": got " << g << ", expected " << e;
      }
    }
    EXPECT_EQ(mismatches, 0) << name << ": " << mismatches << " elements differ";
  }
}

class CorpusOpt : public ::testing::TestWithParam<CorpusFile> {};

TEST_P(CorpusOpt, CompilesAndMatchesNumPyOrIsUnsupported) {
  const CorpusFile& cf = GetParam();
  const plugin::Registry* registry = cpu_registry();
  if (!registry) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(cf.sdfg);
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  Status valid = analysis::validate(**sdfg);
  ASSERT_TRUE(valid.ok()) << valid.error().message;
  LowerOptions options;
  options.registry = registry;
  Result<CompiledProgram> prog = compile(**sdfg, options);
  auto expected = expected_unsupported().find(cf.kernel);
  if (!prog.ok()) {
    std::printf("[ opt.sdfg ] %s: not compiled: %s\n", cf.kernel.c_str(), prog.error().message.c_str());
    EXPECT_EQ(prog.error().code, Code::Unsupported) << prog.error().message;
    // The message names the element by path (sdfg "..." / state "..." / node ...).
    EXPECT_NE(prog.error().message.find("sdfg \""), std::string::npos) << prog.error().message;
    ASSERT_NE(expected, expected_unsupported().end()) << cf.kernel << " no longer compiles: " << prog.error().message;
    EXPECT_NE(prog.error().message.find(expected->second), std::string::npos) << prog.error().message;
    return;
  }
  EXPECT_EQ(expected, expected_unsupported().end()) << cf.kernel << " compiles now: update expected_unsupported()";
  run_case(cf, **sdfg, *prog);
}

// Sets the code of every C++ tasklet of `g` (nested SDFGs included) to `code`; returns how many.
int replace_cpp_code(ir::SDFG& g, const std::string& code) {
  int n = 0;
  for (ir::State* st : g.all_states())
    for (int id : st->node_ids()) {
      ir::Node* node = st->node(id);
      if (node->kind == ir::NodeKind::Tasklet) {
        auto* t = static_cast<ir::Tasklet*>(node);
        if (t->code.language == ir::Language::CPP) {
          t->code.code = code;
          ++n;
        }
      } else if (node->kind == ir::NodeKind::NestedSDFG) {
        n += replace_cpp_code(*static_cast<ir::NestedSDFGNode*>(node)->sdfg, code);
      }
    }
  return n;
}

// Other C++ code, or the same calls without OpenBLAS, is Unsupported naming the tasklet.
TEST(CorpusOptErrors, UnrecognizedCppTaskletsAreUnsupported) {
  fs::path file = fs::path(LIBDACE_CORPUS_DIR) / "gemm" / "gemm.opt.sdfg";
  if (!fs::exists(file)) GTEST_SKIP() << "corpus not found";
  Result<std::unique_ptr<ir::SDFG>> sdfg = ir::json::read_sdfg_file(file.string());
  ASSERT_TRUE(sdfg.ok()) << sdfg.error().message;
  LowerOptions no_blas;  // no registry: no OpenBLAS
  Result<CompiledProgram> p = compile(**sdfg, no_blas);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, Code::Unsupported);
  EXPECT_NE(p.error().message.find("Tasklet \"_MatMult_gemm\""), std::string::npos) << p.error().message;
  EXPECT_NE(p.error().message.find("OpenBLAS"), std::string::npos) << p.error().message;

  if (!cpu_registry()) GTEST_SKIP() << "libopenblas.so.0 cannot be loaded here";
  LowerOptions options;
  options.registry = cpu_registry();
  for (const char* code : {"printf(\"%d\", 1);", "cblas_dgemm(CblasRowMajor);", "int x = 0; cblas_ddot(1, _a, 1, _b, 1);",
                           "cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, NJ, NI, NK, alpha, _b, NJ, _a, NK, "
                           "double(0), _c, NJ);"}) {
    ASSERT_GT(replace_cpp_code(**sdfg, code), 0);
    Result<CompiledProgram> q = compile(**sdfg, options);
    ASSERT_FALSE(q.ok()) << code;
    EXPECT_EQ(q.error().code, Code::Unsupported) << code;
    EXPECT_NE(q.error().message.find("not a recognized CBLAS call"), std::string::npos) << q.error().message;
    EXPECT_NE(q.error().message.find("Tasklet"), std::string::npos) << q.error().message;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusOpt, ::testing::ValuesIn(opt_files()),
                         [](const ::testing::TestParamInfo<CorpusFile>& info) { return info.param.kernel; });

}  // namespace
}  // namespace dace::codegen::testing
