// Differential test of the reader's JSON fast path (parse_simple_value, docs/sdfg-json.md
// "Reading large files") through the public load path, read_sdfg. Each text — a corpus or
// test-data SDFG, its canonical compact form, or a hostile mutant of one (escapes, non-ASCII
// and invalid UTF-8, big and odd integers, duplicate keys, truncation, deep nesting, stray
// bytes, spliced values) — is read three ways:
//   1. read_sdfg with the fast path on (what every user gets),
//   2. read_sdfg with the fast path off (every value parsed by nlohmann),
//   3. read_sdfg_whole_dom (one nlohmann DOM of the whole text: the reference reader that the
//      streaming reader claims to equal, status and message included).
// All three must agree on the status, the message and the error position; on success the
// saved bytes (pretty, with guids) and the content hash must be equal. A difference prints
// the text's origin and mutations, writes the text to --findings DIR, and exits 1.
//
// Usage: json_fast_path_diff [--cpu-seconds S] [--seed N] [--findings DIR] [--max-mutants N]
//                            PATH...    (files or folders of .sdfg / .sdfgz)
// Stops after S seconds of CPU time (ctest: a few; a manual run: as long as wanted). The
// sequence of mutants depends only on the seed and the inputs; the CPU budget decides how
// far into it a run gets.
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ir/equality.h"
#include "ir/json/json_internal.h"
#include "ir/json/sdfg_json.h"

namespace {

namespace fs = std::filesystem;
using dace::ir::json::read_sdfg;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

// ---- What one reading gives, in comparable form -------------------------------------------

struct Outcome {
  bool ok = false;
  std::string code, message;
  int line = 0, column = 0;
  std::string saved, hash;  // on success

