#include "case_file.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace dace::cli {
namespace {

using json = nlohmann::json;

bool read_paths(const json& j, const char* key, const std::filesystem::path& dir,
                std::map<std::string, std::string>& out, std::string& error) {
  if (!j.contains(key)) return true;
  const json& m = j[key];
  if (!m.is_object()) {
    error = std::string("\"") + key + "\" is not an object";
    return false;
  }
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (!it.value().is_string()) {
      error = std::string("\"") + key + "\" / \"" + it.key() + "\": not a file name";
      return false;
    }
    std::filesystem::path p(it.value().get<std::string>());
    out[it.key()] = (p.is_absolute() ? p : dir / p).string();
  }
  return true;
}

bool read_number(const json& j, const char* key, double& out, std::string& error) {
  if (!j.contains(key)) return true;
  if (!j[key].is_number()) {
    error = std::string("\"") + key + "\" is not a number";
    return false;
  }
  out = j[key].get<double>();
  return true;
}

int env_int(std::initializer_list<const char*> names, int fallback) {
  for (const char* n : names) {
    const char* v = std::getenv(n);
    if (v && *v) {
      char* end = nullptr;
      long x = std::strtol(v, &end, 10);
      if (end && *end == '\0' && x >= 0 && x < (1L << 30)) return static_cast<int>(x);
    }
  }
  return fallback;
}

}  // namespace

int mpi_rank() { return env_int({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}, 0); }
int mpi_world_size() { return env_int({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}, 1); }

std::optional<CaseFile> read_case_file(const std::string& path, std::string& error, int rank) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open file";
    return std::nullopt;
  }
  json j = json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not a JSON object";
    return std::nullopt;
  }
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  CaseFile c;
  if (j.contains("ranks")) {
    if (!j["ranks"].is_number_integer() || j["ranks"].get<int64_t>() < 1 || j["ranks"].get<int64_t>() > (1 << 20)) {
      error = "\"ranks\" is not a positive integer";
      return std::nullopt;
    }
    c.ranks = j["ranks"].get<int>();
    // Per-rank maps: {"0": {...}, "1": {...}}; pick this rank's.
    const std::string r = std::to_string(rank);
    json mine = json::object();
    for (const char* key : {"inputs", "expected_outputs"}) {
      if (!j.contains(key)) continue;
      if (!j[key].is_object()) {
        error = std::string("\"") + key + "\" is not an object";
        return std::nullopt;
      }
      if (j[key].contains(r)) mine[key] = j[key][r];
      else if (std::string(key) == "inputs") {
        error = "\"inputs\" has no entry for rank " + r;
        return std::nullopt;
      }
    }
    if (!read_paths(mine, "inputs", dir, c.inputs, error)) return std::nullopt;
    if (!read_paths(mine, "expected_outputs", dir, c.expected_outputs, error)) return std::nullopt;
  } else {
    if (!read_paths(j, "inputs", dir, c.inputs, error)) return std::nullopt;
    if (!read_paths(j, "expected_outputs", dir, c.expected_outputs, error)) return std::nullopt;
  }
  if (!read_number(j, "rtol", c.rtol, error) || !read_number(j, "atol", c.atol, error)) return std::nullopt;
  if (j.contains("symbols")) {
    const json& s = j["symbols"];
    if (!s.is_object()) {
      error = "\"symbols\" is not an object";
      return std::nullopt;
    }
    for (auto it = s.begin(); it != s.end(); ++it) {
      const json& v = it.value();
      // Symbols are integers; DaCe's JSON may still write 20.0.
      bool integral = v.is_number_integer() ||
                      (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
                       std::abs(v.get<double>()) < 9.0e15);
      if (!integral) {
        error = "\"symbols\" / \"" + it.key() + "\": not an integer";
        return std::nullopt;
      }
      c.symbols[it.key()] = v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(v.get<double>());
    }
  }
  return c;
}

}  // namespace dace::cli
