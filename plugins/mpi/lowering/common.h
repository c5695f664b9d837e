// Helpers of the MPI plugin's node lowerings: buffers and scalar connectors of a library
// node, runtime calls, the program's process grids and subarray types by name.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/plugin_nodes.h"
#include "ir/path.h"

namespace dace::mpi {

using tasklet::ScalarType;

constexpr const char* kStateKey = "mpi";
inline constexpr std::string_view kStateKeyName = "mpi";

// A buffer a node sends or receives.
struct Buffer {
  llvm::Value* ptr = nullptr;    // first element of the memlet's subset
  llvm::Value* count = nullptr;  // i64: elements of the subset
  int32_t dtype = -1;            // dace_mpi_dtype_t
  std::string data;              // container name
  sym::Expr count_expr;          // the same count, symbolically
  // i64: the elements as blocks of `block` contiguous elements (contiguous: count), repeated
  // over the outer dimensions of a strided subset: (size, stride in elements) pairs,
  // outermost first (contiguous: none).
  llvm::Value* block = nullptr;
  std::vector<llvm::Value*> outer;
  bool strided() const { return !outer.empty(); }
};

// The buffer at `conn`. Unsupported when its element type has no MPI type or its subset is
// not provably contiguous; with allow_strided, also any subset of an array: a contiguous
// block of its innermost dimensions repeated along the others at their strides times their
// steps (DaCe's MPI vector types of Send/Recv/Isend/Irecv; staged for collectives).
Result<Buffer> buffer(codegen::LibraryNodeContext& c, const std::string& conn, bool input, bool allow_strided = false);
// The runtime's layout arguments of a buffer: block, the number of outer dimensions (i32) and
// the array of their (size, stride) pairs.
std::vector<llvm::Value*> layout_args(codegen::Frame& f, const Buffer& b);
// For a collective: a strided buffer as a contiguous copy in the program state's staging
// slot `slot` (0 or 1), its elements copied in first, so that elements the operation does
// not write (a Reduce's output off the root) come back unchanged; a contiguous one as is.
Buffer staged(codegen::LibraryNodeContext& c, const Buffer& b, int32_t slot);
// After the collective: a strided output receives its staging slot's elements back.
void unstage(codegen::LibraryNodeContext& c, const Buffer& original, int32_t slot);
// Whether the node has an edge at `conn`.
bool has_edge(codegen::LibraryNodeContext& c, const std::string& conn, bool input);
// The value of a scalar input connector (a rank, a tag), as i64.
Result<llvm::Value*> scalar_input(codegen::LibraryNodeContext& c, const std::string& conn);
// A string property ("grid": "__pgrid_1"); nullopt when absent or null.
std::optional<std::string> string_property(const ir::LibraryNode& n, const std::string& key);

// The process grids, subarray types and redistributions of an SDFG (DaCe's `_pgrids`,
// `_subarrays`, `_rdistrarrays`), in
// name order: a grid's index is its position.
struct GridSpec {
  std::string name;
  bool is_subgrid = false;
  std::vector<std::string> shape;
  std::string parent;
  std::vector<int32_t> color;
  std::optional<std::string> exact_grid;
};
struct SubArraySpec {
  std::string name, dtype, pgrid;
  std::vector<std::string> shape, subshape;
  std::vector<int32_t> correspondence;
};
// DaCe's RedistrArray (`_rdistrarrays`): from the distribution of array_a to that of array_b.
struct RedistrSpec {
  std::string name, array_a, array_b;
};
struct Distribution {
  std::vector<GridSpec> grids;
  std::vector<SubArraySpec> subarrays;
  std::vector<RedistrSpec> redistributions;
  int32_t grid_index(const std::string& name) const;      // -1 when unknown
  int32_t subarray_index(const std::string& name) const;  // -1 when unknown
  const RedistrSpec* redistribution(const std::string& name) const;  // null when unknown
};
// Errors name the SDFG and the malformed entry.
Result<Distribution> distribution(const ir::SDFG& sdfg);
// The top-level SDFG of the function `f` is emitting (grids live there).
const ir::SDFG& root_sdfg(const codegen::Frame& f);

// The grid index of a node's grid-valued property (-1 when absent: the program's
// communicator); an unknown name is InvalidSdfg.
Result<int32_t> grid_property(codegen::LibraryNodeContext& c, const std::string& key);

int32_t dtype_code(ScalarType t);  // -1 when MPI has no such type here
Result<int32_t> op_code(const std::string& op, const std::string& where);

// Calls a runtime function returning int32 (its status unchecked).
llvm::Value* call_runtime(codegen::Frame& f, const std::string& name, const std::vector<llvm::Value*>& args);
// Calls a runtime function of a node and checks its status: a failure records the runtime's
// message (dace_mpi_error_message, prefixed with the node's path) as the program's
// LibraryFailure status and leaves the function (run_status.h).
void call_checked(codegen::LibraryNodeContext& c, const std::string& name, const std::vector<llvm::Value*>& args);
// The failure branch of a status: records dace_mpi_error_message(state, where) as a
// LibraryFailure with `status` as its value, then branches to `after_failure` (null: leaves
// the function, Frame::leave_if). Leaves the builder where `status` was zero; returns the
// block that branched to `after_failure`.
llvm::BasicBlock* record_if_failed(codegen::Frame& f, llvm::Value* status, llvm::Value* state, const std::string& where,
                      llvm::BasicBlock* after_failure);
// A stack array of i64 / i32 values, for the runtime's pointer parameters.
llvm::Value* i64_array(codegen::Frame& f, const std::vector<llvm::Value*>& values);
llvm::Value* i32_array(codegen::Frame& f, const std::vector<int32_t>& values);

}  // namespace dace::mpi
