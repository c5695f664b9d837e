// A compiled SDFG ready to call: its JitModule plus libffi call descriptions prepared once.
//
// DaCe's ABI (codegen/lower.h): init(symbols) -> state, program(state, args...), exit(state).
// The state depends on the symbol values given to init, so a Program keeps the state of the
// last init and re-initializes only when a call brings different symbol values. Calls on one
// Program are serialized (the state is shared); distinct Programs run concurrently.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "analysis/arguments.h"
#include "ir/result.h"
#include "jit/session.h"

namespace dace::jit {

// One argument slot: a pointer (arrays) or the raw little-endian bytes of a scalar/symbol
// in the argument's own dtype (int64 for symbols of unknown type).
struct ArgValue {
  alignas(16) uint8_t bytes[16] = {};

  static ArgValue pointer(void* p) {
    ArgValue v;
    std::memcpy(v.bytes, &p, sizeof p);
    return v;
  }
  template <class T>
  static ArgValue scalar(T x) {
    static_assert(sizeof(T) <= 16);
    static_assert(!std::is_pointer_v<T>, "an array would decay to a pointer: pass the value type");
    ArgValue v;
    std::memcpy(v.bytes, &x, sizeof(T));
    return v;
  }
};

struct ProgramEntryPoints {
  std::string init, program, exit;
};

class Program {
 public:
  // Looks up the three entry points in `module` and prepares the call descriptions.
  // Errors: NotFound (entry point missing), Internal (libffi refused a signature or an init
  // symbol is not among the arguments).
  static Result<std::unique_ptr<Program>> create(std::unique_ptr<JitModule> module, const ProgramEntryPoints& entry,
                                                 std::vector<analysis::Argument> arguments,
                                                 std::vector<analysis::Argument> init_arguments);
  ~Program();  // release(), ignoring its error
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // Program arguments after the state pointer, in order (DaCe's arglist).
  const std::vector<analysis::Argument>& arguments() const;
  // The init function's symbols; each is also one of arguments().
  const std::vector<analysis::Argument>& init_arguments() const;

  // Runs the program with `values` in arguments() order (the caller checked them). Allocates
  // nothing. Errors: InvalidArgument (wrong count, released), RuntimeError (init returned
  // null, exit of a previous state failed).
  Status call(const std::vector<ArgValue>& values);

  // Calls exit on the live state, if any; the next call starts from a fresh init.
  // Errors: RuntimeError (exit failed).
  Status reset();

  // Calls exit on the live state, then unloads the code. Idempotent.
  Status release();

 private:
  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dace::jit
