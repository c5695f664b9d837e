// Properties DaCe knows but libdace does not model, with the value DaCe 1.0.2 gives them by
// default. Files of DaCe 0.14 write every property; dropping the defaults on read makes an
// SDFG read from any dialect compare equal (and hash equal) to the same SDFG written by 1.x,
// and DaCe restores the same default when it loads our output. Documented in docs/sdfg-json.md.
#include <array>
#include <utility>

#include "ir/json/json_internal.h"

namespace dace::ir::json::detail {
namespace {

struct UnmodeledDefault {
  const char* key;
  const char* value;  // compact JSON
};

// The same key has the same default in every DaCe class that has it.
constexpr std::array<UnmodeledDefault, 25> kDefaults{{
    {"instrument", "\"No_Instrumentation\""},
    {"symbol_instrument", "\"No_Instrumentation\""},
    {"instrument_condition", "{\"string_data\":\"1\",\"language\":\"CPP\"}"},
    {"symbol_instrument_condition", "{\"string_data\":\"1\",\"language\":\"CPP\"}"},
    {"is_collapsed", "false"},
    {"location", "{}"},
    {"environments", "[]"},
    {"state_fields", "[]"},
    {"ignored_symbols", "[]"},
    {"pre_conditions", "{}"},
    {"post_conditions", "{}"},
    {"invariant_conditions", "{}"},
    {"unroll_factor", "0"},
    {"gpu_launch_bounds", "\"0\""},
    {"no_inline", "false"},
    {"unique_name", "\"\""},
    {"pool", "false"},
    {"orig_sdfg", "null"},
    {"transformation_hist", "[]"},
    {"logical_groups", "[]"},
    {"openmp_sections", "false"},
    {"_pgrids", "{}"},
    {"_subarrays", "{}"},
    {"_rdistrarrays", "{}"},
    {"callback_mapping", "{}"},
}};

}  // namespace

bool is_unmodeled_default(std::string_view key, const Json& value) {
  for (const auto& d : kDefaults)
    if (key == d.key) return compact(value) == d.value;
  return false;
}

}  // namespace dace::ir::json::detail
