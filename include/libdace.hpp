// libdace.hpp — header-only C++17 wrapper over the C API (libdace.h).
//
// What it adds over the C API, and nothing more:
// - exceptions: every failing call throws libdace::error carrying the status, the message
//   (which names the failing element by path) and the parse line/column, copied out of the
//   thread's last-error record at once;
// - ownership: context, sdfg and program are move-only RAII handles; nothing leaks when an
//   exception unwinds;
// - strings: inputs are std::string_view, outputs std::string (borrowed C strings are copied
//   immediately, owned ones are freed);
// - option structs with C++ defaults, and typed program arguments (array_ref<T> deduces the
//   dtype from T);
// - out-parameters returned as values (structs such as consume_scope for several), the
//   two-call idiom of lists hidden behind std::vector.
// Every function of libdace.h is called here (ctest cpp.wrapper_coverage checks it).
//
// Namespace `libdace`, because `dace::` is libdace's own (unstable) C++ API for plugins.
// Views (region, state, conditional) hold the raw SDFG handle and an id: like
// std::string_view they must not outlive the sdfg they came from (moving the sdfg is fine).
// Optional string inputs: "" means "none / default", as in the C API.
#ifndef LIBDACE_HPP
#define LIBDACE_HPP

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "libdace.h"

namespace libdace {

// Enumerations are the C ones; the aliases only shorten the spelling.
using dtype = dace_dtype_t;
using storage = dace_storage_t;
using schedule = dace_schedule_t;
using lifetime = dace_lifetime_t;
using language = dace_language_t;
using node_kind = dace_node_kind_t;
using block_kind = dace_block_kind_t;
using data_kind = dace_data_kind_t;
using status = dace_status_t;

// Ids are the C API's dace_id_t (no alias: `id_t` would clash with POSIX's under
// `using namespace libdace`).
inline constexpr dace_id_t root_region = DACE_ROOT_REGION;
inline constexpr dace_id_t no_id = DACE_NO_ID;

// ------------------------------------------------------------------------------------------
// Errors
// ------------------------------------------------------------------------------------------

// A failed libdace call. what() is the library's message; status_string() its category.
class error : public std::runtime_error {
 public:
  error(status code, const std::string& message, int32_t line = 0, int32_t column = 0)
      : std::runtime_error(message), status_(code), line_(line), column_(column) {}

  status code() const noexcept { return status_; }
  // 1-based position in the parsed text; 0 when the error is not a parse error.
  int32_t line() const noexcept { return line_; }
  int32_t column() const noexcept { return column_; }
  std::string status_string() const { return dace_status_string(status_); }

 private:
  status status_;
  int32_t line_;
  int32_t column_;
};

// Throws libdace::error built from the thread's last-error record when `s` is not DACE_OK.
inline void check(status s) {
  if (s == DACE_OK) return;
  // The record is per thread and overwritten by the next failure: copy it before anything
  // else can call into libdace.
  std::string message = dace_last_error_message();
  const int32_t line = dace_last_error_line();
  const int32_t column = dace_last_error_column();
  if (message.empty()) message = dace_status_string(s);
  throw error(s, message, line, column);
}

inline std::string version() { return dace_version(); }
// DACE_VERSION_NUMBER of the loaded library, to compare with the header's DACE_VERSION_NUMBER.
inline uint32_t version_number() noexcept { return dace_version_number(); }

namespace detail {

// A NUL-terminated copy of a string_view for one C call; "" maps to NULL when `optional`.
class zstring {
 public:
  explicit zstring(std::string_view s, bool optional = false) : text_(s), null_(optional && s.empty()) {}
  const char* get() const noexcept { return null_ ? nullptr : text_.c_str(); }

 private:
  std::string text_;
  bool null_;
};
inline zstring z(std::string_view s) { return zstring(s); }
inline zstring opt(std::string_view s) { return zstring(s, true); }

inline std::string copy(const char* borrowed) { return borrowed ? std::string(borrowed) : std::string(); }

// The two-call idiom of the C API's id lists.
template <class F>
std::vector<dace_id_t> list_ids(F&& f) {
  size_t count = 0;
  check(f(nullptr, size_t{0}, &count));
  std::vector<dace_id_t> ids(count);
  if (count == 0) return ids;
  size_t again = 0;
  check(f(ids.data(), ids.size(), &again));
  ids.resize(again < count ? again : count);
  return ids;
}

// "a, b, c" -> {"a", "b", "c"}; the C API joins short name lists this way.
inline std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    size_t b = pos, e = end;
    while (b < e && text[b] == ' ') ++b;
    while (e > b && text[e - 1] == ' ') --e;
    if (e > b) out.emplace_back(text.substr(b, e - b));
    pos = end + 1;
  }
  return out;
}

struct sdfg_deleter {
  void operator()(dace_sdfg_t* p) const noexcept { dace_sdfg_release(p); }
};
struct context_deleter {
  void operator()(dace_context_t* p) const noexcept { dace_context_release(p); }
};
struct program_deleter {
  void operator()(dace_program_t* p) const noexcept { dace_program_release(p); }
};

}  // namespace detail

// ------------------------------------------------------------------------------------------
// dtype deduction
// ------------------------------------------------------------------------------------------

template <class T, class = void>
struct dtype_of {};  // no dtype: using it is a compile error

template <>
struct dtype_of<bool> {
  static constexpr dtype value = DACE_BOOL;
};
// Integers by size and signedness, so that long, long long, int64_t etc. all map.
template <class T>
struct dtype_of<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static constexpr dtype value = std::is_signed_v<T>
                                     ? (sizeof(T) == 1   ? DACE_INT8
                                        : sizeof(T) == 2 ? DACE_INT16
                                        : sizeof(T) == 4 ? DACE_INT32
                                                         : DACE_INT64)
                                     : (sizeof(T) == 1   ? DACE_UINT8
                                        : sizeof(T) == 2 ? DACE_UINT16
                                        : sizeof(T) == 4 ? DACE_UINT32
                                                         : DACE_UINT64);
  static_assert(sizeof(T) <= 8, "no libdace dtype for integers wider than 64 bits");
};
template <>
struct dtype_of<float> {
  static constexpr dtype value = DACE_FLOAT32;
};
template <>
struct dtype_of<double> {
  static constexpr dtype value = DACE_FLOAT64;
};
template <>
struct dtype_of<std::complex<float>> {
  static constexpr dtype value = DACE_COMPLEX64;
};
template <>
struct dtype_of<std::complex<double>> {
  static constexpr dtype value = DACE_COMPLEX128;
};
template <class T>
struct dtype_of<const T> : dtype_of<T> {};

template <class T>
inline constexpr dtype dtype_of_v = dtype_of<T>::value;

// ------------------------------------------------------------------------------------------
// Option structs (C++ defaults; "" strings mean the C API's NULL default)
// ------------------------------------------------------------------------------------------

struct array_options {
  bool transient = false;
  storage storage_type = DACE_STORAGE_DEFAULT;
  lifetime lifetime_type = DACE_LIFETIME_SCOPE;
  std::string strides;     // "M, 1" in elements; "" = C order
  std::string offset;      // "" = zeros
  std::string total_size;  // "" = derived
  int64_t alignment = 0;
  bool may_alias = false;
  bool optional = false;
  std::string buffer_size;  // streams: "" = 1

  // The C struct borrows this object's strings: keep *this alive while it is used.
  dace_array_options_t c() const noexcept {
    dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
    o.transient = transient ? 1 : 0;
    o.storage = storage_type;
    o.lifetime = lifetime_type;
    o.strides = strides.empty() ? nullptr : strides.c_str();
    o.offset = offset.empty() ? nullptr : offset.c_str();
    o.total_size = total_size.empty() ? nullptr : total_size.c_str();
    o.alignment = alignment;
    o.may_alias = may_alias ? 1 : 0;
    o.optional = optional ? 1 : 0;
    o.buffer_size = buffer_size.empty() ? nullptr : buffer_size.c_str();
    return o;
  }
};

struct map_options {
  schedule schedule_type = DACE_SCHEDULE_DEFAULT;
  int64_t collapse = 1;
  int64_t omp_num_threads = 0;
  dace_omp_schedule_t omp_schedule = DACE_OMP_SCHEDULE_DEFAULT;
  int64_t omp_chunk_size = 0;
  bool unroll = false;
  std::string gpu_block_size;  // "" = default

