// Free symbols and the argument list of an SDFG, in DaCe's order.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "ir/sdfg.h"

namespace dace::analysis {

// Symbols the SDFG needs from its caller: used in shapes, ranges, memlets, conditions,
// assignments, tasklets and symbol mappings, minus those defined inside (interstate
// assignments, map/loop parameters), minus constants and data names. Sorted.
std::set<std::string> free_symbols(const ir::SDFG& sdfg);

struct Argument {
  enum class Kind { Array, Scalar, Symbol };
  std::string name;
  Kind kind;
  ir::DType dtype;
};
// DaCe's arglist(): non-transient non-scalar data sorted by name, then non-transient scalars
// and free symbols together sorted by name (names starting with "__dace" excluded).
std::vector<Argument> argument_list(const ir::SDFG& sdfg);
const char* to_string(Argument::Kind k);

}  // namespace dace::analysis
