// A configurable test plugin (compiled several times with different TEST_PLUGIN_MODE):
//   good:           registers one of everything, plus an optional vendor library that is
//                   absent and a required one that is present;
//   failing:        registers some things, then its register function returns an error;
//   bad_registration: a registration fails but the plugin ignores it and returns 0;
//   conflict:       registers a new schedule and one that the good plugin also registers;
//   needs_vendor:   declares a required vendor library that cannot be loaded.
#include <cstdint>
#include <memory>

#include "libdace_plugin.h"
#include "plugin/registry.h"

#define TEST_MODE_GOOD 0
#define TEST_MODE_FAILING 1
#define TEST_MODE_BAD_REGISTRATION 2
#define TEST_MODE_CONFLICT 3
#define TEST_MODE_NEEDS_VENDOR 4

#ifndef TEST_PLUGIN_MODE
#define TEST_PLUGIN_MODE TEST_MODE_GOOD
#endif
#ifndef TEST_PLUGIN_NAME
#define TEST_PLUGIN_NAME "test_good"
#endif

namespace {

namespace dp = dace::plugin;

struct Schedule : dp::ScheduleLowering {
  dace::Status lower_scope(dace::codegen::ScopeContext&) const override {
    return dace::Status::success();
  }
};
struct Storage : dp::StorageLowering {
  dace::Status lower_allocation(dace::codegen::AllocationContext&) const override {
    return dace::Status::success();
  }
  dace::Status lower_deallocation(dace::codegen::AllocationContext&) const override {
    return dace::Status::success();
  }
};
struct Copy : dp::CopyLowering {
  dace::Status lower_copy(dace::codegen::CopyContext&) const override {
    return dace::Status::success();
  }
};
struct Expansion : dp::LibraryExpansion {
  dace::Status expand(dace::transform::ExpansionContext&) const override {
    return dace::Status::success();
  }
};
struct Factory : dp::TransformationFactory {
  std::shared_ptr<dace::transform::Transformation> create() const override { return nullptr; }
};

extern "C" int64_t test_plugin_answer(void) { return 42; }

int32_t register_test(dace_plugin_registry_t* handle) {
  dp::Registry& r = *dp::Registry::from_handle(handle);
  switch (TEST_PLUGIN_MODE) {
    case TEST_MODE_GOOD:
      if (!r.add_schedule("TestSeq", std::make_shared<Schedule>()).ok()) return 1;
      if (!r.add_schedule("TestPar", std::make_shared<Schedule>()).ok()) return 1;
      if (!r.add_storage("TestHeap", std::make_shared<Storage>()).ok()) return 1;
      if (!r.add_copy("TestHeap", "CPU_Heap", std::make_shared<Copy>()).ok()) return 1;
      if (!r.add_expansion("test.nodes.Gemm", "pure", std::make_shared<Expansion>()).ok())
        return 1;
      if (!r.add_transformation("TestTransform", std::make_shared<Factory>()).ok()) return 1;
      if (!r.add_runtime_symbol("test_plugin_answer",
                                reinterpret_cast<void*>(&test_plugin_answer)).ok())
        return 1;
      if (!r.add_vendor_library("libm.so.6", true).ok()) return 1;
      if (!r.add_vendor_library("libdace_test_absent_vendor.so.1", false).ok()) return 1;
      return 0;
    case TEST_MODE_FAILING:
      (void)r.add_schedule("FailSchedule", std::make_shared<Schedule>());
      (void)r.add_runtime_symbol("test_fail_symbol", reinterpret_cast<void*>(&test_plugin_answer));
      return 7;
    case TEST_MODE_BAD_REGISTRATION:
      (void)r.add_schedule("BadRegSchedule", std::make_shared<Schedule>());
      (void)r.add_schedule("", std::make_shared<Schedule>());
      return 0;
    case TEST_MODE_CONFLICT:
      if (!r.add_schedule("ConflictOnly", std::make_shared<Schedule>()).ok()) return 1;
      if (!r.add_schedule("TestPar", std::make_shared<Schedule>()).ok()) return 1;
      return 0;
    case TEST_MODE_NEEDS_VENDOR:
      if (!r.add_schedule("NeedsVendorSchedule", std::make_shared<Schedule>()).ok()) return 1;
      if (!r.add_vendor_library("libdace_test_absent_vendor.so.1", true).ok()) return 1;
      return 0;
  }
  return 1;
}

const dace_plugin_info_t kInfo = {DACE_PLUGIN_ABI_VERSION, TEST_PLUGIN_NAME, "1.2.3",
                                  DACE_PLUGIN_BUILD_ID, register_test};

}  // namespace

extern "C" const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version) {
  return abi_version == DACE_PLUGIN_ABI_VERSION ? &kInfo : nullptr;
}
