// DaCe's MPI map schedule under `mpirun -np P` (any P >= 1), from a host that does not link
// MPI. Every rank checks its own arrays against plain loops over the block the schedule's
// contract gives it (docs/mpi.md: the outermost dimension split into contiguous blocks, the
// first count % P ranks one iteration more; elements of other blocks left alone):
//   - a map r = 0:P, j = 0:L (DaCe's one iteration per rank) writing B[r*L + j] and the
//     symbols __dace_comm_rank / __dace_comm_size into R[r];
//   - a map over more iterations than ranks with a start and a step (i = 2:N:3), and one
//     over fewer (i = 0:2: ranks >= 2 write nothing);
//   - MPITransformMap applied through the C API to B[i] = A[i] * 2 + 1 (N = 12): each rank
//     computes its tile N/P; with N = 3P + 1 the ranks fail naming the map (no overrun);
//   - a step of 0 fails as a status naming the map and the rank (no crash, no hang);
//   - __dace_comm_rank / __dace_comm_size outside MPI maps (a tasklet, an interstate
//     condition), bound program-wide as in DaCe's MPI target;
//   - where the program binds them and MPI maps use them too, the rank and size are fetched
//     once (the dumped LLVM IR of the first program calls dace_mpi_comm_info once, not once
//     per map as well).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "libdace.hpp"
#include "rank_check.h"

