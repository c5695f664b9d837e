// A registry with the CPU plugin's schedules (plugins/cpu/lowering, linked into the unit
// tests), calling `dace_cpu_parallel_for` as the plugin does; codegen_test_support's session
// resolves that symbol to its stand-in runtime. parallel_test_options() and compile() (for
// options without a registry) use it, so tests lower parallel maps with the plugin's code
// without loading the plugin.
#pragma once
#include "plugin/registry.h"

namespace dace::codegen::testing {

const plugin::Registry& cpu_schedule_registry();

}  // namespace dace::codegen::testing
