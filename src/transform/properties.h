// Properties of a pass or transformation, read from and written as a JSON object with DaCe's
// property names. A transformation binds its fields once (bind_*); the table does the JSON.
#pragma once
#include <cstdint>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/result.h"

namespace dace::transform {

class Properties {
 public:
  // Bound to fields of one object: copying would alias them.
  Properties() = default;
  Properties(const Properties&) = delete;
  Properties& operator=(const Properties&) = delete;

  void bind_bool(std::string name, bool* field) { entries_.push_back({std::move(name), Kind::Bool, field}); }
  void bind_int(std::string name, int64_t* field) { entries_.push_back({std::move(name), Kind::Int, field}); }
  void bind_string(std::string name, std::string* field) { entries_.push_back({std::move(name), Kind::String, field}); }
  // Nullable properties (DaCe's allow_none): JSON null is nullopt.
  void bind_optional_int(std::string name, std::optional<int64_t>* field) {
    entries_.push_back({std::move(name), Kind::OptionalInt, field});
  }
  void bind_optional_string(std::string name, std::optional<std::string>* field) {
    entries_.push_back({std::move(name), Kind::OptionalString, field});
  }
  // DaCe's ShapeProperty: a list written as strings (["8", "N"]); integers are accepted when
  // read. The optional form is a ShapeProperty with allow_none.
  void bind_string_list(std::string name, std::vector<std::string>* field) {
    entries_.push_back({std::move(name), Kind::StringList, field});
  }
  void bind_optional_string_list(std::string name, std::optional<std::vector<std::string>>* field) {
    entries_.push_back({std::move(name), Kind::OptionalStringList, field});
  }

  // Compact JSON object of every bound property, in binding order ("{}" when none).
  std::string to_json() const;
  // Sets the properties named in `object` (compact or pretty JSON object). Keys in `ignored`
  // (e.g. the location keys of a history entry) are skipped; any other unknown key, or a value
  // of the wrong type, is InvalidArgument naming the key.
  Status set_from_json(std::string_view object, const std::vector<std::string>& ignored = {});

 private:
  enum class Kind { Bool, Int, String, OptionalInt, OptionalString, StringList, OptionalStringList };
  struct Entry {
    std::string name;
    Kind kind;
    void* field;
  };
  std::vector<Entry> entries_;
};

}  // namespace dace::transform