  map_options() = default;
  // Most maps only set the schedule: map_options(DACE_SCHEDULE_CPU_MULTICORE).
  map_options(schedule s) : schedule_type(s) {}  // NOLINT(google-explicit-constructor)

  dace_map_options_t c() const noexcept {
    dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
    o.schedule = schedule_type;
    o.collapse = collapse;
    o.omp_num_threads = omp_num_threads;
    o.omp_schedule = omp_schedule;
    o.omp_chunk_size = omp_chunk_size;
    o.unroll = unroll ? 1 : 0;
    o.gpu_block_size = gpu_block_size.empty() ? nullptr : gpu_block_size.c_str();
    return o;
  }
  // Copies a C struct (its borrowed gpu_block_size included).
  static map_options from_c(const dace_map_options_t& o) {
    map_options out;
    out.schedule_type = o.schedule;
    out.collapse = o.collapse;
    out.omp_num_threads = o.omp_num_threads;
    out.omp_schedule = o.omp_schedule;
    out.omp_chunk_size = o.omp_chunk_size;
    out.unroll = o.unroll != 0;
    out.gpu_block_size = o.gpu_block_size ? o.gpu_block_size : "";
    return out;
  }
};

struct memlet_options {
  std::string wcr;     // "sum" or "lambda a, b: a + b"; "" = none
  std::string volume;  // "" = derived from the subset
  bool dynamic = false;
  bool wcr_nonatomic = false;
  bool allow_oob = false;

  dace_memlet_options_t c() const noexcept {
    dace_memlet_options_t o = DACE_MEMLET_OPTIONS_INIT;
    o.wcr = wcr.empty() ? nullptr : wcr.c_str();
    o.volume = volume.empty() ? nullptr : volume.c_str();
    o.dynamic = dynamic ? 1 : 0;
    o.wcr_nonatomic = wcr_nonatomic ? 1 : 0;
    o.allow_oob = allow_oob ? 1 : 0;
    return o;
  }
};

struct mapped_tasklet_options {
  schedule schedule_type = DACE_SCHEDULE_DEFAULT;
  bool external_edges = true;  // unlike the C default: the usual wish from C++
  std::string output_wcr;      // "" = none
  language code_language = DACE_LANGUAGE_PYTHON;

  dace_mapped_tasklet_options_t c() const noexcept {
    dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
    o.schedule = schedule_type;
    o.external_edges = external_edges ? 1 : 0;
    o.output_wcr = output_wcr.empty() ? nullptr : output_wcr.c_str();
    o.language = code_language;
    return o;
  }
};

struct save_options {
  bool compact = false;
  bool gzip = false;  // save_buffer only; files choose by extension
  bool omit_guids = false;

  dace_save_options_t c() const noexcept {
    dace_save_options_t o = DACE_SAVE_OPTIONS_INIT;
    o.compact = compact ? 1 : 0;
    o.gzip = gzip ? 1 : 0;
    o.omit_guids = omit_guids ? 1 : 0;
    return o;
  }
};

struct compile_options {
  int32_t opt_level = 3;
  bool fast_math = false;
  int32_t num_threads = 0;  // 0 = runtime default
  std::string cache_dir;    // "" = no object cache
  std::string dump_dir;     // "" = no dumps
  std::string optimize;     // a registered pass run on a copy first ("simplify"); "" = none
  const void* mpi_comm = nullptr;  // address of the host's MPI_Comm; nullptr = MPI_COMM_WORLD
  bool tiered = true;           // callable on quickly compiled code, optimized code swapped in later
  bool wait_optimized = false;  // return only once the optimized code is in

  dace_compile_options_t c() const noexcept {
    dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
    o.opt_level = opt_level;
    o.fast_math = fast_math ? 1 : 0;
    o.num_threads = num_threads;
    o.cache_dir = cache_dir.empty() ? nullptr : cache_dir.c_str();
    o.dump_dir = dump_dir.empty() ? nullptr : dump_dir.c_str();
    o.optimize = optimize.empty() ? nullptr : optimize.c_str();
    o.mpi_comm = mpi_comm;
    o.tiered = tiered ? 1 : 0;
    o.wait_optimized = wait_optimized ? 1 : 0;
    return o;
  }
};

// Results of the builders that make more than one element.
struct map_scope {
  dace_id_t entry = no_id;
  dace_id_t exit = no_id;
};
struct mapped_tasklet {
  dace_id_t tasklet = no_id;
  dace_id_t entry = no_id;
  dace_id_t exit = no_id;
};
struct consume_scope {
  dace_id_t entry = no_id;
  dace_id_t exit = no_id;
};
struct interstate_edge {
  dace_id_t region = root_region;  // the region holding the edge
  dace_id_t edge = no_id;
};
// Blocks an interstate edge joins (both in the region holding the edge).
struct interstate_endpoints {
  dace_id_t src = no_id;
  dace_id_t dst = no_id;
};
struct edge_endpoints {
  dace_id_t src = no_id;
  std::string src_conn;  // "" = none
  dace_id_t dst = no_id;
  std::string dst_conn;
};

// ------------------------------------------------------------------------------------------
// Context
// ------------------------------------------------------------------------------------------

class context {
 public:
  context() {
    dace_context_t* p = nullptr;
    check(dace_context_create(&p));
    handle_.reset(p);
  }

  void set_option(std::string_view key, std::string_view value) {
    check(dace_context_set_option(handle_.get(), detail::z(key).get(), detail::z(value).get()));
  }
  void remove_option(std::string_view key) {
    check(dace_context_set_option(handle_.get(), detail::z(key).get(), nullptr));
  }
  // std::nullopt when the key is not set.
  std::optional<std::string> option(std::string_view key) const {
    const char* value = nullptr;
    const status s = dace_context_get_option(&value, handle_.get(), detail::z(key).get());
    if (s == DACE_ERROR_NOT_FOUND) return std::nullopt;
    check(s);
    return detail::copy(value);
  }

  dace_context_t* get() const noexcept { return handle_.get(); }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

 private:
  std::unique_ptr<dace_context_t, detail::context_deleter> handle_;
};

class sdfg;

// ------------------------------------------------------------------------------------------
// Views of blocks: a region (root, loop body, plain region, branch), a conditional, a state
// ------------------------------------------------------------------------------------------

class state {
 public:
  state(dace_sdfg_t* g, dace_id_t id) noexcept : g_(g), id_(id) {}
  dace_id_t id() const noexcept { return id_; }
  operator dace_id_t() const noexcept { return id_; }  // NOLINT: lets states be passed as ids

