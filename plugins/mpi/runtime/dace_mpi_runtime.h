/* The MPI plugin's runtime: what the code it lowers calls (plugins/mpi/lowering). It is
 * compiled against mpi.h and linked with libmpi, so JIT'd code never sees the MPI ABI
 * (handles differ between OpenMPI and MPICH): communicators, grids, subarray types and
 * requests stay behind a program-state pointer and 8-byte request slots.
 *
 * Element types are dace_mpi_dtype_t codes; reductions dace_mpi_op_t codes. A grid index of
 * -1 means the program's communicator (DaCe's MPI_COMM_WORLD: the host's communicator,
 * duplicated). Every call returns 0 or a failure: an MPI error code (the program's
 * communicators return errors: MPI_ERRORS_RETURN) or -1 for what the runtime detects itself;
 * dace_mpi_error_message then says what failed.
 *
 * Watchdog: with DACE_MPI_TIMEOUT=<seconds> (> 0) in the environment when the state is
 * created, every operation that can block (point-to-point, waits, collectives, block
 * scatter/gather; not ScaLAPACK's) runs in its nonblocking form and fails when it has not
 * completed after that many seconds, instead of hanging in a deadlock. */
#ifndef DACE_MPI_RUNTIME_H
#define DACE_MPI_RUNTIME_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DACE_MPI_EXPORT __attribute__((visibility("default")))

typedef enum dace_mpi_dtype_t {
  DACE_MPI_BOOL = 0, DACE_MPI_INT8, DACE_MPI_INT16, DACE_MPI_INT32, DACE_MPI_INT64, DACE_MPI_UINT8,
  DACE_MPI_UINT16, DACE_MPI_UINT32, DACE_MPI_UINT64, DACE_MPI_FLOAT32, DACE_MPI_FLOAT64,
  DACE_MPI_COMPLEX64, DACE_MPI_COMPLEX128, DACE_MPI_DTYPE_COUNT
} dace_mpi_dtype_t;

typedef enum dace_mpi_op_t {
  DACE_MPI_SUM = 0, DACE_MPI_PROD, DACE_MPI_MIN, DACE_MPI_MAX, DACE_MPI_LAND, DACE_MPI_LOR, DACE_MPI_LXOR,
  DACE_MPI_BAND, DACE_MPI_BOR, DACE_MPI_BXOR, DACE_MPI_OP_COUNT
} dace_mpi_op_t;

/* The communicator the next dace_mpi_state_create of this thread duplicates: the address of
 * an MPI_Comm, or NULL for MPI_COMM_WORLD. Set by libdace around program calls. */
DACE_MPI_EXPORT void dace_mpi_set_host_comm(const void* comm);

/* "<where>: rank R: <the last failure of `state`>" (state NULL: the last failure without a
 * state, such as dace_mpi_state_create's). The text stays valid for the life of the
 * process (the generated code hands it to the host in its status record). */
DACE_MPI_EXPORT const char* dace_mpi_error_message(void* state, const char* where);

/* Initialises MPI when nobody has (and then finalises it at process exit), duplicates the
 * host communicator (errors return), reads DACE_MPI_TIMEOUT and reserves `grids` process
 * grids and `subarrays` subarray types. NULL on failure (printed). */
DACE_MPI_EXPORT void* dace_mpi_state_create(int32_t grids, int32_t subarrays);
/* Frees every communicator, group, datatype and BLACS grid the state holds. NULL ignored. */
DACE_MPI_EXPORT int32_t dace_mpi_state_destroy(void* state);

/* DaCe's ProcessGrid: MPI_Cart_create over the program communicator (no periods, no
 * reordering); ranks outside the grid get an invalid grid. */
DACE_MPI_EXPORT int32_t dace_mpi_cart_create(void* state, int32_t grid, int32_t ndims, const int64_t* dims);
/* A sub-grid: MPI_Cart_sub of `parent` keeping the dimensions with remain[i] != 0. With
 * exact_rank >= 0 the sub-grid is valid only on ranks whose sub-grid holds that rank of the
 * parent. */
DACE_MPI_EXPORT int32_t dace_mpi_cart_sub(void* state, int32_t grid, int32_t parent, int32_t parent_ndims,
                                          const int32_t* remain, int64_t exact_rank);
/* DaCe's SubArray: the block type of an array `shape` tiled in `subshape` blocks over grid
 * `grid` (correspondence[i]: the grid dimension array dimension i is tiled over), with the
 * counts and displacements a Scatterv/Gatherv over that grid uses. */
DACE_MPI_EXPORT int32_t dace_mpi_subarray_create(void* state, int32_t id, int32_t grid, int32_t dtype, int32_t ndims,
                                                 const int64_t* shape, const int64_t* subshape,
                                                 const int32_t* correspondence);
/* The BLACS grid of the PBLAS nodes: prows x pcols, column-major ("C"), over the program
 * communicator (DaCe's ScaLAPACK environment: prows = Py, pcols = Px). */
DACE_MPI_EXPORT int32_t dace_mpi_blacs_init(void* state, int64_t prows, int64_t pcols);

