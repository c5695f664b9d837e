// Error values of the internal C++ API. Nothing inside libdace throws across a layer:
// fallible functions return Result<T> (or Status), which the C API turns into a
// dace_status_t plus the thread-local message.
#pragma once
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace dace {

// Mirrors dace_status_t in include/libdace.h (same numeric values).
enum class Code : int {
  Ok = 0,
  InvalidArgument = 1,
  InvalidSdfg = 2,
  NotFound = 3,
  Unsupported = 4,
  ParseError = 5,
  CompileError = 6,
  RuntimeError = 7,
  OutOfMemory = 8,
  PluginUnavailable = 9,
  IoError = 10,
  AlreadyExists = 11,
  Internal = 12,
};

const char* code_name(Code code);

struct Error {
  Code code = Code::Internal;
  std::string message;  // names the failing element by path, e.g. sdfg "x" / state "s" / node 3
  // Position in the text being parsed (1-based; 0 = unknown). Line is 1 for one-line input.
  int line = 0;
  int column = 0;
};

inline Error make_error(Code code, std::string message, int line = 0, int column = 0) {
  return Error{code, std::move(message), line, column};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { assert(!ok()); return std::get<1>(v_); }
  Error&& take_error() { assert(!ok()); return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), ok_(false) {}
  static Status success() { return Status(); }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { assert(!ok_); return error_; }
  Error&& take_error() { return std::move(error_); }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace dace

// Propagates an error out of the enclosing function returning Result<U> or Status.
#define DACE_TRY(expr)                                   \
  do {                                                   \
    auto dace_try_status_ = (expr);                      \
    if (!dace_try_status_.ok()) return dace_try_status_.take_error(); \
  } while (0)
