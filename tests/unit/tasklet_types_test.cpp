// Scalar types: names and NumPy promotion. Expected values are NumPy's np.result_type for
// two arrays of the given dtypes, worked out by hand from NumPy's documented rules.
#include <gtest/gtest.h>

#include "ir/tasklet/types.h"

namespace dace::tasklet {
namespace {

using T = ScalarType;

TEST(TaskletTypes, Names) {
  EXPECT_STREQ(type_name(T::Float64), "float64");
  EXPECT_STREQ(type_name(T::Int32), "int32");
  EXPECT_STREQ(type_name(T::Bool), "bool");
  EXPECT_STREQ(type_name(T::Complex128), "complex128");
  EXPECT_STREQ(type_name(T::UInt16), "uint16");
  EXPECT_STREQ(type_name(T::Float16), "float16");
  EXPECT_EQ(type_from_name("bool_"), T::Bool);
  EXPECT_EQ(type_from_name("bool"), T::Bool);
  EXPECT_EQ(type_from_name("complex64"), T::Complex64);
  EXPECT_EQ(type_from_name("uint64"), T::UInt64);
  EXPECT_EQ(type_from_name("float"), T::Float32);   // DaCe's dace.float is float32
  EXPECT_EQ(type_from_name("double"), T::Float64);
  EXPECT_FALSE(type_from_name("float128").has_value());
  EXPECT_FALSE(type_from_name("").has_value());
  for (int i = 0; i <= static_cast<int>(T::Unknown); ++i) {
    T t = static_cast<T>(i);
    EXPECT_EQ(type_from_name(type_name(t)), t) << type_name(t);
  }
}

TEST(TaskletTypes, Classes) {
  EXPECT_TRUE(is_integer(T::UInt8));
  EXPECT_FALSE(is_integer(T::Bool));
  EXPECT_TRUE(is_signed_integer(T::Int16));
  EXPECT_TRUE(is_unsigned_integer(T::UInt32));
  EXPECT_TRUE(is_float(T::Float16));
  EXPECT_FALSE(is_float(T::Complex64));
  EXPECT_TRUE(is_complex(T::Complex64));
  EXPECT_EQ(type_size(T::Complex128), 16);
  EXPECT_EQ(type_size(T::Bool), 1);
  EXPECT_EQ(component_type(T::Complex64), T::Float32);
  EXPECT_EQ(complex_of(T::Float64), T::Complex128);
}

struct Case {
  T a, b, expected;
};

TEST(TaskletTypes, PromotionTable) {
  const Case cases[] = {
      // bool yields to anything
      {T::Bool, T::Bool, T::Bool},
      {T::Bool, T::Int8, T::Int8},
      {T::Bool, T::UInt64, T::UInt64},
      {T::Bool, T::Float16, T::Float16},
      {T::Bool, T::Complex64, T::Complex64},
      // same-signedness integers: the wider
      {T::Int32, T::Int64, T::Int64},
      {T::Int8, T::Int16, T::Int16},
      {T::UInt8, T::UInt32, T::UInt32},
      {T::Int64, T::Int64, T::Int64},
      // signed/unsigned: smallest signed type holding both
      {T::Int8, T::UInt8, T::Int16},
      {T::Int16, T::UInt16, T::Int32},
      {T::Int32, T::UInt32, T::Int64},
      {T::Int64, T::UInt32, T::Int64},
      {T::UInt8, T::Int32, T::Int32},
      {T::UInt16, T::Int8, T::Int32},
      {T::UInt32, T::Int8, T::Int64},
      {T::Int64, T::UInt64, T::Float64},
      {T::Int8, T::UInt64, T::Float64},
      // integer + float: a float wide enough for the integer, at least the float's width
      {T::Int8, T::Float16, T::Float16},
      {T::UInt8, T::Float16, T::Float16},
      {T::Int16, T::Float16, T::Float32},
      {T::Int32, T::Float16, T::Float64},
      {T::Int16, T::Float32, T::Float32},
      {T::Int32, T::Float32, T::Float64},
      {T::Int64, T::Float32, T::Float64},
      {T::UInt64, T::Float32, T::Float64},
      {T::Int8, T::Float64, T::Float64},
      // floats: the wider
      {T::Float16, T::Float32, T::Float32},
      {T::Float32, T::Float64, T::Float64},
      // complex: components promoted the same way
      {T::Complex64, T::Float32, T::Complex64},
      {T::Complex64, T::Float64, T::Complex128},
      {T::Complex64, T::Int16, T::Complex64},
      {T::Complex64, T::Int32, T::Complex128},
      {T::Complex64, T::Float16, T::Complex64},
      {T::Complex64, T::Complex128, T::Complex128},
      {T::Complex128, T::Int64, T::Complex128},
      // Unknown is contagious
      {T::Unknown, T::Int32, T::Unknown},
      {T::Float64, T::Unknown, T::Unknown},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(promote(c.a, c.b), c.expected) << type_name(c.a) << " + " << type_name(c.b);
    EXPECT_EQ(promote(c.b, c.a), c.expected) << type_name(c.b) << " + " << type_name(c.a);
  }
}

}  // namespace
}  // namespace dace::tasklet
