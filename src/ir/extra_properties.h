// Properties libdace does not model, kept verbatim so that files written by any DaCe version
// round-trip unchanged.
#pragma once
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace dace::ir {

// Key -> compact JSON text, in key order (deterministic output). The interface is the part
// of std::map's that the IR uses; the map itself is allocated only once a key is added:
// almost every node and memlet has none, and an empty std::map inline took 48 bytes of each
// (docs/sdfg-json.md "Memory of the IR").
class ExtraProperties {
 public:
  using Map = std::map<std::string, std::string>;
  using key_type = Map::key_type;
  using mapped_type = Map::mapped_type;
  using value_type = Map::value_type;
  using iterator = Map::iterator;
  using const_iterator = Map::const_iterator;

  ExtraProperties() = default;
  ExtraProperties(std::initializer_list<value_type> init) {
    if (init.size() != 0) map_ = std::make_unique<Map>(init);
  }
  ExtraProperties(const ExtraProperties& other) : map_(other.map_ ? std::make_unique<Map>(*other.map_) : nullptr) {}
  ExtraProperties(ExtraProperties&&) noexcept = default;
  ExtraProperties& operator=(const ExtraProperties& other) {
    if (this != &other) map_ = other.map_ ? std::make_unique<Map>(*other.map_) : nullptr;
    return *this;
  }
  ExtraProperties& operator=(ExtraProperties&&) noexcept = default;

  bool empty() const { return !map_ || map_->empty(); }
  size_t size() const { return map_ ? map_->size() : 0; }
  // Without a map, every iterator is the end of one shared empty map, which nothing writes.
  iterator begin() { return map_ ? map_->begin() : none().begin(); }
  iterator end() { return map_ ? map_->end() : none().end(); }
  const_iterator begin() const { return map_ ? map_->cbegin() : none().cbegin(); }
  const_iterator end() const { return map_ ? map_->cend() : none().cend(); }
  iterator find(const std::string& key) { return map_ ? map_->find(key) : end(); }
  const_iterator find(const std::string& key) const { return map_ ? map_->find(key) : end(); }
  size_t count(const std::string& key) const { return map_ ? map_->count(key) : 0; }
  bool contains(const std::string& key) const { return map_ && map_->contains(key); }
  const std::string& at(const std::string& key) const { return all().at(key); }
  std::string& at(const std::string& key) { return map().at(key); }
  std::string& operator[](const std::string& key) { return map()[key]; }
  template <class... Args>
  std::pair<iterator, bool> emplace(Args&&... args) {
    return map().emplace(std::forward<Args>(args)...);
  }
  std::pair<iterator, bool> insert(value_type value) { return map().insert(std::move(value)); }
  template <class V>
  std::pair<iterator, bool> insert_or_assign(const std::string& key, V&& value) {
    return map().insert_or_assign(key, std::forward<V>(value));
  }
  size_t erase(const std::string& key) { return map_ ? map_->erase(key) : 0; }
  iterator erase(iterator it) { return map_ ? map_->erase(it) : it; }
  void clear() { map_.reset(); }

  bool operator==(const ExtraProperties& other) const { return all() == other.all(); }

 private:
  static Map& none() {
    static Map empty;
    return empty;
  }
  const Map& all() const { return map_ ? *map_ : none(); }
  Map& map() {
    if (!map_) map_ = std::make_unique<Map>();
    return *map_;
  }

  std::unique_ptr<Map> map_;
};

}  // namespace dace::ir
