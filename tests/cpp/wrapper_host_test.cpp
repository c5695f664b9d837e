// A host program written only against libdace.hpp (issue 9): it builds an SDFG with a loop made
// of interstate edges (conditions and assignments), a nested SDFG with a symbol mapping and a
// consume scope over a stream, compiles it, calls it and compares the results with plain C++
// loops computing the same thing.
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "libdace.hpp"

namespace {

// The nested SDFG: y[0] = sum(x[0:K]). Two states joined by an interstate edge: zero y, then
// accumulate with a WCR sum.
libdace::sdfg make_prefix_sum() {
  libdace::sdfg inner("prefix_sum");
  inner.add_symbol("K");
  inner.add_array("x", DACE_FLOAT64, "K");
  inner.add_array("y", DACE_FLOAT64, "1");
  libdace::state zero = inner.add_state("zero");
  const dace_id_t t = zero.add_tasklet("init", "", "o", "o = 0.0");
  zero.add_edge(t, "o", zero.add_access("y"), "", "y[0]");
  libdace::state acc = inner.add_state("accumulate");
  libdace::mapped_tasklet_options o;
  o.output_wcr = "sum";
  acc.add_mapped_tasklet("add", "j=0:K", "a: x[j]", "o = a", "o: y[0]", o);
  inner.add_interstate_edge(zero, acc);
  return inner;
}

// P[i] = A[0] + ... + A[i] for i < N, one nested call per iteration of a loop over interstate
// edges (i is assigned on the edges, K is mapped to i + 1); then every A[j] * A[j] + c is pushed
// to a stream and a consume scope (`num_pes` processing elements) adds what it pops into total[0].
libdace::sdfg make_host_program(libdace::schedule consume_schedule, const char* num_pes) {
  libdace::sdfg g("host_program");
  g.add_symbol("N");
  g.add_array("A", DACE_FLOAT64, "N");
  g.add_array("P", DACE_FLOAT64, "N");
  g.add_array("total", DACE_FLOAT64, "1");
  g.add_scalar("c", DACE_FLOAT64);
  libdace::array_options stream;
  stream.transient = true;
  g.add_stream("S", DACE_FLOAT64, {}, stream);

  // for (i = 0; i < N; i = i + 1) body, as a state machine.
  libdace::state init = g.add_state("init");
  libdace::state guard = g.add_state("guard");
  libdace::state body = g.add_state("body");
  libdace::state push = g.add_state("push");
  libdace::state drain = g.add_state("drain");
  g.add_interstate_edge(init, guard, {}, "i = 0");
  g.add_interstate_edge(guard, body, "i < N");
  const libdace::interstate_edge back = g.add_interstate_edge(body, guard);
  // Built in two steps to use the edge editing calls too.
  g.block_region(back.region).add_edge_assignment(back.edge, "i", "i + 1");
  const libdace::interstate_edge leave = g.add_interstate_edge(guard, push, "i < N");
  g.block_region(leave.region).set_edge_condition(leave.edge, "i >= N");
  g.add_interstate_edge(push, drain);

  // body: P[i] = sum(A[0:i+1]) through the nested SDFG.
  const libdace::sdfg inner = make_prefix_sum();
  const dace_id_t call = body.add_nested_sdfg(inner, "prefix", "x", "y", "K: i + 1");
  body.add_edge(body.add_access("A"), "", call, "x", "A[0:i + 1]");
  body.add_edge(call, "y", body.add_access("P"), "", "P[i]");

  // push: S <- A[j] * A[j] + c for every j (a map writing into the stream).
  push.add_mapped_tasklet("square", "j=0:N", "a: A[j]; k: c[0]", "s = a * a + k", "s: S[0]");

  // drain: consume S, total[0] += each element.
  const libdace::consume_scope cs = drain.add_consume("collect", "p", num_pes, {}, {}, consume_schedule);
  const dace_id_t add = drain.add_tasklet("add", "x", "o", "o = x");
  drain.add_edge(drain.add_access("S"), "", cs.entry, "IN_stream", "S[0]");
  drain.add_edge(cs.entry, "OUT_stream", add, "x", "S[0]");
  libdace::memlet_options sum;
  sum.wcr = "sum";
  drain.add_edge(add, "o", cs.exit, "IN_total", "total[0]", sum);
  drain.add_edge(cs.exit, "OUT_total", drain.add_access("total"), "", "total[0]", sum);
  return g;
}

struct consume_setup {
  libdace::schedule schedule;
  const char* num_pes;
};
// Test names and failure messages show this instead of the parameter's bytes.
void PrintTo(const consume_setup& c, std::ostream* os) {
  *os << "schedule " << static_cast<int>(c.schedule) << ", " << c.num_pes << " PEs";
}

class Host : public ::testing::TestWithParam<consume_setup> {};

TEST_P(Host, LoopNestedSdfgAndConsumeMatchPlainCxx) {
  libdace::sdfg g = make_host_program(GetParam().schedule, GetParam().num_pes);
  g.validate();

  // What was built reads back as built.
  const libdace::region root = g.root();
  bool saw_leave = false;
  for (dace_id_t e : root.edges()) {
    const libdace::interstate_endpoints ends = root.endpoints(e);
    if (ends.src == g.find_block("guard") && ends.dst == g.find_block("push")) {
      EXPECT_EQ(root.edge_condition(e), "i >= N");
      saw_leave = true;
    }
    if (ends.src == g.find_block("body")) {
      EXPECT_EQ(root.edge_assignments_text(e), "i = i + 1");
    }
  }
  EXPECT_TRUE(saw_leave);
  EXPECT_EQ(g.data_kind_of("S"), DACE_DATA_STREAM);
  EXPECT_TRUE(g.is_transient("S"));

  libdace::context ctx;
  libdace::program p(ctx, g);

  for (int64_t n : {1, 7, 40}) {
    std::vector<double> a(static_cast<size_t>(n)), prefix(static_cast<size_t>(n), -1.0), total = {2.5};
    for (size_t j = 0; j < a.size(); ++j) a[j] = 0.5 * static_cast<double>(j) - 3.0;
    const double c = 0.25;
    p({{"A", libdace::array_ref<const double>(a)},
       {"P", libdace::array_ref<double>(prefix)},
       {"total", libdace::array_ref<double>(total)},
       {"c", c}});

    // The same in plain C++ (the WCR adds to what total held).
    std::vector<double> want_prefix(a.size());
    double running = 0, want_total = 2.5;
    for (size_t j = 0; j < a.size(); ++j) {
      running += a[j];
      want_prefix[j] = running;
      want_total += a[j] * a[j] + c;
    }
    for (size_t j = 0; j < a.size(); ++j) EXPECT_DOUBLE_EQ(prefix[j], want_prefix[j]) << "n=" << n << " j=" << j;
    EXPECT_DOUBLE_EQ(total[0], want_total) << "n=" << n;
  }
}

// One processing element, and several popping concurrently (the WCR sum must still add every
// element exactly once).
INSTANTIATE_TEST_SUITE_P(Consume, Host,
                         ::testing::Values(consume_setup{DACE_SCHEDULE_DEFAULT, "1"},
                                           consume_setup{DACE_SCHEDULE_CPU_MULTICORE, "4"}),
                         [](const ::testing::TestParamInfo<consume_setup>& info) {
                           return info.param.schedule == DACE_SCHEDULE_DEFAULT ? std::string("Sequential")
                                                                               : std::string("Multicore");
                         });

}  // namespace
