#include "ir/tasklet/parser.h"

#include <utility>

#include "ir/tasklet/lexer.h"

namespace dace::tasklet {

namespace {

// Python keywords outside the subset, reported as unsupported rather than as odd names.
constexpr std::string_view kUnsupportedKeywords[] = {
    "for",   "while",  "def",      "return", "lambda", "import", "from",  "class", "with",
    "try",   "except", "finally",  "raise",  "global", "nonlocal", "del", "yield", "assert",
    "break", "continue", "async",  "await",  "in",     "is",     "as",    "None"};

bool is_unsupported_keyword(std::string_view s) {
  for (std::string_view k : kUnsupportedKeywords)
    if (s == k) return true;
  return false;
}

bool is_reserved(std::string_view s) {
  return s == "if" || s == "elif" || s == "else" || s == "and" || s == "or" || s == "not" ||
         s == "True" || s == "False" || s == "pass" || is_unsupported_keyword(s);
}

struct AugOp {
  std::string_view text;
  BinOpKind op;
};
constexpr AugOp kAugOps[] = {
    {"+=", BinOpKind::Add},      {"-=", BinOpKind::Sub},     {"*=", BinOpKind::Mult},
    {"/=", BinOpKind::Div},      {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
    {"**=", BinOpKind::Pow},     {"<<=", BinOpKind::LShift}, {">>=", BinOpKind::RShift},
    {"&=", BinOpKind::BitAnd},   {"|=", BinOpKind::BitOr},   {"^=", BinOpKind::BitXor}};

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : toks_(std::move(tokens)) {}

  Result<Program> program() {
    Program p;
    skip_newlines();
    // Code indented as a whole (as when cut out of a larger file) is accepted: the first
    // line's indentation becomes the base level.
    bool base_indented = skip_base_indent();
    while (!at_end()) {
      if (peek().kind == TokenKind::Indent) return syntax_error(peek().loc, "unexpected indent");
      if (base_indented && peek().kind == TokenKind::Dedent) {
        base_indented = false;
        next();
        continue;
      }
      DACE_TRY(statement(p.body));
      skip_newlines();
    }
    return p;
  }

  Result<ExprPtr> lone_expression() {
    skip_newlines();
    skip_base_indent();
    if (at_end()) return syntax_error(peek().loc, "expected an expression");
    Result<ExprPtr> e = test();
    if (!e) return e;
    DACE_TRY(expect_line_end_then_end());
    return e;
  }

  Result<Assignment> lone_assignment() {
    skip_newlines();
    skip_base_indent();
    const Token& t = peek();
    if (t.kind != TokenKind::Name || is_reserved(t.text))
      return syntax_error(t.loc, "expected 'name = expression'");
    Assignment a;
    a.target = t.text;
    a.target_loc = t.loc;
    next();
    if (!is_op("=")) return syntax_error(peek().loc, "expected '=' after '" + a.target + "'");
    next();
    Result<ExprPtr> v = test();
    if (!v) return v.take_error();
    a.value = std::move(v.value());
    DACE_TRY(expect_line_end_then_end());
    return a;
  }

 private:
  // Counts recursion through the grammar so that deep nesting is an error, not a crash.
  class DepthGuard {
   public:
    explicit DepthGuard(int& depth) : depth_(depth) { ++depth_; }
    ~DepthGuard() { --depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
   private:
    int& depth_;
  };

  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ + 1 < toks_.size()) pos_++;
    return t;
  }
  bool at_end() const { return peek().kind == TokenKind::End; }
  bool is_op(std::string_view s) const {
    return peek().kind == TokenKind::Op && peek().text == s;
  }
  bool is_name(std::string_view s) const {
    return peek().kind == TokenKind::Name && peek().text == s;
  }
  void skip_newlines() {
    while (peek().kind == TokenKind::Newline) next();
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case TokenKind::Name:
      case TokenKind::Number:
      case TokenKind::Op: return "'" + t.text + "'";
      case TokenKind::Newline: return "end of line";
      case TokenKind::Indent: return "indent";
      case TokenKind::Dedent: return "dedent";
      case TokenKind::End: return "end of input";
    }
    return "token";
  }