/* The MPI map schedule: out[0] = the rank in the program communicator, out[1] = its size
 * (DaCe's __dace_comm_rank, __dace_comm_size). No MPI call: thread-safe. */
DACE_MPI_EXPORT int32_t dace_mpi_comm_info(void* state, int64_t* out);
/* This rank's block of an MPI map's outermost dimension start:end:step (end inclusive):
 * out[0] = the first iteration index k (the value is start + k * step), out[1] = how many.
 * The iterations are split into one contiguous block per rank, the first count % size ranks
 * taking one more (DaCe: one iteration per rank). Fails on step 0, and with one_per_rank
 * (MPITransformMap's tile map, whose step is count / __dace_comm_size) unless there are as
 * many iterations as ranks, i.e. unless the ranks divide the tiled iteration count. */
DACE_MPI_EXPORT int32_t dace_mpi_map_block(void* state, int64_t start, int64_t end, int64_t step, int32_t one_per_rank,
                                           int64_t* out);

DACE_MPI_EXPORT int32_t dace_mpi_bcast(void* state, void* buffer, int64_t count, int32_t dtype, int64_t root,
                                       int32_t grid);
/* in == out: in place. */
DACE_MPI_EXPORT int32_t dace_mpi_allreduce(void* state, const void* in, void* out, int64_t count, int32_t dtype,
                                           int32_t op, int32_t grid);
DACE_MPI_EXPORT int32_t dace_mpi_reduce(void* state, const void* in, void* out, int64_t count, int32_t dtype,
                                        int32_t op, int64_t root, int32_t grid);
/* in_count / out_count: the whole buffers; Scatter sends in_count / ranks elements to each
 * rank, Gather receives out_count / ranks from each (DaCe's counts). */
DACE_MPI_EXPORT int32_t dace_mpi_scatter(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                                         int64_t out_count, int32_t out_dtype, int64_t root);
DACE_MPI_EXPORT int32_t dace_mpi_gather(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                                        int64_t out_count, int32_t out_dtype, int64_t root);
DACE_MPI_EXPORT int32_t dace_mpi_allgather(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                                           int64_t out_count, int32_t out_dtype, int32_t grid);
/* DaCe's Alltoall: in_count / ranks elements to and from every rank. */
DACE_MPI_EXPORT int32_t dace_mpi_alltoall(void* state, const void* in, int64_t in_count, int32_t in_dtype, void* out,
                                          int64_t out_count, int32_t out_dtype, int32_t grid);
/* Point-to-point buffers: `count` elements as blocks of `block` contiguous elements repeated
 * over `levels` outer dimensions, outer[2i] times with starts outer[2i+1] elements apart
 * (outermost first; an MPI datatype of nested vectors, as DaCe sends strided slices of 2-D
 * arrays; levels 0 and block == count: contiguous, outer may be NULL). */
DACE_MPI_EXPORT int32_t dace_mpi_send(void* state, const void* buffer, int64_t count, int64_t block, int32_t levels,
                                      const int64_t* outer, int32_t dtype, int64_t dest, int64_t tag, int32_t grid);
DACE_MPI_EXPORT int32_t dace_mpi_recv(void* state, void* buffer, int64_t count, int64_t block, int32_t levels,
                                      const int64_t* outer, int32_t dtype, int64_t source, int64_t tag, int32_t grid);
/* `request`: an 8-byte slot (DaCe's opaque MPI_Request element). */
DACE_MPI_EXPORT int32_t dace_mpi_isend(void* state, const void* buffer, int64_t count, int64_t block, int32_t levels,
                                       const int64_t* outer, int32_t dtype, int64_t dest, int64_t tag, int32_t grid,
                                       void* request);
DACE_MPI_EXPORT int32_t dace_mpi_irecv(void* state, void* buffer, int64_t count, int64_t block, int32_t levels,
                                       const int64_t* outer, int32_t dtype, int64_t source, int64_t tag, int32_t grid,
                                       void* request);
/* tag / source may be NULL. */
DACE_MPI_EXPORT int32_t dace_mpi_wait(void* state, void* request, int32_t* tag, int32_t* source);
DACE_MPI_EXPORT int32_t dace_mpi_waitall(void* state, int64_t count, void* requests);

/* Strided buffers of collectives (the same count / block / levels / outer layout as
 * point-to-point buffers) go through a contiguous copy in the state's staging slot `slot`
 * (0 or 1): dace_mpi_stage copies the buffer's elements into the slot and sets *staged to it (valid
 * until the slot's next use), dace_mpi_unstage copies the slot back into the buffer. A copy
 * rather than an MPI derived type: MPI's reductions are defined on predefined types only,
 * and Scatter / Gather would need resized types per rank. */
DACE_MPI_EXPORT int32_t dace_mpi_stage(void* state, int32_t slot, const void* buffer, int64_t count, int64_t block,
                                       int32_t levels, const int64_t* outer, int32_t dtype, void** staged);
DACE_MPI_EXPORT int32_t dace_mpi_unstage(void* state, int32_t slot, void* buffer, int64_t count, int64_t block,
                                         int32_t levels, const int64_t* outer, int32_t dtype);

