// Atomic read-modify-write helpers for write-conflict resolution (WCR).
#include <atomic>

#include "dace_cpu_runtime.h"

namespace {

template <class T>
T atomic_add(T* target, T value) {
  return std::atomic_ref<T>(*target).fetch_add(value, std::memory_order_relaxed);
}

// Stores `value` when better(value, current); retries while another thread intervenes.
template <class T, class Better>
T atomic_update(T* target, T value, Better better) {
  std::atomic_ref<T> ref(*target);
  T current = ref.load(std::memory_order_relaxed);
  while (better(value, current) &&
         !ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
  return current;
}

template <class T>
T atomic_min(T* target, T value) {
  return atomic_update(target, value, [](T a, T b) { return a < b; });
}

template <class T>
T atomic_max(T* target, T value) {
  return atomic_update(target, value, [](T a, T b) { return a > b; });
}

}  // namespace

extern "C" {
double dace_cpu_atomic_add_f64(double* t, double v) { return atomic_add(t, v); }
float dace_cpu_atomic_add_f32(float* t, float v) { return atomic_add(t, v); }
int64_t dace_cpu_atomic_add_i64(int64_t* t, int64_t v) { return atomic_add(t, v); }
int32_t dace_cpu_atomic_add_i32(int32_t* t, int32_t v) { return atomic_add(t, v); }
double dace_cpu_atomic_min_f64(double* t, double v) { return atomic_min(t, v); }
float dace_cpu_atomic_min_f32(float* t, float v) { return atomic_min(t, v); }
int64_t dace_cpu_atomic_min_i64(int64_t* t, int64_t v) { return atomic_min(t, v); }
int32_t dace_cpu_atomic_min_i32(int32_t* t, int32_t v) { return atomic_min(t, v); }
double dace_cpu_atomic_max_f64(double* t, double v) { return atomic_max(t, v); }
float dace_cpu_atomic_max_f32(float* t, float v) { return atomic_max(t, v); }
int64_t dace_cpu_atomic_max_i64(int64_t* t, int64_t v) { return atomic_max(t, v); }
int32_t dace_cpu_atomic_max_i32(int32_t* t, int32_t v) { return atomic_max(t, v); }
}
