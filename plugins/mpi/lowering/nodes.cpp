#include "nodes.h"

#include "common.h"
#include "pblas.h"

namespace dace::mpi {

namespace {

using codegen::LibraryNodeContext;

llvm::Value* i32(LibraryNodeContext& c, int64_t v) { return c.builder().getInt32(static_cast<int32_t>(v)); }

// The reduction of Allreduce/Reduce ("op", default MPI_SUM).
Result<int32_t> node_op(LibraryNodeContext& c) {
  std::optional<std::string> op = string_property(c.node(), "op");
  return op_code(op.value_or("MPI_SUM"), c.where());
}

Status refuse_fcomm(LibraryNodeContext& c) {
  if (string_property(c.node(), "fcomm"))
    return make_error(Code::Unsupported, c.where() + ": a Fortran communicator (fcomm) is not supported yet");
  return Status::success();
}

Status lower_dummy(LibraryNodeContext&) { return Status::success(); }  // fields live in the runtime's state

// Strided buffers of the collectives below go through contiguous copies (common.h: staged /
// unstage): slot 0 for the input (or the one in-place buffer), slot 1 for a separate output.
Status lower_bcast(LibraryNodeContext& c) {
  DACE_TRY(refuse_fcomm(c));
  Result<Buffer> out = buffer(c, "_outbuffer", false, true);
  if (!out) return out.take_error();
  if (has_edge(c, "_inbuffer", true)) {
    Result<Buffer> in = buffer(c, "_inbuffer", true, true);
    if (!in) return in.take_error();
    if (in->data != out->data)
      return make_error(Code::InvalidSdfg, c.where() + ": Bcast input and output buffer must be the same container");
  }
  Result<llvm::Value*> root = scalar_input(c, "_root");
  if (!root) return root.take_error();
  Result<int32_t> grid = grid_property(c, "grid");
  if (!grid) return grid.take_error();
  const Buffer b = staged(c, *out, 0);
  call_checked(c, "dace_mpi_bcast", {c.program_state(kStateKey), b.ptr, b.count, i32(c, b.dtype), *root, i32(c, *grid)});
  unstage(c, *out, 0);
  return Status::success();
}

// Allreduce and Reduce (rooted): one container on both sides is DaCe's MPI_IN_PLACE, which
// the runtime sees as equal pointers.
Status lower_reduction(LibraryNodeContext& c, bool rooted) {
  Result<Buffer> in = buffer(c, "_inbuffer", true, true);
  if (!in) return in.take_error();
  Result<Buffer> out = buffer(c, "_outbuffer", false, true);
  if (!out) return out.take_error();
  llvm::Value* root = nullptr;
  if (rooted) {
    Result<llvm::Value*> r = scalar_input(c, "_root");
    if (!r) return r.take_error();
    root = *r;
  }
  Result<int32_t> op = node_op(c);
  if (!op) return op.take_error();
  Result<int32_t> grid = grid_property(c, "grid");
  if (!grid) return grid.take_error();
  const bool in_place = in->data == out->data;
  const int32_t out_slot = in_place ? 0 : 1;
  const Buffer recv = staged(c, *out, out_slot);
  const Buffer send = in_place ? recv : staged(c, *in, 0);
  std::vector<llvm::Value*> args{c.program_state(kStateKey), send.ptr, recv.ptr, recv.count, i32(c, recv.dtype),
                                 i32(c, *op)};
  if (rooted) args.push_back(root);
  args.push_back(i32(c, *grid));
  call_checked(c, rooted ? "dace_mpi_reduce" : "dace_mpi_allreduce", args);
  unstage(c, *out, out_slot);
  return Status::success();
}

Status lower_allreduce(LibraryNodeContext& c) { return lower_reduction(c, false); }
Status lower_reduce(LibraryNodeContext& c) { return lower_reduction(c, true); }

// Scatter / Gather / Allgather: whole input and output buffers, counts split by the runtime.
Status lower_distribute(LibraryNodeContext& c, const char* fn, bool rooted) {
  Result<Buffer> in = buffer(c, "_inbuffer", true, true);
  if (!in) return in.take_error();
  Result<Buffer> out = buffer(c, "_outbuffer", false, true);
  if (!out) return out.take_error();
  llvm::Value* last = nullptr;
  if (rooted) {
    Result<llvm::Value*> root = scalar_input(c, "_root");
    if (!root) return root.take_error();
    last = *root;
  } else {
    Result<int32_t> grid = grid_property(c, "grid");  // Allgather has none: -1
    if (!grid) return grid.take_error();
    last = i32(c, *grid);
  }
  const Buffer send = staged(c, *in, 0), recv = staged(c, *out, 1);
  call_checked(c, fn, {c.program_state(kStateKey), send.ptr, send.count, i32(c, send.dtype), recv.ptr, recv.count,
                       i32(c, recv.dtype), last});
  unstage(c, *out, 1);
  return Status::success();
}

Status lower_scatter(LibraryNodeContext& c) { return lower_distribute(c, "dace_mpi_scatter", true); }
Status lower_gather(LibraryNodeContext& c) { return lower_distribute(c, "dace_mpi_gather", true); }
Status lower_allgather(LibraryNodeContext& c) { return lower_distribute(c, "dace_mpi_allgather", false); }
Status lower_alltoall(LibraryNodeContext& c) { return lower_distribute(c, "dace_mpi_alltoall", false); }

// Send / Recv (DaCe: always MPI_COMM_WORLD) and Isend / Irecv (optional grid).
Status lower_p2p(LibraryNodeContext& c, bool send, bool nonblocking) {
  Result<Buffer> buf = buffer(c, "_buffer", send, true);
  if (!buf) return buf.take_error();
  Result<llvm::Value*> peer = scalar_input(c, send ? "_dest" : "_src");
  if (!peer) return peer.take_error();
  Result<llvm::Value*> tag = scalar_input(c, "_tag");
  if (!tag) return tag.take_error();
  int32_t grid = -1;
  if (nonblocking) {
    Result<int32_t> g = grid_property(c, "grid");
    if (!g) return g.take_error();
    grid = *g;
  }
  std::vector<llvm::Value*> args{c.program_state(kStateKey), buf->ptr, buf->count};
  for (llvm::Value* v : layout_args(c.frame(), *buf)) args.push_back(v);
  for (llvm::Value* v : {i32(c, buf->dtype), *peer, *tag, i32(c, grid)}) args.push_back(v);
  if (nonblocking) {
    Result<codegen::Operand> req = codegen::library_operand(c.se, c.node_id, "_request", false);
    if (!req) return req.take_error();
    args.push_back(req->base);
  }
  const char* fn = nonblocking ? (send ? "dace_mpi_isend" : "dace_mpi_irecv") : (send ? "dace_mpi_send" : "dace_mpi_recv");
  call_checked(c, fn, args);
  return Status::success();
}

Status lower_send(LibraryNodeContext& c) { return lower_p2p(c, true, false); }
Status lower_recv(LibraryNodeContext& c) { return lower_p2p(c, false, false); }
Status lower_isend(LibraryNodeContext& c) { return lower_p2p(c, true, true); }
Status lower_irecv(LibraryNodeContext& c) { return lower_p2p(c, false, true); }

Status lower_wait(LibraryNodeContext& c) {
  Result<codegen::Operand> req = codegen::library_operand(c.se, c.node_id, "_request", true);
  if (!req) return req.take_error();
  codegen::Frame& f = c.frame();
  llvm::AllocaInst* tag = f.entry_alloca(f.b.getInt32Ty(), "mpi.tag");
  llvm::AllocaInst* source = f.entry_alloca(f.b.getInt32Ty(), "mpi.source");
  call_checked(c, "dace_mpi_wait", {c.program_state(kStateKey), req->base, tag, source});
  for (auto [conn, slot] : {std::pair<const char*, llvm::AllocaInst*>{"_stat_tag", tag}, {"_stat_source", source}}) {
    if (!has_edge(c, conn, false)) continue;
    Result<codegen::Operand> out = codegen::library_operand(c.se, c.node_id, conn, false);
    if (!out) return out.take_error();
    codegen::TypedValue v{f.b.CreateLoad(f.b.getInt32Ty(), slot), ScalarType::Int32};
    ScalarType t = out->type == ScalarType::Unknown ? ScalarType::Int32 : out->type;
    codegen::store_scalar(f.b, codegen::convert_typed(f.b, v, t), out->base);
  }
  return Status::success();
}

Status lower_waitall(LibraryNodeContext& c) {
  int e = c.se.in_edge_at(c.node_id, "_request");
  if (e < 0) return make_error(Code::InvalidSdfg, c.where() + ": connector \"_request\" has no edge");
  Result<codegen::Operand> req = codegen::library_operand(c.se, c.node_id, "_request", true);
  if (!req) return req.take_error();
  sym::Expr count = sym::integer(1);
  for (sym::Expr s : req->sizes) count = sym::mul(count, s);
  Result<llvm::Value*> n = c.frame().sym(count);
  if (!n) return n.take_error();
  call_checked(c, "dace_mpi_waitall", {c.program_state(kStateKey), *n, req->base});
  return Status::success();
}

Result<int32_t> subarray_property(LibraryNodeContext& c) {
  std::optional<std::string> name = string_property(c.node(), "subarray_type");
  Result<Distribution> d = distribution(root_sdfg(c.frame()));
  if (!d) return d.take_error();
  int32_t i = name ? d->subarray_index(*name) : -1;
  if (i < 0)
    return make_error(Code::InvalidSdfg, c.where() + ": subarray_type " + ir::quoted(name.value_or("")) +
                                             " is not a subarray type of the SDFG (_subarrays)");
  return i;
}

// BlockScatter and BlockGather: the same call shape, with the element count taken from the
// local block (the output of a scatter, the input of a gather) and two grids.
Status lower_block_transfer(LibraryNodeContext& c, const char* runtime_fn, bool count_from_output,
                            const char* first_grid, const char* second_grid) {
  Result<Buffer> in = buffer(c, "_inp_buffer", true);
  if (!in) return in.take_error();
  Result<Buffer> out = buffer(c, "_out_buffer", false);
  if (!out) return out.take_error();
  Result<int32_t> sub = subarray_property(c);
  if (!sub) return sub.take_error();
  Result<int32_t> first = grid_property(c, first_grid);
  if (!first) return first.take_error();
  Result<int32_t> second = grid_property(c, second_grid);
  if (!second) return second.take_error();
  const Buffer& local = count_from_output ? *out : *in;
  call_checked(c, runtime_fn, {c.program_state(kStateKey), in->ptr, out->ptr, local.count,
                                       i32(c, local.dtype), i32(c, *sub), i32(c, *first), i32(c, *second)});
  return Status::success();
}

Status lower_block_scatter(LibraryNodeContext& c) {
  return lower_block_transfer(c, "dace_mpi_block_scatter", true, "scatter_grid", "bcast_grid");
}

Status lower_block_gather(LibraryNodeContext& c) {
  return lower_block_transfer(c, "dace_mpi_block_gather", false, "gather_grid", "reduce_grid");
}

// DaCe's Redistribute: `redistr` names an entry of the SDFG's _rdistrarrays, whose array_a
// and array_b name the subarray types (block distributions) of the input and the output.
Status lower_redistribute(LibraryNodeContext& c) {
  Result<Buffer> in = buffer(c, "_inp_buffer", true);
  if (!in) return in.take_error();
  Result<Buffer> out = buffer(c, "_out_buffer", false);
  if (!out) return out.take_error();
  if (in->dtype != out->dtype)
    return make_error(Code::InvalidSdfg, c.where() + ": the input and output buffers differ in element type");
  std::optional<std::string> name = string_property(c.node(), "redistr");
  Result<Distribution> d = distribution(root_sdfg(c.frame()));
  if (!d) return d.take_error();
  const RedistrSpec* r = name ? d->redistribution(*name) : nullptr;
  if (!r)
    return make_error(Code::InvalidSdfg, c.where() + ": redistr " + ir::quoted(name.value_or("")) +
                                             " is not a redistribution of the SDFG (_rdistrarrays)");
  int32_t a = d->subarray_index(r->array_a), b = d->subarray_index(r->array_b);
  if (a < 0 || b < 0)
    return make_error(Code::InvalidSdfg, c.where() + ": redistribution " + ir::quoted(r->name) + " names subarray " +
                                             ir::quoted(a < 0 ? r->array_a : r->array_b) +
                                             ", which the SDFG does not define (_subarrays)");
  call_checked(c, "dace_mpi_redistribute", {c.program_state(kStateKey), i32(c, a), i32(c, b), in->ptr, in->count,
                                            out->ptr, out->count, i32(c, in->dtype)});
  return Status::success();
}

}  // namespace

const std::vector<NodeClass>& node_classes() {
  static const std::vector<NodeClass> table = {
      {"dace.libraries.mpi.nodes.allgather.Allgather", "MPI", lower_allgather},
      {"dace.libraries.mpi.nodes.allreduce.Allreduce", "MPI", lower_allreduce},
      {"dace.libraries.mpi.nodes.alltoall.Alltoall", "MPI", lower_alltoall},
      {"dace.libraries.mpi.nodes.bcast.Bcast", "MPI", lower_bcast},
      {"dace.libraries.mpi.nodes.dummy.Dummy", "MPI", lower_dummy},
      {"dace.libraries.mpi.nodes.gather.BlockGather", "MPI", lower_block_gather},
      {"dace.libraries.mpi.nodes.gather.Gather", "MPI", lower_gather},
      {"dace.libraries.mpi.nodes.irecv.Irecv", "MPI", lower_irecv},
      {"dace.libraries.mpi.nodes.isend.Isend", "MPI", lower_isend},
      {"dace.libraries.mpi.nodes.recv.Recv", "MPI", lower_recv},
      {"dace.libraries.mpi.nodes.redistribute.Redistribute", "MPI", lower_redistribute},
      {"dace.libraries.mpi.nodes.reduce.Reduce", "MPI", lower_reduce},
      {"dace.libraries.mpi.nodes.scatter.BlockScatter", "MPI", lower_block_scatter},
      {"dace.libraries.mpi.nodes.scatter.Scatter", "MPI", lower_scatter},
      {"dace.libraries.mpi.nodes.send.Send", "MPI", lower_send},
      {"dace.libraries.mpi.nodes.wait.Wait", "MPI", lower_wait},
      {"dace.libraries.mpi.nodes.wait.Waitall", "MPI", lower_waitall},
      {"dace.libraries.pblas.nodes.pgeadd.BlockCyclicGather", "ReferenceOpenMPI", lower_bc_gather},
      {"dace.libraries.pblas.nodes.pgeadd.BlockCyclicScatter", "ReferenceOpenMPI", lower_bc_scatter},
      {"dace.libraries.pblas.nodes.pgemm.Pgemm", "ReferenceOpenMPI", lower_pgemm},
      {"dace.libraries.pblas.nodes.pgemv.Pgemv", "ReferenceOpenMPI", lower_pgemv},
  };
  return table;
}

}  // namespace dace::mpi