/* DaCe's BlockScatter / BlockGather over a subarray type (see dace_mpi_subarray_create);
 * grid -1 = none for the broadcast / reduction grid. */
DACE_MPI_EXPORT int32_t dace_mpi_block_scatter(void* state, const void* in, void* out, int64_t out_count,
                                               int32_t dtype, int32_t subarray, int32_t scatter_grid,
                                               int32_t bcast_grid);
DACE_MPI_EXPORT int32_t dace_mpi_block_gather(void* state, void* in, void* out, int64_t in_count, int32_t dtype,
                                              int32_t subarray, int32_t gather_grid, int32_t reduce_grid);

/* DaCe's Redistribute: this rank's block of the distribution `array_a` (a subarray type:
 * row-major blocks of its subshape over its grid, in `in`) into its block of `array_b` (in
 * `out`), by point-to-point messages of MPI subarray types on the program communicator and
 * local copies. Ranks outside array_a's grid send nothing, ranks outside array_b's receive
 * nothing. in_count / out_count: the buffers' elements (at least one block where used). */
DACE_MPI_EXPORT int32_t dace_mpi_redistribute(void* state, int32_t array_a, int32_t array_b, const void* in,
                                              int64_t in_count, void* out, int64_t out_count, int32_t dtype);

/* DaCe's Pgemm (ReferenceOpenMPI): the row-major local blocks of a distributed C = A @ B
 * (global m x k times k x n), block sizes a_rows x a_cols and b_rows x b_cols (C's:
 * a_rows x b_cols), computed by ScaLAPACK p?gemm on the BLACS grid (as C^T = B^T A^T in
 * column-major). dtype: float32, float64, complex64, complex128. a_count, b_count, c_count:
 * the elements the buffers hold. Before p?gemm runs, the ranks (all of the program's
 * communicator: a collective) agree that every grid process's buffers hold its local blocks
 * (numroc(rows) * numroc(cols) elements each); if not, every rank fails, naming the first rank
 * short of elements, the operand and the counts. */
DACE_MPI_EXPORT int32_t dace_mpi_pgemm(void* state, int32_t dtype, const void* a, const void* b, void* c, int64_t m,
                                       int64_t n, int64_t k, int64_t a_rows, int64_t a_cols, int64_t b_rows,
                                       int64_t b_cols, int64_t a_count, int64_t b_count, int64_t c_count);

/* DaCe's Pgemv (ReferenceOpenMPI): y = A @ x (transa 0) or A^T @ x (transa 1) for a global
 * m x n row-major A held in a_rows x a_cols local blocks on the BLACS grid; x and y are whole
 * vectors that ScaLAPACK reads and writes on grid process (0, 0) (DaCe's descriptors: one
 * block of the whole vector there), by p?gemv on the column-major transpose. a_count,
 * x_count, y_count: the elements the buffers hold, checked on every rank as Pgemm's (A's
 * local blocks on every grid process, x and y on process (0, 0)). */
DACE_MPI_EXPORT int32_t dace_mpi_pgemv(void* state, int32_t dtype, int32_t transa, const void* a, const void* x, void* y,
                                       int64_t m, int64_t n, int64_t a_rows, int64_t a_cols, int64_t a_count,
                                       int64_t x_count, int64_t y_count);

/* DaCe's BlockCyclicScatter / BlockCyclicGather (dace.comm.BCScatter / BCGather; DaCe 1.0.2
 * has MKL implementations only): a row-major rows x cols matrix held whole by BLACS grid
 * process (0, 0) (rank 0) to and from the row-major local blocks that Pgemm reads, blocks of
 * brows x bcols, block (i, j) on the process at grid row j % prows, column i % pcols (the
 * transpose's block-cyclic layout: the local array is the column-major block of the
 * transpose, i.e. the row-major block), by p?geadd between the two descriptors. gdesc /
 * ldesc (may be null) receive the descriptors of the whole matrix and of the blocks.
 * in_count / out_count: the elements the buffers hold. Before anything is copied or written,
 * the ranks (all of the program's communicator: a collective) agree that the local blocks fit
 * (numroc(rows) * numroc(cols) elements on every grid process) and the whole matrix fits on
 * grid process (0, 0); if not, every rank fails, naming the rank and the counts. A vector of n
 * elements is passed as the 1 x n matrix in 1 x b blocks (DaCe's vector layout: blocks of b
 * over the process rows of process column 0). */
DACE_MPI_EXPORT int32_t dace_mpi_bc_scatter(void* state, int32_t dtype, const void* in, void* out, int64_t rows,
                                            int64_t cols, int64_t brows, int64_t bcols, int64_t in_count,
                                            int64_t out_count, int32_t* gdesc, int32_t* ldesc);
DACE_MPI_EXPORT int32_t dace_mpi_bc_gather(void* state, int32_t dtype, const void* in, void* out, int64_t rows,
                                           int64_t cols, int64_t brows, int64_t bcols, int64_t in_count,
                                           int64_t out_count);

#ifdef __cplusplus
}
#endif
#endif
