#include "lowering/blas.h"

#include "codegen/library_matmul.h"
#include "codegen/library_nodes.h"
#include "ir/tasklet/types.h"
#include "lowering/gemm_call.h"

namespace dace::cuda {
namespace {

// Whether the node's _cin and _c memlets name the same container and elements.
bool same_container(codegen::StateEmitter& se, int node) {
  const int in = se.in_edge_at(node, "_cin"), out = se.out_edge_at(node, "_c");
  if (in < 0 || out < 0) return false;
  const ir::Memlet& a = se.state.edge(in)->memlet;
  const ir::Memlet& c = se.state.edge(out)->memlet;
  return a.data == c.data && a.subset == c.subset;
}

// Whether `d` lives in device memory at run time: GPU storage, except Scalar arguments, which
// arrive by value into host memory whatever their storage (as kernel arguments do).
bool in_device_memory(const ir::DataDescriptor& d) {
  const bool gpu = d.storage == ir::StorageType::GPU_Global || d.storage == ir::StorageType::GPU_Shared;
  return gpu && !(d.kind == ir::DataKind::Scalar && !d.transient);
}

// A named alpha/beta is read by host code before the cuBLAS call (matmul_operands loads it):
// refused when the container it names, or the one its input connector reads, is in device
// memory (GPUTransformSDFG moves transient scalars to GPU_Global), which the host cannot read.
Status check_factor_on_host(codegen::StateEmitter& se, int node, const std::string& key, const std::string& where) {
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  std::string v = codegen::library_property(n, key);
  if (v.size() >= 2 && v.front() == '"') v = v.substr(1, v.size() - 2);
  std::string data;
  if (n.in_connectors.count(v)) {
    const int in = se.in_edge_at(node, v);
    if (in < 0) return Status::success();  // matmul_operands reports the missing edge
    data = se.state.edge(in)->memlet.data;
  } else if (!se.f->sc.symbol_types.count(v)) {
    data = v;
  }
  if (data.empty()) return Status::success();
  Result<codegen::DataBinding> db = se.f->data(data);
  if (!db || !db->desc || !in_device_memory(*db->desc)) return Status::success();  // numbers, host data, unknown names
  return make_error(Code::Unsupported, where + ": " + key + " \"" + v + "\" reads \"" + data + "\" in " +
                                           ir::to_string(db->desc->storage) +
                                           " memory, which host code cannot read before the cuBLAS call; keep the factor "
                                           "in host memory (a number, a symbol or a host Scalar)");
}

}  // namespace

Status lower_device_matmul(codegen::LibraryNodeContext& context) {
  codegen::StateEmitter& se = context.se;
  codegen::Frame& f = *se.f;
  const std::string where = context.where();
  if (f.parallel_context)
    return make_error(Code::Unsupported, where + ": a matrix product on GPU memory inside a parallel map cannot be compiled");
  DACE_TRY(check_factor_on_host(se, context.node_id, "alpha", where));
  DACE_TRY(check_factor_on_host(se, context.node_id, "beta", where));
  Result<codegen::MatMulOperands> ops = codegen::matmul_operands(se, context.node_id);
  if (!ops) return ops.take_error();
  const ir::ScalarType t = ops->c.type;
  if (!gemm_type_code(t))
    return make_error(Code::Unsupported, where + ": a matrix product on GPU memory of " + std::string(tasklet::type_name(t)) +
                                             " elements cannot be compiled (float32, float64, complex64 and complex128 "
                                             "can, through cuBLAS)");
  const bool complex = t == ir::ScalarType::Complex64 || t == ir::ScalarType::Complex128;
  // The runtime takes real factors (alpha + 0i); a factor read at run time would be complex.
  if (complex && (ops->alpha.value || ops->beta.value))
    return make_error(Code::Unsupported, where + ": a complex matrix product on GPU memory with alpha or beta read at run "
                                             "time cannot be compiled (numbers can)");
  if (ops->a.type != t || ops->b.type != t)
    return make_error(Code::Unsupported, where + ": a matrix product on GPU memory needs operands of one element type");
  // cuBLAS updates C where it reads it: a C input (_cin, with beta != 0) must be C itself
  // (Gemm's in-place update, what FoldScalingIntoGemm makes).
  if (ops->cin && !ops->beta.is(0.0) && !same_container(se, context.node_id))
    return make_error(Code::Unsupported, where + ": a matrix product on GPU memory whose C input (_cin) is not its output "
                                                 "cannot be compiled (cuBLAS updates C in place)");
  const size_t ra = ops->a.sizes.size(), rb = ops->b.sizes.size(), rc = ops->c.sizes.size();
  if (ra > 2 || rb > 2 || ra == 0 || rb == 0)
    return make_error(Code::Unsupported, where + ": a matrix product on GPU memory of operands with " + std::to_string(ra) +
                                             " and " + std::to_string(rb) + " dimensions cannot be compiled (batched products are left)");
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* zero = b.getInt64(0);
  llvm::Value* one = b.getInt64(1);
  // Every operand as a matrix: vectors are one row (A) or one column (B, and C of A * x).
  const codegen::Operand &a = ops->a, &bo = ops->b, &c = ops->c;
  llvm::Value *m, *k, *n, *a_rs, *a_cs, *b_rs, *b_cs, *c_rs, *c_cs;
  if (ra == 2) {
    m = a.size_values[0], k = a.size_values[1], a_rs = a.strides[0], a_cs = a.strides[1];
  } else {
    m = one, k = a.size_values[0], a_rs = zero, a_cs = a.strides[0];
  }
  if (rb == 2) {
    n = bo.size_values[1], b_rs = bo.strides[0], b_cs = bo.strides[1];
  } else {
    n = one, b_rs = bo.strides[0], b_cs = zero;
  }
  const size_t want_c = (ra == 2 ? 1 : 0) + (rb == 2 ? 1 : 0);
  if (rc != want_c)
    return make_error(Code::InvalidSdfg, where + ": the product's output has " + std::to_string(rc) + " dimensions, not " +
                                             std::to_string(want_c));
  if (rc == 2) {
    c_rs = c.strides[0], c_cs = c.strides[1];
  } else if (rc == 1 && ra == 2) {
    c_rs = c.strides[0], c_cs = zero;
  } else if (rc == 1) {
    c_rs = zero, c_cs = c.strides[0];
  } else {
    c_rs = zero, c_cs = zero;
  }
  GemmCall call;
  call.type = t;
  call.m = m, call.n = n, call.k = k;
  // With beta == 0 and a _cin, the input is ignored, as DaCe's expansions ignore it.
  call.alpha = ops->alpha.number, call.beta = ops->beta.number;
  const ir::ScalarType f64 = ir::ScalarType::Float64;
  if (ops->alpha.value) call.alpha_value = codegen::convert(b, {ops->alpha.value, t}, f64);
  if (ops->beta.value) call.beta_value = codegen::convert(b, {ops->beta.value, t}, f64);
  call.a = GemmOperand{a.base, a_rs, a_cs};
  call.b = GemmOperand{bo.base, b_rs, b_cs};
  call.c = GemmOperand{c.base, c_rs, c_cs};
  call.where = where;
  call.se = &se;
  call.node = context.node_id;
  return emit_gemm_call(f, call);
}

}  // namespace dace::cuda
