#include "lowering/gemm_call.h"

#include <llvm/IR/Module.h>

#include "lowering/device_module.h"
#include "lowering/stream_emit.h"

namespace dace::cuda {

std::optional<int32_t> gemm_type_code(ir::ScalarType t) {
  switch (t) {
    case ir::ScalarType::Float32: return 0;     // DACE_CUDA_FLOAT32 (runtime/dace_cuda_runtime.h)
    case ir::ScalarType::Float64: return 1;     // DACE_CUDA_FLOAT64
    case ir::ScalarType::Complex64: return 2;   // DACE_CUDA_COMPLEX64
    case ir::ScalarType::Complex128: return 3;  // DACE_CUDA_COMPLEX128
    default: return std::nullopt;
  }
}

Status emit_gemm_call(codegen::Frame& f, const GemmCall& call) {
  std::optional<int32_t> type_code = gemm_type_code(call.type);
  if (!type_code) return make_error(Code::Internal, "cuda: dace_cuda_gemm takes float32, float64, complex64 or complex128 operands");
  // The device module's finisher guards init (a device must exist) and, emulated, sends the
  // runtime calls to the emulation, also for programs without kernels.
  Result<DeviceModule*> dm = device_module(f);
  if (!dm) return dm.take_error();
  llvm::IRBuilder<>& b = f.b;
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Type* i32 = b.getInt32Ty();
  llvm::Type* f64 = b.getDoubleTy();
  llvm::Type* ptr = b.getPtrTy();
  ItemStream on;
  if (call.se) {
    Result<ItemStream> item = begin_item(*call.se, call.node, -1, call.where);
    if (!item) return item.take_error();
    on = *item;
  }
  std::vector<llvm::Type*> params{i32, i64, i64, i64, f64, ptr, i64, i64, ptr, i64, i64, f64, ptr, i64, i64};
  std::vector<llvm::Value*> args{b.getInt32(*type_code), call.m, call.n, call.k,
                                 call.alpha_value ? call.alpha_value : llvm::ConstantFP::get(f64, call.alpha),
                                 call.a.base, call.a.rs, call.a.cs, call.b.base, call.b.rs, call.b.cs,
                                 call.beta_value ? call.beta_value : llvm::ConstantFP::get(f64, call.beta),
                                 call.c.base, call.c.rs, call.c.cs};
  if (on.stream) {  // dace_cuda_gemm_on(stream, ...)
    params.insert(params.begin(), ptr);
    args.insert(args.begin(), on.stream);
  }
  const char* entry = on.stream ? "dace_cuda_gemm_on" : "dace_cuda_gemm";
  llvm::FunctionCallee gemm = f.mc.module.getOrInsertFunction(entry, llvm::FunctionType::get(i32, params, false));
  llvm::Value* status = b.CreateCall(gemm, args);
  record_runtime_failure(f, status, /*leave=*/true, call.where + ": cuBLAS product (" + entry + ")");
  if (call.se) end_item(*call.se, on, call.where);
  return Status::success();
}

}  // namespace dace::cuda
