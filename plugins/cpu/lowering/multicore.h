// The CPU plugin's schedules (DESIGN.md §7): CPU_Multicore (and CPU_Persistent, which DaCe
// lowers the same way on the CPU) as outlined bodies handed to the runtime's parallel_for,
// and the core's parallel loops (library-node rows) the same way.
//
// Compiled into the plugin and, for tests that lower without loading it, into the unit-test
// binary (target dace_cpu_lowering).
#pragma once
#include <string>
#include <string_view>

#include "plugin/interfaces.h"
#include "plugin/registry.h"

namespace dace::cpu {

// The runtime entry the schedules call (plugins/cpu/runtime/dace_cpu_runtime.h):
//   void fn(void (*body)(void* closure, int64_t begin, int64_t end), void* closure,
//           int64_t begin, int64_t end, int64_t chunk, int32_t schedule, int32_t num_threads)
// schedule: 0 static, 1 dynamic, 2 guided (DaCe's Default: map_schedule in parallel_map.cpp);
// chunk <= 0 = runtime's choice, num_threads 0 = runtime's default.
inline constexpr const char* kParallelForEntry = "dace_cpu_parallel_for";

class MulticoreSchedule final : public plugin::ScheduleLowering {
 public:
  // `entry`: the parallel_for the code calls (tests pass a stand-in's name); `hosts_default`:
  // whether Default maps and the core's parallel loops go to this schedule too.
  MulticoreSchedule(std::string entry, bool hosts_default) : entry_(std::move(entry)), hosts_default_(hosts_default) {}
  Status lower_scope(codegen::ScopeContext& context) const override;
  bool hosts_default_maps() const override { return hosts_default_; }
  Status lower_parallel_loop(codegen::ParallelLoopContext& context) const override;
  std::string_view runtime_entry() const override { return entry_; }

 private:
  std::string entry_;
  bool hosts_default_;
};

// Registers CPU_Multicore (the host's parallel schedule) and CPU_Persistent, calling `entry`.
Status register_schedules(plugin::Registry& registry, const std::string& entry = kParallelForEntry);

}  // namespace dace::cpu
