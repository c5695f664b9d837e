// A small map that most elements leave empty, stored behind one pointer.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

namespace dace::ir {

// The part of std::map's interface that the IR uses, in ascending key order (deterministic
// output, the order std::map gave), with its entries in one sorted array allocated at the
// first key. Nodes and memlets carry maps that are empty in almost every element (unmodeled
// properties; an access node's connectors) or hold one or two entries (a tasklet's
// connectors): an empty std::map inline took 48 bytes of each element, and every entry a
// 32-byte tree node of its own (docs/sdfg-json.md "Memory of the IR"). The entries share one
// heap block with their count and capacity.
//
// Unlike std::map's, iterators and references to entries are invalidated by an insertion or
// removal in the same map (as a std::vector's are); erase(iterator) returns the next one.
// Iterators are pointers; a map without entries has no block and null iterators.
template <class Key, class Value>
class SparseMap {
 public:
  using key_type = Key;
  using mapped_type = Value;
  using value_type = std::pair<Key, Value>;
  using iterator = value_type*;
  using const_iterator = const value_type*;

  SparseMap() = default;
  SparseMap(std::initializer_list<value_type> init) {
    for (const value_type& v : init) insert(v);
  }
  SparseMap(const SparseMap& other) { copy_from(other); }
  SparseMap(SparseMap&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  SparseMap& operator=(const SparseMap& other) {
    if (this != &other) {
      SparseMap copy(other);
      std::swap(block_, copy.block_);
    }
    return *this;
  }
  SparseMap& operator=(SparseMap&& other) noexcept {
    if (this != &other) {
      clear();
      block_ = std::exchange(other.block_, nullptr);
    }
    return *this;
  }
  ~SparseMap() { clear(); }

  bool empty() const { return size() == 0; }
  size_t size() const { return block_ ? block_->size : 0; }
  // Without entries there is no block, and every iterator is null.
  iterator begin() { return entries(); }
  iterator end() { return entries() + size(); }
  const_iterator begin() const { return entries(); }
  const_iterator end() const { return entries() + size(); }

  iterator find(const Key& key) {
    iterator at = lower_bound(key);
    return at != end() && at->first == key ? at : end();
  }
  const_iterator find(const Key& key) const {
    const_iterator at = lower_bound(key);
    return at != end() && at->first == key ? at : end();
  }
  size_t count(const Key& key) const { return find(key) != end() ? 1 : 0; }
  bool contains(const Key& key) const { return find(key) != end(); }
  // Lookups: allocate nothing, also when the key is missing.
  const Value& at(const Key& key) const {
    const_iterator it = find(key);
    if (it == end()) throw std::out_of_range("SparseMap::at: no such key");
    return it->second;
  }
  Value& at(const Key& key) {
    iterator it = find(key);
    if (it == end()) throw std::out_of_range("SparseMap::at: no such key");
    return it->second;
  }

  Value& operator[](const Key& key) { return try_emplace(key).first->second; }
  // Inserts (key, value) unless the key is present; returns the entry of the key either way.
  template <class K, class... Args>
  std::pair<iterator, bool> emplace(K&& key, Args&&... args) {
    return insert(value_type(std::forward<K>(key), Value(std::forward<Args>(args)...)));
  }
  std::pair<iterator, bool> insert(value_type value) {
    iterator at = lower_bound(value.first);
    if (at != end() && at->first == value.first) return {at, false};
    return {insert_at(static_cast<size_t>(at - begin()), std::move(value)), true};
  }
  template <class V>
  std::pair<iterator, bool> insert_or_assign(const Key& key, V&& value) {
    auto [at, inserted] = try_emplace(key);
    at->second = std::forward<V>(value);
    return {at, inserted};
  }
  size_t erase(const Key& key) {
    iterator at = find(key);
    if (at == end()) return 0;
    erase(at);
    return 1;
  }
  iterator erase(iterator it) {
    iterator last = end() - 1;
    std::move(it + 1, end(), it);
    last->~value_type();
    --block_->size;
    return it;
  }
  void clear() {
    if (!block_) return;
    std::destroy(begin(), end());
    ::operator delete(block_);
    block_ = nullptr;
  }

  bool operator==(const SparseMap& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

 private:
  // One heap block: this header, then `capacity` entries, `size` of them constructed. A
  // std::vector behind the pointer took a second block for its own 24 bytes.
  struct Header {
    uint32_t size;
    uint32_t capacity;
  };
  static constexpr size_t kEntriesOffset =
      (sizeof(Header) + alignof(value_type) - 1) / alignof(value_type) * alignof(value_type);
  static_assert(alignof(value_type) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
  // Entries move without throwing, so growing and erasing cannot fail half-way.
  static_assert(std::is_nothrow_move_constructible_v<value_type> && std::is_nothrow_move_assignable_v<value_type>);

  static Header* allocate(size_t capacity) {
    auto* h = static_cast<Header*>(::operator new(kEntriesOffset + capacity * sizeof(value_type)));
    h->size = 0;
    h->capacity = static_cast<uint32_t>(capacity);
    return h;
  }
  static value_type* entries_of(Header* h) {
    return reinterpret_cast<value_type*>(reinterpret_cast<char*>(h) + kEntriesOffset);
  }
  value_type* entries() const { return block_ ? entries_of(block_) : nullptr; }

  void copy_from(const SparseMap& other) {
    if (other.empty()) return;
    Header* h = allocate(other.size());
    value_type* to = entries_of(h);
    try {
      for (const value_type& v : other) {
        new (to + h->size) value_type(v);
        ++h->size;
      }
    } catch (...) {
      std::destroy(to, to + h->size);
      ::operator delete(h);
      throw;
    }
    block_ = h;
  }
  // Constructs `value` at `index`, moving the entries after it up by one; grows the block
  // (twice the capacity) when it is full. Returns the new entry.
  iterator insert_at(size_t index, value_type&& value) {
    const size_t n = size();
    if (!block_ || n == block_->capacity) {
      Header* h = allocate(n == 0 ? 1 : 2 * n);  // may throw: nothing changed yet
      value_type* from = entries();
      value_type* to = entries_of(h);
      for (size_t i = 0; i < index; ++i) new (to + i) value_type(std::move(from[i]));
      new (to + index) value_type(std::move(value));
      for (size_t i = index; i < n; ++i) new (to + i + 1) value_type(std::move(from[i]));
      h->size = static_cast<uint32_t>(n + 1);
      clear();
      block_ = h;
      return to + index;
    }
    value_type* e = entries();
    if (index == n) {
      new (e + n) value_type(std::move(value));
    } else {
      new (e + n) value_type(std::move(e[n - 1]));
      std::move_backward(e + index, e + n - 1, e + n);
      e[index] = std::move(value);
    }
    ++block_->size;
    return e + index;
  }
  iterator lower_bound(const Key& key) {
    return std::lower_bound(begin(), end(), key, [](const value_type& v, const Key& k) { return v.first < k; });
  }
  const_iterator lower_bound(const Key& key) const {
    return std::lower_bound(begin(), end(), key, [](const value_type& v, const Key& k) { return v.first < k; });
  }
  std::pair<iterator, bool> try_emplace(const Key& key) {
    iterator at = lower_bound(key);
    if (at != end() && at->first == key) return {at, false};
    return {insert_at(static_cast<size_t>(at - begin()), value_type(key, Value())), true};
  }

  Header* block_ = nullptr;
};

// Properties libdace does not model, kept verbatim so that files written by any DaCe version
// round-trip unchanged: key -> compact JSON text.
using ExtraProperties = SparseMap<std::string, std::string>;

}  // namespace dace::ir
