// dace_program_argument_shape/_strides, dace_program_compile_stats and dace_data_set_strides.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

dace_arg_t array(void* data, const int64_t* shape, int32_t ndim, const int64_t* strides = nullptr) {
  dace_arg_t a{};
  a.kind = DACE_ARG_ARRAY;
  a.value.array = {data, DACE_FLOAT64, ndim, shape, strides};
  return a;
}

std::string fresh_dir(const std::string& tag) {
  auto dir = std::filesystem::temp_directory_path() /
             ("libdace_capi_api_" + tag + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

// B[i] = 1 over i=0:N, with unused arguments of other shapes: A[N, M], C[2*M, 3], D[N*M + 1].
class ArgumentShapeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_DACE_OK(dace_context_create(&ctx));
    ASSERT_DACE_OK(dace_sdfg_create(&sdfg, "shapes"));
    ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
    ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "M", DACE_INT64));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, M", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N + 1", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "C", DACE_FLOAT64, "2*M, 3", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "D", DACE_FLOAT64, "N*M + 1", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_scalar(sdfg, "s", DACE_FLOAT64, nullptr));
    dace_id_t state = -1;
    ASSERT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
    dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
    o.external_edges = 1;
    ASSERT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "one", "i=0:N", "",
                                                 "b = 1.0", "b: B[i]", &o));
    dace_compile_options_t co = DACE_COMPILE_OPTIONS_INIT;
    co.opt_level = 1;
    ASSERT_DACE_OK(dace_program_compile(&program, ctx, sdfg, &co));
  }
  void TearDown() override {
    dace_program_release(program);
    dace_sdfg_release(sdfg);
    dace_context_release(ctx);
  }
  int32_t index_of(const char* name) {
    int32_t n = 0;
    EXPECT_EQ(dace_program_argument_count(&n, program), DACE_OK);
    for (int32_t i = 0; i < n; ++i) {
      const char* got = nullptr;
      EXPECT_EQ(dace_program_argument_info(&got, nullptr, nullptr, program, i), DACE_OK);
      if (got && std::string(got) == name) return i;
    }
    ADD_FAILURE() << "no argument " << name;
    return -1;
  }
  std::vector<int64_t> shape_of(const char* name, int64_t n, int64_t m) {
    const char* names[] = {"N", "M"};
    const int64_t values[] = {n, m};
    size_t ndim = 99;
    int64_t out[4] = {-1, -1, -1, -1};
    EXPECT_DACE_OK(dace_program_argument_shape(out, 4, &ndim, program, index_of(name), names, values, 2));
    return std::vector<int64_t>(out, out + std::min<size_t>(ndim, 4));
  }

  dace_context_t* ctx = nullptr;
  dace_sdfg_t* sdfg = nullptr;
  dace_program_t* program = nullptr;
};

TEST_F(ArgumentShapeTest, ExtentsForGivenSymbols) {
  EXPECT_EQ(shape_of("A", 4, 5), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(shape_of("B", 4, 5), (std::vector<int64_t>{5}));
  EXPECT_EQ(shape_of("C", 4, 5), (std::vector<int64_t>{10, 3}));
  EXPECT_EQ(shape_of("D", 4, 5), (std::vector<int64_t>{21}));
  EXPECT_EQ(shape_of("A", 1, 1), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(shape_of("D", 100, 7), (std::vector<int64_t>{701}));
}

TEST_F(ArgumentShapeTest, TwoCallIdiomAndUnusedSymbols) {
  // C needs only M: N may be left out, and extra symbols are ignored.
  const char* names[] = {"M", "unrelated"};
  const int64_t values[] = {6, 123};
  size_t ndim = 0;
  ASSERT_DACE_OK(dace_program_argument_shape(nullptr, 0, &ndim, program, index_of("C"), names, values, 2));
  EXPECT_EQ(ndim, 2u);
  int64_t one[1] = {-1};
  ASSERT_DACE_OK(dace_program_argument_shape(one, 1, &ndim, program, index_of("C"), names, values, 2));
  EXPECT_EQ(ndim, 2u);
  EXPECT_EQ(one[0], 12);
}

TEST_F(ArgumentShapeTest, Errors) {
  const char* names[] = {"M"};
  const int64_t values[] = {6};
  size_t ndim = 77;
  int64_t out[2] = {-1, -1};
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, index_of("A"), names, values, 1),
                    DACE_ERROR_NOT_FOUND, "\"N\"");
  EXPECT_EQ(ndim, 77u);  // nothing written on failure
  EXPECT_EQ(out[0], -1);
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, index_of("s"), names, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "\"s\"");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, index_of("N"), names, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "not an array");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, 99, names, values, 1),
                    DACE_ERROR_NOT_FOUND, "out of range");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, -1, names, values, 1),
                    DACE_ERROR_NOT_FOUND, "out of range");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, nullptr, program, 0, names, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "out_ndim");
  EXPECT_DACE_ERROR(dace_program_argument_shape(nullptr, 2, &ndim, program, 0, names, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "out_shape");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, nullptr, 0, names, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "program");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, 0, names, values, -1),
                    DACE_ERROR_INVALID_ARGUMENT, "symbol_count");
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, 0, nullptr, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "symbol_names");
  const char* null_name[] = {nullptr};
  EXPECT_DACE_ERROR(dace_program_argument_shape(out, 2, &ndim, program, 0, null_name, values, 1),
                    DACE_ERROR_INVALID_ARGUMENT, "symbol_names[0]");
}

