/* A C99 host that initialises MPI itself and hands libdace its communicators through the
 * compile option mpi_comm (docs/mpi.md). Run under `mpirun -np 4`. argv[1] = the folder of
 * ../shared/sdfg-corpus-mpi. Checks, against values computed here by hand:
 *   1. allreduce_mean with mpi_comm NULL (MPI_COMM_WORLD, P = 4): every rank gets the mean
 *      over the 4 ranks of x*x, with x_r[i] = (r + 1) * (i + 1);
 *   2. the same program compiled with mpi_comm = a split communicator of 2 ranks (P = 2):
 *      ranks 0,1 get the mean over ranks {0, 1}, ranks 2,3 over {2, 3};
 *   3. block_matvec2d (a 2 x P/2 process grid) on that 2-rank communicator with P = 4 fails
 *      its initialisation with a status (a 2 x 2 grid needs 4 ranks) instead of hanging;
 *   4. after the programs are released MPI is still usable (libdace did not finalise the
 *      host's MPI) and the split communicator is intact.
 * Exit 0 = all checks passed on this rank. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "libdace.h"

#define N 20

static int failures = 0;

static void expect(int ok, const char* what, int rank) {
  if (!ok) {
    ++failures;
    fprintf(stderr, "rank %d: FAILED: %s (%s)\n", rank, what, dace_last_error_message());
  }
}

/* Runs allreduce_mean (x, N, P -> __return) and compares with the mean over `ranks` of x*x. */
static void run_mean(dace_context_t* ctx, dace_sdfg_t* sdfg, const void* comm, int p, const int* ranks, int rank,
                     const char* what) {
  dace_compile_options_t opts = DACE_COMPILE_OPTIONS_INIT;
  dace_program_t* prog = NULL;
  double x[N], out[N];
  int64_t shape[1] = {N};
  int i, j;
  opts.opt_level = 1;
  opts.mpi_comm = comm;
  if (dace_program_compile(&prog, ctx, sdfg, &opts) != DACE_OK) {
    expect(0, what, rank);
    return;
  }
  for (i = 0; i < N; ++i) {
    x[i] = (double)(rank + 1) * (double)(i + 1);
    out[i] = -1.0;
  }
  {
    const char* names[4] = {"x", "__return", "N", "P"};
    dace_arg_t args[4];
    memset(args, 0, sizeof args);
    args[0].kind = DACE_ARG_ARRAY;
    args[0].value.array.data = x;
    args[0].value.array.dtype = DACE_FLOAT64;
    args[0].value.array.ndim = 1;
    args[0].value.array.shape = shape;
    args[1] = args[0];
    args[1].value.array.data = out;
    args[2].kind = DACE_ARG_SYMBOL;
    args[2].value.i = N;
    args[3].kind = DACE_ARG_SYMBOL;
    args[3].value.i = p;
    expect(dace_program_call(prog, names, args, 4) == DACE_OK, what, rank);
  }
  for (i = 0; i < N; ++i) {
    double sum = 0.0;
    for (j = 0; j < p; ++j) sum += (double)((ranks[j] + 1) * (ranks[j] + 1)) * (double)((i + 1) * (i + 1));
    if (out[i] != sum / p) {
      fprintf(stderr, "rank %d: %s: element %d is %g, expected %g\n", rank, what, i, out[i], sum / p);
      ++failures;
      break;
    }
  }
  dace_program_release(prog);
}

int main(int argc, char** argv) {
  int rank = 0, size = 0, provided = 0;
  char path[4096];
  dace_context_t* ctx = NULL;
  dace_sdfg_t* mean = NULL;
  dace_sdfg_t* grid = NULL;
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size != 4) {
    if (rank == 0) fprintf(stderr, "usage: mpirun -np 4 %s SDFG_CORPUS_MPI_DIR\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  expect(dace_context_create(&ctx) == DACE_OK, "context", rank);
  snprintf(path, sizeof path, "%s/allreduce_mean/allreduce_mean.simp.sdfg", argv[1]);
  expect(dace_sdfg_load_file(&mean, path) == DACE_OK, "load allreduce_mean", rank);
  snprintf(path, sizeof path, "%s/block_matvec2d/block_matvec2d.simp.sdfg", argv[1]);
  expect(dace_sdfg_load_file(&grid, path) == DACE_OK, "load block_matvec2d", rank);
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);

  if (mean) {
    const int world[4] = {0, 1, 2, 3};
    const int mine[2] = {rank / 2 * 2, rank / 2 * 2 + 1};
    run_mean(ctx, mean, NULL, 4, world, rank, "allreduce_mean on MPI_COMM_WORLD");
    run_mean(ctx, mean, &half, 2, mine, rank, "allreduce_mean on a 2-rank communicator");
  }
  if (grid) {
    /* 2 x P/2 = 2 x 2 grid on 2 ranks: the state's initialisation fails on every rank. */
    dace_compile_options_t opts = DACE_COMPILE_OPTIONS_INIT;
    dace_program_t* prog = NULL;
    double a[12 * 16], x[16], y[12];
    int64_t sa[2] = {12, 16}, sx[1] = {16}, sy[1] = {12};
    const char* names[6] = {"A", "x", "y", "M", "N", "P"};
    dace_arg_t args[6];
    dace_status_t st;
    memset(args, 0, sizeof args);
    memset(a, 0, sizeof a);
    memset(x, 0, sizeof x);
    opts.opt_level = 1;
    opts.mpi_comm = &half;
    expect(dace_program_compile(&prog, ctx, grid, &opts) == DACE_OK, "compile block_matvec2d", rank);
    args[0].kind = DACE_ARG_ARRAY;
    args[0].value.array.data = a;
    args[0].value.array.dtype = DACE_FLOAT64;
    args[0].value.array.ndim = 2;
    args[0].value.array.shape = sa;
    args[1] = args[0];
    args[1].value.array.data = x;
    args[1].value.array.ndim = 1;
    args[1].value.array.shape = sx;
    args[2] = args[1];
    args[2].value.array.data = y;
    args[2].value.array.shape = sy;
    args[3].kind = DACE_ARG_SYMBOL;
    args[3].value.i = 12;
    args[4].kind = DACE_ARG_SYMBOL;
    args[4].value.i = 16;
    args[5].kind = DACE_ARG_SYMBOL;
    args[5].value.i = 4;
    st = prog ? dace_program_call(prog, names, args, 6) : DACE_OK;
    expect(prog != NULL && st == DACE_ERROR_RUNTIME, "a grid larger than the communicator fails init with a status",
           rank);
    dace_program_release(prog);
  }
  dace_sdfg_release(mean);
  dace_sdfg_release(grid);
  dace_context_release(ctx);
  {
    /* MPI is still up, and the host's communicator still works. */
    int one = 1, total = 0;
    expect(MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, half) == MPI_SUCCESS && total == 2,
           "the host's communicator after the programs", rank);
  }
  MPI_Comm_free(&half);
  MPI_Finalize();
  if (failures == 0 && rank == 0) printf("host_comm: all checks passed on 4 ranks\n");
  return failures == 0 ? 0 : 1;
}
