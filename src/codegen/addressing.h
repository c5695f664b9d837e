// Address arithmetic over data descriptors: element (i, j, ...) of a container is at
// base + sum_d (index_d + offset_d) * stride_d, with symbolic strides and offsets (DaCe's
// cpp_offset_expr).
#pragma once
#include <vector>

#include "codegen/expr_emit.h"
#include "codegen/frame.h"
#include "ir/symbolic/expr.h"

namespace dace::codegen {

Result<std::vector<llvm::Value*>> container_strides(Frame& f, const ir::DataDescriptor& desc);

// Pointer to the element at `indices` (i64 values, one per dimension).
Result<llvm::Value*> element_pointer(Frame& f, const DataBinding& data, const std::vector<llvm::Value*>& indices);

// The start index of each dimension of a subset.
Result<std::vector<llvm::Value*>> subset_start(Frame& f, const sym::Subset& subset);

// Pointer to the first element of a subset of a container.
Result<llvm::Value*> subset_pointer(Frame& f, const DataBinding& data, const sym::Subset& subset);

// The whole container as a subset: 0:shape_d per dimension (inclusive ends).
sym::Subset full_subset(const ir::DataDescriptor& desc);

// An indexable view of `subset` of a container for tasklet code: indices count from the
// subset's start; `dims` picks the dimensions the code indexes (all, or the non-unit ones).
Result<ArrayRef> subset_array_ref(Frame& f, const DataBinding& data, const sym::Subset& subset,
                                  const std::vector<size_t>& dims);

// True when the expression is the integer 1 (after simplification).
bool is_one(sym::Expr e);
// Size of each dimension of a subset (ceil((end - start + 1) / step)).
std::vector<sym::Expr> subset_sizes(const sym::Subset& s);

}  // namespace dace::codegen