  dace_id_t add_access(std::string_view data) const {
    dace_id_t out = no_id;
    check(dace_state_add_access(&out, g_, id_, detail::z(data).get()));
    return out;
  }
  // `inputs`/`outputs`: "a, b: float64" connector lists.
  dace_id_t add_tasklet(std::string_view label, std::string_view inputs, std::string_view outputs, std::string_view code,
                   language lang = DACE_LANGUAGE_PYTHON) const {
    dace_id_t out = no_id;
    check(dace_state_add_tasklet(&out, g_, id_, detail::z(label).get(), detail::opt(inputs).get(),
                                 detail::opt(outputs).get(), detail::z(code).get(), lang));
    return out;
  }
  // `ranges`: "i=0:N, j=1:M-1".
  map_scope add_map(std::string_view label, std::string_view ranges, const map_options& options = {}) const {
    map_scope out;
    const dace_map_options_t o = options.c();
    check(dace_state_add_map(&out.entry, &out.exit, g_, id_, detail::z(label).get(), detail::z(ranges).get(), &o));
    return out;
  }
  // DaCe's add_map dict form: params[i] ranges over ranges[i].
  map_scope add_map(std::string_view label, const std::vector<std::pair<std::string, std::string>>& params,
                    const map_options& options = {}) const {
    std::vector<const char*> names, ranges;
    for (const auto& p : params) {
      names.push_back(p.first.c_str());
      ranges.push_back(p.second.c_str());
    }
    map_scope out;
    const dace_map_options_t o = options.c();
    check(dace_state_add_map_dict(&out.entry, &out.exit, g_, id_, detail::z(label).get(), names.data(),
                                  ranges.data(), names.size(), &o));
    return out;
  }
  // A consume scope over a stream (connect it to the entry's IN_stream; the body reads
  // OUT_stream). `num_pes` is an expression; `condition` "" = until the stream is empty;
  // `chunksize` "" = 1.
  consume_scope add_consume(std::string_view label, std::string_view pe_index, std::string_view num_pes,
                            std::string_view condition = {}, std::string_view chunksize = {},
                            schedule s = DACE_SCHEDULE_DEFAULT) const {
    consume_scope out;
    check(dace_state_add_consume(&out.entry, &out.exit, g_, id_, detail::z(label).get(), detail::z(pe_index).get(),
                                 detail::z(num_pes).get(), detail::opt(condition).get(), detail::opt(chunksize).get(),
                                 s));
    return out;
  }
  // `inputs`/`outputs`: "a: A[i, j]; b: B[i]".
  mapped_tasklet add_mapped_tasklet(std::string_view name, std::string_view map_ranges, std::string_view inputs,
                                    std::string_view code, std::string_view outputs,
                                    const mapped_tasklet_options& options = {}) const {
    mapped_tasklet out;
    const dace_mapped_tasklet_options_t o = options.c();
    check(dace_state_add_mapped_tasklet(&out.tasklet, &out.entry, &out.exit, g_, id_, detail::z(name).get(),
                                        detail::z(map_ranges).get(), detail::opt(inputs).get(),
                                        detail::z(code).get(), detail::opt(outputs).get(), &o));
    return out;
  }
  // `inner` is copied into the node. `symbol_mapping` "" = each inner symbol to itself.
  inline dace_id_t add_nested_sdfg(const sdfg& inner, std::string_view label, std::string_view inputs,
                              std::string_view outputs, std::string_view symbol_mapping = {}) const;
  dace_id_t add_library_node(std::string_view name, std::string_view classpath, std::string_view inputs,
                        std::string_view outputs, std::string_view implementation = {},
                        std::string_view properties_json = {}) const {
    dace_id_t out = no_id;
    check(dace_state_add_library_node(&out, g_, id_, detail::z(name).get(), detail::z(classpath).get(),
                                      detail::opt(implementation).get(), detail::opt(properties_json).get(),
                                      detail::opt(inputs).get(), detail::opt(outputs).get()));
    return out;
  }
  // Connectors "" = none; `memlet` "A[i, 0:N]", "A" (whole container) or "" (empty memlet).
  dace_id_t add_edge(dace_id_t src, std::string_view src_conn, dace_id_t dst, std::string_view dst_conn, std::string_view memlet,
                const memlet_options& options = {}) const {
    dace_id_t out = no_id;
    const dace_memlet_options_t o = options.c();
    check(dace_state_add_edge(&out, g_, id_, src, detail::opt(src_conn).get(), dst, detail::opt(dst_conn).get(),
                              detail::z(memlet).get(), &o));
    return out;
  }
  void remove_node(dace_id_t node) const { check(dace_state_remove_node(g_, id_, node)); }
  void remove_edge(dace_id_t edge) const { check(dace_state_remove_edge(g_, id_, edge)); }

  std::vector<dace_id_t> nodes() const {
    return detail::list_ids([&](dace_id_t* ids, size_t cap, size_t* n) { return dace_state_list_nodes(ids, cap, n, g_, id_); });
  }
  std::vector<dace_id_t> edges() const {
    return detail::list_ids([&](dace_id_t* ids, size_t cap, size_t* n) { return dace_state_list_edges(ids, cap, n, g_, id_); });
  }
  std::vector<dace_id_t> in_edges(dace_id_t node) const {
    return detail::list_ids(
        [&](dace_id_t* ids, size_t cap, size_t* n) { return dace_node_list_in_edges(ids, cap, n, g_, id_, node); });
  }
  std::vector<dace_id_t> out_edges(dace_id_t node) const {
    return detail::list_ids(
        [&](dace_id_t* ids, size_t cap, size_t* n) { return dace_node_list_out_edges(ids, cap, n, g_, id_, node); });
  }
  node_kind kind(dace_id_t node) const {
    node_kind k = DACE_NODE_KIND_MAX_ENUM;
    check(dace_node_get_kind(&k, g_, id_, node));
    return k;
  }
  std::string label(dace_id_t node) const {
    const char* s = nullptr;
    check(dace_node_get_label(&s, g_, id_, node));
    return detail::copy(s);
  }
  void set_label(dace_id_t node, std::string_view label) const {
    check(dace_node_set_label(g_, id_, node, detail::z(label).get()));
  }
  // DaCe's instrument property ("No_Instrumentation", "Timer"; docs/instrumentation.md).
  std::string instrument() const {
    const char* s = nullptr;
    check(dace_state_get_instrument(&s, g_, id_));
    return detail::copy(s);
  }
  void set_instrument(std::string_view value) const {
    check(dace_state_set_instrument(g_, id_, detail::z(value).get()));
  }
  std::string node_instrument(dace_id_t node) const {
    const char* s = nullptr;
    check(dace_node_get_instrument(&s, g_, id_, node));
    return detail::copy(s);
  }
  void set_node_instrument(dace_id_t node, std::string_view value) const {
    check(dace_node_set_instrument(g_, id_, node, detail::z(value).get()));
  }
  // Any node property as text ("code", "range", "schedule", ...).
  std::string node_property(dace_id_t node, std::string_view property) const {
    const char* s = nullptr;
    check(dace_node_get_property(&s, g_, id_, node, detail::z(property).get()));
    return detail::copy(s);
  }
  void set_code(dace_id_t node, std::string_view code, language lang = DACE_LANGUAGE_PYTHON) const {
    check(dace_node_set_code(g_, id_, node, detail::z(code).get(), lang));
  }
  void set_schedule(dace_id_t node, schedule s) const { check(dace_node_set_schedule(g_, id_, node, s)); }
  void set_map_options(dace_id_t node, const map_options& options) const {
    const dace_map_options_t o = options.c();
    check(dace_node_set_map_options(g_, id_, node, &o));
  }
  // Of a map entry or exit. (Not named `map_options`: that would hide the type in this class.)
  map_options map_options_of(dace_id_t node) const {
    dace_map_options_t o = DACE_MAP_OPTIONS_INIT;
    check(dace_node_get_map_options(&o, g_, id_, node));
    return map_options::from_c(o);
  }
  // Map entry or exit: replaces parameters and ranges ("i=0:N, j=0:M").
  void set_map_ranges(dace_id_t node, std::string_view ranges) const {
    check(dace_node_set_map_ranges(g_, id_, node, detail::z(ranges).get()));
  }
  // NestedSDFG: replaces the symbol mapping ("N: N, M: M - 1"; "" = none).
  void set_symbol_mapping(dace_id_t node, std::string_view symbol_mapping) const {
    check(dace_node_set_symbol_mapping(g_, id_, node, detail::opt(symbol_mapping).get()));
  }
  // AccessNode: the container it accesses (must exist).
  void set_data(dace_id_t node, std::string_view data) const {
    check(dace_node_set_data(g_, id_, node, detail::z(data).get()));
  }
  // LibraryNode: `implementation` "" = default (it is always replaced); `properties_json` a
  // JSON object that replaces the class-specific properties, "" = keep them.
  void set_library_properties(dace_id_t node, std::string_view implementation,
                              std::string_view properties_json = {}) const {
    check(dace_node_set_library_properties(g_, id_, node, detail::opt(implementation).get(),
                                           detail::opt(properties_json).get()));
  }

  // Connectors. `type` is text such as "float64" or "int32*"; "" = inferred.
  void add_in_connector(dace_id_t node, std::string_view name, std::string_view type = {}) const {
    check(dace_node_add_in_connector(g_, id_, node, detail::z(name).get(), detail::opt(type).get()));
  }
  void add_out_connector(dace_id_t node, std::string_view name, std::string_view type = {}) const {
    check(dace_node_add_out_connector(g_, id_, node, detail::z(name).get(), detail::opt(type).get()));
  }
  // Throws DACE_ERROR_INVALID_ARGUMENT while an edge uses the connector.
  void remove_in_connector(dace_id_t node, std::string_view name) const {
    check(dace_node_remove_connector(g_, id_, node, 0, detail::z(name).get()));
  }
  void remove_out_connector(dace_id_t node, std::string_view name) const {
    check(dace_node_remove_connector(g_, id_, node, 1, detail::z(name).get()));
  }
  // The connector's type text, "" when inferred; DACE_ERROR_NOT_FOUND when there is none.
  std::string in_connector_type(dace_id_t node, std::string_view name) const {
    const char* s = nullptr;
    check(dace_node_get_connector_type(&s, g_, id_, node, 0, detail::z(name).get()));
    return detail::copy(s);
  }
  std::string out_connector_type(dace_id_t node, std::string_view name) const {
    const char* s = nullptr;
    check(dace_node_get_connector_type(&s, g_, id_, node, 1, detail::z(name).get()));
    return detail::copy(s);
  }

