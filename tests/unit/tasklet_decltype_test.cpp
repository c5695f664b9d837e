// `decltype(x)(v)` in Python tasklets (DaCe's frontend writes it, e.g. for np.arange): a cast
// to x's type. Expected types worked out by hand from the connector types.
#include <gtest/gtest.h>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/typecheck.h"

namespace dace::tasklet {
namespace {

using T = ScalarType;
using Conns = std::map<std::string, ConnectorInfo>;

T out_type(const std::string& src, const Conns& in, const Conns& out) {
  Result<Program> p = parse_code(src);
  EXPECT_TRUE(p.ok()) << src << ": " << (p.ok() ? "" : p.error().message);
  if (!p.ok()) return T::Unknown;
  Result<TypedProgram> t = typecheck(p.value(), in, out, {{"__i", T::Int64}});
  EXPECT_TRUE(t.ok()) << src << ": " << (t.ok() ? "" : t.error().message);
  return t.ok() ? t->outputs.at("__out") : T::Unknown;
}

TEST(TaskletDecltype, CastsToTheNamedConnectorsType) {
  Conns out32{{"__out", ConnectorInfo{T::Float32, 0, false}}};
  EXPECT_EQ(out_type("__out = decltype(__out)(0) + decltype(__out)(1)", {}, out32), T::Float32);
  Conns in_i16{{"a", ConnectorInfo{T::Int16, 0, false}}};
  EXPECT_EQ(out_type("__out = decltype(a)(2.7)", in_i16, {{"__out", ConnectorInfo{T::Unknown, 0, false}}}), T::Int16);
}

TEST(TaskletDecltype, UnknownTargetTypeKeepsTheValue) {
  EXPECT_EQ(out_type("__out = decltype(__out)(0) + (__i * decltype(__out)(1))", {},
                     {{"__out", ConnectorInfo{T::Unknown, 0, false}}}),
            T::Int64);
}

TEST(TaskletDecltype, RoundTripsThroughThePrinter) {
  Result<Program> p = parse_code("__out = decltype(__out)(0) + __i");
  ASSERT_TRUE(p.ok());
  std::string text = to_source(p.value());
  EXPECT_NE(text.find("decltype(__out)(0)"), std::string::npos) << text;
}

TEST(TaskletDecltype, RejectsWhatIsNotACastOfAName) {
  EXPECT_FALSE(parse_code("__out = decltype(a + b)(0)").ok());
  Result<Program> p = parse_code("__out = decltype(nope)(0)");
  ASSERT_TRUE(p.ok());
  Result<TypedProgram> t = typecheck(p.value(), {}, {{"__out", ConnectorInfo{T::Unknown, 0, false}}}, {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("nope"), std::string::npos) << t.error().message;
}

}  // namespace
}  // namespace dace::tasklet
