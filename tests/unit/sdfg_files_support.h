// Test helpers shared by the tests that read every `.sdfg` file below some folders.
#pragma once
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace dace::testing_files {

// Every regular `*.sdfg` file below `roots` (recursively), sorted; unreadable folders skipped.
inline std::vector<std::string> sdfg_files_below(std::initializer_list<const char*> roots) {
  std::vector<std::string> files;
  for (const char* root : roots) {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(root, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file() && it->path().extension() == ".sdfg") files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The whole file as bytes ("" when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace dace::testing_files
