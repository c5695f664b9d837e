// dace_program_*: compile through the CPU backend and call with checked arguments.
#include <cmath>
#include <string>
#include <vector>

#include "capi_test_util.h"

namespace {

dace_arg_t array(void* data, const int64_t* shape, int32_t ndim, dace_dtype_t dtype = DACE_FLOAT64,
                 const int64_t* strides = nullptr) {
  dace_arg_t a{};
  a.kind = DACE_ARG_ARRAY;
  a.value.array = {data, dtype, ndim, shape, strides};
  return a;
}
dace_arg_t real(double x) {
  dace_arg_t a{};
  a.kind = DACE_ARG_FLOAT;
  a.value.f = x;
  return a;
}
dace_arg_t symbol(int64_t x) {
  dace_arg_t a{};
  a.kind = DACE_ARG_SYMBOL;
  a.value.i = x;
  return a;
}

// B[i] = A[i] * s + 1 over a parallel map i=0:N; arguments A, B, N, s.
class ProgramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_DACE_OK(dace_context_create(&ctx));
    ASSERT_DACE_OK(dace_sdfg_create(&sdfg, "axpb"));
    ASSERT_DACE_OK(dace_sdfg_add_symbol(sdfg, "N", DACE_INT64));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "A", DACE_FLOAT64, "N", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_array(sdfg, "B", DACE_FLOAT64, "N", nullptr));
    ASSERT_DACE_OK(dace_sdfg_add_scalar(sdfg, "s", DACE_FLOAT64, nullptr));
    dace_id_t state = -1;
    ASSERT_DACE_OK(dace_sdfg_add_state(&state, sdfg, DACE_ROOT_REGION, "s0"));
    dace_mapped_tasklet_options_t o = DACE_MAPPED_TASKLET_OPTIONS_INIT;
    o.external_edges = 1;
    o.schedule = DACE_SCHEDULE_CPU_MULTICORE;
    ASSERT_DACE_OK(dace_state_add_mapped_tasklet(nullptr, nullptr, nullptr, sdfg, state, "axpb", "i=0:N",
                                                 "a: A[i]; c: s[0]", "b = a * c + 1", "b: B[i]", &o));
    ASSERT_DACE_OK(dace_program_compile(&program, ctx, sdfg, nullptr));
    for (int i = 0; i < kN; ++i) a[i] = 0.5 * i - 3;
    b.assign(kN, -7.0);
  }
  void TearDown() override {
    dace_program_release(program);
    dace_sdfg_release(sdfg);
    dace_context_release(ctx);
  }
  void expect_result(double s) {
    for (int i = 0; i < kN; ++i) EXPECT_DOUBLE_EQ(b[i], a[i] * s + 1) << i;
  }
  void expect_untouched() {
    for (int i = 0; i < kN; ++i) ASSERT_EQ(b[i], -7.0) << i;
  }

  static constexpr int kN = 37;
  dace_context_t* ctx = nullptr;
  dace_sdfg_t* sdfg = nullptr;
  dace_program_t* program = nullptr;
  std::vector<double> a = std::vector<double>(kN), b;
  int64_t shape[1] = {kN};
};

TEST_F(ProgramTest, ArgumentsInDaceOrder) {
  int32_t n = 0;
  ASSERT_DACE_OK(dace_program_argument_count(&n, program));
  ASSERT_EQ(n, 4);
  const char* expected[] = {"A", "B", "N", "s"};
  int32_t kinds[] = {DACE_ARGUMENT_ARRAY, DACE_ARGUMENT_ARRAY, DACE_ARGUMENT_SYMBOL, DACE_ARGUMENT_SCALAR};
  dace_dtype_t dtypes[] = {DACE_FLOAT64, DACE_FLOAT64, DACE_INT64, DACE_FLOAT64};
  for (int32_t i = 0; i < n; ++i) {
    const char* name = nullptr;
    int32_t kind = -1;
    dace_dtype_t dt = DACE_DTYPE_UNKNOWN;
    ASSERT_DACE_OK(dace_program_argument_info(&name, &kind, &dt, program, i));
    EXPECT_STREQ(name, expected[i]);
    EXPECT_EQ(kind, kinds[i]);
    EXPECT_EQ(dt, dtypes[i]);
  }
  EXPECT_DACE_ERROR(dace_program_argument_info(nullptr, nullptr, nullptr, program, 4), DACE_ERROR_NOT_FOUND, "4");
}

TEST_F(ProgramTest, CallByPositionWithAllArguments) {
  dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1), symbol(kN), real(2.0)};
  ASSERT_DACE_OK(dace_program_call(program, nullptr, args, 4));
  expect_result(2.0);
}

TEST_F(ProgramTest, CallByPositionInfersSymbols) {
  dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1), real(3.0)};
  ASSERT_DACE_OK(dace_program_call(program, nullptr, args, 3));
  expect_result(3.0);
}

TEST_F(ProgramTest, CallByNameInAnyOrderAndRepeatedWithOtherSizes) {
  const char* names[] = {"s", "B", "A"};
  dace_arg_t args[] = {real(-1.5), array(b.data(), shape, 1), array(a.data(), shape, 1)};
  ASSERT_DACE_OK(dace_program_call(program, names, args, 3));
  expect_result(-1.5);
  // A smaller N re-initializes the program; elements past it stay as they were.
  int64_t small[1] = {5};
  b.assign(kN, -7.0);
  const char* names2[] = {"A", "B", "s", "N"};
  dace_arg_t args2[] = {array(a.data(), small, 1), array(b.data(), small, 1), real(4.0), symbol(5)};
  ASSERT_DACE_OK(dace_program_call(program, names2, args2, 4));
  for (int i = 0; i < kN; ++i) EXPECT_DOUBLE_EQ(b[i], i < 5 ? a[i] * 4 + 1 : -7.0) << i;
}

