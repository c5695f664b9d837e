// Device blocks that finished calls freed, kept for later calls that ask for the same size.
// cuMemAlloc and cuMemFree of a large block each cost tens to hundreds of microseconds (the
// driver maps and unmaps pages, and cuMemFree waits for the device), which a program paid for
// every GPU_Global transient and argument mirror on every call; DaCe avoids it by allocating
// transients once per program (persistent lifetime), CuPy with a memory pool. The runtime
// keeps up to `capacity` bytes of freed blocks, the most recently freed first, and hands one
// back only for the same rounded size; older blocks beyond the capacity are released. The
// runtime drains it before retrying an allocation the driver refused, and on request
// (dace_cuda_pool_trim). Pure bookkeeping (no driver calls), so it is tested without a GPU.
#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <utility>
#include <vector>

namespace dace::cuda {

class DevicePool {
 public:
  // Sizes are kept in these units, so requests that differ by a few bytes share blocks.
  static constexpr size_t kGranule = 512;
  // At least one granule: cuMemAlloc refuses 0 bytes, and an empty array still gets a block.
  static size_t rounded(size_t bytes) { return ((bytes == 0 ? 1 : bytes) + kGranule - 1) / kGranule * kGranule; }

  explicit DevicePool(size_t capacity) : capacity_(capacity) {}

  // The most recently kept block of exactly `size` bytes (a rounded size), or 0 when none.
  uintptr_t take(size_t size) {
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (it->first == size) {
        const uintptr_t block = it->second;
        kept_bytes_ -= size;
        kept_.erase(it);
        return block;
      }
    return 0;
  }

  // Keeps `block` of `size` bytes; returns the blocks to release now with their sizes (the
  // oldest beyond the capacity, or `block` itself when it alone exceeds it).
  std::vector<std::pair<uintptr_t, size_t>> keep(uintptr_t block, size_t size) {
    std::vector<std::pair<uintptr_t, size_t>> release;
    if (size > capacity_) {
      release.emplace_back(block, size);
      return release;
    }
    kept_.emplace_front(size, block);
    kept_bytes_ += size;
    while (kept_bytes_ > capacity_) {
      release.emplace_back(kept_.back().second, kept_.back().first);
      kept_bytes_ -= kept_.back().first;
      kept_.pop_back();
    }
    return release;
  }

  // Every kept block with its size, emptying the pool.
  std::vector<std::pair<uintptr_t, size_t>> drain() {
    std::vector<std::pair<uintptr_t, size_t>> all;
    for (const auto& [size, block] : kept_) all.emplace_back(block, size);
    kept_.clear();
    kept_bytes_ = 0;
    return all;
  }

  size_t kept_bytes() const { return kept_bytes_; }
  size_t kept_blocks() const { return kept_.size(); }
  size_t capacity() const { return capacity_; }

 private:
  size_t capacity_;
  size_t kept_bytes_ = 0;
  std::list<std::pair<size_t, uintptr_t>> kept_;  // (size, block), most recently kept first
};

}  // namespace dace::cuda
