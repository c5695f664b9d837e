#include "lowering/warp_collective.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <regex>

#include "codegen/addressing.h"
#include "codegen/types.h"

namespace dace::cuda {

namespace {

std::optional<ir::ScalarType> cpp_type(const std::string& t) {
  if (t == "float") return ir::ScalarType::Float32;
  if (t == "double") return ir::ScalarType::Float64;
  if (t == "int" || t == "int32_t") return ir::ScalarType::Int32;
  if (t == "long long" || t == "int64_t" || t == "long") return ir::ScalarType::Int64;
  if (t == "unsigned int" || t == "uint32_t") return ir::ScalarType::UInt32;
  if (t == "unsigned long long" || t == "uint64_t") return ir::ScalarType::UInt64;
  return std::nullopt;
}

std::optional<WarpOp> reduction_type(const std::string& op) {
  if (op == "Sum") return WarpOp::Sum;
  if (op == "Product") return WarpOp::Product;
  if (op == "Min") return WarpOp::Min;
  if (op == "Max") return WarpOp::Max;
  if (op == "Bitwise_And") return WarpOp::BitwiseAnd;
  if (op == "Bitwise_Or") return WarpOp::BitwiseOr;
  if (op == "Bitwise_Xor") return WarpOp::BitwiseXor;
  if (op == "Logical_And") return WarpOp::LogicalAnd;
  if (op == "Logical_Or") return WarpOp::LogicalOr;
  if (op == "Logical_Xor") return WarpOp::LogicalXor;
  return std::nullopt;
}

// The value an edge's memlet names as a pointer to its first element.
Result<llvm::Value*> memlet_pointer(codegen::StateEmitter& se, int edge) {
  const ir::Memlet& m = se.state.edge(edge)->memlet;
  Result<codegen::DataBinding> d = se.f->data(m.data);
  if (!d) return d.take_error();
  return codegen::subset_pointer(*se.f, *d, m.subset);
}

ir::ScalarType memlet_type(const codegen::StateEmitter& se, int edge) {
  const ir::Memlet& m = se.state.edge(edge)->memlet;
  auto it = se.sdfg.arrays.find(m.data);
  return it == se.sdfg.arrays.end() ? ir::ScalarType::Unknown : it->second.dtype.scalar;
}

}  // namespace

Result<std::optional<WarpReduce>> match_warp_reduce(const codegen::StateEmitter& se, int node) {
  const ir::Node* n = se.state.node(node);
  if (n->kind != ir::NodeKind::Tasklet) return std::optional<WarpReduce>{};
  const auto& t = static_cast<const ir::Tasklet&>(*n);
  if (t.code.language != ir::Language::CPP || t.code.code.find("warpReduce") == std::string::npos)
    return std::optional<WarpReduce>{};
  static const std::regex form(
      R"(^\s*(\w+)\s*=\s*dace::warpReduce\s*<\s*dace::ReductionType::(\w+)\s*,\s*([\w ]*\w)\s*>\s*::\s*reduce\s*\(\s*(\w+)\s*\)\s*;?\s*$)");
  std::smatch mt;
  const std::string where = se.where(node);
  if (!std::regex_match(t.code.code, mt, form))
    return make_error(Code::Unsupported, where + ": a warpReduce tasklet must be one statement `out = dace::warpReduce<"
                                                 "dace::ReductionType::OP, TYPE>::reduce(in);`");
  WarpReduce w;
  std::optional<WarpOp> op = reduction_type(mt[2].str());
  if (!op)
    return make_error(Code::Unsupported, where + ": warpReduce with ReductionType::" + mt[2].str() +
                                             " (Sum, Product, Min, Max, and for integers Bitwise_And/Or/Xor and "
                                             "Logical_And/Or/Xor are supported)");
  std::optional<ir::ScalarType> type = cpp_type(mt[3].str());
  if (!type) return make_error(Code::Unsupported, where + ": warpReduce of type '" + mt[3].str() + "'");
  if (*op >= WarpOp::BitwiseAnd && tasklet::is_float(*type))
    return make_error(Code::Unsupported, where + ": warpReduce with ReductionType::" + mt[2].str() + " of the floating-point type '" +
                                             mt[3].str() + "' (bitwise and logical reductions take integers)");
  w.op = *op;
  w.type = *type;
  for (int e : se.state.in_edges(node))
    if (se.state.edge(e)->dst_conn == mt[4].str()) w.in_edge = e;
  for (int e : se.state.out_edges(node))
    if (se.state.edge(e)->src_conn == mt[1].str()) w.out_edge = e;
  if (w.in_edge < 0 || w.out_edge < 0 || se.state.in_edges(node).size() != 1 || se.state.out_edges(node).size() != 1)
    return make_error(Code::InvalidSdfg, where + ": a warpReduce tasklet needs exactly its input '" + mt[4].str() +
                                             "' and its output '" + mt[1].str() + "' connected");
  const ir::DataflowEdge* in = se.state.edge(w.in_edge);
  const ir::DataflowEdge* out = se.state.edge(w.out_edge);
  if (in->memlet.is_empty() || out->memlet.is_empty())
    return make_error(Code::InvalidSdfg, where + ": a warpReduce connector has an empty memlet");
  if (se.state.node(in->src)->kind == ir::NodeKind::Tasklet || se.state.node(out->dst)->kind == ir::NodeKind::Tasklet)
    return make_error(Code::Unsupported, where + ": a warpReduce tasklet must read and write data containers, not other tasklets");
  if (!out->memlet.wcr.empty())
    return make_error(Code::Unsupported, where + ": a warpReduce output with write-conflict resolution");
  return std::optional<WarpReduce>{w};
}

Result<llvm::Value*> load_warp_input(codegen::StateEmitter& se, const WarpReduce& w) {
  Result<llvm::Value*> p = memlet_pointer(se, w.in_edge);
  if (!p) return p.take_error();
  codegen::TypedValue v = codegen::load_scalar(se.f->b, *p, memlet_type(se, w.in_edge));
  return codegen::convert(se.f->b, v, w.type);
}

Status store_warp_output(codegen::StateEmitter& se, const WarpReduce& w, llvm::Value* v) {
  Result<llvm::Value*> p = memlet_pointer(se, w.out_edge);
  if (!p) return p.take_error();
  codegen::store_scalar(se.f->b, codegen::convert_typed(se.f->b, codegen::TypedValue{v, w.type}, memlet_type(se, w.out_edge)), *p);
  return Status::success();
}

llvm::Value* warp_combine(llvm::IRBuilder<>& b, const WarpReduce& w, llvm::Value* a, llvm::Value* x) {
  const bool fp = tasklet::is_float(w.type), sign = tasklet::is_signed_integer(w.type);
  switch (w.op) {
    case WarpOp::Sum: return fp ? b.CreateFAdd(a, x) : b.CreateAdd(a, x);
    case WarpOp::Product: return fp ? b.CreateFMul(a, x) : b.CreateMul(a, x);
    case WarpOp::Min: return b.CreateSelect(fp ? b.CreateFCmpOLT(x, a) : sign ? b.CreateICmpSLT(x, a) : b.CreateICmpULT(x, a), x, a);
    case WarpOp::Max: return b.CreateSelect(fp ? b.CreateFCmpOGT(x, a) : sign ? b.CreateICmpSGT(x, a) : b.CreateICmpUGT(x, a), x, a);
    case WarpOp::BitwiseAnd: return b.CreateAnd(a, x);
    case WarpOp::BitwiseOr: return b.CreateOr(a, x);
    case WarpOp::BitwiseXor: return b.CreateXor(a, x);
    case WarpOp::LogicalAnd:
    case WarpOp::LogicalOr:
    case WarpOp::LogicalXor: {
      llvm::Value* zero = llvm::ConstantInt::get(a->getType(), 0);
      llvm::Value* l = b.CreateICmpNE(a, zero);
      llvm::Value* r = b.CreateICmpNE(x, zero);
      llvm::Value* v = w.op == WarpOp::LogicalAnd ? b.CreateAnd(l, r) : w.op == WarpOp::LogicalOr ? b.CreateOr(l, r) : b.CreateXor(l, r);
      return b.CreateZExt(v, a->getType());
    }
  }
  return a;
}

Status emit_warp_reduce_device(codegen::StateEmitter& se, const WarpReduce& w) {
  llvm::IRBuilder<>& b = se.f->b;
  llvm::Module& m = se.f->mc.module;
  Result<llvm::Value*> in = load_warp_input(se, w);
  if (!in) return in.take_error();
  llvm::Value* v = *in;
  llvm::Type* ty = v->getType();
  const unsigned bits = ty->getPrimitiveSizeInBits();
  llvm::Function* shfl = llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::nvvm_shfl_sync_bfly_i32);
  llvm::Value* all = b.getInt32(0xffffffffu);
  llvm::Value* clamp = b.getInt32(0x1f);
  // A lane's partner at distance `offset` (lane ^ offset), 32 bits at a time.
  auto partner = [&](llvm::Value* x, int offset) -> llvm::Value* {
    if (bits == 32) {
      llvm::Value* r = b.CreateCall(shfl, {all, b.CreateBitCast(x, b.getInt32Ty()), b.getInt32(offset), clamp});
      return b.CreateBitCast(r, ty);
    }
    llvm::Value* wide = b.CreateBitCast(x, b.getInt64Ty());
    llvm::Value* lo = b.CreateTrunc(wide, b.getInt32Ty());
    llvm::Value* hi = b.CreateTrunc(b.CreateLShr(wide, 32), b.getInt32Ty());
    lo = b.CreateCall(shfl, {all, lo, b.getInt32(offset), clamp});
    hi = b.CreateCall(shfl, {all, hi, b.getInt32(offset), clamp});
    llvm::Value* joined = b.CreateOr(b.CreateZExt(lo, b.getInt64Ty()), b.CreateShl(b.CreateZExt(hi, b.getInt64Ty()), 32));
    return b.CreateBitCast(joined, ty);
  };
  // Butterfly: after the five levels every lane holds the combination of all 32.
  for (int offset = 16; offset >= 1; offset /= 2) v = warp_combine(b, w, v, partner(v, offset));
  return store_warp_output(se, w, v);
}

}  // namespace dace::cuda
