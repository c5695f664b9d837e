/*
 * libdace.h — the stable C ABI of libdace (DESIGN.md §3).
 *
 * ===================================== CONTRACT =====================================
 *
 * Naming.  Functions are dace_<object>_<verb>, types dace_<x>_t, macros DACE_. C99; every
 *   declaration is `extern "C"` when included from C++. Out-parameters come first (libgit2
 *   style), then the object the call works on, then the inputs.
 *
 * Errors.  Every fallible call returns dace_status_t: DACE_OK (0) on success, a distinct
 *   nonzero code otherwise. On failure the calling thread's last-error record is set:
 *   dace_last_error_message() names the failing element by path, e.g.
 *     sdfg "heat" / state "s3" / node 7 (Tasklet "add") / connector "b": no such connector
 *   and parse errors give the 1-based column (and line, for multi-line tasklet code) both in
 *   the text and through dace_last_error_line()/dace_last_error_column(). A successful call
 *   leaves the record unchanged. A failed call changes nothing: the element is fully built
 *   and every input checked before anything is inserted, and out-parameters are written only
 *   on success. No C++ exception and no abort ever crosses this boundary (internal failures
 *   are DACE_ERROR_INTERNAL, allocation failures DACE_ERROR_OUT_OF_MEMORY). A NULL handle or
 *   NULL required pointer is DACE_ERROR_INVALID_ARGUMENT; an unknown id or name is
 *   DACE_ERROR_NOT_FOUND (an empty name to look up, too); a duplicate name
 *   DACE_ERROR_ALREADY_EXISTS; a name for a new element that is no identifier ("" included)
 *   DACE_ERROR_INVALID_ARGUMENT; an enum value outside its range DACE_ERROR_INVALID_ARGUMENT;
 *   a malformed expression DACE_ERROR_PARSE.
 *
 * Ownership.  Whoever creates releases: a handle returned through `T** out` by a *_create,
 *   *_clone or *_load call is owned by the caller and released with the matching *_release.
 *   Handles documented as "borrowed" (nested SDFGs) belong to their parent and stay valid
 *   until the element holding them is removed or the parent is released; *_release on a
 *   borrowed handle does nothing. Release functions accept NULL.
 *
 * Strings.  Input strings are UTF-8, NUL-terminated, and copied: the caller may free them
 *   as soon as the call returns. Output strings come in two kinds, never mixed:
 *   - `const char** out` (names, labels, expressions, properties): BORROWED from a
 *     thread-local store of libdace. Valid until the next libdace call on the same thread;
 *     copy them to keep them (ctypes' c_char_p, Julia's unsafe_string and Fortran's
 *     c_f_pointer + copy all do). Never free them. Several strings returned by one call are
 *     all valid together. Mutating the SDFG does not invalidate them (they are copies).
 *   - `char** out` / `void** out` (whole documents: JSON text, gzip buffers): OWNED by the
 *     caller, released with dace_string_free / dace_buffer_free.
 *   Fixed-size results are written into caller buffers (dace_sdfg_hash: char[65]).
 *   Optional string inputs documented "NULL = ..." also accept "" with the same meaning.
 *
 * Ids.  Elements inside an SDFG are addressed by 32-bit integer ids (dace_id_t), which
 *   suits Fortran, Julia and Python:
 *   - blocks (states, regions, loops, conditionals, branch regions, break/continue/return)
 *     by an SDFG-wide block id, never reused within one SDFG. The SDFG's own top-level
 *     region is DACE_ROOT_REGION (-1). A LoopRegion's id is also the id of its body region;
 *     a conditional's branches are regions with their own ids.
 *   - dataflow nodes and edges by their slot within their state, interstate edges by their
 *     slot within their region: ids never shift when other elements are removed.
 *   - data containers and symbols by name.
 *   Lists of ids are returned with the two-call idiom: (ids, capacity, &count) writes at most
 *   `capacity` ids in ascending order and always sets `count` to the total; pass NULL/0 to
 *   ask for the count only.
 *
 * Expressions.  DaCe syntax: shapes "N, M+1", subsets "i, 0:N" (exclusive end, as in
 *   Python slices), memlets "A[i, 0:N]", "A[0:N] -> [1:N+1]", "A" (whole container) or ""
 *   (empty memlet), conditions "k < N", assignments "k = k + 1; j = 0", tasklet code
 *   "b = a * 2 + 1", WCR "lambda a, b: a + b" or a reduction name ("sum", "max", ...).
 *
 * Option structs.  Extensible structs start with `uint32_t version`; initialize them with
 *   the matching _INIT macro, or from languages without macros with
 *   dace_X_options_init(&opts, DACE_X_OPTIONS_VERSION), which writes the defaults of that
 *   version and only that version's bytes; then set the fields you need. Passing NULL means
 *   "all defaults". The library reads (and, for output structs such as dace_compile_stats_t
 *   and dace_node_get_map_options, writes) at most the bytes of the version the caller
 *   declared: a struct of an older version is the prefix of the current one, and fields
 *   added after that version take their defaults. An unknown version (0, or newer than the
 *   library) is DACE_ERROR_INVALID_ARGUMENT with a message naming the struct and version;
 *   nothing is written then.
 *
 * Threading.  Unless a function says otherwise: distinct SDFG handles may be used from
 *   distinct threads at the same time; one SDFG (with its nested SDFGs) may be read from
 *   several threads at once, but a mutating call on it must not run concurrently with any
 *   other call on it. Functions with no handle argument are thread-safe. A context may be
 *   used from many threads at once. The last-error record and borrowed strings are
 *   per thread.
 *
 * Versioning and ABI.  DACE_VERSION_MAJOR/MINOR/PATCH describe this header;
 *   dace_version()/dace_version_number() the loaded library. Within one major version,
 *   functions, enum values and option-struct fields are only ever added (new struct fields
 *   go at the end and bump the struct's version); nothing is removed or reordered. The
 *   shared object carries SONAME libdace.so.<major> and exports only dace_* C symbols for
 *   hosts (plus the unstable dace:: C++ API for bundled plugins).
 * ====================================================================================
 */
#ifndef LIBDACE_H
#define LIBDACE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(LIBDACE_BUILDING)
#define DACE_API __declspec(dllexport)
#else
#define DACE_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define DACE_API __attribute__((visibility("default")))
#else
#define DACE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------ */
/* Version                                                                               */
/* ------------------------------------------------------------------------------------ */

#define DACE_VERSION_MAJOR 0
#define DACE_VERSION_MINOR 1
#define DACE_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH */
#define DACE_VERSION_NUMBER (DACE_VERSION_MAJOR * 10000 + DACE_VERSION_MINOR * 100 + DACE_VERSION_PATCH)

/* "0.1.0" for the loaded library; static storage. Thread-safe. */
DACE_API const char* dace_version(void);
/* DACE_VERSION_NUMBER of the loaded library. Thread-safe. */
DACE_API uint32_t dace_version_number(void);

/* ------------------------------------------------------------------------------------ */
/* Status codes and errors                                                               */
/* ------------------------------------------------------------------------------------ */

typedef enum dace_status_t {
  DACE_OK = 0,
  DACE_ERROR_INVALID_ARGUMENT = 1,  /* NULL pointer, bad enum value, wrong kind of element */
  DACE_ERROR_INVALID_SDFG = 2,      /* validation failed */
  DACE_ERROR_NOT_FOUND = 3,         /* unknown id, name, connector */
  DACE_ERROR_UNSUPPORTED = 4,
  DACE_ERROR_PARSE = 5,             /* malformed expression, code or JSON (column given) */
  DACE_ERROR_COMPILE = 6,
  DACE_ERROR_RUNTIME = 7,
  DACE_ERROR_OUT_OF_MEMORY = 8,
  DACE_ERROR_PLUGIN_UNAVAILABLE = 9,
  DACE_ERROR_IO = 10,               /* a file cannot be opened (a missing one too), read or written */
  DACE_ERROR_ALREADY_EXISTS = 11,   /* duplicate name */
  DACE_ERROR_INTERNAL = 12,
  DACE_STATUS_MAX_ENUM = 0x7FFFFFFF
} dace_status_t;

/* Short description ("invalid argument"); static storage; "unknown status" for values
 * outside the enum. Thread-safe. */
DACE_API const char* dace_status_string(dace_status_t status);

/* The calling thread's last error: message ("" if none yet), status (DACE_OK if none),
 * 1-based line and column in the parsed text (0 if not a parse error). The message stays
 * valid until the next failing call on this thread. Thread-safe (per-thread record). */
DACE_API const char* dace_last_error_message(void);
DACE_API dace_status_t dace_last_error_status(void);
DACE_API int32_t dace_last_error_line(void);
DACE_API int32_t dace_last_error_column(void);
DACE_API void dace_clear_last_error(void);

/* Release memory returned through `char**` / `void**` out-parameters. NULL is fine. */
DACE_API void dace_string_free(char* str);
DACE_API void dace_buffer_free(void* buffer);

/* ------------------------------------------------------------------------------------ */
/* Enumerations (DaCe's names, same order as DaCe / the IR)                              */
/* ------------------------------------------------------------------------------------ */

/* Every enum ends with a *_MAX_ENUM = 0x7FFFFFFF sentinel (not a valid value): it fixes the
 * enum's size at 32 bits for all compilers and bindings, as Vulkan's headers do. */

