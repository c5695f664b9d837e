// Every piece of Python code in DaCe's SDFG corpus parses, prints back to an equal tree, and
// every Python tasklet type-checks against its connectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "ir/tasklet/parser.h"
#include "ir/tasklet/printer.h"
#include "ir/tasklet/typecheck.h"

namespace dace::tasklet {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string corpus_dir() {
  if (const char* env = std::getenv("LIBDACE_CORPUS_DIR")) return env;
#ifdef LIBDACE_CORPUS_DIR
  return LIBDACE_CORPUS_DIR;
#else
  return "/work/shared/sdfg-corpus";
#endif
}

struct Snippets {
  // (code, file) for each kind; kept in order of discovery.
  std::vector<std::pair<std::string, std::string>> expressions;  // conditions, rhs
  std::vector<std::pair<std::string, std::string>> assignments;  // init/update statements
  struct Tasklet {
    std::string code, file;
    json in, out;
  };
  std::vector<Tasklet> tasklets;
  std::set<std::string> symbols;  // every symbol-like name of the file's SDFGs
  size_t cpp_tasklets = 0;
};

const json* code_of(const json& attrs, const char* key) {
  auto it = attrs.find(key);
  if (it == attrs.end() || !it->is_object()) return nullptr;
  auto s = it->find("string_data");
  return s != it->end() && s->is_string() ? &*s : nullptr;
}

void walk(const json& j, const std::string& file, Snippets& out) {
  if (j.is_array()) {
    for (const json& v : j) walk(v, file, out);
    return;
  }
  if (!j.is_object()) return;
  std::string type = j.value("type", std::string());
  auto ai = j.find("attributes");
  const json empty = json::object();
  const json& attrs = ai != j.end() && ai->is_object() ? *ai : empty;
  if (type == "Tasklet") {
    auto code = attrs.find("code");
    if (code != attrs.end() && code->is_object()) {
      std::string lang = code->value("language", std::string("Python"));
      if (lang == "Python") {
        out.tasklets.push_back({code->value("string_data", std::string()), file,
                                attrs.value("in_connectors", json()),
                                attrs.value("out_connectors", json())});
      } else {
        out.cpp_tasklets++;
      }
    }
  } else if (type == "InterstateEdge") {
    if (const json* c = code_of(attrs, "condition")) out.expressions.push_back({*c, file});
    auto as = attrs.find("assignments");
    if (as != attrs.end() && as->is_object())
      for (auto it = as->begin(); it != as->end(); ++it) {
        out.symbols.insert(it.key());
        if (it->is_string()) out.expressions.push_back({it->get<std::string>(), file});
      }
  } else if (type == "LoopRegion") {
    if (const json* c = code_of(attrs, "loop_condition")) out.expressions.push_back({*c, file});
    for (const char* k : {"init_statement", "update_statement"})
      if (const json* c = code_of(attrs, k)) out.assignments.push_back({*c, file});
    if (attrs.contains("loop_variable") && attrs["loop_variable"].is_string())
      out.symbols.insert(attrs["loop_variable"].get<std::string>());
  }
  if (attrs.contains("symbols") && attrs["symbols"].is_object())
    for (auto it = attrs["symbols"].begin(); it != attrs["symbols"].end(); ++it) out.symbols.insert(it.key());
  if (attrs.contains("params") && attrs["params"].is_array())
    for (const json& p : attrs["params"])
      if (p.is_string()) out.symbols.insert(p.get<std::string>());
  auto br = j.find("branches");
  if (br != j.end() && br->is_array())
    for (const json& b : *br)
      if (b.is_array() && !b.empty() && b[0].is_object() && b[0].contains("string_data") &&
          b[0]["string_data"].is_string())
        out.expressions.push_back({b[0]["string_data"].get<std::string>(), file});
  for (auto it = j.begin(); it != j.end(); ++it) walk(*it, file, out);
}

Snippets load_corpus() {
  Snippets s;
  fs::path root = corpus_dir();
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return s;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root, ec))
    if (e.is_regular_file() && e.path().extension() == ".sdfg") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded()) continue;
    walk(j, f.string(), s);
  }
  return s;
}

const Snippets& corpus() {
  static const Snippets s = load_corpus();
  return s;
}

void expect_round_trip_expr(const ExprPtr& e, const std::string& src) {
  std::string printed = to_source(*e);
  Result<ExprPtr> again = parse_expression(printed);
  ASSERT_TRUE(again.ok()) << src << " -> " << printed << ": " << again.error().message;
  EXPECT_TRUE(equal(e, again.value())) << src << " -> " << printed;
}

