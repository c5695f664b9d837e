#include "lowering/multicore.h"
#include "lapack_test_support.h"

#include <dlfcn.h>

#include "codegen/lapack.h"
#include "codegen_test_support.h"

namespace dace::codegen::testing {
namespace {

struct Lapacke : plugin::LibraryExpansion {
  Status expand(transform::ExpansionContext&) const override { return Status::success(); }
  std::string_view vendor_library() const override { return kLapackeLibrary; }
};

}  // namespace

std::unique_ptr<plugin::Registry> make_lapack_registry(bool with_lapack, bool loaded) {
  auto r = std::make_unique<plugin::Registry>("cpu");
  (void)cpu::register_schedules(*r);
  if (with_lapack) {
    for (const std::string& c : lapack_classpaths()) (void)r->add_expansion(c, "OpenBLAS", std::make_shared<Lapacke>());
    (void)r->add_vendor_library(kLapackeLibrary, false);
    r->set_vendor_library_status(kLapackeLibrary, loaded, loaded ? "" : "not loaded");
  }
  return r;
}

bool lapacke_loaded() {
  static bool ok = [] {
    if (!dlopen(kLapackeLibrary, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE)) return false;
    return session().add_library(kLapackeLibrary).ok();
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
