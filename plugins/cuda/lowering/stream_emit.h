// The host code of a state's stream plan (lowering/streams.h, docs/cuda.md "Streams and
// events"). A program whose top-level states have a concurrent plan gets one set of streams
// and events (dace_cuda_streams_create in __dace_init, a program state of the plugin, as
// large as its largest plan) and, in those states: each work item queued on its stream after
// event waits for its producers on other streams and followed by an event record when a
// consumer elsewhere waits for it; each host wait's streams synchronized before its node; all
// the plan's streams (and the default stream, when a cooperative kernel of the state ran there)
// synchronized at the end of the state, so the next state (host code,
// interstate edges, default-stream work) sees everything done. Other states, states of nested
// SDFGs and work inside host scopes stay on the default stream, which the program's blocking
// streams order with. With LowerOptions::max_concurrent_streams 1 nothing of this exists.
#pragma once
#include "codegen/plugin_nodes.h"
#include "codegen/state_emit.h"
#include "lowering/device_module.h"
#include "lowering/streams.h"

namespace dace::cuda {

// The program state's key (plugin::ProgramStateLowering).
inline constexpr const char* kStreamsStateKey = "cuda.streams";

// LowerOptions::max_concurrent_streams, its 0 read as kDefaultMaxStreams.
int max_streams(const codegen::LowerOptions& options);

// The plan of `state` under `options` (the plugin's cuBLAS tasklets are device work).
StreamPlan plan_state(const codegen::LowerOptions& options, const ir::SDFG& sdfg, const ir::State& state);

// Streams and events the program's set holds: the most any top-level state's concurrent plan
// uses; {0, 0} when no plan is concurrent (then the program has no set).
struct StreamCounts {
  int streams = 0;
  int events = 0;
};
StreamCounts stream_counts(const codegen::LowerOptions& options, const ir::SDFG& sdfg);

// The program state: the set created in init (null fails init, with the runtime's reason in
// the status), destroyed in exit, and at the program function's entry handed to the lowering.
Status lower_streams_init(codegen::ProgramStateContext& context);
Status lower_streams_exit(codegen::ProgramStateContext& context);
Status lower_streams_entry(codegen::ProgramStateContext& context);

// The stream a work item runs on: `stream` null for the default stream (no concurrent plan,
// or not an item of it).
struct ItemStream {
  llvm::Value* stream = nullptr;
  int item = -1;
};
// Before the item of top-level `node` (or of copy `edge`, when not -1) is emitted in `se`:
// its stream, after the checked waits for its producers' events. `where` names it.
Result<ItemStream> begin_item(codegen::StateEmitter& se, int node, int edge, const std::string& where);
// After it: the checked event record when a consumer on another stream waits for it.
void end_item(codegen::StateEmitter& se, const ItemStream& item, const std::string& where);
// The item went to the default stream instead of its plan stream (a cooperative kernel): the
// end of its state synchronizes the default stream as well as the plan's streams.
void item_on_default_stream(codegen::StateEmitter& se, const ItemStream& item);

}  // namespace dace::cuda
