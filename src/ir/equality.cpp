// Equality and hashing through the canonical JSON: one definition of "same SDFG" for the
// whole project, which ignores guids, removed slots and derived fields by construction.
#include "ir/equality.h"

#include <nlohmann/json.hpp>

#include "ir/json/sdfg_json.h"
#include "ir/sha256.h"

namespace dace::ir {
namespace {

using Json = nlohmann::ordered_json;

std::string canonical_text(const SDFG& sdfg) {
  json::WriteOptions options;
  options.pretty = false;
  options.include_guids = false;
  return json::write_sdfg(sdfg, options);
}

std::string short_value(const Json* v) {
  if (!v) return "(missing)";
  std::string s = v->dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > 120) s = s.substr(0, 117) + "...";
  return s;
}

std::string escape_pointer(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

// First difference in document order; false if equal.
bool first_difference(const Json& a, const Json& b, const std::string& where, std::string& out) {
  if (a.type() != b.type() || (!a.is_object() && !a.is_array())) {
    if (a == b) return false;
    out = (where.empty() ? "/" : where) + ": " + short_value(&a) + " vs " + short_value(&b);
    return true;
  }
  if (a.is_array()) {
    size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i)
      if (first_difference(a[i], b[i], where + "/" + std::to_string(i), out)) return true;
    if (a.size() == b.size()) return false;
    out = where + ": " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " elements";
    return true;
  }
  for (const auto& [key, value] : a.items()) {
    auto other = b.find(key);
    std::string path = where + "/" + escape_pointer(key);
    if (other == b.end()) {
      out = path + ": " + short_value(&value) + " vs (missing)";
      return true;
    }
    if (first_difference(value, *other, path, out)) return true;
  }
  for (const auto& [key, value] : b.items()) {
    if (!a.contains(key)) {
      out = where + "/" + escape_pointer(key) + ": (missing) vs " + short_value(&value);
      return true;
    }
  }
  // Same keys and values in another order: still a difference of the canonical text.
  if (a.dump() != b.dump()) {
    out = (where.empty() ? "/" : where) + ": same properties in a different order";
    return true;
  }
  return false;
}

}  // namespace

bool structurally_equal(const SDFG& a, const SDFG& b, std::string* difference) {
  std::string ta = canonical_text(a), tb = canonical_text(b);
  if (ta == tb) return true;
  if (difference) {
    Json ja = Json::parse(ta, nullptr, false), jb = Json::parse(tb, nullptr, false);
    std::string out;
    if (ja.is_discarded() || jb.is_discarded() || !first_difference(ja, jb, "", out)) out = "canonical JSON differs";
    *difference = out;
  }
  return false;
}

std::string content_hash(const SDFG& sdfg) { return sha256_hex(canonical_text(sdfg)); }

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex_digest();
}

}  // namespace dace::ir
