#include "ir/tasklet/lexer.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>

namespace dace::tasklet {

Error syntax_error(SourceLoc loc, const std::string& message) {
  return make_error(Code::ParseError,
                    "line " + std::to_string(loc.line) + ", column " + std::to_string(loc.column) +
                        ": " + message,
                    loc.line, loc.column);
}

namespace {

// Longest first, so that the first prefix match is the longest token.
constexpr std::array<std::string_view, 42> kOperators{
    "**=", "//=", ">>=", "<<=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=",
    "*=",  "/=",  "%=",  "&=",  "|=", "^=", "+",  "-",  "*",  "/",  "%",  "&",  "|",  "^",
    "~",   "<",   ">",   "(",   ")",  "[",  "]",  ",",  ":",  ".",  ";",  "=",  "@",  "!"};

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

std::string describe_char(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x80) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "non-ASCII character (byte 0x%02X)", u);
    return buf;
  }
  if (u < 0x20 || u == 0x7F) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "unexpected control character 0x%02X", u);
    return buf;
  }
  return std::string("unexpected character '") + c + "'";
}

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  Result<std::vector<Token>> run() {
    indents_.push_back(0);
    alt_indents_.push_back(0);
    bool at_line_start = true;
    while (pos_ < src_.size()) {
      if (at_line_start && depth_ == 0) {
        Status s = indentation();
        if (!s) return s.take_error();
        at_line_start = false;
        continue;
      }
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        advance();
      } else if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n' && src_[pos_] != '\r') advance();
      } else if (c == '\n' || c == '\r') {
        if (depth_ == 0 && !tokens_.empty() && tokens_.back().kind != TokenKind::Newline &&
            tokens_.back().kind != TokenKind::Indent && tokens_.back().kind != TokenKind::Dedent)
          push(TokenKind::Newline, "", here());
        newline();
        at_line_start = true;
      } else if (c == '\\') {
        SourceLoc loc = here();
        advance();
        if (pos_ < src_.size() && src_[pos_] == '\r') advance();
        if (pos_ >= src_.size() || src_[pos_] != '\n')
          return syntax_error(loc, "unexpected character after line continuation '\\'");
        pos_++;
        line_++;
        line_start_ = pos_;
      } else if (is_ident_start(c)) {
        SourceLoc loc = here();
        size_t b = pos_;
        while (pos_ < src_.size() && is_ident_char(src_[pos_])) advance();
        push(TokenKind::Name, std::string(src_.substr(b, pos_ - b)), loc);
      } else if (is_digit(c) || (c == '.' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) {
        Status s = number();
        if (!s) return s.take_error();
      } else if (c == '"' || c == '\'') {
        return syntax_error(here(), "string literals are not supported in tasklet code");
      } else {
        Status s = op();
        if (!s) return s.take_error();
      }
    }
    if (depth_ > 0)
      return syntax_error(open_.back().loc, "'" + open_.back().text + "' was never closed");
    SourceLoc end = here();
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline &&
        tokens_.back().kind != TokenKind::Dedent && tokens_.back().kind != TokenKind::Indent)
      push(TokenKind::Newline, "", end);
    while (indents_.size() > 1) {
      indents_.pop_back();
      push(TokenKind::Dedent, "", end);
    }
    push(TokenKind::End, "", end);
    return std::move(tokens_);
  }

 private:
  SourceLoc here() const {
    return SourceLoc{line_, static_cast<int>(pos_ - line_start_) + 1};
  }
  void advance() { pos_++; }
  void newline() {
    // "\r\n", "\r" and "\n" all end a line.
    if (src_[pos_] == '\r' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '\n') pos_++;
    pos_++;
    line_++;
    line_start_ = pos_;
  }
  void push(TokenKind kind, std::string text, SourceLoc loc) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.loc = loc;
    tokens_.push_back(std::move(t));
  }

  // Measures the indentation of a logical line; blank and comment-only lines are skipped.
  // Tabs advance to the next multiple of 8 as in Python; the width is also measured with
  // tabs as one column and both orders must agree, which is Python's TabError rule.
  Status indentation() {
    int width = 0, alt = 0;
    while (pos_ < src_.size() && (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f')) {
      if (src_[pos_] == ' ') {
        width++;
        alt++;
      } else if (src_[pos_] == '\t') {
        width = (width / 8 + 1) * 8;
        alt++;
      } else {
        width = alt = 0;  // form feed resets the count, as in Python
      }
      advance();
    }
    if (pos_ >= src_.size() || src_[pos_] == '#' || src_[pos_] == '\n' || src_[pos_] == '\r')
      return Status::success();
    SourceLoc loc = here();
    if (width > indents_.back()) {
      if (alt <= alt_indents_.back())
        return syntax_error(loc, "inconsistent use of tabs and spaces in indentation");
      indents_.push_back(width);
      alt_indents_.push_back(alt);
      push(TokenKind::Indent, "", loc);
      return Status::success();
    }
    while (width < indents_.back()) {
      indents_.pop_back();
      alt_indents_.pop_back();
      push(TokenKind::Dedent, "", loc);
    }
    if (width != indents_.back())
      return syntax_error(loc, "unindent does not match any outer indentation level");
    if (alt != alt_indents_.back())
      return syntax_error(loc, "inconsistent use of tabs and spaces in indentation");
    return Status::success();
  }

  Status op() {
    SourceLoc loc = here();
    std::string_view rest = src_.substr(pos_);
    for (std::string_view o : kOperators) {
      if (rest.substr(0, o.size()) != o) continue;
      if (o == "@") return syntax_error(loc, "matrix multiplication '@' is not supported in tasklet code");
      if (o == "!") return syntax_error(loc, "unexpected character '!'");
      pos_ += o.size();
      if (o == "(" || o == "[") {
        depth_++;
        Token t;
        t.text = std::string(o);
        t.loc = loc;
        open_.push_back(t);
      } else if (o == ")" || o == "]") {
        if (depth_ == 0) return syntax_error(loc, "unmatched '" + std::string(o) + "'");
        char expect = open_.back().text == "(" ? ')' : ']';
        if (o[0] != expect)
          return syntax_error(loc, "closing '" + std::string(o) + "' does not match '" +
                                       open_.back().text + "' at line " +
                                       std::to_string(open_.back().loc.line) + ", column " +
                                       std::to_string(open_.back().loc.column));
        depth_--;
        open_.pop_back();
      }
      push(TokenKind::Op, std::string(o), loc);
      return Status::success();
    }
    return syntax_error(loc, describe_char(src_[pos_]));
  }

  // Copies the digits of a literal, checking Python's underscore rule (only between digits).
  Status digits(std::string& out, int base, SourceLoc loc) {
    bool last_digit = false;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == '_') {
        if (!last_digit || pos_ + 1 >= src_.size() || digit_value(src_[pos_ + 1]) >= base)
          return syntax_error(loc, "invalid numeric literal");
        last_digit = false;
        advance();
        continue;
      }
      if (digit_value(c) >= base) break;
      out.push_back(c);
      last_digit = true;
      advance();
    }
    return Status::success();
  }

  Status number() {
    SourceLoc loc = here();
    size_t begin = pos_;
    Token t;
    t.kind = TokenKind::Number;
    t.loc = loc;
    char c0 = src_[pos_];
    char c1 = pos_ + 1 < src_.size() ? src_[pos_ + 1] : '\0';
    int base = 0;
    if (c0 == '0' && (c1 == 'x' || c1 == 'X')) base = 16;
    if (c0 == '0' && (c1 == 'o' || c1 == 'O')) base = 8;
    if (c0 == '0' && (c1 == 'b' || c1 == 'B')) base = 2;
    if (base != 0) {
      pos_ += 2;
      if (pos_ < src_.size() && src_[pos_] == '_') advance();  // `0x_ff` is valid Python
      std::string ds;
      DACE_TRY(digits(ds, base, loc));
      if (ds.empty()) return syntax_error(loc, "invalid numeric literal");
      DACE_TRY(to_int(ds, base, loc, t.number));
    } else {
      std::string text;
      DACE_TRY(digits(text, 10, loc));
      bool is_float = false;
      bool negative_exponent = false;
      if (pos_ < src_.size() && src_[pos_] == '.') {
        is_float = true;
        text.push_back('.');
        advance();
        if (pos_ < src_.size() && is_digit(src_[pos_])) DACE_TRY(digits(text, 10, loc));
      }
      if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
        size_t save = pos_;
        std::string exp = "e";
        advance();
        if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) {
          negative_exponent = src_[pos_] == '-';
          exp.push_back(src_[pos_]);
          advance();
        }
        if (pos_ < src_.size() && is_digit(src_[pos_])) {
          DACE_TRY(digits(exp, 10, loc));
          text += exp;
          is_float = true;
        } else {
          pos_ = save;
          return syntax_error(loc, "invalid numeric literal");
        }
      }
      bool imaginary = false;
      if (pos_ < src_.size() && (src_[pos_] == 'j' || src_[pos_] == 'J')) {
        imaginary = true;
        advance();
      }
      if (is_float || imaginary) {
        double v = 0.0;
        const char* b = text.data();
        const char* e = text.data() + text.size();
        auto r = std::from_chars(b, e, v, std::chars_format::general);
        if (r.ec == std::errc::result_out_of_range) {
          v = negative_exponent ? 0.0 : std::numeric_limits<double>::infinity();
        } else if (r.ec != std::errc() || r.ptr != e) {
          return syntax_error(loc, "invalid numeric literal");
        }
        t.number.kind = imaginary ? ConstantKind::Complex : ConstantKind::Float;
        t.number.value = v;
      } else {
        if (text.size() > 1 && text[0] == '0' && text.find_first_not_of('0') != std::string::npos)
          return syntax_error(loc, "leading zeros in decimal integer literals are not permitted");
        DACE_TRY(to_int(text, 10, loc, t.number));
      }
    }
    if (pos_ < src_.size() && (is_ident_char(src_[pos_]) || src_[pos_] == '.'))
      return syntax_error(loc, "invalid numeric literal");
    t.text = std::string(src_.substr(begin, pos_ - begin));
    tokens_.push_back(std::move(t));
    return Status::success();
  }

  static Status to_int(const std::string& ds, int base, SourceLoc loc, Constant& out) {
    uint64_t v = 0;
    for (char c : ds) {
      uint64_t d = static_cast<uint64_t>(digit_value(c));
      if (v > (std::numeric_limits<uint64_t>::max() - d) / static_cast<uint64_t>(base))
        return syntax_error(loc, "integer literal does not fit in 64 bits");
      v = v * static_cast<uint64_t>(base) + d;
    }
    out.kind = ConstantKind::Int;
    out.int_value = v;
    return Status::success();
  }

  std::string_view src_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  int depth_ = 0;                // open brackets: newlines inside them are ignored
  std::vector<Token> open_;      // the open brackets, for error positions
  std::vector<int> indents_;     // indentation widths of the open blocks (tabs to 8)
  std::vector<int> alt_indents_; // the same with tabs counted as 1
  std::vector<Token> tokens_;
};

}  // namespace

Result<std::vector<Token>> tokenize(std::string_view source) { return Lexer(source).run(); }

}  // namespace dace::tasklet