typedef int32_t dace_id_t;
/* The SDFG's own top-level control-flow region, as a parent/region id. */
#define DACE_ROOT_REGION (-1)
/* "No element", e.g. the scope parent of a top-level node. */
#define DACE_NO_ID (-1)

typedef enum dace_dtype_t {
  DACE_BOOL = 0,
  DACE_INT8,
  DACE_INT16,
  DACE_INT32,
  DACE_INT64,
  DACE_UINT8,
  DACE_UINT16,
  DACE_UINT32,
  DACE_UINT64,
  DACE_FLOAT16,
  DACE_FLOAT32,
  DACE_FLOAT64,
  DACE_COMPLEX64,
  DACE_COMPLEX128,
  DACE_DTYPE_UNKNOWN, /* to be inferred, or a type given as text only (pointer, opaque) */
  DACE_DTYPE_MAX_ENUM = 0x7FFFFFFF
} dace_dtype_t;

typedef enum dace_storage_t {
  DACE_STORAGE_DEFAULT = 0,
  DACE_STORAGE_REGISTER,
  DACE_STORAGE_CPU_PINNED,
  DACE_STORAGE_CPU_HEAP,
  DACE_STORAGE_CPU_THREADLOCAL,
  DACE_STORAGE_GPU_GLOBAL,
  DACE_STORAGE_GPU_SHARED,
  DACE_STORAGE_FPGA_GLOBAL,
  DACE_STORAGE_FPGA_LOCAL,
  DACE_STORAGE_FPGA_REGISTERS,
  DACE_STORAGE_FPGA_SHIFTREGISTER,
  DACE_STORAGE_SVE_REGISTER,
  DACE_STORAGE_SNITCH_TCDM,
  DACE_STORAGE_SNITCH_L2,
  DACE_STORAGE_SNITCH_SSR,
  DACE_STORAGE_MAX_ENUM = 0x7FFFFFFF
} dace_storage_t;

typedef enum dace_schedule_t {
  DACE_SCHEDULE_DEFAULT = 0,
  DACE_SCHEDULE_SEQUENTIAL,
  DACE_SCHEDULE_MPI,
  DACE_SCHEDULE_CPU_MULTICORE,
  DACE_SCHEDULE_CPU_PERSISTENT,
  DACE_SCHEDULE_UNROLLED,
  DACE_SCHEDULE_SVE_MAP,
  DACE_SCHEDULE_GPU_DEFAULT,
  DACE_SCHEDULE_GPU_DEVICE,
  DACE_SCHEDULE_GPU_THREADBLOCK,
  DACE_SCHEDULE_GPU_THREADBLOCK_DYNAMIC,
  DACE_SCHEDULE_GPU_PERSISTENT,
  DACE_SCHEDULE_FPGA_DEVICE,
  DACE_SCHEDULE_FPGA_MULTI_PUMPED,
  DACE_SCHEDULE_SNITCH,
  DACE_SCHEDULE_SNITCH_MULTICORE,
  DACE_SCHEDULE_MAX_ENUM = 0x7FFFFFFF
} dace_schedule_t;

typedef enum dace_lifetime_t {
  DACE_LIFETIME_SCOPE = 0,
  DACE_LIFETIME_STATE,
  DACE_LIFETIME_SDFG,
  DACE_LIFETIME_GLOBAL,
  DACE_LIFETIME_PERSISTENT,
  DACE_LIFETIME_EXTERNAL,
  DACE_LIFETIME_MAX_ENUM = 0x7FFFFFFF
} dace_lifetime_t;

typedef enum dace_omp_schedule_t {
  DACE_OMP_SCHEDULE_DEFAULT = 0,
  DACE_OMP_SCHEDULE_STATIC,
  DACE_OMP_SCHEDULE_DYNAMIC,
  DACE_OMP_SCHEDULE_GUIDED,
  DACE_OMP_SCHEDULE_MAX_ENUM = 0x7FFFFFFF
} dace_omp_schedule_t;

typedef enum dace_language_t {
  DACE_LANGUAGE_PYTHON = 0, /* DaCe's Python tasklet subset: parsed and checked */
  DACE_LANGUAGE_CPP,        /* stored as-is */
  DACE_LANGUAGE_OPENCL,
  DACE_LANGUAGE_SYSTEMVERILOG,
  DACE_LANGUAGE_MLIR,
  DACE_LANGUAGE_MAX_ENUM = 0x7FFFFFFF
} dace_language_t;

typedef enum dace_data_kind_t {
  DACE_DATA_SCALAR = 0,
  DACE_DATA_ARRAY,
  DACE_DATA_STREAM,
  DACE_DATA_VIEW,
  DACE_DATA_REFERENCE,
  DACE_DATA_KIND_MAX_ENUM = 0x7FFFFFFF
} dace_data_kind_t;

typedef enum dace_block_kind_t {
  DACE_BLOCK_STATE = 0,
  DACE_BLOCK_REGION,      /* plain ControlFlowRegion, e.g. a conditional's branch */
  DACE_BLOCK_LOOP,
  DACE_BLOCK_CONDITIONAL,
  DACE_BLOCK_BREAK,
  DACE_BLOCK_CONTINUE,
  DACE_BLOCK_RETURN,
  DACE_BLOCK_SDFG,        /* DACE_ROOT_REGION */
  DACE_BLOCK_KIND_MAX_ENUM = 0x7FFFFFFF
} dace_block_kind_t;

typedef enum dace_node_kind_t {
  DACE_NODE_ACCESS = 0,
  DACE_NODE_TASKLET,
  DACE_NODE_MAP_ENTRY,
  DACE_NODE_MAP_EXIT,
  DACE_NODE_CONSUME_ENTRY,
  DACE_NODE_CONSUME_EXIT,
  DACE_NODE_NESTED_SDFG,
  DACE_NODE_LIBRARY,
  DACE_NODE_KIND_MAX_ENUM = 0x7FFFFFFF
} dace_node_kind_t;

/* ------------------------------------------------------------------------------------ */
/* Option structs                                                                        */
/* ------------------------------------------------------------------------------------ */

/* Properties of data descriptors (dace_sdfg_add_scalar/array/stream/view/reference).
 * Fields a kind does not have must keep their default (else DACE_ERROR_INVALID_ARGUMENT). */
#define DACE_ARRAY_OPTIONS_VERSION 1
typedef struct dace_array_options_t {
  uint32_t version;
  int32_t transient;        /* 0/1 */
  dace_storage_t storage;
  dace_lifetime_t lifetime;
  const char* strides;      /* Array/View/Reference: "M, 1" in elements; NULL = C order */
  const char* offset;       /* Array/View/Reference: "0, 0"; NULL = zeros */
  const char* total_size;   /* Array/View/Reference: NULL = derived from shape and strides */
  int64_t alignment;        /* Array/View/Reference: bytes, 0 = default */
  int32_t may_alias;        /* Array/View/Reference: 0/1 */
  int32_t optional;         /* Array/View/Reference: may be NULL at call time (0/1) */
  const char* buffer_size;  /* Stream: NULL = 1 */
} dace_array_options_t;
#define DACE_ARRAY_OPTIONS_INIT \
  { DACE_ARRAY_OPTIONS_VERSION, 0, DACE_STORAGE_DEFAULT, DACE_LIFETIME_SCOPE, NULL, NULL, NULL, 0, 0, 0, NULL }
DACE_API dace_status_t dace_array_options_init(dace_array_options_t* options, uint32_t version);

/* Map scope properties (DaCe's Map). */
#define DACE_MAP_OPTIONS_VERSION 1
typedef struct dace_map_options_t {
  uint32_t version;
  dace_schedule_t schedule;
  int64_t collapse;             /* >= 1 */
  int64_t omp_num_threads;      /* 0 = runtime default */
  dace_omp_schedule_t omp_schedule;
  int64_t omp_chunk_size;       /* 0 = default */
  int32_t unroll;               /* 0/1 */
  const char* gpu_block_size;   /* "32, 8, 1"; NULL = default */
} dace_map_options_t;
#define DACE_MAP_OPTIONS_INIT \
  { DACE_MAP_OPTIONS_VERSION, DACE_SCHEDULE_DEFAULT, 1, 0, DACE_OMP_SCHEDULE_DEFAULT, 0, 0, NULL }
DACE_API dace_status_t dace_map_options_init(dace_map_options_t* options, uint32_t version);

/* Memlet properties besides the memlet text. */
#define DACE_MEMLET_OPTIONS_VERSION 1
typedef struct dace_memlet_options_t {
  uint32_t version;
  const char* wcr;        /* "lambda a, b: a + b" or "sum", "product", "min", "max", ...; NULL = none */
  const char* volume;     /* number of accesses; NULL = derived from the subset */
  int32_t dynamic;        /* volume is an upper bound (0/1) */
  int32_t wcr_nonatomic;  /* 0/1 */
  int32_t allow_oob;      /* 0/1 */
} dace_memlet_options_t;
#define DACE_MEMLET_OPTIONS_INIT { DACE_MEMLET_OPTIONS_VERSION, NULL, NULL, 0, 0, 0 }
DACE_API dace_status_t dace_memlet_options_init(dace_memlet_options_t* options, uint32_t version);

