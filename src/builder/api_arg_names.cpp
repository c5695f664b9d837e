// The SDFG's positional signature (DaCe's `arg_names` property): which arguments a
// frontend-style positional call takes, in order. Saved and loaded with the .sdfg JSON.
#include <set>
#include <string>
#include <vector>

#include "builder/api_internal.h"

using namespace dace::capi;
using dace::Status;

extern "C" {

dace_status_t dace_sdfg_set_arg_names(dace_sdfg_t* sdfg, const char* const* names, size_t count) {
  return guard([&]() -> Status {
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    dace::ir::SDFG& g = **s;
    if (count > 0) DACE_TRY(require(names, "names"));
    // Everything is checked before the list is replaced.
    std::vector<std::string> list;
    std::set<std::string> seen;
    for (size_t i = 0; i < count; ++i) {
      const std::string where = path_of(g) + ": arg_names[" + std::to_string(i) + "]";
      if (!names[i]) return invalid(where + " is NULL");
      const std::string name = names[i];
      auto data = g.arrays.find(name);
      const bool is_data = data != g.arrays.end();
      if (!is_data && !g.symbols.count(name))
        return not_found(where + ": " + dace::ir::quoted(name) + " is no data container or symbol of the SDFG");
      if (is_data && data->second.transient)
        return invalid(where + ": " + dace::ir::quoted(name) + " is transient (not an argument)");
      if (!seen.insert(name).second) return invalid(where + ": " + dace::ir::quoted(name) + " given twice");
      list.push_back(name);
    }
    g.arg_names = std::move(list);
    return Status::success();
  });
}

dace_status_t dace_sdfg_arg_name_count(size_t* out_count, const dace_sdfg_t* sdfg) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_count, "out_count"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    *out_count = (*s)->arg_names.size();
    return Status::success();
  });
}

dace_status_t dace_sdfg_get_arg_name(const char** out_name, const dace_sdfg_t* sdfg, size_t index) {
  return guard([&]() -> Status {
    DACE_TRY(require(out_name, "out_name"));
    auto s = sdfg_of(sdfg);
    if (!s) return s.take_error();
    const auto& names = (*s)->arg_names;
    if (index >= names.size())
      return not_found(path_of(**s) + ": arg_names index " + std::to_string(index) + " out of range (" +
                       std::to_string(names.size()) + " names)");
    *out_name = keep(names[index]);
    return Status::success();
  });
}

}  // extern "C"
