// SDFG -> LLVM IR, directly (DESIGN.md §6): no C++ source, no compiler subprocess.
//
// The module defines DaCe's ABI for the SDFG named N:
//   N_state_t* __dace_init_N(<free symbols, sorted by name, each of its declared type>)
//   void       __program_N(N_state_t* state, <arguments in DaCe's arglist order>)
//   int        __dace_exit_N(N_state_t* state)
// where the arglist (analysis::argument_list) is: non-transient arrays sorted by name (as
// pointers to their first element), then scalars and free symbols together sorted by name
// (scalars by value in their dtype, symbols in their declared type, int64 by default).
// `__return*` arrays are ordinary non-transient arrays: the caller allocates and passes them.
// Persistent transients live in the state object, allocated by init and freed by exit.
//
// CPU_Multicore maps call the CPU runtime's `dace_cpu_parallel_for` (LowerOptions); the
// module leaves that symbol for the JIT to resolve.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "analysis/arguments.h"
#include "codegen/options.h"
#include "ir/result.h"
#include "ir/sdfg.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace dace::codegen {

struct LoweredModule {
  std::unique_ptr<llvm::Module> module;
  std::string sdfg_name;
  std::string init_function;     // "__dace_init_<name>"
  std::string program_function;  // "__program_<name>"
  std::string exit_function;     // "__dace_exit_<name>"
  // Parameters of the program function after the state pointer, in order.
  std::vector<analysis::Argument> arguments;
  // Parameters of the init function (symbols), in order.
  std::vector<analysis::Argument> init_arguments;

  LoweredModule();
  LoweredModule(LoweredModule&&) noexcept;
  LoweredModule& operator=(LoweredModule&&) noexcept;
  ~LoweredModule();
};

// Lowers `sdfg` (which should have passed analysis::validate) into a new module of `context`.
// Errors: Unsupported (a construct libdace cannot compile yet, e.g. C++ tasklets, streams),
// InvalidSdfg (inconsistencies found while lowering), each naming the element by path.
Result<LoweredModule> lower(const ir::SDFG& sdfg, llvm::LLVMContext& context, const LowerOptions& options = {});

// The parts of `options` that change the generated code, as deterministic text (for cache
// keys): flags, thread count, the CPU_Multicore runtime entry and which vendor library
// implementations would be used.
std::string options_fingerprint(const LowerOptions& options);

// The module's IR as text (deterministic: same SDFG and options, same text).
std::string module_text(const llvm::Module& module);

}  // namespace dace::codegen
