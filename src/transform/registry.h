// Transformations and passes by name (DaCe's names), for the CLI, the C API and history
// replay. Names are listed in a fixed order; lookups are exact.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "transform/pass.h"
#include "transform/transformation.h"

namespace dace::transform {

// Every registered name, sorted: pattern transformations and passes ("simplify" included).
std::vector<std::string> registered_names();
bool is_pattern_transformation(std::string_view name);
// Null when no pattern transformation has that name.
std::unique_ptr<Transformation> make_transformation(std::string_view name);
// Null when no pass has that name. Pattern transformations are not passes here: to apply one
// repeatedly, wrap it in a PatternPass.
std::unique_ptr<Pass> make_pass(std::string_view name);

}  // namespace dace::transform
