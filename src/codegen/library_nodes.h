// Library nodes lowered by the core, as their pure (loop-nest) expansions: MatMul (GEMM /
// batched / GEMV / dot by operand ranks, library_matmul.h), Reduce, Transpose, Copy and
// Memset. A plugin's implementation that lowers a class to IR itself (a vendor library's
// call: the CPU plugin's CBLAS and LAPACKE, plugin_nodes.h) is taken before the core's,
// unless the node's implementation is "pure".
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "codegen/state_emit.h"

namespace dace::codegen {

// One operand of a library node: the memlet's subset of a container, with its unit
// dimensions squeezed out (as DaCe's expansions see it).
struct Operand {
  DataBinding data;
  ScalarType type = ScalarType::Unknown;
  std::vector<sym::Expr> sizes;        // squeezed
  std::vector<llvm::Value*> size_values;
  std::vector<llvm::Value*> strides;   // squeezed, in elements (memlet step included)
  llvm::Value* base = nullptr;         // first element of the subset
  std::string wcr;                     // output memlets only
  bool nonatomic = false;
};

Result<Operand> library_operand(StateEmitter& se, int node, const std::string& conn, bool input);
// Pointer to element `idx` (one index per squeezed dimension).
llvm::Value* operand_element(Frame& f, const Operand& op, const std::vector<llvm::Value*>& idx);
// A class-specific property (JSON text), or "" when absent.
std::string library_property(const ir::LibraryNode& n, const std::string& key);
// A property holding a JSON list of integers ("[2, 0, 1]"); nullopt on anything else.
std::optional<std::vector<int64_t>> library_int_list(const std::string& text);

Status emit_matmul(StateEmitter& se, int node);
Status emit_reduce(StateEmitter& se, int node);

// What a Reduce node asks for (library_reduce.cpp), read in the frame se.f: its connectors,
// which squeezed input dimensions are reduced, the combining function and the identity.
// Shared with the plugins that lower Reduce for their devices.
struct ReduceSpec {
  std::string in_conn, out_conn;
  std::vector<bool> reduced;  // per squeezed input dimension
  std::string wcr_text;       // the lambda (DaCe's "wcr" property), a + b when absent
  std::optional<double> identity;
};
Result<ReduceSpec> reduce_spec(StateEmitter& se, int node);
Status emit_transpose(StateEmitter& se, int node);         // library_transpose.cpp
Status emit_tensor_transpose(StateEmitter& se, int node);  // library_transpose.cpp
Status emit_copy_node(StateEmitter& se, int node);    // library_copy.cpp
Status emit_memset_node(StateEmitter& se, int node);  // library_copy.cpp

}  // namespace dace::codegen