  // Scope structure: the exit of an entry or the entry of an exit (no_id if missing).
  dace_id_t scope_partner(dace_id_t node) const {
    dace_id_t out = no_id;
    check(dace_node_get_scope_partner(&out, g_, id_, node));
    return out;
  }
  // The scope entry directly enclosing `node`; no_id at the top level of the state.
  dace_id_t scope_parent(dace_id_t node) const {
    dace_id_t out = no_id;
    check(dace_node_get_scope_parent(&out, g_, id_, node));
    return out;
  }
  // `memlet` as seen inside the map of `map_node` (entry or exit), as seen outside it: data
  // and subset only ("A[0:N]"). What DaCe's add_memlet_path puts on the outer edge.
  std::string propagate_memlet(dace_id_t map_node, std::string_view memlet) const {
    const char* s = nullptr;
    check(dace_map_propagate_memlet(&s, g_, id_, map_node, detail::z(memlet).get()));
    return detail::copy(s);
  }
  std::string memlet(dace_id_t edge) const {
    const char* s = nullptr;
    check(dace_edge_get_memlet(&s, g_, id_, edge));
    return detail::copy(s);
  }
  // "data", "subset", "other_subset" ("" if none), "volume", "dynamic" ("0"/"1"), "wcr"
  // ("" if none), "wcr_nonatomic", "allow_oob".
  std::string memlet_property(dace_id_t edge, std::string_view property) const {
    const char* s = nullptr;
    check(dace_edge_get_memlet_property(&s, g_, id_, edge, detail::z(property).get()));
    return detail::copy(s);
  }
  void set_memlet(dace_id_t edge, std::string_view memlet, const memlet_options& options = {}) const {
    const dace_memlet_options_t o = options.c();
    check(dace_edge_set_memlet(g_, id_, edge, detail::z(memlet).get(), &o));
  }
  edge_endpoints endpoints(dace_id_t edge) const {
    edge_endpoints out;
    const char* sc = nullptr;
    const char* dc = nullptr;
    check(dace_edge_get_endpoints(&out.src, &sc, &out.dst, &dc, g_, id_, edge));
    out.src_conn = detail::copy(sc);  // both borrowed strings are valid together
    out.dst_conn = detail::copy(dc);
    return out;
  }
  // The SDFG inside a NestedSDFG node, borrowed from its parent (see sdfg::borrowed).
  inline sdfg nested_sdfg(dace_id_t node) const;

 private:
  dace_sdfg_t* g_;
  dace_id_t id_;
};

class conditional;

class region {
 public:
  region(dace_sdfg_t* g, dace_id_t id) noexcept : g_(g), id_(id) {}
  dace_id_t id() const noexcept { return id_; }
  operator dace_id_t() const noexcept { return id_; }  // NOLINT: lets regions be passed as ids

  // `label` "" = generated.
  state add_state(std::string_view label = {}) const {
    dace_id_t out = no_id;
    check(dace_sdfg_add_state(&out, g_, id_, detail::opt(label).get()));
    return state(g_, out);
  }
  region add_region(std::string_view label = {}) const {
    dace_id_t out = no_id;
    check(dace_sdfg_add_region(&out, g_, id_, detail::opt(label).get()));
    return region(g_, out);
  }
  // for (init; condition; update) { body }; the loop is its own body region.
  region add_loop(std::string_view label, std::string_view loop_variable, std::string_view init,
                  std::string_view condition, std::string_view update, bool inverted = false) const {
    dace_id_t out = no_id;
    check(dace_sdfg_add_loop(&out, g_, id_, detail::opt(label).get(), detail::z(loop_variable).get(),
                             detail::opt(init).get(), detail::z(condition).get(), detail::opt(update).get(),
                             inverted ? 1 : 0));
    return region(g_, out);
  }
  inline conditional add_conditional(std::string_view label = {}) const;
  dace_id_t add_break(std::string_view label = {}) const {
    dace_id_t out = no_id;
    check(dace_sdfg_add_break(&out, g_, id_, detail::opt(label).get()));
    return out;
  }
  dace_id_t add_continue(std::string_view label = {}) const {
    dace_id_t out = no_id;
    check(dace_sdfg_add_continue(&out, g_, id_, detail::opt(label).get()));
    return out;
  }
  dace_id_t add_return(std::string_view label = {}) const {
    dace_id_t out = no_id;
    check(dace_sdfg_add_return(&out, g_, id_, detail::opt(label).get()));
    return out;
  }
  std::vector<dace_id_t> blocks() const {
    return detail::list_ids(
        [&](dace_id_t* ids, size_t cap, size_t* n) { return dace_region_list_blocks(ids, cap, n, g_, id_); });
  }
  std::vector<dace_id_t> edges() const {
    return detail::list_ids(
        [&](dace_id_t* ids, size_t cap, size_t* n) { return dace_region_list_edges(ids, cap, n, g_, id_); });
  }
  dace_id_t start_block() const {
    dace_id_t out = no_id;
    check(dace_region_get_start_block(&out, g_, id_));
    return out;
  }
  void set_start_block(dace_id_t block) const { check(dace_region_set_start_block(g_, id_, block)); }
  // This region as a loop: replaces its header (same arguments as add_loop).
  void set_loop_header(std::string_view loop_variable, std::string_view init, std::string_view condition,
                       std::string_view update, bool inverted = false) const {
    check(dace_loop_set_header(g_, id_, detail::z(loop_variable).get(), detail::opt(init).get(),
                               detail::z(condition).get(), detail::opt(update).get(), inverted ? 1 : 0));
  }

  // Interstate edges of this region, by the ids edges() lists (sdfg::add_interstate_edge
  // returns the region and the id).
  interstate_endpoints endpoints(dace_id_t edge) const {
    interstate_endpoints out;
    check(dace_interstate_edge_get_endpoints(&out.src, &out.dst, g_, id_, edge));
    return out;
  }
  void remove_edge(dace_id_t edge) const { check(dace_interstate_edge_remove(g_, id_, edge)); }
  // "1" when the edge is unconditional.
  std::string edge_condition(dace_id_t edge) const {
    const char* s = nullptr;
    check(dace_interstate_edge_get_condition(&s, g_, id_, edge));
    return detail::copy(s);
  }
  // `condition` "" = always.
  void set_edge_condition(dace_id_t edge, std::string_view condition) const {
    check(dace_interstate_edge_set_condition(g_, id_, edge, detail::opt(condition).get()));
  }
  // (symbol, value expression) in the order they are applied.
  std::vector<std::pair<std::string, std::string>> edge_assignments(dace_id_t edge) const {
    size_t count = 0;
    check(dace_interstate_edge_assignment_count(&count, g_, id_, edge));
    std::vector<std::pair<std::string, std::string>> out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      const char* value = nullptr;
      check(dace_interstate_edge_get_assignment(&name, &value, g_, id_, edge, i));
      out.emplace_back(detail::copy(name), detail::copy(value));  // both valid together
    }
    return out;
  }
  // The same as one text: "k = k + 1; j = 0" ("" when none).
  std::string edge_assignments_text(dace_id_t edge) const {
    const char* s = nullptr;
    check(dace_interstate_edge_get_assignments(&s, g_, id_, edge));
    return detail::copy(s);
  }
  // Replaces every assignment: "k = k + 1; j = 0", "" = none.
  void set_edge_assignments(dace_id_t edge, std::string_view assignments) const {
    check(dace_interstate_edge_set_assignments(g_, id_, edge, detail::opt(assignments).get()));
  }
  // Appends `name = value`.
  void add_edge_assignment(dace_id_t edge, std::string_view name, std::string_view value) const {
    check(dace_interstate_edge_add_assignment(g_, id_, edge, detail::z(name).get(), detail::z(value).get()));
  }

 private:
  dace_sdfg_t* g_;
  dace_id_t id_;
};

class conditional {
 public:
  conditional(dace_sdfg_t* g, dace_id_t id) noexcept : g_(g), id_(id) {}
  dace_id_t id() const noexcept { return id_; }
  operator dace_id_t() const noexcept { return id_; }  // NOLINT

