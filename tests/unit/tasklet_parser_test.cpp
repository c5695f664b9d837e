// Parser of the tasklet language: each construct's tree is checked node by node.
#include <gtest/gtest.h>

#include <cmath>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/typecheck.h"

namespace dace::tasklet {
namespace {

ExprPtr expr(std::string_view src) {
  Result<ExprPtr> r = parse_expression(src);
  EXPECT_TRUE(r.ok()) << src << ": " << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return nullptr;
  // Tests hold references into trees returned here; keep them alive for the whole run.
  static std::vector<ExprPtr> keep_alive;
  keep_alive.push_back(r.value());
  return r.value();
}

Program code(std::string_view src) {
  Result<Program> r = parse_code(src);
  EXPECT_TRUE(r.ok()) << src << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r.value()) : Program{};
}

void expect_name(const ExprPtr& e, const std::string& id) {
  ASSERT_TRUE(e);
  ASSERT_TRUE(e->is<Name>());
  EXPECT_EQ(e->as<Name>()->id, id);
}

void expect_int(const ExprPtr& e, uint64_t v) {
  ASSERT_TRUE(e);
  ASSERT_TRUE(e->is<Constant>());
  EXPECT_EQ(e->as<Constant>()->kind, ConstantKind::Int);
  EXPECT_EQ(e->as<Constant>()->int_value, v);
}

void expect_float(const ExprPtr& e, double v, ConstantKind kind = ConstantKind::Float) {
  ASSERT_TRUE(e);
  ASSERT_TRUE(e->is<Constant>());
  EXPECT_EQ(e->as<Constant>()->kind, kind);
  EXPECT_DOUBLE_EQ(e->as<Constant>()->value, v);
}

const BinOp& binop(const ExprPtr& e, BinOpKind op) {
  static const BinOp empty{BinOpKind::Add, nullptr, nullptr};
  EXPECT_TRUE(e && e->is<BinOp>());
  if (!e || !e->is<BinOp>()) return empty;
  EXPECT_EQ(e->as<BinOp>()->op, op);
  return *e->as<BinOp>();
}

void expect_error(std::string_view src, int line, int column, const std::string& fragment,
                  bool as_code = true) {
  Error err;
  if (as_code) {
    Result<Program> r = parse_code(src);
    ASSERT_FALSE(r.ok()) << src;
    err = r.error();
  } else {
    Result<ExprPtr> r = parse_expression(src);
    ASSERT_FALSE(r.ok()) << src;
    err = r.error();
  }
  EXPECT_EQ(err.code, Code::ParseError);
  EXPECT_EQ(err.line, line) << err.message;
  EXPECT_EQ(err.column, column) << err.message;
  std::string prefix = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
  EXPECT_EQ(err.message.rfind(prefix, 0), 0u) << err.message;
  EXPECT_NE(err.message.find(fragment), std::string::npos) << err.message;
}

TEST(TaskletParser, NamesAndLiterals) {
  expect_name(expr("__in1"), "__in1");
  expect_int(expr("42"), 42);
  expect_int(expr("0x1F"), 31);
  expect_int(expr("0o17"), 15);
  expect_int(expr("0b101"), 5);
  expect_int(expr("1_000"), 1000);
  expect_int(expr("0"), 0);
  expect_int(expr("00"), 0);
  expect_int(expr("18446744073709551615"), 18446744073709551615ull);
  expect_float(expr("0.2"), 0.2);
  expect_float(expr("1e-5"), 1e-5);
  expect_float(expr("1.5E+3"), 1500.0);
  expect_float(expr(".5"), 0.5);
  expect_float(expr("3."), 3.0);
  expect_float(expr("1.e2"), 100.0);
  expect_float(expr("1j"), 1.0, ConstantKind::Complex);
  expect_float(expr("2.5J"), 2.5, ConstantKind::Complex);
  ExprPtr t = expr("True");
  ASSERT_TRUE(t && t->is<Constant>());
  EXPECT_EQ(t->as<Constant>()->kind, ConstantKind::Bool);
  EXPECT_TRUE(t->as<Constant>()->bool_value);
  ExprPtr f = expr("False");
  ASSERT_TRUE(f && f->is<Constant>());
  EXPECT_FALSE(f->as<Constant>()->bool_value);
  ExprPtr big = expr("1e999");
  ASSERT_TRUE(big && big->is<Constant>());
  EXPECT_TRUE(std::isinf(big->as<Constant>()->value));
}

TEST(TaskletParser, ArithmeticPrecedenceAndAssociativity) {
  // a + b * c  ->  Add(a, Mult(b, c))
  ExprPtr e = expr("a + b * c");
  const BinOp& add = binop(e, BinOpKind::Add);
  expect_name(add.left, "a");
  const BinOp& mul = binop(add.right, BinOpKind::Mult);
  expect_name(mul.left, "b");
  expect_name(mul.right, "c");
  // a - b - c  ->  Sub(Sub(a, b), c)
  const BinOp& s = binop(expr("a - b - c"), BinOpKind::Sub);
  expect_name(s.right, "c");
  const BinOp& s2 = binop(s.left, BinOpKind::Sub);
  expect_name(s2.left, "a");
  expect_name(s2.right, "b");
  // a ** b ** c  ->  Pow(a, Pow(b, c))
  const BinOp& p = binop(expr("a ** b ** c"), BinOpKind::Pow);
  expect_name(p.left, "a");
  binop(p.right, BinOpKind::Pow);
  // -a ** 2  ->  Minus(Pow(a, 2))
  ExprPtr m = expr("-a ** 2");
  ASSERT_TRUE(m->is<UnaryOp>());
  EXPECT_EQ(m->as<UnaryOp>()->op, UnaryOpKind::Minus);
  binop(m->as<UnaryOp>()->operand, BinOpKind::Pow);
  // 2 ** -1  ->  Pow(2, Minus(1))
  const BinOp& p2 = binop(expr("2 ** -1"), BinOpKind::Pow);
  ASSERT_TRUE(p2.right->is<UnaryOp>());
  // // and % at the level of *
  const BinOp& fd = binop(expr("a // b % c"), BinOpKind::Mod);
  binop(fd.left, BinOpKind::FloorDiv);
  binop(expr("a / b"), BinOpKind::Div);
  // Parentheses override: (a + b) * c
  const BinOp& pm = binop(expr("(a + b) * c"), BinOpKind::Mult);
  binop(pm.left, BinOpKind::Add);
}

TEST(TaskletParser, BitOperations) {
  // a | b ^ c & d << 1  ->  Or(a, Xor(b, And(c, LShift(d, 1))))
  const BinOp& o = binop(expr("a | b ^ c & d << 1"), BinOpKind::BitOr);
  const BinOp& x = binop(o.right, BinOpKind::BitXor);
  const BinOp& a = binop(x.right, BinOpKind::BitAnd);
  const BinOp& l = binop(a.right, BinOpKind::LShift);
  expect_int(l.right, 1);
  binop(expr("a >> 8"), BinOpKind::RShift);
  ExprPtr inv = expr("(~ crc)");
  ASSERT_TRUE(inv->is<UnaryOp>());
  EXPECT_EQ(inv->as<UnaryOp>()->op, UnaryOpKind::Invert);
  expect_name(inv->as<UnaryOp>()->operand, "crc");
  // Shifts bind looser than +: a << b + 1  ->  LShift(a, Add(b, 1))
  const BinOp& sh = binop(expr("a << b + 1"), BinOpKind::LShift);
  binop(sh.right, BinOpKind::Add);
}

TEST(TaskletParser, ComparisonsAndBooleans) {
  ExprPtr c = expr("a < b <= c");
  ASSERT_TRUE(c->is<Compare>());
  const Compare& cmp = *c->as<Compare>();
  expect_name(cmp.left, "a");
  ASSERT_EQ(cmp.ops.size(), 2u);
  EXPECT_EQ(cmp.ops[0], CmpOpKind::Lt);
  EXPECT_EQ(cmp.ops[1], CmpOpKind::LtE);
  expect_name(cmp.comparators[0], "b");
  expect_name(cmp.comparators[1], "c");
  for (auto [src, op] : std::vector<std::pair<std::string, CmpOpKind>>{
           {"a == b", CmpOpKind::Eq}, {"a != b", CmpOpKind::NotEq}, {"a > b", CmpOpKind::Gt},
           {"a >= b", CmpOpKind::GtE}}) {
    ExprPtr e = expr(src);
    ASSERT_TRUE(e->is<Compare>()) << src;
    EXPECT_EQ(e->as<Compare>()->ops.at(0), op) << src;
  }
  // a or b and not c  ->  Or(a, And(b, Not(c)))
  ExprPtr b = expr("a or b and not c");
  ASSERT_TRUE(b->is<BoolOp>());
  EXPECT_EQ(b->as<BoolOp>()->op, BoolOpKind::Or);
  ASSERT_EQ(b->as<BoolOp>()->values.size(), 2u);
  const ExprPtr& andv = b->as<BoolOp>()->values[1];
  ASSERT_TRUE(andv->is<BoolOp>());
  EXPECT_EQ(andv->as<BoolOp>()->op, BoolOpKind::And);
  const ExprPtr& notv = andv->as<BoolOp>()->values[1];
  ASSERT_TRUE(notv->is<UnaryOp>());
  EXPECT_EQ(notv->as<UnaryOp>()->op, UnaryOpKind::Not);
  // Flattened like Python: a and b and c has three values.
  EXPECT_EQ(expr("a and b and c")->as<BoolOp>()->values.size(), 3u);
  // not binds looser than comparison: not a < b  ->  Not(Compare)
  ExprPtr n = expr("(not (i < N))");
  ASSERT_TRUE(n->is<UnaryOp>());
  EXPECT_TRUE(n->as<UnaryOp>()->operand->is<Compare>());
}

TEST(TaskletParser, Ternary) {
  ExprPtr e = expr("x if c else y + 1");
  ASSERT_TRUE(e->is<IfExp>());
  expect_name(e->as<IfExp>()->body, "x");
  expect_name(e->as<IfExp>()->test, "c");
  binop(e->as<IfExp>()->orelse, BinOpKind::Add);
  // Right-nested: a if p else b if q else c
  ExprPtr n = expr("a if p else b if q else c");
  ASSERT_TRUE(n->as<IfExp>()->orelse->is<IfExp>());
}

TEST(TaskletParser, CallsAttributesSubscripts) {
  ExprPtr c = expr("math.sin(x)");
  ASSERT_TRUE(c->is<Call>());
  EXPECT_EQ(c->as<Call>()->func, "math.sin");
  ASSERT_EQ(c->as<Call>()->args.size(), 1u);
  expect_name(c->as<Call>()->args[0], "x");
  EXPECT_EQ(expr("dace.math.exp(x)")->as<Call>()->func, "dace.math.exp");
  ExprPtr m = expr("max(a, b, c)");
  EXPECT_EQ(m->as<Call>()->args.size(), 3u);
  ExprPtr k = expr("np.sum(a, axis=0)");
  ASSERT_EQ(k->as<Call>()->keywords.size(), 1u);
  EXPECT_EQ(k->as<Call>()->keywords[0].name, "axis");
  expect_int(k->as<Call>()->keywords[0].value, 0);
  EXPECT_TRUE(expr("s.pop()")->as<Call>()->args.empty());
  EXPECT_EQ(expr("f(x,)")->as<Call>()->args.size(), 1u);

  ExprPtr pi = expr("math.pi");
  ASSERT_TRUE(pi->is<Attribute>());
  EXPECT_EQ(pi->as<Attribute>()->attr, "pi");
  expect_name(pi->as<Attribute>()->value, "math");
  EXPECT_EQ(dotted_name(*pi).value_or(""), "math.pi");

  ExprPtr s = expr("a[i, j + 1]");
  ASSERT_TRUE(s->is<Subscript>());
  expect_name(s->as<Subscript>()->value, "a");
  ASSERT_EQ(s->as<Subscript>()->indices.size(), 2u);
  expect_name(s->as<Subscript>()->indices[0], "i");
  binop(s->as<Subscript>()->indices[1], BinOpKind::Add);

  ExprPtr sl = expr("a[0:N, ::2, :]");
  const auto& idx = sl->as<Subscript>()->indices;
  ASSERT_EQ(idx.size(), 3u);
  ASSERT_TRUE(idx[0]->is<Slice>());
  expect_int(idx[0]->as<Slice>()->lower, 0);
  expect_name(idx[0]->as<Slice>()->upper, "N");
  EXPECT_FALSE(idx[0]->as<Slice>()->step);
  ASSERT_TRUE(idx[1]->is<Slice>());
  EXPECT_FALSE(idx[1]->as<Slice>()->lower);
  EXPECT_FALSE(idx[1]->as<Slice>()->upper);
  expect_int(idx[1]->as<Slice>()->step, 2);
  ASSERT_TRUE(idx[2]->is<Slice>());
  EXPECT_FALSE(idx[2]->as<Slice>()->lower);

  ExprPtr z = expr("z.real");
  EXPECT_EQ(z->as<Attribute>()->attr, "real");
  ExprPtr nested = expr("a[b[i]]");
  EXPECT_TRUE(nested->as<Subscript>()->indices[0]->is<Subscript>());
}

TEST(TaskletParser, SourceLocations) {
  ExprPtr e = expr("  a +  math.sin(b)");
  EXPECT_EQ(e->loc.line, 1);
  EXPECT_EQ(e->loc.column, 3);
  const BinOp& b = binop(e, BinOpKind::Add);
  EXPECT_EQ(b.right->loc.column, 8);
  EXPECT_EQ(b.right->as<Call>()->args[0]->loc.column, 17);
  Program p = code("x = 1\nif c:\n    y = 2\n");
  ASSERT_EQ(p.body.size(), 2u);
  EXPECT_EQ(p.body[1]->loc.line, 2);
  const If* i = p.body[1]->as<If>();
  ASSERT_TRUE(i);
  EXPECT_EQ(i->body[0]->loc.line, 3);
  EXPECT_EQ(i->body[0]->loc.column, 5);
  EXPECT_EQ(i->body[0]->as<Assign>()->value->loc.column, 9);
}

TEST(TaskletParser, Statements) {
  Program p = code("__out = (__in1 * __in2)");
  ASSERT_EQ(p.body.size(), 1u);
  const Assign* a = p.body[0]->as<Assign>();
  ASSERT_TRUE(a);
  ASSERT_EQ(a->targets.size(), 1u);
  expect_name(a->targets[0], "__out");
  binop(a->value, BinOpKind::Mult);

  Program m = code("a = b = 0");
  ASSERT_EQ(m.body[0]->as<Assign>()->targets.size(), 2u);
  expect_name(m.body[0]->as<Assign>()->targets[1], "b");

  Program s = code("out[i, j] = a[i] * 2");
  const ExprPtr& tgt = s.body[0]->as<Assign>()->targets[0];
  ASSERT_TRUE(tgt->is<Subscript>());
  EXPECT_EQ(tgt->as<Subscript>()->indices.size(), 2u);

  Program aug = code("x += 1\ny //= 2\nz **= 3\nw ^= v\n");
  ASSERT_EQ(aug.body.size(), 4u);
  EXPECT_EQ(aug.body[0]->as<AugAssign>()->op, BinOpKind::Add);
  EXPECT_EQ(aug.body[1]->as<AugAssign>()->op, BinOpKind::FloorDiv);
  EXPECT_EQ(aug.body[2]->as<AugAssign>()->op, BinOpKind::Pow);
  EXPECT_EQ(aug.body[3]->as<AugAssign>()->op, BinOpKind::BitXor);
  expect_name(aug.body[3]->as<AugAssign>()->target, "w");

  Program st = code("s.push(x)\ns.append(y)\nv = s.pop()\npass");
  ASSERT_EQ(st.body.size(), 4u);
  ASSERT_TRUE(st.body[0]->is<ExprStmt>());
  EXPECT_EQ(st.body[0]->as<ExprStmt>()->value->as<Call>()->func, "s.push");
  EXPECT_EQ(st.body[1]->as<ExprStmt>()->value->as<Call>()->func, "s.append");
  EXPECT_EQ(st.body[2]->as<Assign>()->value->as<Call>()->func, "s.pop");
  EXPECT_TRUE(st.body[3]->is<Pass>());

  Program semi = code("a = 1; b = 2;\n# comment\n\n   \nc = 3  # trailing");
  ASSERT_EQ(semi.body.size(), 3u);
  expect_name(semi.body[2]->as<Assign>()->targets[0], "c");

  EXPECT_TRUE(code("").body.empty());
  EXPECT_TRUE(code("# only a comment\n\n").body.empty());
  EXPECT_EQ(code("a = 1\r\nb = 2\r\n").body.size(), 2u);
  EXPECT_EQ(code("a = (1 +\n     2)\nb = 3 + \\\n  4\n").body.size(), 2u);
}

TEST(TaskletParser, IfElifElse) {
  Program p = code(
      "if a > 0:\n"
      "    x = 1\n"
      "    y = 2\n"
      "elif a < 0:\n"
      "    x = -1\n"
      "else:\n"
      "    if b:\n"
      "        x = 0\n"
      "    z = 3\n"
      "w = 4\n");
  ASSERT_EQ(p.body.size(), 2u);
  const If* i = p.body[0]->as<If>();
  ASSERT_TRUE(i);
  EXPECT_TRUE(i->test->is<Compare>());
  EXPECT_EQ(i->body.size(), 2u);
  ASSERT_EQ(i->orelse.size(), 1u);
  const If* elif = i->orelse[0]->as<If>();
  ASSERT_TRUE(elif);
  EXPECT_EQ(elif->body.size(), 1u);
  ASSERT_EQ(elif->orelse.size(), 2u);
  EXPECT_TRUE(elif->orelse[0]->is<If>());
  EXPECT_TRUE(elif->orelse[1]->is<Assign>());
  EXPECT_TRUE(p.body[1]->is<Assign>());

  Program inl = code("if c: x = 1; y = 2\nelse: x = 0");
  const If* j = inl.body[0]->as<If>();
  ASSERT_TRUE(j);
  EXPECT_EQ(j->body.size(), 2u);
  EXPECT_EQ(j->orelse.size(), 1u);

  Program tabs = code("if c:\n\tx = 1\n\tif d:\n\t\ty = 2\n");
  EXPECT_EQ(tabs.body[0]->as<If>()->body.size(), 2u);

  // DaCe's own tasklet from the mandelbrot corpus.
  Program dace = code("if __in_cond:\n    __out = n");
  ASSERT_TRUE(dace.body[0]->is<If>());

  // Code indented as a whole is accepted.
  Program indented = code("    a = 1\n    b = 2\n");
  EXPECT_EQ(indented.body.size(), 2u);
}

TEST(TaskletParser, Assignment) {
  Result<Assignment> a = parse_assignment("i = (i + 1)");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->target, "i");
  EXPECT_EQ(a->target_loc.column, 1);
  const BinOp& b = binop(a->value, BinOpKind::Add);
  expect_name(b.left, "i");
  expect_int(b.right, 1);
  EXPECT_FALSE(parse_assignment("i += 1").ok());
  EXPECT_FALSE(parse_assignment("a[0] = 1").ok());
  EXPECT_FALSE(parse_assignment("i = 0; j = 1").ok());
  Result<Assignment> bad = parse_assignment("i = ");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().column, 5);
}

