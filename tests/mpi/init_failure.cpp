// A program whose MPI program state fails in __dace_init (a process grid larger than the
// communicator) must release what init allocated before it: its persistent containers and
// the state object (the host gets no state to call __dace_exit with). Run under
// `mpirun -np 1`: the grid asks for 2 ranks. The program has a 64 MiB persistent transient;
// the test creates it 8 times and checks, with glibc's mallinfo2 (such blocks are mmapped
// and counted in hblkhd), that the memory held afterwards did not grow by the blocks (a leak
// would hold 8 x 64 MiB). Each failure must be DACE_ERROR_RUNTIME naming the grid.
#include <malloc.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "libdace.hpp"
#include "rank_check.h"

namespace {

using namespace mpi_test;
constexpr int64_t kBlockElements = int64_t{1} << 23;  // 64 MiB of float64

std::string program_json() {
  libdace::sdfg g("persistent_then_grid");
  g.add_array("x", DACE_FLOAT64, "4");
  g.add_scalar("root", DACE_INT32);
  libdace::array_options persistent;
  persistent.transient = true;
  persistent.lifetime_type = DACE_LIFETIME_PERSISTENT;
  g.add_array("keep", DACE_FLOAT64, std::to_string(kBlockElements), persistent);
  libdace::state s = g.add_state("s");
  dace_id_t n = s.add_library_node("bcast", "dace.libraries.mpi.nodes.bcast.Bcast", "_inbuffer, _root", "_outbuffer");
  s.add_edge(s.add_access("x"), "", n, "_inbuffer", "x[0:4]");
  s.add_edge(s.add_access("root"), "", n, "_root", "root[0]");
  s.add_edge(n, "_outbuffer", s.add_access("x"), "", "x[0:4]");
  libdace::state t = g.add_state("t");
  dace_id_t k = t.add_tasklet("copy", "a", "b", "b = a");
  t.add_edge(t.add_access("x"), "", k, "a", "x[0]");
  t.add_edge(k, "b", t.add_access("keep"), "", "keep[0]");
  g.add_interstate_edge(s, t);
  // A process grid of 2 ranks (DaCe's _pgrids), which one rank cannot hold.
  std::string text = g.to_json();
  const std::string empty = "\"_pgrids\": {}";
  const std::string grid =
      "\"_pgrids\": {\"__pgrid\": {\"type\": \"ProcessGrid\", \"attributes\": {\"name\": \"__pgrid\", \"shape\": [\"2\"]}}}";
  size_t at = text.find(empty);
  if (at == std::string::npos) {
    at = text.find("\"attributes\": {");
    if (at == std::string::npos) return {};
    text.insert(at + 15, grid + ", ");
  } else {
    text.replace(at, empty.size(), grid);
  }
  return text;
}

size_t held() {
  struct mallinfo2 m = mallinfo2();
  return m.hblkhd + m.uordblks;
}

}  // namespace

int main() {
  if (kSize != 1) {
    std::printf("run with one rank\n");
    return 2;
  }
  const std::string json = program_json();
  expect(!json.empty(), "the SDFG's JSON has an attributes object");
  libdace::context ctx;
  libdace::sdfg g = libdace::sdfg::load_string(json);
  double x[4] = {1, 2, 3, 4};
  auto try_once = [&] {
    try {
      libdace::program p(ctx, g);  // init runs with the first call (symbols are known then)
      p({{"x", libdace::array_ref<double>(x, {4})}, {"root", int32_t{0}}});
      expect(false, "init of a 2-rank grid on 1 rank succeeded");
    } catch (const libdace::error& e) {
      const std::string what = e.what();
      expect(e.code() == DACE_ERROR_RUNTIME && what.find("__pgrid") != std::string::npos,
             "init failure names the grid (" + what + ")");
    }
  };
  try_once();  // compiles and caches; the first failure's one-off allocations settle
  const size_t before = held();
  for (int i = 0; i < 8; ++i) try_once();
  const size_t after = held();
  const size_t block = static_cast<size_t>(kBlockElements) * sizeof(double);
  std::printf("held before %zu, after 8 failed inits %zu (one persistent block: %zu)\n", before, after, block);
  expect(after < before + block, "failed inits released their persistent blocks");
  if (failures == 0) std::printf("init failure checks passed\n");
  return failures == 0 ? 0 : 1;
}
