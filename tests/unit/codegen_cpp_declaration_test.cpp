// parse_cpp_scalar_declaration (codegen/cpp_call.h): the one parser of the alpha/beta
// declarations in DaCe's BLAS C++ tasklets, shared by the CBLAS recognizer and the CUDA
// plugin's cuBLAS recognizer. Expected values are read off the statements by hand.
#include <gtest/gtest.h>

#include "codegen/cpp_call.h"

namespace dace::codegen {
namespace {

CppScalarDeclaration declared(const std::string& statement) {
  Result<std::optional<CppScalarDeclaration>> d = parse_cpp_scalar_declaration(statement);
  EXPECT_TRUE(d.ok()) << statement << ": " << (d.ok() ? "" : d.error().message);
  if (!d.ok() || !*d) {
    ADD_FAILURE() << statement << ": not read as a declaration";
    return {};
  }
  return **d;
}

TEST(CppScalarDeclaration, TypedInitializersAndPlainNumbers) {
  CppScalarDeclaration a = declared("  double alpha = double(2.5) ");
  EXPECT_EQ(a.type, "double");
  EXPECT_EQ(a.name, "alpha");
  EXPECT_EQ(a.init_type, "double");
  EXPECT_EQ(a.re, 2.5);
  EXPECT_EQ(a.im, 0.0);
  CppScalarDeclaration c = declared("std::complex<double> __alpha = std::complex<double>(1, -2)");
  EXPECT_EQ(c.type, "std::complex<double>");
  EXPECT_EQ(c.init_type, "std::complex<double>");
  EXPECT_EQ(c.re, 1.0);
  EXPECT_EQ(c.im, -2.0);
  CppScalarDeclaration f = declared("float beta = -0.5f");
  EXPECT_EQ(f.type, "float");
  EXPECT_EQ(f.init_type, "");
  EXPECT_EQ(f.re, -0.5);
}

TEST(CppScalarDeclaration, CallsAndAssignmentsAreNoDeclarations) {
  for (const char* s : {"cublasSetStream(__dace_cublas_handle, __dace_current_stream)", "_result = cblas_ddot(n, x, 1, y, 1)",
                        "x = double(1)"}) {
    Result<std::optional<CppScalarDeclaration>> d = parse_cpp_scalar_declaration(s);
    ASSERT_TRUE(d.ok()) << s;
    EXPECT_FALSE(d->has_value()) << s;
  }
}

TEST(CppScalarDeclaration, BadNameOrInitializerIsRefusedNamingIt) {
  Result<std::optional<CppScalarDeclaration>> name = parse_cpp_scalar_declaration("double 2x = double(1)");
  ASSERT_FALSE(name.ok());
  EXPECT_NE(name.error().message.find("declaration of \"2x\""), std::string::npos) << name.error().message;
  Result<std::optional<CppScalarDeclaration>> init = parse_cpp_scalar_declaration("double a = double(one)");
  ASSERT_FALSE(init.ok());
  EXPECT_NE(init.error().message.find("initializer \"double(one)\""), std::string::npos) << init.error().message;
}

}  // namespace
}  // namespace dace::codegen
