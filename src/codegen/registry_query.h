// What the lowering asks of the plugin registry (LowerOptions::registry): the runtime entry
// of the CPU_Multicore schedule and whether a vendor implementation of a library node class
// may be called. Without a registry the built-in defaults apply (LowerOptions).
#pragma once
#include <string>

#include "codegen/options.h"
#include "ir/result.h"

namespace dace::codegen {

// The parallel_for entry CPU_Multicore maps call. PluginUnavailable when a registry is given
// but no plugin registered CPU_Multicore with a runtime entry; `where` names the map.
Result<std::string> parallel_for_entry(const LowerOptions& options, const std::string& where);

// Canonical classpath of a BLAS node class given its last component ("MatMul" ->
// "dace.libraries.blas.nodes.matmul.MatMul"); "" for classes that are not BLAS nodes.
std::string blas_classpath(const std::string& short_class);

// True when `implementation` ("OpenBLAS") of `classpath` is registered, available, and its
// vendor library loaded, and options allow vendor libraries.
bool vendor_implementation(const LowerOptions& options, const std::string& classpath,
                           const std::string& implementation);

}  // namespace dace::codegen
