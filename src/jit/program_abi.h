// What a compiled SDFG's object exposes and expects, derived from the SDFG alone (without
// lowering it): the entry point names and the parameter lists of DaCe's ABI
// (codegen/lower.h). A cached object is made callable with this, so a cache hit needs no
// LLVM module; tests check it against what lower() reports for the corpus.
#pragma once
#include <vector>

#include "analysis/arguments.h"
#include "ir/sdfg.h"
#include "jit/program.h"

namespace dace::jit {

struct ProgramAbi {
  ProgramEntryPoints entry;  // __dace_init_<name>, __program_<name>, __dace_exit_<name>
  std::vector<analysis::Argument> arguments;       // after the state pointer
  std::vector<analysis::Argument> init_arguments;  // of the init function
};

ProgramAbi program_abi(const ir::SDFG& sdfg);

}  // namespace dace::jit
