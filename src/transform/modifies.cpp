#include "transform/modifies.h"

#include <array>
#include <utility>

namespace dace::transform {

std::string to_string(Modifies m) {
  if (m == Modifies::Nothing) return "Nothing";
  if (m == Modifies::Everything) return "Everything";
  static constexpr std::array<std::pair<Modifies, const char*>, 9> kNames{{
      {Modifies::Descriptors, "Descriptors"},
      {Modifies::Symbols, "Symbols"},
      {Modifies::States, "States"},
      {Modifies::InterstateEdges, "InterstateEdges"},
      {Modifies::AccessNodes, "AccessNodes"},
      {Modifies::Scopes, "Scopes"},
      {Modifies::Tasklets, "Tasklets"},
      {Modifies::NestedSDFGs, "NestedSDFGs"},
      {Modifies::Memlets, "Memlets"},
  }};
  std::string out;
  for (const auto& [bit, name] : kNames)
    if (any(m & bit)) out += (out.empty() ? "" : "|") + std::string(name);
  return out;
}

}  // namespace dace::transform
