#include "lowering/stream_emit.h"

#include <llvm/IR/Module.h>

#include <set>

#include "lowering/cublas_tasklet.h"

namespace dace::cuda {

namespace {

bool is_device_tasklet(const ir::Tasklet& t) { return is_cublas_tasklet(t.code.code); }

llvm::FunctionCallee runtime(codegen::Frame& f, const char* name, llvm::Type* result, std::vector<llvm::Type*> params) {
  return f.mc.module.getOrInsertFunction(name, llvm::FunctionType::get(result, params, false));
}

// The concurrent plan of the state `se` emits, or null: no set (one stream allowed, no
// concurrent state), not the program function's own frame, or a state of a nested SDFG.
const StreamPlan* concurrent_plan(DeviceModule& dm, const codegen::StateEmitter& se) {
  if (!dm.stream_set || se.f->fn != dm.program_function || &se.sdfg != dm.program_sdfg) return nullptr;
  auto it = dm.plans.find(&se.state);
  if (it == dm.plans.end()) it = dm.plans.emplace(&se.state, plan_state(se.f->mc.options, se.sdfg, se.state)).first;
  return it->second.concurrent() ? &it->second : nullptr;
}

// Handle `index` of the set (streams first, then events), loaded where `f` emits.
llvm::Value* set_handle(DeviceModule& dm, codegen::Frame& f, int index, const char* name) {
  llvm::IRBuilder<>& b = f.b;
  return b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getPtrTy(), dm.stream_set, static_cast<uint64_t>(index)),
                      name);
}

// The event of a recording item: the recording items of a plan take the events in order.
int event_of(const StreamPlan& plan, int item) {
  int k = 0;
  for (int i = 0; i < item; ++i) k += plan.items[static_cast<size_t>(i)].records_event ? 1 : 0;
  return k;
}

// Checked dace_cuda_stream_synchronize of plan stream `s` (-1: the default stream); a failure
// leaves the function.
void synchronize_stream(DeviceModule& dm, codegen::Frame& f, int s, const std::string& what) {
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* stream = s < 0 ? static_cast<llvm::Value*>(llvm::ConstantPointerNull::get(b.getPtrTy()))
                              : set_handle(dm, f, s, "cuda.stream");
  llvm::Value* rc = b.CreateCall(runtime(f, "dace_cuda_stream_synchronize", b.getInt32Ty(), {b.getPtrTy()}), {stream});
  record_runtime_failure(f, rc, /*leave=*/true,
                         what + " (dace_cuda_stream_synchronize of " +
                             (s < 0 ? std::string("the default stream") : "stream " + std::to_string(s)) + ")");
}

// The state hook: host waits before their nodes, every stream of the plan at the state's end.
Status order_state(DeviceModule& dm, codegen::StateEmitter& se, int node) {
  const StreamPlan* plan = concurrent_plan(dm, se);
  if (!plan) return Status::success();
  codegen::Frame& f = *se.f;
  if (node == -1) {
    const std::string what = se.sdfg.name + ": end of state \"" + se.state.label + "\"";
    for (int s = 0; s < plan->streams; ++s) synchronize_stream(dm, f, s, what);
    // A cooperative kernel ran on the default stream: synchronizing the plan's streams would
    // not wait for it (only later work on them would), so the state would end with it running.
    if (dm.default_stream_states.count(&se.state)) synchronize_stream(dm, f, -1, what);
    return Status::success();
  }
  std::set<int> streams;
  for (const HostWait& w : plan->host_waits)
    if (w.node == node || (w.edge != -1 && se.state.edge(w.edge)->dst == node)) streams.insert(w.streams.begin(), w.streams.end());
  for (int s : streams) synchronize_stream(dm, f, s, se.where(node) + ": host work after device work");
  return Status::success();
}

}  // namespace

int max_streams(const codegen::LowerOptions& options) {
  return options.max_concurrent_streams == 0 ? kDefaultMaxStreams : options.max_concurrent_streams;
}

StreamPlan plan_state(const codegen::LowerOptions& options, const ir::SDFG& sdfg, const ir::State& state) {
  return plan_streams(sdfg, state, max_streams(options), is_device_tasklet);
}

StreamCounts stream_counts(const codegen::LowerOptions& options, const ir::SDFG& sdfg) {
  StreamCounts c;
  if (max_streams(options) <= 1) return c;
  for (const ir::State* state : sdfg.all_states()) {
    const StreamPlan plan = plan_state(options, sdfg, *state);
    if (!plan.concurrent()) continue;
    c.streams = std::max(c.streams, plan.streams);
    c.events = std::max(c.events, event_of(plan, static_cast<int>(plan.items.size())));
  }
  return c;
}