TEST_F(ArgumentShapeTest, CompileStatsOfAFreshCompile) {
  dace_compile_stats_t st{};
  st.version = DACE_COMPILE_STATS_VERSION;
  ASSERT_DACE_OK(dace_program_compile_stats(&st, program));
  EXPECT_EQ(st.version, static_cast<uint32_t>(DACE_COMPILE_STATS_VERSION));
  EXPECT_EQ(st.cache_hit, 0);
  for (double part : {st.validate_ms, st.lower_ms, st.optimize_ms, st.jit_ms}) {
    EXPECT_GE(part, 0.0);
    EXPECT_LE(part, st.total_ms);
  }
  EXPECT_GT(st.lower_ms, 0.0);
  EXPECT_GT(st.jit_ms, 0.0);
  EXPECT_LE(st.validate_ms + st.lower_ms + st.optimize_ms + st.jit_ms, st.total_ms + 1e-6);
  EXPECT_LT(st.total_ms, 60000.0);
  EXPECT_GT(st.ir_instructions, 0u);
  EXPECT_GT(st.object_bytes, 0u);

  dace_compile_stats_t bad{};
  EXPECT_DACE_ERROR(dace_program_compile_stats(&bad, program), DACE_ERROR_INVALID_ARGUMENT, "version");
  bad.version = DACE_COMPILE_STATS_VERSION + 1;
  EXPECT_DACE_ERROR(dace_program_compile_stats(&bad, program), DACE_ERROR_INVALID_ARGUMENT, "version");
  EXPECT_DACE_ERROR(dace_program_compile_stats(nullptr, program), DACE_ERROR_INVALID_ARGUMENT, "out_stats");
  EXPECT_DACE_ERROR(dace_program_compile_stats(&st, nullptr), DACE_ERROR_INVALID_ARGUMENT, "program");
}

TEST_F(ArgumentShapeTest, CompileStatsReportACacheHitInAFreshContext) {
  const std::string dir = fresh_dir("stats");
  dace_compile_options_t co = DACE_COMPILE_OPTIONS_INIT;
  co.opt_level = 1;
  co.cache_dir = dir.c_str();
  co.tiered = 0;  // the first compile then reports the size of the object the cache holds
  dace_compile_stats_t first{}, second{};
  first.version = second.version = DACE_COMPILE_STATS_VERSION;
  for (dace_compile_stats_t* st : {&first, &second}) {
    dace_context_t* c = nullptr;
    ASSERT_DACE_OK(dace_context_create(&c));
    dace_program_t* p = nullptr;
    ASSERT_DACE_OK(dace_program_compile(&p, c, sdfg, &co));
    ASSERT_DACE_OK(dace_program_compile_stats(st, p));
    dace_program_release(p);
    dace_context_release(c);
  }
  EXPECT_EQ(first.cache_hit, 0);
  EXPECT_EQ(second.cache_hit, 1);
  // A hit skips validation, lowering, optimization and code generation.
  EXPECT_EQ(second.lower_ms, 0.0);
  EXPECT_EQ(second.optimize_ms, 0.0);
  EXPECT_EQ(second.ir_instructions, 0u);
  EXPECT_GT(second.jit_ms, 0.0);
  EXPECT_LE(second.jit_ms, second.total_ms);
  EXPECT_EQ(second.object_bytes, first.object_bytes);
  std::filesystem::remove_all(dir);
}

