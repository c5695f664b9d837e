// Helpers shared by the libdace.hpp wrapper tests (tests/cpp/*_test.cpp).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "libdace.hpp"

namespace wrapper_test {

inline bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// The error a callable throws; fails the test when it throws nothing or something else.
template <class F>
libdace::error error_of(F&& f) {
  try {
    f();
  } catch (const libdace::error& e) {
    return e;
  }
  ADD_FAILURE() << "no libdace::error thrown";
  return libdace::error(DACE_OK, "");
}

}  // namespace wrapper_test
