// A program's streams and events as one block (dace_cuda_streams_create, shared by the CUDA
// runtime and its emulated twin): a header with the counts, then the handles, streams first.
// Generated code indexes the handles directly; destroying needs the counts, which sit before
// them. Creation is all or nothing: a failure destroys what was made before it.
#pragma once
#include <cstdint>
#include <cstdlib>

namespace dace::cuda {

struct StreamSetHeader {
  int64_t streams = 0;
  int64_t events = 0;
};

// `create_stream` / `create_event`: int32_t(void** out), 0 on success; `destroy_*`: int32_t(void*).
template <class CreateStream, class CreateEvent, class DestroyStream, class DestroyEvent>
void** create_stream_set(int32_t streams, int32_t events, CreateStream create_stream, CreateEvent create_event,
                         DestroyStream destroy_stream, DestroyEvent destroy_event) {
  if (streams < 0 || events < 0) return nullptr;
  const size_t handles = static_cast<size_t>(streams) + static_cast<size_t>(events);
  auto* header = static_cast<StreamSetHeader*>(std::calloc(1, sizeof(StreamSetHeader) + sizeof(void*) * (handles + 1)));
  if (!header) return nullptr;
  void** slots = reinterpret_cast<void**>(header + 1);
  bool made = true;
  for (int32_t i = 0; made && i < streams; ++i)
    if ((made = create_stream(&slots[i]) == 0)) ++header->streams;
  for (int32_t j = 0; made && j < events; ++j)
    if ((made = create_event(&slots[streams + j]) == 0)) ++header->events;
  if (made) return slots;
  for (int64_t j = header->events; j-- > 0;) destroy_event(slots[streams + j]);
  for (int64_t i = header->streams; i-- > 0;) destroy_stream(slots[i]);
  std::free(header);
  return nullptr;
}

// Destroys every handle of the set (the first failure is the status) and frees it.
template <class DestroyStream, class DestroyEvent>
int32_t destroy_stream_set(void** slots, DestroyStream destroy_stream, DestroyEvent destroy_event) {
  if (!slots) return 0;
  auto* header = reinterpret_cast<StreamSetHeader*>(slots) - 1;
  int32_t status = 0;
  for (int64_t j = 0; j < header->events; ++j)
    if (int32_t rc = destroy_event(slots[header->streams + j]); rc && !status) status = rc;
  for (int64_t i = 0; i < header->streams; ++i)
    if (int32_t rc = destroy_stream(slots[i]); rc && !status) status = rc;
  std::free(header);
  return status;
}

}  // namespace dace::cuda
