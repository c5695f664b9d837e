// The status codes include/libdace.h documents, one table row per (function, bad input):
// a NULL handle or required pointer and malformed input are DACE_ERROR_INVALID_ARGUMENT, a
// well-formed id or name that does not exist (an empty one too) is DACE_ERROR_NOT_FOUND, a
// new name that is no identifier DACE_ERROR_INVALID_ARGUMENT, a duplicate name
// DACE_ERROR_ALREADY_EXISTS, a malformed expression DACE_ERROR_PARSE; the message names the
// element or the bad argument, out-parameters are not written and the SDFG does not change
// (its saved JSON and hash are compared around every row by run_rows).
// Expected values come from the header's text, not from the implementation. Where the two
// disagreed, either the code or the header comment was fixed (see the commit messages).
//
// This file: the runner's entry points, the completeness check over the header, and the rows
// of status/option/context/lifecycle/I-O/symbol functions. The other tables are in
// capi_status_contract_{data,blocks,nodes,program,transform}.cpp (nodes holds the edge rows too).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capi_status_contract.h"

#ifndef LIBDACE_SOURCE_DIR
#define LIBDACE_SOURCE_DIR "."
#endif

namespace capi_contract {

// capi_status_contract_transform.cpp: the transformation functions.
std::vector<Row> rows_transform();
// capi_status_contract_instrument.cpp: the instrumentation functions.
std::vector<Row> rows_instrument();

std::vector<Row> rows_general() {
  return {
      // --- pictures (dace_sdfg_render): refusals come before the renderer is loaded.
      {"dace_sdfg_render", "NULL out_text",
       CONTRACT_CALL { return dace_sdfg_render(nullptr, f.sdfg, "svg"); }, DACE_ERROR_INVALID_ARGUMENT, {"out_text"}},
      {"dace_sdfg_render", "NULL sdfg",
       CONTRACT_CALL {
         char* out = nullptr;
         return dace_sdfg_render(&out, nullptr, "svg");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_render", "format that is neither svg nor html",
       CONTRACT_CALL {
         char* out = nullptr;
         dace_status_t s = dace_sdfg_render(&out, f.sdfg, "png");
         f.check(out == nullptr, "out_text must not be written");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"png"}},
      // --- status strings and owned-memory release: no failure, but documented NULL handling.
      {"dace_status_string", "value outside the enum",
       CONTRACT_CALL {
         f.check(std::strcmp(dace_status_string(static_cast<dace_status_t>(99)), "unknown status") == 0,
                 "dace_status_string(99) must be \"unknown status\"");
         return DACE_OK;
       },
       DACE_OK, {}},
      {"dace_string_free", "NULL (documented as fine)", CONTRACT_CALL { return dace_string_free(nullptr), DACE_OK; },
       DACE_OK, {}},
      {"dace_buffer_free", "NULL (documented as fine)", CONTRACT_CALL { return dace_buffer_free(nullptr), DACE_OK; },
       DACE_OK, {}},

      // --- option-struct initializers: NULL struct, unknown version (nothing written).
      {"dace_array_options_init", "NULL options",
       CONTRACT_CALL { return dace_array_options_init(nullptr, DACE_ARRAY_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options", "NULL"}},
      {"dace_array_options_init", "version 0",
       CONTRACT_CALL {
         dace_array_options_t o;
         std::memset(&o, 0xAB, sizeof o);
         dace_status_t s = dace_array_options_init(&o, 0);
         f.kept(o.transient == static_cast<int32_t>(0xABABABAB), "options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_array_options_t", "version 0"}},
      {"dace_map_options_init", "NULL options",
       CONTRACT_CALL { return dace_map_options_init(nullptr, DACE_MAP_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options"}},
      {"dace_map_options_init", "unknown version",
       CONTRACT_CALL {
         dace_map_options_t o;
         std::memset(&o, 0xAB, sizeof o);
         dace_status_t s = dace_map_options_init(&o, 77);
         f.kept(o.collapse == static_cast<int64_t>(0xABABABABABABABABull), "options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_map_options_t", "version 77"}},
      {"dace_memlet_options_init", "NULL options",
       CONTRACT_CALL { return dace_memlet_options_init(nullptr, DACE_MEMLET_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options"}},
      {"dace_memlet_options_init", "version 0",
       CONTRACT_CALL {
         dace_memlet_options_t o;
         std::memset(&o, 0xAB, sizeof o);
         dace_status_t s = dace_memlet_options_init(&o, 0);
         f.kept(o.dynamic == static_cast<int32_t>(0xABABABAB), "options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_memlet_options_t", "version 0"}},
      {"dace_save_options_init", "NULL options",
       CONTRACT_CALL { return dace_save_options_init(nullptr, DACE_SAVE_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options"}},
      {"dace_save_options_init", "version newer than the library",
       CONTRACT_CALL {
         dace_save_options_t o;
         std::memset(&o, 0xAB, sizeof o);
         dace_status_t s = dace_save_options_init(&o, DACE_SAVE_OPTIONS_VERSION + 1);
         f.kept(o.compact == static_cast<int32_t>(0xABABABAB), "options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_save_options_t", "version"}},
      {"dace_mapped_tasklet_options_init", "NULL options",
       CONTRACT_CALL { return dace_mapped_tasklet_options_init(nullptr, DACE_MAPPED_TASKLET_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options"}},
      {"dace_mapped_tasklet_options_init", "version 0",
       CONTRACT_CALL {
         dace_mapped_tasklet_options_t o;
         std::memset(&o, 0xAB, sizeof o);
         dace_status_t s = dace_mapped_tasklet_options_init(&o, 0);
         f.kept(o.external_edges == static_cast<int32_t>(0xABABABAB), "options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_mapped_tasklet_options_t", "version 0"}},
      {"dace_compile_options_init", "NULL options",
       CONTRACT_CALL { return dace_compile_options_init(nullptr, DACE_COMPILE_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options"}},
      {"dace_compile_options_init", "version 0",
       CONTRACT_CALL {
         dace_compile_options_t o;
         std::memset(&o, 0xAB, sizeof o);
         dace_status_t s = dace_compile_options_init(&o, 0);
         f.kept(o.opt_level == static_cast<int32_t>(0xABABABAB), "options");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_compile_options_t", "version 0"}},

      // --- context
      {"dace_context_create", "NULL out_context", CONTRACT_CALL { return dace_context_create(nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_context"}},
      {"dace_context_release", "NULL (ignored)", CONTRACT_CALL { return dace_context_release(nullptr), DACE_OK; },
       DACE_OK, {}},
      {"dace_context_set_option", "NULL context",
       CONTRACT_CALL { return dace_context_set_option(nullptr, "contract_key", "w"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"context"}},
      {"dace_context_set_option", "NULL key", CONTRACT_CALL { return dace_context_set_option(f.ctx, nullptr, "w"); },
       DACE_ERROR_INVALID_ARGUMENT, {"key"}},
      {"dace_context_set_option", "empty key", CONTRACT_CALL { return dace_context_set_option(f.ctx, "", "w"); },
       DACE_ERROR_INVALID_ARGUMENT, {"key"}},
      {"dace_context_get_option", "NULL out_value",
       CONTRACT_CALL { return dace_context_get_option(nullptr, f.ctx, "contract_key"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_value"}},
      {"dace_context_get_option", "NULL context",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_context_get_option(&v, nullptr, "contract_key");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"context"}},
      {"dace_context_get_option", "NULL key",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_context_get_option(&v, f.ctx, nullptr);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"key"}},
      {"dace_context_get_option", "key not set",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_context_get_option(&v, f.ctx, "no_such_key");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"no_such_key"}},

      // --- SDFG lifecycle
      {"dace_sdfg_create", "NULL out_sdfg", CONTRACT_CALL { return dace_sdfg_create(nullptr, "x"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_sdfg"}},
      {"dace_sdfg_create", "NULL name",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_create(&out, nullptr);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_create", "name that is no identifier",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_create(&out, "1 bad");
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"1 bad"}},
      {"dace_sdfg_create", "empty name", CONTRACT_CALL {
         dace_sdfg_t* out = nullptr;
         return dace_sdfg_create(&out, "");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_release", "NULL (ignored)", CONTRACT_CALL { return dace_sdfg_release(nullptr), DACE_OK; }, DACE_OK,
       {}},
      {"dace_sdfg_release", "borrowed nested handle (ignored; the handle stays valid)",
       CONTRACT_CALL {
         dace_sdfg_t* nested = nullptr;
         if (dace_node_get_nested_sdfg(&nested, f.sdfg, f.s1, f.nested) != DACE_OK) return DACE_ERROR_INTERNAL;
         dace_sdfg_release(nested);
         const char* name = nullptr;
         f.check(dace_sdfg_get_name(&name, nested) == DACE_OK && name && std::string(name) == "inner",
                 "the borrowed handle must stay valid after dace_sdfg_release");
         return DACE_OK;
       },
       DACE_OK, {}},
      {"dace_sdfg_clone", "NULL out_sdfg", CONTRACT_CALL { return dace_sdfg_clone(nullptr, f.sdfg); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_sdfg"}},
      {"dace_sdfg_clone", "NULL sdfg",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_clone(&out, nullptr);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},

      // --- loading
      {"dace_sdfg_load_file", "NULL out_sdfg", CONTRACT_CALL { return dace_sdfg_load_file(nullptr, "x.sdfg"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_sdfg"}},
      {"dace_sdfg_load_file", "NULL path",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_file(&out, nullptr);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"path"}},
      {"dace_sdfg_load_file", "file that does not exist (cannot be opened: DACE_ERROR_IO)",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_file(&out, "/nonexistent_contract_dir/missing.sdfg");
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_IO, {"missing.sdfg"}},
      {"dace_sdfg_load_file", "empty path",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_file(&out, "");
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"path"}},
      {"dace_sdfg_load_file", "a folder (cannot be read as a file)",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         const std::string dir = std::filesystem::temp_directory_path().string();
         dace_status_t s = dace_sdfg_load_file(&out, dir.c_str());
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_IO, {"directory"}},
      {"dace_sdfg_load_file", "malformed JSON",
       CONTRACT_CALL {
         auto path = std::filesystem::temp_directory_path() / "capi_contract_malformed.sdfg";
         std::ofstream(path) << "{\"type\": \"SDFG\", ";
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_file(&out, path.c_str());
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         std::filesystem::remove(path);
         return s;
       },
       DACE_ERROR_PARSE, {"capi_contract_malformed.sdfg"}},
      {"dace_sdfg_load_string", "NULL out_sdfg", CONTRACT_CALL { return dace_sdfg_load_string(nullptr, "{}"); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_sdfg"}},
      {"dace_sdfg_load_string", "NULL json",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_string(&out, nullptr);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"json"}},
      {"dace_sdfg_load_string", "malformed JSON (column given)",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_string(&out, "{\"type\": ");
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         f.check(dace_last_error_column() > 0, "a JSON parse error must give its column");
         return s;
       },
       DACE_ERROR_PARSE, {}},
      {"dace_sdfg_load_string", "empty string",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_string(&out, "");
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_PARSE, {}},
      {"dace_sdfg_load_buffer", "zero bytes",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_buffer(&out, "", 0);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_PARSE, {}},
      {"dace_sdfg_load_buffer", "NULL out_sdfg", CONTRACT_CALL { return dace_sdfg_load_buffer(nullptr, "{}", 2); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_sdfg"}},
      {"dace_sdfg_load_buffer", "NULL data with a size",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         dace_status_t s = dace_sdfg_load_buffer(&out, nullptr, 10);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"data"}},
      {"dace_sdfg_load_buffer", "bytes that are neither JSON nor gzip",
       CONTRACT_CALL {
         dace_sdfg_t* out = reinterpret_cast<dace_sdfg_t*>(&f);
         const char bytes[] = "\x01\x02garbage";
         dace_status_t s = dace_sdfg_load_buffer(&out, bytes, sizeof bytes - 1);
         f.kept(out == reinterpret_cast<dace_sdfg_t*>(&f), "out_sdfg");
         return s;
       },
       DACE_ERROR_PARSE, {}},

      // --- saving
      {"dace_sdfg_save_file", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_save_file(nullptr, "x.sdfg", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_save_file", "NULL path", CONTRACT_CALL { return dace_sdfg_save_file(f.sdfg, nullptr, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"path"}},
      {"dace_sdfg_save_file", "empty path", CONTRACT_CALL { return dace_sdfg_save_file(f.sdfg, "", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"path"}},
      {"dace_sdfg_save_file", "folder that does not exist",
       CONTRACT_CALL { return dace_sdfg_save_file(f.sdfg, "/nonexistent_contract_dir/out.sdfg", nullptr); },
       DACE_ERROR_IO, {"/nonexistent_contract_dir/out.sdfg"}},
      {"dace_sdfg_save_file", "save options of unknown version",
       CONTRACT_CALL {
         auto path = std::filesystem::temp_directory_path() / "capi_contract_never_written.sdfg";
         std::filesystem::remove(path);
         dace_save_options_t o = DACE_SAVE_OPTIONS_INIT;
         o.version = 0;
         dace_status_t s = dace_sdfg_save_file(f.sdfg, path.c_str(), &o);
         f.check(!std::filesystem::exists(path), "a failed save must not create the file");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_save_options_t", "version 0"}},
      {"dace_sdfg_to_json", "NULL out_json", CONTRACT_CALL { return dace_sdfg_to_json(nullptr, f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_json"}},
      {"dace_sdfg_to_json", "NULL sdfg",
       CONTRACT_CALL {
         char* out = const_cast<char*>(kStr);
         dace_status_t s = dace_sdfg_to_json(&out, nullptr, nullptr);
         f.kept(out == kStr, "out_json");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_to_json", "options->gzip set (must be 0)",
       CONTRACT_CALL {
         char* out = const_cast<char*>(kStr);
         dace_save_options_t o = DACE_SAVE_OPTIONS_INIT;
         o.gzip = 1;
         dace_status_t s = dace_sdfg_to_json(&out, f.sdfg, &o);
         f.kept(out == kStr, "out_json");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"gzip"}},
      {"dace_sdfg_to_json", "save options of unknown version",
       CONTRACT_CALL {
         char* out = const_cast<char*>(kStr);
         dace_save_options_t o = DACE_SAVE_OPTIONS_INIT;
         o.version = 0;
         dace_status_t s = dace_sdfg_to_json(&out, f.sdfg, &o);
         f.kept(out == kStr, "out_json");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_save_options_t", "version 0"}},
      {"dace_sdfg_save_buffer", "NULL out_data",
       CONTRACT_CALL {
         size_t size = kCount;
         dace_status_t s = dace_sdfg_save_buffer(nullptr, &size, f.sdfg, nullptr);
         f.kept(size == kCount, "out_size");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_data"}},
      {"dace_sdfg_save_buffer", "NULL out_size",
       CONTRACT_CALL {
         void* data = const_cast<char*>(kStr);
         dace_status_t s = dace_sdfg_save_buffer(&data, nullptr, f.sdfg, nullptr);
         f.kept(data == kStr, "out_data");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_size"}},
      {"dace_sdfg_save_buffer", "NULL sdfg",
       CONTRACT_CALL {
         void* data = const_cast<char*>(kStr);
         size_t size = kCount;
         dace_status_t s = dace_sdfg_save_buffer(&data, &size, nullptr, nullptr);
         f.kept(data == kStr && size == kCount, "out_data/out_size");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_save_buffer", "save options of unknown version",
       CONTRACT_CALL {
         void* data = const_cast<char*>(kStr);
         size_t size = kCount;
         dace_save_options_t o = DACE_SAVE_OPTIONS_INIT;
         o.version = 5;
         dace_status_t s = dace_sdfg_save_buffer(&data, &size, f.sdfg, &o);
         f.kept(data == kStr && size == kCount, "out_data/out_size");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_save_options_t", "version 5"}},

      // --- comparison, hash, validation
      {"dace_sdfg_equal", "NULL out_equal", CONTRACT_CALL { return dace_sdfg_equal(nullptr, nullptr, f.sdfg, f.sdfg); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_equal"}},
      {"dace_sdfg_equal", "NULL a",
       CONTRACT_CALL {
         int32_t eq = 5;
         const char* diff = kStr;
         dace_status_t s = dace_sdfg_equal(&eq, &diff, nullptr, f.sdfg);
         f.kept(eq == 5 && diff == kStr, "out_equal/out_difference");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_equal", "NULL b",
       CONTRACT_CALL {
         int32_t eq = 5;
         dace_status_t s = dace_sdfg_equal(&eq, nullptr, f.sdfg, nullptr);
         f.kept(eq == 5, "out_equal");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_hash", "NULL out_hash", CONTRACT_CALL { return dace_sdfg_hash(nullptr, f.sdfg); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_hash"}},
      {"dace_sdfg_hash", "NULL sdfg",
       CONTRACT_CALL {
         char hash[65];
         std::memset(hash, 'z', sizeof hash);
         dace_status_t s = dace_sdfg_hash(hash, nullptr);
         f.kept(hash[0] == 'z' && hash[64] == 'z', "out_hash");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_validate", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_validate(nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_validate", "tasklet input connector with no edge",
       CONTRACT_CALL {
         // A separate small SDFG: the fixture is not meant to validate.
         dace_sdfg_t* s = nullptr;
         dace_id_t st = -1, t = -1;
         if (dace_sdfg_create(&s, "bad") != DACE_OK || dace_sdfg_add_state(&st, s, DACE_ROOT_REGION, "st") != DACE_OK ||
             dace_state_add_tasklet(&t, s, st, "lonely", "a", "b", "b = a", DACE_LANGUAGE_PYTHON) != DACE_OK) {
           dace_sdfg_release(s);
           return DACE_ERROR_INTERNAL;
         }
         dace_status_t r = dace_sdfg_validate(s);
         dace_sdfg_release(s);
         return r;
       },
       DACE_ERROR_INVALID_SDFG, {"lonely"}},

      // --- name, free symbols, arguments
      {"dace_sdfg_get_name", "NULL out_name", CONTRACT_CALL { return dace_sdfg_get_name(nullptr, f.sdfg); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_name"}},
      {"dace_sdfg_get_name", "NULL sdfg",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_name(&v, nullptr);
         f.kept(v == kStr, "out_name");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_set_name", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_set_name(nullptr, "x"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_set_name", "NULL name", CONTRACT_CALL { return dace_sdfg_set_name(f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_set_name", "name that is no identifier", CONTRACT_CALL { return dace_sdfg_set_name(f.sdfg, "a-b"); },
       DACE_ERROR_INVALID_ARGUMENT, {"a-b"}},
      {"dace_sdfg_get_free_symbols", "NULL out_symbols",
       CONTRACT_CALL { return dace_sdfg_get_free_symbols(nullptr, f.sdfg); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_symbols"}},
      {"dace_sdfg_get_free_symbols", "NULL sdfg",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_free_symbols(&v, nullptr);
         f.kept(v == kStr, "out_symbols");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_arguments", "NULL out_arguments",
       CONTRACT_CALL { return dace_sdfg_get_arguments(nullptr, f.sdfg); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_arguments"}},
      {"dace_sdfg_get_arguments", "NULL sdfg",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_arguments(&v, nullptr);
         f.kept(v == kStr, "out_arguments");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},

      // --- symbols
      {"dace_sdfg_add_symbol", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_add_symbol(nullptr, "K", DACE_INT64); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_add_symbol", "NULL name", CONTRACT_CALL { return dace_sdfg_add_symbol(f.sdfg, nullptr, DACE_INT64); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_add_symbol", "empty name", CONTRACT_CALL { return dace_sdfg_add_symbol(f.sdfg, "", DACE_INT64); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_add_symbol", "duplicate symbol",
       CONTRACT_CALL {
         return dace_sdfg_add_symbol(f.sdfg, "N", DACE_INT64);
       },
       DACE_ERROR_ALREADY_EXISTS, {"\"N\""}},
      {"dace_sdfg_add_symbol", "name of a data container",
       CONTRACT_CALL { return dace_sdfg_add_symbol(f.sdfg, "A", DACE_INT64); }, DACE_ERROR_ALREADY_EXISTS, {"\"A\""}},
      {"dace_sdfg_add_symbol", "dtype out of range",
       CONTRACT_CALL { return dace_sdfg_add_symbol(f.sdfg, "K", static_cast<dace_dtype_t>(-3)); },
       DACE_ERROR_INVALID_ARGUMENT, {"dtype"}},
      {"dace_sdfg_remove_symbol", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_remove_symbol(nullptr, "N"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_remove_symbol", "NULL name", CONTRACT_CALL { return dace_sdfg_remove_symbol(f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_remove_symbol", "empty name", CONTRACT_CALL { return dace_sdfg_remove_symbol(f.sdfg, ""); },
       DACE_ERROR_NOT_FOUND, {"symbol \"\""}},
      {"dace_sdfg_get_symbol_dtype", "empty name",
       CONTRACT_CALL {
         dace_dtype_t dt = DACE_COMPLEX64;
         dace_status_t s = dace_sdfg_get_symbol_dtype(&dt, f.sdfg, "");
         f.kept(dt == DACE_COMPLEX64, "out_dtype");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"symbol \"\""}},
      {"dace_sdfg_set_name", "empty name", CONTRACT_CALL { return dace_sdfg_set_name(f.sdfg, ""); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_context_get_option", "empty key (not set)",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_context_get_option(&v, f.ctx, "");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"\""}},
      {"dace_sdfg_remove_symbol", "symbol that does not exist",
       CONTRACT_CALL { return dace_sdfg_remove_symbol(f.sdfg, "nosuchsym"); }, DACE_ERROR_NOT_FOUND, {"nosuchsym"}},
      {"dace_sdfg_symbol_count", "NULL out_count", CONTRACT_CALL { return dace_sdfg_symbol_count(nullptr, f.sdfg); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_sdfg_symbol_count", "NULL sdfg",
       CONTRACT_CALL {
         size_t n = kCount;
         dace_status_t s = dace_sdfg_symbol_count(&n, nullptr);
         f.kept(n == kCount, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_symbol", "NULL sdfg",
       CONTRACT_CALL {
         const char* name = kStr;
         dace_status_t s = dace_sdfg_get_symbol(&name, nullptr, nullptr, 0);
         f.kept(name == kStr, "out_name");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_symbol", "index >= count (NOT_FOUND, like dace_sdfg_get_arg_name)",
       CONTRACT_CALL {
         const char* name = kStr;
         dace_dtype_t dt = DACE_COMPLEX64;
         dace_status_t s = dace_sdfg_get_symbol(&name, &dt, f.sdfg, 17);
         f.kept(name == kStr && dt == DACE_COMPLEX64, "out_name/out_dtype");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"17"}},
      {"dace_sdfg_get_symbol_dtype", "NULL out_dtype",
       CONTRACT_CALL { return dace_sdfg_get_symbol_dtype(nullptr, f.sdfg, "N"); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_dtype"}},
      {"dace_sdfg_get_symbol_dtype", "NULL sdfg",
       CONTRACT_CALL {
         dace_dtype_t dt = DACE_COMPLEX64;
         dace_status_t s = dace_sdfg_get_symbol_dtype(&dt, nullptr, "N");
         f.kept(dt == DACE_COMPLEX64, "out_dtype");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_symbol_dtype", "NULL name",
       CONTRACT_CALL {
         dace_dtype_t dt = DACE_COMPLEX64;
         dace_status_t s = dace_sdfg_get_symbol_dtype(&dt, f.sdfg, nullptr);
         f.kept(dt == DACE_COMPLEX64, "out_dtype");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_get_symbol_dtype", "symbol that does not exist",
       CONTRACT_CALL {
         dace_dtype_t dt = DACE_COMPLEX64;
         dace_status_t s = dace_sdfg_get_symbol_dtype(&dt, f.sdfg, "nosuchsym");
         f.kept(dt == DACE_COMPLEX64, "out_dtype");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"nosuchsym"}},
  };
}

namespace {

// Functions with no failure mode and nothing to check against bad input: they take no
// argument (or only return static/per-thread data) and cannot fail.
const std::set<std::string> kExempt = {
    "dace_version",            // static string of the loaded library
    "dace_version_number",     // a constant
    "dace_last_error_message", // reads this thread's record
    "dace_last_error_status",
    "dace_last_error_line",
    "dace_last_error_column",
    "dace_clear_last_error",   // resets this thread's record
};

// Every `DACE_API <type> name(` declaration of the header (the #define lines excluded).
std::vector<std::string> header_functions() {
  std::ifstream in(std::string(LIBDACE_SOURCE_DIR) + "/include/libdace.h");
  std::stringstream ss;
  ss << in.rdbuf();
  std::vector<std::string> out;
  std::string line;
  static const std::regex decl(R"(^\s*DACE_API\s+[^(]*?\b(dace_[A-Za-z0-9_]+)\s*\()");
  while (std::getline(ss, line)) {
    std::smatch m;
    if (std::regex_search(line, m, decl)) out.push_back(m[1]);
  }
  return out;
}

std::vector<Row> all_rows() {
  std::vector<Row> all;
  for (auto* table : {rows_general, rows_data, rows_blocks, rows_nodes, rows_edges, rows_program, rows_transform,
                       rows_instrument}) {
    auto t = table();
    all.insert(all.end(), t.begin(), t.end());
  }
  return all;
}

}  // namespace

// Every DACE_API function of the header has at least one row, or a reason in kExempt.
TEST(CapiStatusContract, EveryHeaderFunctionHasARow) {
  const auto functions = header_functions();
  // The header declares well over a hundred functions; a parse that finds few is broken.
  ASSERT_GT(functions.size(), 100u) << "could not read the declarations of include/libdace.h";
  std::set<std::string> covered;
  for (const Row& r : all_rows()) covered.insert(r.function);
  std::string missing;
  for (const auto& fn : functions)
    if (!covered.count(fn) && !kExempt.count(fn)) missing += "  " + fn + "\n";
  EXPECT_TRUE(missing.empty()) << "DACE_API functions without a status-contract row:\n" << missing;
  // Rows and exemptions must name real functions (a typo would hide a missing row).
  const std::set<std::string> declared(functions.begin(), functions.end());
  for (const auto& name : covered) EXPECT_TRUE(declared.count(name)) << "row for undeclared function " << name;
  for (const auto& name : kExempt) EXPECT_TRUE(declared.count(name)) << "exemption of undeclared function " << name;
}

TEST(CapiStatusContract, General) { run_rows(rows_general()); }
TEST(CapiStatusContract, Data) { run_rows(rows_data()); }
TEST(CapiStatusContract, Blocks) { run_rows(rows_blocks()); }
TEST(CapiStatusContract, Nodes) { run_rows(rows_nodes()); }
TEST(CapiStatusContract, Edges) { run_rows(rows_edges()); }
TEST(CapiStatusContract, Program) { run_rows(rows_program()); }
TEST(CapiStatusContract, Transform) { run_rows(rows_transform()); }
TEST(CapiStatusContract, Instrument) { run_rows(rows_instrument()); }

}  // namespace capi_contract
