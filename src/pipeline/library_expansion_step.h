// Library-node expansions that the compile pipeline applies by itself, before lowering, as
// DaCe expands every library node by its `implementation` when it generates code. Most
// implementations become code inside the code generator (a gemm call, a loop nest); the one
// that rewrites the SDFG instead is Gemm's (and MatMul's) "PBLAS": the distributed product,
// BlockCyclicScatter -> Pgemm -> BlockCyclicGather (transform/expand_gemm_pblas.h), which
// plugins/mpi runs. So `mpirun -np 4 dace run PROG.sdfg` of DaCe's SDFG with a PBLAS Gemm is
// distributed without asking the optimizer for it.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "codegen/options.h"
#include "ir/result.h"
#include "ir/sdfg.h"

namespace dace::pipeline {

// Whether `g` (nested SDFGs included) has a Gemm or MatMul node whose implementation is
// "PBLAS". Reads only; cheap (one walk over the nodes).
bool has_distributed_products(const ir::SDFG& g);

// A copy of `g` with every PBLAS Gemm / MatMul expanded by ExpandGemmPBLAS (recorded in the
// copy's history like any optimizer step). A product inside nested SDFGs or maps of one
// iteration each (DaCe's frontend writes `for i in dace.map[0:1]` as such a map) is first
// brought out of them by InlineSDFG / InlineMultistateSDFG and TrivialMapElimination, applied
// to those nested SDFGs and maps only (the same program; DaCe's simplify inlines too), so that
// Px and Py become arguments of the root. A product left in a nested SDFG that cannot be
// inlined but lies outside any scope gets Px and Py declared in every SDFG down to it and
// mapped through each nested SDFG node, and is expanded there; one inside maps of more
// iterations is expanded once per iteration, the maps made Sequential (ExpandGemmPBLAS).
// Where the expansion refuses a node (beta other than 0, a map scheduled MPI, a nested SDFG
// in a scope, operands that are not whole row-major matrices, ...), the program cannot be
// compiled as DaCe's implementation means it: Unsupported naming the node and the reason,
// since DaCe raises there too (its expansion, run by code generation, raises
// NotImplementedError or fails) rather than computing a local product on every rank.
// `products`, when given, receives the paths of the expanded nodes (for later messages).
Result<std::unique_ptr<ir::SDFG>> expand_distributed_products(const ir::SDFG& g,
                                                              std::vector<std::string>* products = nullptr);

// The compile step: when the SDFG to compile (`*compiled` when the optimizer made a copy, else
// `input`) has distributed products, `compiled` becomes its validated, expanded copy and
// `products` (when given) the paths of the products in it; else nothing changes. Errors: the
// input's validation error, expand_distributed_products's.
Status expand_for_compile(const ir::SDFG& input, std::unique_ptr<ir::SDFG>& compiled,
                          std::vector<std::string>* products = nullptr);

// After the plugins the expanded SDFG needs were loaded (`loaded`: that step's status): the
// expanded products must be runnable here, i.e. a plugin lowers BlockCyclicScatter, Pgemm and
// BlockCyclicGather (the MPI plugin, with ScaLAPACK loaded). If not, or if loading failed,
// Unsupported / the loader's code naming the products with implementation "PBLAS" and why
// (the MPI plugin is not built or cannot be loaded, ScaLAPACK cannot be loaded), rather than
// a failure at nodes the user never wrote. Success when `products` is empty.
Status check_distributed_products_runnable(const std::vector<std::string>& products, const Status& loaded,
                                           const codegen::LowerOptions& options);

}  // namespace dace::pipeline