  // Error paths stay out of line so the recursive frames stay small.
  [[gnu::noinline]] Error unexpected(const Token& t, const std::string& context) {
    if (t.kind == TokenKind::Name && is_unsupported_keyword(t.text))
      return syntax_error(t.loc, "'" + t.text + "' is not supported in tasklet code");
    if (t.kind == TokenKind::Indent) return syntax_error(t.loc, "unexpected indent");
    return syntax_error(t.loc, "unexpected " + describe(t) + (context.empty() ? "" : ", " + context));
  }

  [[gnu::noinline]] Status expect_op(std::string_view s, const std::string& context) {
    if (!is_op(s)) return unexpected(peek(), "expected '" + std::string(s) + "' " + context);
    next();
    return Status::success();
  }

  bool skip_base_indent() {
    if (peek().kind != TokenKind::Indent) return false;
    next();
    return true;
  }

  Status expect_line_end_then_end() {
    skip_newlines();
    while (peek().kind == TokenKind::Dedent) next();
    skip_newlines();
    if (!at_end()) return unexpected(peek(), "expected end of expression");
    return Status::success();
  }

  [[gnu::noinline]] Status expect_close(SourceLoc open) {
    return expect_op(")", "to close '(' at line " + std::to_string(open.line) + ", column " +
                              std::to_string(open.column));
  }

  [[gnu::noinline]] Status check_nesting(SourceLoc loc) {
    if (depth_ > kMaxNesting)
      return syntax_error(loc, "expression nested too deeply (limit " + std::to_string(kMaxNesting) + ")");
    return Status::success();
  }

  [[gnu::noinline]] Result<ExprPtr> build(SourceLoc loc, ExprNode node) {
    ExprPtr e = make_expr(loc, std::move(node));
    if (e->height > kMaxExprHeight)
      return syntax_error(loc, "expression too large (tree height above " +
                                   std::to_string(kMaxExprHeight) + ")");
    return e;
  }

  // ---- statements -------------------------------------------------------------------------

  Status statement(std::vector<StmtPtr>& out) {
    if (is_name("if")) return if_statement(out);
    if (is_name("elif") || is_name("else"))
      return syntax_error(peek().loc, "'" + peek().text + "' without a matching 'if'");
    return simple_statements(out);
  }

  Status simple_statements(std::vector<StmtPtr>& out) {
    while (true) {
      DACE_TRY(simple_statement(out));
      if (!is_op(";")) break;
      next();
      if (peek().kind == TokenKind::Newline || at_end()) break;
    }
    if (peek().kind == TokenKind::Newline) {
      next();
      return Status::success();
    }
    if (at_end()) return Status::success();
    return unexpected(peek(), "expected end of statement");
  }

  Status simple_statement(std::vector<StmtPtr>& out) {
    const Token& first = peek();
    SourceLoc loc = first.loc;
    if (is_name("pass")) {
      next();
      out.push_back(make_stmt(loc, Pass{}));
      return Status::success();
    }
    if (is_name("if")) return syntax_error(loc, "'if' block must start on its own line");
    Result<ExprPtr> lhs = test();
    if (!lhs) return lhs.take_error();
    if (is_op(",")) return syntax_error(peek().loc, "tuples are not supported in tasklet code");
    for (const AugOp& a : kAugOps) {
      if (!is_op(a.text)) continue;
      next();
      DACE_TRY(check_target(*lhs.value()));
      Result<ExprPtr> rhs = test();
      if (!rhs) return rhs.take_error();
      if (is_op(",")) return syntax_error(peek().loc, "tuples are not supported in tasklet code");
      out.push_back(make_stmt(loc, AugAssign{std::move(lhs.value()), a.op, std::move(rhs.value())}));
      return Status::success();
    }
    if (!is_op("=")) {
      if (split_output_call(loc, lhs.value(), out)) return Status::success();
      out.push_back(make_stmt(loc, ExprStmt{std::move(lhs.value())}));
      return Status::success();
    }
    Assign assign;
    ExprPtr value = std::move(lhs.value());
    while (is_op("=")) {
      next();
      DACE_TRY(check_target(*value));
      assign.targets.push_back(std::move(value));
      Result<ExprPtr> rhs = test();
      if (!rhs) return rhs.take_error();
      if (is_op(",")) return syntax_error(peek().loc, "tuples are not supported in tasklet code");
      value = std::move(rhs.value());
    }
    assign.value = std::move(value);
    out.push_back(make_stmt(loc, std::move(assign)));
    return Status::success();
  }

