// libdace.hpp on a real DaCe 1.0.2 SDFG: load the corpus gemm, run it on its recorded
// inputs and compare with NumPy's recorded output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include "libdace.hpp"
#include "npy_file.h"

namespace {

std::string corpus_dir() {
  if (const char* env = std::getenv("LIBDACE_CORPUS_DIR")) return env;
#ifdef LIBDACE_CORPUS_DIR
  return LIBDACE_CORPUS_DIR;
#else
  return "/work/shared/sdfg-corpus";
#endif
}

TEST(Corpus, GemmMatchesNumpyOutput) {
  const std::string dir = corpus_dir() + "/gemm/";
  if (!std::ifstream(dir + "gemm.simp.sdfg")) GTEST_SKIP() << "corpus not found at " << dir;
  auto A = npy_test::read_f8(dir + "in/A.npy");
  auto B = npy_test::read_f8(dir + "in/B.npy");
  auto C = npy_test::read_f8(dir + "in/C.npy");
  auto alpha = npy_test::read_f8(dir + "in/alpha.npy");
  auto beta = npy_test::read_f8(dir + "in/beta.npy");
  auto expected = npy_test::read_f8(dir + "out/C.npy");
  ASSERT_TRUE(A && B && C && alpha && beta && expected) << "unreadable .npy in " << dir;
  ASSERT_TRUE(alpha->shape.empty() && beta->shape.empty());
  ASSERT_EQ(C->shape, expected->shape);

  const libdace::sdfg g = libdace::sdfg::load_file(dir + "gemm.simp.sdfg");
  g.validate();
  libdace::context ctx;
  libdace::compile_options opts;
  opts.opt_level = 2;
  libdace::program p(ctx, g, opts);
  // NI, NJ, NK are inferred from the array shapes.
  p({{"A", libdace::array_ref<const double>(A->data.data(), A->shape)},
     {"B", libdace::array_ref<const double>(B->data.data(), B->shape)},
     {"C", libdace::array_ref(C->data.data(), C->shape)},
     {"alpha", alpha->data[0]},
     {"beta", beta->data[0]}});
  // case.json: atol 1e-12, rtol 1e-10.
  for (size_t k = 0; k < C->data.size(); ++k)
    EXPECT_LE(std::fabs(C->data[k] - expected->data[k]), 1e-12 + 1e-10 * std::fabs(expected->data[k])) << k;
}

}  // namespace
