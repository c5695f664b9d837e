// libdace.hpp: move-only ownership, copies, serialization round trips, queries, dtype
// deduction.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "libdace.hpp"

namespace {

static_assert(!std::is_copy_constructible_v<libdace::sdfg>);
static_assert(!std::is_copy_assignable_v<libdace::sdfg>);
static_assert(std::is_nothrow_move_constructible_v<libdace::sdfg>);
static_assert(std::is_nothrow_move_assignable_v<libdace::sdfg>);
static_assert(!std::is_copy_constructible_v<libdace::context>);
static_assert(std::is_nothrow_move_constructible_v<libdace::context>);
static_assert(!std::is_copy_constructible_v<libdace::program>);
static_assert(std::is_nothrow_move_constructible_v<libdace::program>);

static_assert(libdace::dtype_of_v<bool> == DACE_BOOL);
static_assert(libdace::dtype_of_v<int8_t> == DACE_INT8);
static_assert(libdace::dtype_of_v<int16_t> == DACE_INT16);
static_assert(libdace::dtype_of_v<int32_t> == DACE_INT32);
static_assert(libdace::dtype_of_v<int64_t> == DACE_INT64);
static_assert(libdace::dtype_of_v<long long> == DACE_INT64);
static_assert(libdace::dtype_of_v<uint8_t> == DACE_UINT8);
static_assert(libdace::dtype_of_v<uint16_t> == DACE_UINT16);
static_assert(libdace::dtype_of_v<uint32_t> == DACE_UINT32);
static_assert(libdace::dtype_of_v<uint64_t> == DACE_UINT64);
static_assert(libdace::dtype_of_v<float> == DACE_FLOAT32);
static_assert(libdace::dtype_of_v<double> == DACE_FLOAT64);
static_assert(libdace::dtype_of_v<const double> == DACE_FLOAT64);
static_assert(libdace::dtype_of_v<std::complex<float>> == DACE_COMPLEX64);
static_assert(libdace::dtype_of_v<std::complex<double>> == DACE_COMPLEX128);
static_assert(libdace::array_ref<const std::complex<double>>::element_dtype == DACE_COMPLEX128);

// x[i] = y[i] + 1 for i < N.
libdace::sdfg make_small(const char* name) {
  libdace::sdfg g(name);
  g.add_symbol("N");
  g.add_array("x", DACE_FLOAT64, "N");
  g.add_array("y", DACE_FLOAT64, "N");
  g.add_state("main").add_mapped_tasklet("inc", "i=0:N", "a: y[i]", "b = a + 1", "b: x[i]");
  return g;
}

TEST(Sdfg, MoveTransfersOwnership) {
  libdace::sdfg a = make_small("first");
  dace_sdfg_t* raw = a.get();
  libdace::sdfg b(std::move(a));
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_TRUE(b);
  EXPECT_EQ(b.get(), raw);
  EXPECT_EQ(b.name(), "first");

  libdace::sdfg c = make_small("second");
  c = std::move(b);  // releases "second"
  EXPECT_EQ(c.name(), "first");
  EXPECT_FALSE(b);  // NOLINT(bugprone-use-after-move)
}

TEST(Sdfg, EmptyObjectsThrowInsteadOfCrashing) {
  libdace::sdfg g;
  EXPECT_FALSE(g);
  EXPECT_THROW((void)g.name(), libdace::error);
  EXPECT_THROW(g.add_symbol("N"), libdace::error);
  libdace::program p;
  EXPECT_FALSE(p);
  try {
    p({});
    ADD_FAILURE() << "calling an empty program did not throw";
  } catch (const libdace::error& e) {
    EXPECT_EQ(e.code(), DACE_ERROR_INVALID_ARGUMENT);
  }
}

TEST(Sdfg, ReleaseHandsOverTheHandle) {
  libdace::sdfg a = make_small("handover");
  dace_sdfg_t* raw = a.release();
  EXPECT_FALSE(a);
  libdace::sdfg back = libdace::sdfg::adopt(raw);
  EXPECT_EQ(back.name(), "handover");
}

TEST(Sdfg, CloneIsIndependent) {
  libdace::sdfg g = make_small("orig");
  libdace::sdfg copy = g.clone();
  EXPECT_TRUE(g.equal(copy));
  EXPECT_EQ(g.difference(copy), "");
  EXPECT_EQ(g.hash(), copy.hash());
  copy.set_transient("y", true);
  EXPECT_FALSE(g.equal(copy));
  EXPECT_NE(g.difference(copy), "");
  EXPECT_NE(g.hash(), copy.hash());
  EXPECT_EQ(g.data_property("y", "transient"), "0");
  EXPECT_EQ(copy.data_property("y", "transient"), "1");
}

TEST(Sdfg, JsonAndBufferRoundTrips) {
  const libdace::sdfg g = make_small("trip");
  const std::string json = g.to_json();
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.front(), '{');
  const libdace::sdfg from_json = libdace::sdfg::load_string(json);
  EXPECT_TRUE(g.equal(from_json)) << g.difference(from_json);

