// The case.json of the SDFG corpus (/work/shared/sdfg-corpus/README.md): which .npy files
// feed which arguments, symbol values, and the expected outputs with their tolerances.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dace::cli {

struct CaseFile {
  std::map<std::string, std::string> inputs;            // argument -> .npy path (resolved)
  std::map<std::string, int64_t> symbols;               // symbol -> value
  std::map<std::string, std::string> expected_outputs;  // argument -> .npy path (resolved)
  double rtol = 1e-10;
  double atol = 1e-12;
};

// Paths inside the file are relative to the file's folder. On failure returns nullopt and
// sets `error` to a message naming the offending key.
std::optional<CaseFile> read_case_file(const std::string& path, std::string& error);

}  // namespace dace::cli
