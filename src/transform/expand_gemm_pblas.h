// ExpandGemmPBLAS (DaCe 1.0.2's name and semantics: the `PBLAS` implementation of Gemm,
// dace/libraries/blas/nodes/gemm.py): a Gemm C = A @ B whose `implementation` is "PBLAS"
// becomes the distributed product DaCe's expansion writes — A and B, held whole by rank 0
// (BLACS grid process (0, 0)), are scattered block-cyclically into local transients of
// M/Px x K/Py and K/Px x N/Py elements (BlockCyclicScatter), multiplied by ScaLAPACK (Pgemm,
// `ReferenceOpenMPI`) into M/Px x N/Py local blocks and gathered back into C on rank 0
// (BlockCyclicGather); other ranks' C is not written. Px and Py (the BLACS grid is Py x Px)
// are declared as int32 symbols when missing, as DaCe does. DaCe 1.0.2 cannot run its own
// expansion (gemm.py calls `distr.MatMult` without importing `distr`); the three nodes are
// what its body writes (docs/mpi.md), and plugins/mpi runs them.
//
// DaCe expands into a nested SDFG; here the nodes are placed in the Gemm's state, the
// transients in its SDFG (the same dataflow, without a nesting level to inline). A MatMul
// node with implementation "PBLAS" (2-D operands: DaCe would specialize it to such a Gemm
// when PBLAS is the BLAS library's default implementation) is expanded the same way.
//
// A node inside maps (`for i in dace.map[0:3]: C[i] = A[i] @ B[i]`) is one distributed product
// per iteration, a collective every rank must call the same number of times in the same
// order, from one thread: the maps around it become Sequential (a parallel map would call the
// collectives from several threads in an unpredictable order) and the three nodes are placed
// in the innermost map, on that iteration's matrices. The BLACS grid they use is the program
// state's, created once by __dace_init, whatever the number of iterations.
//
// Refused where DaCe raises or would compute something else: beta other than 0 (DaCe raises
// NotImplementedError), alpha other than 1, transA / transB or a `_cin` input (DaCe's
// expansion ignores them and would compute A @ B), a WCR on C; and where the distributed nodes
// cannot run: a node in a consume scope, or in a map scheduled MPI (the ranks would run
// different iterations) or on a device; operands that are not whole, C-contiguous matrices
// of Arrays (no views, default strides, offset 0: the scatter and gather move contiguous
// row-major matrices): the whole container, or one index in each dimension before its last
// two and those two whole (`A[i, 0:M, 0:K]`), each read or written through one edge from or
// to an access node or the map's entry / exit, of 2-D shapes (the last two dimensions, both
// wider than one) provably M x K, K x N and M x N; element types other than float32/64 and
// complex64/128 (ScaLAPACK's); a container named Px or Py.
#pragma once
#include <string_view>

#include "transform/transformation.h"

namespace dace::transform {

// The classes of the nodes the expansion writes (DaCe's) and Pgemm's implementation.
inline constexpr std::string_view kBlockCyclicScatterClass = "dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter";
inline constexpr std::string_view kBlockCyclicGatherClass = "dace.libraries.pblas.nodes.pgeadd.BlockCyclicGather";
inline constexpr std::string_view kPgemmClass = "dace.libraries.pblas.nodes.pgemm.Pgemm";
inline constexpr std::string_view kPgemmImplementation = "ReferenceOpenMPI";

class ExpandGemmPBLAS : public SingleStateTransformation {
 public:
  // Whether the BLACS grid's symbols Px and Py of the nested SDFG `g` reach the root: declared
  // in every SDFG of the chain from the root to `g` and mapped to themselves by each nested
  // SDFG node of the chain, none of which lies in a scope (so the product runs once per call
  // on every rank). The transformation sees one SDFG and cannot check that (nested SDFGs do
  // not know the state holding them): a product in a nested SDFG is refused unless a caller
  // that walked the chain from the root says so (the compile pipeline, which declares them).
  virtual bool grid_symbols_reach_root(const ir::SDFG& g) const { (void)g; return false; }
  std::string_view name() const override { return "ExpandGemmPBLAS"; }
  Modifies modifies() const override {
    return Modifies::Tasklets | Modifies::Memlets | Modifies::AccessNodes | Modifies::Scopes | Modifies::Descriptors |
           Modifies::Symbols;
  }

 protected:
  size_t pattern_size() const override { return 1; }  // _match_node
  void state_matches(const ir::State& state, const ScopeTree& scopes, std::vector<std::vector<int>>& out) override;
  bool can_apply(const Site& site, const std::vector<int>& nodes) override;
  Status apply_at(const Site& site, const std::vector<int>& nodes) override;
};

}  // namespace dace::transform
