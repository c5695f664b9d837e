// Small value types shared by every IR element.
#pragma once
#include <string>

#include "ir/enums.h"
#include "ir/sparse_map.h"
#include "ir/out_of_line.h"

namespace dace::ir {

// Source position of the element in the host program (DaCe's DebugInfo).
struct DebugInfo {
  bool present = false;  // JSON null when false
  int start_line = 0, start_column = 0, end_line = 0, end_column = 0;
  std::string filename;
  int file_index = -1;  // DaCe >= 2.0 refers to the SDFG's source_files list instead
  bool operator==(const DebugInfo&) const = default;
};

// DaCe's CodeBlock: source text plus language.
struct CodeBlock {
  std::string code;
  Language language = Language::Python;
  bool operator==(const CodeBlock&) const = default;
};

}  // namespace dace::ir
