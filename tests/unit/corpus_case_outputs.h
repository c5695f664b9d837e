// run_corpus_case (corpus_case.h) that also hands back each expected output's bytes as the
// program wrote them, for tests that compare two builds of one program byte for byte (the
// first and the optimized tier). Its own header, so that the many users of corpus_case.h do
// not depend on it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "corpus_case.h"

namespace dace::codegen::testing {

void run_corpus_case_outputs(const std::string& dir, const ir::SDFG& g, const CompiledProgram& compiled,
                             std::map<std::string, std::vector<uint8_t>>* outputs);

}  // namespace dace::codegen::testing
