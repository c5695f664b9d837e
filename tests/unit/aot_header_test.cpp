// The C side of ahead-of-time compilation (pipeline/aot_header.h, pipeline/aot.h): the C type
// of each argument kind, the refusals of types C cannot pass, and which SDFG names can name
// entry points. Expected values are written out by hand from the C ABI and DaCe's naming.
// End-to-end runs of AOT programs against NumPy are ctest aot.corpus.
#include <gtest/gtest.h>

#include "pipeline/aot.h"
#include "pipeline/aot_header.h"

namespace {

using dace::analysis::Argument;
using dace::ir::DType;
using dace::ir::ScalarType;

Argument arg(const char* name, Argument::Kind kind, DType t) { return Argument{name, kind, t}; }

TEST(AotHeader, CTypesOfArraysScalarsAndSymbols) {
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("A", Argument::Kind::Array, DType::of(ScalarType::Float64))), "double*");
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("x", Argument::Kind::Array, DType::of(ScalarType::Float32))), "float*");
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("d", Argument::Kind::Array, DType::of(ScalarType::UInt8))), "uint8_t*");
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("alpha", Argument::Kind::Scalar, DType::of(ScalarType::Float64))),
            "double");
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("flag", Argument::Kind::Scalar, DType::of(ScalarType::Bool))), "uint8_t");
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("k", Argument::Kind::Scalar, DType::of(ScalarType::Int32))), "int32_t");
  // A symbol of unknown type is int64, as DaCe's default symbol type.
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("N", Argument::Kind::Symbol, DType{})), "int64_t");
  // Complex arrays are (re, im) pairs of the real type.
  EXPECT_EQ(*dace::pipeline::aot_c_type(arg("z", Argument::Kind::Array, DType::of(ScalarType::Complex128))),
            "double*");
}

TEST(AotHeader, RefusesWhatCCannotPass) {
  auto complex_scalar = dace::pipeline::aot_c_type(arg("c", Argument::Kind::Scalar, DType::of(ScalarType::Complex64)));
  ASSERT_FALSE(complex_scalar.ok());
  EXPECT_EQ(complex_scalar.error().code, dace::Code::Unsupported);
  EXPECT_NE(complex_scalar.error().message.find("\"c\""), std::string::npos) << complex_scalar.error().message;
  DType opaque;
  opaque.opaque = "MyStruct";
  auto o = dace::pipeline::aot_c_type(arg("s", Argument::Kind::Scalar, opaque));
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.error().message.find("\"s\""), std::string::npos) << o.error().message;
}

TEST(AotHeader, SdfgNamesThatNameEntryPoints) {
  for (const char* ok : {"gemm", "_k", "jacobi_2d", "A1"}) EXPECT_TRUE(dace::pipeline::is_c_identifier(ok)) << ok;
  for (const char* bad : {"", "2d", "gemm-kernel", "a b", "k.1", "\xc3\xa9t\xc3\xa9"})
    EXPECT_FALSE(dace::pipeline::is_c_identifier(bad)) << bad;
}

}  // namespace
