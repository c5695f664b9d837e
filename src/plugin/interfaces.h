// What a plugin contributes, as abstract interfaces held by the Registry.
//
// The contexts are forward declarations on purpose: src/codegen and src/transform define
// them, and the plugin layer must not depend on those layers (DESIGN.md §2). Implementations
// are immutable after registration and shared between threads, hence the const methods.
//
// This is libdace's internal C++ API: exported for bundled plugins, unstable, build-id
// checked (include/libdace_plugin.h).
#pragma once
#include <memory>
#include <string_view>

#include "ir/result.h"

namespace dace::codegen {
class ScopeContext;       // a map/consume scope being lowered to LLVM IR
class AllocationContext;  // a data container being allocated or freed
class CopyContext;        // a memlet copy between two containers
}  // namespace dace::codegen

namespace dace::transform {
class ExpansionContext;  // a library node being replaced by its implementation
class Transformation;    // a pattern transformation instance (can_be_applied / apply)
}  // namespace dace::transform

namespace dace::plugin {

// How a scope with a given schedule type ("CPU_Multicore", "GPU_Device") becomes code.
class ScheduleLowering {
 public:
  virtual ~ScheduleLowering();
  virtual Status lower_scope(codegen::ScopeContext& context) const = 0;
  // For schedules the core outlines itself (CPU_Multicore): the runtime function it calls,
  //   void fn(void (*body)(void*, int64_t, int64_t), void* closure, int64_t begin,
  //           int64_t end, int64_t chunk, int32_t schedule, int32_t num_threads),
  // registered as a runtime symbol by the same plugin. "" when lower_scope does the work.
  virtual std::string_view runtime_entry() const { return {}; }
};

// How containers of a storage type ("CPU_Heap", "GPU_Global") are allocated and freed.
class StorageLowering {
 public:
  virtual ~StorageLowering();
  virtual Status lower_allocation(codegen::AllocationContext& context) const = 0;
  virtual Status lower_deallocation(codegen::AllocationContext& context) const = 0;
};

// How data moves from one storage type to another (registered per ordered pair).
class CopyLowering {
 public:
  virtual ~CopyLowering();
  virtual Status lower_copy(codegen::CopyContext& context) const = 0;
};

// One implementation of a library node class ("dace.libraries.blas.nodes.gemm.Gemm" +
// "OpenBLAS"). available() lets an expansion withdraw itself when its vendor library could
// not be loaded, so that callers fall back to another implementation.
class LibraryExpansion {
 public:
  virtual ~LibraryExpansion();
  virtual bool available() const { return true; }
  virtual Status expand(transform::ExpansionContext& context) const = 0;
  // The vendor library (declared with Registry::add_vendor_library) the implementation
  // calls into; "" for none. Code generation uses the implementation only when the registry
  // reports that library loaded.
  virtual std::string_view vendor_library() const { return {}; }
};

// Creates fresh instances of a transformation (instances carry their own properties).
class TransformationFactory {
 public:
  virtual ~TransformationFactory();
  virtual std::shared_ptr<transform::Transformation> create() const = 0;
};

}  // namespace dace::plugin
