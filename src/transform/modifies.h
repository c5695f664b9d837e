// What a pass or transformation may change in an SDFG, as a bitmask (DaCe's ppl.Modifies).
// The analysis manager drops cached analyses whose inputs intersect a pass's modifications,
// and a fixed-point pipeline re-runs a pass only when something it depends on changed.
#pragma once
#include <cstdint>
#include <string>

namespace dace::transform {

enum class Modifies : uint32_t {
  Nothing = 0,
  Descriptors = 1u << 0,      // data containers (sdfg.arrays)
  Symbols = 1u << 1,          // symbol declarations (sdfg.symbols)
  States = 1u << 2,           // blocks of a control-flow region added, removed or merged
  InterstateEdges = 1u << 3,  // conditions, assignments, edges between blocks
  AccessNodes = 1u << 4,
  Scopes = 1u << 5,           // map / consume entries and exits, their ranges
  Tasklets = 1u << 6,
  NestedSDFGs = 1u << 7,
  Memlets = 1u << 8,          // dataflow edges and their memlets
  Nodes = AccessNodes | Scopes | Tasklets | NestedSDFGs,
  Edges = InterstateEdges | Memlets,
  Everything = 0xffffffffu,
};

constexpr Modifies operator|(Modifies a, Modifies b) {
  return static_cast<Modifies>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}
constexpr Modifies operator&(Modifies a, Modifies b) {
  return static_cast<Modifies>(static_cast<uint32_t>(a) & static_cast<uint32_t>(b));
}
constexpr Modifies& operator|=(Modifies& a, Modifies b) { return a = a | b; }
constexpr bool any(Modifies m) { return m != Modifies::Nothing; }

// "Symbols|States", "Nothing", "Everything": for reports and timings.
std::string to_string(Modifies m);

}  // namespace dace::transform