/* How SDFGs are written. */
#define DACE_SAVE_OPTIONS_VERSION 1
typedef struct dace_save_options_t {
  uint32_t version;
  int32_t compact;        /* 0 = indented like DaCe, 1 = one line */
  int32_t gzip;           /* buffers only: gzip (.sdfgz) content. Files: by extension ".sdfgz" */
  int32_t omit_guids;     /* 1 = leave element guids out */
} dace_save_options_t;
#define DACE_SAVE_OPTIONS_INIT { DACE_SAVE_OPTIONS_VERSION, 0, 0, 0 }
DACE_API dace_status_t dace_save_options_init(dace_save_options_t* options, uint32_t version);

/* dace_state_add_mapped_tasklet. */
#define DACE_MAPPED_TASKLET_OPTIONS_VERSION 1
typedef struct dace_mapped_tasklet_options_t {
  uint32_t version;
  dace_schedule_t schedule;
  int32_t external_edges;   /* 1 = also add access nodes outside the map and connect them */
  const char* output_wcr;   /* WCR on every output memlet (e.g. "sum"); NULL = none */
  dace_language_t language;
} dace_mapped_tasklet_options_t;
#define DACE_MAPPED_TASKLET_OPTIONS_INIT \
  { DACE_MAPPED_TASKLET_OPTIONS_VERSION, DACE_SCHEDULE_DEFAULT, 0, NULL, DACE_LANGUAGE_PYTHON }
DACE_API dace_status_t dace_mapped_tasklet_options_init(dace_mapped_tasklet_options_t* options, uint32_t version);

/* ------------------------------------------------------------------------------------ */
/* Context                                                                               */
/* ------------------------------------------------------------------------------------ */

/* Holds settings (and later plugins, JIT session and caches) shared by compilations.
 * A context may be used from many threads at once. */
typedef struct dace_context dace_context_t;

DACE_API dace_status_t dace_context_create(dace_context_t** out_context);
DACE_API void dace_context_release(dace_context_t* context);
/* String-valued settings by key; value NULL removes. Read by the context's first compile:
 *   "plugin_path"  colon-separated plugin folders; replaces DACE_PLUGIN_PATH and the folder
 *                  next to libdace (an empty folder list makes compiles fail with
 *                  DACE_ERROR_PLUGIN_UNAVAILABLE naming where it searched). */
DACE_API dace_status_t dace_context_set_option(dace_context_t* context, const char* key, const char* value);
/* Borrowed; DACE_ERROR_NOT_FOUND when not set. */
DACE_API dace_status_t dace_context_get_option(const char** out_value, const dace_context_t* context, const char* key);

/* ------------------------------------------------------------------------------------ */
/* SDFG: lifecycle, I/O, comparison, validation                                          */
/* ------------------------------------------------------------------------------------ */

typedef struct dace_sdfg dace_sdfg_t;

/* An empty SDFG named `name` (a valid identifier). */
DACE_API dace_status_t dace_sdfg_create(dace_sdfg_t** out_sdfg, const char* name);
/* Owned handles are freed with their nested SDFGs; borrowed handles and NULL are ignored. */
DACE_API void dace_sdfg_release(dace_sdfg_t* sdfg);
/* Deep copy (also of a borrowed nested SDFG; the copy is a top-level SDFG). */
DACE_API dace_status_t dace_sdfg_clone(dace_sdfg_t** out_sdfg, const dace_sdfg_t* sdfg);

/* `.sdfg` JSON of any DaCe dialect, or gzip (.sdfgz) content, recognized by its bytes. A file
 * that cannot be opened or read (missing, a folder) is DACE_ERROR_IO; an empty path
 * DACE_ERROR_INVALID_ARGUMENT. */
DACE_API dace_status_t dace_sdfg_load_file(dace_sdfg_t** out_sdfg, const char* path);
DACE_API dace_status_t dace_sdfg_load_string(dace_sdfg_t** out_sdfg, const char* json);
DACE_API dace_status_t dace_sdfg_load_buffer(dace_sdfg_t** out_sdfg, const void* data, size_t size);
/* Atomic write; gzip when the path ends in ".sdfgz". `options` may be NULL. */
DACE_API dace_status_t dace_sdfg_save_file(const dace_sdfg_t* sdfg, const char* path, const dace_save_options_t* options);
/* JSON text, owned: release with dace_string_free. `options->gzip` must be 0. */
DACE_API dace_status_t dace_sdfg_to_json(char** out_json, const dace_sdfg_t* sdfg, const dace_save_options_t* options);
/* A picture of the SDFG (docs/render.md), owned: release with dace_string_free. `format`:
 * "svg" (an SVG document: states, regions and scopes as nested boxes, every node and memlet
 * labelled) or "html" (one self-contained page: the SVG with pan, zoom and collapsible
 * scopes). Same SDFG, same bytes. The renderer (Graphviz) is not part of libdace.so: it is
 * libdace_render.so in <folder of libdace.so>/libdace, loaded on the first call; without it
 * (libdace built without libgraphviz-dev) DACE_ERROR_UNSUPPORTED naming the file. Another
 * format is DACE_ERROR_INVALID_ARGUMENT naming it; `*out_text` is written only on success. */
DACE_API dace_status_t dace_sdfg_render(char** out_text, const dace_sdfg_t* sdfg, const char* format);
/* JSON or gzip bytes (per options->gzip), owned: release with dace_buffer_free. */
DACE_API dace_status_t dace_sdfg_save_buffer(void** out_data, size_t* out_size, const dace_sdfg_t* sdfg,
                                             const dace_save_options_t* options);

/* Structural equality (guids and removed slots ignored). `out_difference` (may be NULL)
 * receives a borrowed description of the first difference, "" when equal. */
DACE_API dace_status_t dace_sdfg_equal(int32_t* out_equal, const char** out_difference, const dace_sdfg_t* a,
                                       const dace_sdfg_t* b);
/* Lower-case hex SHA-256 of the canonical JSON, NUL-terminated, into out_hash[65]. */
DACE_API dace_status_t dace_sdfg_hash(char out_hash[65], const dace_sdfg_t* sdfg);
/* DACE_OK or DACE_ERROR_INVALID_SDFG with the first violation in the last-error message. */
DACE_API dace_status_t dace_sdfg_validate(const dace_sdfg_t* sdfg);

DACE_API dace_status_t dace_sdfg_get_name(const char** out_name, const dace_sdfg_t* sdfg);
DACE_API dace_status_t dace_sdfg_set_name(dace_sdfg_t* sdfg, const char* name);
/* Free symbols, sorted, comma-separated ("M, N"); borrowed. */
DACE_API dace_status_t dace_sdfg_get_free_symbols(const char** out_symbols, const dace_sdfg_t* sdfg);
/* DaCe's argument order (arrays by name, then scalars and symbols by name), comma-separated. */
DACE_API dace_status_t dace_sdfg_get_arguments(const char** out_arguments, const dace_sdfg_t* sdfg);

/* ------------------------------------------------------------------------------------ */
/* Symbols                                                                               */
/* ------------------------------------------------------------------------------------ */

/* Declares symbol `name` of scalar type `dtype` (integers usually: DACE_INT64, DACE_INT32). */
DACE_API dace_status_t dace_sdfg_add_symbol(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype);
DACE_API dace_status_t dace_sdfg_remove_symbol(dace_sdfg_t* sdfg, const char* name);
DACE_API dace_status_t dace_sdfg_symbol_count(size_t* out_count, const dace_sdfg_t* sdfg);
/* Symbols sorted by name; `index` < count (else DACE_ERROR_NOT_FOUND). Either out pointer may
 * be NULL. */
DACE_API dace_status_t dace_sdfg_get_symbol(const char** out_name, dace_dtype_t* out_dtype, const dace_sdfg_t* sdfg,
                                            size_t index);
DACE_API dace_status_t dace_sdfg_get_symbol_dtype(dace_dtype_t* out_dtype, const dace_sdfg_t* sdfg, const char* name);

/* ------------------------------------------------------------------------------------ */
/* Data descriptors                                                                      */
/* ------------------------------------------------------------------------------------ */

/* `options` may be NULL (non-transient, default storage/lifetime, C order). Names are
 * identifiers distinct from every other data container and symbol. */
DACE_API dace_status_t dace_sdfg_add_scalar(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype,
                                            const dace_array_options_t* options);
/* `shape`: "N, M+1" (at least one dimension). */
DACE_API dace_status_t dace_sdfg_add_array(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                           const dace_array_options_t* options);
/* A transient array (options->transient is forced to 1). */
DACE_API dace_status_t dace_sdfg_add_transient(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype,
                                               const char* shape, const dace_array_options_t* options);
/* `shape` NULL = "1". */
DACE_API dace_status_t dace_sdfg_add_stream(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                            const dace_array_options_t* options);
DACE_API dace_status_t dace_sdfg_add_view(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype, const char* shape,
                                          const dace_array_options_t* options);
DACE_API dace_status_t dace_sdfg_add_reference(dace_sdfg_t* sdfg, const char* name, dace_dtype_t dtype,
                                               const char* shape, const dace_array_options_t* options);
/* Fails with DACE_ERROR_INVALID_ARGUMENT while an access node or memlet still uses it. */
DACE_API dace_status_t dace_sdfg_remove_data(dace_sdfg_t* sdfg, const char* name);
DACE_API dace_status_t dace_sdfg_data_count(size_t* out_count, const dace_sdfg_t* sdfg);
/* Containers sorted by name; `index` < count (else DACE_ERROR_NOT_FOUND). */
DACE_API dace_status_t dace_sdfg_get_data_name(const char** out_name, const dace_sdfg_t* sdfg, size_t index);
/* The positional signature (DaCe's `arg_names`): the arguments a positional call takes, in
 * order; saved to and loaded from .sdfg JSON. Replaces the list; count 0 clears it. Each name
 * must be a non-transient container or a symbol of this SDFG (else DACE_ERROR_NOT_FOUND for a
 * name that does not exist, DACE_ERROR_INVALID_ARGUMENT for a transient, a duplicate or NULL);
 * on error the list is unchanged. The Python binding's positional calls follow it; the C
 * positional order of dace_program_call is the argument order of dace_program_argument_info. */
