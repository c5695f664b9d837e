#include "analysis/validate_code.h"

#include <cctype>
#include <vector>

#include "ir/memlet.h"
#include "ir/tasklet/parser.h"

namespace dace::analysis::detail {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

void collect_ptr(const tasklet::ExprPtr& e, std::set<std::string>& out) {
  if (e) collect_names(*e, out);
}

void collect_stmts(const std::vector<tasklet::StmtPtr>& body, ProgramNames& out);

void collect_target(const tasklet::ExprPtr& t, ProgramNames& out) {
  if (!t) return;
  if (const auto* n = t->as<tasklet::Name>()) {
    out.assigned.insert(n->id);
    return;
  }
  // Subscripted targets (`b[i] = ...`) write through the base: it must be known like a read.
  collect_names(*t, out.read);
}

void collect_stmt(const tasklet::Stmt& s, ProgramNames& out) {
  if (const auto* a = s.as<tasklet::Assign>()) {
    collect_ptr(a->value, out.read);
    for (const auto& t : a->targets) collect_target(t, out);
  } else if (const auto* a = s.as<tasklet::AugAssign>()) {
    collect_ptr(a->value, out.read);
    collect_target(a->target, out);
  } else if (const auto* i = s.as<tasklet::If>()) {
    collect_ptr(i->test, out.read);
    collect_stmts(i->body, out);
    collect_stmts(i->orelse, out);
  } else if (const auto* x = s.as<tasklet::ExprStmt>()) {
    collect_ptr(x->value, out.read);
  }
}

void collect_stmts(const std::vector<tasklet::StmtPtr>& body, ProgramNames& out) {
  for (const auto& s : body)
    if (s) collect_stmt(*s, out);
}

}  // namespace

bool is_valid_name(std::string_view name) {
  if (name.empty() || !ident_start(name[0])) return false;
  for (char c : name)
    if (!ident_char(c)) return false;
  return name != "True" && name != "False" && name != "None";
}

bool is_module_name(std::string_view name) {
  return name == "math" || name == "cmath" || name == "dace" || name == "np" || name == "numpy";
}

void collect_names(const tasklet::Expr& e, std::set<std::string>& out) {
  // The parser bounds tree height (kMaxExprHeight), so recursion depth is bounded too.
  if (const auto* n = e.as<tasklet::Name>()) {
    out.insert(n->id);
  } else if (const auto* u = e.as<tasklet::UnaryOp>()) {
    collect_ptr(u->operand, out);
  } else if (const auto* b = e.as<tasklet::BinOp>()) {
    collect_ptr(b->left, out);
    collect_ptr(b->right, out);
  } else if (const auto* b = e.as<tasklet::BoolOp>()) {
    for (const auto& v : b->values) collect_ptr(v, out);
  } else if (const auto* c = e.as<tasklet::Compare>()) {
    collect_ptr(c->left, out);
    for (const auto& v : c->comparators) collect_ptr(v, out);
  } else if (const auto* i = e.as<tasklet::IfExp>()) {
    collect_ptr(i->test, out);
    collect_ptr(i->body, out);
    collect_ptr(i->orelse, out);
  } else if (const auto* c = e.as<tasklet::Call>()) {
    for (const auto& a : c->args) collect_ptr(a, out);
    for (const auto& k : c->keywords) collect_ptr(k.value, out);
  } else if (const auto* s = e.as<tasklet::Subscript>()) {
    collect_ptr(s->value, out);
    for (const auto& i : s->indices) collect_ptr(i, out);
  } else if (const auto* s = e.as<tasklet::Slice>()) {
    collect_ptr(s->lower, out);
    collect_ptr(s->upper, out);
    collect_ptr(s->step, out);
  } else if (e.is<tasklet::Attribute>()) {
    // As DaCe: the base of `x.attr` is no free symbol (`math.pi`, `z.real`, and the GPU
    // built-ins `threadIdx.x` that DaCe's GPU reduction expansions write). The type checker
    // still resolves the base where the attribute is used.
  }
}

void collect_names(const tasklet::Program& p, ProgramNames& out) { collect_stmts(p.body, out); }

