#include "codegen/library_nodes.h"

#include "codegen/addressing.h"
#include "codegen/node_emit.h"

namespace dace::codegen {

std::string library_property(const ir::LibraryNode& n, const std::string& key) {
  auto it = n.properties.find(key);
  return it == n.properties.end() ? std::string() : it->second;
}

Result<Operand> library_operand(StateEmitter& se, int node, const std::string& conn, bool input) {
  Frame& f = *se.f;
  int e = input ? se.in_edge_at(node, conn) : se.out_edge_at(node, conn);
  if (e < 0) return make_error(Code::InvalidSdfg, se.where(node) + ": connector \"" + conn + "\" has no edge");
  const ir::Memlet& m = se.state.edge(e)->memlet;
  if (m.is_empty()) return make_error(Code::InvalidSdfg, se.where(node) + ": connector \"" + conn + "\" has an empty memlet");
  Result<DataBinding> d = f.data(m.data);
  if (!d) return d.take_error();
  Operand op;
  op.data = *d;
  op.type = d->desc->dtype.scalar;
  op.wcr = m.wcr;
  op.nonatomic = m.wcr_nonatomic;
  sym::Subset subset = m.subset.rank() ? m.subset : full_subset(*d->desc);
  Result<llvm::Value*> base = subset_pointer(f, *d, subset);
  if (!base) return base.take_error();
  op.base = *base;
  Result<std::vector<llvm::Value*>> strides = container_strides(f, *d->desc);
  if (!strides) return strides.take_error();
  std::vector<sym::Expr> sizes = sym::size(subset);
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (is_one(sizes[i])) continue;
    Result<llvm::Value*> n = f.sym(sizes[i]);
    if (!n) return n.take_error();
    llvm::Value* stride = i < strides->size() ? (*strides)[i] : f.b.getInt64(0);
    if (!is_one(subset.dims[i].step)) {
      Result<llvm::Value*> step = f.sym(subset.dims[i].step);
      if (!step) return step.take_error();
      stride = f.b.CreateMul(stride, *step);
    }
    op.sizes.push_back(sizes[i]);
    op.size_values.push_back(*n);
    op.strides.push_back(stride);
  }
  return op;
}

llvm::Value* operand_element(Frame& f, const Operand& op, const std::vector<llvm::Value*>& idx) {
  llvm::Value* off = nullptr;
  for (size_t i = 0; i < idx.size() && i < op.strides.size(); ++i) {
    llvm::Value* t = f.b.CreateMul(idx[i], op.strides[i]);
    off = off ? f.b.CreateAdd(off, t) : t;
  }
  if (!off) return op.base;
  return f.b.CreateGEP(storage_type(f.mc.ctx, op.type), op.base, off);
}

Status emit_library_node(StateEmitter& se, int node) {
  const auto& n = static_cast<const ir::LibraryNode&>(*se.state.node(node));
  std::string cls = n.classpath;
  size_t dot = cls.rfind('.');
  if (dot != std::string::npos) cls = cls.substr(dot + 1);
  if (cls == "MatMul" || cls == "Gemm" || cls == "Gemv" || cls == "Dot" || cls == "BatchedMatMul") return emit_matmul(se, node);
  if (cls == "Reduce") return emit_reduce(se, node);
  if (cls == "Transpose") return emit_transpose(se, node);
  if (cls == "TensorTranspose") return emit_tensor_transpose(se, node);
  if (cls == "CopyLibraryNode") return emit_copy_node(se, node);
  if (cls == "MemsetLibraryNode") return emit_memset_node(se, node);
  return make_error(Code::Unsupported, se.where(node) + ": library node " + n.classpath + " has no CPU lowering yet");
}

}  // namespace dace::codegen