TEST(TaskletParser, Errors) {
  expect_error("a +", 1, 4, "unexpected end of line");
  expect_error("x = (a + b", 1, 5, "'(' was never closed");
  expect_error("x = a + b)", 1, 10, "unmatched ')'");
  expect_error("x = (a]", 1, 7, "does not match");
  expect_error("x = 1\n  y = 2", 2, 3, "unexpected indent");
  expect_error("if a:\nx = 1", 2, 1, "expected an indented block");
  expect_error("if a:\n    x = 1\n  y = 2", 3, 3, "unindent does not match");
  expect_error("if a\n    x = 1", 1, 5, "expected ':'");
  expect_error("else:\n    x = 1", 1, 1, "without a matching 'if'");
  expect_error("for i in x:\n    pass", 1, 1, "'for' is not supported");
  expect_error("x = 'abc'", 1, 5, "string literals");
  expect_error("x = a $ b", 1, 7, "unexpected character '$'");
  expect_error("x = 1\ny = \xc3\xa9", 2, 5, "non-ASCII");
  expect_error(std::string_view("x = \0", 5), 1, 5, "control character 0x00");
  expect_error("x = 01", 1, 5, "leading zeros");
  expect_error("x = 1abc", 1, 5, "invalid numeric literal");
  expect_error("x = 18446744073709551616", 1, 5, "does not fit");
  expect_error("x = 1 +\n", 1, 8, "unexpected end of line");
  expect_error("a, b = 1, 2", 1, 2, "tuples are not supported");
  expect_error("f(x) = 1", 1, 1, "cannot assign");
  expect_error("x = a if b", 1, 11, "expected 'else'");
  expect_error("x = a[]", 1, 7, "empty subscript");
  expect_error("x = a[0](b)", 1, 9, "only named functions");
  expect_error("x = [1, 2]", 1, 5, "lists are not supported");
  expect_error("x = a @ b", 1, 7, "'@'");
  expect_error("x = a in b", 1, 7, "not supported");
  expect_error("x = f(a=1, b)", 1, 12, "positional argument follows keyword");
  expect_error("if a:\n\tx = 1\n        y = 2", 3, 9, "inconsistent use of tabs");
  expect_error("a b", 1, 3, "unexpected 'b'", false);
  expect_error("", 1, 1, "expected an expression", false);
  expect_error("x = 1", 1, 3, "unexpected '='", false);
  expect_error("a\nb", 2, 1, "unexpected 'b'", false);
  expect_error("x = 1e", 1, 5, "invalid numeric literal");
}