  // DaCe's runtime functions that return through output arguments, as its NumPy frontend
  // writes them for two-result ufuncs: `py_divmod(a, b, q, r)`, `np_modf(x, fractional,
  // integral)`, `np_frexp(x, mantissa, exponent)`. Each becomes one assignment per output
  // of a single-result built-in, so the rest of the pipeline sees ordinary code.
  static bool split_output_call(SourceLoc loc, const ExprPtr& e, std::vector<StmtPtr>& out) {
    struct Split {
      std::string_view func;
      size_t inputs;
      std::string_view parts[2];
    };
    static constexpr Split kSplits[] = {
        {"py_divmod", 2, {"py_floor", "py_mod"}},
        // NumPy's order (fractional, integral), which DaCe's frontend binds the outputs in;
        // DaCe 1.0.2's runtime writes them the other way round (swapped results).
        {"np_modf", 1, {"np_modf_fractional", "np_modf_integral"}},
        {"np_frexp", 1, {"np_frexp_mantissa", "np_frexp_exponent"}},
    };
    const Call* c = e->as<Call>();
    if (!c || !c->keywords.empty()) return false;
    for (const Split& sp : kSplits) {
      if (c->func != sp.func || c->args.size() != sp.inputs + 2) continue;
      for (size_t k = 0; k < 2; ++k)
        if (!c->args[sp.inputs + k]->is<Name>()) return false;
      std::vector<ExprPtr> inputs(c->args.begin(), c->args.begin() + static_cast<std::ptrdiff_t>(sp.inputs));
      for (size_t k = 0; k < 2; ++k) {
        Assign a;
        a.targets.push_back(c->args[sp.inputs + k]);
        a.value = make_expr(e->loc, Call{std::string(sp.parts[k]), inputs, {}});
        out.push_back(make_stmt(loc, std::move(a)));
      }
      return true;
    }
    return false;
  }

  // Targets are names or subscripts of names (`a[i, j] = ...`), as DaCe writes them.
  static Status check_target(const Expr& e) {
    if (e.is<Name>()) return Status::success();
    if (const Subscript* s = e.as<Subscript>()) {
      if (s->value && s->value->is<Name>()) return Status::success();
    }
    return syntax_error(e.loc, "cannot assign to this expression");
  }

  Status if_statement(std::vector<StmtPtr>& out) {
    if (block_depth_ >= kMaxBlockNesting)
      return syntax_error(peek().loc, "blocks nested too deeply (limit " +
                                          std::to_string(kMaxBlockNesting) + ")");
    ++block_depth_;
    Result<StmtPtr> s = if_chain();
    --block_depth_;
    if (!s) return s.take_error();
    out.push_back(std::move(s.value()));
    return Status::success();
  }

  // Parses `if`/`elif` (the current token) with its suite and any elif/else that follow.
  Result<StmtPtr> if_chain() {
    SourceLoc loc = next().loc;
    Result<ExprPtr> cond = test();
    if (!cond) return cond.take_error();
    DACE_TRY(expect_op(":", "after the condition"));
    If node;
    node.test = std::move(cond.value());
    DACE_TRY(suite(node.body));
    if (is_name("elif")) {
      Result<StmtPtr> rest = if_chain();
      if (!rest) return rest;
      node.orelse.push_back(std::move(rest.value()));
    } else if (is_name("else")) {
      next();
      DACE_TRY(expect_op(":", "after 'else'"));
      DACE_TRY(suite(node.orelse));
    }
    return make_stmt(loc, std::move(node));
  }

  Status suite(std::vector<StmtPtr>& out) {
    if (peek().kind != TokenKind::Newline) return simple_statements(out);
    next();
    if (peek().kind != TokenKind::Indent)
      return syntax_error(peek().loc, "expected an indented block");
    next();
    while (peek().kind != TokenKind::Dedent && !at_end()) {
      skip_newlines();
      if (peek().kind == TokenKind::Dedent || at_end()) break;
      if (peek().kind == TokenKind::Indent) return syntax_error(peek().loc, "unexpected indent");
      DACE_TRY(statement(out));
    }
    if (peek().kind == TokenKind::Dedent) next();
    return Status::success();
  }

