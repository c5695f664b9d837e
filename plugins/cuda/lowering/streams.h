// Which CUDA stream each piece of GPU work of a state runs on (docs/cuda.md "Streams and
// events"). The work items of a state are its top-level GPU_Device / GPU_Persistent maps
// (kernels), its copies from or to GPU_Global memory (not the edges that bind a view or a
// reference), its library nodes with operands there
// (Reduce kernels, cuBLAS products) and its cuBLAS C++ tasklets. One item depends on another
// when data flows from the producer to the consumer through access nodes only; a path through
// host work (a host tasklet or map, a nested SDFG) is ordered by the host, which synchronizes
// the producer's stream before that host work runs.
//
// Each chain of dependent items stays on one stream; an item whose producers' streams were all
// continued by another item (a fork) or that has no producer starts a new stream, up to
// `max_streams`, after which new chains share the streams round-robin. A consumer waits for an
// event recorded after each producer on another stream (every one: the core's issue order may
// differ from the plan's). An item that reads, on the host, host memory that items wrote (a
// scalar a kernel gets by value) gets a host wait as host work does. A plan is a function of
// the state alone: the same state gives the same plan.
//
// A plan of one stream needs nothing of this: everything then runs on the default stream, in
// issue order, as without streams (the plan holds no event and no host wait).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "ir/sdfg.h"

namespace dace::cuda {

// DaCe's max_concurrent_streams is unbounded by default (0); a few streams already let
// independent kernels and copies overlap, and each stream costs the program init a creation.
inline constexpr int kDefaultMaxStreams = 4;

struct WorkItem {
  enum class Kind { Kernel, Copy, Library, Tasklet };
  Kind kind = Kind::Kernel;
  int node = -1;  // the map entry, library node or tasklet; -1 for a copy
  int edge = -1;  // the copy's edge; -1 otherwise
  int stream = 0;
  std::vector<int> producers;  // items it depends on (indices into StreamPlan::items, ascending)
  std::vector<int> waits;      // producers on other streams whose events its stream waits on
  bool records_event = false;  // a consumer on another stream waits for it
};

// Host work that reads what items produced, or an item that reads host memory they wrote:
// the host synchronizes `streams` before it runs.
struct HostWait {
  int node = -1;  // the host node, or -1 for a host copy edge
  int edge = -1;
  std::vector<int> streams;  // ascending
};

struct StreamPlan {
  std::vector<WorkItem> items;  // in a deterministic topological order (the order they are issued)
  int streams = 0;              // streams used: items have stream 0 .. streams - 1
  std::vector<HostWait> host_waits;

  // Whether the state's work runs on streams of its own (else on the default stream, as today).
  bool concurrent() const { return streams > 1; }
  // The item of a node / a copy edge, or -1.
  int item_of_node(int node) const;
  int item_of_edge(int edge) const;
};

// Whether a C++ tasklet is GPU work (the plugin's cuBLAS tasklets, lowering/cublas_tasklet.h);
// passed in so that the analysis depends on the IR only.
using DeviceTaskletTest = std::function<bool(const ir::Tasklet&)>;

// `max_streams` < 1 counts as 1.
StreamPlan plan_streams(const ir::SDFG& sdfg, const ir::State& state, int max_streams,
                        const DeviceTaskletTest& device_tasklet);

// One line per item, host wait and the stream count, naming nodes by id and label: what tests
// compare and what a reader checks the assignment by.
std::string describe(const StreamPlan& plan, const ir::State& state);

}  // namespace dace::cuda
