#include "pblas.h"

#include "codegen/addressing.h"
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
                                     *n, *k, ab->first, ab->second, bb->first, bb->second, a->count, b->count,
                                     out->count});
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
                                     x->ptr, y->ptr, *m, *n, ab->first, ab->second, a->count, x->count, y->count});
  return Status::success();
}

namespace {

// The global row-major matrix of a block-cyclic scatter / gather: the container's rank says
// whether it is a vector or a matrix (as DaCe's BlockCyclicScatter reads the memlet's unsqueezed
// subset), never the squeezed memlet, which would take a 1 x N or N x 1 matrix for a vector
// and cut it with the vector's block size over the wrong grid dimension. A vector of n
// elements is the 1 x n matrix (its transpose, the column n x 1 that DaCe's vector
// descriptors describe, is cut into blocks over the grid's process rows); a matrix keeps the
// memlet's rows and columns, ones included; so does one matrix of a container of more
// dimensions (one index in each leading dimension: its last two).
struct GlobalShape {
  llvm::Value* rows = nullptr;  // i64
  llvm::Value* cols = nullptr;  // i64
  bool vector = false;
};

Result<GlobalShape> global_shape(LibraryNodeContext& c, const std::string& conn, bool input) {
  Result<codegen::Operand> op = codegen::library_operand(c.se, c.node_id, conn, input);
  if (!op) return op.take_error();
  const size_t rank = op->data.desc->shape.size();
  codegen::Frame& f = c.frame();
  if (rank == 1) {
    // No dimension wider than one: a vector of one element.
    llvm::Value* n = op->size_values.empty() ? f.b.getInt64(1) : op->size_values[0];
    return GlobalShape{f.b.getInt64(1), n, true};
  }
  // library_operand found the edge and its memlet.
  const int e = input ? c.se.in_edge_at(c.node_id, conn) : c.se.out_edge_at(c.node_id, conn);
  const ir::Memlet& m = c.se.state.edge(e)->memlet;
  if (rank == 0)
    return make_error(Code::Unsupported, c.where() + ": connector \"" + conn +
                                             "\" is neither a vector nor a matrix (\"" + m.data + "\" is a scalar)");
  const sym::Subset subset = m.subset.rank() ? m.subset : codegen::full_subset(*op->data.desc);
  const std::vector<sym::Expr> sizes = sym::size(subset);
  if (sizes.size() != rank)
    return make_error(Code::InvalidSdfg, c.where() + ": the subset of connector \"" + conn + "\" has " +
                                             std::to_string(sizes.size()) + " dimensions, \"" + m.data + "\" " +
                                             std::to_string(rank));
  // A container of more dimensions holds one matrix per index of the leading ones (a product
  // in a map reads A[i, 0:M, 0:K]): the subset must take one index in each of them.
  for (size_t k = 0; k + 2 < rank; ++k)
    if (sym::prove(sym::eq(sizes[k], sym::integer(1))) != std::optional<bool>(true))
      return make_error(Code::Unsupported, c.where() + ": connector \"" + conn +
                                               "\" is neither a vector nor a matrix (the subset " +
                                               sym::to_string(subset) + " of \"" + m.data + "\", of " +
                                               std::to_string(rank) + " dimensions, is " + sym::to_string(sizes[k]) +
                                               " wide in dimension " + std::to_string(k) + ", not one)");
  Result<llvm::Value*> rows = f.sym(sizes[rank - 2]);
  if (!rows) return rows.take_error();
  Result<llvm::Value*> cols = f.sym(sizes[rank - 1]);
  if (!cols) return cols.take_error();
  return GlobalShape{*rows, *cols, false};  // i64, as every symbolic size
}

// The first block size of an int array connector (a vector's blocks; DaCe reads no more).
Result<llvm::Value*> first_block_size(LibraryNodeContext& c, const std::string& conn) {
  Result<codegen::Operand> op = codegen::library_operand(c.se, c.node_id, conn, true);
  if (!op) return op.take_error();
  ScalarType t = op->type == ScalarType::Unknown ? ScalarType::Int32 : op->type;
  codegen::Frame& f = c.frame();
  return codegen::as_i64(f.b, codegen::load_scalar(f.b, op->base, t));
}

// p?geadd exists for float32, float64, complex64 and complex128 only: any other element type
// is refused here, so that nothing (not even the descriptors) is written at run time.
Status check_geadd_type(LibraryNodeContext& c, const Buffer& b) {
  for (ScalarType t : {ScalarType::Float32, ScalarType::Float64, ScalarType::Complex64, ScalarType::Complex128})
    if (b.dtype == dtype_code(t)) return Status::success();
  std::string name = "code " + std::to_string(b.dtype);
  for (int i = 0; i < static_cast<int>(ScalarType::Unknown); ++i)
    if (dtype_code(static_cast<ScalarType>(i)) == b.dtype) name = tasklet::type_name(static_cast<ScalarType>(i));
  return make_error(Code::Unsupported, c.where() + ": element type " + name + " of \"" + b.data +
                                           "\" (ScaLAPACK's p?geadd: float32, float64, complex64, complex128 only)");
}

// An optional int32[9] descriptor output of BlockCyclicScatter (null when not connected).
Result<llvm::Value*> descriptor_output(LibraryNodeContext& c, const std::string& conn) {
  if (!has_edge(c, conn, false)) return static_cast<llvm::Value*>(llvm::ConstantPointerNull::get(c.frame().b.getPtrTy()));
  Result<Buffer> d = buffer(c, conn, false);
  if (!d) return d.take_error();
  if (d->dtype != dtype_code(ScalarType::Int32) || sym::prove(sym::eq(d->count_expr, sym::integer(9))) != std::optional<bool>(true))
    return make_error(Code::InvalidSdfg, c.where() + ": connector \"" + conn + "\" must be 9 int32 elements");
  return d->ptr;
}

// DaCe's BlockCyclicScatter (`scatter`: the whole row-major matrix of rank 0, _inbuffer, to the
// local row-major blocks, _outbuffer, of block size _block_sizes, as Pgemm reads them; the
// descriptors to the optional _gdescriptor / _ldescriptor) and BlockCyclicGather (the local
// blocks, _inbuffer, back into the whole matrix of rank 0, _outbuffer; other ranks' _outbuffer
// is left as it was): one call of the runtime with both buffers' element counts.
Status lower_block_cyclic(LibraryNodeContext& c, bool scatter) {
  Result<Buffer> in = buffer(c, "_inbuffer", true);
  if (!in) return in.take_error();
  Result<Buffer> out = buffer(c, "_outbuffer", false);
  if (!out) return out.take_error();
  if (in->dtype != out->dtype) return make_error(Code::InvalidSdfg, c.where() + ": the types of the buffers do not match");
  if (Status st = check_geadd_type(c, *in); !st.ok()) return st;
  // The whole matrix gives the shape: the scatter's input, the gather's output.
  auto shape = scatter ? global_shape(c, "_inbuffer", true) : global_shape(c, "_outbuffer", false);
  if (!shape) return shape.take_error();
  // A vector's blocks are 1 x _block_sizes[0] of the 1 x n matrix.
  llvm::Value *brows = nullptr, *bcols = nullptr;
  if (shape->vector) {
    Result<llvm::Value*> b = first_block_size(c, "_block_sizes");
    if (!b) return b.take_error();
    brows = c.frame().b.getInt64(1);
    bcols = *b;
  } else {
    auto bs = block_sizes(c, "_block_sizes");
    if (!bs) return bs.take_error();
    brows = bs->first;
    bcols = bs->second;
  }
  std::vector<llvm::Value*> args{c.program_state(kStateKey), i32(c, in->dtype), in->ptr, out->ptr, shape->rows,
                                 shape->cols, brows, bcols, in->count, out->count};
  if (scatter) {
    Result<llvm::Value*> gdesc = descriptor_output(c, "_gdescriptor");
    if (!gdesc) return gdesc.take_error();
    Result<llvm::Value*> ldesc = descriptor_output(c, "_ldescriptor");
    if (!ldesc) return ldesc.take_error();
    args.push_back(*gdesc);
    args.push_back(*ldesc);
  }
  call_checked(c, scatter ? "dace_mpi_bc_scatter" : "dace_mpi_bc_gather", args);
  return Status::success();
}

}  // namespace

Status lower_bc_scatter(LibraryNodeContext& c) { return lower_block_cyclic(c, true); }

Status lower_bc_gather(LibraryNodeContext& c) { return lower_block_cyclic(c, false); }

bool is_pblas_class(const std::string& classpath) { return classpath.rfind("dace.libraries.pblas.", 0) == 0; }

}  // namespace dace::mpi