  // ---- expressions (Python's precedence, lowest first) -----------------------------------

  Result<ExprPtr> test() {
    DepthGuard g(depth_);
    DACE_TRY(check_nesting(peek().loc));
    SourceLoc loc = peek().loc;
    Result<ExprPtr> body = or_test();
    if (!body || !is_name("if")) return body;
    next();
    Result<ExprPtr> cond = or_test();
    if (!cond) return cond;
    if (!is_name("else")) return unexpected(peek(), "expected 'else' in conditional expression");
    next();
    Result<ExprPtr> orelse = test();
    if (!orelse) return orelse;
    return build(loc, IfExp{std::move(cond.value()), std::move(body.value()), std::move(orelse.value())});
  }

  Result<ExprPtr> bool_chain(BoolOpKind kind) {
    const char* word = op_text(kind);
    SourceLoc loc = peek().loc;
    Result<ExprPtr> first = kind == BoolOpKind::Or ? bool_chain(BoolOpKind::And) : not_test();
    if (!first || !is_name(word)) return first;
    BoolOp node{kind, {std::move(first.value())}};
    while (is_name(word)) {
      next();
      Result<ExprPtr> v = kind == BoolOpKind::Or ? bool_chain(BoolOpKind::And) : not_test();
      if (!v) return v;
      node.values.push_back(std::move(v.value()));
    }
    return build(loc, std::move(node));
  }

  Result<ExprPtr> or_test() { return bool_chain(BoolOpKind::Or); }

  Result<ExprPtr> not_test() {
    if (!is_name("not")) return comparison();
    DepthGuard g(depth_);
    DACE_TRY(check_nesting(peek().loc));
    SourceLoc loc = next().loc;
    Result<ExprPtr> operand = not_test();
    if (!operand) return operand;
    return build(loc, UnaryOp{UnaryOpKind::Not, std::move(operand.value())});
  }

  std::optional<CmpOpKind> comparison_op() const {
    if (peek().kind == TokenKind::Name && (peek().text == "in" || peek().text == "is"))
      return std::nullopt;
    if (peek().kind != TokenKind::Op) return std::nullopt;
    const std::string& t = peek().text;
    if (t == "==") return CmpOpKind::Eq;
    if (t == "!=") return CmpOpKind::NotEq;
    if (t == "<") return CmpOpKind::Lt;
    if (t == "<=") return CmpOpKind::LtE;
    if (t == ">") return CmpOpKind::Gt;
    if (t == ">=") return CmpOpKind::GtE;
    return std::nullopt;
  }

  Result<ExprPtr> comparison() {
    SourceLoc loc = peek().loc;
    Result<ExprPtr> left = binary(1);
    if (!left) return left;
    if (is_name("in") || is_name("is") || (is_name("not") && peek(1).kind == TokenKind::Name && peek(1).text == "in"))
      return syntax_error(peek().loc, "'" + peek().text + "' comparisons are not supported in tasklet code");
    std::optional<CmpOpKind> op = comparison_op();
    if (!op) return left;
    Compare node{std::move(left.value()), {}, {}};
    while ((op = comparison_op())) {
      next();
      Result<ExprPtr> right = binary(1);
      if (!right) return right;
      node.ops.push_back(*op);
      node.comparators.push_back(std::move(right.value()));
    }
    return build(loc, std::move(node));
  }

  // Binding strength of the left-associative binary operators: `|` (1) up to `*` (6).
  std::optional<std::pair<BinOpKind, int>> binary_op() const {
    if (peek().kind != TokenKind::Op) return std::nullopt;
    const std::string& t = peek().text;
    if (t == "|") return std::pair{BinOpKind::BitOr, 1};
    if (t == "^") return std::pair{BinOpKind::BitXor, 2};
    if (t == "&") return std::pair{BinOpKind::BitAnd, 3};
    if (t == "<<") return std::pair{BinOpKind::LShift, 4};
    if (t == ">>") return std::pair{BinOpKind::RShift, 4};
    if (t == "+") return std::pair{BinOpKind::Add, 5};
    if (t == "-") return std::pair{BinOpKind::Sub, 5};
    if (t == "*") return std::pair{BinOpKind::Mult, 6};
    if (t == "/") return std::pair{BinOpKind::Div, 6};
    if (t == "//") return std::pair{BinOpKind::FloorDiv, 6};
    if (t == "%") return std::pair{BinOpKind::Mod, 6};
    return std::nullopt;
  }