  libdace::save_options compact;
  compact.compact = true;
  EXPECT_EQ(g.to_json(compact).find('\n'), std::string::npos);

  libdace::save_options gz;
  gz.gzip = true;
  const auto bytes = g.save_buffer(gz);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(bytes[0], 0x1f);  // gzip magic
  EXPECT_EQ(bytes[1], 0x8b);
  const libdace::sdfg from_gz = libdace::sdfg::load_buffer(bytes.data(), bytes.size());
  EXPECT_EQ(g.hash(), from_gz.hash());
}

TEST(Sdfg, SaveAndLoadFiles) {
  const libdace::sdfg g = make_small("files");
  const std::string base = ::testing::TempDir() + "libdace_wrapper_files";
  for (const std::string ext : {".sdfg", ".sdfgz"}) {
    const std::string path = base + ext;
    g.save(path);
    const libdace::sdfg back = libdace::sdfg::load_file(path);
    EXPECT_TRUE(g.equal(back)) << ext << ": " << g.difference(back);
    std::remove(path.c_str());
  }
}

TEST(Sdfg, Queries) {
  libdace::sdfg g = make_small("q");
  g.add_scalar("s", DACE_FLOAT32);
  libdace::array_options t;
  t.transient = true;
  g.add_array("tmp", DACE_INT32, "N, 2", t);
  EXPECT_EQ(g.data_names(), (std::vector<std::string>{"s", "tmp", "x", "y"}));
  EXPECT_EQ(g.data_dtype("tmp"), DACE_INT32);
  EXPECT_EQ(g.data_property("tmp", "transient"), "1");
  EXPECT_EQ(g.data_property("tmp", "shape"), "N, 2");
  ASSERT_EQ(g.symbols().size(), 1u);
  EXPECT_EQ(g.symbols()[0].first, "N");
  EXPECT_EQ(g.symbols()[0].second, DACE_INT64);
  EXPECT_EQ(g.free_symbols(), (std::vector<std::string>{"N"}));
  // Arrays by name, then scalars and symbols together by name ("N" < "s").
  EXPECT_EQ(g.arguments(), (std::vector<std::string>{"x", "y", "N", "s"}));
  g.remove_data("tmp");
  EXPECT_EQ(g.data_names().size(), 3u);

  const auto states = g.states();
  ASSERT_EQ(states.size(), 1u);
  EXPECT_EQ(g.block_label(states[0]), "main");
  EXPECT_EQ(g.find_block("main"), states[0].id());
  EXPECT_EQ(g.kind(states[0]), DACE_BLOCK_STATE);
  EXPECT_EQ(states[0].nodes().size(), 5u);  // entry, exit, tasklet, y, x
  EXPECT_EQ(states[0].edges().size(), 4u);
}

