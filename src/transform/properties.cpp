#include "transform/properties.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace dace::transform {

using Json = nlohmann::ordered_json;

namespace {

// A JSON list of strings or integers (integers written as their decimal text).
bool read_string_list(const Json& value, std::vector<std::string>* out) {
  if (!value.is_array()) return false;
  std::vector<std::string> items;
  for (const Json& v : value) {
    if (v.is_string()) items.push_back(v.get<std::string>());
    else if (v.is_number_integer()) items.push_back(std::to_string(v.get<int64_t>()));
    else return false;
  }
  *out = std::move(items);
  return true;
}

}  // namespace

std::string Properties::to_json() const {
  Json out = Json::object();
  for (const Entry& e : entries_) {
    switch (e.kind) {
      case Kind::Bool: out[e.name] = *static_cast<bool*>(e.field); break;
      case Kind::Int: out[e.name] = *static_cast<int64_t*>(e.field); break;
      case Kind::String: out[e.name] = *static_cast<std::string*>(e.field); break;
      case Kind::OptionalInt: {
        const auto& v = *static_cast<std::optional<int64_t>*>(e.field);
        out[e.name] = v ? Json(*v) : Json(nullptr);
        break;
      }
      case Kind::OptionalString: {
        const auto& v = *static_cast<std::optional<std::string>*>(e.field);
        out[e.name] = v ? Json(*v) : Json(nullptr);
        break;
      }
      case Kind::StringList: out[e.name] = *static_cast<std::vector<std::string>*>(e.field); break;
      case Kind::OptionalStringList: {
        const auto& v = *static_cast<std::optional<std::vector<std::string>>*>(e.field);
        out[e.name] = v ? Json(*v) : Json(nullptr);
        break;
      }
    }
  }
  return out.dump();
}

Status Properties::set_from_json(std::string_view object, const std::vector<std::string>& ignored) {
  Json j = Json::parse(object, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return make_error(Code::InvalidArgument, "properties are not a JSON object: " + std::string(object));
  for (const auto& [key, value] : j.items()) {
    if (std::find(ignored.begin(), ignored.end(), key) != ignored.end()) continue;
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == key; });
    if (it == entries_.end()) return make_error(Code::InvalidArgument, "unknown property \"" + key + "\"");
    bool ok = false;
    switch (it->kind) {
      case Kind::Bool:
        if ((ok = value.is_boolean())) *static_cast<bool*>(it->field) = value.get<bool>();
        break;
      case Kind::Int:
        if ((ok = value.is_number_integer())) *static_cast<int64_t*>(it->field) = value.get<int64_t>();
        break;
      case Kind::String:
        if ((ok = value.is_string())) *static_cast<std::string*>(it->field) = value.get<std::string>();
        break;
      case Kind::OptionalInt: {
        auto& f = *static_cast<std::optional<int64_t>*>(it->field);
        if (value.is_null()) ok = true, f.reset();
        else if ((ok = value.is_number_integer())) f = value.get<int64_t>();
        break;
      }
      case Kind::OptionalString: {
        auto& f = *static_cast<std::optional<std::string>*>(it->field);
        if (value.is_null()) ok = true, f.reset();
        else if ((ok = value.is_string())) f = value.get<std::string>();
        break;
      }
      case Kind::StringList: ok = read_string_list(value, static_cast<std::vector<std::string>*>(it->field)); break;
      case Kind::OptionalStringList: {
        auto& f = *static_cast<std::optional<std::vector<std::string>>*>(it->field);
        std::vector<std::string> items;
        if (value.is_null()) ok = true, f.reset();
        else if ((ok = read_string_list(value, &items))) f = std::move(items);
        break;
      }
    }
    if (!ok) return make_error(Code::InvalidArgument, "property \"" + key + "\" has the wrong type: " + value.dump());
  }
  return Status::success();
}

}  // namespace dace::transform
