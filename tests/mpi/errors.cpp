// MPI failures as statuses, under `mpirun -np 2` (the host does not link MPI):
//  - a deadlock (both ranks receive first) fails on both ranks with DACE_ERROR_RUNTIME naming
//    the Recv node and the watchdog timeout, after about DACE_MPI_TIMEOUT seconds, not a hang;
//  - a large send nobody receives fails the sending rank the same way, and so does an
//    Allreduce that only rank 0 reaches;
//  - an MPI error (a send to a rank that does not exist) is the node's status, not an abort
//    (the program's communicators return errors);
//  - a DACE_MPI_TIMEOUT that is not a number fails the program's init with a message;
//  - afterwards a well-ordered exchange still works (MPI is usable after the failures).
// Every rank checks its own statuses; the expected texts are MPI's and the watchdog's.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "libdace.hpp"
#include "rank_check.h"

namespace {

using namespace mpi_test;
constexpr double kTimeout = 2.0;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A program whose states run, in order, the steps of `plan` ("send" / "recv" / "none") for
// this rank (a rank scalar selects the branch): buffers of N float64, peer = 1 - rank.
libdace::sdfg exchange(const char* name, const std::vector<std::string>& rank0, const std::vector<std::string>& rank1,
                       int dest_override = -1) {
  libdace::sdfg g(name);
  g.add_symbol("N");
  g.add_array("out", DACE_FLOAT64, "N");
  g.add_array("in", DACE_FLOAT64, "N");
  g.add_scalar("rank", DACE_INT32);
  libdace::array_options t;
  t.transient = true;
  g.add_scalar("peer", DACE_INT32, t);
  g.add_scalar("tag", DACE_INT32, t);
  libdace::state s0 = g.add_state("peer");
  {
    dace_id_t r = s0.add_access("rank"), p = s0.add_access("peer"), tg = s0.add_access("tag");
    std::string code = dest_override >= 0 ? "p = " + std::to_string(dest_override) + "\nt = 3" : "p = 1 - r\nt = 3";
    dace_id_t tk = s0.add_tasklet("peer_of", "r", "p, t", code);
    s0.add_edge(r, "", tk, "r", "rank[0]");
    s0.add_edge(tk, "p", p, "", "peer[0]");
    s0.add_edge(tk, "t", tg, "", "tag[0]");
  }
  libdace::state end = g.add_state("end");
  int counter = 0;
  auto chain = [&](const std::vector<std::string>& steps, const char* cond) {
    libdace::state prev = s0;
    bool first = true;
    for (const std::string& step : steps) {
      libdace::state s = g.add_state(step + "_" + std::to_string(counter++));
      if (step == "send") {
        dace_id_t b = s.add_access("out"), p = s.add_access("peer"), tg = s.add_access("tag");
        dace_id_t n = s.add_library_node("send", "dace.libraries.mpi.nodes.send.Send", "_buffer, _dest, _tag", "");
        s.add_edge(b, "", n, "_buffer", "out[0:N]");
        s.add_edge(p, "", n, "_dest", "peer[0]");
        s.add_edge(tg, "", n, "_tag", "tag[0]");
      } else if (step == "recv") {
        dace_id_t b = s.add_access("in"), p = s.add_access("peer"), tg = s.add_access("tag");
        dace_id_t n = s.add_library_node("recv", "dace.libraries.mpi.nodes.recv.Recv", "_src, _tag", "_buffer");
        s.add_edge(p, "", n, "_src", "peer[0]");
        s.add_edge(tg, "", n, "_tag", "tag[0]");
        s.add_edge(n, "_buffer", b, "", "in[0:N]");
      }
      if (first)
        g.add_interstate_edge(prev, s, cond);
      else
        g.add_interstate_edge(prev, s);
      first = false;
      prev = s;
    }
    if (first)
      g.add_interstate_edge(s0, end, cond);
    else
      g.add_interstate_edge(prev, end);
  };
  chain(rank0, "rank == 0");
  chain(rank1, "rank == 1");
  return g;
}

// Allreduce (MPI_SUM, in place) of x[N] on the ranks whose rank scalar satisfies `cond`.
libdace::sdfg allreduce_when(const char* name, const char* cond) {
  libdace::sdfg g(name);
  g.add_symbol("N");
  g.add_array("out", DACE_FLOAT64, "N");
  g.add_array("in", DACE_FLOAT64, "N");
  g.add_scalar("rank", DACE_INT32);
  libdace::state s0 = g.add_state("start");
  libdace::state s = g.add_state("reduce");
  dace_id_t a = s.add_access("in"), b = s.add_access("in");
  dace_id_t n = s.add_library_node("allreduce", "dace.libraries.mpi.nodes.allreduce.Allreduce", "_inbuffer",
                                   "_outbuffer", "", R"({"op": "MPI_SUM"})");
  s.add_edge(a, "", n, "_inbuffer", "in[0:N]");
  s.add_edge(n, "_outbuffer", b, "", "in[0:N]");
  libdace::state end = g.add_state("end");
  g.add_interstate_edge(s0, s, cond);
  g.add_interstate_edge(s, end);
  g.add_interstate_edge(s0, end, std::string("not (") + cond + ")");
  return g;
}

struct Outcome {
  bool failed = false;  // the call threw
  dace_status_t code = DACE_OK;
  std::string message;
  double seconds = 0;
};

Outcome run(const libdace::sdfg& g, int64_t n) {
  Outcome o;
  std::vector<double> out(static_cast<size_t>(n), 1.0 + kRank), in(static_cast<size_t>(n), 0.0);
  try {
    libdace::context ctx;
    libdace::program p(ctx, g);
    // Timed from the call (compiling is not part of it).
    auto start = std::chrono::steady_clock::now();
    struct Stop {
      Outcome& o;
      std::chrono::steady_clock::time_point start;
      ~Stop() { o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
    } stop{o, start};
    p({{"out", libdace::array_ref<double>(out.data(), {n})}, {"in", libdace::array_ref<double>(in.data(), {n})},
       {"rank", static_cast<int32_t>(kRank)}, {"N", libdace::symbol{n}}});
    if (!o.failed && n > 0) o.message = "in[0] = " + std::to_string(in[0]);
  } catch (const libdace::error& e) {
    o.failed = true;
    o.code = e.code();
    o.message = e.what();
  }
  std::printf("rank %d: %s after %.1f s: %s\n", kRank, o.failed ? "failed" : "ran", o.seconds, o.message.c_str());
  std::fflush(stdout);
  return o;
}

void expect_timeout(const Outcome& o, const std::string& op, const std::string& what) {
  expect(o.failed && o.code == DACE_ERROR_RUNTIME, what + ": fails with DACE_ERROR_RUNTIME");
  expect(contains(o.message, op), what + ": the message names " + op + " (" + o.message + ")");
  expect(contains(o.message, "did not complete within DACE_MPI_TIMEOUT=2 s"), what + ": the message names the timeout");
  expect(contains(o.message, "rank " + std::to_string(kRank) + ":"), what + ": the message names the rank");
  expect(o.seconds >= kTimeout * 0.9 && o.seconds < kTimeout + 60, what + ": fails after about the timeout");
}

}  // namespace

int main() {
  if (kSize != 2) {
    std::printf("SKIP: run under mpirun -np 2 (this world has %d ranks)\n", kSize);
    return 77;
  }
  setenv("DACE_MPI_TIMEOUT", "2", 1);
  try {
    // Both ranks receive first: a deadlock.
    Outcome dead = run(exchange("deadlock", {"recv", "send"}, {"recv", "send"}), 4);
    expect_timeout(dead, "MPI_Recv of 4 elements from rank " + std::to_string(1 - kRank) + " (tag 3)", "deadlock");
    expect(contains(dead.message, "recv"), "deadlock: the message names the Recv node (" + dead.message + ")");

    // Rank 0 sends 4 MiB (beyond any eager limit) to rank 1, which never receives.
    Outcome lost = run(exchange("unreceived", {"send"}, {}), 1 << 19);
    if (kRank == 0) expect_timeout(lost, "MPI_Send of 524288 elements to rank 1 (tag 3)", "unreceived send");
    else expect(!lost.failed, "unreceived send: the rank that sends nothing finishes");

    // Only rank 0 reaches the collective: it times out, rank 1 finishes.
    Outcome lonely = run(allreduce_when("lonely_collective", "rank == 0"), 4);
    if (kRank == 0) expect_timeout(lonely, "MPI_Allreduce", "collective reached by one rank");
    else expect(!lonely.failed, "collective reached by one rank: the other rank finishes");

    // A send to a rank outside the communicator: MPI's error, returned (not fatal).
    Outcome bad = run(exchange("bad_rank", {"send"}, {"send"}, 99), 4);
    expect(bad.failed && bad.code == DACE_ERROR_RUNTIME, "send to rank 99: DACE_ERROR_RUNTIME");
    expect(contains(bad.message, "MPI_Send of 4 elements to rank 99") && contains(bad.message, "MPI_ERR_RANK"),
           "send to rank 99: the message names the call and MPI's error (" + bad.message + ")");
    expect(!contains(bad.message, "did not complete"), "send to rank 99: MPI's error, not the watchdog's");

    // A malformed timeout fails init with a message.
    setenv("DACE_MPI_TIMEOUT", "soon", 1);
    Outcome malformed = run(exchange("malformed", {"send", "recv"}, {"recv", "send"}), 4);
    expect(malformed.failed && contains(malformed.message, "DACE_MPI_TIMEOUT=soon is not a number"),
           "malformed DACE_MPI_TIMEOUT: init fails saying why (" + malformed.message + ")");
    setenv("DACE_MPI_TIMEOUT", "2", 1);

    // A well-ordered exchange still works after all that.
    Outcome fine = run(exchange("ordered", {"send", "recv"}, {"recv", "send"}), 4);
    expect(!fine.failed && fine.message == "in[0] = " + std::to_string(1.0 + (1 - kRank)),
           "ordered exchange after the failures (" + fine.message + ")");
  } catch (const std::exception& e) {
    expect(false, e.what());
  }
  if (failures == 0) std::printf("rank %d of %d: all MPI failure checks passed\n", kRank, kSize);
  return failures == 0 ? 0 : 1;
}