DACE_API dace_status_t dace_sdfg_set_arg_names(dace_sdfg_t* sdfg, const char* const* names, size_t count);
DACE_API dace_status_t dace_sdfg_arg_name_count(size_t* out_count, const dace_sdfg_t* sdfg);
/* Borrowed; `index` < count (else DACE_ERROR_NOT_FOUND). */
DACE_API dace_status_t dace_sdfg_get_arg_name(const char** out_name, const dace_sdfg_t* sdfg, size_t index);

DACE_API dace_status_t dace_data_get_kind(dace_data_kind_t* out_kind, const dace_sdfg_t* sdfg, const char* name);
/* DACE_DTYPE_UNKNOWN for types without an enum value (see the "dtype" property). */
DACE_API dace_status_t dace_data_get_dtype(dace_dtype_t* out_dtype, const dace_sdfg_t* sdfg, const char* name);
DACE_API dace_status_t dace_data_get_transient(int32_t* out_transient, const dace_sdfg_t* sdfg, const char* name);
DACE_API dace_status_t dace_data_get_storage(dace_storage_t* out_storage, const dace_sdfg_t* sdfg, const char* name);
DACE_API dace_status_t dace_data_get_lifetime(dace_lifetime_t* out_lifetime, const dace_sdfg_t* sdfg, const char* name);
/* Any property as borrowed text: "kind" ("Array"), "dtype" ("float64"), "shape" ("N, M"),
 * "strides", "offset", "total_size", "start_offset", "alignment", "may_alias", "optional",
 * "transient" ("0"/"1"), "storage" ("CPU_Heap"), "lifetime", "buffer_size".
 * A property the kind lacks is DACE_ERROR_NOT_FOUND. */
DACE_API dace_status_t dace_data_get_property(const char** out_value, const dace_sdfg_t* sdfg, const char* name,
                                              const char* property);
DACE_API dace_status_t dace_data_set_transient(dace_sdfg_t* sdfg, const char* name, int32_t transient);
DACE_API dace_status_t dace_data_set_storage(dace_sdfg_t* sdfg, const char* name, dace_storage_t storage);
DACE_API dace_status_t dace_data_set_lifetime(dace_sdfg_t* sdfg, const char* name, dace_lifetime_t lifetime);
/* Replaces the shape; strides, offset and total size are reset to C-order defaults. */
DACE_API dace_status_t dace_data_set_shape(dace_sdfg_t* sdfg, const char* name, const char* shape);
/* Array/View/Reference strides in elements ("M, 1"; NULL or "" = C order for the shape).
 * The rank must match the shape. Bindings use it to specialize a program for a caller's
 * memory layout (Fortran order, strided views) instead of copying. */
DACE_API dace_status_t dace_data_set_strides(dace_sdfg_t* sdfg, const char* name, const char* strides);

/* ------------------------------------------------------------------------------------ */
/* Control flow: blocks and regions                                                      */
/* ------------------------------------------------------------------------------------ */

/* Every add_* call puts the new block into region `parent` (DACE_ROOT_REGION, a loop, a
 * plain region or a conditional's branch). `label` NULL = generated ("state_3"); labels are
 * unique within the SDFG (DACE_ERROR_ALREADY_EXISTS). The first block of a region is its
 * start block until dace_region_set_start_block says otherwise. */
DACE_API dace_status_t dace_sdfg_add_state(dace_id_t* out_state, dace_sdfg_t* sdfg, dace_id_t parent,
                                           const char* label);
DACE_API dace_status_t dace_sdfg_add_region(dace_id_t* out_region, dace_sdfg_t* sdfg, dace_id_t parent,
                                            const char* label);
/* for (init; condition; update) { body }: `init` "i = 0" and `update` "i = i + 1" may be
 * NULL (none); `condition` "i < N" is required. inverted = do-while. The returned id is the
 * loop and its body region. */
DACE_API dace_status_t dace_sdfg_add_loop(dace_id_t* out_loop, dace_sdfg_t* sdfg, dace_id_t parent, const char* label,
                                          const char* loop_variable, const char* init, const char* condition,
                                          const char* update, int32_t inverted);
/* if / elif / else: add branches with dace_conditional_add_branch. */
DACE_API dace_status_t dace_sdfg_add_conditional(dace_id_t* out_conditional, dace_sdfg_t* sdfg, dace_id_t parent,
                                                 const char* label);
/* A branch region; `condition` NULL = else (must be the last branch). */
DACE_API dace_status_t dace_conditional_add_branch(dace_id_t* out_region, dace_sdfg_t* sdfg, dace_id_t conditional,
                                                   const char* condition);
/* break / continue must be inside a loop; return anywhere. */
DACE_API dace_status_t dace_sdfg_add_break(dace_id_t* out_block, dace_sdfg_t* sdfg, dace_id_t parent, const char* label);
DACE_API dace_status_t dace_sdfg_add_continue(dace_id_t* out_block, dace_sdfg_t* sdfg, dace_id_t parent,
                                              const char* label);
DACE_API dace_status_t dace_sdfg_add_return(dace_id_t* out_block, dace_sdfg_t* sdfg, dace_id_t parent,
                                            const char* label);
/* Removes the block, everything inside it and its interstate edges. */
DACE_API dace_status_t dace_sdfg_remove_block(dace_sdfg_t* sdfg, dace_id_t block);

/* Blocks directly inside `region`, ascending ids (two-call idiom). */
DACE_API dace_status_t dace_region_list_blocks(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                               const dace_sdfg_t* sdfg, dace_id_t region);
/* Every state of the SDFG (all regions, not nested SDFGs), in pre-order. */
DACE_API dace_status_t dace_sdfg_list_states(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                             const dace_sdfg_t* sdfg);
/* DACE_NO_ID when no start block is set and none can be inferred. */
DACE_API dace_status_t dace_region_get_start_block(dace_id_t* out_block, const dace_sdfg_t* sdfg, dace_id_t region);
DACE_API dace_status_t dace_region_set_start_block(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t block);

DACE_API dace_status_t dace_block_get_kind(dace_block_kind_t* out_kind, const dace_sdfg_t* sdfg, dace_id_t block);
DACE_API dace_status_t dace_block_get_label(const char** out_label, const dace_sdfg_t* sdfg, dace_id_t block);
DACE_API dace_status_t dace_block_set_label(dace_sdfg_t* sdfg, dace_id_t block, const char* label);
/* The region holding `block`: DACE_ROOT_REGION, a region id, or the conditional's id for a
 * branch region. */
DACE_API dace_status_t dace_block_get_parent(dace_id_t* out_region, const dace_sdfg_t* sdfg, dace_id_t block);
/* Find a block by label anywhere in the SDFG. */
DACE_API dace_status_t dace_sdfg_find_block(dace_id_t* out_block, const dace_sdfg_t* sdfg, const char* label);
/* Loop properties as borrowed text: "loop_variable", "init", "condition", "update",
 * "inverted" ("0"/"1"). Branch regions: "condition" ("" for else). */
DACE_API dace_status_t dace_block_get_property(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t block,
                                               const char* property);
/* Replaces a loop's header; same arguments as dace_sdfg_add_loop. */
DACE_API dace_status_t dace_loop_set_header(dace_sdfg_t* sdfg, dace_id_t loop, const char* loop_variable,
                                            const char* init, const char* condition, const char* update,
                                            int32_t inverted);
/* Branch regions of a conditional in order (two-call idiom). */
DACE_API dace_status_t dace_conditional_list_branches(dace_id_t* out_regions, size_t capacity, size_t* out_count,
                                                      const dace_sdfg_t* sdfg, dace_id_t conditional);

/* ------------------------------------------------------------------------------------ */
/* Interstate edges (addressed by region id + edge slot)                                 */
/* ------------------------------------------------------------------------------------ */

/* src and dst must share a region; *out_region receives it (may be NULL). `condition`
 * NULL = always ("1"). `assignments`: "k = k + 1; j = 0", ordered; NULL = none. */
DACE_API dace_status_t dace_sdfg_add_interstate_edge(dace_id_t* out_edge, dace_id_t* out_region, dace_sdfg_t* sdfg,
                                                     dace_id_t src, dace_id_t dst, const char* condition,
                                                     const char* assignments);
DACE_API dace_status_t dace_interstate_edge_remove(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge);
DACE_API dace_status_t dace_region_list_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                              const dace_sdfg_t* sdfg, dace_id_t region);
/* Either out pointer may be NULL. */
DACE_API dace_status_t dace_interstate_edge_get_endpoints(dace_id_t* out_src, dace_id_t* out_dst,
                                                          const dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge);
DACE_API dace_status_t dace_interstate_edge_get_condition(const char** out_condition, const dace_sdfg_t* sdfg,
                                                          dace_id_t region, dace_id_t edge);
