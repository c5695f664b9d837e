// A list that keeps its first element inside the object (a subset's dimensions).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace dace::sym {

// A std::vector-like list of T that stores its first element inside the object. Nearly every
// memlet in a real SDFG (and all of a million-node one's) has a one-dimensional subset: as a
// std::vector that was 24 bytes inline plus a 48-byte heap block per memlet; this is 40 bytes
// and no heap block up to one element (docs/sdfg-json.md "Memory of the IR").
//
// T must be trivially copyable (a Range is four interned expression pointers), so elements
// move with memcpy and need no destruction. Iterators are pointers; like std::vector's, they
// are invalidated by any change of size.
template <class T>
class InlineOneList {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = size_t;

  InlineOneList() = default;
  InlineOneList(std::initializer_list<T> init) { assign(init.begin(), init.size()); }
  // From a std::vector (the lists callers build before storing them in a subset).
  InlineOneList(const std::vector<T>& v) { assign(v.data(), v.size()); }  // implicit on purpose
  template <class It>
  InlineOneList(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }
  InlineOneList(const InlineOneList& other) { assign(other.data(), other.size_); }
  InlineOneList(InlineOneList&& other) noexcept { take(other); }
  InlineOneList& operator=(const InlineOneList& other) {
    if (this != &other) {
      InlineOneList copy(other);
      swap(copy);
    }
    return *this;
  }
  InlineOneList& operator=(InlineOneList&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  InlineOneList& operator=(std::initializer_list<T> init) { return *this = InlineOneList(init); }
  ~InlineOneList() { release(); }

  T* data() { return on_heap() ? heap_ : &local_; }
  const T* data() const { return on_heap() ? heap_ : &local_; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return on_heap() ? capacity_ : 1; }

  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& at(size_t i) {
    if (i >= size_) throw std::out_of_range("InlineOneList::at");
    return data()[i];
  }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("InlineOneList::at");
    return data()[i];
  }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n > capacity()) reallocate(n);
  }
  void push_back(const T& value) {
    const T copy = value;  // `value` may be an element of this list, moved by a reallocation
    if (size_ == capacity()) reallocate(capacity() * 2);
    data()[size_++] = copy;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T{std::forward<Args>(args)...});
    return back();
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  // New elements are value-initialized, as std::vector's.
  void resize(size_t n) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data()[i] = T{};
    size_ = static_cast<uint32_t>(n);
  }

  iterator insert(const_iterator pos, const T& value) { return insert(pos, &value, &value + 1); }
  // Inserts [first, last), which may not point into this list.
  template <class It>
  iterator insert(const_iterator pos, It first, It last) {
    const size_t at = static_cast<size_t>(pos - begin());
    const std::vector<T> items(first, last);
    if (items.empty()) return begin() + at;
    if (size_ + items.size() > capacity()) reallocate(std::max(size_ + items.size(), capacity() * 2));
    T* d = data();
    std::memmove(d + at + items.size(), d + at, (size_ - at) * sizeof(T));
    std::memcpy(d + at, items.data(), items.size() * sizeof(T));
    size_ += static_cast<uint32_t>(items.size());
    return d + at;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    T* d = data();
    const size_t a = static_cast<size_t>(first - d), b = static_cast<size_t>(last - d);
    std::memmove(d + a, d + b, (size_ - b) * sizeof(T));
    size_ -= static_cast<uint32_t>(b - a);
    return d + a;
  }

  void swap(InlineOneList& other) noexcept {
    InlineOneList tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  bool operator==(const InlineOneList& other) const { return std::equal(begin(), end(), other.begin(), other.end()); }

 private:
  bool on_heap() const { return capacity_ > 1; }

  void reallocate(size_t n) {
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T)));
    std::memcpy(fresh, data(), size_ * sizeof(T));
    release();
    heap_ = fresh;
    capacity_ = static_cast<uint32_t>(n);
  }
  void assign(const T* items, size_t n) {
    if (n > 1) {
      heap_ = static_cast<T*>(::operator new(n * sizeof(T)));
      capacity_ = static_cast<uint32_t>(n);
    }
    if (n > 0) std::memcpy(data(), items, n * sizeof(T));
    size_ = static_cast<uint32_t>(n);
  }
  void take(InlineOneList& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.on_heap()) {
      heap_ = other.heap_;
    } else if (other.size_ == 1) {
      local_ = other.local_;
    }
    other.size_ = 0;
    other.capacity_ = 0;
  }
  void release() {
    if (on_heap()) ::operator delete(heap_);
    capacity_ = 0;
  }

  uint32_t size_ = 0;
  uint32_t capacity_ = 0;  // 0 or 1: the element lives in local_; more: heap_ holds that many
  union {
    T local_;
    T* heap_;
  };
};

}  // namespace dace::sym
