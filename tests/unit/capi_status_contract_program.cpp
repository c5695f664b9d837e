// Status-contract rows of the compiled-program functions. Rows marked needs_program use the
// shared axpb program (arguments A, B: float64[N], scalar s, symbol N) and are skipped when
// the CPU plugin cannot be loaded.
#include <cstring>
#include <string>
#include <vector>

#include "capi_status_contract.h"

namespace capi_contract {
namespace {

dace_arg_t array_arg(void* data, dace_dtype_t dtype, int64_t* shape) {
  dace_arg_t a{};
  a.kind = DACE_ARG_ARRAY;
  a.value.array = {data, dtype, 1, shape, nullptr};
  return a;
}

// A call's arrays: B must stay as it was after any failed call ("nothing is written").
struct CallData {
  double a[4] = {1, 2, 3, 4};
  double b[4] = {-1, -1, -1, -1};
  float af[4] = {1, 2, 3, 4};
  int64_t shape[1] = {4};
  int64_t short_shape[1] = {3};
  bool b_untouched() const {
    for (double v : b)
      if (v != -1) return false;
    return true;
  }
};

dace_status_t call_named(Fixture& f, CallData& d, const std::vector<const char*>& names,
                         const std::vector<dace_arg_t>& args) {
  dace_status_t s = dace_program_call(f.program, names.data(), args.data(), static_cast<int32_t>(args.size()));
  f.kept(d.b_untouched(), "array B");
  return s;
}

dace_arg_t float_arg(double v) {
  dace_arg_t a{};
  a.kind = DACE_ARG_FLOAT;
  a.value.f = v;
  return a;
}

// Rows shared by dace_program_argument_shape and _strides (documented as having the same
// conventions and errors).
// `shape_needs_symbol`: the 1-D axpb arrays have shape [N] but strides [1], so only the shape
// query needs N.
template <class Fn>
void extent_rows(std::vector<Row>& rows, const char* function, const char* out_name, Fn fn, bool shape_needs_symbol) {
  // Two-call idiom: a NULL buffer is only allowed with capacity 0.
  rows.push_back({function, "NULL out buffer with a capacity",
                  [fn](Fixture& f) {
                    const char* names[] = {"N"};
                    int64_t values[] = {4};
                    size_t nd = kCount;
                    dace_status_t s = fn(nullptr, 2, &nd, f.program, f.array_index, names, values, 1);
                    f.kept(nd == kCount, "out_ndim");
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {out_name}, true});
  rows.push_back({function, "NULL program",
                  [fn](Fixture&) {
                    size_t nd = 0;
                    return fn(nullptr, 0, &nd, nullptr, 0, nullptr, nullptr, 0);
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"program"}});
  rows.push_back({function, "NULL out_ndim",
                  [fn](Fixture& f) {
                    const char* names[] = {"N"};
                    int64_t values[] = {4};
                    return fn(nullptr, 0, nullptr, f.program, f.array_index, names, values, 1);
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"out_ndim"}, true});
  rows.push_back({function, "index out of range",
                  [fn](Fixture& f) {
                    size_t nd = kCount;
                    dace_status_t s = fn(nullptr, 0, &nd, f.program, 99, nullptr, nullptr, 0);
                    f.kept(nd == kCount, "out_ndim");
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"99"}, true});
  rows.push_back({function, "scalar argument (not an array)",
                  [fn](Fixture& f) {
                    size_t nd = kCount;
                    dace_status_t s = fn(nullptr, 0, &nd, f.program, f.scalar_index, nullptr, nullptr, 0);
                    f.kept(nd == kCount, "out_ndim");
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"\"s\""}, true});
  if (shape_needs_symbol)
    rows.push_back({function, "symbol the shape needs not given",
                  [fn](Fixture& f) {
                    int64_t out[1] = {-5};
                    size_t nd = kCount;
                    dace_status_t s = fn(out, 1, &nd, f.program, f.array_index, nullptr, nullptr, 0);
                    f.kept(nd == kCount && out[0] == -5, "out_ndim/out");
                    return s;
                  },
                  DACE_ERROR_NOT_FOUND, {"\"N\""}, true});
  rows.push_back({function, "negative symbol_count",
                  [fn](Fixture& f) {
                    size_t nd = kCount;
                    dace_status_t s = fn(nullptr, 0, &nd, f.program, f.array_index, nullptr, nullptr, -1);
                    f.kept(nd == kCount, "out_ndim");
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"symbol_count"}, true});
  rows.push_back({function, "NULL symbol_names with a count",
                  [fn](Fixture& f) {
                    int64_t values[] = {4};
                    size_t nd = kCount;
                    dace_status_t s = fn(nullptr, 0, &nd, f.program, f.array_index, nullptr, values, 1);
                    f.kept(nd == kCount, "out_ndim");
                    return s;
                  },
                  DACE_ERROR_INVALID_ARGUMENT, {"symbol_names"}, true});
}

}  // namespace

std::vector<Row> rows_program() {
  std::vector<Row> rows = {
      {"dace_program_compile", "NULL out_program",
       CONTRACT_CALL { return dace_program_compile(nullptr, f.ctx, f.sdfg, nullptr); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_program"}},
      {"dace_program_compile", "NULL context",
       CONTRACT_CALL {
         dace_program_t* p = reinterpret_cast<dace_program_t*>(&f);
         dace_status_t s = dace_program_compile(&p, nullptr, f.sdfg, nullptr);
         f.kept(p == reinterpret_cast<dace_program_t*>(&f), "out_program");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"context"}},
      {"dace_program_compile", "NULL sdfg",
       CONTRACT_CALL {
         dace_program_t* p = reinterpret_cast<dace_program_t*>(&f);
         dace_status_t s = dace_program_compile(&p, f.ctx, nullptr, nullptr);
         f.kept(p == reinterpret_cast<dace_program_t*>(&f), "out_program");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_program_compile", "compile options of unknown version",
       CONTRACT_CALL {
         dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
         o.version = 9;
         dace_program_t* p = reinterpret_cast<dace_program_t*>(&f);
         dace_status_t s = dace_program_compile(&p, f.ctx, f.sdfg, &o);
         f.kept(p == reinterpret_cast<dace_program_t*>(&f), "out_program");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_compile_options_t", "version 9"}},
      {"dace_program_compile", "SDFG that does not validate",
       CONTRACT_CALL {
         // The fixture's library node has unconnected connectors: validation fails first.
         dace_program_t* p = reinterpret_cast<dace_program_t*>(&f);
         dace_status_t s = dace_program_compile(&p, f.ctx, f.sdfg, nullptr);
         f.kept(p == reinterpret_cast<dace_program_t*>(&f), "out_program");
         return s;
       },
       DACE_ERROR_INVALID_SDFG, {"contract"}, true},
      {"dace_program_compile_aot", "NULL context",
       CONTRACT_CALL { return dace_program_compile_aot(nullptr, f.sdfg, nullptr, "/nonexistent/aot"); },
       DACE_ERROR_INVALID_ARGUMENT, {"context"}},
      {"dace_program_compile_aot", "NULL sdfg",
       CONTRACT_CALL { return dace_program_compile_aot(f.ctx, nullptr, nullptr, "/nonexistent/aot"); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_program_compile_aot", "NULL out_dir",
       CONTRACT_CALL { return dace_program_compile_aot(f.ctx, f.sdfg, nullptr, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_dir"}},
      {"dace_program_compile_aot", "compile options of unknown version",
       CONTRACT_CALL {
         dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
         o.version = 9;
         return dace_program_compile_aot(f.ctx, f.sdfg, &o, "/nonexistent/aot");
       },
       DACE_ERROR_INVALID_ARGUMENT, {"version"}},
      {"dace_program_compile_aot", "SDFG that does not validate (nothing written)",
       CONTRACT_CALL { return dace_program_compile_aot(f.ctx, f.sdfg, nullptr, "/nonexistent/aot"); },
       DACE_ERROR_INVALID_SDFG, {"contract"}, true},
      {"dace_program_release", "NULL (ignored)", CONTRACT_CALL { return dace_program_release(nullptr), DACE_OK; },
       DACE_OK, {}},
      {"dace_program_argument_count", "NULL out_count",
       CONTRACT_CALL { return dace_program_argument_count(nullptr, f.program); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_count"}, true},
      {"dace_program_argument_count", "NULL program",
       CONTRACT_CALL {
         int32_t n = 55;
         dace_status_t s = dace_program_argument_count(&n, nullptr);
         f.kept(n == 55, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"program"}},
      {"dace_program_argument_info", "index out of range",
       CONTRACT_CALL {
         const char* name = kStr;
         int32_t kind = 55;
         dace_dtype_t dt = DACE_COMPLEX64;
         dace_status_t s = dace_program_argument_info(&name, &kind, &dt, f.program, 99);
         f.kept(name == kStr && kind == 55 && dt == DACE_COMPLEX64, "out_name/out_kind/out_dtype");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"99", "out of range"}, true},
      {"dace_program_argument_info", "negative index",
       CONTRACT_CALL { return dace_program_argument_info(nullptr, nullptr, nullptr, f.program, -1); },
       DACE_ERROR_NOT_FOUND, {"-1"}, true},
      {"dace_program_argument_info", "NULL program",
       CONTRACT_CALL { return dace_program_argument_info(nullptr, nullptr, nullptr, nullptr, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"program"}},

      // --- call: everything is checked before anything runs; B is never written on error.
      {"dace_program_call", "NULL program",
       CONTRACT_CALL { return dace_program_call(nullptr, nullptr, nullptr, 0); }, DACE_ERROR_INVALID_ARGUMENT,
       {"program"}},
      {"dace_program_call", "NULL args with a count",
       CONTRACT_CALL { return dace_program_call(f.program, nullptr, nullptr, 3); }, DACE_ERROR_INVALID_ARGUMENT,
       {"args"}, true},
      {"dace_program_call", "positional call with the wrong count",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t args[1] = {array_arg(d.a, DACE_FLOAT64, d.shape)};
         dace_status_t s = dace_program_call(f.program, nullptr, args, 1);
         f.kept(d.b_untouched(), "array B");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"positional"}, true},
      {"dace_program_call", "negative count",
       CONTRACT_CALL { return dace_program_call(f.program, nullptr, nullptr, -1); }, DACE_ERROR_INVALID_ARGUMENT,
       {"count"}, true},
      {"dace_program_call", "array of the wrong rank",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t a = array_arg(d.a, DACE_FLOAT64, d.shape);
         const int64_t shape2[2] = {2, 2};
         a.value.array.ndim = 2;
         a.value.array.shape = shape2;
         return call_named(f, d, {"A", "B", "s"}, {a, array_arg(d.b, DACE_FLOAT64, d.shape), float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}, true},
      {"dace_program_call", "negative rank",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t a = array_arg(d.a, DACE_FLOAT64, d.shape);
         a.value.array.ndim = -1;
         return call_named(f, d, {"A", "B", "s"}, {a, array_arg(d.b, DACE_FLOAT64, d.shape), float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "rank"}, true},
      {"dace_program_call", "complex value for a float64 scalar",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t c{};
         c.kind = DACE_ARG_COMPLEX;
         c.value.c[0] = 1;
         c.value.c[1] = 2;
         return call_named(f, d, {"A", "B", "s"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape), c});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"s\""}, true},
      {"dace_program_call", "symbol that disagrees with the shapes",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t n{};
         n.kind = DACE_ARG_SYMBOL;
         n.value.i = 5;
         return call_named(f, d, {"A", "B", "s", "N"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1), n});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "symbol N"}, true},
      {"dace_program_call", "symbol given as a float scalar (wrong kind)",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s", "N"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1), float_arg(4)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"N\""}, true},
      {"dace_program_call", "strides that do not match the descriptor",
       CONTRACT_CALL {
         CallData d;
         const int64_t strides[1] = {2};
         const int64_t half[1] = {2};
         dace_arg_t a = array_arg(d.a, DACE_FLOAT64, d.shape);
         a.value.array.shape = half;
         a.value.array.strides = strides;
         dace_arg_t b = array_arg(d.b, DACE_FLOAT64, d.shape);
         b.value.array.shape = half;
         return call_named(f, d, {"A", "B", "s"}, {a, b, float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "stride"}, true},
      {"dace_program_call", "NULL shape pointer",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t a = array_arg(d.a, DACE_FLOAT64, d.shape);
         a.value.array.shape = nullptr;
         return call_named(f, d, {"A", "B", "s"}, {a, array_arg(d.b, DACE_FLOAT64, d.shape), float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}, true},
      {"dace_program_call", "name that is no argument",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s", "nope"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1), float_arg(2)});
       },
       DACE_ERROR_NOT_FOUND, {"nope"}, true},
      {"dace_program_call", "empty name (no argument)",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s", ""},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1), float_arg(2)});
       },
       DACE_ERROR_NOT_FOUND, {"\"\""}, true},
      {"dace_program_call", "NULL name entry",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", nullptr, "s"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"NULL"}, true},
      {"dace_program_call", "argument given twice",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "A", "B", "s"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.a, DACE_FLOAT64, d.shape),
                            array_arg(d.b, DACE_FLOAT64, d.shape), float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "twice"}, true},
      {"dace_program_call", "wrong dtype (named as DaCe names it)",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s"},
                           {array_arg(d.af, DACE_FLOAT32, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "float32", "float64"}, true},
      {"dace_program_call", "missing argument",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"missing", "\"s\""}, true},
      {"dace_program_call", "wrong kind (scalar given for an array)",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s"},
                           {float_arg(1), array_arg(d.b, DACE_FLOAT64, d.shape), float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}, true},
      {"dace_program_call", "shapes that disagree on N",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.short_shape),
                            float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"B\""}, true},
      {"dace_program_call", "NULL data pointer",
       CONTRACT_CALL {
         CallData d;
         return call_named(f, d, {"A", "B", "s"},
                           {array_arg(nullptr, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape),
                            float_arg(1)});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\""}, true},
      {"dace_program_call", "arg kind out of range",
       CONTRACT_CALL {
         CallData d;
         dace_arg_t bad = float_arg(1);
         bad.kind = static_cast<dace_arg_kind_t>(42);
         return call_named(f, d, {"A", "B", "s"},
                           {array_arg(d.a, DACE_FLOAT64, d.shape), array_arg(d.b, DACE_FLOAT64, d.shape), bad});
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"s\""}, true},

      {"dace_program_compile_stats", "NULL out_stats",
       CONTRACT_CALL { return dace_program_compile_stats(nullptr, f.program); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_stats"}, true},
      {"dace_program_compile_stats", "NULL program",
       CONTRACT_CALL {
         dace_compile_stats_t st{};
         st.version = DACE_COMPILE_STATS_VERSION;
         st.total_ms = -3;
         dace_status_t s = dace_program_compile_stats(&st, nullptr);
         f.kept(st.total_ms == -3, "out_stats");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"program"}},
      {"dace_program_compile_stats", "stats of unknown version",
       CONTRACT_CALL {
         dace_compile_stats_t st{};
         st.total_ms = -3;
         dace_status_t s = dace_program_compile_stats(&st, f.program);
         f.kept(st.total_ms == -3, "out_stats");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_compile_stats_t", "version 0"}, true},
      {"dace_program_ptx_count", "NULL out_count",
       CONTRACT_CALL { return dace_program_ptx_count(nullptr, f.program); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_count"}, true},
      {"dace_program_ptx_count", "NULL program",
       CONTRACT_CALL {
         size_t n = kCount;
         dace_status_t s = dace_program_ptx_count(&n, nullptr);
         f.kept(n == kCount, "out_count");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"program"}},
      {"dace_program_ptx", "NULL out_text",
       CONTRACT_CALL { return dace_program_ptx(nullptr, nullptr, f.program, 0); }, DACE_ERROR_INVALID_ARGUMENT,
       {"out_text"}, true},
      {"dace_program_ptx", "NULL program",
       CONTRACT_CALL {
         const char* t = kStr;
         dace_status_t s = dace_program_ptx(&t, nullptr, nullptr, 0);
         f.kept(t == kStr, "out_text");
         return s;
       },
       DACE_ERROR_INVALID_ARGUMENT, {"program"}},
      {"dace_program_ptx", "program without GPU kernels",
       CONTRACT_CALL {
         const char* t = kStr;
         size_t n = kCount;
         dace_status_t s = dace_program_ptx(&t, &n, f.program, 0);
         f.kept(t == kStr && n == kCount, "out_text, out_size");
         return s;
       },
       DACE_ERROR_NOT_FOUND, {"no PTX module", "no GPU kernels"}, true},
  };
  extent_rows(rows, "dace_program_argument_shape", "out_shape", dace_program_argument_shape, true);
  extent_rows(rows, "dace_program_argument_strides", "out_strides", dace_program_argument_strides, false);
  return rows;
}

}  // namespace capi_contract
