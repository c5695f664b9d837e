#include "blas_test_registry.h"

#include <dlfcn.h>

#include "codegen_test_support.h"
#include "lowering/multicore.h"

namespace dace::codegen::testing {
namespace {

struct TestBlas : plugin::LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
  std::string_view vendor_library() const override { return "libopenblas.so.0"; }
};

const char* kClasses[] = {"dace.libraries.blas.nodes.matmul.MatMul", "dace.libraries.blas.nodes.gemm.Gemm",
                          "dace.libraries.blas.nodes.gemv.Gemv", "dace.libraries.blas.nodes.dot.Dot"};

}  // namespace

std::unique_ptr<plugin::Registry> make_blas_registry(bool with_blas, bool blas_loaded) {
  auto r = std::make_unique<plugin::Registry>("cpu");
  (void)cpu::register_schedules(*r);
  if (with_blas) {
    for (const char* c : kClasses) (void)r->add_expansion(c, "OpenBLAS", std::make_shared<TestBlas>());
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