// B[i, j] = 2 * A[i, j] + 1 over i=0:N, j=0:M, where A may be given Fortran strides.
dace_sdfg_t* make_twice(const char* a_strides) {
  dace_sdfg_t* sdfg = nullptr;
  EXPECT_DACE_OK(dace_sdfg_create(&sdfg, "twice"));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_symbol(sdfg, "M", DACE_INT64));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N, M", nullptr));
  EXPECT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N, M", nullptr));
  if (a_strides) {
    EXPECT_DACE_OK(dace_data_set_strides(sdfg, "A", a_strides));
  }
  dace_id_t state = -1;
  EXPECT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
  dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
  o.external_edges = 1;
  EXPECT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "twice", "i=0:N, j=0:M",
                                               "a: A[i, j]", "b = 2 * a + 1", "b: B[i, j]", &o));
  return sdfg;
}

// The strides the compiled code expects, evaluated for given symbols: column-major for A
// ("1, N"), C order for B ("M, 1"); a missing symbol is named.
TEST(ProgramStrides, ArgumentStridesForGivenSymbols) {
  dace_sdfg_t* sdfg = make_twice("1, N");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, nullptr));
  int32_t count = 0;
  ASSERT_DACE_OK(dace_program_argument_count(&count, p));
  int32_t a = -1, b = -1;
  for (int32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_DACE_OK(dace_program_argument_info(&name, nullptr, nullptr, p, i));
    if (std::string(name) == "A") a = i;
    if (std::string(name) == "B") b = i;
  }
  const char* names[] = {"N", "M"};
  const int64_t values[] = {4, 7};
  int64_t out[2] = {-1, -1};
  size_t ndim = 0;
  ASSERT_DACE_OK(dace_program_argument_strides(out, 2, &ndim, p, a, names, values, 2));
  EXPECT_EQ(ndim, 2u);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 4);
  ASSERT_DACE_OK(dace_program_argument_strides(out, 2, &ndim, p, b, names, values, 2));
  EXPECT_EQ(out[0], 7);
  EXPECT_EQ(out[1], 1);
  EXPECT_DACE_ERROR(dace_program_argument_strides(out, 2, &ndim, p, b, names, values, 1), DACE_ERROR_NOT_FOUND,
                    "\"M\"");
  dace_program_release(p);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

TEST(ProgramStrides, FortranOrderArgumentIsReadInPlace) {
  dace_sdfg_t* sdfg = make_twice("1, N");
  const char* strides = nullptr;
  ASSERT_DACE_OK(dace_data_get_property(&strides, sdfg, "A", "strides"));
  EXPECT_EQ(std::string(strides), "1, N");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_compile_options_t co = DACE_COMPILE_OPTIONS_INIT;
  co.opt_level = 1;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &co));

  const int64_t N = 5, M = 3;
  std::vector<double> a_col(N * M), b(N * M, -1.0), b_ref(N * M);
  for (int64_t i = 0; i < N; ++i) {
    for (int64_t j = 0; j < M; ++j) {
      a_col[static_cast<size_t>(i + j * N)] = 10.0 * static_cast<double>(i) + static_cast<double>(j);
      b_ref[static_cast<size_t>(i * M + j)] = 2 * a_col[static_cast<size_t>(i + j * N)] + 1;
    }
  }

  const int64_t shape[2] = {N, M}, col_strides[2] = {1, N};
  const char* names[] = {"A", "B"};
  dace_arg_t args[] = {array(a_col.data(), shape, 2, col_strides), array(b.data(), shape, 2)};
  ASSERT_DACE_OK(dace_program_call(p, names, args, 2));
  for (size_t k = 0; k < b.size(); ++k) {
    EXPECT_EQ(b[k], b_ref[k]) << k;
  }

  // A C-ordered descriptor for A does not match the program's layout.
  std::fill(b.begin(), b.end(), -1.0);
  dace_arg_t c_order[] = {array(a_col.data(), shape, 2), array(b.data(), shape, 2)};
  EXPECT_DACE_ERROR(dace_program_call(p, names, c_order, 2), DACE_ERROR_INVALID_ARGUMENT, "stride");
  EXPECT_NE(std::string(dace_last_error_message()).find("\"A\""), std::string::npos);
  for (double v : b) {
    ASSERT_EQ(v, -1.0);
  }

  dace_program_release(p);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

