#include "lowering/multicore.h"
#include "lowering/vendor_lowering.h"
#include "lapack_test_support.h"

#include <dlfcn.h>

#include "lowering/lapack.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

}  // namespace

std::unique_ptr<plugin::Registry> make_lapack_registry(bool with_lapack, bool loaded) {
  auto r = std::make_unique<plugin::Registry>("cpu");
  (void)cpu::register_schedules(*r);
  (void)cpu::register_cpp_tasklets(*r);
  if (with_lapack) {
    (void)cpu::register_lapack(*r);
    (void)r->add_vendor_library(cpu::kLapackeLibrary, false);
    r->set_vendor_library_status(cpu::kLapackeLibrary, loaded, loaded ? "" : "not loaded");
  }
  return r;
}

bool lapacke_loaded() {
  static bool ok = [] {
    if (!dlopen(cpu::kLapackeLibrary, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE)) return false;
    return session().add_library(cpu::kLapackeLibrary).ok();
  }();
  return ok;
}

const plugin::Registry& lapack_registry() {
  static std::unique_ptr<plugin::Registry> r = make_lapack_registry(true, true);
  return *r;
}

LowerOptions with_lapack() {
  LowerOptions o;
  o.registry = &lapack_registry();
  return o;
}

}  // namespace dace::codegen::testing
