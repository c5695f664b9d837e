#include "transform/history.h"

#include <nlohmann/json.hpp>

#include "ir/json/sdfg_json.h"

namespace dace::transform {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kKey = "transformation_hist";

Json entry_json(const HistoryEntry& e) {
  Json j = Json::object();
  if (e.kind == HistoryEntry::Kind::Pattern) {
    j["type"] = "PatternTransformation";
    j["transformation"] = e.transformation;
    j["cfg_id"] = e.match.cfg_id;
    j["state_id"] = e.match.state_id;
    Json sub = Json::object();
    for (size_t i = 0; i < e.match.subgraph.size(); ++i) sub[std::to_string(i)] = e.match.subgraph[i];
    j["_subgraph"] = std::move(sub);
    j["expr_index"] = e.match.expr_index;
  } else {
    j["type"] = "Pass";
    j["transformation"] = e.transformation;
    j["CATEGORY"] = "Simplification";
  }
  Json props = Json::parse(e.properties, nullptr, false);
  if (props.is_object())
    for (auto& [k, v] : props.items()) j[k] = v;
  return j;
}

Json stored(const ir::SDFG& root) {
  auto it = root.extra.find(kKey);
  if (it == root.extra.end()) return Json::array();
  Json j = Json::parse(it->second, nullptr, false);
  return j.is_array() ? j : Json::array();
}

Result<HistoryEntry> parse_entry(const Json& j, size_t index) {
  const std::string where = "history entry " + std::to_string(index) + ": ";
  if (!j.is_object()) return make_error(Code::InvalidArgument, where + "not a JSON object");
  HistoryEntry e;
  const Json* type = j.contains("type") ? &j["type"] : nullptr;
  if (!type || !type->is_string()) return make_error(Code::InvalidArgument, where + "no \"type\"");
  if (*type == "PatternTransformation") e.kind = HistoryEntry::Kind::Pattern;
  else if (*type == "Pass") e.kind = HistoryEntry::Kind::Pass;
  else return make_error(Code::Unsupported, where + "type " + type->dump() + " cannot be replayed");
  if (!j.contains("transformation") || !j["transformation"].is_string())
    return make_error(Code::InvalidArgument, where + "no \"transformation\" name");
  e.transformation = j["transformation"].get<std::string>();
  Json props = Json::object();
  for (const auto& [k, v] : j.items()) {
    if (k == "type" || k == "transformation" || k == "CATEGORY") continue;
    if (e.kind == HistoryEntry::Kind::Pattern && (k == "cfg_id" || k == "state_id" || k == "expr_index")) {
      if (!v.is_number_integer()) return make_error(Code::InvalidArgument, where + "\"" + k + "\" is not an integer");
      int value = v.get<int>();
      (k == "cfg_id" ? e.match.cfg_id : k == "state_id" ? e.match.state_id : e.match.expr_index) = value;
      continue;
    }
    if (e.kind == HistoryEntry::Kind::Pattern && k == "_subgraph") {
      if (!v.is_object()) return make_error(Code::InvalidArgument, where + "\"_subgraph\" is not an object");
      // Keys are pattern indices "0", "1", ...: all of them, each once.
      e.match.subgraph.assign(v.size(), -1);
      for (const auto& [pk, pv] : v.items()) {
        size_t idx = 0;
        try {
          idx = std::stoul(pk);
        } catch (...) {
          idx = v.size();
        }
        if (idx >= v.size() || !pv.is_number_integer() || e.match.subgraph[idx] != -1)
          return make_error(Code::InvalidArgument, where + "bad \"_subgraph\" entry \"" + pk + "\"");
        e.match.subgraph[idx] = pv.get<int>();
      }
      continue;
    }
    props[k] = v;
  }
  e.properties = props.dump();
  return e;
}

// Whether the next recorded step is the first: the stored list is absent, empty or not a
// list (record replaces that). Looks at the text only, as this runs before every step.
bool history_is_empty(const ir::SDFG& root) {
  auto it = root.extra.find(kKey);
  if (it == root.extra.end()) return true;
  const std::string& text = it->second;
  return text.size() < 2 || text.front() != '[' || text == "[]";
}

bool has_original(const ir::SDFG& root) {
  auto it = root.extra.find(kOriginalKey);
  return it != root.extra.end() && it->second != "null";
}

// DaCe's clone for orig_sdfg has an empty history and no original of its own; a snapshot is
// only taken when both are absent, so the copy is written as it is.
std::string original_text(const ir::SDFG& before) {
  ir::json::WriteOptions compact;
  compact.pretty = false;
  return ir::json::write_sdfg(before, compact);
}

}  // namespace

