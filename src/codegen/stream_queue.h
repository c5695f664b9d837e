// Lowering of DaCe's Stream containers: each stream of a container (a Stream's shape makes
// an array of streams, usually one) is a FIFO queue header
//   { ptr data, i64 head, i64 tail, i64 capacity, i64 lock }   (head/tail/capacity in bytes)
// over a growing heap buffer. Pushes append at `tail` (compacting or doubling the buffer
// when full), pops take from `head`; an emptied queue rewinds to offset 0. A spin lock in the
// header makes pushes from parallel map bodies safe; element order between threads is then
// unspecified, as in DaCe. buffer_size is only a capacity hint: a full queue grows instead
// of blocking (libdace runs consume scopes sequentially, so no consumer could drain it).
//
// The push/pop/release helpers are internal functions of the module, emitted once.
#pragma once
#include "codegen/frame.h"

namespace dace::codegen {

constexpr int64_t kStreamHeaderBytes = 40;

// Number of streams in a Stream container (product of its shape).
Result<llvm::Value*> stream_count(Frame& f, const ir::DataDescriptor& desc);

// Allocates the zeroed queue headers of a Stream container (buffers come with the first push).
Result<llvm::Value*> allocate_stream(Frame& f, const ir::DataDescriptor& desc);
// Frees the buffers of `count` queues at `headers`, then the headers.
void release_stream(llvm::IRBuilder<>& b, ModuleContext& mc, llvm::Value* headers, llvm::Value* count);

// The queue a memlet subset of a Stream container names (its start index, row-major).
Result<llvm::Value*> stream_queue(Frame& f, const DataBinding& data, const sym::Subset& subset);

// Appends `v` (converted to the stream's element type) to `queue`.
void emit_stream_push(Frame& f, llvm::Value* queue, TypedValue v, ScalarType elem);
// Pops one element into `out`; i1 true when there was one (`out` is untouched otherwise).
llvm::Value* emit_stream_pop(Frame& f, llvm::Value* queue, llvm::Value* out, ScalarType elem);

}  // namespace dace::codegen

namespace dace::codegen {

// A copy edge with a stream on one side or both: Array -> Stream pushes the subset's elements
// in row-major order; Stream -> Array pops into the subset in row-major order until it is
// full or the stream is empty (the remaining elements keep their values); Stream -> Stream
// moves every element. Errors are unprefixed (the caller names the edge).
Status emit_stream_copy(Frame& f, const DataBinding& src, const sym::Subset& src_subset, const DataBinding& dst,
                        const sym::Subset& dst_subset);

}  // namespace dace::codegen
