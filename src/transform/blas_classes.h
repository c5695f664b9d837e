// The BLAS library-node classes the optimizer recognizes, in one place so every
// transformation matches them alike: DaCe's full classpath, or the bare class name that some
// hand-written SDFGs carry. Another library's class of the same name (`x.y.MatMul`) is not one.
#pragma once
#include <string_view>

#include "ir/nodes.h"

namespace dace::transform {

inline constexpr std::string_view kMatMulClass = "dace.libraries.blas.nodes.matmul.MatMul";
inline constexpr std::string_view kGemmClass = "dace.libraries.blas.nodes.gemm.Gemm";
inline constexpr std::string_view kGemvClass = "dace.libraries.blas.nodes.gemv.Gemv";

// Whether `classpath` names the class `full` (its classpath or its bare name).
inline bool is_class(std::string_view classpath, std::string_view full) {
  return classpath == full || classpath == full.substr(full.rfind('.') + 1);
}

// The library node `n` if it is of class `full`, else null.
inline const ir::LibraryNode* as_class(const ir::Node* n, std::string_view full) {
  if (!n || n->kind != ir::NodeKind::Library) return nullptr;
  const auto* l = static_cast<const ir::LibraryNode*>(n);
  return is_class(l->classpath, full) ? l : nullptr;
}

}  // namespace dace::transform