  // `condition` "" = else (must be the last branch).
  region add_branch(std::string_view condition = {}) const {
    dace_id_t out = no_id;
    check(dace_conditional_add_branch(&out, g_, id_, detail::opt(condition).get()));
    return region(g_, out);
  }
  std::vector<dace_id_t> branches() const {
    return detail::list_ids(
        [&](dace_id_t* ids, size_t cap, size_t* n) { return dace_conditional_list_branches(ids, cap, n, g_, id_); });
  }

 private:
  dace_sdfg_t* g_;
  dace_id_t id_;
};

inline conditional region::add_conditional(std::string_view label) const {
  dace_id_t out = no_id;
  check(dace_sdfg_add_conditional(&out, g_, id_, detail::opt(label).get()));
  return conditional(g_, out);
}

// ------------------------------------------------------------------------------------------
// SDFG
// ------------------------------------------------------------------------------------------

class sdfg {
 public:
  // An empty object (no SDFG); calls on it throw DACE_ERROR_INVALID_ARGUMENT.
  sdfg() noexcept = default;
  // An empty SDFG named `name` (an identifier).
  explicit sdfg(std::string_view name) {
    dace_sdfg_t* p = nullptr;
    check(dace_sdfg_create(&p, detail::z(name).get()));
    handle_.reset(p);
  }
  // Takes ownership of a handle from the C API (NULL gives an empty object).
  static sdfg adopt(dace_sdfg_t* handle) noexcept { return sdfg(handle); }
  // A non-owning handle (nested SDFGs): releasing it is a no-op in the C API, so it can share
  // the owning type; it is valid while its parent lives and holds it.
  static sdfg borrowed(dace_sdfg_t* handle) noexcept { return sdfg(handle); }

  static sdfg load_file(std::string_view path) {
    dace_sdfg_t* p = nullptr;
    check(dace_sdfg_load_file(&p, detail::z(path).get()));
    return sdfg(p);
  }
  static sdfg load_string(std::string_view json) {
    dace_sdfg_t* p = nullptr;
    check(dace_sdfg_load_string(&p, detail::z(json).get()));
    return sdfg(p);
  }
  static sdfg load_buffer(const void* data, size_t size) {
    dace_sdfg_t* p = nullptr;
    check(dace_sdfg_load_buffer(&p, data, size));
    return sdfg(p);
  }

  sdfg clone() const {
    dace_sdfg_t* p = nullptr;
    check(dace_sdfg_clone(&p, handle_.get()));
    return sdfg(p);
  }

  void save(std::string_view path, const save_options& options = {}) const {
    const dace_save_options_t o = options.c();
    check(dace_sdfg_save_file(handle_.get(), detail::z(path).get(), &o));
  }
  std::string to_json(const save_options& options = {}) const {
    const dace_save_options_t o = options.c();
    char* text = nullptr;
    check(dace_sdfg_to_json(&text, handle_.get(), &o));
    std::unique_ptr<char, void (*)(char*)> owned(text, dace_string_free);
    return text ? std::string(text) : std::string();
  }
  // A picture of the SDFG (docs/render.md): "svg" or "html" (the self-contained page). Throws
  // libdace::error: DACE_ERROR_UNSUPPORTED when libdace was built or installed without its
  // renderer module, DACE_ERROR_INVALID_ARGUMENT for another format.
  std::string render(std::string_view format = "svg") const {
    char* text = nullptr;
    check(dace_sdfg_render(&text, handle_.get(), detail::z(format).get()));
    std::unique_ptr<char, void (*)(char*)> owned(text, dace_string_free);
    return text ? std::string(text) : std::string();
  }
  std::vector<unsigned char> save_buffer(const save_options& options = {}) const {
    const dace_save_options_t o = options.c();
    void* data = nullptr;
    size_t size = 0;
    check(dace_sdfg_save_buffer(&data, &size, handle_.get(), &o));
    std::unique_ptr<void, void (*)(void*)> owned(data, dace_buffer_free);
    const auto* bytes = static_cast<const unsigned char*>(data);
    return bytes ? std::vector<unsigned char>(bytes, bytes + size) : std::vector<unsigned char>();
  }

  // Lower-case hex SHA-256 of the canonical JSON.
  std::string hash() const {
    char out[65] = {0};
    check(dace_sdfg_hash(out, handle_.get()));
    return std::string(out);
  }
  // Throws libdace::error (DACE_ERROR_INVALID_SDFG, message with the element path).
  void validate() const { check(dace_sdfg_validate(handle_.get())); }
  // The first structural difference, "" when equal.
  std::string difference(const sdfg& other) const {
    int32_t equal = 0;
    const char* diff = nullptr;
    check(dace_sdfg_equal(&equal, &diff, handle_.get(), other.handle_.get()));
    return equal ? std::string() : detail::copy(diff);
  }
  bool equal(const sdfg& other) const {
    int32_t equal = 0;
    check(dace_sdfg_equal(&equal, nullptr, handle_.get(), other.handle_.get()));
    return equal != 0;
  }

  std::string name() const {
    const char* s = nullptr;
    check(dace_sdfg_get_name(&s, handle_.get()));
    return detail::copy(s);
  }
  void set_name(std::string_view name) { check(dace_sdfg_set_name(handle_.get(), detail::z(name).get())); }
  // DaCe's instrument property of the whole program, and timer selections ("maps", "all",
  // "none", ...; docs/instrumentation.md). instrument_all returns how many elements it set.
  std::string instrument() const {
    const char* s = nullptr;
    check(dace_sdfg_get_instrument(&s, handle_.get()));
    return detail::copy(s);
  }
  void set_instrument(std::string_view value) {
    check(dace_sdfg_set_instrument(handle_.get(), detail::z(value).get()));
  }
  int32_t instrument_all(std::string_view selection) {
    int32_t n = 0;
    check(dace_sdfg_instrument(&n, handle_.get(), detail::z(selection).get()));
    return n;
  }
  std::vector<std::string> free_symbols() const {
    const char* s = nullptr;
    check(dace_sdfg_get_free_symbols(&s, handle_.get()));
    return detail::split_commas(detail::copy(s));
  }
  // DaCe's argument order.
  std::vector<std::string> arguments() const {
    const char* s = nullptr;
    check(dace_sdfg_get_arguments(&s, handle_.get()));
    return detail::split_commas(detail::copy(s));
  }

