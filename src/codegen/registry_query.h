// What the lowering asks of the plugin registry (LowerOptions::registry): the host's
// parallel schedule, whether a vendor implementation of a library node class may be called
// and which plugin implementation lowers a library node itself (or why none can). Without a
// registry there is none of these: maps run sequentially, library nodes as loops.
#pragma once
#include <memory>
#include <set>
#include <string>

#include "codegen/options.h"
#include "ir/result.h"
#include "ir/nodes.h"
#include "plugin/interfaces.h"

namespace dace::codegen {

// options_fingerprint (lower.h) for a program whose library classes are `classes`: only their
// host implementations are listed, so the key does not depend on which other plugins the
// context loaded before, nor opens vendor libraries the program does not use; null: every
// class the registry knows.
std::string options_fingerprint_for(const LowerOptions& options, const std::set<std::string>* classes);

// The host's parallel schedule: the first registered schedule (by name) whose lowering
// hosts_default_maps(); null without a registry or such a schedule.
std::shared_ptr<const plugin::ScheduleLowering> host_parallel_schedule(const LowerOptions& options);

// The runtime entry of the host's parallel schedule (part of the program key; the C API
// checks it is a runtime symbol before it compiles). PluginUnavailable naming `where` when
// there is no such schedule or it names no entry.
Result<std::string> parallel_for_entry(const LowerOptions& options, const std::string& where);

// Canonical classpath of a BLAS node class given its last component ("MatMul" ->
// "dace.libraries.blas.nodes.matmul.MatMul"); "" for classes that are not BLAS nodes.
std::string blas_classpath(const std::string& short_class);

// True when `implementation` ("OpenBLAS") of `classpath` is registered, available, and its
// vendor library loaded, and options allow vendor libraries.
bool vendor_implementation(const LowerOptions& options, const std::string& classpath,
                           const std::string& implementation);

using PluginLowering = std::shared_ptr<const plugin::LibraryExpansion>;

// The implementation that lowers `node` itself: the node's own implementation when it is
// such a one, else the first (by name) available one of its class; null when none. With
// `device_operands` only implementations for operands in device storage
// (LibraryExpansion::lowers_device_operands), else only the others.
PluginLowering plugin_lowering(const LowerOptions& options, const ir::LibraryNode& node, bool device_operands = false);
// Why plugin_lowering found nothing for `node` although a plugin registered implementations
// of its class (for operands in host storage), e.g. `implementation "ReferenceOpenMPI" needs
// the vendor library "libscalapack-openmpi.so.2.2", which cannot be loaded: ...`; "" when no
// plugin registered any (then the plugin itself is missing).
std::string plugin_lowering_unavailable(const LowerOptions& options, const ir::LibraryNode& node);

}  // namespace dace::codegen