/* "k = k + 1; j = 0" ("" when none). */
DACE_API dace_status_t dace_interstate_edge_get_assignments(const char** out_assignments, const dace_sdfg_t* sdfg,
                                                            dace_id_t region, dace_id_t edge);
DACE_API dace_status_t dace_interstate_edge_assignment_count(size_t* out_count, const dace_sdfg_t* sdfg,
                                                             dace_id_t region, dace_id_t edge);
/* The `index`-th assignment (< count, else DACE_ERROR_NOT_FOUND); either out pointer may be NULL. */
DACE_API dace_status_t dace_interstate_edge_get_assignment(const char** out_name, const char** out_value,
                                                           const dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                           size_t index);
DACE_API dace_status_t dace_interstate_edge_set_condition(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                          const char* condition);
/* Replaces all assignments. */
DACE_API dace_status_t dace_interstate_edge_set_assignments(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                            const char* assignments);
/* Appends one assignment (the array form). */
DACE_API dace_status_t dace_interstate_edge_add_assignment(dace_sdfg_t* sdfg, dace_id_t region, dace_id_t edge,
                                                           const char* name, const char* value);

/* ------------------------------------------------------------------------------------ */
/* Dataflow nodes (addressed by state id + node slot)                                    */
/* ------------------------------------------------------------------------------------ */

/* Connector lists are comma-separated names with optional types: "a, b: float64, p: int32*"
 * (untyped = inferred). NULL or "" = none. */

DACE_API dace_status_t dace_state_add_access(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state,
                                             const char* data);
/* `code` in `language`; Python code is parsed (DACE_ERROR_PARSE with line/column). */
DACE_API dace_status_t dace_state_add_tasklet(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state,
                                              const char* label, const char* inputs, const char* outputs,
                                              const char* code, dace_language_t language);
/* `ranges`: "i=0:N, j=1:M-1" (exclusive ends, optional step "0:N:2"). `out_exit` may be NULL
 * (dace_node_get_scope_partner finds it); so for dace_state_add_map_dict and _add_consume. */
DACE_API dace_status_t dace_state_add_map(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg,
                                          dace_id_t state, const char* label, const char* ranges,
                                          const dace_map_options_t* options);
/* DaCe's add_map dict form: params[i] ranges over ranges[i] ("0:N"). */
DACE_API dace_status_t dace_state_add_map_dict(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg,
                                               dace_id_t state, const char* label, const char* const* params,
                                               const char* const* ranges, size_t count,
                                               const dace_map_options_t* options);
/* A consume scope over a stream: `pe_index` names the processing element, `num_pes` is an
 * expression, `condition` NULL = until the stream is empty, `chunksize` NULL = 1. */
DACE_API dace_status_t dace_state_add_consume(dace_id_t* out_entry, dace_id_t* out_exit, dace_sdfg_t* sdfg,
                                              dace_id_t state, const char* label, const char* pe_index,
                                              const char* num_pes, const char* condition, const char* chunksize,
                                              dace_schedule_t schedule);
/* The nested SDFG is COPIED from `inner` (the caller keeps and releases `inner`). Connector
 * names must name containers of `inner`. `symbol_mapping` "N: N, M: M - 1" maps inner
 * symbols to outer expressions; NULL = each symbol of `inner` to itself. */
DACE_API dace_status_t dace_state_add_nested_sdfg(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state,
                                                  const dace_sdfg_t* inner, const char* label, const char* inputs,
                                                  const char* outputs, const char* symbol_mapping);
/* Any DaCe library node: `classpath` e.g. "dace.libraries.blas.nodes.matmul.MatMul",
 * `implementation` NULL = default, `properties_json` a JSON object of class-specific
 * properties (NULL = {}), kept verbatim. */
DACE_API dace_status_t dace_state_add_library_node(dace_id_t* out_node, dace_sdfg_t* sdfg, dace_id_t state,
                                                   const char* name, const char* classpath,
                                                   const char* implementation, const char* properties_json,
                                                   const char* inputs, const char* outputs);
/* Like DaCe's add_mapped_tasklet: a map over `map_ranges` ("i=0:N"), a tasklet inside it
 * with `inputs`/`outputs` given as "connector: memlet" entries separated by ';'
 * ("a: A[i, j]; b: B[i]"), and the edges between them; with options->external_edges, access
 * nodes outside the map joined by memlets covering the whole iteration space. Any of the
 * out ids may be NULL. */
DACE_API dace_status_t dace_state_add_mapped_tasklet(dace_id_t* out_tasklet, dace_id_t* out_entry, dace_id_t* out_exit,
                                                     dace_sdfg_t* sdfg, dace_id_t state, const char* name,
                                                     const char* map_ranges, const char* inputs, const char* code,
                                                     const char* outputs,
                                                     const dace_mapped_tasklet_options_t* options);
/* Removes the node and every edge touching it (a scope entry/exit alone, not its scope). */
DACE_API dace_status_t dace_state_remove_node(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node);

DACE_API dace_status_t dace_state_list_nodes(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                             const dace_sdfg_t* sdfg, dace_id_t state);
DACE_API dace_status_t dace_node_get_kind(dace_node_kind_t* out_kind, const dace_sdfg_t* sdfg, dace_id_t state,
                                          dace_id_t node);
DACE_API dace_status_t dace_node_get_label(const char** out_label, const dace_sdfg_t* sdfg, dace_id_t state,
                                           dace_id_t node);
DACE_API dace_status_t dace_node_set_label(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* label);
/* Node properties as borrowed text, by kind:
 *   all: "label", "kind" ("Tasklet"), "in_connectors", "out_connectors" ("a, b: float64")
 *   AccessNode: "data", "setzero";  Tasklet: "code", "language" ("Python", "CPP")
 *   MapEntry/MapExit: "params" ("i, j"), "range" ("i=0:N, j=1:M - 1"), "schedule",
 *     "collapse", "omp_num_threads", "omp_schedule", "omp_chunk_size", "unroll", "gpu_block_size"
 *   ConsumeEntry/ConsumeExit: "pe_index", "num_pes", "condition", "schedule", "chunksize"
 *   NestedSDFG: "symbol_mapping" ("M: M - 1, N: N"), "schedule", "sdfg_name"
 *   LibraryNode: "name", "classpath", "implementation", "schedule", "properties" (JSON object)
 * A property the kind lacks is DACE_ERROR_NOT_FOUND. */
DACE_API dace_status_t dace_node_get_property(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state,
                                              dace_id_t node, const char* property);
/* Adds a connector ("name" or typed via `dtype` text such as "float64*"; NULL = inferred). */
DACE_API dace_status_t dace_node_add_in_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* name,
                                                  const char* dtype);
DACE_API dace_status_t dace_node_add_out_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                                   const char* name, const char* dtype);
/* Fails with DACE_ERROR_INVALID_ARGUMENT while an edge uses the connector. */
DACE_API dace_status_t dace_node_remove_connector(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, int32_t is_output,
                                                  const char* name);
/* Borrowed type text of a connector ("" = inferred). */
DACE_API dace_status_t dace_node_get_connector_type(const char** out_dtype, const dace_sdfg_t* sdfg, dace_id_t state,
                                                    dace_id_t node, int32_t is_output, const char* name);
/* AccessNode: the container it accesses (must exist). */
DACE_API dace_status_t dace_node_set_data(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* data);
/* Tasklet: replaces code and language (Python is parsed first). */
DACE_API dace_status_t dace_node_set_code(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node, const char* code,
                                          dace_language_t language);
/* Map, consume, nested SDFG or library node (entry or exit of a scope). */
DACE_API dace_status_t dace_node_set_schedule(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                              dace_schedule_t schedule);
/* Map entry or exit: replaces parameters and ranges ("i=0:N, j=0:M"). */
DACE_API dace_status_t dace_node_set_map_ranges(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                                const char* ranges);
/* Map entry or exit: replaces every map option (schedule included). */
DACE_API dace_status_t dace_node_set_map_options(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                                 const dace_map_options_t* options);
/* Map entry or exit: reads the map options of the version set in out_options->version
 * (DACE_MAP_OPTIONS_INIT or dace_map_options_init first); gpu_block_size is borrowed. */
DACE_API dace_status_t dace_node_get_map_options(dace_map_options_t* out_options, const dace_sdfg_t* sdfg,
                                                 dace_id_t state, dace_id_t node);
/* NestedSDFG: replaces the symbol mapping ("N: N, M: M - 1"; NULL or "" = empty mapping). */
DACE_API dace_status_t dace_node_set_symbol_mapping(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                                    const char* symbol_mapping);
/* `memlet` ("A[i, 0:N]", as seen inside the map whose entry or exit is `map_node`) as seen
 * outside it: per dimension the hull over the map's iteration space when the bounds are
 * affine in its parameters, else the container's whole extent (what
 * dace_state_add_mapped_tasklet puts on its outer edges). Only data and subset come back
 * ("A[0:N, 0:N]"), borrowed. Bindings use it for DaCe's add_memlet_path. */
DACE_API dace_status_t dace_map_propagate_memlet(const char** out_memlet, const dace_sdfg_t* sdfg, dace_id_t state,
                                                 dace_id_t map_node, const char* memlet);
/* NestedSDFG: the inner SDFG, BORROWED (see Ownership); mutable through the handle. */
DACE_API dace_status_t dace_node_get_nested_sdfg(dace_sdfg_t** out_sdfg, dace_sdfg_t* sdfg, dace_id_t state,
                                                 dace_id_t node);
