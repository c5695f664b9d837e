// Type checking of tasklet code. Expected types follow NumPy's rules with Python literals
// weak (NEP 50), worked out by hand for each case.
#include <gtest/gtest.h>

#include "ir/tasklet/language.h"
#include "ir/tasklet/parser.h"
#include "ir/tasklet/typecheck.h"

namespace dace::tasklet {
namespace {

using T = ScalarType;
using Conns = std::map<std::string, ConnectorInfo>;
using Syms = std::map<std::string, ScalarType>;

ConnectorInfo scalar(T t) { return ConnectorInfo{t, 0, false}; }
ConnectorInfo array(T t, int rank) { return ConnectorInfo{t, rank, false}; }
ConnectorInfo stream(T t) { return ConnectorInfo{t, 0, true}; }

TypedProgram check_ok(const std::string& src, const Conns& in, const Conns& out, const Syms& syms = {}) {
  Result<Program> p = parse_code(src);
  EXPECT_TRUE(p.ok()) << src;
  if (!p.ok()) return {};
  Result<TypedProgram> t = typecheck(p.value(), in, out, syms);
  EXPECT_TRUE(t.ok()) << src << ": " << (t.ok() ? "" : t.error().message);
  return t.ok() ? std::move(t.value()) : TypedProgram{};
}

// Type of the right-hand side of the single statement `__out = <expr>`.
T rhs_type(const std::string& expr, const Conns& in, const Syms& syms = {}) {
  TypedProgram t = check_ok("__out = " + expr, in, {{"__out", scalar(T::Unknown)}}, syms);
  if (t.program.body.empty()) return T::Unknown;
  const Assign* a = t.program.body[0]->as<Assign>();
  EXPECT_EQ(t.outputs.at("__out"), a->value->type) << expr;
  return a->value->type;
}

void check_error(const std::string& src, const Conns& in, const Conns& out, const Syms& syms,
                 int line, int column, const std::string& fragment) {
  Result<Program> p = parse_code(src);
  ASSERT_TRUE(p.ok()) << src << ": " << p.error().message;
  Result<TypedProgram> t = typecheck(p.value(), in, out, syms);
  ASSERT_FALSE(t.ok()) << src;
  EXPECT_EQ(t.error().code, Code::InvalidSdfg);
  EXPECT_EQ(t.error().line, line) << t.error().message;
  EXPECT_EQ(t.error().column, column) << t.error().message;
  std::string prefix = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
  EXPECT_EQ(t.error().message.rfind(prefix, 0), 0u) << t.error().message;
  EXPECT_NE(t.error().message.find(fragment), std::string::npos) << t.error().message;
}

TEST(TaskletTypecheck, AnnotatesEveryExpression) {
  TypedProgram t = check_ok("__out = (__in1 * __in2)", {{"__in1", scalar(T::Float32)}, {"__in2", scalar(T::Float32)}},
                            {{"__out", scalar(T::Float32)}});
  const Assign* a = t.program.body.at(0)->as<Assign>();
  EXPECT_EQ(a->targets[0]->type, T::Float32);
  EXPECT_EQ(a->value->type, T::Float32);
  EXPECT_EQ(a->value->as<BinOp>()->left->type, T::Float32);
  EXPECT_EQ(t.outputs.at("__out"), T::Float32);
}

TEST(TaskletTypecheck, ArithmeticTypes) {
  Conns in{{"i8", scalar(T::Int8)},     {"i32", scalar(T::Int32)},   {"i64", scalar(T::Int64)},
           {"u8", scalar(T::UInt8)},    {"u16", scalar(T::UInt16)},  {"u64", scalar(T::UInt64)},
           {"f32", scalar(T::Float32)}, {"f64", scalar(T::Float64)}, {"c64", scalar(T::Complex64)},
           {"c128", scalar(T::Complex128)}, {"b", scalar(T::Bool)}};
  EXPECT_EQ(rhs_type("i32 + i64", in), T::Int64);
  EXPECT_EQ(rhs_type("i32 * f32", in), T::Float64);
  EXPECT_EQ(rhs_type("i8 * f32", in), T::Float32);
  EXPECT_EQ(rhs_type("u8 + i8", in), T::Int16);
  EXPECT_EQ(rhs_type("u64 + i64", in), T::Float64);
  EXPECT_EQ(rhs_type("f32 + c64", in), T::Complex64);
  EXPECT_EQ(rhs_type("f64 + c64", in), T::Complex128);
  // Literals are weak: they take the typed operand's type where it can hold them.
  EXPECT_EQ(rhs_type("i32 * 2", in), T::Int32);
  EXPECT_EQ(rhs_type("u8 + 1", in), T::UInt8);
  EXPECT_EQ(rhs_type("f32 * 2.0", in), T::Float32);
  EXPECT_EQ(rhs_type("i32 * 2.0", in), T::Float64);
  EXPECT_EQ(rhs_type("f32 * 1j", in), T::Complex64);
  EXPECT_EQ(rhs_type("i32 * 1j", in), T::Complex128);
  EXPECT_EQ(rhs_type("b + 1", in), T::Int64);
  EXPECT_EQ(rhs_type("0", in), T::Int64);
  EXPECT_EQ(rhs_type("0.0", in), T::Float64);
  EXPECT_EQ(rhs_type("2 * 3", in), T::Int64);
  EXPECT_EQ(rhs_type("2 * 3.0", in), T::Float64);
  EXPECT_EQ(rhs_type("-9999", in), T::Int64);
  // True division of integers gives float64; floor division and % stay integral.
  EXPECT_EQ(rhs_type("i32 / i32", in), T::Float64);
  EXPECT_EQ(rhs_type("u8 / 2", in), T::Float64);
  EXPECT_EQ(rhs_type("f32 / 2", in), T::Float32);
  EXPECT_EQ(rhs_type("i32 // 2", in), T::Int32);
  EXPECT_EQ(rhs_type("i64 % i32", in), T::Int64);
  EXPECT_EQ(rhs_type("f64 // 2", in), T::Float64);
  // ** of integers with an integer exponent stays integral.
  EXPECT_EQ(rhs_type("i32 ** 2", in), T::Int32);
  EXPECT_EQ(rhs_type("c128 ** dace.complex128(2)", in), T::Complex128);
  // Bools become ints in arithmetic, stay bool in & | ^.
  EXPECT_EQ(rhs_type("b + b", in), T::Int64);
  EXPECT_EQ(rhs_type("b & b", in), T::Bool);
  EXPECT_EQ(rhs_type("-b", in), T::Int64);
  EXPECT_EQ(rhs_type("~u16", in), T::UInt16);
  EXPECT_EQ(rhs_type("u16 >> 8", in), T::UInt16);
  EXPECT_EQ(rhs_type("u8 ^ i32", in), T::Int32);
  EXPECT_EQ(rhs_type("(dace.int64((~ u16)) & 65535)", in), T::Int64);
  // Comparisons and boolean operators give bool.
  EXPECT_EQ(rhs_type("f32 < i32", in), T::Bool);
  EXPECT_EQ(rhs_type("0 <= i32 < i64", in), T::Bool);
  EXPECT_EQ(rhs_type("c128 == c64", in), T::Bool);
  EXPECT_EQ(rhs_type("b and f32 or not i32", in), T::Bool);
  // Ternary promotes its branches.
  EXPECT_EQ(rhs_type("i32 if b else f32", in), T::Float64);
  EXPECT_EQ(rhs_type("f32 if b else 0", in), T::Float32);
}

TEST(TaskletTypecheck, FunctionsAndCasts) {
  Conns in{{"i32", scalar(T::Int32)}, {"i64", scalar(T::Int64)}, {"f32", scalar(T::Float32)},
           {"f64", scalar(T::Float64)}, {"c128", scalar(T::Complex128)}, {"c64", scalar(T::Complex64)}};
  EXPECT_EQ(rhs_type("math.sin(f32)", in), T::Float32);
  EXPECT_EQ(rhs_type("math.sin(i32)", in), T::Float64);
  EXPECT_EQ(rhs_type("dace.math.exp(f64)", in), T::Float64);
  EXPECT_EQ(rhs_type("exp(f32)", in), T::Float32);
  EXPECT_EQ(rhs_type("tanh(f64)", in), T::Float64);
  EXPECT_EQ(rhs_type("np.exp(c64)", in), T::Complex64);
  EXPECT_EQ(rhs_type("numpy.sqrt(c128)", in), T::Complex128);
  EXPECT_EQ(rhs_type("math.floor(f32)", in), T::Float32);
  EXPECT_EQ(rhs_type("math.atan2(i32, f32)", in), T::Float64);
  EXPECT_EQ(rhs_type("abs(c128)", in), T::Float64);
  EXPECT_EQ(rhs_type("abs(c64)", in), T::Float32);
  EXPECT_EQ(rhs_type("abs(i32)", in), T::Int32);
  EXPECT_EQ(rhs_type("min(i32, i64)", in), T::Int64);
  EXPECT_EQ(rhs_type("max(f32, 0)", in), T::Float32);
  EXPECT_EQ(rhs_type("max(i32, f32, f64)", in), T::Float64);
  EXPECT_EQ(rhs_type("np.maximum(f32, f64)", in), T::Float64);
  EXPECT_EQ(rhs_type("float(i32)", in), T::Float64);
  EXPECT_EQ(rhs_type("int(f32)", in), T::Int64);
  EXPECT_EQ(rhs_type("bool(i32)", in), T::Bool);
  EXPECT_EQ(rhs_type("dace.float32(i64)", in), T::Float32);
  EXPECT_EQ(rhs_type("dace.int64(f32)", in), T::Int64);
  EXPECT_EQ(rhs_type("np.uint8(i32)", in), T::UInt8);
  EXPECT_EQ(rhs_type("numpy.complex64(f32)", in), T::Complex64);
  EXPECT_EQ(rhs_type("dace.bool_(i32)", in), T::Bool);
  EXPECT_EQ(rhs_type("math.isnan(f64)", in), T::Bool);
  EXPECT_EQ(rhs_type("math.pi * f32", in), T::Float32);
  EXPECT_EQ(rhs_type("math.inf", in), T::Float64);
  EXPECT_EQ(rhs_type("np.pi * i32", in), T::Float64);
  EXPECT_EQ(rhs_type("c128.real", in), T::Float64);
  EXPECT_EQ(rhs_type("c64.imag", in), T::Float32);
  EXPECT_EQ(rhs_type("dace.float64((N - 1))", in, {{"N", T::Int64}}), T::Float64);
  EXPECT_EQ(rhs_type("N * 2", in, {{"N", T::Int32}}), T::Int32);
}

TEST(TaskletTypecheck, ControlFlowLocalsArraysStreams) {
  TypedProgram t = check_ok(
      "if c > 0:\n"
      "    tmp = a[i, j] * 2.0\n"
      "elif c < 0:\n"
      "    tmp = 0.0\n"
      "else:\n"
      "    tmp = b[i]\n"
      "out[i, j] = tmp + 1\n"
      "cnt = 0\n"
      "cnt += 1\n"
      "__out = cnt\n",
      {{"a", array(T::Float32, 2)}, {"b", array(T::Float32, 1)}, {"c", scalar(T::Int32)}},
      {{"out", array(T::Unknown, 2)}, {"__out", scalar(T::Unknown)}},
      {{"i", T::Int64}, {"j", T::Int64}});
  EXPECT_EQ(t.locals.at("tmp"), T::Float32);
  EXPECT_EQ(t.locals.at("cnt"), T::Int64);
  EXPECT_EQ(t.outputs.at("out"), T::Float32);
  EXPECT_EQ(t.outputs.at("__out"), T::Int64);

  TypedProgram s = check_ok("v = inq.pop()\noutq.push(v * 2)\noutq.append(v)",
                            {{"inq", stream(T::Float64)}}, {{"outq", stream(T::Unknown)}});
  EXPECT_EQ(s.locals.at("v"), T::Float64);
  EXPECT_EQ(s.outputs.at("outq"), T::Float64);

  // Unknown input types propagate as Unknown and are not errors.
  TypedProgram u = check_ok("out = (aval * xval)", {{"aval", scalar(T::Unknown)}, {"xval", scalar(T::Unknown)}},
                            {{"out", scalar(T::Unknown)}});
  EXPECT_EQ(u.outputs.at("out"), T::Unknown);

  // An output, once assigned, may be read; an array output may be updated in place.
  check_ok("__out = 1\n__out = __out * 2", {}, {{"__out", scalar(T::Int32)}});
  check_ok("o[k] = o[k] + x", {{"x", scalar(T::Float64)}}, {{"o", array(T::Float64, 1)}}, {{"k", T::Int64}});
  check_ok("a = b = 1.5\npass", {}, {});
  check_ok("math.sin(x)", {{"x", scalar(T::Float64)}}, {});
}

TEST(TaskletTypecheck, Errors) {
  Conns in{{"x", scalar(T::Float64)}, {"a", array(T::Float64, 2)}, {"z", scalar(T::Complex128)},
           {"s", stream(T::Float64)}, {"n", scalar(T::Int32)}};
  Conns out{{"__out", scalar(T::Float64)}, {"o", array(T::Float64, 1)}, {"q", stream(T::Float64)}};
  Syms syms{{"N", T::Int64}, {"i", T::Int64}};
  check_error("__out = math.sinn(x)", in, out, syms, 1, 9, "unknown function 'math.sinn'");
  check_error("__out = x\nx = 2", in, out, syms, 2, 1, "cannot assign to input connector 'x'");
  check_error("y = __out + 1", in, out, syms, 1, 5, "'__out' is read before it is assigned");
  check_error("__out = foo", in, out, syms, 1, 9, "undefined name 'foo'");
  check_error("__out = a[i]", in, out, syms, 1, 9, "rank 2 but is indexed with 1 index");
  check_error("__out = a + 1", in, out, syms, 1, 9, "must be indexed");
  check_error("__out = x[i]", in, out, syms, 1, 9, "scalar and cannot be indexed");
  check_error("__out = a[i, 0:N]", in, out, syms, 1, 14, "slices are not supported");
  check_error("__out = a[i, x]", in, out, syms, 1, 14, "index must be an integer, got float64");
  check_error("__out = n & 1.5", in, out, syms, 1, 9, "operator '&' needs integer or bool operands");
  check_error("__out = ~x", in, out, syms, 1, 9, "operator '~'");
  check_error("__out = z < z", in, out, syms, 1, 9, "not defined for complex");
  check_error("__out = z // 2", in, out, syms, 1, 9, "not defined for complex");
  check_error("__out = math.floor(z)", in, out, syms, 1, 9, "does not accept complex");
  check_error("__out = math.sin(x, x)", in, out, syms, 1, 9, "takes 1 argument, got 2");
  check_error("__out = min(x)", in, out, syms, 1, 9, "takes at least 2 arguments, got 1");
  check_error("__out = math.sin(x=1)", in, out, syms, 1, 18, "keyword arguments are not supported");
  check_error("__out = math.foo", in, out, syms, 1, 9, "unknown name 'math.foo'");
  check_error("__out = math", in, out, syms, 1, 9, "module 'math' cannot be used as a value");
  check_error("__out = x.foo", in, out, syms, 1, 9, "unknown attribute 'foo'");
  check_error("if x > 0:\n    t = 1\n__out = t", in, out, syms, 3, 9, "'t' may be used before it is assigned");
  check_error("N = 1", in, out, syms, 1, 1, "cannot assign to symbol 'N'");
  check_error("o = 1.0", in, out, syms, 1, 1, "rank 1 and must be indexed");
  check_error("a[i, i] = 1.0", in, out, syms, 1, 1, "cannot assign to input connector 'a'");
  check_error("__out = s", in, out, syms, 1, 9, "input stream 's' is read with s.pop()");
  check_error("__out = s.push(x)", in, out, syms, 1, 9, "supports pop()");
  check_error("q = 1.0", in, out, syms, 1, 1, "q.push(value)");
  check_error("__out = q.push(x)", in, out, syms, 1, 9, "must be its own statement");
  check_error("__out = 1.0\nif x:\n    __out = int(z)", in, out, syms, 3, 13, "cannot convert a complex");
  check_error("__out = x\n__out += foo(x)", in, out, syms, 2, 10, "unknown function 'foo'");
}

TEST(TaskletTypecheck, InterstateExpressions) {
  Conns arrays{{"data", array(T::UInt8, 1)}, {"flag", scalar(T::Bool)}};
  Syms syms{{"i", T::Int64}, {"N", T::Int64}, {"crc", T::UInt16}};
  auto check = [&](const char* src) -> T {
    Result<ExprPtr> e = parse_expression(src);
    EXPECT_TRUE(e.ok()) << src;
    if (!e.ok()) return T::Unknown;
    Result<ExprPtr> t = typecheck_expression(*e.value(), arrays, syms);
    EXPECT_TRUE(t.ok()) << src << ": " << (t.ok() ? "" : t.error().message);
    return t.ok() ? t.value()->type : T::Unknown;
  };
  EXPECT_EQ(check("(not (i < N))"), T::Bool);
  EXPECT_EQ(check("(data[i])"), T::UInt8);
  EXPECT_EQ(check("(((crc) >> (1)))"), T::UInt16);
  EXPECT_EQ(check("(i + 1)"), T::Int64);
  EXPECT_EQ(check("flag"), T::Bool);
  EXPECT_EQ(check("1"), T::Int64);
  Result<ExprPtr> bad = parse_expression("data[j]");
  ASSERT_TRUE(bad.ok());
  Result<ExprPtr> t = typecheck_expression(*bad.value(), arrays, syms);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().column, 6);
}

TEST(TaskletLanguage, OnlyPythonIsCompiled) {
  EXPECT_TRUE(is_supported_language("Python"));
  EXPECT_FALSE(is_supported_language("CPP"));
  EXPECT_FALSE(is_supported_language("python"));
  EXPECT_FALSE(is_supported_language(""));
  Error e = unsupported_language_error("CPP", "sdfg \"gemm\" / state \"s0\" / node 4");
  EXPECT_EQ(e.code, Code::Unsupported);
  EXPECT_EQ(e.message.rfind("sdfg \"gemm\" / state \"s0\" / node 4: ", 0), 0u) << e.message;
  EXPECT_NE(e.message.find("'CPP'"), std::string::npos);
}

}  // namespace
}  // namespace dace::tasklet
