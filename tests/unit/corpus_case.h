// Shared by the corpus tests that run a compiled SDFG on its kernel folder's case.json and
// compare with NumPy's outputs (simp/raw files and opt files alike).
#pragma once
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "codegen_test_support.h"
#include "ir/sdfg.h"

#ifndef LIBDACE_CORPUS_DIR
#define LIBDACE_CORPUS_DIR "../shared/sdfg-corpus"
#endif

namespace dace::codegen::testing {

struct CorpusFile {
  std::string sdfg;  // path
  std::string dir;   // folder with case.json
  std::string name;  // test name
};

// gtest prints a parameter with the path only, so that failures name the file.
void PrintTo(const CorpusFile& f, std::ostream* os);

// The corpus kernel folders that have a case.json, sorted; empty when the corpus is missing.
std::vector<std::filesystem::path> corpus_case_dirs();
// Case folders below `root` (any layout like the corpus's), sorted.
std::vector<std::filesystem::path> case_dirs_under(const std::filesystem::path& root);

// The `<kernel>.simp.sdfg` and `<kernel>.raw.sdfg` of each folder, each followed by the same
// kernel as written by DaCe 2.0a5 where the corpus has it (typed symbols, newer control flow);
// test names `<kernel>_<kind>` and `v2_0a5_<kernel>_<kind>`, non-alphanumerics as `_`.
std::vector<CorpusFile> simp_and_raw_files(const std::vector<std::filesystem::path>& case_dirs);
// The `<kernel>.simp.sdfgz` and `<kernel>.raw.sdfgz` of each folder (the layout of the
// DaCe-written cases under tests/data), test names `<kernel>_<kind>`.
std::vector<CorpusFile> compressed_simp_and_raw_files(const std::vector<std::filesystem::path>& case_dirs);

// Runs `compiled` (lowered from `g`) on the case of folder `dir` and checks every expected
// output against NumPy's within the case's rtol/atol; reports through gtest assertions.
void run_corpus_case(const std::string& dir, const ir::SDFG& g, const CompiledProgram& compiled);

}  // namespace dace::codegen::testing