/* LibraryNode: replaces implementation (NULL = default) and/or properties (NULL = keep). */
DACE_API dace_status_t dace_node_set_library_properties(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                                        const char* implementation, const char* properties_json);
/* Scope structure: the exit of an entry / the entry of an exit (DACE_NO_ID if missing). */
DACE_API dace_status_t dace_node_get_scope_partner(dace_id_t* out_node, const dace_sdfg_t* sdfg, dace_id_t state,
                                                   dace_id_t node);
/* The scope entry directly enclosing `node`, or DACE_NO_ID at top level. */
DACE_API dace_status_t dace_node_get_scope_parent(dace_id_t* out_entry, const dace_sdfg_t* sdfg, dace_id_t state,
                                                  dace_id_t node);

/* ------------------------------------------------------------------------------------ */
/* Dataflow edges and memlets (addressed by state id + edge slot)                        */
/* ------------------------------------------------------------------------------------ */

/* `src_conn`/`dst_conn` NULL = none; they must exist on the nodes, except that IN_x/OUT_x
 * connectors of map and consume entries/exits are added on demand. `memlet` as described
 * under Expressions; "A" takes the container's whole shape. `options` may be NULL. */
DACE_API dace_status_t dace_state_add_edge(dace_id_t* out_edge, dace_sdfg_t* sdfg, dace_id_t state, dace_id_t src,
                                           const char* src_conn, dace_id_t dst, const char* dst_conn,
                                           const char* memlet, const dace_memlet_options_t* options);
DACE_API dace_status_t dace_state_remove_edge(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t edge);
DACE_API dace_status_t dace_state_list_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                             const dace_sdfg_t* sdfg, dace_id_t state);
DACE_API dace_status_t dace_node_list_in_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                               const dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node);
DACE_API dace_status_t dace_node_list_out_edges(dace_id_t* out_ids, size_t capacity, size_t* out_count,
                                                const dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node);
/* Connectors are borrowed ("" = none). Any out pointer may be NULL. */
DACE_API dace_status_t dace_edge_get_endpoints(dace_id_t* out_src, const char** out_src_conn, dace_id_t* out_dst,
                                               const char** out_dst_conn, const dace_sdfg_t* sdfg, dace_id_t state,
                                               dace_id_t edge);
/* "A[i, 0:N]" or "A[0:N] -> [1:N + 1]" ("" for an empty memlet); borrowed. */
DACE_API dace_status_t dace_edge_get_memlet(const char** out_memlet, const dace_sdfg_t* sdfg, dace_id_t state,
                                            dace_id_t edge);
/* Memlet properties as borrowed text: "data", "subset", "other_subset" ("" if none),
 * "volume", "dynamic" ("0"/"1"), "wcr" ("" if none), "wcr_nonatomic", "allow_oob". */
DACE_API dace_status_t dace_edge_get_memlet_property(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state,
                                                     dace_id_t edge, const char* property);
/* Replaces the memlet (same rules as dace_state_add_edge). */
DACE_API dace_status_t dace_edge_set_memlet(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t edge, const char* memlet,
                                            const dace_memlet_options_t* options);

/* ------------------------------------------------------------------------------------ */
/* Compiled programs (CPU backend, LLVM ORC JIT)                                         */
/* ------------------------------------------------------------------------------------ */

/* A compiled SDFG. Calls on one program are serialized; programs are independent. */
typedef struct dace_program dace_program_t;

#define DACE_COMPILE_OPTIONS_VERSION 6
typedef struct dace_compile_options_t {
  uint32_t version;
  int32_t opt_level;     /* 0-3 (clamped) */
  int32_t fast_math;     /* 0/1: full fast-math (no NaNs/infinities, reassociation) */
  int32_t num_threads;   /* threads of this program's parallel maps (maps without their own
                            omp_num_threads); 0 = the runtime's default (OMP_NUM_THREADS) */
  const char* cache_dir; /* object cache; NULL = none. Fixed by the context's first compile. */
  const char* dump_dir;  /* NULL = none; else <dump_dir>/<name>.ll and .s are written */
  /* Version 2. The SDFG optimizer step: NULL or "" = compile the SDFG as given; else the
   * name of a registered pass or pipeline ("simplify"; dace_sdfg_transformation_is_pass
   * says which names are passes), run on a copy before validation (the caller's SDFG is
   * unchanged). An unknown or non-pass name is DACE_ERROR_NOT_FOUND / INVALID_ARGUMENT
   * naming it. The optimizer's name and libdace's version are part of the cache key. */
  const char* optimize;
  /* Version 3. The communicator of the program's MPI library nodes (the MPI plugin,
   * docs/mpi.md): the address of the host's MPI_Comm variable, passed as a pointer so that
   * this header needs no mpi.h (from mpi4py: MPI._addressof(comm)); NULL = MPI_COMM_WORLD.
   * It is read whenever the program state is initialised (the first call, and calls with new
   * symbol values), so the variable must outlive the program; the program duplicates the
   * communicator there (MPI_Comm_dup: collective) and uses only the duplicate. Not part of
   * the cache key; ignored by programs without MPI nodes. */
  const void* mpi_comm;
  /* Version 4. Tiered compilation: 1 (default) = the program is callable as soon as a
   * quickly compiled first tier (LLVM O0, fast instruction selection) is linked, while the
   * code at opt_level compiles on a background thread and replaces it between two calls
   * (a call runs entirely in one tier; results are the same except for the last bits of
   * vectorized math functions). The cache stores the optimized tier only. 0 = one compile
   * at opt_level before returning (versions 1 to 3). No tiers with opt_level 0, a
   * dump_dir or a cache hit. dace_program_release waits for a running background compile. */
  int32_t tiered;
  /* Version 4. 1 = return only once the optimized tier is in (benchmarks, AOT); its compile
   * error, if any, is returned (the program is not created). 0 (default) = do not wait. */
  int32_t wait_optimized;
  /* Version 5. 1 = emulated device (docs/cuda.md): GPU programs run their kernels on the
   * host, in-process (device memory is host memory, grid and block become loops, block
   * barriers are honoured), so they run and can be checked without a GPU or driver.
   * 0 (default) = kernels run on the GPU. DACE_CUDA_EMULATE=1 in the environment has the
   * same effect. Part of the cache key; ignored by programs without GPU code. */
  int32_t emulate_device;
  /* Version 5. 1 = run-time bounds checks, for debugging: before each memlet access (tasklet
   * connectors, copies, library-node and nested-SDFG operands, write-conflict resolutions)
   * the accessed index range of every dimension is checked against the container's shape;
   * an access outside it stops the call before anything is written out of bounds, and the
   * call returns DACE_ERROR_RUNTIME naming the memlet (state, edge, data, subset, dimension)
   * and the offending index. Memlets marked allow_oob are not checked. 0 (default) = no
   * checks: the generated code is exactly that of versions 1 to 4. Part of the cache key. */
  int32_t bounds_check;
  /* Version 6. GPU programs (docs/cuda.md "Streams and events"): the most CUDA streams the
   * independent device work of one state may run on at once (DaCe's
   * compiler.cuda.max_concurrent_streams). 0 (default) = the CUDA plugin's default (4);
   * 1 = all device work on the default stream, in order (the code of versions 1 to 5);
   * negative is DACE_ERROR_INVALID_ARGUMENT. Part of the cache key when not 0. */
  int32_t max_concurrent_streams;
} dace_compile_options_t;
#define DACE_COMPILE_OPTIONS_INIT { DACE_COMPILE_OPTIONS_VERSION, 3, 0, 0, NULL, NULL, NULL, NULL, 1, 0, 0, 0, 0 }
DACE_API dace_status_t dace_compile_options_init(dace_compile_options_t* options, uint32_t version);

/* Validates, lowers and JIT-compiles `sdfg` (which the program does not keep). The context
 * loads the CPU plugin on its first compile (the "plugin_path" option, else DACE_PLUGIN_PATH
 * and the plugin folder next to libdace); without it DACE_ERROR_PLUGIN_UNAVAILABLE.
 * With a cache_dir, the object is looked up under a key hashing the canonical SDFG, the
 * options, the target (triple, CPU, features), LLVM's and libdace's versions and the
 * plugins; a hit skips validation, lowering and code generation (it was checked when the
 * entry was written), a damaged entry is recompiled. Asking for dumps always compiles.
 * `options` may be NULL. */
DACE_API dace_status_t dace_program_compile(dace_program_t** out_program, dace_context_t* context,
                                            const dace_sdfg_t* sdfg, const dace_compile_options_t* options);
/* Ahead-of-time compilation (docs/aot.md): validates and lowers `sdfg` as
 * dace_program_compile does, then writes four files into `out_dir` (created if missing):
 * <name>.o (the object the JIT would link, for this host's CPU, position-independent,
 * byte-deterministic), lib<name>.a (that object as a static archive, deterministic too),
 * lib<name>.so (that object linked by the system's C compiler driver,
 * `cc` or $DACE_AOT_CC, needing only libdace_rt.so, the CPU runtime without LLVM, and the
 * vendor libraries it calls) and <name>.h (DaCe's ABI: __dace_init_<name>,
 * __program_<name>, __dace_exit_<name>, argument types and order in comments), <name> being
 * the SDFG's name. Each file is written under a temporary name and renamed, so a failure
 * leaves no partial file. Options used: opt_level, fast_math, num_threads, optimize,
 * bounds_check (cache_dir, dump_dir, tiers and mpi_comm are JIT matters). Errors:
 * DACE_ERROR_INVALID_ARGUMENT (a name that is no C identifier, NULL or empty out_dir),
 * DACE_ERROR_IO (out_dir cannot be created or written), DACE_ERROR_UNSUPPORTED (a program
 * calling another plugin's runtime, CUDA or MPI; argument types C cannot pass),
 * DACE_ERROR_COMPILE (the linker's output), DACE_ERROR_NOT_FOUND (libdace_rt.so missing next
 * to libdace), and those of dace_program_compile. `options` may be NULL. */
