#include "blas_test_registry.h"

#include <dlfcn.h>

#include "codegen_test_support.h"
#include "lowering/multicore.h"
#include "lowering/vendor_lowering.h"

namespace dace::codegen::testing {

std::unique_ptr<plugin::Registry> make_blas_registry(bool with_blas, bool blas_loaded) {
  auto r = std::make_unique<plugin::Registry>("cpu");
  (void)cpu::register_schedules(*r);
  (void)cpu::register_cpp_tasklets(*r);
  if (with_blas) {
    (void)cpu::register_blas(*r);
    (void)r->add_vendor_library("libopenblas.so.0", false);
    r->set_vendor_library_status("libopenblas.so.0", blas_loaded, blas_loaded ? "" : "not loaded");
  }
  return r;
}

bool openblas_in_session() {
  static bool ok = [] {
    void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
    if (!h) return false;
    return session().add_library("libopenblas.so.0").ok();
  }();
  return ok;
}

}  // namespace dace::codegen::testing