  std::string describe() const {
    if (ok) return "ok, " + std::to_string(saved.size()) + " bytes saved, hash " + hash;
    return code + " at " + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
  }
  bool operator==(const Outcome& o) const {
    return ok == o.ok && code == o.code && message == o.message && line == o.line && column == o.column &&
           saved == o.saved && hash == o.hash;
  }
};

template <class Read>
Outcome outcome_of(Read read) {
  Outcome o;
  auto r = read();
  if (!r) {
    o.code = dace::code_name(r.error().code);
    o.message = r.error().message;
    o.line = r.error().line;
    o.column = r.error().column;
    return o;
  }
  if (!*r) {
    o.code = "null SDFG without an error";
    return o;
  }
  o.ok = true;
  o.saved = dace::ir::json::write_sdfg(**r);
  o.hash = dace::ir::content_hash(**r);
  return o;
}

// ---- Tokens of (possibly broken) JSON text, for choosing where to mutate ------------------

enum class Tok { String, Number, Literal, Open, Close, Colon, Comma };
struct Token {
  Tok kind;
  size_t begin, end;  // [begin, end) in the text
  size_t match = 0;   // Open/Close: index of the matching bracket token (when balanced)
};

std::vector<Token> tokenize(const std::string& t) {
  std::vector<Token> out;
  std::vector<size_t> open;
  size_t i = 0;
  const size_t n = t.size();
  while (i < n) {
    const char c = t[i];
    if (c == '"') {
      size_t j = i + 1;
      while (j < n && t[j] != '"') j += t[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      out.push_back({Tok::String, i, j});
      i = j;
    } else if (c == '{' || c == '[') {
      open.push_back(out.size());
      out.push_back({Tok::Open, i, i + 1});
      ++i;
    } else if (c == '}' || c == ']') {
      Token tok{Tok::Close, i, i + 1};
      if (!open.empty()) {
        tok.match = open.back();
        out[open.back()].match = out.size();
        open.pop_back();
      }
      out.push_back(tok);
      ++i;
    } else if (c == ':' || c == ',') {
      out.push_back({c == ':' ? Tok::Colon : Tok::Comma, i, i + 1});
      ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i + 1;
      while (j < n && (std::isdigit(static_cast<unsigned char>(t[j])) || t[j] == '.' || t[j] == 'e' || t[j] == 'E' ||
                       t[j] == '+' || t[j] == '-'))
        ++j;
      out.push_back({Tok::Number, i, j});
      i = j;
    } else if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t j = i + 1;
      while (j < n && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
      out.push_back({Tok::Literal, i, j});
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

// The byte range of the value starting at token k (a scalar or a balanced bracket pair).
bool value_range(const std::vector<Token>& toks, size_t k, size_t& begin, size_t& end) {
  if (k >= toks.size()) return false;
  const Token& t = toks[k];
  if (t.kind == Tok::Open) {
    if (t.match <= k || t.match >= toks.size()) return false;
    begin = t.begin;
    end = toks[t.match].end;
    return true;
  }
  if (t.kind == Tok::String || t.kind == Tok::Number || t.kind == Tok::Literal) {
    begin = t.begin;
    end = t.end;
    return true;
  }
  return false;
}

// ---- Mutations ----------------------------------------------------------------------------

// Pieces put into strings: escapes nlohmann decodes (and ones it refuses), non-ASCII UTF-8,
// invalid UTF-8, control characters.
const std::vector<std::string> kStringPieces = {
    "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\b", "\\f", "\\r", "\\u0041", "\\u00e9", "\\u20ac", "\\ud83d\\ude00",
    "\\ud800", "\\udc00", "\\ud800\\u0041", "\\u0000", "\\u001f", "\\x41", "\\", "\\u12", "\\U0041", "\xc3\xa9",
    "\xf0\x9f\x98\x80", "\xe2\x82\xac", "\xff", "\xc0\xaf", "\xed\xa0\x80", "\xe2\x82", "\xf4\x90\x80\x80", "\x01",
    "\x1f", "\t", "\n", "\x7f", " ", "\"", "\xef\xbb\xbf"};

// Replacements of a number: the fast path's limits (18 digits, sign, leading zeros) and
// everything it leaves to nlohmann.
const std::vector<std::string> kNumbers = {
    "0", "-0", "00", "01", "-01", "007", "1", "-1", "17", "999999999999999999", "-999999999999999999",
    "1000000000000000000", "-1000000000000000000", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "100000000000000000000000000000", "-100000000000000000000000000000", "1.0", "0.0", "-0.0", "1e3", "1E+3", "2e-1",
    "1.5e308", "1e400", "-1e400", "1.", ".5", "+1", "-", "--1", "1e", "0x10", "1_000", "Infinity", "NaN", "0.1e-0"};

const std::vector<std::string> kLiterals = {"true", "false", "null", "True", "False", "None", "NULL", "tru",
                                            "nul",  "falsey", "truefalse", "\"true\"", "0", "[]", "{}"};

const std::vector<std::string> kPreferredKeys = {"type", "nodes", "edges", "attributes", "label", "data", "id",
                                                 "src", "dst", "start_block", "start_state", "dace_version",
                                                 "_arrays", "subset", "code", "string_data", "shape", "name"};

const std::vector<std::string> kStray = {"{", "}", "[", "]", ",", ":", "\"", "\\", " ", "\t", "\r", "\n", "\f",
                                         "\v", "\xa0", std::string(1, '\0'), "x", "0", "-", "/", "//", "/*", "#"};

const std::vector<int> kDepths = {1, 2, 3, 100, 499, 500, 510, 511, 512, 513, 1000, 1015, 1020, 1023, 1024, 1025, 1100};

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng_() % n); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

  // One mutation of `t`; appends what it did to `log`.
  void mutate(std::string& t, std::string& log) {
    const std::vector<Token> toks = tokenize(t);
    const int kind = static_cast<int>(below(18));
    switch (kind) {
      case 0: return escape_equivalent(t, toks, log);
      case 1: return string_piece(t, toks, log);
      case 2: return number(t, toks, log);
      case 3: return literal(t, toks, log);
      case 4:
      case 5: return duplicate_member(t, toks, log);
      case 6: return truncate(t, log);
      case 7: return nest(t, toks, log);
      case 8: return stray(t, log);
      case 9: return whitespace(t, toks, log);
      case 10: return splice(t, toks, log);
      case 11: return delete_member(t, toks, log);
      case 12: return ends(t, log);
      case 14:
      case 15: return move_member(t, toks, log);
      case 16:
      case 17: return insert_member(t, toks, log);
      default: return same_value_other_spelling(t, toks, log);
    }
  }

 private:
  // Tokens of a kind, optionally only keys (a string followed by ':') or only values.
  std::vector<size_t> of_kind(const std::vector<Token>& toks, Tok kind, int keys) {
    std::vector<size_t> out;
    for (size_t k = 0; k < toks.size(); ++k) {
      if (toks[k].kind != kind) continue;
      const bool is_key = kind == Tok::String && k + 1 < toks.size() && toks[k + 1].kind == Tok::Colon;
      if (keys == 1 && !is_key) continue;
      if (keys == 0 && is_key) continue;
      out.push_back(k);
    }
    return out;
  }

  void replace(std::string& t, size_t begin, size_t end, const std::string& with) {
    t.replace(begin, end - begin, with);
  }

  // A character of a string written as a \uXXXX escape (or \/): the same value, but the
  // fast path must decline it and nlohmann decode it. The SDFG must load exactly as before.
  void escape_equivalent(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto strings = of_kind(toks, Tok::String, below(3) == 0 ? 1 : -1);
    if (strings.empty()) return;
    const Token& s = toks[pick(strings)];
    if (s.end - s.begin < 3) return;
    const size_t at = s.begin + 1 + below(s.end - s.begin - 2);
    const unsigned char c = static_cast<unsigned char>(t[at]);
    if (c == '\\' || c == '"' || c < 0x20 || c >= 0x80) return;
    char buf[8];
    std::snprintf(buf, sizeof buf, below(2) ? "\\u%04x" : "\\u%04X", c);
    const std::string esc = c == '/' && below(2) ? std::string("\\/") : std::string(buf);
    replace(t, at, at + 1, esc);
    log += " escape@" + std::to_string(at);
  }

  void string_piece(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto strings = of_kind(toks, Tok::String, -1);
    if (strings.empty()) return;
    const Token& s = toks[pick(strings)];
    const std::string& piece = pick(kStringPieces);
    if (s.end - s.begin >= 2 && below(3) == 0) {
      replace(t, s.begin + 1, s.end - 1, piece);
    } else {
      const size_t at = s.begin + 1 + below(std::max<size_t>(1, s.end - s.begin - 1));
      t.insert(std::min(at, t.size()), piece);
    }
    log += " string-piece@" + std::to_string(s.begin);
  }

  void number(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto nums = of_kind(toks, Tok::Number, -1);
    if (nums.empty()) return;
    const Token& n = toks[pick(nums)];
    const std::string& with = pick(kNumbers);
    replace(t, n.begin, n.end, with);
    log += " number@" + std::to_string(n.begin) + "=" + with;
  }

  void literal(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto lits = of_kind(toks, Tok::Literal, -1);
    if (lits.empty()) return;
    const Token& l = toks[pick(lits)];
    const std::string& with = pick(kLiterals);
    replace(t, l.begin, l.end, with);
    log += " literal@" + std::to_string(l.begin) + "=" + with;
  }

  // `"key": value` again in the same object (before or after), with the same value or
  // another value taken from elsewhere in the text. Prefers keys that steer the reader.
  void duplicate_member(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto keys = of_kind(toks, Tok::String, 1);
    if (keys.empty()) return;
    std::vector<size_t> preferred;
    for (size_t k : keys)
      for (const auto& name : kPreferredKeys)
        if (t.compare(toks[k].begin, toks[k].end - toks[k].begin, "\"" + name + "\"") == 0) preferred.push_back(k);
    const size_t k = !preferred.empty() && below(4) != 0 ? pick(preferred) : pick(keys);
    size_t vb = 0, ve = 0;
    if (!value_range(toks, k + 2, vb, ve)) return;
    std::string value = t.substr(vb, ve - vb);
    if (below(2) == 0) {
      size_t ob = 0, oe = 0;
      if (value_range(toks, below(toks.size()), ob, oe) && oe - ob < 4096) value = t.substr(ob, oe - ob);
    }
    const std::string member = t.substr(toks[k].begin, toks[k].end - toks[k].begin) + ": " + value;
    if (below(2) == 0) t.insert(ve, ", " + member);
    else t.insert(toks[k].begin, member + ", ");
    log += " duplicate@" + std::to_string(toks[k].begin) + "=" + t.substr(toks[k].begin, toks[k].end - toks[k].begin);
  }

  void truncate(std::string& t, std::string& log) {
    const size_t at = below(t.size() + 1);
    t.resize(at);
    log += " truncate@" + std::to_string(at);
  }

  // A value wrapped in many brackets, around the fast path's depth limit and the reader's.
  void nest(std::string& t, const std::vector<Token>& toks, std::string& log) {
    size_t b = 0, e = 0;
    if (!value_range(toks, below(toks.size()), b, e)) return;
    const int depth = pick(kDepths);
    const bool objects = below(2) == 0;
    std::string open, close;
    for (int d = 0; d < depth; ++d) {
      open += objects ? "{\"k\": " : "[";
      close += objects ? "}" : "]";
    }
    t.insert(e, close);
    t.insert(b, open);
    log += " nest@" + std::to_string(b) + "x" + std::to_string(depth) + (objects ? "{}" : "[]");
  }

  void stray(std::string& t, std::string& log) {
    const size_t at = below(t.size() + 1);
    const std::string& s = pick(kStray);
    switch (below(3)) {
      case 0: t.insert(at, s); break;
      case 1:
        if (at < t.size()) t.erase(at, 1);
        break;
      default:
        if (at < t.size()) t.replace(at, 1, s);
        break;
    }
    log += " stray@" + std::to_string(at);
  }

  // Whitespace between tokens: JSON's four, and bytes that are not JSON whitespace.
  void whitespace(std::string& t, const std::vector<Token>& toks, std::string& log) {
    if (toks.empty()) return;
    static const std::vector<std::string> ws = {" ", "\t", "\r", "\n", "\r\n", "  \t\n", "\f", "\v", "\xa0"};
    const size_t at = toks[below(toks.size())].begin;
    t.insert(at, pick(ws));
    log += " ws@" + std::to_string(at);
  }

  // One value replaced by another from elsewhere in the text (type and content errors).
  void splice(std::string& t, const std::vector<Token>& toks, std::string& log) {
    size_t b = 0, e = 0, ob = 0, oe = 0;
    if (!value_range(toks, below(toks.size()), b, e) || !value_range(toks, below(toks.size()), ob, oe)) return;
    if (oe - ob > 65536) return;
    const std::string other = t.substr(ob, oe - ob);
    replace(t, b, e, other);
    log += " splice@" + std::to_string(b);
  }

  void delete_member(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto keys = of_kind(toks, Tok::String, 1);
    if (keys.empty()) return;
    const size_t k = pick(keys);
    size_t vb = 0, ve = 0;
    if (!value_range(toks, k + 2, vb, ve)) return;
    size_t end = ve;
    // The separator after it, if any, goes too.
    while (end < t.size() && (t[end] == ' ' || t[end] == '\n')) ++end;
    if (end < t.size() && t[end] == ',' && below(4) != 0) ++end;
    t.erase(toks[k].begin, end - toks[k].begin);
    log += " delete@" + std::to_string(toks[k].begin);
  }

  // A member moved to the front or the end of its object: DaCe writes `type` first, the
  // streaming reader must also handle it last (lists seen before the type), and duplicates
  // on either side of it.
  void move_member(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto keys = of_kind(toks, Tok::String, 1);
    if (keys.empty()) return;
    std::vector<size_t> preferred;
    for (size_t k : keys)
      for (const char* name : {"\"type\"", "\"nodes\"", "\"edges\"", "\"attributes\""})
        if (t.compare(toks[k].begin, toks[k].end - toks[k].begin, name) == 0) preferred.push_back(k);
    const size_t k = !preferred.empty() && below(4) != 0 ? pick(preferred) : pick(keys);
    size_t vb = 0, ve = 0;
    if (!value_range(toks, k + 2, vb, ve)) return;
    // The enclosing object: the nearest unmatched '{' before the key.
    int depth = 0;
    size_t open = SIZE_MAX;
    for (size_t j = k; j-- > 0;) {
      if (toks[j].kind == Tok::Close) ++depth;
      else if (toks[j].kind == Tok::Open) {
        if (depth == 0) {
          open = j;
          break;
        }
        --depth;
      }
    }
    if (open == SIZE_MAX || t[toks[open].begin] != '{' || toks[open].match >= toks.size()) return;
    const size_t obj_begin = toks[open].begin + 1, obj_end = toks[toks[open].match].begin;
    const std::string member = t.substr(toks[k].begin, ve - toks[k].begin);
    // Remove the member with one comma next to it (the one after, else the one before).
    size_t cut_b = toks[k].begin, cut_e = ve;
    size_t after = ve;
    while (after < obj_end && (t[after] == ' ' || t[after] == '\n' || t[after] == '\t' || t[after] == '\r')) ++after;
    if (after < obj_end && t[after] == ',') {
      cut_e = after + 1;
    } else {
      size_t before = cut_b;
      while (before > obj_begin && (t[before - 1] == ' ' || t[before - 1] == '\n' || t[before - 1] == '\t' ||
                                    t[before - 1] == '\r'))
        --before;
      if (before > obj_begin && t[before - 1] == ',') cut_b = before - 1;
      else return;  // the only member
    }
    const bool to_front = below(2) == 0;
    std::string rest = t.substr(obj_begin, obj_end - obj_begin);
    rest.erase(cut_b - obj_begin, cut_e - cut_b);
    // Trim so the separator goes where it belongs.
    const size_t first = rest.find_first_not_of(" \n\t\r"), last = rest.find_last_not_of(" \n\t\r");
    if (first == std::string::npos) return;
    rest = rest.substr(first, last - first + 1);
    const std::string body = to_front ? member + ", " + rest : rest + ", " + member;
    t.replace(obj_begin, obj_end - obj_begin, body);
    log += std::string(" move@") + std::to_string(toks[k].begin) + (to_front ? "-front" : "-back");
  }

  // A new member at the front or the end of an object: a key that steers the reader (`type`
  // with a block or node class, `nodes`, `edges`) with a value from a small table or from
  // elsewhere in the text. With the object's own member of that key, this is a duplicate on
  // the other side of its `type`.
  void insert_member(std::string& t, const std::vector<Token>& toks, std::string& log) {
    std::vector<size_t> objects;
    for (size_t k = 0; k < toks.size(); ++k)
      if (toks[k].kind == Tok::Open && t[toks[k].begin] == '{' && toks[k].match < toks.size()) objects.push_back(k);
    if (objects.empty()) return;
    const Token& open = toks[pick(objects)];
    static const std::vector<std::string> types = {"\"SDFGState\"", "\"LoopRegion\"", "\"ControlFlowRegion\"",
                                                   "\"ConditionalBlock\"", "\"SDFG\"", "\"AccessNode\"",
                                                   "\"MapEntry\"", "\"Memlet\"", "5", "null"};
    static const std::vector<std::string> lists = {"[]", "{}", "null", "[[]]", "[{}]", "[1]", "\"x\""};
    const size_t which = below(3);
    const std::string key = which == 0 ? "type" : which == 1 ? "nodes" : "edges";
    std::string value = which == 0 ? pick(types) : pick(lists);
    if (below(3) == 0) {
      size_t ob = 0, oe = 0;
      if (value_range(toks, below(toks.size()), ob, oe) && oe - ob < 65536) value = t.substr(ob, oe - ob);
    }
    const std::string member = "\"" + key + "\": " + value;
    const bool empty = toks[open.match].begin == open.end ||
                       t.find_first_not_of(" \n\t\r", open.end) == toks[open.match].begin;
    if (below(2) == 0) t.insert(open.end, empty ? member : member + ", ");
    else t.insert(toks[open.match].begin, empty ? member : ", " + member);
    log += " insert@" + std::to_string(open.begin) + "=" + key;
  }

  void ends(std::string& t, std::string& log) {
    static const std::vector<std::string> heads = {"\xef\xbb\xbf", " ", "\n", "x", "[", "{}", "\"\""};
    static const std::vector<std::string> tails = {"\n", "x", ",", "}", "]", "{}", " 1", "\"", std::string(1, '\0')};
    if (below(2) == 0) {
      t.insert(0, pick(heads));
      log += " head";
    } else {
      t += pick(tails);
      log += " tail";
    }
  }

  // A number or literal written another way nlohmann reads as the same value or a value of
  // another type: 5 -> 5.0, 5e0, 05, -0; true -> 1.
  void same_value_other_spelling(std::string& t, const std::vector<Token>& toks, std::string& log) {
    auto nums = of_kind(toks, Tok::Number, -1);
    if (nums.empty()) return;
    const Token& n = toks[pick(nums)];
    static const std::vector<std::string> suffixes = {".0", "e0", "E0", ".00e+0", "0", "e-0"};
    const std::string& s = pick(suffixes);
    if (below(3) == 0) t.insert(n.begin + (t[n.begin] == '-' ? 1 : 0), "0");
    else t.insert(n.end, s);
    log += " respell@" + std::to_string(n.begin);
  }

  std::mt19937_64 rng_;
};

// ---- Inputs -------------------------------------------------------------------------------

struct Base {
  std::string name, text;
};

bool read_file(const fs::path& p, std::string& out) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

void collect(const fs::path& root, std::vector<Base>& bases) {
  std::vector<fs::path> files;
  if (fs::is_directory(root)) {
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file()) files.push_back(e.path());
  } else {
    files.push_back(root);
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string ext = f.extension().string();
    if (ext != ".sdfg" && ext != ".sdfgz") continue;
    std::string text;
    if (!read_file(f, text)) continue;
    if (dace::ir::json::is_gzip(text)) {
      auto inflated = dace::ir::json::gzip_decompress(text);
      if (!inflated) continue;
      text = std::move(*inflated);
    }
    bases.push_back({f.string(), std::move(text)});
  }
}

// ---- The comparison -----------------------------------------------------------------------

struct Stats {
  size_t texts = 0, loaded = 0, refused = 0;
  std::map<std::string, size_t> codes;
};

// False on a difference (printed, and the text saved under `findings`).
bool compare(const std::string& text, const std::string& origin, const std::string& findings, Stats& stats) {
  dace::ir::json::detail::set_json_fast_path(true);
  const Outcome fast = outcome_of([&] { return read_sdfg(text); });
  dace::ir::json::detail::set_json_fast_path(false);
  const Outcome slow = outcome_of([&] { return read_sdfg(text); });
  const Outcome whole = outcome_of([&] { return dace::ir::json::read_sdfg_whole_dom(text); });
  dace::ir::json::detail::set_json_fast_path(true);
  ++stats.texts;
  if (fast.ok) ++stats.loaded;
  else {
    ++stats.refused;
    ++stats.codes[fast.code];
  }
  if (fast == slow && fast == whole) return true;
  std::fprintf(stderr, "DIFFERENCE for %s\n  fast path on:  %s\n  fast path off: %s\n  whole DOM:     %s\n",
               origin.c_str(), fast.describe().c_str(), slow.describe().c_str(), whole.describe().c_str());
  if (!findings.empty()) {
    fs::create_directories(findings);
    const fs::path out = fs::path(findings) / ("diff-" + std::to_string(stats.texts) + ".sdfg");
    std::ofstream(out, std::ios::binary) << text;
    std::fprintf(stderr, "  text saved to %s\n", out.c_str());
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  double budget = 3.0;
  uint64_t seed = 20261126;
  size_t max_mutants = SIZE_MAX;
  std::string findings;
  std::vector<Base> bases;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--cpu-seconds" && i + 1 < argc) budget = std::atof(argv[++i]);
    else if (arg == "--seed" && i + 1 < argc) seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--findings" && i + 1 < argc) findings = argv[++i];
    else if (arg == "--max-mutants" && i + 1 < argc) max_mutants = std::strtoull(argv[++i], nullptr, 10);
    else collect(argv[i], bases);
  }
  if (bases.empty()) {
    std::printf("skip: no .sdfg/.sdfgz files found in the given paths\n");
    return 77;
  }
  const double start = cpu_seconds();
  Stats stats;
  size_t differences = 0;
  // Every base as it is, and its canonical compact form (no whitespace at all).
  std::vector<Base> pool;
  for (const Base& b : bases) {
    if (!compare(b.text, b.name, findings, stats)) ++differences;
    pool.push_back(b);
    auto read = read_sdfg(b.text);
    if (read && *read) {
      dace::ir::json::WriteOptions compact;
      compact.pretty = false;
      pool.push_back({b.name + " (compact)", dace::ir::json::write_sdfg(**read, compact)});
    }
  }
  const size_t unmutated = stats.texts;
  // Smaller texts are read more often: mutants of a 600 KB file cost 100 times one of 6 KB.
  std::vector<double> weights;
  for (const Base& b : pool) weights.push_back(1.0 / std::sqrt(static_cast<double>(b.text.size()) + 1024.0));
  std::discrete_distribution<size_t> choose(weights.begin(), weights.end());
  std::mt19937_64 order(seed);
  Mutator mutator(seed ^ 0x9e3779b97f4a7c15ULL);
  size_t mutants = 0;
  while (mutants < max_mutants && cpu_seconds() - start < budget && differences < 5) {
    const Base& b = pool[choose(order)];
    std::string text = b.text;
    std::string log;
    const size_t count = 1 + mutator.below(3);
    for (size_t m = 0; m < count; ++m) mutator.mutate(text, log);
    ++mutants;
    if (!compare(text, b.name + ", mutant " + std::to_string(mutants) + ":" + log, findings, stats)) ++differences;
  }
  std::printf("json fast path differential: %zu texts (%zu unmutated, %zu mutants), %zu loaded, %zu refused (",
              stats.texts, unmutated, mutants, stats.loaded, stats.refused);
  bool first = true;
  for (const auto& [code, n] : stats.codes) {
    std::printf("%s%s %zu", first ? "" : ", ", code.c_str(), n);
    first = false;
  }
  std::printf("), %zu differences, %.1f s CPU, seed %llu\n", differences, cpu_seconds() - start,
              static_cast<unsigned long long>(seed));
  return differences == 0 ? 0 : 1;
}