namespace {

using namespace mpi_test;

// The iterations [first, first + count) of `total` that rank `rank` of `size` runs.
std::pair<int64_t, int64_t> my_block(int64_t total, int rank, int size) {
  int64_t first = 0;
  for (int r = 0; r < size; ++r) {
    const int64_t n = total / size + (r < total % size ? 1 : 0);
    if (r == rank) return {first, n};
    first += n;
  }
  return {0, 0};
}

libdace::program compile(libdace::context& ctx, const libdace::sdfg& g) { return libdace::program(ctx, g); }

void check_one_iteration_per_rank() {
  const int64_t L = 3, P = kSize;
  libdace::sdfg g("mpi_rows");
  g.add_symbol("L");
  g.add_symbol("P");
  g.add_array("A", DACE_FLOAT64, "P*L");
  g.add_array("B", DACE_FLOAT64, "P*L");
  g.add_array("R", DACE_INT64, "P");
  // Declared as DaCe's MPITransformMap declares __dace_comm_size; the schedule binds them.
  g.add_symbol("__dace_comm_rank");
  g.add_symbol("__dace_comm_size");
  libdace::state s = g.add_state("s");
  libdace::mapped_tasklet_options o;
  o.schedule_type = DACE_SCHEDULE_MPI;
  s.add_mapped_tasklet("rows", "r=0:P, j=0:L", "a: A[r*L + j]", "b = a * 2 + r", "b: B[r*L + j]", o);
  libdace::state s2 = g.add_state("s2");
  g.add_interstate_edge(s, s2);
  s2.add_mapped_tasklet("who", "r=0:P", "", "w = __dace_comm_rank * 100 + __dace_comm_size", "w: R[r]", o);
  libdace::context ctx;
  const std::filesystem::path dump =
      std::filesystem::temp_directory_path() / ("dace_mpi_map_ir." + std::to_string(getpid()));
  libdace::compile_options options;
  options.dump_dir = dump.string();
  libdace::program p(ctx, g, options);
  {
    std::ifstream ir(dump / "mpi_rows.ll");
    std::stringstream text;
    text << ir.rdbuf();
    const std::string t = text.str();
    size_t calls = 0;
    for (size_t at = t.find("call i32 @dace_mpi_comm_info("); at != std::string::npos;
         at = t.find("call i32 @dace_mpi_comm_info(", at + 1))
      ++calls;
    expect(!t.empty(), "the dumped IR " + (dump / "mpi_rows.ll").string() + " is missing");
    expect(calls == 1, "rank and size fetched " + std::to_string(calls) +
                           " times (program entry and two MPI maps: once is enough)");
    std::filesystem::remove_all(dump);
  }
  std::vector<double> a(static_cast<size_t>(P * L)), b(static_cast<size_t>(P * L), -1);
  std::vector<int64_t> who(static_cast<size_t>(P), -1);
  for (size_t k = 0; k < a.size(); ++k) a[k] = 0.5 * static_cast<double>(k) + kRank;  // ranks differ
  p({{"A", libdace::array_ref<double>(a.data(), {P * L})}, {"B", libdace::array_ref<double>(b.data(), {P * L})},
     {"R", libdace::array_ref<int64_t>(who.data(), {P})}, {"L", libdace::symbol{L}}, {"P", libdace::symbol{P}}});
  for (int64_t r = 0; r < P; ++r) {
    for (int64_t j = 0; j < L; ++j) {
      const size_t k = static_cast<size_t>(r * L + j);
      const double want = r == kRank ? a[k] * 2 + static_cast<double>(r) : -1;
      expect(b[k] == want, "MPI map r=0:P, j=0:L: B[" + std::to_string(k) + "] = " + std::to_string(b[k]));
    }
    const int64_t want = r == kRank ? 100 * kRank + P : -1;
    expect(who[static_cast<size_t>(r)] == want, "MPI map: __dace_comm_rank/size in R[" + std::to_string(r) + "] = " +
                                                    std::to_string(who[static_cast<size_t>(r)]));
  }
}

// __dace_comm_rank / __dace_comm_size outside any MPI map (DaCe's MPI target defines them
// for the whole program): a tasklet in the first state writes R[0] = rank * 100 + size, an
// interstate condition on the rank picks the state that writes R[1]; an Allreduce gives the
// SDFG its MPI program state (X summed over the ranks).
void check_program_wide_symbols() {
  const int P = kSize;
  libdace::sdfg g("mpi_comm_symbols");
  g.add_array("R", DACE_INT64, "2");
  g.add_array("X", DACE_FLOAT64, "2");
  g.add_symbol("__dace_comm_rank");
  g.add_symbol("__dace_comm_size");
  libdace::state s = g.add_state("s");
  dace_id_t t = s.add_tasklet("who", "", "w", "w = __dace_comm_rank * 100 + __dace_comm_size");
  s.add_edge(t, "w", s.add_access("R"), "", "R[0]");
  dace_id_t n = s.add_library_node("sum", "dace.libraries.mpi.nodes.allreduce.Allreduce", "_inbuffer", "_outbuffer", "",
                                   "{\"op\": \"MPI_SUM\"}");
  s.add_edge(s.add_access("X"), "", n, "_inbuffer", "X[0:2]");
  s.add_edge(n, "_outbuffer", s.add_access("X"), "", "X[0:2]");
  libdace::state first = g.add_state("rank0"), other = g.add_state("other");
  dace_id_t t0 = first.add_tasklet("seven", "", "v", "v = 7");
  first.add_edge(t0, "v", first.add_access("R"), "", "R[1]");
  dace_id_t t1 = other.add_tasklet("nine", "", "v", "v = 9 + __dace_comm_rank");
  other.add_edge(t1, "v", other.add_access("R"), "", "R[1]");
  g.add_interstate_edge(s, first, "__dace_comm_rank == 0");
  g.add_interstate_edge(s, other, "__dace_comm_rank != 0");
  libdace::context ctx;
  libdace::program p = compile(ctx, g);
  std::vector<int64_t> r(2, -1);
  std::vector<double> x{1.0 + kRank, 0.5};
  p({{"R", libdace::array_ref<int64_t>(r.data(), {2})}, {"X", libdace::array_ref<double>(x.data(), {2})}});
  expect(r[0] == 100 * kRank + P, "__dace_comm_rank * 100 + __dace_comm_size outside a map: " + std::to_string(r[0]));
  expect(r[1] == (kRank == 0 ? 7 : 9 + kRank), "interstate condition on __dace_comm_rank: " + std::to_string(r[1]));
  expect(x[0] == P + P * (P - 1) / 2.0 && x[1] == 0.5 * P, "Allreduce beside the program-wide symbols");
}

// B[i] = i + 0.5 for the iterations of `range` (over N elements) this rank runs.
void check_blocks(const std::string& range, int64_t N, int64_t start, int64_t step, int64_t total) {
  libdace::sdfg g("mpi_blocks");
  g.add_symbol("N");
  g.add_array("B", DACE_FLOAT64, "N");
  libdace::state s = g.add_state("s");
  libdace::mapped_tasklet_options o;
  o.schedule_type = DACE_SCHEDULE_MPI;
  s.add_mapped_tasklet("blocks", "i=" + range, "", "b = i + 0.5", "b: B[i]", o);
  libdace::context ctx;
  libdace::program p = compile(ctx, g);
  std::vector<double> b(static_cast<size_t>(N), -1);
  p({{"B", libdace::array_ref<double>(b.data(), {N})}, {"N", libdace::symbol{N}}});
  std::vector<double> want(static_cast<size_t>(N), -1);
  auto [first, count] = my_block(total, kRank, kSize);
  for (int64_t k = first; k < first + count; ++k) {
    const int64_t i = start + k * step;
    want[static_cast<size_t>(i)] = static_cast<double>(i) + 0.5;
  }
  expect(b == want, "MPI map i=" + range + " (N = " + std::to_string(N) + "): this rank's block of " +
                        std::to_string(total) + " iterations");
}

void check_transform_map() {
  libdace::sdfg g("mpi_transformed");
  g.add_symbol("N");
  g.add_array("A", DACE_FLOAT64, "N");
  g.add_array("B", DACE_FLOAT64, "N");
  libdace::state s = g.add_state("s");
  s.add_mapped_tasklet("scale", "i=0:N", "a: A[i]", "b = a * 2 + 1", "b: B[i]");
  g.apply_transformation("MPITransformMap");
  libdace::context ctx;
  libdace::program p = compile(ctx, g);
  // N = 12 (divided by 1, 2, 3, 4 ranks): this rank's tile N / P; and, on more than one
  // rank, N = 3P + 1, which the ranks do not divide: a failure naming the map, not an overrun.
  for (int64_t N : {int64_t{12}, int64_t{3} * kSize + 1}) {
    const bool divides = N % kSize == 0;
    if (!divides && kSize == 1) continue;
    std::vector<double> a(static_cast<size_t>(N)), b(static_cast<size_t>(N), -1), want(static_cast<size_t>(N), -1);
    for (int64_t i = 0; i < N; ++i) a[static_cast<size_t>(i)] = static_cast<double>(i * i) - 7;
    const int64_t tile = N / kSize;
    for (int64_t i = kRank * tile; divides && i < (kRank + 1) * tile; ++i)
      want[static_cast<size_t>(i)] = a[static_cast<size_t>(i)] * 2 + 1;
    try {
      p({{"A", libdace::array_ref<double>(a.data(), {N})}, {"B", libdace::array_ref<double>(b.data(), {N})},
         {"N", libdace::symbol{N}}});
      expect(divides, "MPITransformMap with N = " + std::to_string(N) + " on " + std::to_string(kSize) + " ranks ran");
    } catch (const libdace::error& e) {
      const std::string m = e.what();
      expect(!divides && m.find("MapEntry") != std::string::npos && m.find("tiles for") != std::string::npos,
             "MPITransformMap with N = " + std::to_string(N) + ": " + m);
    }
    expect(b == want, "MPITransformMap with N = " + std::to_string(N) + ": this rank's tile of B");
  }
}

void check_zero_step() {
  libdace::sdfg g("mpi_zero_step");
  g.add_symbol("N");
  g.add_symbol("S");
  g.add_array("B", DACE_FLOAT64, "N");
  libdace::state s = g.add_state("s");
  libdace::mapped_tasklet_options o;
  o.schedule_type = DACE_SCHEDULE_MPI;
  s.add_mapped_tasklet("stuck", "i=0:N:S", "", "b = 1.0", "b: B[i]", o);
  libdace::context ctx;
  libdace::program p = compile(ctx, g);
  std::vector<double> b(4, -1);
  try {
    p({{"B", libdace::array_ref<double>(b.data(), {4})}, {"N", libdace::symbol{4}}, {"S", libdace::symbol{0}}});
    expect(false, "an MPI map with step 0 ran");
  } catch (const libdace::error& e) {
    const std::string m = e.what();
    expect(e.code() == DACE_ERROR_RUNTIME, "step 0: code " + std::to_string(e.code()));
    expect(m.find("MapEntry") != std::string::npos && m.find("step 0") != std::string::npos &&
               m.find("rank " + std::to_string(kRank)) != std::string::npos,
           "step 0: message names the map, the rank and the step: " + m);
  }
  expect(b == std::vector<double>(4, -1), "step 0: nothing written");
}

}  // namespace

int main() {
  try {
    check_one_iteration_per_rank();
    check_program_wide_symbols();
    check_blocks("2:N:3", 20, 2, 3, 6);  // 2, 5, ..., 17
    check_blocks("0:2", 4, 0, 1, 2);     // fewer iterations than ranks (on 4 ranks)
    check_blocks("0:N", 10, 0, 1, 10);
    check_transform_map();
    check_zero_step();
  } catch (const std::exception& e) {
    expect(false, e.what());
  }
  if (failures == 0) std::printf("rank %d of %d: all MPI map checks passed\n", kRank, kSize);
  return failures == 0 ? 0 : 1;
}