Status lower_streams_init(codegen::ProgramStateContext& context) {
  codegen::Frame& f = context.frame;
  // The device module guards init: the device is checked before the set is made.
  Result<DeviceModule*> dm = device_module(f.mc, context.sdfg.name);
  if (!dm) return dm.take_error();
  const StreamCounts c = stream_counts(f.mc.options, context.sdfg);
  llvm::IRBuilder<>& b = f.b;
  context.state = b.CreateCall(runtime(f, "dace_cuda_streams_create", b.getPtrTy(), {b.getInt32Ty(), b.getInt32Ty()}),
                               {b.getInt32(c.streams), b.getInt32(c.events)}, "cuda.streams");
  // A null set fails init; the status says why (the core returns null after this).
  record_runtime_failure(f, b.CreateIsNull(context.state), /*leave=*/false,
                         "sdfg " + context.sdfg.name + ": " + std::to_string(c.streams) + " CUDA streams and " +
                             std::to_string(c.events) + " events (dace_cuda_streams_create)");
  return Status::success();
}

Status lower_streams_exit(codegen::ProgramStateContext& context) {
  codegen::Frame& f = context.frame;
  llvm::IRBuilder<>& b = f.b;
  context.exit_status =
      b.CreateCall(runtime(f, "dace_cuda_streams_destroy", b.getInt32Ty(), {b.getPtrTy()}), {context.state});
  return Status::success();
}

Status lower_streams_entry(codegen::ProgramStateContext& context) {
  codegen::Frame& f = context.frame;
  Result<DeviceModule*> dmr = device_module(f.mc, context.sdfg.name);
  if (!dmr) return dmr.take_error();
  DeviceModule* dm = *dmr;
  dm->stream_set = context.state;
  dm->program_function = f.fn;
  dm->program_sdfg = &context.sdfg;
  dm->set_streams = stream_counts(f.mc.options, context.sdfg).streams;
  f.mc.state_hooks.push_back([dm](codegen::StateEmitter& se, int node) { return order_state(*dm, se, node); });
  return Status::success();
}

Result<ItemStream> begin_item(codegen::StateEmitter& se, int node, int edge, const std::string& where) {
  ItemStream out;
  codegen::Frame& f = *se.f;
  if (codegen::is_device_code(f)) return out;
  // No device module yet: no program state made one, so there is no set (nothing is created
  // here, so that programs without streams are lowered exactly as before).
  DeviceModule* existing = existing_device_module(f.mc);
  if (!existing) return out;
  DeviceModule& dm = *existing;
  const StreamPlan* plan = concurrent_plan(dm, se);
  if (!plan) return out;
  out.item = edge != -1 ? plan->item_of_edge(edge) : plan->item_of_node(node);
  if (out.item == -1) return out;  // inside a host scope: the default stream
  const WorkItem& item = plan->items[static_cast<size_t>(out.item)];
  out.stream = set_handle(dm, f, item.stream, "cuda.stream");
  llvm::IRBuilder<>& b = f.b;
  for (int p : item.waits) {
    llvm::Value* event = set_handle(dm, f, dm.set_streams + event_of(*plan, p), "cuda.event");
    llvm::Value* rc = b.CreateCall(
        runtime(f, "dace_cuda_stream_wait_event", b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}), {out.stream, event});
    record_runtime_failure(f, rc, /*leave=*/true,
                           where + ": wait for item " + std::to_string(p) + " (dace_cuda_stream_wait_event)");
  }
  // Queued work may still run when a failure leaves the function: its exit path waits first.
  synchronize_on_exit(dm, f, where);
  return out;
}

void end_item(codegen::StateEmitter& se, const ItemStream& item, const std::string& where) {
  if (!item.stream) return;
  codegen::Frame& f = *se.f;
  DeviceModule* existing = existing_device_module(f.mc);
  if (!existing) return;
  DeviceModule& dm = *existing;
  const StreamPlan* plan = concurrent_plan(dm, se);
  if (!plan || !plan->items[static_cast<size_t>(item.item)].records_event) return;
  llvm::IRBuilder<>& b = f.b;
  llvm::Value* event = set_handle(dm, f, dm.set_streams + event_of(*plan, item.item), "cuda.event");
  llvm::Value* rc = b.CreateCall(runtime(f, "dace_cuda_event_record", b.getInt32Ty(), {b.getPtrTy(), b.getPtrTy()}),
                                 {event, item.stream});
  record_runtime_failure(f, rc, /*leave=*/true, where + ": event after it (dace_cuda_event_record)");
}

void item_on_default_stream(codegen::StateEmitter& se, const ItemStream& item) {
  if (item.item == -1) return;
  if (DeviceModule* dm = existing_device_module(se.f->mc)) dm->default_stream_states.insert(&se.state);
}

}  // namespace dace::cuda