  // Symbols.
  void add_symbol(std::string_view name, dtype type = DACE_INT64) {
    check(dace_sdfg_add_symbol(handle_.get(), detail::z(name).get(), type));
  }
  void remove_symbol(std::string_view name) { check(dace_sdfg_remove_symbol(handle_.get(), detail::z(name).get())); }
  // DACE_ERROR_NOT_FOUND when no such symbol is declared.
  dtype symbol_dtype(std::string_view name) const {
    dtype t = DACE_DTYPE_UNKNOWN;
    check(dace_sdfg_get_symbol_dtype(&t, handle_.get(), detail::z(name).get()));
    return t;
  }
  // (name, dtype) sorted by name.
  std::vector<std::pair<std::string, dtype>> symbols() const {
    size_t count = 0;
    check(dace_sdfg_symbol_count(&count, handle_.get()));
    std::vector<std::pair<std::string, dtype>> out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const char* s = nullptr;
      dtype t = DACE_DTYPE_UNKNOWN;
      check(dace_sdfg_get_symbol(&s, &t, handle_.get(), i));
      out.emplace_back(detail::copy(s), t);
    }
    return out;
  }

  // The positional signature (DaCe's arg_names); an empty list clears it.
  void set_arg_names(const std::vector<std::string>& names) {
    std::vector<const char*> ptrs;
    ptrs.reserve(names.size());
    for (const auto& n : names) ptrs.push_back(n.c_str());
    check(dace_sdfg_set_arg_names(handle_.get(), ptrs.data(), ptrs.size()));
  }
  std::vector<std::string> arg_names() const {
    size_t count = 0;
    check(dace_sdfg_arg_name_count(&count, handle_.get()));
    std::vector<std::string> out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const char* s = nullptr;
      check(dace_sdfg_get_arg_name(&s, handle_.get(), i));
      out.emplace_back(detail::copy(s));
    }
    return out;
  }

  // Data descriptors. `shape`: "N, M+1".
  void add_scalar(std::string_view name, dtype type, const array_options& options = {}) {
    const dace_array_options_t o = options.c();
    check(dace_sdfg_add_scalar(handle_.get(), detail::z(name).get(), type, &o));
  }
  void add_array(std::string_view name, dtype type, std::string_view shape, const array_options& options = {}) {
    const dace_array_options_t o = options.c();
    check(dace_sdfg_add_array(handle_.get(), detail::z(name).get(), type, detail::z(shape).get(), &o));
  }
  void add_transient(std::string_view name, dtype type, std::string_view shape, const array_options& options = {}) {
    const dace_array_options_t o = options.c();
    check(dace_sdfg_add_transient(handle_.get(), detail::z(name).get(), type, detail::z(shape).get(), &o));
  }
  void add_stream(std::string_view name, dtype type, std::string_view shape = {}, const array_options& options = {}) {
    const dace_array_options_t o = options.c();
    check(dace_sdfg_add_stream(handle_.get(), detail::z(name).get(), type, detail::opt(shape).get(), &o));
  }
  void add_view(std::string_view name, dtype type, std::string_view shape, const array_options& options = {}) {
    const dace_array_options_t o = options.c();
    check(dace_sdfg_add_view(handle_.get(), detail::z(name).get(), type, detail::z(shape).get(), &o));
  }
  void add_reference(std::string_view name, dtype type, std::string_view shape, const array_options& options = {}) {
    const dace_array_options_t o = options.c();
    check(dace_sdfg_add_reference(handle_.get(), detail::z(name).get(), type, detail::z(shape).get(), &o));
  }
  void remove_data(std::string_view name) { check(dace_sdfg_remove_data(handle_.get(), detail::z(name).get())); }
  // Container names, sorted.
  std::vector<std::string> data_names() const {
    size_t count = 0;
    check(dace_sdfg_data_count(&count, handle_.get()));
    std::vector<std::string> out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const char* s = nullptr;
      check(dace_sdfg_get_data_name(&s, handle_.get(), i));
      out.push_back(detail::copy(s));
    }
    return out;
  }
  dtype data_dtype(std::string_view name) const {
    dtype t = DACE_DTYPE_UNKNOWN;
    check(dace_data_get_dtype(&t, handle_.get(), detail::z(name).get()));
    return t;
  }
  data_kind data_kind_of(std::string_view name) const {
    data_kind k = DACE_DATA_KIND_MAX_ENUM;
    check(dace_data_get_kind(&k, handle_.get(), detail::z(name).get()));
    return k;
  }
  bool is_transient(std::string_view name) const {
    int32_t t = 0;
    check(dace_data_get_transient(&t, handle_.get(), detail::z(name).get()));
    return t != 0;
  }
  storage data_storage(std::string_view name) const {
    storage s = DACE_STORAGE_MAX_ENUM;
    check(dace_data_get_storage(&s, handle_.get(), detail::z(name).get()));
    return s;
  }
  lifetime data_lifetime(std::string_view name) const {
    lifetime l = DACE_LIFETIME_MAX_ENUM;
    check(dace_data_get_lifetime(&l, handle_.get(), detail::z(name).get()));
    return l;
  }
  // Any data property as text ("shape", "strides", "transient", ...).
  std::string data_property(std::string_view name, std::string_view property) const {
    const char* s = nullptr;
    check(dace_data_get_property(&s, handle_.get(), detail::z(name).get(), detail::z(property).get()));
    return detail::copy(s);
  }
  void set_transient(std::string_view name, bool transient) {
    check(dace_data_set_transient(handle_.get(), detail::z(name).get(), transient ? 1 : 0));
  }
  void set_storage(std::string_view name, storage s) {
    check(dace_data_set_storage(handle_.get(), detail::z(name).get(), s));
  }
  void set_lifetime(std::string_view name, lifetime l) {
    check(dace_data_set_lifetime(handle_.get(), detail::z(name).get(), l));
  }
  void set_shape(std::string_view name, std::string_view shape) {
    check(dace_data_set_shape(handle_.get(), detail::z(name).get(), detail::z(shape).get()));
  }
  // "" = C order.
  void set_strides(std::string_view name, std::string_view strides) {
    check(dace_data_set_strides(handle_.get(), detail::z(name).get(), detail::opt(strides).get()));
  }

  // Control flow. The SDFG's own region; add_state/add_loop below are shortcuts into it.
  region root() const noexcept { return region(handle_.get(), root_region); }
  region block_region(dace_id_t id) const noexcept { return region(handle_.get(), id); }
  state block_state(dace_id_t id) const noexcept { return state(handle_.get(), id); }
  state add_state(std::string_view label = {}) { return root().add_state(label); }
  region add_loop(std::string_view label, std::string_view loop_variable, std::string_view init,
                  std::string_view condition, std::string_view update, bool inverted = false) {
    return root().add_loop(label, loop_variable, init, condition, update, inverted);
  }
  // Every state, all regions, pre-order.
  std::vector<state> states() const {
    std::vector<state> out;
    for (dace_id_t id : detail::list_ids(
             [&](dace_id_t* ids, size_t cap, size_t* n) { return dace_sdfg_list_states(ids, cap, n, handle_.get()); }))
      out.emplace_back(handle_.get(), id);
    return out;
  }
  dace_id_t find_block(std::string_view label) const {
    dace_id_t out = no_id;
    check(dace_sdfg_find_block(&out, handle_.get(), detail::z(label).get()));
    return out;
  }
  block_kind kind(dace_id_t block) const {
    block_kind k = DACE_BLOCK_KIND_MAX_ENUM;
    check(dace_block_get_kind(&k, handle_.get(), block));
    return k;
  }
  std::string block_label(dace_id_t block) const {
    const char* s = nullptr;
    check(dace_block_get_label(&s, handle_.get(), block));
    return detail::copy(s);
  }
  void set_block_label(dace_id_t block, std::string_view label) {
    check(dace_block_set_label(handle_.get(), block, detail::z(label).get()));
  }
  // The region holding `block`: root_region, a region id, or the conditional's id for a
  // branch region.
  dace_id_t block_parent(dace_id_t block) const {
    dace_id_t out = no_id;
    check(dace_block_get_parent(&out, handle_.get(), block));
    return out;
  }
  std::string block_property(dace_id_t block, std::string_view property) const {
    const char* s = nullptr;
    check(dace_block_get_property(&s, handle_.get(), block, detail::z(property).get()));
    return detail::copy(s);
  }
  void remove_block(dace_id_t block) { check(dace_sdfg_remove_block(handle_.get(), block)); }
  // `condition` "" = always; `assignments` "k = k + 1; j = 0", "" = none.
  interstate_edge add_interstate_edge(dace_id_t src, dace_id_t dst, std::string_view condition = {},
                                      std::string_view assignments = {}) {
    interstate_edge out;
    check(dace_sdfg_add_interstate_edge(&out.edge, &out.region, handle_.get(), src, dst, detail::opt(condition).get(),
                                        detail::opt(assignments).get()));
    return out;
  }

  // The optimizer (docs/optimizer.md). `props` is a JSON object of DaCe property names ("" =
  // defaults) and may hold a location in DaCe's history form; a match or history entry can be
  // passed as it is. On any error the SDFG is unchanged.
  void simplify() { check(dace_sdfg_simplify(handle_.get())); }
  // DaCe's auto_optimize for `device` (DACE_DEVICE_CPU or DACE_DEVICE_GPU); `options` is a
  // JSON object ("" = defaults).
  void auto_optimize(dace_device_t device = DACE_DEVICE_CPU, std::string_view options = {}) {
    check(dace_sdfg_auto_optimize(handle_.get(), device, detail::opt(options).get()));
  }
  // The legal matches of a pattern transformation: a JSON list of history entries.
  std::string match_transformation(std::string_view name, std::string_view props = {}) {
    const char* s = nullptr;
    check(dace_sdfg_match_transformation(&s, handle_.get(), detail::z(name).get(), detail::opt(props).get()));
    return detail::copy(s);
  }
  // Once: at the location in `props`, else at the first legal match (none: DACE_ERROR_NOT_FOUND);
  // a pass runs once.
  void apply_transformation(std::string_view name, std::string_view props = {}) {
    check(dace_sdfg_apply_transformation(handle_.get(), detail::z(name).get(), detail::opt(props).get()));
  }
  // Until no legal match is left; returns how often it applied.
  int32_t apply_transformation_repeated(std::string_view name, std::string_view props = {}) {
    int32_t applied = 0;
    check(dace_sdfg_apply_transformation_repeated(&applied, handle_.get(), detail::z(name).get(),
                                                  detail::opt(props).get()));
    return applied;
  }
  // The recorded steps as a JSON list (what replay_history reads).
  std::string history_json() const {
    const char* s = nullptr;
    check(dace_sdfg_history_json(&s, handle_.get()));
    return detail::copy(s);
  }
  void replay_history(std::string_view history_json) {
    check(dace_sdfg_replay_history(handle_.get(), detail::z(history_json).get()));
  }
  // Undoes the last `steps` entries (replays the others on the stored original); borrowed
  // nested handles taken before become stale.
  void revert_history(size_t steps = 1) { check(dace_sdfg_revert_history(handle_.get(), steps)); }

  dace_sdfg_t* get() const noexcept { return handle_.get(); }
  // Gives up ownership (for C code that releases it).
  dace_sdfg_t* release() noexcept { return handle_.release(); }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

 private:
  explicit sdfg(dace_sdfg_t* handle) noexcept : handle_(handle) {}
  std::unique_ptr<dace_sdfg_t, detail::sdfg_deleter> handle_;
};

