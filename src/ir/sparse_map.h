// A small map that most elements leave empty, stored behind one pointer.
#pragma once
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dace::ir {

// The part of std::map's interface that the IR uses, in ascending key order (deterministic
// output, the order std::map gave), with its entries in one sorted vector allocated at the
// first key. Nodes and memlets carry maps that are empty in almost every element (unmodeled
// properties; an access node's connectors) or hold one or two entries (a tasklet's
// connectors): an empty std::map inline took 48 bytes of each element, and every entry a
// 32-byte tree node of its own (docs/sdfg-json.md "Memory of the IR").
//
// Unlike std::map's, iterators and references to entries are invalidated by an insertion or
// removal in the same map (as a std::vector's are); erase(iterator) returns the next one.
template <class Key, class Value>
class SparseMap {
 public:
  using key_type = Key;
  using mapped_type = Value;
  using value_type = std::pair<Key, Value>;
  using Entries = std::vector<value_type>;
  using iterator = typename Entries::iterator;
  using const_iterator = typename Entries::const_iterator;

  SparseMap() = default;
  SparseMap(std::initializer_list<value_type> init) {
    for (const value_type& v : init) insert(v);
  }
  SparseMap(const SparseMap& other) : entries_(other.empty() ? nullptr : std::make_unique<Entries>(*other.entries_)) {}
  SparseMap(SparseMap&&) noexcept = default;
  SparseMap& operator=(const SparseMap& other) {
    if (this != &other) entries_ = other.empty() ? nullptr : std::make_unique<Entries>(*other.entries_);
    return *this;
  }
  SparseMap& operator=(SparseMap&&) noexcept = default;

  bool empty() const { return !entries_ || entries_->empty(); }
  size_t size() const { return entries_ ? entries_->size() : 0; }
  // Without entries, every iterator is the end of one shared empty vector, which nothing writes.
  iterator begin() { return all().begin(); }
  iterator end() { return all().end(); }
  const_iterator begin() const { return all().cbegin(); }
  const_iterator end() const { return all().cend(); }

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
    const auto index = at - begin();  // before entries() may allocate the vector
    Entries& e = entries();
    return {e.insert(e.begin() + index, std::move(value)), true};
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
  iterator erase(iterator it) { return entries_->erase(it); }
  void clear() { entries_.reset(); }

  bool operator==(const SparseMap& other) const { return all() == other.all(); }

 private:
  static Entries& none() {
    static Entries empty;
    return empty;
  }
  Entries& all() { return entries_ ? *entries_ : none(); }
  const Entries& all() const { return entries_ ? *entries_ : none(); }
  Entries& entries() {
    if (!entries_) entries_ = std::make_unique<Entries>();
    return *entries_;
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
    const auto index = at - begin();  // before entries() may allocate the vector
    Entries& e = entries();
    return {e.emplace(e.begin() + index, key, Value()), true};
  }

  std::unique_ptr<Entries> entries_;
};

// Properties libdace does not model, kept verbatim so that files written by any DaCe version
// round-trip unchanged: key -> compact JSON text.
using ExtraProperties = SparseMap<std::string, std::string>;

}  // namespace dace::ir
