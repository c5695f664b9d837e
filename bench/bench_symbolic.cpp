// Times parse + simplify of every symbolic string in the SDFG corpus (ranges, shapes, strides,
// offsets, total_size, volume, num_accesses). Usage: bench_symbolic [corpus-dir]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ir/symbolic/expr.h"

namespace {

void collect(const nlohmann::json& j, std::set<std::string>& out) {
  auto add = [&out](const nlohmann::json& v) {
    if (v.is_string()) out.insert(v.get<std::string>());
    if (v.is_number_integer()) out.insert(std::to_string(v.get<int64_t>()));
  };
  if (j.is_object()) {
    auto type = j.find("type");
    if (type != j.end() && type->is_string() && *type == "Range" && j.contains("ranges") && j["ranges"].is_array()) {
      for (const auto& r : j["ranges"]) {
        if (!r.is_object()) continue;
        for (const char* k : {"start", "end", "step", "tile"}) {
          if (r.contains(k)) add(r[k]);
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

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
#ifdef LIBDACE_CORPUS_DIR
  std::string dir = LIBDACE_CORPUS_DIR;
#else
  std::string dir = "/work/shared/sdfg-corpus";
#endif
  if (argc > 1) dir = argv[1];
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    std::fprintf(stderr, "bench_symbolic: no corpus directory '%s'\n", dir.c_str());
    return 1;
  }
  // Every occurrence counts (a file repeats its shapes), as a loader would parse them.
  std::vector<std::string> strings;
  size_t files = 0;
  std::vector<fs::path> paths;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".sdfg") paths.push_back(entry.path());
  }
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p);
    auto j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded()) continue;
    std::set<std::string> unique;
    collect(j, unique);
    strings.insert(strings.end(), unique.begin(), unique.end());
    ++files;
  }
  std::set<std::string> distinct(strings.begin(), strings.end());

  size_t failures = 0;
  std::vector<double> ms;
  for (int rep = 0; rep < 10; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (const auto& s : strings) {
      auto e = dace::sym::parse(s);
      if (!e.ok()) {
        if (rep == 0) ++failures;
        continue;
      }
      (void)dace::sym::simplify(*e);
    }
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  double median = (sorted[4] + sorted[5]) / 2;
  std::printf("bench_symbolic: %zu files, %zu expressions (%zu distinct), %zu parse failures\n", files,
              strings.size(), distinct.size(), failures);
  std::printf("parse+simplify: first %.3f ms, median of 10 %.3f ms, %.0f ns/expression\n", ms[0], median,
              strings.empty() ? 0.0 : median * 1e6 / static_cast<double>(strings.size()));
  return failures == 0 ? 0 : 2;
}
