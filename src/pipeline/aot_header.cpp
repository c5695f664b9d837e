#include "pipeline/aot_header.h"

#include <cctype>

#include "ir/data.h"

namespace dace::pipeline {
namespace {

using analysis::Argument;
using ir::ScalarType;

const char* c_scalar(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "uint8_t";  // one byte, 0 or 1 (the generated code tests != 0)
    case ScalarType::Int8: return "int8_t";
    case ScalarType::Int16: return "int16_t";
    case ScalarType::Int32: return "int32_t";
    case ScalarType::Int64: return "int64_t";
    case ScalarType::UInt8: return "uint8_t";
    case ScalarType::UInt16: return "uint16_t";
    case ScalarType::UInt32: return "uint32_t";
    case ScalarType::UInt64: return "uint64_t";
    case ScalarType::Float16: return "uint16_t";  // IEEE binary16 bits: C99 has no half type
    case ScalarType::Float32: return "float";
    case ScalarType::Float64: return "double";
    case ScalarType::Complex64: return "float";    // arrays only: (re, im) pairs
    case ScalarType::Complex128: return "double";  // arrays only: (re, im) pairs
    case ScalarType::Unknown: return nullptr;
  }
  return nullptr;
}

std::string shape_text(const std::vector<sym::Expr>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + sym::to_string(values[i]);
  return out + "]";
}

std::string upper_identifier(const std::string& name) {
  std::string out;
  for (char c : name) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// "double* A" with the comment line describing it.
Result<std::string> parameter(const Argument& a) {
  auto type = aot_c_type(a);
  if (!type) return type.take_error();
  return *type + " " + a.name;
}

}  // namespace

Result<std::string> aot_c_type(const Argument& a) {
  const ir::DType& d = a.dtype;
  ScalarType s = a.kind == Argument::Kind::Symbol && d.scalar == ScalarType::Unknown ? ScalarType::Int64 : d.scalar;
  const char* c = (d.opaque.empty() && d.raw_json.empty() && d.pointer_depth == 0) ? c_scalar(s) : nullptr;
  const std::string what = std::string(a.kind == Argument::Kind::Symbol ? "symbol" : "argument") + " \"" + a.name +
                           "\" (" + ir::to_string(d) + ")";
  if (!c) return make_error(Code::Unsupported, what + ": no C type for ahead-of-time compilation");
  if (a.kind == Argument::Kind::Array) return std::string(c) + "*";
  if (s == ScalarType::Complex64 || s == ScalarType::Complex128)
    return make_error(Code::Unsupported, what + ": complex scalars are passed by value as LLVM structs, which "
                                                "no C99 type matches; ahead-of-time compilation refuses them");
  return std::string(c);
}

Result<std::string> aot_header(const ir::SDFG& g, const jit::ProgramAbi& abi, const std::string& status_symbol) {
  const std::string& n = g.name;
  const std::string guard = "DACE_AOT_" + upper_identifier(n) + "_H";
  std::string h;
  h += "/* " + n + ".h: ahead-of-time compiled SDFG \"" + n + "\" (libdace, `dace compile --aot`).\n";
  h += " *\n";
  h += " * DaCe's generated-code ABI (as DaCe 1.0.2's " + n + ".h):\n";
  h += " *   handle = __dace_init_" + n + "(symbols...);   NULL when the state cannot be allocated\n";
  h += " *   __program_" + n + "(handle, arguments...);   any number of calls with the same symbols\n";
  h += " *   __dace_exit_" + n + "(handle);               frees the state; 0 on success\n";
  h += " * Arrays are pointers to their first element, laid out with the strides below (in\n";
  h += " * elements; C order unless the SDFG says otherwise), allocated by the caller, including\n";
  h += " * __return arrays. Scalars and symbols are passed by value. A failure inside a call (an\n";
  h += " * allocation that cannot be made) is left in " + status_symbol + " (code != 0; clear it\n";
  h += " * before a call). Link with -l" + n + " (lib" + n + ".so, which needs libdace_rt.so) or\n";
  h += " * " + n + ".o plus -ldace_rt and the libraries it calls (see docs/aot.md).\n";
  h += " */\n";
  h += "#ifndef " + guard + "\n#define " + guard + "\n\n#include <stdint.h>\n\n";
  h += "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  h += "typedef void* " + n + "Handle_t;\n\n";
  h += "/* Run-time status record: code 0 = ok, 1 = out of memory (value = bytes), 2 = size\n";
  h += " * overflow, 3 = negative extent (value), 4 = library failure, 5 = out of bounds (value =\n";
  h += " * index, bound = extent); what = the element and what failed (constant text). */\n";
  h += "typedef struct " + n + "_status_t {\n  int32_t code;\n  int64_t value;\n  const char* what;\n  int64_t bound;\n} " +
       n + "_status_t;\n";
  h += "extern " + n + "_status_t " + status_symbol + ";\n\n";

  h += "/* Init parameters (the SDFG's free symbols, sorted by name):\n";
  if (abi.init_arguments.empty()) h += " *   (none)\n";
  for (const Argument& a : abi.init_arguments) {
    auto t = aot_c_type(a);
    if (!t) return t.take_error();
    h += " *   " + a.name + ": " + *t + ", symbol\n";
  }
  h += " */\n" + n + "Handle_t __dace_init_" + n + "(";
  if (abi.init_arguments.empty()) h += "void";
  for (size_t i = 0; i < abi.init_arguments.size(); ++i) {
    auto p = parameter(abi.init_arguments[i]);
    if (!p) return p.take_error();
    h += (i ? ", " : "") + *p;
  }
  h += ");\n\n";

  h += "/* Program parameters after the handle, in DaCe's arglist order (arrays sorted by name,\n";
  h += " * then scalars and symbols together sorted by name):\n";
  if (abi.arguments.empty()) h += " *   (none)\n";
  for (const Argument& a : abi.arguments) {
    auto t = aot_c_type(a);
    if (!t) return t.take_error();
    h += " *   " + a.name + ": " + *t + ", ";
    if (a.kind == Argument::Kind::Array) {
      auto it = g.arrays.find(a.name);
      h += std::string(ir::scalar_type_name(a.dtype.scalar)) + " array";
      if (it != g.arrays.end()) {
        h += " of shape " + shape_text(it->second.shape);
        if (!it->second.strides.empty()) h += ", strides " + shape_text(it->second.strides);
      }
      if (a.dtype.scalar == ScalarType::Complex64 || a.dtype.scalar == ScalarType::Complex128)
        h += " ((re, im) pairs)";
      if (a.dtype.scalar == ScalarType::Float16) h += " (IEEE binary16 bits)";
    } else {
      h += std::string(ir::scalar_type_name(a.dtype.scalar == ScalarType::Unknown ? ScalarType::Int64 : a.dtype.scalar)) +
           (a.kind == Argument::Kind::Symbol ? " symbol" : " scalar");
    }
    h += "\n";
  }
  h += " */\nvoid __program_" + n + "(" + n + "Handle_t handle";
  for (const Argument& a : abi.arguments) {
    auto p = parameter(a);
    if (!p) return p.take_error();
    h += ", " + *p;
  }
  h += ");\n\n";
  h += "int __dace_exit_" + n + "(" + n + "Handle_t handle);\n\n";
  h += "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " + guard + " */\n";
  return h;
}

}  // namespace dace::pipeline
