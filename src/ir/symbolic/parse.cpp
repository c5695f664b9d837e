// Recursive-descent parser for DaCe's symbolic strings (Python precedence), both dialects:
// plain `N - 1` and the typed `$N` / `symbol($N, dtype=dace.int64)` of DaCe >= 2.0a4.
#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "ir/symbolic/internal.h"

namespace dace::sym {
namespace {

enum class Tok {
  End, Int, Name, Dollar, LParen, RParen, Comma, Assign,
  Plus, Minus, Star, StarStar, Slash, SlashSlash, Percent,
  Lt, Le, Gt, Ge, EqEq, NotEq,
};

struct Token {
  Tok kind = Tok::End;
  size_t pos = 0;  // 0-based offset into the text
  std::string_view text;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<Expr> run() {
    if (!advance()) return take_error();
    Expr e = parse_or();
    if (failed_) return take_error();
    if (tok_.kind != Tok::End) return fail_at(tok_.pos, "unexpected '" + std::string(tok_.text) + "'");
    // Canonical construction may nest deeper than the text did (a chain a*b/c*d/e*... becomes
    // quotients inside products inside quotients, each printed in parentheses). An expression
    // whose printed form the parser would refuse is refused now, so that everything parse
    // accepts prints to text that parses back. Two levels spare: a printed leaf is an atom of
    // its own, and a negative one sits in parentheses. A text of fewer than a sixth as many
    // characters cannot build that deep (an operator character adds at most two levels: a - b
    // is a + (-1)*b), so the common short expression skips the walk.
    std::unordered_map<Expr, int> heights;
    if (text_.size() * 6 > static_cast<size_t>(kMaxDepth - 2) && height(e, heights) > kMaxDepth - 2) {
      error_ = make_error(Code::ParseError,
                          "symbolic expression '" + std::string(text_) + "': expression nested too deeply once built (" +
                              "its canonical form nests more than " + std::to_string(kMaxDepth - 2) + " levels)");
      return error_;
    }
    return e;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  Token tok_;
  bool failed_ = false;
  Error error_;
  int depth_ = 0;
  int unary_depth_ = 0;
  static constexpr int kMaxDepth = 200;

  Error take_error() { return error_; }

  Error fail_at(size_t pos, const std::string& message) {
    if (!failed_) {
      failed_ = true;
      int column = static_cast<int>(pos) + 1;
      error_ = make_error(Code::ParseError,
                          "symbolic expression '" + std::string(text_) + "': " + message +
                              " at column " + std::to_string(column),
                          1, column);
    }
    return error_;
  }

  static bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

  // Reads the next token into tok_; false (with error set) on a bad character.
  bool advance() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
    size_t start = pos_;
    tok_.pos = start;
    if (pos_ >= text_.size()) {
      tok_.kind = Tok::End;
      tok_.text = "end of input";
      return true;
    }
    char c = text_[pos_];
    auto set = [&](Tok kind, size_t len) {
      tok_.kind = kind;
      tok_.text = text_.substr(start, len);
      pos_ = start + len;
      return true;
    };
    char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = pos_;
      while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end]))) ++end;
      if (end < text_.size() && (text_[end] == '.' || is_name_start(text_[end]))) {
        fail_at(end, text_[end] == '.' ? "non-integer number" : "invalid number");
        return false;
      }
      return set(Tok::Int, end - start);
    }
    if (is_name_start(c)) {
      // Dotted names (`dace.int64`) are one name token.
      size_t end = pos_;
      while (end < text_.size()) {
        if (is_name_char(text_[end])) {
          ++end;
        } else if (text_[end] == '.' && end + 1 < text_.size() && is_name_start(text_[end + 1])) {
          end += 2;
        } else {
          break;
        }
      }
      return set(Tok::Name, end - start);
    }
    switch (c) {
      case '$': return set(Tok::Dollar, 1);
      case '(': return set(Tok::LParen, 1);
      case ')': return set(Tok::RParen, 1);
      case ',': return set(Tok::Comma, 1);
      case '+': return set(Tok::Plus, 1);
      case '-': return set(Tok::Minus, 1);
      case '%': return set(Tok::Percent, 1);
      case '*': return next == '*' ? set(Tok::StarStar, 2) : set(Tok::Star, 1);
      case '/': return next == '/' ? set(Tok::SlashSlash, 2) : set(Tok::Slash, 1);
      case '<': return next == '=' ? set(Tok::Le, 2) : set(Tok::Lt, 1);
      case '>': return next == '=' ? set(Tok::Ge, 2) : set(Tok::Gt, 1);
      case '=': return next == '=' ? set(Tok::EqEq, 2) : set(Tok::Assign, 1);
      case '!':
        if (next == '=') return set(Tok::NotEq, 2);
        break;
      default:
        break;
    }
    fail_at(start, std::string("unexpected character '") + c + "'");
    return false;
  }

  bool next() {
    if (failed_) return false;
    return advance();
  }

  bool is_keyword(std::string_view word) const { return tok_.kind == Tok::Name && tok_.text == word; }

  bool expect(Tok kind, const char* what) {
    if (failed_) return false;
    if (tok_.kind != kind) {
      fail_at(tok_.pos, std::string("expected ") + what + " but found '" + std::string(tok_.text) + "'");
      return false;
    }
    return next();
  }

  // Every parse_* returns nullptr after an error (failed_ is set).
  Expr parse_or() {
    Expr e = parse_and();
    while (e && is_keyword("or")) {
      if (!next()) return nullptr;
      Expr r = parse_and();
      if (!r) return nullptr;
      e = logical_or(e, r);
    }
    return e;
  }

  Expr parse_and() {
    Expr e = parse_not();
    while (e && is_keyword("and")) {
      if (!next()) return nullptr;
      Expr r = parse_not();
      if (!r) return nullptr;
      e = logical_and(e, r);
    }
    return e;
  }

  Expr parse_not() {
    if (is_keyword("not")) {
      if (++unary_depth_ > kMaxDepth) {
        fail_at(tok_.pos, "expression nested too deeply");
        return nullptr;
      }
      if (!next()) return nullptr;
      Expr e = parse_not();
      --unary_depth_;
      return e ? logical_not(e) : nullptr;
    }
    return parse_comparison();
  }

  static bool is_comparison(Tok t) {
    return t == Tok::Lt || t == Tok::Le || t == Tok::Gt || t == Tok::Ge || t == Tok::EqEq || t == Tok::NotEq;
  }

  // Python chains comparisons: a < b <= c means (a < b) and (b <= c).
  Expr parse_comparison() {
    Expr left = parse_arith();
    if (!left) return nullptr;
    Expr result = nullptr;
    while (is_comparison(tok_.kind)) {
      Tok op = tok_.kind;
      if (!next()) return nullptr;
      Expr right = parse_arith();
      if (!right) return nullptr;
      Expr c = nullptr;
      switch (op) {
        case Tok::Lt: c = lt(left, right); break;
        case Tok::Le: c = le(left, right); break;
        case Tok::Gt: c = gt(left, right); break;
        case Tok::Ge: c = ge(left, right); break;
        case Tok::EqEq: c = eq(left, right); break;
        default: c = ne(left, right); break;
      }
      result = result ? logical_and(result, c) : c;
      left = right;
    }
    return result ? result : left;
  }

  Expr parse_arith() {
    Expr e = parse_term();
    while (e && (tok_.kind == Tok::Plus || tok_.kind == Tok::Minus)) {
      bool plus = tok_.kind == Tok::Plus;
      if (!next()) return nullptr;
      Expr r = parse_term();
      if (!r) return nullptr;
      e = plus ? add(e, r) : sub(e, r);
    }
    return e;
  }

  Expr parse_term() {
    Expr e = parse_unary();
    while (e && (tok_.kind == Tok::Star || tok_.kind == Tok::Slash || tok_.kind == Tok::SlashSlash ||
                 tok_.kind == Tok::Percent)) {
      Tok op = tok_.kind;
      if (!next()) return nullptr;
      Expr r = parse_unary();
      if (!r) return nullptr;
      switch (op) {
        case Tok::Star: e = mul(e, r); break;
        case Tok::Slash: e = truediv(e, r); break;
        case Tok::SlashSlash: e = floordiv(e, r); break;
        default: e = mod(e, r); break;
      }
    }
    return e;
  }

  Expr parse_unary() {
    if (tok_.kind == Tok::Minus || tok_.kind == Tok::Plus) {
      bool minus = tok_.kind == Tok::Minus;
      if (++unary_depth_ > kMaxDepth) {
        fail_at(tok_.pos, "expression nested too deeply");
        return nullptr;
      }
      if (!next()) return nullptr;
      Expr e = parse_unary();
      --unary_depth_;
      if (!e) return nullptr;
      return minus ? neg(e) : e;
    }
    return parse_power();
  }

  Expr parse_power() {
    Expr base = parse_atom();
    if (!base) return nullptr;
    if (tok_.kind == Tok::StarStar) {
      if (!next()) return nullptr;
      Expr exponent = parse_unary();  // right-associative, binds tighter than unary minus on the left
      if (!exponent) return nullptr;
      return pow(base, exponent);
    }
    return base;
  }

  Expr parse_integer() {
    uint64_t v = 0;
    for (char c : tok_.text) {
      uint64_t d = static_cast<uint64_t>(c - '0');
      if (v > (static_cast<uint64_t>(INT64_MAX) - d) / 10) {
        fail_at(tok_.pos, "integer literal out of range");
        return nullptr;
      }
      v = v * 10 + d;
    }
    if (!next()) return nullptr;
    return integer(static_cast<int64_t>(v));
  }

  // `$N` (typed dialect) is the symbol N.
  Expr parse_dollar() {
    size_t at = tok_.pos;
    if (!next()) return nullptr;
    if (tok_.kind != Tok::Name || tok_.pos != at + 1) {
      fail_at(tok_.pos, "expected a symbol name after '$'");
      return nullptr;
    }
    // A reserved word after '$' would be a symbol that prints as the word itself (`$True`
    // as `True`, which reads back as the boolean): no symbol may take such a name.
    if (tok_.text == "True" || tok_.text == "False" || tok_.text == "and" || tok_.text == "or" ||
        tok_.text == "not") {
      fail_at(tok_.pos, "'" + std::string(tok_.text) + "' is a reserved word, not a symbol name");
      return nullptr;
    }
    Expr e = symbol(tok_.text);
    if (!next()) return nullptr;
    return e;
  }

  // Levels of the expression tree under `e` (a leaf is 1), memoized: interned nodes are shared.
  static int height(Expr e, std::unordered_map<Expr, int>& memo) {
    if (e->args.empty()) return 1;
    if (auto it = memo.find(e); it != memo.end()) return it->second;
    int h = 0;
    for (Expr a : e->args) h = std::max(h, height(a, memo));
    memo.emplace(e, h + 1);
    return h + 1;
  }

  Expr parse_atom() {
    // Bounded nesting keeps hostile input from exhausting the stack.
    if (++depth_ > kMaxDepth) {
      fail_at(tok_.pos, "expression nested too deeply");
      return nullptr;
    }
    Expr e = parse_atom_inner();
    --depth_;
    return e;
  }

  Expr parse_atom_inner() {
    switch (tok_.kind) {
      case Tok::Int:
        return parse_integer();
      case Tok::Dollar:
        return parse_dollar();
      case Tok::LParen: {
        if (!next()) return nullptr;
        Expr e = parse_or();
        if (!e) return nullptr;
        if (!expect(Tok::RParen, "')'")) return nullptr;
        return e;
      }
      case Tok::Name:
        return parse_name();
      default:
        fail_at(tok_.pos, tok_.kind == Tok::End ? "unexpected end of input"
                                                : "unexpected '" + std::string(tok_.text) + "'");
        return nullptr;
    }
  }

  Expr parse_name() {
    std::string_view name = tok_.text;
    size_t at = tok_.pos;
    if (name == "True" || name == "False") {
      if (!next()) return nullptr;
      return boolean(name == "True");
    }
    if (name == "and" || name == "or" || name == "not") {
      fail_at(at, "unexpected '" + std::string(name) + "'");
      return nullptr;
    }
    if (!next()) return nullptr;
    if (tok_.kind != Tok::LParen) return symbol(name);
    if (!next()) return nullptr;
    std::vector<Expr> args;
    bool has_keyword = false;
    while (tok_.kind != Tok::RParen) {
      if (!args.empty() || has_keyword) {
        if (!expect(Tok::Comma, "',' or ')'")) return nullptr;
        if (tok_.kind == Tok::RParen) break;  // trailing comma
      }
      if (tok_.kind == Tok::Name && peek_is_assign()) {
        // Keyword arguments only occur in the typed dialect's `symbol($N, dtype=...)`.
        if (name != "symbol") {
          fail_at(tok_.pos, "keyword arguments are only supported in symbol()");
          return nullptr;
        }
        if (!next() || !expect(Tok::Assign, "'='")) return nullptr;
        if (!parse_or()) return nullptr;  // the dtype is ignored: symbols are integers
        has_keyword = true;
        continue;
      }
      if (has_keyword) {
        fail_at(tok_.pos, "positional argument after keyword argument");
        return nullptr;
      }
      Expr a = parse_or();
      if (!a) return nullptr;
      args.push_back(a);
    }
    if (!next()) return nullptr;
    if (name == "symbol") {
      if (args.size() != 1 || args[0]->op != Op::Symbol) {
        fail_at(at, "symbol() takes one symbol name");
        return nullptr;
      }
      return args[0];
    }
    if (Expr known = detail::apply_known_function(name, args)) return known;
    if (is_known_name(name)) {
      fail_at(at, "wrong number of arguments to " + std::string(name) + "()");
      return nullptr;
    }
    return call(name, std::move(args));
  }

  static bool is_known_name(std::string_view n) {
    for (const char* k : {"Min", "min", "Max", "max", "Mod", "int_floor", "int_ceil", "Abs", "abs", "floor",
                          "ceiling", "ceil", "truediv", "pow", "Pow"}) {
      if (n == k) return true;
    }
    return false;
  }

  // True when the token after the current name is a single '='.
  bool peek_is_assign() const {
    size_t p = pos_;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t')) ++p;
    return p < text_.size() && text_[p] == '=' && !(p + 1 < text_.size() && text_[p + 1] == '=');
  }
};

}  // namespace

Result<Expr> parse(std::string_view text) { return Parser(text).run(); }

}  // namespace dace::sym