std::set<std::string> identifiers_in_text(std::string_view code) {
  std::set<std::string> out;
  size_t i = 0;
  const size_t n = code.size();
  while (i < n) {
    char c = code[i];
    if (c == '/' && i + 1 < n && code[i + 1] == '/') {
      while (i < n && code[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && code[i + 1] == '*') {
      size_t end = code.find("*/", i + 2);
      i = end == std::string_view::npos ? n : end + 2;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && code[i] != c) i += (code[i] == '\\') ? 2 : 1;
      ++i;
    } else if (ident_start(c)) {
      size_t start = i;
      while (i < n && ident_char(code[i])) ++i;
      out.insert(std::string(code.substr(start, i - start)));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      // Skip number literals whole so that suffixes (1e5, 0x1f, 2.0f) are not identifiers.
      while (i < n && (ident_char(code[i]) || code[i] == '.')) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

std::set<std::string> expression_names(std::string_view text) {
  std::set<std::string> out;
  auto parsed = tasklet::parse_expression(text);
  if (parsed.ok() && *parsed) collect_names(**parsed, out);
  return out;
}

// Removes parentheses that enclose the whole text: DaCe writes "(lambda a, b: (a + b))".
static std::string_view strip_parens(std::string_view t) {
  while (t.size() >= 2 && t.front() == '(' && t.back() == ')') {
    int depth = 0;
    bool encloses = true;
    for (size_t i = 0; i < t.size(); ++i) {
      depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
      if (depth == 0 && i + 1 < t.size()) {
        encloses = false;
        break;
      }
    }
    if (!encloses) break;
    t = trim(t.substr(1, t.size() - 2));
  }
  return t;
}

bool valid_wcr(std::string_view wcr, std::string& why) {
  std::string_view t = strip_parens(trim(wcr));
  if (t.substr(0, 6) == "lambda" && (t.size() == 6 || !ident_char(t[6]))) {
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) {
      why = "lambda has no ':'";
      return false;
    }
    std::string_view params = t.substr(6, colon - 6);
    std::vector<std::string_view> names;
    while (true) {
      size_t comma = params.find(',');
      names.push_back(trim(params.substr(0, comma)));
      if (comma == std::string_view::npos) break;
      params.remove_prefix(comma + 1);
    }
    if (names.size() != 2) {
      why = "lambda must take exactly two arguments";
      return false;
    }
    for (auto nm : names) {
      if (!is_valid_name(nm)) {
        why = "lambda argument \"" + std::string(nm) + "\" is not a valid name";
        return false;
      }
    }
    if (names[0] == names[1]) {
      why = "lambda arguments must differ";
      return false;
    }
    auto body = tasklet::parse_expression(t.substr(colon + 1));
    if (!body.ok()) {
      why = "lambda body does not parse: " + body.error().message;
      return false;
    }
    return true;
  }
  if (!ir::canonical_wcr(t)) {
    why = "not a lambda of two arguments or a known reduction";
    return false;
  }
  return true;
}

static void visit_regions(const ir::ControlFlowRegion& region,
                          const std::function<void(const ir::ControlFlowRegion&)>& fn, int depth) {
  if (depth > 256) return;
  fn(region);
  for (int slot : region.block_slots()) {
    const ir::ControlFlowBlock* b = region.block(slot);
    if (b->kind == ir::BlockKind::Region || b->kind == ir::BlockKind::Loop) {
      visit_regions(static_cast<const ir::ControlFlowRegion&>(*b), fn, depth + 1);
    } else if (b->kind == ir::BlockKind::Conditional) {
      for (const auto& [cond, body] : static_cast<const ir::ConditionalBlock&>(*b).branches)
        if (body) visit_regions(*body, fn, depth + 1);
    }
  }
}

void for_each_region(const ir::ControlFlowRegion& region, const std::function<void(const ir::ControlFlowRegion&)>& fn) {
  visit_regions(region, fn, 0);
}

std::vector<const ir::State*> states_below(const ir::ControlFlowRegion& region) {
  std::vector<const ir::State*> out;
  for_each_region(region, [&](const ir::ControlFlowRegion& r) {
    for (int slot : r.block_slots())
      if (r.block(slot)->kind == ir::BlockKind::State) out.push_back(static_cast<const ir::State*>(r.block(slot)));
  });
  return out;
}

}  // namespace dace::analysis::detail