// The registered transformations and passes, sorted by name.
inline std::vector<std::string> transformations() {
  size_t count = 0;
  check(dace_sdfg_transformation_count(&count));
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) {
    const char* s = nullptr;
    check(dace_sdfg_transformation_name(&s, i));
    out.push_back(detail::copy(s));
  }
  return out;
}
// Whether `name` is a pass (no matches, no location) rather than a pattern transformation.
inline bool is_pass(std::string_view name) {
  int32_t pass = 0;
  check(dace_sdfg_transformation_is_pass(&pass, detail::z(name).get()));
  return pass != 0;
}

inline dace_id_t state::add_nested_sdfg(const sdfg& inner, std::string_view label, std::string_view inputs,
                                   std::string_view outputs, std::string_view symbol_mapping) const {
  dace_id_t out = no_id;
  check(dace_state_add_nested_sdfg(&out, g_, id_, inner.get(), detail::z(label).get(), detail::opt(inputs).get(),
                                   detail::opt(outputs).get(), detail::opt(symbol_mapping).get()));
  return out;
}

inline sdfg state::nested_sdfg(dace_id_t node) const {
  dace_sdfg_t* p = nullptr;
  check(dace_node_get_nested_sdfg(&p, g_, id_, node));
  return sdfg::borrowed(p);
}

// ------------------------------------------------------------------------------------------
// Program arguments
// ------------------------------------------------------------------------------------------

// A caller-owned array: data pointer, shape and optional strides (in elements; empty = C
// order). T may be const for inputs the program only reads.
template <class T>
class array_ref {
 public:
  array_ref(T* data, std::vector<int64_t> shape, std::vector<int64_t> strides = {})
      : data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {}
  // A whole std::vector as a 1-D array (a const vector gives an array_ref<const T>).
  template <class A>
  explicit array_ref(std::vector<std::remove_const_t<T>, A>& v)
      : data_(v.data()), shape_{static_cast<int64_t>(v.size())} {}
  template <class A, class U = T, std::enable_if_t<std::is_const_v<U>, int> = 0>
  explicit array_ref(const std::vector<std::remove_const_t<T>, A>& v)
      : data_(v.data()), shape_{static_cast<int64_t>(v.size())} {}

  T* data() const noexcept { return data_; }
  const std::vector<int64_t>& shape() const noexcept { return shape_; }
  const std::vector<int64_t>& strides() const noexcept { return strides_; }
  static constexpr dtype element_dtype = dtype_of_v<std::remove_const_t<T>>;

 private:
  T* data_;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
};

template <class T, class A>
array_ref(std::vector<T, A>&) -> array_ref<T>;
template <class T, class A>
array_ref(const std::vector<T, A>&) -> array_ref<const T>;

// A symbol value (an integer passed to a symbol argument becomes one automatically).
struct symbol {
  explicit symbol(int64_t v) noexcept : value(v) {}
  int64_t value;
};

// One argument value. It owns copies of shape and strides, so it can be kept and reused.
class arg {
 public:
  template <class T>
  arg(const array_ref<T>& a)  // NOLINT(google-explicit-constructor)
      : kind_(DACE_ARG_ARRAY),
        data_(const_cast<std::remove_const_t<T>*>(a.data())),
        dtype_(array_ref<T>::element_dtype),
        shape_(a.shape()),
        strides_(a.strides()) {}
  arg(symbol s) noexcept : kind_(DACE_ARG_SYMBOL), i_(s.value) {}  // NOLINT
  arg(bool v) noexcept : kind_(DACE_ARG_INT), i_(v ? 1 : 0) {}    // NOLINT
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  arg(T v) noexcept : kind_(DACE_ARG_INT), i_(static_cast<int64_t>(v)) {}  // NOLINT
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  arg(T v) noexcept : kind_(DACE_ARG_FLOAT), f_(static_cast<double>(v)) {}  // NOLINT
  template <class T>
  arg(std::complex<T> v) noexcept  // NOLINT
      : kind_(DACE_ARG_COMPLEX), f_(static_cast<double>(v.real())), im_(static_cast<double>(v.imag())) {}

  dace_arg_kind_t kind() const noexcept { return kind_; }

  // The C view; it points into *this. `target` is the argument's declared kind and dtype,
  // used to pass integers to symbols and to floating-point scalars as C++ would.
  dace_arg_t c(int32_t target_kind = -1, dtype target_dtype = DACE_DTYPE_UNKNOWN) const {
    dace_arg_t a{};
    a.kind = kind_;
    switch (kind_) {
      case DACE_ARG_ARRAY:
        if (!strides_.empty() && strides_.size() != shape_.size())
          throw error(DACE_ERROR_INVALID_ARGUMENT, "array argument: " + std::to_string(strides_.size()) +
                                                       " strides for " + std::to_string(shape_.size()) +
                                                       " dimensions");
        a.value.array.data = data_;
        a.value.array.dtype = dtype_;
        a.value.array.ndim = static_cast<int32_t>(shape_.size());
        a.value.array.shape = shape_.data();
        a.value.array.strides = strides_.empty() ? nullptr : strides_.data();
        break;
      case DACE_ARG_INT:
        a.value.i = i_;
        if (target_kind == DACE_ARGUMENT_SYMBOL) {
          a.kind = DACE_ARG_SYMBOL;
        } else if (target_kind == DACE_ARGUMENT_SCALAR &&
                   (target_dtype == DACE_FLOAT16 || target_dtype == DACE_FLOAT32 || target_dtype == DACE_FLOAT64)) {
          a.kind = DACE_ARG_FLOAT;
          a.value.f = static_cast<double>(i_);
        }
        break;
      case DACE_ARG_SYMBOL:
        a.value.i = i_;
        break;
      case DACE_ARG_FLOAT:
        a.value.f = f_;
        break;
      case DACE_ARG_COMPLEX:
        a.value.c[0] = f_;
        a.value.c[1] = im_;
        break;
      default:
        break;
    }
    return a;
  }

 private:
  dace_arg_kind_t kind_;
  void* data_ = nullptr;
  dtype dtype_ = DACE_DTYPE_UNKNOWN;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  int64_t i_ = 0;
  double f_ = 0;
  double im_ = 0;
};

// An argument by name: {"A", array_ref(a)} or {"alpha", 1.5}.
struct named_arg {
  named_arg(std::string_view n, arg v) : name(n), value(std::move(v)) {}
  std::string name;
  arg value;
};

// ------------------------------------------------------------------------------------------
// Program
// ------------------------------------------------------------------------------------------

struct argument_info {
  std::string name;
  dace_argument_kind_t kind = DACE_ARGUMENT_ARRAY;
  dtype type = DACE_DTYPE_UNKNOWN;
};

struct compile_stats {
  bool cache_hit = false;
  double transform_ms = 0;  // the SDFG optimizer step (compile_options::optimize)
  double validate_ms = 0, lower_ms = 0, optimize_ms = 0, jit_ms = 0, total_ms = 0;
  uint64_t ir_instructions = 0;
  uint64_t object_bytes = 0;
  // Tiered compilation: total_ms is the time until callable, optimized_ms until the optimized
  // code was in (0 while it compiles); tier is 1 (first tier running) or 2.
  double codegen_ms = 0, link_ms = 0, optimized_ms = 0, swap_ms = 0;
  double optimized_optimize_ms = 0, optimized_codegen_ms = 0, optimized_link_ms = 0;
  uint64_t lowered_instructions = 0, optimized_ir_instructions = 0;
  bool tiered = false;
  int32_t tier = 2;
  // Parallel code generation: modules compiled and threads (first tier, optimized tier).
  int32_t pieces = 0, threads = 0, optimized_pieces = 0, optimized_threads = 0;
};