  // Precedence climbing: one frame per operator level actually used, not one per grammar
  // level, which keeps the stack per nesting level small.
  Result<ExprPtr> binary(int min_strength) {
    SourceLoc loc = peek().loc;
    Result<ExprPtr> left = factor();
    if (!left) return left;
    ExprPtr acc = std::move(left.value());
    while (true) {
      std::optional<std::pair<BinOpKind, int>> op = binary_op();
      if (!op || op->second < min_strength) return acc;
      next();
      Result<ExprPtr> right = binary(op->second + 1);
      if (!right) return right;
      Result<ExprPtr> b = build(loc, BinOp{op->first, std::move(acc), std::move(right.value())});
      if (!b) return b;
      acc = std::move(b.value());
    }
  }

  Result<ExprPtr> factor() {
    std::optional<UnaryOpKind> op;
    if (is_op("-")) op = UnaryOpKind::Minus;
    else if (is_op("+")) op = UnaryOpKind::Plus;
    else if (is_op("~")) op = UnaryOpKind::Invert;
    if (!op) return power();
    DepthGuard g(depth_);
    DACE_TRY(check_nesting(peek().loc));
    SourceLoc loc = next().loc;
    Result<ExprPtr> operand = factor();
    if (!operand) return operand;
    return build(loc, UnaryOp{*op, std::move(operand.value())});
  }

  Result<ExprPtr> power() {
    SourceLoc loc = peek().loc;
    Result<ExprPtr> base = primary();
    if (!base || !is_op("**")) return base;
    next();
    DepthGuard g(depth_);
    DACE_TRY(check_nesting(peek().loc));
    Result<ExprPtr> exponent = factor();  // right-associative, binds tighter than unary on its left
    if (!exponent) return exponent;
    return build(loc, BinOp{BinOpKind::Pow, std::move(base.value()), std::move(exponent.value())});
  }

  Result<ExprPtr> primary() {
    SourceLoc loc = peek().loc;
    Result<ExprPtr> r = atom();
    if (!r) return r;
    ExprPtr e = std::move(r.value());
    while (true) {
      if (is_op(".")) {
        next();
        if (peek().kind != TokenKind::Name || is_reserved(peek().text))
          return unexpected(peek(), "expected an attribute name after '.'");
        std::string attr = next().text;
        Result<ExprPtr> b = build(loc, Attribute{std::move(e), std::move(attr)});
        if (!b) return b;
        e = std::move(b.value());
      } else if (is_op("(")) {
        std::optional<std::string> func = dotted_name(*e);
        if (!func) func = decltype_name(*e);
        if (!func) return syntax_error(peek().loc, "only named functions can be called in tasklet code");
        Result<ExprPtr> c = call(loc, std::move(*func));
        if (!c) return c;
        e = std::move(c.value());
      } else if (is_op("[")) {
        Result<ExprPtr> s = subscript(loc, std::move(e));
        if (!s) return s;
        e = std::move(s.value());
      } else {
        return e;
      }
    }
  }

  // DaCe's Python tasklets may hold the C++ cast `decltype(x)(v)` (its frontend writes it, e.g.
  // for np.arange); the call is kept as a function named "decltype(x)" that the type checker
  // turns into a cast to x's type.
  static std::optional<std::string> decltype_name(const Expr& e) {
    const Call* c = e.as<Call>();
    if (!c || c->func != "decltype" || c->args.size() != 1 || !c->keywords.empty()) return std::nullopt;
    const Name* n = c->args[0]->as<Name>();
    if (!n) return std::nullopt;
    return "decltype(" + n->id + ")";
  }