std::string to_json(const HistoryEntry& e) { return entry_json(e).dump(); }

Result<std::vector<HistoryEntry>> parse_history(std::string_view text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return make_error(Code::ParseError, "history is not valid JSON");
  if (j.is_object()) j = Json::array({j});
  if (!j.is_array()) return make_error(Code::InvalidArgument, "history is neither a list nor an object");
  std::vector<HistoryEntry> out;
  for (size_t i = 0; i < j.size(); ++i) {
    Result<HistoryEntry> e = parse_entry(j[i], i);
    if (!e.ok()) return e.take_error();
    out.push_back(std::move(*e));
  }
  return out;
}

std::string history_json(const std::vector<HistoryEntry>& entries) {
  std::string out = "[";
  for (size_t i = 0; i < entries.size(); ++i) out += (i ? ",\n " : "\n ") + to_json(entries[i]);
  return out + (entries.empty() ? "]\n" : "\n]\n");
}

OriginalSnapshot::OriginalSnapshot(const ir::SDFG& root) {
  if (history_is_empty(root) && !has_original(root)) before_ = root.clone_sdfg();
}

std::optional<std::string> original_of(const ir::SDFG& root) {
  if (!has_original(root)) return std::nullopt;
  const std::string& text = root.extra.at(kOriginalKey);
  // DaCe reads a string holding the JSON too (its backwards-compatible form).
  if (!text.empty() && text.front() == '"') {
    Json j = Json::parse(text, nullptr, false);
    if (j.is_string()) return j.get<std::string>();
  }
  return text;
}

void record(ir::SDFG& root, const HistoryEntry& e, OriginalSnapshot* before) {
  if (before && !has_original(root))
    if (std::unique_ptr<ir::SDFG> copy = before->take()) root.extra[kOriginalKey] = original_text(*copy);
  // Appends as text: parsing and re-printing the whole list per step made a simplify of N
  // steps quadratic (a fifth of heat_3d's simplify time). Extra properties are always
  // compact dumps of parsed JSON (the reader's collect_extras, or this function), so a text
  // starting with '[' is a complete array ending in ']'; anything else is replaced, as
  // stored() would read it as empty.
  std::string& text = root.extra[kKey];
  const std::string entry = entry_json(e).dump();
  if (text.size() < 2 || text.front() != '[') text = "[" + entry + "]";
  else if (text == "[]") text.insert(1, entry);
  else text.insert(text.size() - 1, "," + entry);
}

std::vector<HistoryEntry> history_of(const ir::SDFG& root) {
  std::vector<HistoryEntry> out;
  Json list = stored(root);
  for (size_t i = 0; i < list.size(); ++i)
    if (Result<HistoryEntry> e = parse_entry(list[i], i); e.ok()) out.push_back(std::move(*e));
  return out;
}

Result<std::vector<HistoryEntry>> stored_history(const ir::SDFG& root, size_t count) {
  Json list = stored(root);
  std::vector<HistoryEntry> out;
  for (size_t i = 0; i < list.size() && i < count; ++i) {
    Result<HistoryEntry> e = parse_entry(list[i], i);
    if (!e.ok()) return e.take_error();
    out.push_back(std::move(*e));
  }
  return out;
}

size_t history_size(const ir::SDFG& root) { return stored(root).size(); }

}  // namespace dace::transform