DACE_API dace_status_t dace_program_compile_aot(dace_context_t* context, const dace_sdfg_t* sdfg,
                                                const dace_compile_options_t* options, const char* out_dir);
/* Runs the program's exit code and unloads it. NULL is ignored. */
DACE_API void dace_program_release(dace_program_t* program);

/* Arguments in DaCe's order (arrays by name, then scalars and symbols by name). */
typedef enum dace_argument_kind_t {
  DACE_ARGUMENT_ARRAY = 0,
  DACE_ARGUMENT_SCALAR,
  DACE_ARGUMENT_SYMBOL,
  DACE_ARGUMENT_KIND_MAX_ENUM = 0x7FFFFFFF
} dace_argument_kind_t;
DACE_API dace_status_t dace_program_argument_count(int32_t* out_count, const dace_program_t* program);
/* `out_name` is borrowed from the program. `out_kind` is a dace_argument_kind_t. Any out
 * pointer may be NULL. Symbols of no declared type report DACE_INT64. An index outside
 * 0..count-1 is DACE_ERROR_NOT_FOUND; a NULL program DACE_ERROR_INVALID_ARGUMENT. */
DACE_API dace_status_t dace_program_argument_info(const char** out_name, int32_t* out_kind, dace_dtype_t* out_dtype,
                                                  const dace_program_t* program, int32_t index);

/* An array argument (DLPack-like). `shape` has `ndim` entries; `strides` (in elements) NULL
 * means C order. The data must hold the whole array; the caller keeps ownership. */
typedef struct dace_array_desc_t {
  void* data;
  dace_dtype_t dtype;
  int32_t ndim;
  const int64_t* shape;
  const int64_t* strides;
} dace_array_desc_t;

typedef enum dace_arg_kind_t {
  DACE_ARG_ARRAY = 0,   /* value.array */
  DACE_ARG_FLOAT,       /* value.f: a scalar argument of type float32 or float64 */
  DACE_ARG_INT,         /* value.i: a scalar argument of an integer or bool type (a value that
                           does not fit is an error), or of type float32/float64 (converted) */
  DACE_ARG_COMPLEX,     /* value.c[0] real, value.c[1] imaginary: a complex scalar */
  DACE_ARG_SYMBOL,      /* value.i: a symbol (DACE_ARG_INT is accepted for a symbol too) */
  DACE_ARG_KIND_MAX_ENUM = 0x7FFFFFFF
} dace_arg_kind_t;

typedef struct dace_arg_t {
  dace_arg_kind_t kind;
  union {
    dace_array_desc_t array;
    double f;
    int64_t i;
    double c[2];
  } value;
} dace_arg_t;

/* Calls the program. With `names` (count entries), arguments are matched by name in any
 * order; with names NULL, `args` are all arguments in DaCe's order (count must equal the
 * argument count). Symbols that equal a shape dimension of an array argument may be left
 * out (inferred); given ones must agree. Everything is checked before anything runs: a
 * name that is no argument of the program is DACE_ERROR_NOT_FOUND naming it; a missing or
 * duplicate argument, a wrong kind or dtype (named as DaCe names it, "float64"), a rank,
 * shape or stride that does not match the descriptor, a NULL data pointer, or a scalar that
 * does not fit its type is DACE_ERROR_INVALID_ARGUMENT naming the argument; nothing is
 * written on error. */
DACE_API dace_status_t dace_program_call(dace_program_t* program, const char* const* names, const dace_arg_t* args,
                                         int32_t count);

/* The extents of array argument `index` for the given symbol values (`symbol_count` pairs of
 * names and values; symbols the shape does not use are ignored). Two-call idiom: writes at
 * most `capacity` extents and always sets `out_ndim`. A shape that needs a symbol not given
 * is DACE_ERROR_NOT_FOUND naming it; a non-array argument DACE_ERROR_INVALID_ARGUMENT.
 * Bindings use it to allocate return arrays (`__return`, `__return_0`, ...). */
DACE_API dace_status_t dace_program_argument_shape(int64_t* out_shape, size_t capacity, size_t* out_ndim,
                                                   const dace_program_t* program, int32_t index,
                                                   const char* const* symbol_names, const int64_t* symbol_values,
                                                   int32_t symbol_count);

/* The element strides of array argument `index` for the given symbol values (the layout the
 * compiled code expects; same conventions and errors as dace_program_argument_shape). */
DACE_API dace_status_t dace_program_argument_strides(int64_t* out_strides, size_t capacity, size_t* out_ndim,
                                                     const dace_program_t* program, int32_t index,
                                                     const char* const* symbol_names, const int64_t* symbol_values,
                                                     int32_t symbol_count);

/* How long the compile that made a program took, in milliseconds. Set `version` to
 * DACE_COMPILE_STATS_VERSION before the call; fields of that version are written. */
#define DACE_COMPILE_STATS_VERSION 4
typedef struct dace_compile_stats_t {
  uint32_t version;
  int32_t cache_hit;        /* 1: the object came from the cache dir (lower/optimize/codegen skipped) */
  double validate_ms;       /* SDFG validation */
  double lower_ms;          /* SDFG -> LLVM IR */
  double optimize_ms;       /* LLVM pass pipeline (0 on a cache hit) */
  double jit_ms;            /* machine code + linking, or loading the cached object */
  double total_ms;          /* the whole dace_program_compile call */
  uint64_t ir_instructions; /* after optimization; 0 on a cache hit */
  uint64_t object_bytes;
  double transform_ms;      /* version 2: the SDFG optimizer step (options.optimize); 0 without */
  /* Version 3. With tiers, the fields above describe the first tier (total_ms is the time
   * until the program was callable) and the optimized_* fields the background compile. */
  double codegen_ms;        /* machine code (part of jit_ms) */
  double link_ms;           /* JIT linking (part of jit_ms) */
  double optimized_ms;      /* from the start of dace_program_compile until the optimized tier
                               was in; total_ms without tiers or on a cache hit; 0 while the
                               background compile runs or when it failed */
  double optimized_optimize_ms; /* the optimized tier's LLVM pass pipeline, machine code and */
  double optimized_codegen_ms;  /* linking; 0 without tiers */
  double optimized_link_ms;
  double swap_ms;           /* waiting for the running call, if any, and installing the new code */
  uint64_t lowered_instructions; /* LLVM IR instructions before optimization; 0 on a cache hit */
  uint64_t optimized_ir_instructions; /* the optimized tier's, after optimization */
  int32_t tiered;           /* 1: compiled with tiers */
  int32_t tier;             /* the code calls run now: 1 first tier, 2 optimized (or the only) */
  /* Version 4. Parallel code generation: the modules the lowered module was cut into and the
   * threads that compiled them (1 and 1 for a module too small to split; 0 and 0 on a cache
   * hit), for the first tier and for the optimized tier (equal to the first without tiers). */
  int32_t pieces;
  int32_t threads;
  int32_t optimized_pieces;
  int32_t optimized_threads;
} dace_compile_stats_t;
DACE_API dace_status_t dace_program_compile_stats(dace_compile_stats_t* out_stats, const dace_program_t* program);

/* PTX modules of a program's GPU kernels: the text `dace compile --ptx-out` writes as
 * <sdfg>.ptx, byte for byte. A program with GPU_Device maps (CUDA plugin) holds one module;
 * one without GPU kernels, or whose kernels run on the emulated device (DACE_CUDA_EMULATE),
 * holds none. `*out_count` receives how many it holds. */
DACE_API dace_status_t dace_program_ptx_count(size_t* out_count, const dace_program_t* program);
/* Module `index` (0-based) as borrowed text (NUL-terminated), and its length in bytes
 * without the NUL in `*out_size` (may be NULL). DACE_ERROR_NOT_FOUND when the program holds
 * no PTX or `index` is not below dace_program_ptx_count (the message says which). Safe to
 * call while another thread calls the program. */
DACE_API dace_status_t dace_program_ptx(const char** out_text, size_t* out_size, const dace_program_t* program,
                                        size_t index);

/* ------------------------------------------------------------------------------------ */
/* Transformations (the optimizer, docs/optimizer.md)                                    */
/* ------------------------------------------------------------------------------------ */

