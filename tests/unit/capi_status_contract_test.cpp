// The status codes include/libdace.h documents, one table row per (function, bad input):
// a NULL handle or pointer and malformed input are DACE_ERROR_INVALID_ARGUMENT, a
// well-formed id or name that does not exist is DACE_ERROR_NOT_FOUND, a duplicate name
// DACE_ERROR_ALREADY_EXISTS, a malformed expression DACE_ERROR_PARSE; the message names the
// element. Expected values come from the header's text, not from the implementation.
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "capi_program_test_util.h"
#include "capi_test_util.h"

namespace {

// One SDFG (the axpb program: arrays A, B of float64[N], scalar s, symbol N; state s0) and,
// when the CPU plugin loads, its compiled program.
struct Fixture {
  dace_sdfg_t* sdfg = nullptr;
  dace_context_t* ctx = nullptr;
  dace_program_t* program = nullptr;
  dace_id_t state = 0;
  std::vector<double> a = std::vector<double>(4, 1.0), b = std::vector<double>(4, 0.0);
  std::vector<float> af = std::vector<float>(4, 1.0f);
  int64_t shape[1] = {4};
};

struct Row {
  const char* function;
  const char* bad_input;
  bool needs_program;
  std::function<dace_status_t(Fixture&)> call;
  dace_status_t expected;
  std::vector<std::string> words;  // each must appear in the message
};

dace_arg_t array_arg(void* data, dace_dtype_t dtype, int64_t* shape) {
  dace_arg_t a{};
  a.kind = DACE_ARG_ARRAY;
  a.value.array = {data, dtype, 1, shape, nullptr};
  return a;
}

std::vector<Row> rows() {
  return {
      {"dace_array_options_init", "NULL options", false,
       [](Fixture&) { return dace_array_options_init(nullptr, DACE_ARRAY_OPTIONS_VERSION); },
       DACE_ERROR_INVALID_ARGUMENT, {"options", "NULL"}},
      {"dace_map_options_init", "unknown version", false,
       [](Fixture&) {
         dace_map_options_t o;
         return dace_map_options_init(&o, 77);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_map_options_t", "version 77"}},
      {"dace_sdfg_add_array", "NULL sdfg", false,
       [](Fixture&) { return dace_sdfg_add_array(nullptr, "X", DACE_FLOAT64, "4", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"sdfg"}},
      {"dace_sdfg_add_array", "duplicate name", false,
       [](Fixture& f) { return dace_sdfg_add_array(f.sdfg, "A", DACE_FLOAT64, "4", nullptr); },
       DACE_ERROR_ALREADY_EXISTS, {"\"A\""}},
      {"dace_sdfg_add_array", "dtype out of range", false,
       [](Fixture& f) { return dace_sdfg_add_array(f.sdfg, "X", static_cast<dace_dtype_t>(999), "4", nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"dtype"}},
      {"dace_sdfg_add_array", "malformed shape", false,
       [](Fixture& f) { return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "N +* 2", nullptr); },
       DACE_ERROR_PARSE, {"\"X\""}},
      {"dace_sdfg_add_array", "array options of unknown version", false,
       [](Fixture& f) {
         dace_array_options_t o = DACE_ARRAY_OPTIONS_INIT;
         o.version = 0;
         return dace_sdfg_add_array(f.sdfg, "X", DACE_FLOAT64, "4", &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_array_options_t", "version 0"}},
      {"dace_state_add_access", "state id that does not exist", false,
       [](Fixture& f) {
         dace_id_t node = -1;
         return dace_state_add_access(&node, f.sdfg, 12345, "A");
       },
       DACE_ERROR_NOT_FOUND, {"12345"}},
      {"dace_state_add_access", "container that does not exist", false,
       [](Fixture& f) {
         dace_id_t node = -1;
         return dace_state_add_access(&node, f.sdfg, f.state, "nope");
       },
       DACE_ERROR_NOT_FOUND, {"nope"}},
      {"dace_sdfg_to_json", "NULL out_json", false,
       [](Fixture& f) { return dace_sdfg_to_json(nullptr, f.sdfg, nullptr); },
       DACE_ERROR_INVALID_ARGUMENT, {"out_json"}},
      {"dace_program_argument_info", "index out of range", true,
       [](Fixture& f) { return dace_program_argument_info(nullptr, nullptr, nullptr, f.program, 99); },
       DACE_ERROR_NOT_FOUND, {"99", "out of range"}},
      {"dace_program_argument_info", "NULL program", false,
       [](Fixture&) { return dace_program_argument_info(nullptr, nullptr, nullptr, nullptr, 0); },
       DACE_ERROR_INVALID_ARGUMENT, {"program"}},
      {"dace_program_argument_shape", "symbol the shape needs not given", true,
       [](Fixture& f) {
         int64_t out[1];
         size_t nd = 0;
         int32_t count = 0, index = -1;
         dace_program_argument_count(&count, f.program);
         for (int32_t i = 0; i < count; ++i) {
           const char* name = nullptr;
           dace_program_argument_info(&name, nullptr, nullptr, f.program, i);
           if (std::string(name) == "A") index = i;
         }
         return dace_program_argument_shape(out, 1, &nd, f.program, index, nullptr, nullptr, 0);
       },
       DACE_ERROR_NOT_FOUND, {"\"N\""}},
      {"dace_program_call", "name that is no argument", true,
       [](Fixture& f) {
         const char* names[] = {"nope"};
         dace_arg_t args[1] = {array_arg(f.a.data(), DACE_FLOAT64, f.shape)};
         return dace_program_call(f.program, names, args, 1);
       },
       DACE_ERROR_NOT_FOUND, {"nope"}},
      {"dace_program_call", "argument given twice", true,
       [](Fixture& f) {
         const char* names[] = {"A", "A"};
         dace_arg_t args[2] = {array_arg(f.a.data(), DACE_FLOAT64, f.shape),
                               array_arg(f.a.data(), DACE_FLOAT64, f.shape)};
         return dace_program_call(f.program, names, args, 2);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "twice"}},
      {"dace_program_call", "wrong dtype (named as DaCe names it)", true,
       [](Fixture& f) {
         const char* names[] = {"A", "B", "s"};
         dace_arg_t args[3] = {array_arg(f.af.data(), DACE_FLOAT32, f.shape),
                               array_arg(f.b.data(), DACE_FLOAT64, f.shape), dace_arg_t{}};
         args[2].kind = DACE_ARG_FLOAT;
         args[2].value.f = 1.0;
         return dace_program_call(f.program, names, args, 3);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"\"A\"", "dtype float32", "float64"}},
      {"dace_program_call", "missing argument", true,
       [](Fixture& f) {
         const char* names[] = {"A"};
         dace_arg_t args[1] = {array_arg(f.a.data(), DACE_FLOAT64, f.shape)};
         return dace_program_call(f.program, names, args, 1);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"missing"}},
      {"dace_program_compile_stats", "stats of unknown version", true,
       [](Fixture& f) {
         dace_compile_stats_t st{};
         return dace_program_compile_stats(&st, f.program);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_compile_stats_t", "version 0"}},
      {"dace_program_compile", "compile options of unknown version", false,
       [](Fixture& f) {
         dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
         o.version = 9;
         dace_program_t* p = nullptr;
         return dace_program_compile(&p, f.ctx, f.sdfg, &o);
       },
       DACE_ERROR_INVALID_ARGUMENT, {"dace_compile_options_t", "version 9"}},
  };
}

TEST(CapiStatusContract, EveryRowReturnsItsDocumentedStatus) {
  Fixture f;
  f.sdfg = capi_test::make_axpb("contract");
  ASSERT_NE(f.sdfg, nullptr);
  ASSERT_DACE_OK(dace_context_create(&f.ctx));
  std::vector<dace_id_t> states(4);
  size_t n = 0;
  ASSERT_DACE_OK(dace_sdfg_list_states(states.data(), states.size(), &n, f.sdfg));
  ASSERT_GE(n, 1u);
  f.state = states[0];
  dace_compile_options_t co = DACE_COMPILE_OPTIONS_INIT;
  co.opt_level = 0;
  const bool have_program = dace_program_compile(&f.program, f.ctx, f.sdfg, &co) == DACE_OK;
  if (!have_program) std::printf("program rows skipped: %s\n", dace_last_error_message());

  for (const Row& r : rows()) {
    if (r.needs_program && !have_program) continue;
    SCOPED_TRACE(std::string(r.function) + " with " + r.bad_input);
    EXPECT_EQ(r.call(f), r.expected) << dace_last_error_message();
    const std::string msg = dace_last_error_message();
    for (const auto& w : r.words) EXPECT_NE(msg.find(w), std::string::npos) << "message: " << msg << "\nword: " << w;
  }
  dace_program_release(f.program);
  dace_context_release(f.ctx);
  dace_sdfg_release(f.sdfg);
}

}  // namespace