TEST(TaskletParser, DeepNestingIsAnErrorNotACrash) {
  std::string deep(150, '(');
  deep += "x";
  deep += std::string(150, ')');
  Result<ExprPtr> r = parse_expression(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("nested too deeply"), std::string::npos);

  std::string ok(90, '(');
  ok += "x";
  ok += std::string(90, ')');
  EXPECT_TRUE(parse_expression(ok).ok());

  EXPECT_FALSE(parse_expression(std::string(5000, '-') + "x").ok());
  EXPECT_FALSE(parse_expression(std::string(5000, '~') + "x").ok());
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "not ";
  EXPECT_FALSE(parse_expression(nots + "x").ok());
  std::string pow = "x";
  for (int i = 0; i < 5000; ++i) pow += " ** x";
  EXPECT_FALSE(parse_expression(pow).ok());
  std::string calls;
  for (int i = 0; i < 5000; ++i) calls += "f(";
  EXPECT_FALSE(parse_expression(calls + "x" + std::string(5000, ')')).ok());
  std::string subs;
  for (int i = 0; i < 5000; ++i) subs += "a[";
  EXPECT_FALSE(parse_expression(subs + "0" + std::string(5000, ']')).ok());
  std::string ifs;
  for (int i = 0; i < 5000; ++i) ifs += "a if b else ";
  EXPECT_FALSE(parse_expression(ifs + "c").ok());

  // A long flat chain is a deep tree: bounded by the tree-height limit.
  std::string chain = "x";
  for (int i = 0; i < 100000; ++i) chain += " + x";
  Result<ExprPtr> c = parse_expression(chain);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("too large"), std::string::npos);
  std::string shorter = "x";
  for (int i = 0; i < 500; ++i) shorter += " + x";
  EXPECT_TRUE(parse_expression(shorter).ok());

  // Deeply nested blocks.
  std::string blocks;
  for (int i = 0; i < 150; ++i) blocks += std::string(static_cast<size_t>(i), ' ') + "if a:\n";
  blocks += std::string(150, ' ') + "pass\n";
  Result<Program> b = parse_code(blocks);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("nested too deeply"), std::string::npos);
}