/* Transformations and passes have DaCe's names ("MapFusion", "StateFusion", "simplify"...).
 * Properties are a JSON object with DaCe's property names (NULL or "" = defaults); it may
 * also hold a location in DaCe's history form, {"cfg_id": 0, "state_id": 1,
 * "_subgraph": {"0": 4, "1": 6}, "expr_index": 0}: cfg_id indexes DaCe's cfg_list, state_id
 * and the _subgraph ids are DaCe's node ids (the position among the live elements, as a
 * saved file numbers them). A match returned by dace_sdfg_match_transformation or an entry
 * of dace_sdfg_history_json may be passed as the properties as it is ("type" and
 * "transformation" keys are accepted; the name must agree).
 * Every applied pattern transformation and every pass that changed something is appended to
 * the SDFG's history (DaCe's `transformation_hist`, saved and loaded with the SDFG).
 * Common errors: an unknown name is DACE_ERROR_NOT_FOUND (the message lists the known
 * names); properties that are no valid JSON DACE_ERROR_PARSE; no JSON object, an unknown
 * property or a value of the wrong type DACE_ERROR_INVALID_ARGUMENT naming it; a location
 * whose element does not exist, or where the transformation does not apply,
 * DACE_ERROR_INVALID_ARGUMENT naming the location, the element and the reason; an invalid
 * input SDFG DACE_ERROR_INVALID_SDFG. Calls that transform need a top-level SDFG (a borrowed
 * nested handle is DACE_ERROR_INVALID_ARGUMENT). On any error the SDFG is unchanged: the
 * steps run on a copy first, which must validate. Borrowed handles of nested SDFGs stay valid
 * where the steps keep their nodes (the steps are then replayed on the SDFG itself).
 * When the first step is recorded, the SDFG as it was before it is stored as well (DaCe's
 * `orig_sdfg`, saved and loaded with the SDFG), so that steps can be reverted. */

/* Runs DaCe's simplify pipeline (the passes libdace has; docs/optimizer.md) to a fixed point.
 * Its first pass, InlineSDFGs, removes the nested SDFGs it inlines: their borrowed handles end. */
DACE_API dace_status_t dace_sdfg_simplify(dace_sdfg_t* sdfg);

/* Target devices of dace_sdfg_auto_optimize. */
typedef enum dace_device_t {
  DACE_DEVICE_CPU = 0,
  DACE_DEVICE_GPU = 1,
  DACE_DEVICE_MAX_ENUM = 0x7FFFFFFF
} dace_device_t;
/* DaCe's auto_optimize for `device` (the registered pipeline "auto_optimize" for the CPU,
 * "auto_optimize_gpu" for DACE_DEVICE_GPU; docs/optimizer.md): simplify, loops to maps, map
 * collapse and fusion, for the GPU GPUTransformSDFG (data in GPU_Global, GPU_Device maps, copies
 * in and out) before the fusion; each step recorded in the history. The GPU pipeline needs no
 * GPU and no CUDA plugin (running the result does). `options_json`: NULL, "" or a JSON object;
 * no option is defined yet, so any key is DACE_ERROR_INVALID_ARGUMENT naming it. Another device
 * value is DACE_ERROR_INVALID_ARGUMENT. Same transactional rules as the calls below. */
DACE_API dace_status_t dace_sdfg_auto_optimize(dace_sdfg_t* sdfg, dace_device_t device, const char* options_json);
/* The registered transformations and passes, sorted by name. Thread-safe. */
DACE_API dace_status_t dace_sdfg_transformation_count(size_t* out_count);
/* Borrowed; `index` < count (else DACE_ERROR_NOT_FOUND). Thread-safe. */
DACE_API dace_status_t dace_sdfg_transformation_name(const char** out_name, size_t index);
/* 1 for a pass (applied to the whole SDFG, no matches or location), 0 for a pattern
 * transformation. Thread-safe. */
DACE_API dace_status_t dace_sdfg_transformation_is_pass(int32_t* out_is_pass, const char* name);
/* The legal matches of pattern transformation `name` (with the properties of `props_json`,
 * which must hold no location), in the canonical order, as borrowed JSON text: a list of
 * history entries {"type": "PatternTransformation", "transformation": name, "cfg_id",
 * "state_id", "_subgraph", "expr_index", <properties>}, one per line ("[]" when none). Reads
 * only, but counts as a mutating call for threading. A pass is DACE_ERROR_INVALID_ARGUMENT. */
DACE_API dace_status_t dace_sdfg_match_transformation(const char** out_matches_json, dace_sdfg_t* sdfg,
                                                      const char* name, const char* props_json);
/* Applies pattern transformation `name` once: at the location in `props_json`, else at its
 * first legal match (none: DACE_ERROR_NOT_FOUND naming it); a pass `name` runs once (no
 * location allowed). */
DACE_API dace_status_t dace_sdfg_apply_transformation(dace_sdfg_t* sdfg, const char* name, const char* props_json);
/* Applies pattern transformation `name` at its first legal match until none is left (DaCe's
 * apply_transformations_repeated); `*out_applied` (may be NULL) receives how often, 0 when it
 * never applied. No location allowed; a pass is DACE_ERROR_INVALID_ARGUMENT. */
DACE_API dace_status_t dace_sdfg_apply_transformation_repeated(int32_t* out_applied, dace_sdfg_t* sdfg,
                                                               const char* name, const char* props_json);
/* The SDFG's history as borrowed JSON text: a list of entries, one per line ("[]" when
 * none), in the form dace_sdfg_replay_history reads (entries DaCe wrote of other types are
 * left out). */
DACE_API dace_status_t dace_sdfg_history_json(const char** out_json, const dace_sdfg_t* sdfg);
/* Applies the entries of `history_json` (a list of entries, or one entry) in order, each
 * pattern entry at its recorded location, each pass entry run again; on the input the history
 * was recorded on, this reproduces the same SDFG bytes. Malformed JSON is DACE_ERROR_PARSE;
 * an entry of an unknown name DACE_ERROR_NOT_FOUND; an entry that no longer applies fails
 * with "history entry N (NAME): " and the reason, and nothing is applied. */
DACE_API dace_status_t dace_sdfg_replay_history(dace_sdfg_t* sdfg, const char* history_json);
/* Reverts the last `steps` entries of the history: the first n - steps entries are replayed
 * on the stored original (DaCe's `orig_sdfg`), so the SDFG becomes byte-identical to the
 * original with only those steps applied (reverting all n gives the original, without
 * history); also after saving and loading, and on files DaCe wrote with an original. Edits
 * made outside the history since the first step are not kept. 0 steps changes nothing.
 * Errors, the SDFG unchanged: `steps` larger than the history DACE_ERROR_INVALID_ARGUMENT; no
 * original stored DACE_ERROR_NOT_FOUND; an unreadable original DACE_ERROR_PARSE; an entry
 * that cannot be replayed DACE_ERROR_UNSUPPORTED or DACE_ERROR_NOT_FOUND (unknown name), or
 * one that no longer applies "history entry N (NAME): ..."; a borrowed nested handle
 * DACE_ERROR_INVALID_ARGUMENT. Borrowed handles of nested SDFGs obtained before become stale
 * (calls on them fail with DACE_ERROR_INVALID_ARGUMENT). */
DACE_API dace_status_t dace_sdfg_revert_history(dace_sdfg_t* sdfg, size_t steps);

/* ------------------------------------------------------------------------------------ */
/* Instrumentation (docs/instrumentation.md)                                             */
/* ------------------------------------------------------------------------------------ */

/* DaCe's `instrument` property, as DaCe's InstrumentationType name: "No_Instrumentation"
 * (the default) or "Timer". DaCe's other names ("PAPI_Counters", "LIKWID_CPU",
 * "LIKWID_GPU", "GPU_Events", "FPGA") are DACE_ERROR_UNSUPPORTED and any other text
 * DACE_ERROR_INVALID_ARGUMENT, both naming the element. Timers go on the SDFG (the whole
 * program, or a nested SDFG's body), on states, and on map/consume entries, tasklets, library
 * and nested-SDFG nodes; other nodes and blocks are DACE_ERROR_INVALID_ARGUMENT. Setting a
 * map entry sets its exit too. Files keep the property (it round-trips with DaCe), and a
 * compiled program of an instrumented SDFG writes a report per call (dace_program_last_report). */
DACE_API dace_status_t dace_sdfg_set_instrument(dace_sdfg_t* sdfg, const char* value);
DACE_API dace_status_t dace_sdfg_get_instrument(const char** out_value, const dace_sdfg_t* sdfg);
DACE_API dace_status_t dace_state_set_instrument(dace_sdfg_t* sdfg, dace_id_t state, const char* value);
DACE_API dace_status_t dace_state_get_instrument(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state);
DACE_API dace_status_t dace_node_set_instrument(dace_sdfg_t* sdfg, dace_id_t state, dace_id_t node,
                                                const char* value);
DACE_API dace_status_t dace_node_get_instrument(const char** out_value, const dace_sdfg_t* sdfg, dace_id_t state,
                                                dace_id_t node);
/* Sets Timer on a selection of elements of the SDFG and its nested SDFGs: "program" (the
 * root SDFG), "states", "maps" (map and consume entries), "nodes" (tasklets, library and
 * nested-SDFG nodes), a comma-separated list of these, "all", or "none" (removes every
 * timer). `*out_count` (may be NULL) receives how many elements it set. */
DACE_API dace_status_t dace_sdfg_instrument(int32_t* out_count, dace_sdfg_t* sdfg, const char* selection);
/* The report of the program's last call, in DaCe's instrumentation-report format (Chrome
 * trace events), as borrowed text, and the file it was written to (borrowed; "" when no file
 * was written). DACE_ERROR_NOT_FOUND when the program has no instrumented element or has not
 * been called. Where reports go: the context option "instrument_dir", else the environment
 * variable DACE_INSTRUMENT_DIR, else .dacecache/<sdfg name>/perf (as DaCe); the value "-"
 * writes no files. */
DACE_API dace_status_t dace_program_last_report(const char** out_json, const char** out_path,
                                                const dace_program_t* program);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LIBDACE_H */