// Ahead-of-time compilation (docs/aot.md): writes <out_dir>/lib<name>.so, <name>.o and
// <name>.h for `g`, whose name must be a C identifier; throws on failure, leaving no file.
inline void compile_aot(context& ctx, const sdfg& g, const std::string& out_dir, const compile_options& options = {}) {
  const dace_compile_options_t o = options.c();
  check(dace_program_compile_aot(ctx.get(), g.get(), &o, out_dir.c_str()));
}

class program {
 public:
  // An empty object (no program); calls on it throw DACE_ERROR_INVALID_ARGUMENT.
  program() noexcept = default;
  // Validates, lowers and JIT-compiles `g` (the program does not keep it).
  program(context& ctx, const sdfg& g, const compile_options& options = {}) {
    const dace_compile_options_t o = options.c();
    dace_program_t* p = nullptr;
    check(dace_program_compile(&p, ctx.get(), g.get(), &o));
    handle_.reset(p);
    load_arguments();
  }

  // In DaCe's order (arrays by name, then scalars and symbols by name).
  const std::vector<argument_info>& arguments() const noexcept { return args_; }
  // Index of an argument, or -1.
  int32_t index_of(std::string_view name) const noexcept {
    for (size_t i = 0; i < args_.size(); ++i)
      if (args_[i].name == name) return static_cast<int32_t>(i);
    return -1;
  }

  // By name, any order; symbols that are array dimensions may be left out.
  void call(std::initializer_list<named_arg> args) { call_named(args.begin(), args.size()); }
  void call(const std::vector<named_arg>& args) { call_named(args.data(), args.size()); }
  void operator()(std::initializer_list<named_arg> args) { call(args); }
  // All arguments (or all but inferable symbols) in DaCe's order.
  void call_positional(std::initializer_list<arg> args) { call_in_order(args.begin(), args.size()); }
  void call_positional(const std::vector<arg>& args) { call_in_order(args.data(), args.size()); }

  // Extents of array argument `name` for the given symbol values.
  std::vector<int64_t> argument_shape(std::string_view name,
                                      const std::vector<std::pair<std::string, int64_t>>& symbols = {}) const {
    return extents(name, symbols, [&](int64_t* out, size_t cap, size_t* n, int32_t index, const symbol_values& v) {
      return dace_program_argument_shape(out, cap, n, handle_.get(), index, v.names.data(), v.values.data(),
                                         static_cast<int32_t>(v.names.size()));
    });
  }
  // Element strides the compiled code expects for array argument `name` (its layout).
  std::vector<int64_t> argument_strides(std::string_view name,
                                        const std::vector<std::pair<std::string, int64_t>>& symbols = {}) const {
    return extents(name, symbols, [&](int64_t* out, size_t cap, size_t* n, int32_t index, const symbol_values& v) {
      return dace_program_argument_strides(out, cap, n, handle_.get(), index, v.names.data(), v.values.data(),
                                           static_cast<int32_t>(v.names.size()));
    });
  }

  // The last call's instrumentation report (DaCe's JSON format) and the file it went to
  // ("" when none was written); throws NotFound without timers or before the first call.
  std::pair<std::string, std::string> last_report() const {
    const char* json = nullptr;
    const char* path = nullptr;
    check(dace_program_last_report(&json, &path, handle_.get()));
    return {detail::copy(json), detail::copy(path)};
  }

  // The PTX modules of the program's GPU kernels (the text `dace compile --ptx-out`
  // writes); empty without GPU kernels or when they run on the emulated device.
  std::vector<std::string> ptx() const {
    size_t count = 0;
    check(dace_program_ptx_count(&count, handle_.get()));
    std::vector<std::string> modules;
    for (size_t i = 0; i < count; ++i) {
      const char* text = nullptr;
      size_t size = 0;
      check(dace_program_ptx(&text, &size, handle_.get(), i));
      modules.emplace_back(text, size);
    }
    return modules;
  }

  compile_stats stats() const {
    dace_compile_stats_t s{};
    s.version = DACE_COMPILE_STATS_VERSION;
    check(dace_program_compile_stats(&s, handle_.get()));
    compile_stats out;
    out.cache_hit = s.cache_hit != 0;
    out.validate_ms = s.validate_ms;
    out.lower_ms = s.lower_ms;
    out.optimize_ms = s.optimize_ms;
    out.jit_ms = s.jit_ms;
    out.total_ms = s.total_ms;
    out.ir_instructions = s.ir_instructions;
    out.object_bytes = s.object_bytes;
    out.transform_ms = s.transform_ms;
    out.codegen_ms = s.codegen_ms;
    out.link_ms = s.link_ms;
    out.optimized_ms = s.optimized_ms;
    out.swap_ms = s.swap_ms;
    out.optimized_optimize_ms = s.optimized_optimize_ms;
    out.optimized_codegen_ms = s.optimized_codegen_ms;
    out.optimized_link_ms = s.optimized_link_ms;
    out.lowered_instructions = s.lowered_instructions;
    out.optimized_ir_instructions = s.optimized_ir_instructions;
    out.tiered = s.tiered != 0;
    out.tier = s.tier;
    out.pieces = s.pieces;
    out.threads = s.threads;
    out.optimized_pieces = s.optimized_pieces;
    out.optimized_threads = s.optimized_threads;
    return out;
  }

  dace_program_t* get() const noexcept { return handle_.get(); }
  explicit operator bool() const noexcept { return handle_ != nullptr; }

 private:
  void load_arguments() {
    int32_t count = 0;
    check(dace_program_argument_count(&count, handle_.get()));
    args_.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
      const char* name = nullptr;
      int32_t kind = 0;
      dtype t = DACE_DTYPE_UNKNOWN;
      check(dace_program_argument_info(&name, &kind, &t, handle_.get(), i));
      args_.push_back(argument_info{detail::copy(name), static_cast<dace_argument_kind_t>(kind), t});
    }
  }

  // Symbol values as the C API's parallel arrays.
  struct symbol_values {
    std::vector<const char*> names;
    std::vector<int64_t> values;
  };
  // dace_program_argument_shape and _strides share their arguments and two-call idiom.
  template <class F>
  std::vector<int64_t> extents(std::string_view name, const std::vector<std::pair<std::string, int64_t>>& symbols,
                               F&& fn) const {
    const int32_t index = index_of(name);
    if (index < 0) throw error(DACE_ERROR_NOT_FOUND, "no argument \"" + std::string(name) + "\"");
    symbol_values v;
    for (const auto& s : symbols) {
      v.names.push_back(s.first.c_str());
      v.values.push_back(s.second);
    }
    size_t ndim = 0;
    check(fn(nullptr, size_t{0}, &ndim, index, v));
    std::vector<int64_t> out(ndim);
    if (ndim == 0) return out;
    size_t again = 0;
    check(fn(out.data(), out.size(), &again, index, v));
    out.resize(again < ndim ? again : ndim);
    return out;
  }

  void call_named(const named_arg* args, size_t count) {
    std::vector<const char*> names;
    std::vector<dace_arg_t> c_args;
    names.reserve(count);
    c_args.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const int32_t index = index_of(args[i].name);
      // An unknown name is passed through: the library reports it with its own message.
      const argument_info* info = index >= 0 ? &args_[static_cast<size_t>(index)] : nullptr;
      names.push_back(args[i].name.c_str());
      c_args.push_back(info ? args[i].value.c(info->kind, info->type) : args[i].value.c());
    }
    check(dace_program_call(handle_.get(), names.data(), c_args.data(), static_cast<int32_t>(count)));
  }

  void call_in_order(const arg* args, size_t count) {
    // The C API takes either every argument or every one but the symbols; find the target
    // of each value the same way (any other count is passed on for the library to report).
    const bool all = count == args_.size();
    std::vector<const argument_info*> targets;
    for (const auto& a : args_)
      if (all || a.kind != DACE_ARGUMENT_SYMBOL) targets.push_back(&a);
    std::vector<dace_arg_t> c_args;
    c_args.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const argument_info* info = targets.size() == count ? targets[i] : nullptr;
      c_args.push_back(info ? args[i].c(info->kind, info->type) : args[i].c());
    }
    check(dace_program_call(handle_.get(), nullptr, c_args.data(), static_cast<int32_t>(count)));
  }

  std::unique_ptr<dace_program_t, detail::program_deleter> handle_;
  std::vector<argument_info> args_;
};

}  // namespace libdace

#endif  // LIBDACE_HPP
