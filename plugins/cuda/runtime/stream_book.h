// The bookkeeping of streams and events that the CUDA runtime and its emulated twin share
// (docs/cuda.md "Streams and events"): which handles are live and which events have been
// recorded. Generated code that waits on an event nobody recorded, or uses a stream or event
// after destroying it, has a lowering bug; CUDA itself would let most of these pass silently
// (a wait on a never-recorded event completes at once), so both runtimes check here and
// report the misuse as the call's status. The null stream (the default stream) is always
// valid and never created or destroyed. Not thread-safe: its owner locks around it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>

namespace dace::cuda {

class StreamBook {
 public:
  void add_stream(const void* stream) { streams_.insert(stream); }
  void add_event(const void* event) { events_.insert(event); }

  // Each returns "" when the use is valid (and updates the book), else what is wrong.
  std::string remove_stream(const void* stream) {
    if (!stream) return "the default stream cannot be destroyed";
    if (streams_.erase(stream) == 0) return "stream " + name(stream) + " is not a live stream";
    return "";
  }
  std::string remove_event(const void* event) {
    if (events_.erase(event) == 0) return "event " + name(event) + " is not a live event";
    recorded_.erase(event);
    return "";
  }
  std::string use_stream(const void* stream) const {
    if (stream && !streams_.count(stream)) return "stream " + name(stream) + " is not a live stream";
    return "";
  }
  std::string record(const void* event, const void* stream) {
    if (!events_.count(event)) return "event " + name(event) + " is not a live event";
    std::string bad = use_stream(stream);
    if (!bad.empty()) return bad;
    recorded_.insert(event);
    return "";
  }
  std::string wait(const void* stream, const void* event) const {
    std::string bad = use_stream(stream);
    if (!bad.empty()) return bad;
    if (!events_.count(event)) return "event " + name(event) + " is not a live event";
    if (!recorded_.count(event)) return "event " + name(event) + " was never recorded";
    return "";
  }

  size_t live_streams() const { return streams_.size(); }
  size_t live_events() const { return events_.size(); }

 private:
  static std::string name(const void* handle) {
    char text[32];
    std::snprintf(text, sizeof text, "%#llx", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(handle)));
    return text;
  }
  std::set<const void*> streams_, events_, recorded_;
};

}  // namespace dace::cuda
