// The emulated device's ordering check (docs/cuda.md "Ordering check"). The emulator runs
// every call at once, in call order, so a missing event wait between two streams would not
// change its results; this book makes it visible. Work on created streams gets a stamp
// (stream, sequence number); each device block keeps its last write and the reads since, and
// each stream the latest work of every other stream it is ordered after (through event waits,
// recorded as a snapshot of the recording stream's knowledge). An access conflicting with an
// earlier one on another stream that is not so ordered is a hazard. Work on the default
// stream orders with everything (streams are blocking), and a host synchronization orders
// the synchronized stream's work before everything issued later. Not thread-safe: its owner
// locks around it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

namespace dace::cuda {

class EmulatedOrder {
 public:
  using Stream = const void*;
  using Knowledge = std::map<Stream, uint64_t>;  // stream -> the last of its work ordered before

  // Work on the default stream, or a synchronization of the whole device: everything queued
  // so far is ordered before everything queued later.
  void barrier() {
    blocks_.clear();
    for (auto& [stream, last] : issued_) host_[stream] = last;
  }
  void synchronized(Stream s) { host_[s] = issued_[s]; }
  void forget_block(uintptr_t block) { blocks_.erase(block); }

  void record(const void* event, Stream s) {
    Knowledge k = s ? seen_[s] : issued_;  // on the default stream: everything so far
    if (s) k[s] = issued_[s];
    events_[event] = std::move(k);
  }
  void wait(Stream s, const void* event) {
    auto e = events_.find(event);
    if (e == events_.end()) return;
    for (const auto& [t, q] : e->second) seen_[s][t] = std::max(seen_[s][t], q);
  }

  // Starts a piece of work on created stream `s`; its accesses follow.
  void issue(Stream s) { ++issued_[s]; }
  // "" when stream `s`'s current work may read (`write` false) or write `block`, else why not.
  std::string access(Stream s, uintptr_t block, bool write) {
    Accesses& a = blocks_[block];
    const Stamp now{s, issued_[s]};
    if (a.written && !ordered(s, a.write)) return conflict(write ? "writes" : "reads", block, "wrote", a.write.stream);
    if (write)
      for (const auto& [t, q] : a.reads)
        if (!ordered(s, Stamp{t, q})) return conflict("writes", block, "read", t);
    if (write) {
      a.written = true;
      a.write = now;
      a.reads.clear();
    } else {
      a.reads[s] = now.seq;
    }
    return "";
  }

 private:
  struct Stamp {
    Stream stream = nullptr;
    uint64_t seq = 0;
  };
  struct Accesses {
    bool written = false;
    Stamp write;
    std::map<Stream, uint64_t> reads;
  };

  bool ordered(Stream s, const Stamp& earlier) {
    if (earlier.stream == s) return true;
    auto h = host_.find(earlier.stream);
    if (h != host_.end() && h->second >= earlier.seq) return true;
    auto k = seen_[s].find(earlier.stream);
    return k != seen_[s].end() && k->second >= earlier.seq;
  }
  static std::string conflict(const char* what, uintptr_t block, const char* other_did, Stream other) {
    char text[256];
    std::snprintf(text, sizeof text, "%s device memory at %#llx that stream %#llx %s without an event wait or a "
                  "synchronization in between (emulated ordering check)",
                  what, static_cast<unsigned long long>(block),
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(other)), other_did);
    return text;
  }

  Knowledge issued_;                       // per created stream: its work so far
  Knowledge host_;                         // per stream: its work the host has waited for
  std::map<Stream, Knowledge> seen_;       // per stream: other streams' work ordered before its next work
  std::map<const void*, Knowledge> events_;
  std::map<uintptr_t, Accesses> blocks_;
};

}  // namespace dace::cuda