TEST(TaskletCorpus, EveryCodeStringParsesAndRoundTrips) {
  const Snippets& s = corpus();
  if (s.tasklets.empty()) GTEST_SKIP() << "corpus not found at " << corpus_dir();
  // Counted independently with a Python script over the corpus (distinct strings): 53 Python
  // tasklets, 23 conditions, 35 interstate assignments, 3 loop regions; occurrences are more.
  EXPECT_GE(s.tasklets.size(), 53u);
  EXPECT_GE(s.expressions.size(), 23u + 35u + 3u);
  EXPECT_GE(s.assignments.size(), 6u);
  EXPECT_GE(s.cpp_tasklets, 4u);
  for (const auto& t : s.tasklets) {
    Result<Program> p = parse_code(t.code);
    ASSERT_TRUE(p.ok()) << t.file << ": " << t.code << ": " << p.error().message;
    std::string printed = to_source(p.value());
    Result<Program> again = parse_code(printed);
    ASSERT_TRUE(again.ok()) << t.code << " -> " << printed << ": " << again.error().message;
    EXPECT_TRUE(equal(p.value(), again.value())) << t.code << " -> " << printed;
  }
  for (const auto& [code, file] : s.expressions) {
    Result<ExprPtr> e = parse_expression(code);
    ASSERT_TRUE(e.ok()) << file << ": " << code << ": " << e.error().message;
    expect_round_trip_expr(e.value(), code);
  }
  for (const auto& [code, file] : s.assignments) {
    Result<Assignment> a = parse_assignment(code);
    ASSERT_TRUE(a.ok()) << file << ": " << code << ": " << a.error().message;
    expect_round_trip_expr(a->value, code);
  }
}

// Connector dtype as DaCe writes it: "float64", {"type": "pointer", "dtype": "int64"}, or null.
ScalarType connector_type(const json& j) {
  std::string name;
  if (j.is_string()) name = j.get<std::string>();
  if (j.is_object() && j.contains("dtype") && j["dtype"].is_string()) name = j["dtype"].get<std::string>();
  return type_from_name(name).value_or(ScalarType::Unknown);
}

// Rank of a connector as memlet analysis would report it: the number of indices the code
// uses on it (DaCe's JSON does not store it on the connector).
int used_rank(const Expr& e, const std::string& name) {
  if (const Subscript* s = e.as<Subscript>()) {
    if (s->value->is<Name>() && s->value->as<Name>()->id == name) return static_cast<int>(s->indices.size());
  }
  return 0;
}

void ranks_in(const Program& p, std::map<std::string, int>& ranks) {
  std::vector<StmtPtr> todo(p.body.begin(), p.body.end());
  std::vector<const Expr*> exprs;
  while (!todo.empty()) {
    StmtPtr s = todo.back();
    todo.pop_back();
    if (const Assign* a = s->as<Assign>()) {
      for (const ExprPtr& t : a->targets) exprs.push_back(t.get());
      exprs.push_back(a->value.get());
    } else if (const If* i = s->as<If>()) {
      exprs.push_back(i->test.get());
      todo.insert(todo.end(), i->body.begin(), i->body.end());
      todo.insert(todo.end(), i->orelse.begin(), i->orelse.end());
    }
  }
  for (const Expr* e : exprs)
    for (auto& [name, rank] : ranks) rank = std::max(rank, used_rank(*e, name));
}

TEST(TaskletCorpus, EveryPythonTaskletTypeChecks) {
  const Snippets& s = corpus();
  if (s.tasklets.empty()) GTEST_SKIP() << "corpus not found at " << corpus_dir();
  std::map<std::string, ScalarType> symbols;
  for (const std::string& n : s.symbols) symbols[n] = ScalarType::Int64;
  for (const auto& t : s.tasklets) {
    Result<Program> p = parse_code(t.code);
    ASSERT_TRUE(p.ok());
    std::map<std::string, ConnectorInfo> in, out;
    std::map<std::string, int> ranks;
    for (const json* side : {&t.in, &t.out})
      if (side->is_object())
        for (auto it = side->begin(); it != side->end(); ++it) ranks[it.key()] = 0;
    ranks_in(p.value(), ranks);
    if (t.in.is_object())
      for (auto it = t.in.begin(); it != t.in.end(); ++it)
        in[it.key()] = ConnectorInfo{connector_type(*it), ranks[it.key()], false};
    if (t.out.is_object())
      for (auto it = t.out.begin(); it != t.out.end(); ++it)
        out[it.key()] = ConnectorInfo{connector_type(*it), ranks[it.key()], false};
    std::map<std::string, ScalarType> syms = symbols;
    for (const auto& [n, info] : in) syms.erase(n);
    for (const auto& [n, info] : out) syms.erase(n);
    Result<TypedProgram> tp = typecheck(p.value(), in, out, syms);
    EXPECT_TRUE(tp.ok()) << t.file << ": " << t.code << ": " << (tp.ok() ? "" : tp.error().message);
  }
}

}  // namespace
}  // namespace dace::tasklet
