#include "pblas.h"

#include "common.h"

namespace dace::mpi {

namespace {

using codegen::LibraryNodeContext;

llvm::Value* i32(LibraryNodeContext& c, int64_t v) { return c.builder().getInt32(static_cast<int32_t>(v)); }

// A symbolic property (Pgemm's m, n, k) as i64.
Result<llvm::Value*> symbolic_property(LibraryNodeContext& c, const std::string& key) {
  std::optional<std::string> text = string_property(c.node(), key);
  auto raw = c.node().properties.find(key);
  if (!text && raw != c.node().properties.end()) text = raw->second;  // a bare number
  if (!text) return make_error(Code::InvalidSdfg, c.where() + ": property \"" + key + "\" is missing");
  Result<sym::Expr> e = sym::parse(*text);
  if (!e) return make_error(Code::InvalidSdfg, c.where() + ": property \"" + key + "\": " + e.error().message);
  return c.frame().sym(*e);
}

// Two block sizes from an int array connector (_a_block_sizes: rows, cols).
Result<std::pair<llvm::Value*, llvm::Value*>> block_sizes(LibraryNodeContext& c, const std::string& conn) {
  Result<codegen::Operand> op = codegen::library_operand(c.se, c.node_id, conn, true);
  if (!op) return op.take_error();
  ScalarType t = op->type == ScalarType::Unknown ? ScalarType::Int32 : op->type;
  codegen::Frame& f = c.frame();
  llvm::Value* stride = op->strides.empty() ? f.b.getInt64(1) : op->strides[0];
  llvm::Type* et = codegen::storage_type(f.mc.ctx, t);
  llvm::Value* second = f.b.CreateGEP(et, op->base, stride);
  llvm::Value* r = codegen::as_i64(f.b, codegen::load_scalar(f.b, op->base, t));
  llvm::Value* k = codegen::as_i64(f.b, codegen::load_scalar(f.b, second, t));
  return std::make_pair(r, k);
}

}  // namespace

Status lower_pgemm(LibraryNodeContext& c) {
  Result<Buffer> a = buffer(c, "_a", true);
  if (!a) return a.take_error();
  Result<Buffer> b = buffer(c, "_b", true);
  if (!b) return b.take_error();
  Result<Buffer> out = buffer(c, "_c", false);
  if (!out) return out.take_error();
  if (a->dtype != b->dtype || b->dtype != out->dtype)
    return make_error(Code::InvalidSdfg, c.where() + ": the types of A, B and C do not match");
  Result<llvm::Value*> m = symbolic_property(c, "m");
  if (!m) return m.take_error();
  Result<llvm::Value*> n = symbolic_property(c, "n");
  if (!n) return n.take_error();
  Result<llvm::Value*> k = symbolic_property(c, "k");
  if (!k) return k.take_error();
  auto ab = block_sizes(c, "_a_block_sizes");
  if (!ab) return ab.take_error();
  auto bb = block_sizes(c, "_b_block_sizes");
  if (!bb) return bb.take_error();
  call_checked(c, "dace_mpi_pgemm", {c.program_state(kStateKey), i32(c, a->dtype), a->ptr, b->ptr, out->ptr, *m,
                                             *n, *k, ab->first, ab->second, bb->first, bb->second});
  return Status::success();
}


// DaCe's Pgemv: y = A @ x ("N") or A^T @ x ("T") over the row-major local blocks of A
// (block sizes from _a_block_sizes); x and y whole vectors, read and written on the first
// process of the grid (DaCe's descriptors put them there).
Status lower_pgemv(LibraryNodeContext& c) {
  Result<Buffer> a = buffer(c, "_a", true);
  if (!a) return a.take_error();
  Result<Buffer> x = buffer(c, "_b", true);
  if (!x) return x.take_error();
  Result<Buffer> y = buffer(c, "_c", false);
  if (!y) return y.take_error();
  if (a->dtype != x->dtype || x->dtype != y->dtype)
    return make_error(Code::InvalidSdfg, c.where() + ": the types of A, x and y do not match");
  std::string transa = string_property(c.node(), "transa").value_or("N");
  if (transa != "N" && transa != "T")
    return make_error(Code::Unsupported, c.where() + ": transa " + ir::quoted(transa) + " is not \"N\" or \"T\"");
  Result<llvm::Value*> m = symbolic_property(c, "m");
  if (!m) return m.take_error();
  Result<llvm::Value*> n = symbolic_property(c, "n");
  if (!n) return n.take_error();
  auto ab = block_sizes(c, "_a_block_sizes");
  if (!ab) return ab.take_error();
  call_checked(c, "dace_mpi_pgemv", {c.program_state(kStateKey), i32(c, a->dtype), i32(c, transa == "T" ? 1 : 0), a->ptr,
                                     x->ptr, y->ptr, *m, *n, ab->first, ab->second});
  return Status::success();
}

bool is_pblas_class(const std::string& classpath) { return classpath.rfind("dace.libraries.pblas.", 0) == 0; }

}  // namespace dace::mpi
