// Every symbolic string of the SDFG corpus (ranges, shapes, strides, offsets, sizes,
// volumes) parses, and printing it parses back to the same expression.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ir/symbolic/expr.h"

namespace dace::sym {
namespace {

std::string corpus_dir() {
  if (const char* env = std::getenv("LIBDACE_CORPUS_DIR")) return env;
#ifdef LIBDACE_CORPUS_DIR
  return LIBDACE_CORPUS_DIR;
#else
  return "/work/shared/sdfg-corpus";
#endif
}

void collect(const nlohmann::json& j, std::set<std::string>& out) {
  auto add = [&out](const nlohmann::json& v) {
    if (v.is_string()) out.insert(v.get<std::string>());
    if (v.is_number_integer()) out.insert(std::to_string(v.get<int64_t>()));
  };
  if (j.is_object()) {
    auto type = j.find("type");
    if (type != j.end() && type->is_string() && *type == "Range") {
      auto ranges = j.find("ranges");
      if (ranges != j.end() && ranges->is_array()) {
        for (const auto& r : *ranges) {
          for (const char* k : {"start", "end", "step", "tile"}) {
            if (r.is_object() && r.contains(k)) add(r[k]);
          }
        }
      }
    }
    for (const auto& [key, value] : j.items()) {
      if ((key == "shape" || key == "strides" || key == "offset") && value.is_array()) {
        for (const auto& v : value) add(v);
      }
      if (key == "total_size" || key == "volume" || key == "num_accesses") add(value);
      collect(value, out);
    }
  } else if (j.is_array()) {
    for (const auto& v : j) collect(v, out);
  }
}

TEST(SymbolicCorpus, EveryStringParsesAndRoundTrips) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(corpus_dir(), ec)) GTEST_SKIP() << "no corpus at " << corpus_dir();
  std::set<std::string> strings;
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(corpus_dir())) {
    if (entry.path().extension() != ".sdfg") continue;
    std::ifstream in(entry.path());
    auto j = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << entry.path();
    collect(j, strings);
    ++files;
  }
  EXPECT_GT(files, 10u);
  EXPECT_GT(strings.size(), 50u);
  for (const auto& s : strings) {
    auto e = parse(s);
    ASSERT_TRUE(e.ok()) << "'" << s << "': " << e.error().message;
    std::string printed = to_string(*e);
    auto back = parse(printed);
    ASSERT_TRUE(back.ok()) << "'" << s << "' printed as '" << printed << "'";
    EXPECT_EQ(*back, *e) << "'" << s << "' printed as '" << printed << "'";
    // Printing is stable: the printed form prints to itself.
    EXPECT_EQ(to_string(*back), printed);
  }
}

// The typed dialect of DaCe 2.0 and the plain one of DaCe 1.0 name the same expressions.
TEST(SymbolicCorpus, DialectsAgree) {
  auto a = parse("-2 + symbol($N, dtype=dace.int64) + symbol($N, dtype=dace.int64)*(-3 + symbol($N, dtype=dace.int64))");
  auto b = parse("N*(N - 3) + N - 2");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

}  // namespace
}  // namespace dace::sym