TEST_F(ProgramTest, ErrorsNameTheArgumentAndRunNothing) {
  const char* names[] = {"A", "B", "s"};
  {
    dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1, DACE_FLOAT32), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 3), DACE_ERROR_INVALID_ARGUMENT, "\"B\"");
  }
  {
    int64_t shape2[2] = {kN, 1};
    dace_arg_t args[] = {array(a.data(), shape2, 2), array(b.data(), shape, 1), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 3), DACE_ERROR_INVALID_ARGUMENT, "\"A\"");
  }
  {
    int64_t other[1] = {kN - 1};
    dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), other, 1), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 3), DACE_ERROR_INVALID_ARGUMENT, "\"B\"");
  }
  {
    const char* names4[] = {"A", "B", "s", "N"};
    dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1), real(1), symbol(kN + 1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names4, args, 4), DACE_ERROR_INVALID_ARGUMENT, "N");
  }
  {
    int64_t strides[1] = {2};
    dace_arg_t args[] = {array(a.data(), shape, 1, DACE_FLOAT64, strides), array(b.data(), shape, 1), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 3), DACE_ERROR_INVALID_ARGUMENT, "\"A\"");
  }
  {
    dace_arg_t args[] = {array(a.data(), shape, 1), array(nullptr, shape, 1), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 3), DACE_ERROR_INVALID_ARGUMENT, "\"B\"");
  }
  {
    dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 2), DACE_ERROR_INVALID_ARGUMENT, "\"s\"");
  }
  {
    dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1), symbol(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, names, args, 3), DACE_ERROR_INVALID_ARGUMENT, "\"s\"");
  }
  {
    const char* bad[] = {"A", "B", "t"};
    dace_arg_t args[] = {array(a.data(), shape, 1), array(b.data(), shape, 1), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, bad, args, 3), DACE_ERROR_NOT_FOUND, "\"t\"");
  }
  {
    // N is neither given nor a dimension of a given array: B alone cannot say.
    const char* two[] = {"A", "s"};
    dace_arg_t args[] = {array(a.data(), shape, 1), real(1)};
    EXPECT_DACE_ERROR(dace_program_call(program, two, args, 2), DACE_ERROR_INVALID_ARGUMENT, "\"B\"");
  }
  expect_untouched();
}

TEST(ProgramCompile, RejectsBadOptionsAndNull) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_DACE_OK(dace_sdfg_create(&sdfg, "empty"));
  dace_program_t* p = nullptr;
  dace_compile_options_t o;
  ASSERT_DACE_OK(dace_compile_options_init(&o, DACE_COMPILE_OPTIONS_VERSION));
  EXPECT_EQ(o.opt_level, 3);
  o.version = 99;
  EXPECT_DACE_ERROR(dace_program_compile(&p, ctx, sdfg, &o), DACE_ERROR_INVALID_ARGUMENT, "version");
  EXPECT_DACE_ERROR(dace_program_compile(&p, nullptr, sdfg, nullptr), DACE_ERROR_INVALID_ARGUMENT, "context");
  EXPECT_EQ(p, nullptr);
  dace_program_release(nullptr);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

TEST(ProgramCompile, CorpusGemmMatchesTripleLoop) {
  dace_context_t* ctx = nullptr;
  ASSERT_DACE_OK(dace_context_create(&ctx));
  dace_sdfg_t* sdfg = nullptr;
  ASSERT_DACE_OK(dace_sdfg_load_file(&sdfg, (std::string(LIBDACE_CORPUS_DIR) + "/gemm/gemm.simp.sdfg").c_str()));
  dace_compile_options_t o = DACE_COMPILE_OPTIONS_INIT;
  o.opt_level = 2;
  dace_program_t* p = nullptr;
  ASSERT_DACE_OK(dace_program_compile(&p, ctx, sdfg, &o));
  const int64_t NI = 7, NJ = 5, NK = 6;
  std::vector<double> A(NI * NK), B(NK * NJ), C(NI * NJ), ref;
  for (int64_t i = 0; i < NI * NK; ++i) A[static_cast<size_t>(i)] = std::sin(0.3 * static_cast<double>(i));
  for (int64_t i = 0; i < NK * NJ; ++i) B[static_cast<size_t>(i)] = 0.1 * static_cast<double>(i % 7) - 0.2;
  for (int64_t i = 0; i < NI * NJ; ++i) C[static_cast<size_t>(i)] = 1.0 + 0.05 * static_cast<double>(i);
  const double alpha = 1.5, beta = 1.2;
  ref = C;
  for (int64_t i = 0; i < NI; ++i)
    for (int64_t j = 0; j < NJ; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < NK; ++k) acc += A[static_cast<size_t>(i * NK + k)] * B[static_cast<size_t>(k * NJ + j)];
      double& c = ref[static_cast<size_t>(i * NJ + j)];
      c = alpha * acc + beta * c;
    }
  int64_t sa[2] = {NI, NK}, sb[2] = {NK, NJ}, sc[2] = {NI, NJ};
  const char* names[] = {"A", "B", "C", "alpha", "beta"};
  dace_arg_t args[] = {array(A.data(), sa, 2), array(B.data(), sb, 2), array(C.data(), sc, 2), real(alpha),
                       real(beta)};
  ASSERT_DACE_OK(dace_program_call(p, names, args, 5));
  for (size_t i = 0; i < C.size(); ++i) EXPECT_NEAR(C[i], ref[i], 1e-12) << i;
  dace_program_release(p);
  dace_sdfg_release(sdfg);
  dace_context_release(ctx);
}

}  // namespace
