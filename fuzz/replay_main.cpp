// A main for a fuzz target without libFuzzer (the normal build, CI): feeds the target every
// file named on the command line (folders: every file in them, in name order) and, with
// `--random N MAXLEN`, N byte strings from a fixed-seed generator. No coverage feedback and
// no sanitizers: it replays seeds and past findings, and shakes the target briefly with
// random input. An invariant the target checks aborts (fuzz_common.h), as under libFuzzer.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void run_one(const std::string& bytes) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

bool run_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    return false;
  }
  run_one(std::string(std::istreambuf_iterator<char>(in), {}));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t files = 0, randoms = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--random" && i + 2 < argc) {
      const size_t n = std::strtoull(argv[i + 1], nullptr, 10);
      const size_t max_len = std::max<size_t>(1, std::strtoull(argv[i + 2], nullptr, 10));
      i += 2;
      std::mt19937_64 gen(20251126);
      for (size_t k = 0; k < n; ++k, ++randoms) {
        std::string bytes(gen() % (max_len + 1), '\0');
        for (char& c : bytes) c = static_cast<char>(gen() & 0xff);
        run_one(bytes);
      }
      continue;
    }
    std::filesystem::path path(arg);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> entries;
      for (const auto& e : std::filesystem::directory_iterator(path))
        if (e.is_regular_file()) entries.push_back(e.path());
      std::sort(entries.begin(), entries.end());
      for (const auto& e : entries) files += run_file(e) ? 1 : 0;
    } else if (run_file(path)) {
      ++files;
    } else {
      return 2;
    }
  }
  std::printf("%zu files, %zu random inputs: no finding\n", files, randoms);
  return 0;
}
