/*
 * libdace_plugin.h — the plugin handshake of libdace (C99, also valid C++).
 *
 * A plugin is a shared object that exports exactly one entry point,
 *
 *     const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version);
 *
 * libdace calls it with DACE_PLUGIN_ABI_VERSION. The plugin returns a pointer to a static
 * dace_plugin_info_t (or NULL when it cannot serve that ABI version). libdace then checks
 *   - abi_version  == DACE_PLUGIN_ABI_VERSION of the loading libdace,
 *   - build_id     == the build id baked into the loading libdace (plugins use libdace's
 *                     internal C++ API, which is unstable: a plugin runs only with the very
 *                     libdace build it was compiled against),
 * and calls register_fn once with an opaque registry. Through the internal C++ API
 * (dace::plugin::Registry::from_handle, src/plugin/registry.h) the plugin adds schedules,
 * storages, copies, library-node expansions, transformations, runtime symbols and vendor
 * libraries. register_fn returns 0 on success; any other value, or any failed registration,
 * makes the whole plugin unavailable and nothing of it is registered.
 *
 * Compatibility rule: the first member of dace_plugin_info_t is abi_version in every ABI
 * version, so a libdace can always read it before trusting the rest of the layout.
 *
 * Threading: libdace never calls dace_plugin_query or register_fn of one plugin from two
 * threads at once; register_fn may be called several times (once per registry).
 * Lifetime: plugins are never unloaded (they may own OpenMP or driver threads).
 */
#ifndef LIBDACE_PLUGIN_H
#define LIBDACE_PLUGIN_H

#include <stdint.h>

#if defined(_WIN32)
#define DACE_PLUGIN_EXPORT __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define DACE_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define DACE_PLUGIN_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever dace_plugin_info_t or the meaning of its members changes. */
#define DACE_PLUGIN_ABI_VERSION 1u

/* Name of the entry point, for dlsym. */
#define DACE_PLUGIN_QUERY_SYMBOL "dace_plugin_query"

/* Build id of the libdace a plugin is compiled against. CMake passes LIBDACE_BUILD_ID to
 * libdace and to every plugin target (cmake/plugins.cmake); a plugin writes
 * DACE_PLUGIN_BUILD_ID into its info struct. */
#if defined(LIBDACE_BUILD_ID)
#define DACE_PLUGIN_BUILD_ID LIBDACE_BUILD_ID
#else
#define DACE_PLUGIN_BUILD_ID "unconfigured"
#endif

/* Opaque registry handed to register_fn; only valid during that call. */
typedef struct dace_plugin_registry dace_plugin_registry_t;

/* Returns 0 on success. */
typedef int32_t (*dace_plugin_register_fn)(dace_plugin_registry_t* registry);

typedef struct dace_plugin_info_t {
  uint32_t abi_version;             /* DACE_PLUGIN_ABI_VERSION; always the first member */
  const char* name;                 /* unique, [A-Za-z0-9_.-]+, e.g. "cpu" */
  const char* version;              /* free-form, e.g. "0.1.0" */
  const char* build_id;             /* DACE_PLUGIN_BUILD_ID */
  dace_plugin_register_fn register_fn;
} dace_plugin_info_t;

typedef const dace_plugin_info_t* (*dace_plugin_query_fn)(uint32_t abi_version);

/* Implemented by each plugin, not by libdace. */
DACE_PLUGIN_EXPORT const dace_plugin_info_t* dace_plugin_query(uint32_t abi_version);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LIBDACE_PLUGIN_H */