  Result<ExprPtr> call(SourceLoc loc, std::string func) {
    next();  // (
    Call node{std::move(func), {}, {}};
    while (!is_op(")")) {
      if (peek().kind == TokenKind::Name && peek(1).kind == TokenKind::Op && peek(1).text == "=" &&
          !is_reserved(peek().text)) {
        Keyword k;
        k.loc = peek().loc;
        k.name = next().text;
        next();  // =
        Result<ExprPtr> v = test();
        if (!v) return v;
        k.value = std::move(v.value());
        for (const Keyword& other : node.keywords)
          if (other.name == k.name)
            return syntax_error(k.loc, "keyword argument '" + k.name + "' repeated");
        node.keywords.push_back(std::move(k));
      } else {
        if (is_op("*") || is_op("**"))
          return syntax_error(peek().loc, "argument unpacking is not supported in tasklet code");
        SourceLoc arg_loc = peek().loc;
        Result<ExprPtr> v = test();
        if (!v) return v;
        if (!node.keywords.empty())
          return syntax_error(arg_loc, "positional argument follows keyword argument");
        node.args.push_back(std::move(v.value()));
      }
      if (is_op(",")) {
        next();
        continue;
      }
      if (!is_op(")")) return unexpected(peek(), "expected ',' or ')' in call");
    }
    next();  // )
    return build(loc, std::move(node));
  }

  Result<ExprPtr> subscript(SourceLoc loc, ExprPtr value) {
    next();  // [
    Subscript node{std::move(value), {}};
    if (is_op("]")) return syntax_error(peek().loc, "empty subscript");
    while (!is_op("]")) {
      Result<ExprPtr> idx = slice_or_test();
      if (!idx) return idx;
      node.indices.push_back(std::move(idx.value()));
      if (is_op(",")) {
        next();
        continue;
      }
      if (!is_op("]")) return unexpected(peek(), "expected ',' or ']' in subscript");
    }
    next();  // ]
    return build(loc, std::move(node));
  }

  bool at_slice_part_end() const { return is_op(":") || is_op(",") || is_op("]"); }

  Result<ExprPtr> slice_or_test() {
    SourceLoc loc = peek().loc;
    ExprPtr lower;
    if (!is_op(":")) {
      Result<ExprPtr> v = test();
      if (!v) return v;
      if (!is_op(":")) return v;
      lower = std::move(v.value());
    }
    next();  // first ':'
    Slice s{std::move(lower), nullptr, nullptr};
    if (!at_slice_part_end()) {
      Result<ExprPtr> v = test();
      if (!v) return v;
      s.upper = std::move(v.value());
    }
    if (is_op(":")) {
      next();
      if (!at_slice_part_end()) {
        Result<ExprPtr> v = test();
        if (!v) return v;
        s.step = std::move(v.value());
      }
    }
    return build(loc, std::move(s));
  }

  Result<ExprPtr> atom() {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::Number: {
        next();
        return build(t.loc, t.number);
      }
      case TokenKind::Name: {
        if (t.text == "True" || t.text == "False") {
          next();
          Constant c;
          c.kind = ConstantKind::Bool;
          c.bool_value = t.text == "True";
          return build(t.loc, c);
        }
        if (is_reserved(t.text)) return unexpected(t, "expected an expression");
        next();
        return build(t.loc, Name{t.text});
      }
      case TokenKind::Op: {
        if (t.text == "(") {
          next();
          if (is_op(")")) return syntax_error(t.loc, "tuples are not supported in tasklet code");
          Result<ExprPtr> inner = test();
          if (!inner) return inner;
          if (is_op(",")) return syntax_error(peek().loc, "tuples are not supported in tasklet code");
          DACE_TRY(expect_close(t.loc));
          return inner;
        }
        if (t.text == "[") return syntax_error(t.loc, "lists are not supported in tasklet code");
        return unexpected(t, "expected an expression");
      }
      default: return unexpected(t, "expected an expression");
    }
  }

  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  int block_depth_ = 0;
};

}  // namespace

Result<Program> parse_code(std::string_view source) {
  Result<std::vector<Token>> toks = tokenize(source);
  if (!toks) return toks.take_error();
  return Parser(std::move(toks.value())).program();
}

Result<ExprPtr> parse_expression(std::string_view source) {
  Result<std::vector<Token>> toks = tokenize(source);
  if (!toks) return toks.take_error();
  return Parser(std::move(toks.value())).lone_expression();
}

Result<Assignment> parse_assignment(std::string_view source) {
  Result<std::vector<Token>> toks = tokenize(source);
  if (!toks) return toks.take_error();
  return Parser(std::move(toks.value())).lone_assignment();
}

}  // namespace dace::tasklet
