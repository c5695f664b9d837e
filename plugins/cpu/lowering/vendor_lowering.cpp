#include "lowering/vendor_lowering.h"

#include <memory>
#include <string_view>

#include "codegen/target_lowering.h"
#include "lowering/blas.h"
#include "lowering/lapack.h"

namespace dace::cpu {

namespace {

// The calls are emitted during lowering (lowers_to_ir), so there is no SDFG-level expansion.
class VendorNodes : public plugin::LibraryExpansion {
 public:
  Status expand(transform::ExpansionContext&) const override {
    return make_error(Code::Unsupported, std::string("the ") + std::string(vendor_library()) +
                                             " implementation is emitted during lowering, not as an SDFG expansion");
  }
  bool lowers_to_ir() const override { return true; }
};

class OpenBlasNodes final : public VendorNodes {
 public:
  std::string_view vendor_library() const override { return kOpenBlasLibrary; }
  Status lower_node(codegen::LibraryNodeContext& context) const override { return lower_blas_node(context); }
};

class LapackeNodes final : public VendorNodes {
 public:
  std::string_view vendor_library() const override { return kLapackeLibrary; }
  Status lower_node(codegen::LibraryNodeContext& context) const override {
    return emit_lapack_node(context.se, context.node_id);
  }
};

// Claims the code that names a CBLAS function (DaCe's OpenBLAS expansions of Gemm, Gemv, Dot
// and Transpose) or has the shape of a LAPACKE tasklet; the lowering refuses, naming the
// tasklet, whatever of it it does not recognize exactly.
class VendorCppTasklets final : public plugin::CppTaskletLowering {
 public:
  bool claims(std::string_view code) const override {
    const std::string text(code);
    return text.find("cblas_") != std::string::npos || is_cpp_lapack_tasklet(text);
  }
  Status lower_tasklet(codegen::CppTaskletContext& context) const override {
    return emit_cpp_blas_tasklet(context.se, context.node);
  }
};

}  // namespace

Status register_blas(plugin::Registry& registry) {
  auto impl = std::make_shared<OpenBlasNodes>();
  for (const std::string& cls : blas_classpaths()) DACE_TRY(registry.add_expansion(cls, kOpenBlasImplementation, impl));
  return Status::success();
}

Status register_lapack(plugin::Registry& registry) {
  auto impl = std::make_shared<LapackeNodes>();
  for (const std::string& cls : lapack_classpaths()) DACE_TRY(registry.add_expansion(cls, kOpenBlasImplementation, impl));
  return Status::success();
}

Status register_cpp_tasklets(plugin::Registry& registry) {
  return registry.add_cpp_tasklet(kOpenBlasImplementation, std::make_shared<VendorCppTasklets>());
}

}  // namespace dace::cpu
