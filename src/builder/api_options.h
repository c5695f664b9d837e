// Versioned option structs of the C API. A caller compiled against an older header passes a
// struct of its own (shorter) version, so every read or write touches at most the bytes of
// the version the caller declared: a struct's layout of version v is the prefix of the
// current struct that ends with the last field of v (fields are only ever appended).
// Fields newer than the caller's version take their defaults.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>

#include "builder/api_internal.h"

namespace dace::capi {

// One specialization per option struct: its C name, the byte size of each version (index
// v - 1; a new version appends offsetof(T, last field of v) + sizeof(that field), i.e. the
// sizeof-prefix) and its defaults (the header's _INIT macro).
template <typename T>
struct OptionsLayout;

// Bytes of a struct up to and including `field`: the size of the version that ended there.
#define DACE_PREFIX_SIZE(T, field) (offsetof(T, field) + sizeof(static_cast<T*>(nullptr)->field))

// The trailing arguments list the size of each version, oldest first (defaults to one).
#define DACE_OPTIONS_LAYOUT(T, NAME, CURRENT, INIT, ...)                              \
  template <>                                                                         \
  struct OptionsLayout<T> {                                                           \
    static constexpr const char* name = NAME;                                         \
    static constexpr size_t sizes[] = {__VA_ARGS__};                                  \
    static T defaults() { return T INIT; }                                            \
  };                                                                                  \
  static_assert(std::size(OptionsLayout<T>::sizes) == (CURRENT), NAME ": size table"); \
  static_assert(std::is_trivially_copyable_v<T>, NAME)

DACE_OPTIONS_LAYOUT(dace_array_options_t, "dace_array_options_t", DACE_ARRAY_OPTIONS_VERSION,
                    DACE_ARRAY_OPTIONS_INIT, sizeof(dace_array_options_t));
DACE_OPTIONS_LAYOUT(dace_map_options_t, "dace_map_options_t", DACE_MAP_OPTIONS_VERSION, DACE_MAP_OPTIONS_INIT,
                    sizeof(dace_map_options_t));
DACE_OPTIONS_LAYOUT(dace_memlet_options_t, "dace_memlet_options_t", DACE_MEMLET_OPTIONS_VERSION,
                    DACE_MEMLET_OPTIONS_INIT, sizeof(dace_memlet_options_t));
DACE_OPTIONS_LAYOUT(dace_save_options_t, "dace_save_options_t", DACE_SAVE_OPTIONS_VERSION, DACE_SAVE_OPTIONS_INIT,
                    sizeof(dace_save_options_t));
DACE_OPTIONS_LAYOUT(dace_mapped_tasklet_options_t, "dace_mapped_tasklet_options_t",
                    DACE_MAPPED_TASKLET_OPTIONS_VERSION, DACE_MAPPED_TASKLET_OPTIONS_INIT,
                    sizeof(dace_mapped_tasklet_options_t));
DACE_OPTIONS_LAYOUT(dace_compile_options_t, "dace_compile_options_t", DACE_COMPILE_OPTIONS_VERSION,
                    DACE_COMPILE_OPTIONS_INIT, DACE_PREFIX_SIZE(dace_compile_options_t, dump_dir),
                    DACE_PREFIX_SIZE(dace_compile_options_t, optimize),
                    DACE_PREFIX_SIZE(dace_compile_options_t, mpi_comm),
                    DACE_PREFIX_SIZE(dace_compile_options_t, wait_optimized),
                    DACE_PREFIX_SIZE(dace_compile_options_t, bounds_check), sizeof(dace_compile_options_t));
// Output only: its defaults are unused.
DACE_OPTIONS_LAYOUT(dace_compile_stats_t, "dace_compile_stats_t", DACE_COMPILE_STATS_VERSION, {},
                    DACE_PREFIX_SIZE(dace_compile_stats_t, object_bytes),
                    DACE_PREFIX_SIZE(dace_compile_stats_t, transform_ms), DACE_PREFIX_SIZE(dace_compile_stats_t, tier),
                    sizeof(dace_compile_stats_t));
#undef DACE_OPTIONS_LAYOUT
#undef DACE_PREFIX_SIZE

// Bytes of version `version` of T, or 0 when this library does not know that version.
template <typename T>
size_t options_size(uint32_t version) {
  constexpr size_t count = std::size(OptionsLayout<T>::sizes);
  if (version < 1 || version > count) return 0;
  return OptionsLayout<T>::sizes[version - 1];
}

template <typename T>
Error unknown_options_version(uint32_t version) {
  return invalid(std::string(OptionsLayout<T>::name) + ": unknown version " + std::to_string(version) +
                 " (this library knows 1.." + std::to_string(std::size(OptionsLayout<T>::sizes)) +
                 "; initialize it with its _INIT macro)");
}

// dace_*_options_init: the defaults of `version`, written over that version's bytes only.
template <typename T>
Status init_options(T* out, uint32_t version) {
  DACE_TRY(require(out, "options"));
  const size_t n = options_size<T>(version);
  if (n == 0) return unknown_options_version<T>(version);
  T d = OptionsLayout<T>::defaults();
  d.version = version;
  std::memcpy(static_cast<void*>(out), &d, n);
  return Status::success();
}

// The caller's options as a current struct: NULL -> defaults; else the caller's version's
// bytes over the defaults (the `version` field is read first, and is in every version).
template <typename T>
Result<T> read_options(const T* in) {
  T o = OptionsLayout<T>::defaults();
  if (!in) return o;
  uint32_t version = 0;
  std::memcpy(&version, in, sizeof version);
  const size_t n = options_size<T>(version);
  if (n == 0) return unknown_options_version<T>(version);
  std::memcpy(static_cast<void*>(&o), in, n);
  return o;
}

// Output structs (compile stats, map options): `value`'s fields of the version the caller
// set in out->version, nothing past that version's bytes.
template <typename T>
Status write_versioned(T* out, const T& value) {
  DACE_TRY(require(out, OptionsLayout<T>::name));
  uint32_t version = 0;
  std::memcpy(&version, out, sizeof version);
  const size_t n = options_size<T>(version);
  if (n == 0) return unknown_options_version<T>(version);
  T v = value;
  v.version = version;
  std::memcpy(static_cast<void*>(out), &v, n);
  return Status::success();
}

}  // namespace dace::capi