TEST(TaskletParser, GarbageNeverCrashes) {
  // Deterministic pseudo-random byte strings and token soups: every one returns.
  const char* pieces[] = {"(", ")", "[", "]", "a", "1", "+", "if ", "else ", ":", "\n", "    ",
                          "\t", "=", ",", ".", "not ", "**", "1e", "0x", "j", "#", "\\", ";",
                          "\r", "\0", "\xff", "elif ", "pass", "'"};
  uint64_t state = 12345;
  for (int n = 0; n < 3000; ++n) {
    std::string s;
    int len = static_cast<int>(state % 40);
    for (int i = 0; i < len; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const char* p = pieces[(state >> 33) % (sizeof(pieces) / sizeof(pieces[0]))];
      s += p[0] == '\0' ? std::string(1, '\0') : std::string(p);
    }
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    Result<Program> r = parse_code(s);
    if (r.ok()) {
      // Whatever parses also prints back to an equal tree and type-checks without crashing.
      Result<Program> again = parse_code(to_source(r.value()));
      ASSERT_TRUE(again.ok()) << to_source(r.value());
      EXPECT_TRUE(equal(r.value(), again.value()));
      Result<TypedProgram> t = typecheck(r.value(), {{"a", ConnectorInfo{ScalarType::Int32, 0, false}}}, {}, {});
      if (!t.ok()) {
        EXPECT_GE(t.error().line, 1);
      }
    } else {
      EXPECT_EQ(r.error().code, Code::ParseError);
      EXPECT_GE(r.error().line, 1);
      EXPECT_GE(r.error().column, 1);
    }
    Result<ExprPtr> e = parse_expression(s);
    if (!e.ok()) {
      EXPECT_GE(e.error().line, 1);
    }
  }
  std::string huge(1 << 20, 'a');
  EXPECT_TRUE(parse_expression(huge).ok());
}

}  // namespace
}  // namespace dace::tasklet
