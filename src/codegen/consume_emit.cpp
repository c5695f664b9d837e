// Consume scopes (DaCe's ConsumeEntry/ConsumeExit): the scope body runs once per element
// popped from the stream on IN_stream, until the stream is empty, so elements the body
// pushes back are processed too. The body sees the element on the edges leaving OUT_stream.
//
// libdace runs one processing element: the loop is sequential and pe_index is 0 whatever
// num_pes says (the body's results do not depend on the number of PEs in DaCe's model);
// chunksize changes only how many elements a PE takes at once, so it is ignored. With a
// quiescence `condition`, DaCe's PEs loop until it holds and spin on an empty stream; with a
// single PE nothing could refill the stream, so the loop also ends when the stream is empty.
#include "codegen/addressing.h"
#include "codegen/interstate.h"
#include "codegen/node_emit.h"
#include "codegen/stream_queue.h"

namespace dace::codegen {

Status emit_consume(StateEmitter& se, int entry) {
  const auto& node = static_cast<const ir::ConsumeEntry&>(*se.state.node(entry));
  const ir::ConsumeScope& scope = node.consume;
  Frame& f = *se.f;
  int in = se.in_edge_at(entry, "IN_stream");
  if (in < 0 || se.state.edge(in)->memlet.is_empty())
    return make_error(Code::InvalidSdfg, se.where(entry) + ": consume scope has no stream on connector IN_stream");
  const ir::Memlet& m = se.state.edge(in)->memlet;
  Result<DataBinding> data = f.data(m.data);
  if (!data) return make_error(data.error().code, se.where_edge(in) + ": " + data.error().message);
  if (data->desc->kind != ir::DataKind::Stream)
    return make_error(Code::InvalidSdfg, se.where_edge(in) + ": consume scope consumes \"" + m.data +
                                             "\", which is not a stream");
  Result<llvm::Value*> queue = stream_queue(f, *data, m.subset);
  if (!queue) return make_error(queue.error().code, se.where_edge(in) + ": " + queue.error().message);
  ScalarType elem = data->desc->dtype.scalar;
  llvm::AllocaInst* element = f.entry_alloca(storage_type(f.mc.ctx, elem), "consumed");
  for (int e : se.state.out_edges(entry)) {
    const ir::DataflowEdge* edge = se.state.edge(e);
    if (edge->src_conn != "OUT_stream") continue;
    if (se.state.node(edge->dst)->kind != ir::NodeKind::Tasklet)
      return make_error(Code::Unsupported, se.where_edge(e) + ": the consumed element can only go to a tasklet yet");
    se.edge_values[e] = {element, elem};
  }

  llvm::LLVMContext& ctx = f.mc.ctx;
  llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx, "consume.head", f.fn);
  llvm::BasicBlock* pop = llvm::BasicBlock::Create(ctx, "consume.pop", f.fn);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx, "consume.body", f.fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "consume.done", f.fn);
  f.push_scope();
  auto saved = se.scope_symbols;
  if (!scope.pe_index.empty()) {
    f.bind_symbol(scope.pe_index, SymbolBinding{f.b.getInt64(0), ScalarType::Int64, false});
    se.scope_symbols[scope.pe_index] = ScalarType::Int64;
  }
  Status s = [&]() -> Status {
    f.b.CreateBr(head);
    f.b.SetInsertPoint(head);
    if (!scope.condition.code.empty()) {
      Result<llvm::Value*> quiescent = emit_condition(f, scope.condition.code, se.where(entry));
      if (!quiescent)
        return make_error(quiescent.error().code, se.where(entry) + ": condition: " + quiescent.error().message);
      f.b.CreateCondBr(*quiescent, done, pop);
    } else {
      f.b.CreateBr(pop);
    }
    f.b.SetInsertPoint(pop);
    f.b.CreateCondBr(emit_stream_pop(f, *queue, element, elem), body, done);
    f.b.SetInsertPoint(body);
    Result<std::vector<llvm::Value*>> locals = se.allocate_scope_locals(entry);
    if (!locals) return locals.take_error();
    DACE_TRY(se.emit_scope(entry));
    se.free_all(*locals);
    f.b.CreateBr(head);
    f.b.SetInsertPoint(done);
    return Status::success();
  }();
  se.scope_symbols = saved;
  f.pop_scope();
  return s;
}

}  // namespace dace::codegen
