#include "transform/symbol_use.h"

#include <algorithm>
#include <cctype>

namespace dace::transform {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

sym::Expr subst(sym::Expr e, const std::map<std::string, sym::Expr>& values) {
  return e ? sym::substitute(e, values) : e;
}

void subst(sym::Subset& s, const std::map<std::string, sym::Expr>& values) {
  for (sym::Range& r : s.dims) {
    r.start = subst(r.start, values);
    r.end = subst(r.end, values);
    r.step = subst(r.step, values);
    r.tile = subst(r.tile, values);
  }
}

void add_symbols(std::set<std::string>& out, sym::Expr e) {
  if (!e) return;
  for (const std::string& s : sym::free_symbols(e)) out.insert(s);
}

}  // namespace

std::set<std::string> identifiers_in(std::string_view code) {
  std::set<std::string> out;
  for (size_t i = 0; i < code.size();) {
    if (ident_start(code[i]) && (i == 0 || !ident_char(code[i - 1]))) {
      size_t j = i;
      while (j < code.size() && ident_char(code[j])) ++j;
      out.emplace(code.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

std::string rename_identifiers(std::string_view code, const std::map<std::string, std::string>& replacements) {
  std::string out;
  out.reserve(code.size());
  for (size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (c == '"' || c == '\'') {  // a literal: copied up to its closing quote
      size_t j = i + 1;
      while (j < code.size() && code[j] != c) j += code[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, code.size());
      out.append(code.substr(i, j - i));
      i = j;
    } else if (ident_start(c) && (i == 0 || !ident_char(code[i - 1]))) {
      size_t j = i;
      while (j < code.size() && ident_char(code[j])) ++j;
      const std::string name(code.substr(i, j - i));
      auto it = replacements.find(name);
      const bool attribute = i > 0 && code[i - 1] == '.';
      out += it != replacements.end() && !attribute ? it->second : name;
      i = j;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

bool mentions(std::string_view code, std::string_view name) {
  if (name.empty()) return false;
  for (size_t pos = code.find(name); pos != std::string_view::npos; pos = code.find(name, pos + 1)) {
    const bool left = pos == 0 || !ident_char(code[pos - 1]);
    const bool right = pos + name.size() >= code.size() || !ident_char(code[pos + name.size()]);
    if (left && right) return true;
  }
  return false;
}

bool node_code_mentions(const ir::Node& node, std::string_view name) {
  switch (node.kind) {
    case ir::NodeKind::Tasklet: {
      const auto& t = static_cast<const ir::Tasklet&>(node);
      return mentions(t.code.code, name) || mentions(t.code_global->code, name) || mentions(t.code_init->code, name) ||
             mentions(t.code_exit->code, name);
    }
    case ir::NodeKind::Library: {
      const auto& l = static_cast<const ir::LibraryNode&>(node);
      for (const auto& [key, text] : l.properties)
        if (mentions(text, name)) return true;
      return false;
    }
    case ir::NodeKind::ConsumeEntry:
      return mentions(static_cast<const ir::ConsumeEntry&>(node).consume.condition.code, name);
    default: return false;
  }
}

void substitute(ir::Memlet& m, const std::map<std::string, sym::Expr>& values) {
  subst(m.subset, values);
  if (m.other_subset) subst(*m.other_subset, values);
  m.volume = subst(m.volume, values);
}

std::set<std::string> free_symbols(const sym::Subset& s) {
  std::set<std::string> out;
  for (const sym::Range& r : s.dims) {
    add_symbols(out, r.start);
    add_symbols(out, r.end);
    add_symbols(out, r.step);
    add_symbols(out, r.tile);
  }
  return out;
}

std::set<std::string> free_symbols(const ir::Memlet& m) {
  std::set<std::string> out = free_symbols(m.subset);
  if (m.other_subset) out.merge(free_symbols(*m.other_subset));
  add_symbols(out, m.volume);
  return out;
}

}  // namespace dace::transform
