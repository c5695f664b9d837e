#include "corpus_case.h"
#include "corpus_case_outputs.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

#include "ir/npy.h"

namespace dace::codegen::testing {

namespace fs = std::filesystem;

void PrintTo(const CorpusFile& f, std::ostream* os) { *os << f.sdfg; }

std::vector<fs::path> case_dirs_under(const fs::path& root) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return dirs;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.is_directory() && fs::exists(e.path() / "case.json")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

std::vector<fs::path> corpus_case_dirs() { return case_dirs_under(LIBDACE_CORPUS_DIR); }

namespace {

std::string sanitize(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

}  // namespace

std::vector<CorpusFile> compressed_simp_and_raw_files(const std::vector<fs::path>& case_dirs) {
  std::vector<CorpusFile> out;
  for (const fs::path& d : case_dirs) {
    const std::string kernel = d.filename().string();
    for (const char* kind : {"simp", "raw"}) {
      const fs::path f = d / (kernel + "." + kind + ".sdfgz");
      if (fs::exists(f)) out.push_back({f.string(), d.string(), sanitize(kernel + "_" + kind)});
    }
  }
  return out;
}

std::vector<CorpusFile> simp_and_raw_files(const std::vector<fs::path>& case_dirs) {
  const fs::path v2_root = fs::path(LIBDACE_CORPUS_DIR) / "dialects" / "dace-2.0a5";
  std::vector<CorpusFile> out;
  for (const fs::path& d : case_dirs) {
    const std::string kernel = d.filename().string();
    for (const char* kind : {"simp", "raw"}) {
      const fs::path f = d / (kernel + "." + kind + ".sdfg");
      if (fs::exists(f)) out.push_back({f.string(), d.string(), sanitize(kernel + "_" + kind)});
      const fs::path g = v2_root / (kernel + "." + kind + ".sdfg");
      if (fs::exists(g)) out.push_back({g.string(), d.string(), sanitize("v2_0a5_" + kernel + "_" + kind)});
    }
  }
  return out;
}

namespace {

// Buffer for one array argument.
struct Buffer {
  std::vector<uint8_t> storage;
  uint8_t* data() { return storage.data(); }
};

}  // namespace

void run_corpus_case(const std::string& dir, const ir::SDFG& g, const CompiledProgram& compiled) {
  run_corpus_case_outputs(dir, g, compiled, nullptr);
}

void run_corpus_case_outputs(const std::string& dir, const ir::SDFG& g, const CompiledProgram& compiled,
                             std::map<std::string, std::vector<uint8_t>>* outputs) {
  std::ifstream in(dir + "/case.json");
  ASSERT_TRUE(in.good());
  nlohmann::json cs = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(cs.is_discarded());

  // Inputs, and symbol values (case symbols plus 0-d inputs named like free symbols).
  std::map<std::string, npy::Array> inputs;
  for (auto& [name, file] : cs["inputs"].items()) {
    Result<npy::Array> a = npy::read(dir + "/" + file.get<std::string>());
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
    Result<npy::Array> expected = npy::read(dir + "/" + file.get<std::string>());
    ASSERT_TRUE(expected.ok()) << expected.error().message;
    auto buf = buffers.find(name);
    ASSERT_NE(buf, buffers.end()) << "output " << name << " is not an array argument";
    const ir::DataDescriptor& desc = g.arrays.at(name);
    npy::Array got;
    got.dtype = desc.dtype.scalar;
    got.data.assign(buf->second.storage.begin(), buf->second.storage.begin() + expected->size() * tasklet::type_size(got.dtype));
    if (outputs) (*outputs)[name].assign(got.data.begin(), got.data.end());
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

}  // namespace dace::codegen::testing