// Negative and zero strides (A's rows reversed and each row one broadcast value: "-M, 0"):
// dace_program_argument_strides reports them and the call reads through them in place.
TEST(ProgramStrides, NegativeAndZeroStridesReadInPlace) {
  dace_sdfg_t* sdfg = make_twice("-M, 0");
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, nullptr));
  int32_t count = 0, a = -1;
  ASSERT_DACE_OK(dace_program_argument_count(&count, p));
  for (int32_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    ASSERT_DACE_OK(dace_program_argument_info(&name, nullptr, nullptr, p, i));
    if (std::string(name) == "A") a = i;
  }
  const int64_t N = 4, M = 3;
  const char* sym_names[] = {"N", "M"};
  const int64_t sym_values[] = {N, M};
  int64_t out[2] = {0, 0};
  size_t ndim = 0;
  ASSERT_DACE_OK(dace_program_argument_strides(out, 2, &ndim, p, a, sym_names, sym_values, 2));
  EXPECT_EQ(out[0], -M);
  EXPECT_EQ(out[1], 0);

  // Row i of A is element (N-1-i)*M of `store` (one value per row, broadcast over columns).
  std::vector<double> store(N * M);
  for (size_t k = 0; k < store.size(); ++k) store[k] = 0.5 * static_cast<double>(k);
  std::vector<double> b(N * M, -1.0);
  const int64_t shape[2] = {N, M}, strides[2] = {-M, 0};
  const char* names[] = {"A", "B"};
  dace_arg_t args[] = {array(store.data() + (N - 1) * M, shape, 2, strides), array(b.data(), shape, 2)};
  ASSERT_DACE_OK(dace_program_call(p, names, args, 2));
  for (int64_t i = 0; i < N; ++i)
    for (int64_t j = 0; j < M; ++j)
      EXPECT_EQ(b[static_cast<size_t>(i * M + j)], 2 * store[static_cast<size_t>((N - 1 - i) * M)] + 1) << i << "," << j;

  dace_program_release(p);
  dace_context_release(ctx);
  dace_sdfg_release(sdfg);
}

TEST(ProgramStrides, ResetAndErrors) {
  dace_sdfg_t* sdfg = make_twice("1, N");
  EXPECT_DACE_ERROR(dace_data_set_strides(sdfg, "A", "1"), DACE_ERROR_INVALID_ARGUMENT, "\"A\"");
  EXPECT_DACE_ERROR(dace_data_set_strides(sdfg, "A", "1, N, 2"), DACE_ERROR_INVALID_ARGUMENT, "rank");
  EXPECT_DACE_ERROR(dace_data_set_strides(sdfg, "nope", "1, N"), DACE_ERROR_NOT_FOUND, "nope");
  EXPECT_DACE_ERROR(dace_data_set_strides(sdfg, "A", "1, +"), DACE_ERROR_PARSE, "");
  const char* strides = nullptr;
  ASSERT_DACE_OK(dace_data_get_property(&strides, sdfg, "A", "strides"));
  EXPECT_EQ(std::string(strides), "1, N");  // failed calls changed nothing
  ASSERT_DACE_OK(dace_data_set_strides(sdfg, "A", nullptr));
  ASSERT_DACE_OK(dace_data_get_property(&strides, sdfg, "A", "strides"));
  EXPECT_EQ(std::string(strides), "M, 1");
  ASSERT_DACE_OK(dace_data_set_strides(sdfg, "A", "1, N"));
  ASSERT_DACE_OK(dace_data_set_strides(sdfg, "A", ""));
  ASSERT_DACE_OK(dace_data_get_property(&strides, sdfg, "A", "strides"));
  EXPECT_EQ(std::string(strides), "M, 1");
  dace_sdfg_release(sdfg);
}

}  // namespace
