// The syntax of DaCe's C++ tasklet code (cpp_call.h).
#include "codegen/cpp_call.h"

#include <cctype>
#include <cstdlib>

namespace dace::codegen {

std::string trim_cpp(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

bool is_cpp_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

Result<CppCall> parse_cpp_call(const std::string& code) {
  auto fail = [](const std::string& why) { return make_error(Code::Unsupported, why); };
  std::string s = trim_cpp(code);
  while (!s.empty() && s.back() == ';') s = trim_cpp(s.substr(0, s.size() - 1));
  CppCall out;
  size_t paren = s.find('(');
  if (paren == std::string::npos || s.back() != ')') return fail("not a single function call");
  std::string head = trim_cpp(s.substr(0, paren));
  size_t eq = head.find('=');
  if (eq != std::string::npos) {
    out.result = trim_cpp(head.substr(0, eq));
    head = trim_cpp(head.substr(eq + 1));
    if (!is_cpp_identifier(out.result)) return fail("assignment to \"" + out.result + "\"");
  }
  if (!is_cpp_identifier(head)) return fail("call of \"" + head + "\"");
  out.function = head;
  std::string inner = s.substr(paren + 1, s.size() - paren - 2);
  int depth = 0;
  std::string cur;
  for (char c : inner) {
    if (c == ';' || c == '{' || c == '}') return fail("more than one statement");
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth < 0) return fail("unbalanced parentheses");
    if (c == ',' && depth == 0) {
      out.args.push_back(trim_cpp(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (depth != 0) return fail("unbalanced parentheses");
  if (!trim_cpp(cur).empty() || !out.args.empty()) out.args.push_back(trim_cpp(cur));
  return out;
}

std::optional<double> parse_cpp_number(std::string s) {
  size_t p = s.find('(');
  if (p != std::string::npos && s.back() == ')') {
    std::string type = trim_cpp(s.substr(0, p));
    if (type != "double" && type != "float" && type != "dace::float64" && type != "dace::float32") return std::nullopt;
    s = trim_cpp(s.substr(p + 1, s.size() - p - 2));
  }
  if (!s.empty() && (s.back() == 'f' || s.back() == 'F')) s.pop_back();
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

Result<std::optional<CppScalarDeclaration>> parse_cpp_scalar_declaration(const std::string& statement) {
  auto fail = [](const std::string& why) { return make_error(Code::Unsupported, why); };
  const std::string t = trim_cpp(statement);
  const size_t eq = t.find('=');
  const size_t paren = t.find('(');
  // A declaration has a space-separated type before the name, and its '=' comes before any '('.
  if (eq == std::string::npos || (paren != std::string::npos && paren < eq)) return std::optional<CppScalarDeclaration>();
  const std::string lhs = trim_cpp(t.substr(0, eq));
  const size_t space = lhs.find_last_of(" \t");
  if (space == std::string::npos) return std::optional<CppScalarDeclaration>();
  CppScalarDeclaration d;
  d.type = trim_cpp(lhs.substr(0, space));
  d.name = trim_cpp(lhs.substr(space + 1));
  if (!is_cpp_identifier(d.name)) return fail("declaration of \"" + d.name + "\"");
  const std::string value = trim_cpp(t.substr(eq + 1));
  const size_t open = value.find('(');
  std::optional<double> re, im = 0.0;
  if (open == std::string::npos) {
    re = parse_cpp_number(value);
  } else if (value.back() == ')') {
    d.init_type = trim_cpp(value.substr(0, open));
    const std::string inner = value.substr(open + 1, value.size() - open - 2);
    const size_t comma = inner.find(',');
    re = parse_cpp_number(trim_cpp(inner.substr(0, comma)));
    if (comma != std::string::npos) im = parse_cpp_number(trim_cpp(inner.substr(comma + 1)));
  }
  if (!re || !im) return fail("initializer \"" + value + "\"");
  d.re = *re;
  d.im = *im;
  return std::optional<CppScalarDeclaration>(d);
}

}  // namespace dace::codegen
