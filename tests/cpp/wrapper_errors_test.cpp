// libdace.hpp: failing calls throw libdace::error with the library's element path, status
// and parse position, and leave the SDFG unchanged.
#include <gtest/gtest.h>

#include <string>

#include "libdace.hpp"
#include "wrapper_test_util.h"

namespace {

using wrapper_test::contains;
using wrapper_test::error_of;

// SDFG "errs": A[N], B[N], state "s0" with access node A and tasklet t(x -> y).
struct Fixture : ::testing::Test {
  libdace::sdfg g{"errs"};
  libdace::state s{nullptr, libdace::no_id};
  dace_id_t a = libdace::no_id, t = libdace::no_id;
  void SetUp() override {
    g.add_symbol("N");
    g.add_array("A", DACE_FLOAT64, "N");
    g.add_array("B", DACE_FLOAT64, "N");
    s = g.add_state("s0");
    a = s.add_access("A");
    t = s.add_tasklet("t", "x", "y", "y = x + 1");
  }
};

TEST(Check, OkDoesNotThrowAndFailureCopiesTheRecord) {
  EXPECT_NO_THROW(libdace::check(DACE_OK));
  // A real failure through the C API, then check() on its status.
  dace_sdfg_t* out = nullptr;
  const dace_status_t st = dace_sdfg_load_string(&out, "{ not json");
  ASSERT_NE(st, DACE_OK);
  const std::string expected = dace_last_error_message();
  const libdace::error e = error_of([&] { libdace::check(st); });
  EXPECT_EQ(e.code(), st);
  EXPECT_EQ(std::string(e.what()), expected);
  EXPECT_EQ(e.status_string(), std::string(dace_status_string(st)));
  EXPECT_GT(e.column(), 0);
}

TEST(Check, ErrorIsARuntimeError) {
  try {
    libdace::sdfg bad("not an identifier");
    FAIL() << "created an SDFG with an invalid name";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()), "");
  }
}

TEST_F(Fixture, UnknownContainerInMemletNamesTheEdge) {
  const libdace::error e = error_of([&] { s.add_edge(a, "", t, "x", "C[0]"); });
  EXPECT_EQ(e.code(), DACE_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(e.what(), "sdfg \"errs\" / state \"s0\"")) << e.what();
  EXPECT_TRUE(contains(e.what(), "\"C\"")) << e.what();
  EXPECT_TRUE(s.edges().empty());  // a failed call changes nothing
}

TEST_F(Fixture, MalformedMemletGivesTheColumn) {
  const libdace::error e = error_of([&] { s.add_edge(a, "", t, "x", "A[0:"); });
  EXPECT_EQ(e.code(), DACE_ERROR_PARSE);
  EXPECT_GT(e.column(), 0);
  EXPECT_TRUE(contains(e.what(), "state \"s0\"")) << e.what();
}

TEST_F(Fixture, UnknownConnectorNamesNodeAndConnector) {
  const libdace::error e = error_of([&] { s.add_edge(a, "", t, "zz", "A[0]"); });
  EXPECT_EQ(e.code(), DACE_ERROR_NOT_FOUND);
  EXPECT_TRUE(contains(e.what(), "Tasklet \"t\"")) << e.what();
  EXPECT_TRUE(contains(e.what(), "connector \"zz\"")) << e.what();
}

TEST_F(Fixture, TaskletSyntaxErrorGivesLineAndColumn) {
  const libdace::error e = error_of([&] { s.add_tasklet("t2", "x", "y, z", "y = x\nz = (x + ", DACE_LANGUAGE_PYTHON); });
  EXPECT_EQ(e.code(), DACE_ERROR_PARSE);
  EXPECT_EQ(e.line(), 2);
  EXPECT_GT(e.column(), 0);
  EXPECT_TRUE(contains(e.what(), "Tasklet \"t2\"")) << e.what();
  EXPECT_EQ(s.nodes().size(), 2u);
}

TEST_F(Fixture, InvalidSdfgFailsValidationWithThePath) {
  // The tasklet's output connector has no edge and the access node is isolated.
  const libdace::error e = error_of([&] { g.validate(); });
  EXPECT_EQ(e.code(), DACE_ERROR_INVALID_SDFG);
  EXPECT_TRUE(contains(e.what(), "sdfg \"errs\" / state \"s0\" / node ")) << e.what();
  EXPECT_EQ(e.line(), 0);
}

TEST_F(Fixture, InvalidSdfgDoesNotCompile) {
  libdace::context ctx;
  const libdace::error e = error_of([&] { libdace::program p(ctx, g); });
  EXPECT_EQ(e.code(), DACE_ERROR_INVALID_SDFG);
  EXPECT_TRUE(contains(e.what(), "state \"s0\"")) << e.what();
}

TEST_F(Fixture, DuplicateNamesAndUnknownIds) {
  EXPECT_EQ(error_of([&] { g.add_array("A", DACE_FLOAT32, "4"); }).code(), DACE_ERROR_ALREADY_EXISTS);
  EXPECT_EQ(error_of([&] { g.add_state("s0"); }).code(), DACE_ERROR_ALREADY_EXISTS);
  EXPECT_EQ(error_of([&] { s.remove_node(99); }).code(), DACE_ERROR_NOT_FOUND);
  EXPECT_EQ(error_of([&] { (void)g.data_property("A", "no_such_property"); }).code(), DACE_ERROR_NOT_FOUND);
}

TEST(Files, MissingFileThrows) {
  const libdace::error e = error_of([] { (void)libdace::sdfg::load_file("/nonexistent/dir/x.sdfg"); });
  EXPECT_NE(e.code(), DACE_OK);
  EXPECT_TRUE(contains(e.what(), "/nonexistent/dir/x.sdfg")) << e.what();
}

TEST(Context, OptionsRoundTrip) {
  libdace::context ctx;
  EXPECT_FALSE(ctx.option("wrapper_test_key").has_value());
  ctx.set_option("wrapper_test_key", "v1");
  EXPECT_EQ(ctx.option("wrapper_test_key").value_or(""), "v1");
  ctx.remove_option("wrapper_test_key");
  EXPECT_FALSE(ctx.option("wrapper_test_key").has_value());
}

}  // namespace
