// The ids of the edges at one end of a node, ascending: a State's adjacency list.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace dace::ir {

// Up to two ids are stored inline, more on the heap. Most dataflow nodes have one or two
// edges per side (access nodes, tasklets); a std::vector per list took 24 bytes inline plus a
// 32-byte heap block for the first id, two lists per node: some 90 MB of a million-node SDFG
// (docs/sdfg-json.md "Memory of the IR"). This takes 16 bytes and no heap block for those.
class EdgeList {
 public:
  EdgeList() = default;
  EdgeList(const EdgeList& other) { assign(other.begin(), other.size_); }
  EdgeList(EdgeList&& other) noexcept { take(other); }
  EdgeList& operator=(const EdgeList& other) {
    if (this != &other) {
      release();
      assign(other.begin(), other.size_);
    }
    return *this;
  }
  EdgeList& operator=(EdgeList&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  ~EdgeList() { release(); }

  const int* begin() const { return on_heap() ? heap_ : local_; }
  const int* end() const { return begin() + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::vector<int> to_vector() const { return {begin(), end()}; }

  // Keeps the list ascending; an id already present is added again (a multigraph never adds
  // one edge twice, and the vector this replaces did the same).
  void insert_sorted(int id) {
    if (size_ == capacity()) grow();
    int* data = mutable_data();
    int* at = std::lower_bound(data, data + size_, id);
    std::memmove(at + 1, at, static_cast<size_t>(data + size_ - at) * sizeof(int));
    *at = id;
    ++size_;
  }
  void erase_sorted(int id) {
    int* data = mutable_data();
    int* at = std::lower_bound(data, data + size_, id);
    if (at == data + size_ || *at != id) return;
    std::memmove(at, at + 1, static_cast<size_t>(data + size_ - at - 1) * sizeof(int));
    --size_;
  }

 private:
  static constexpr uint32_t kLocal = 2;

  bool on_heap() const { return capacity_ > kLocal; }
  uint32_t capacity() const { return capacity_ < kLocal ? kLocal : capacity_; }
  int* mutable_data() { return on_heap() ? heap_ : local_; }

  void grow() {
    const uint32_t cap = capacity() * 2;
    int* fresh = new int[cap];
    std::memcpy(fresh, begin(), size_ * sizeof(int));
    release_heap();
    heap_ = fresh;
    capacity_ = cap;
  }
  void assign(const int* ids, uint32_t n) {
    size_ = 0;
    capacity_ = 0;
    if (n > kLocal) {
      heap_ = new int[n];
      capacity_ = n;
    }
    std::memcpy(mutable_data(), ids, n * sizeof(int));
    size_ = n;
  }
  void take(EdgeList& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.on_heap()) heap_ = other.heap_;
    else std::memcpy(local_, other.local_, sizeof local_);
    other.size_ = 0;
    other.capacity_ = 0;
  }
  void release_heap() {
    if (on_heap()) delete[] heap_;
  }
  void release() {
    release_heap();
    size_ = 0;
    capacity_ = 0;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = 0;  // 0 (or kLocal): inline; more: heap_ holds that many
  union {
    int local_[kLocal] = {0, 0};
    int* heap_;
  };
};

}  // namespace dace::ir
