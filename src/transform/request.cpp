#include "transform/request.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "transform/registry.h"
#include "ir/json/json_error.h"

namespace dace::transform {

using Json = nlohmann::ordered_json;

std::string known_names_text() {
  std::string s;
  for (const std::string& n : registered_names()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Status require_known(std::string_view name) {
  if (is_pattern_transformation(name) || make_pass(name)) return Status::success();
  return make_error(Code::NotFound,
                    "unknown transformation \"" + std::string(name) + "\" (known: " + known_names_text() + ")");
}

Status require_no_options(std::string_view what, std::string_view options_json) {
  if (options_json.empty()) return Status::success();
  Json j;
  try {
    j = Json::parse(options_json);
  } catch (const Json::parse_error& e) {
    const int column = static_cast<int>(e.byte);
    return make_error(Code::ParseError,
                      std::string(what) + ": cannot parse options JSON at column " + std::to_string(column) + ": " +
                          ir::json::json_error_reason(e),
                      1, column);
  }
  if (!j.is_object())
    return make_error(Code::InvalidArgument,
                      std::string(what) + ": options must be a JSON object, not " + std::string(j.type_name()));
  if (!j.empty())
    return make_error(Code::InvalidArgument,
                      std::string(what) + ": unknown option \"" + j.begin().key() + "\" (none is defined yet)");
  return Status::success();
}

Result<HistoryEntry> entry_from_request(const std::string& name, std::string_view props_json, bool* has_location) {
  Json j = Json::object();
  if (!props_json.empty()) {
    try {
      j = Json::parse(props_json);
    } catch (const Json::parse_error& e) {
      const int column = static_cast<int>(e.byte);
      return make_error(Code::ParseError,
                        name + ": cannot parse properties JSON at column " + std::to_string(column) + ": " + ir::json::json_error_reason(e),
                        1, column);
    }
  }
  if (!j.is_object())
    return make_error(Code::InvalidArgument,
                      name + ": properties must be a JSON object, not " + std::string(j.type_name()));
  const bool pattern = is_pattern_transformation(name);
  if (j.contains("transformation") && j["transformation"] != name)
    return make_error(Code::InvalidArgument,
                      name + ": properties name another transformation, " + j["transformation"].dump());
  *has_location = j.contains("_subgraph") || j.contains("cfg_id") || j.contains("state_id");
  if (*has_location && !pattern)
    return make_error(Code::InvalidArgument, name + ": is a pass, it takes no location (cfg_id, state_id, _subgraph)");
  if (*has_location && !j.contains("_subgraph"))
    return make_error(Code::InvalidArgument, name + ": a location needs \"_subgraph\" (pattern index -> element id)");
  Json entry = Json::object();
  entry["type"] = pattern ? "PatternTransformation" : "Pass";
  entry["transformation"] = name;
  for (auto& [k, v] : j.items())
    if (k != "type" && k != "transformation") entry[k] = v;
  Result<std::vector<HistoryEntry>> parsed = parse_history(entry.dump());
  if (!parsed) {
    Error e = parsed.take_error();
    e.message = name + ": " + e.message;
    return e;
  }
  return parsed->front();
}

Result<std::unique_ptr<Transformation>> configured_transformation(const HistoryEntry& e) {
  std::unique_ptr<Transformation> t = make_transformation(e.transformation);
  if (!t) return make_error(Code::Internal, e.transformation + ": not a pattern transformation");
  Status s = t->properties().set_from_json(e.properties);
  if (!s.ok()) {
    Error err = s.take_error();
    err.message = e.transformation + ": " + err.message;
    return err;
  }
  return t;
}

}  // namespace dace::transform
