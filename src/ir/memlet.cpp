#include "ir/memlet.h"

#include <cctype>

namespace dace::ir {
namespace {

Error memlet_error(std::string_view text, size_t pos, const std::string& message) {
  int column = static_cast<int>(pos) + 1;
  return make_error(Code::ParseError,
                    "memlet '" + std::string(text) + "': " + message + " at column " + std::to_string(column), 1,
                    column);
}

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

void skip_space(std::string_view t, size_t& i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
}

// Parses "[...]" starting at text[i] == '['; leaves i after the closing bracket.
Result<sym::Subset> bracketed_subset(std::string_view text, size_t& i) {
  size_t open = i;
  int depth = 0;
  size_t close = std::string_view::npos;
  for (size_t j = open; j < text.size(); ++j) {
    if (text[j] == '[' || text[j] == '(') ++depth;
    if (text[j] == ']' || text[j] == ')') --depth;
    if (depth == 0) {
      close = j;
      break;
    }
  }
  if (close == std::string_view::npos || text[close] != ']') return memlet_error(text, open, "unbalanced '['");
  std::string_view inner = text.substr(open + 1, close - open - 1);
  size_t k = 0;
  skip_space(inner, k);
  if (k == inner.size()) return memlet_error(text, open + 1, "empty subset");
  auto subset = sym::parse_subset(inner);
  if (!subset) {
    const Error& e = subset.error();
    std::string reason = e.message;
    // Keep only the reason: the position is re-expressed relative to the memlet text.
    if (auto p = reason.find("': "); reason.rfind("symbolic expression '", 0) == 0 && p != std::string::npos)
      reason = reason.substr(p + 3);
    if (auto at = reason.rfind(" at column "); at != std::string::npos) reason.resize(at);
    return memlet_error(text, open + 1 + (e.column > 0 ? e.column - 1 : 0), reason);
  }
  i = close + 1;
  return *subset;
}

}  // namespace

Result<Memlet> parse_memlet(std::string_view text) {
  Memlet m;
  size_t i = 0;
  skip_space(text, i);
  if (i == text.size()) return m;
  if (!name_start(text[i])) return memlet_error(text, i, "expected a data container name");
  size_t name_begin = i;
  while (i < text.size() && name_char(text[i])) ++i;
  m.data = std::string(text.substr(name_begin, i - name_begin));
  if (m.data.back() == '.') return memlet_error(text, i - 1, "unexpected '.'");
  skip_space(text, i);
  if (i < text.size() && text[i] == '[') {
    auto s = bracketed_subset(text, i);
    if (!s) return s.take_error();
    m.subset = std::move(*s);
    skip_space(text, i);
  }
  if (i + 1 < text.size() && text[i] == '-' && text[i + 1] == '>') {
    i += 2;
    skip_space(text, i);
    if (i >= text.size() || text[i] != '[')
      return memlet_error(text, i, "expected '[' after '->' (the other subset, e.g. \"A[0:N] -> [1:N+1]\")");
    auto s = bracketed_subset(text, i);
    if (!s) return s.take_error();
    m.other_subset = std::move(*s);
    skip_space(text, i);
  }
  if (i < text.size()) return memlet_error(text, i, "unexpected '" + std::string(1, text[i]) + "'");
  return m;
}

std::string to_string(const Memlet& m) {
  if (m.is_empty()) return "";
  std::string out = m.data;
  if (m.subset.rank() > 0) out += "[" + sym::to_string(m.subset) + "]";
  if (m.other_subset) out += " -> [" + sym::to_string(*m.other_subset) + "]";
  return out;
}

std::optional<std::string> canonical_wcr(std::string_view wcr) {
  size_t b = 0;
  while (b < wcr.size() && std::isspace(static_cast<unsigned char>(wcr[b]))) ++b;
  wcr.remove_prefix(b);
  while (!wcr.empty() && std::isspace(static_cast<unsigned char>(wcr.back()))) wcr.remove_suffix(1);
  if (wcr.rfind("lambda", 0) == 0 && (wcr.size() == 6 || !name_char(wcr[6]))) return std::string(wcr);
  // DaCe's ReductionType names, also as `ReductionType.Sum`, in any letter case.
  if (auto dot = wcr.rfind('.'); dot != std::string_view::npos) wcr.remove_prefix(dot + 1);
  std::string name;
  for (char c : wcr) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  struct Entry {
    const char* name;
    const char* lambda;
  };
  static const Entry kTable[] = {
      {"sum", "lambda a, b: a + b"},          {"add", "lambda a, b: a + b"},
      {"product", "lambda a, b: a * b"},      {"prod", "lambda a, b: a * b"},
      {"mul", "lambda a, b: a * b"},          {"min", "lambda a, b: min(a, b)"},
      {"max", "lambda a, b: max(a, b)"},      {"logical_and", "lambda a, b: a and b"},
      {"logical_or", "lambda a, b: a or b"},  {"logical_xor", "lambda a, b: a != b"},
      {"bitwise_and", "lambda a, b: a & b"},  {"bitwise_or", "lambda a, b: a | b"},
      {"bitwise_xor", "lambda a, b: a ^ b"},  {"exchange", "lambda a, b: b"},
  };
  for (const Entry& e : kTable)
    if (name == e.name) return std::string(e.lambda);
  return std::nullopt;
}

}  // namespace dace::ir
