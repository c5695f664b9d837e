// A member that almost always holds its default value, stored out of line.
#pragma once
#include <memory>
#include <optional>
#include <utility>

namespace dace::ir {

template <class T>
struct ValueInitialized {
  static const T& value() {
    static const T v{};
    return v;
  }
};

// Holds a T with value semantics in one pointer: null while the value equals
// Default::value(), a heap copy otherwise. Nodes and memlets carry members that DaCe files
// often leave at their defaults (debug info, guids, a tasklet's global/init/exit code);
// inline, they made up over a third of a million-node SDFG's memory (docs/sdfg-json.md
// "Memory of the IR"). Reading goes through get() (or the conversion), writing through
// assignment, which stores nothing for the default, or mut().
template <class T, class Default = ValueInitialized<T>>
class OutOfLine {
 public:
  OutOfLine() = default;
  OutOfLine(T v) { set(std::move(v)); }  // NOLINT(google-explicit-constructor): a value type
  OutOfLine(const OutOfLine& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  OutOfLine(OutOfLine&&) noexcept = default;
  OutOfLine& operator=(const OutOfLine& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  OutOfLine& operator=(OutOfLine&&) noexcept = default;
  OutOfLine& operator=(T v) {
    set(std::move(v));
    return *this;
  }

  const T& get() const { return value_ ? *value_ : Default::value(); }
  operator const T&() const { return get(); }  // NOLINT(google-explicit-constructor)
  const T* operator->() const { return &get(); }
  // The value for changing in place; allocates it (as the default) when absent.
  T& mut() {
    if (!value_) value_ = std::make_unique<T>(Default::value());
    return *value_;
  }
  void set(T v) {
    if (v == Default::value()) value_.reset();
    else if (value_) *value_ = std::move(v);
    else value_ = std::make_unique<T>(std::move(v));
  }
  // Back to the default (a string or container member's `clear()`).
  void clear() { value_.reset(); }
  bool empty() const { return get().empty(); }

  bool operator==(const OutOfLine& other) const { return get() == other.get(); }
  bool operator==(const T& other) const { return get() == other; }

 private:
  std::unique_ptr<T> value_;
};

// A std::optional<T> in one pointer: null while absent. For optional members that are rarely
// present (a memlet's other_subset), where std::optional would reserve a T inline in every
// element. The interface is the part of std::optional's that the IR uses.
template <class T>
class OptionalOutOfLine {
 public:
  OptionalOutOfLine() = default;
  OptionalOutOfLine(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): as std::optional
  OptionalOutOfLine(T v) : value_(std::make_unique<T>(std::move(v))) {}  // NOLINT(google-explicit-constructor)
  OptionalOutOfLine(const OptionalOutOfLine& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  OptionalOutOfLine(OptionalOutOfLine&&) noexcept = default;
  OptionalOutOfLine& operator=(const OptionalOutOfLine& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  OptionalOutOfLine& operator=(OptionalOutOfLine&&) noexcept = default;
  OptionalOutOfLine& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }
  OptionalOutOfLine& operator=(T v) {
    if (value_) *value_ = std::move(v);
    else value_ = std::make_unique<T>(std::move(v));
    return *this;
  }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  // As std::optional's: only while has_value().
  const T& operator*() const { return *value_; }
  T& operator*() { return *value_; }
  const T* operator->() const { return value_.get(); }
  T* operator->() { return value_.get(); }
  void reset() { value_.reset(); }
  operator std::optional<T>() const {  // NOLINT(google-explicit-constructor): a value type
    return value_ ? std::optional<T>(*value_) : std::nullopt;
  }

  bool operator==(const OptionalOutOfLine& other) const {
    return value_ && other.value_ ? *value_ == *other.value_ : value_ == other.value_;
  }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace dace::ir
