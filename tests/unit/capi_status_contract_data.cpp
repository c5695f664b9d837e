// Status-contract rows of the data-descriptor and arg-name functions (see
// capi_status_contract_test.cpp for the rules the rows check).
#include <string>
#include <vector>

#include "capi_status_contract.h"

namespace capi_contract {
namespace {

// The four rows every `(T* out, const dace_sdfg_t* sdfg, const char* name)` getter shares:
// NULL out, NULL sdfg, NULL name (INVALID_ARGUMENT) and a container that does not exist
// (NOT_FOUND); `out` keeps its sentinel on every failure.
template <class T, class Fn>
void name_getter_rows(std::vector<Row>& rows, const char* function, const char* out_name, Fn fn, T sentinel) {
  rows.push_back({function, "NULL out-parameter", [fn](Fixture& f) { return fn(nullptr, f.sdfg, "A"); },
                  DACE_ERROR_INVALID_ARGUMENT, {out_name}});
  rows.push_back({function, "NULL sdfg",
                  [fn, sentinel, out_name](Fixture& f) {
                    T v = sentinel;
                    dace_status_t s = fn(&v, nullptr, "A");
                    f.kept(v == sentinel, out_name);
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "NULL name",
                  [fn, sentinel, out_name](Fixture& f) {
                    T v = sentinel;
                    dace_status_t s = fn(&v, f.sdfg, nullptr);
                    f.kept(v == sentinel, out_name);
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"name"}});
  rows.push_back({function, "empty name (a name that does not exist)",
                  [fn, sentinel, out_name](Fixture& f) {
                    T v = sentinel;
                    dace_status_t s = fn(&v, f.sdfg, "");
                    f.kept(v == sentinel, out_name);
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"\"\""}});
  rows.push_back({function, "container that does not exist",
                  [fn, sentinel, out_name](Fixture& f) {
                    T v = sentinel;
                    dace_status_t s = fn(&v, f.sdfg, "nosuchdata");
                    f.kept(v == sentinel, out_name);
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"nosuchdata"}});
}

using AddFn = dace_status_t (*)(dace_sdfg_t*, const char*, dace_dtype_t, const char*, const dace_array_options_t*);

// Rows shared by add_array/transient/stream/view/reference: NULL sdfg, NULL and empty name,
// a duplicate of a container and of a symbol, dtype out of range, options of unknown
// version, storage out of range, malformed shape.
void add_rows(std::vector<Row>& rows, const char* function, AddFn fn) {
  rows.push_back({function, "NULL sdfg", [fn](Fixture&) { return fn(nullptr, "X", DACE_FLOAT64, "4", nullptr); },
                  DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}});
  rows.push_back({function, "NULL name", [fn](Fixture& f) { return fn(f.sdfg, nullptr, DACE_FLOAT64, "4", nullptr); },
                  DACE_ERROR_INVALID_ARGUMENT, {"name"}});
  rows.push_back({function, "empty name", [fn](Fixture& f) { return fn(f.sdfg, "", DACE_FLOAT64, "4", nullptr); },
                  DACE_ERROR_INVALID_ARGUMENT, {"name"}});
  rows.push_back({function, "name that is no identifier",
                  [fn](Fixture& f) { return fn(f.sdfg, "x y", DACE_FLOAT64, "4", nullptr); },
                  DACE_ERROR_INVALID_ARGUMENT, {"x y"}});
  rows.push_back({function, "duplicate container name",
                  [fn](Fixture& f) { return fn(f.sdfg, "B", DACE_FLOAT64, "4", nullptr); }, DACE_ERROR_ALREADY_EXISTS,
                  {"\"B\""}});
  rows.push_back({function, "name of a symbol",
                  [fn](Fixture& f) { return fn(f.sdfg, "N", DACE_FLOAT64, "4", nullptr); },
                  DACE_ERROR_ALREADY_EXISTS, {"\"N\""}});
  rows.push_back({function, "dtype out of range",
                  [fn](Fixture& f) { return fn(f.sdfg, "X", static_cast<dace_dtype_t>(999), "4", nullptr); },
                  DACE_ERROR_INVALID_ARGUMENT, {"dtype"}});
  rows.push_back({function, "malformed shape",
                  [fn](Fixture& f) { return fn(f.sdfg, "X", DACE_FLOAT64, "N +* 2", nullptr); }, DACE_ERROR_PARSE,
                  {"\"X\""}});
  rows.push_back({function, "array options of unknown version",
                  [fn](Fixture& f) {
                    dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
                    o.version = 0;
                    return fn(f.sdfg, "X", DACE_FLOAT64, "4", &o);
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"dace_array_options_t", "version 0"}});
  rows.push_back({function, "storage out of range",
                  [fn](Fixture& f) {
                    dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
                    o.storage = static_cast<dace_storage_t>(1234);
                    return fn(f.sdfg, "X", DACE_FLOAT64, "4", &o);
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"storage"}});
}

}  // namespace

std::vector<Row> rows_data() {
  std::vector<Row> rows = {
      // --- add_scalar: no shape; array-only fields must keep their defaults.
      {"dace_sdfg_add_scalar", "NULL sdfg",
       CONTRACT_CALL {
         return dace_sdfg_add_scalar(nullptr, "x", DACE_FLOAT64, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_add_scalar", "NULL name",
       CONTRACT_CALL { return dace_sdfg_add_scalar(f.sdfg, nullptr, DACE_FLOAT64, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_add_scalar", "duplicate name",
       CONTRACT_CALL {
         return dace_sdfg_add_scalar(f.sdfg, "s", DACE_FLOAT64, nullptr);
       },
       DACE_ERROR_ALREADY_EXISTS, {"\"s\""}},
      {"dace_sdfg_add_scalar", "dtype out of range",
       CONTRACT_CALL { return dace_sdfg_add_scalar(f.sdfg, "x", static_cast<dace_dtype_t>(-1), nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"dtype"}},
      {"dace_sdfg_add_scalar", "array-only field set (strides)",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.strides = "1";
         return dace_sdfg_add_scalar(f.sdfg, "x", DACE_FLOAT64, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"strides"}},
      {"dace_sdfg_add_scalar", "lifetime out of range",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.lifetime = static_cast<dace_lifetime_t>(66);
         return dace_sdfg_add_scalar(f.sdfg, "x", DACE_FLOAT64, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"lifetime"}},
      // --- add_array: the header says "at least one dimension".
      {"dace_sdfg_add_array", "NULL shape",
       CONTRACT_CALL {
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, nullptr, nullptr);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"shape"}},
      // "" is no expression list (the header asks for at least one dimension): a parse error.
      {"dace_sdfg_add_array", "empty shape (no dimension)",
       CONTRACT_CALL { return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "", nullptr); }, DACE_ERROR_PARSE,
       {"shape", "\"X\""}},
      {"dace_sdfg_add_array", "stream-only field set (buffer_size)",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.buffer_size = "4";
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"buffer_size"}},
      {"dace_sdfg_add_array", "strides of the wrong rank",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.strides = "4, 1";
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"strides"}},
      {"dace_sdfg_add_array", "malformed strides",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.strides = "1, (";
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4, 4", &o);
       },
       DACE_ERROR_PARSE, {"strides"}},
      {"dace_sdfg_add_array", "offset of the wrong rank",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.offset = "0, 0";
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"offset"}},
      {"dace_sdfg_add_array", "malformed total_size",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.total_size = "4 *";
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4", &o);
       },
       DACE_ERROR_PARSE, {"total_size"}},
      {"dace_sdfg_add_array", "negative alignment",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.alignment = -8;
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"alignment"}},
      {"dace_sdfg_add_stream", "malformed buffer_size",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.buffer_size = "((";
         return dace_sdfg_add_stream(f.sdfg, "X", DACE_FLOAT64, nullptr, &o);
       },
       DACE_ERROR_PARSE, {"buffer_size"}},
      // --- add_stream: array-only fields are rejected.
      {"dace_sdfg_add_stream", "array-only field set (alignment)",
       CONTRACT_CALL {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.alignment = 64;
         return dace_sdfg_add_stream(f.sdfg, "X", DACE_FLOAT64, nullptr, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"alignment"}},

      // --- remove_data
      {"dace_sdfg_remove_data", "NULL sdfg", CONTRACT_CALL { return dace_sdfg_remove_data(nullptr, "T"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_remove_data", "NULL name", CONTRACT_CALL { return dace_sdfg_remove_data(f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_sdfg_remove_data", "container that does not exist",
       CONTRACT_CALL { return dace_sdfg_remove_data(f.sdfg, "nosuchdata"); }, DACE_ERROR_NOT_FOUND, {"nosuchdata"}},
      {"dace_sdfg_remove_data", "empty name", CONTRACT_CALL { return dace_sdfg_remove_data(f.sdfg, ""); },
       DACE_ERROR_NOT_FOUND, {"\"\""}},
      {"dace_data_set_transient", "empty name", CONTRACT_CALL { return dace_data_set_transient(f.sdfg, "", 1); },
       DACE_ERROR_NOT_FOUND, {"\"\""}},
      {"dace_data_set_storage", "empty name",
       CONTRACT_CALL { return dace_data_set_storage(f.sdfg, "", DACE_STORAGE_CPU_HEAP); }, DACE_ERROR_NOT_FOUND,
       {"\"\""}},
      {"dace_data_set_lifetime", "empty name",
       CONTRACT_CALL { return dace_data_set_lifetime(f.sdfg, "", DACE_LIFETIME_SDFG); }, DACE_ERROR_NOT_FOUND,
       {"\"\""}},
      {"dace_data_set_shape", "empty name", CONTRACT_CALL { return dace_data_set_shape(f.sdfg, "", "4"); },
       DACE_ERROR_NOT_FOUND, {"\"\""}},
      {"dace_data_set_strides", "empty name", CONTRACT_CALL { return dace_data_set_strides(f.sdfg, "", "1"); },
       DACE_ERROR_NOT_FOUND, {"\"\""}},
      {"dace_sdfg_set_arg_names", "empty name",
       CONTRACT_CALL {
         const char* names[] = {""};
         return dace_sdfg_set_arg_names(f.sdfg, names, 1);
       },
       DACE_ERROR_NOT_FOUND, {"arg_names[0]"}},
      {"dace_data_get_property", "empty property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_data_get_property(&v, f.sdfg, "A", "");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"\"A\""}},
      {"dace_sdfg_remove_data", "container still used by an access node",
       CONTRACT_CALL { return dace_sdfg_remove_data(f.sdfg, "A"); }, DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}},

      // --- data_count / get_data_name
      {"dace_sdfg_data_count", "NULL out_count", CONTRACT_CALL { return dace_sdfg_data_count(nullptr, f.sdfg); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_sdfg_data_count", "NULL sdfg",
       CONTRACT_CALL {
         size_t n = kCount;
         dace_status_t s = dace_sdfg_data_count(&n, nullptr);
         f.kept(n == kCount, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_data_name", "NULL out_name",
       CONTRACT_CALL {
         return dace_sdfg_get_data_name(nullptr, f.sdfg, 0);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_name"}},
      {"dace_sdfg_get_data_name", "NULL sdfg",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_data_name(&v, nullptr, 0);
         f.kept(v == kStr, "out_name");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_data_name", "index >= count (NOT_FOUND, like dace_sdfg_get_arg_name)",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_data_name(&v, f.sdfg, 99);
         f.kept(v == kStr, "out_name");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"99"}},

      // --- arg names: on error the list is unchanged (the JSON check covers it).
      {"dace_sdfg_set_arg_names", "NULL sdfg",
       CONTRACT_CALL {
         const char* names[] = {"A"};
         return dace_sdfg_set_arg_names(nullptr, names, 1);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_set_arg_names", "NULL names with a count",
       CONTRACT_CALL { return dace_sdfg_set_arg_names(f.sdfg, nullptr, 2); }, DACE_ERROR_INVALID_ARGUMENT, {"names"}},
      {"dace_sdfg_set_arg_names", "NULL entry",
       CONTRACT_CALL {
         const char* names[] = {"A", nullptr};
         return dace_sdfg_set_arg_names(f.sdfg, names, 2);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"NULL"}},
      {"dace_sdfg_set_arg_names", "name that does not exist",
       CONTRACT_CALL {
         const char* names[] = {"A", "nosuchdata"};
         return dace_sdfg_set_arg_names(f.sdfg, names, 2);
       },
       DACE_ERROR_NOT_FOUND, {"nosuchdata"}},
      {"dace_sdfg_set_arg_names", "transient",
       CONTRACT_CALL {
         const char* names[] = {"T"};
         return dace_sdfg_set_arg_names(f.sdfg, names, 1);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"T\""}},
      {"dace_sdfg_set_arg_names", "duplicate",
       CONTRACT_CALL {
         const char* names[] = {"A", "B", "A"};
         return dace_sdfg_set_arg_names(f.sdfg, names, 3);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}},
      {"dace_sdfg_arg_name_count", "NULL out_count",
       CONTRACT_CALL {
         return dace_sdfg_arg_name_count(nullptr, f.sdfg);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"out_count"}},
      {"dace_sdfg_arg_name_count", "NULL sdfg",
       CONTRACT_CALL {
         size_t n = kCount;
         dace_status_t s = dace_sdfg_arg_name_count(&n, nullptr);
         f.kept(n == kCount, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_arg_name", "NULL out_name", CONTRACT_CALL { return dace_sdfg_get_arg_name(nullptr, f.sdfg, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_name"}},
      {"dace_sdfg_get_arg_name", "NULL sdfg",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_arg_name(&v, nullptr, 0);
         f.kept(v == kStr, "out_name");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_get_arg_name", "index >= count",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_sdfg_get_arg_name(&v, f.sdfg, 3);
         f.kept(v == kStr, "out_name");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"3"}},

      // --- get_property: a property the kind lacks is NOT_FOUND.
      {"dace_data_get_property", "NULL property",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_data_get_property(&v, f.sdfg, "A", nullptr);
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"property"}},
      {"dace_data_get_property", "property the kind lacks (buffer_size of an Array)",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_data_get_property(&v, f.sdfg, "A", "buffer_size");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"buffer_size", "\"A\""}},
      {"dace_data_get_property", "property of no kind",
       CONTRACT_CALL {
         const char* v = kStr;
         dace_status_t s = dace_data_get_property(&v, f.sdfg, "A", "colour");
         f.kept(v == kStr, "out_value");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"colour"}},

      // --- setters
      {"dace_data_set_transient", "NULL sdfg", CONTRACT_CALL { return dace_data_set_transient(nullptr, "A", 1); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_data_set_transient", "NULL name", CONTRACT_CALL { return dace_data_set_transient(f.sdfg, nullptr, 1); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_data_set_transient", "container that does not exist",
       CONTRACT_CALL {
         return dace_data_set_transient(f.sdfg, "nosuchdata", 1);
       }, DACE_ERROR_NOT_FOUND, {"nosuchdata"}},
      {"dace_data_set_storage", "NULL sdfg",
       CONTRACT_CALL {
         return dace_data_set_storage(nullptr, "A", DACE_STORAGE_CPU_HEAP);
       }, DACE_ERROR_INVALID_ARGUMENT,
       {"sdfg"}},
      {"dace_data_set_storage", "NULL name",
       CONTRACT_CALL { return dace_data_set_storage(f.sdfg, nullptr, DACE_STORAGE_CPU_HEAP); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_data_set_storage", "container that does not exist",
       CONTRACT_CALL { return dace_data_set_storage(f.sdfg, "nosuchdata", DACE_STORAGE_CPU_HEAP); },
       DACE_ERROR_NOT_FOUND, {"nosuchdata"}},
      {"dace_data_set_storage", "storage out of range",
       CONTRACT_CALL { return dace_data_set_storage(f.sdfg, "A", static_cast<dace_storage_t>(500)); },
       DACE_ERROR_INVALID_ARGUMENT, {"storage"}},
      {"dace_data_set_lifetime", "NULL sdfg",
       CONTRACT_CALL { return dace_data_set_lifetime(nullptr, "A", DACE_LIFETIME_SDFG); }, DACE_ERROR_INVALID_ARGUMENT,
       {"sdfg"}},
      {"dace_data_set_lifetime", "NULL name",
       CONTRACT_CALL { return dace_data_set_lifetime(f.sdfg, nullptr, DACE_LIFETIME_SDFG); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_data_set_lifetime", "container that does not exist",
       CONTRACT_CALL { return dace_data_set_lifetime(f.sdfg, "nosuchdata", DACE_LIFETIME_SDFG); },
       DACE_ERROR_NOT_FOUND, {"nosuchdata"}},
      {"dace_data_set_lifetime", "lifetime out of range",
       CONTRACT_CALL { return dace_data_set_lifetime(f.sdfg, "A", static_cast<dace_lifetime_t>(-7)); },
       DACE_ERROR_INVALID_ARGUMENT, {"lifetime"}},
      {"dace_data_set_shape", "NULL sdfg", CONTRACT_CALL { return dace_data_set_shape(nullptr, "A", "8"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_data_set_shape", "NULL name", CONTRACT_CALL { return dace_data_set_shape(f.sdfg, nullptr, "8"); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_data_set_shape", "NULL shape", CONTRACT_CALL { return dace_data_set_shape(f.sdfg, "A", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"shape"}},
      {"dace_data_set_shape", "container that does not exist",
       CONTRACT_CALL { return dace_data_set_shape(f.sdfg, "nosuchdata", "8"); }, DACE_ERROR_NOT_FOUND, {"nosuchdata"}},
      {"dace_data_set_shape", "malformed shape", CONTRACT_CALL { return dace_data_set_shape(f.sdfg, "A", "8 +"); },
       DACE_ERROR_PARSE, {"\"A\""}},
      {"dace_data_set_shape", "a Scalar (has no shape to set)",
       CONTRACT_CALL { return dace_data_set_shape(f.sdfg, "s", "4"); }, DACE_ERROR_INVALID_ARGUMENT, {"\"s\""}},
      {"dace_data_set_shape", "empty shape", CONTRACT_CALL { return dace_data_set_shape(f.sdfg, "A", ""); },
       DACE_ERROR_PARSE, {"\"A\"", "shape"}},
      {"dace_data_set_transient", "name of a symbol (no container)",
       CONTRACT_CALL { return dace_data_set_transient(f.sdfg, "N", 1); }, DACE_ERROR_NOT_FOUND, {"\"N\""}},
      {"dace_data_set_strides", "a Scalar has no strides",
       CONTRACT_CALL { return dace_data_set_strides(f.sdfg, "s", "1"); }, DACE_ERROR_INVALID_ARGUMENT, {"\"s\""}},
      {"dace_data_set_strides", "NULL sdfg", CONTRACT_CALL { return dace_data_set_strides(nullptr, "A", "1"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_data_set_strides", "NULL name", CONTRACT_CALL { return dace_data_set_strides(f.sdfg, nullptr, "1"); },
       DACE_ERROR_INVALID_ARGUMENT, {"name"}},
      {"dace_data_set_strides", "container that does not exist",
       CONTRACT_CALL { return dace_data_set_strides(f.sdfg, "nosuchdata", "1"); }, DACE_ERROR_NOT_FOUND,
       {"nosuchdata"}},
      {"dace_data_set_strides", "rank differs from the shape",
       CONTRACT_CALL { return dace_data_set_strides(f.sdfg, "A", "N, 1"); }, DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}},
      {"dace_data_set_strides", "a Stream has no strides",
       CONTRACT_CALL { return dace_data_set_strides(f.sdfg, "S", "1"); }, DACE_ERROR_INVALID_ARGUMENT, {"\"S\""}},
      {"dace_data_set_strides", "malformed strides", CONTRACT_CALL { return dace_data_set_strides(f.sdfg, "A", "(1"); },
       DACE_ERROR_PARSE, {"\"A\""}},
  };
  add_rows(rows, "dace_sdfg_add_array", dace_sdfg_add_array);
  add_rows(rows, "dace_sdfg_add_transient", dace_sdfg_add_transient);
  add_rows(rows, "dace_sdfg_add_stream", dace_sdfg_add_stream);
  add_rows(rows, "dace_sdfg_add_view", dace_sdfg_add_view);
  add_rows(rows, "dace_sdfg_add_reference", dace_sdfg_add_reference);
  name_getter_rows<dace_data_kind_t>(rows, "dace_data_get_kind", "out_kind", dace_data_get_kind, DACE_DATA_REFERENCE);
  name_getter_rows<dace_dtype_t>(rows, "dace_data_get_dtype", "out_dtype", dace_data_get_dtype, DACE_COMPLEX64);
  name_getter_rows<int32_t>(rows, "dace_data_get_transient", "out_transient", dace_data_get_transient, 77);
  name_getter_rows<dace_storage_t>(rows, "dace_data_get_storage", "out_storage", dace_data_get_storage,
                                   DACE_STORAGE_SNITCH_SSR);
  name_getter_rows<dace_lifetime_t>(rows, "dace_data_get_lifetime", "out_lifetime", dace_data_get_lifetime,
                                    DACE_LIFETIME_EXTERNAL);
  name_getter_rows<const char*>(
      rows, "dace_data_get_property", "out_value",
      [](const char** out, const dace_sdfg_t* s, const char* name) {
        return dace_data_get_property(out, s, name, "dtype");
      },
      kStr);
  return rows;
}

}  // namespace capi_contract
