// Where a transient data container lives (decided by plan_allocations, allocation.h).
#pragma once
#include <map>
#include <set>
#include <string>

namespace dace::codegen {

enum class AllocKind {
  External,     // non-transient: an argument (or a nested SDFG's connector)
  View,         // bound to the viewed container in each state
  Reference,    // pointer set by its incoming edge
  StackSlot,    // alloca in the entry block of the function that binds it
  FunctionHeap, // heap, allocated on function entry, freed on exit
  StateHeap,    // heap, allocated when its state starts, freed when it ends
  LazyHeap,     // heap, allocated by the first state using it (size from symbols set inside), freed on exit
  ScopeLocal,   // accessed only inside map scopes: allocated where the scope body is emitted
  Persistent,   // in the state object (top-level SDFG only)
  Unused,       // transient without access nodes: never allocated
};

struct AllocationPlan {
  std::map<std::string, AllocKind> kind;
  std::map<std::string, int> state_block;  // StateHeap: block id of the one state using it
  std::set<std::string> setzero;           // some access node asks for zero-initialization
  // Host-storage transients a plugin allocates for the whole call (the CUDA plugin registers
  // CPU_Pinned: page-locked memory); host code addresses them like heap blocks.
  std::set<std::string> plugin_allocated;
};

}  // namespace dace::codegen
