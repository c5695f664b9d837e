#include "jit/program_abi.h"

namespace dace::jit {

ProgramAbi program_abi(const ir::SDFG& sdfg) {
  ProgramAbi abi;
  abi.entry = {"__dace_init_" + sdfg.name, "__program_" + sdfg.name, "__dace_exit_" + sdfg.name};
  abi.arguments = analysis::argument_list(sdfg);
  // Internal symbols (__dace_*) are the program's own business, not the caller's.
  for (const std::string& s : analysis::free_symbols(sdfg)) {
    if (s.rfind("__dace", 0) == 0) continue;
    auto it = sdfg.symbols.find(s);
    abi.init_arguments.push_back(analysis::Argument{
        s, analysis::Argument::Kind::Symbol,
        it != sdfg.symbols.end() ? it->second : ir::DType::of(ir::ScalarType::Int64)});
  }
  return abi;
}

}  // namespace dace::jit
