#include "case_file.h"

#include <cmath>
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

}  // namespace

std::optional<CaseFile> read_case_file(const std::string& path, std::string& error) {
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
  if (!read_paths(j, "inputs", dir, c.inputs, error)) return std::nullopt;
  if (!read_paths(j, "expected_outputs", dir, c.expected_outputs, error)) return std::nullopt;
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
