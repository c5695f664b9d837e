#include "ir/result.h"

namespace dace {

const char* code_name(Code code) {
  switch (code) {
    case Code::Ok: return "ok";
    case Code::InvalidArgument: return "invalid argument";
    case Code::InvalidSdfg: return "invalid SDFG";
    case Code::NotFound: return "not found";
    case Code::Unsupported: return "unsupported";
    case Code::ParseError: return "parse error";
    case Code::CompileError: return "compile error";
    case Code::RuntimeError: return "runtime error";
    case Code::OutOfMemory: return "out of memory";
    case Code::PluginUnavailable: return "plugin unavailable";
    case Code::IoError: return "I/O error";
    case Code::AlreadyExists: return "already exists";
    case Code::Internal: return "internal error";
  }
  return "unknown";
}

}  // namespace dace