TEST(Sdfg, ControlFlowBuilders) {
  libdace::sdfg g("cf");
  g.add_symbol("N");
  const libdace::state init = g.add_state("init");
  const libdace::region loop = g.add_loop("loop", "k", "k = 0", "k < N", "k = k + 1");
  const libdace::state body = loop.add_state("body");
  const libdace::conditional cond = loop.add_conditional("choose");
  const libdace::region then_branch = cond.add_branch("k > 2");
  const libdace::region else_branch = cond.add_branch();
  then_branch.add_break();
  else_branch.add_state("keep_going");
  const libdace::interstate_edge e1 = g.add_interstate_edge(init, loop, "N > 0", "m = N");
  EXPECT_EQ(e1.region, libdace::root_region);
  const libdace::interstate_edge e2 = g.add_interstate_edge(body, cond);
  EXPECT_EQ(e2.region, loop.id());
  EXPECT_EQ(g.block_property(loop, "condition"), "k < N");
  EXPECT_EQ(g.kind(cond), DACE_BLOCK_CONDITIONAL);
  EXPECT_EQ(cond.branches().size(), 2u);
  EXPECT_EQ(loop.blocks().size(), 2u);
  EXPECT_EQ(g.root().blocks().size(), 2u);
  EXPECT_EQ(g.root().start_block(), init.id());
  EXPECT_NO_THROW(g.validate());
}

TEST(Sdfg, NestedSdfgHandleIsBorrowed) {
  libdace::sdfg inner = make_small("inner");
  libdace::sdfg outer("outer");
  outer.add_symbol("N");
  outer.add_array("X", DACE_FLOAT64, "N");
  outer.add_array("Y", DACE_FLOAT64, "N");
  const libdace::state s = outer.add_state("s");
  const dace_id_t node = s.add_nested_sdfg(inner, "call_inner", "y", "x");
  s.add_edge(s.add_access("Y"), "", node, "y", "Y[0:N]");
  s.add_edge(node, "x", s.add_access("X"), "", "X[0:N]");
  EXPECT_NO_THROW(outer.validate());
  {
    libdace::sdfg borrowed = s.nested_sdfg(node);
    EXPECT_EQ(borrowed.name(), "inner");
    EXPECT_NE(borrowed.get(), inner.get());  // the node holds a copy
  }  // destroying the borrowed handle must not free the nested SDFG
  EXPECT_EQ(s.nested_sdfg(node).name(), "inner");
  EXPECT_NO_THROW(outer.validate());
  EXPECT_EQ(s.node_property(node, "sdfg_name"), "inner");
}

TEST(Sdfg, EdgeQueries) {
  libdace::sdfg g("eq");
  g.add_array("A", DACE_FLOAT64, "4");
  g.add_array("B", DACE_FLOAT64, "4");
  const libdace::state s = g.add_state();
  const dace_id_t a = s.add_access("A");
  const dace_id_t b = s.add_access("B");
  const dace_id_t t = s.add_tasklet("copy", "i", "o", "o = i");
  const dace_id_t e1 = s.add_edge(a, "", t, "i", "A[1]");
  const dace_id_t e2 = s.add_edge(t, "o", b, "", "B[2]");
  EXPECT_EQ(s.memlet(e1), "A[1]");
  const libdace::edge_endpoints ends = s.endpoints(e2);
  EXPECT_EQ(ends.src, t);
  EXPECT_EQ(ends.src_conn, "o");
  EXPECT_EQ(ends.dst, b);
  EXPECT_EQ(ends.dst_conn, "");
  EXPECT_EQ(s.in_edges(t), std::vector<dace_id_t>{e1});
  EXPECT_EQ(s.out_edges(t), std::vector<dace_id_t>{e2});
  EXPECT_EQ(s.kind(t), DACE_NODE_TASKLET);
  EXPECT_EQ(s.label(t), "copy");
  EXPECT_NO_THROW(g.validate());
}

}  // namespace
