/*
 * gpureduce_mpi.h - one array spread over the ranks of an MPI
 * communicator, reduced to exactly the bits that gpureduce_reduce() gives
 * for the whole array on one device or on the host: for every operation,
 * type and flag, any number of ranks and any partition.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * libgpureduce_mpi, a library of its own over libgpureduce and MPI:
 *     cc ... $(pkg-config --cflags --libs gpureduce-mpi)
 * It is built when configure finds MPI (--with-mpi; its summary's "MPI"
 * line says which).  This header includes <mpi.h> and <gpureduce.h>.
 *
 * ---------------------------------------------------------------------------
 * Example: four ranks hold the F32 array {1e8, 1, -1e8, 1, .5, .25, .125,
 * .0625} of doc/ORDER.md's worked example as {1e8}, {1, -1e8}, {} and
 * {1, .5, .25, .125, .0625}.  On every rank
 *
 *     float sum;
 *     gpureduce_status_t s = gpureduce_mpi_reduce(part, &sum, n_part,
 *         GPUREDUCE_F32, GPUREDUCE_SUM, 0, MPI_COMM_WORLD, host_handle);
 *
 * gives s == GPUREDUCE_SUCCESS and sum == 1.9375f, the bits of
 * gpureduce_reduce() over the eight elements on one handle.  Local sums
 * followed by MPI_Allreduce(MPI_SUM) give 1.9375f or 0 by how the MPI
 * brackets the four local sums {1e8, -1e8, -0, 1.9375}: (1e8 + -1e8) +
 * (-0 + 1.9375) is 1.9375, 1e8 + (-1e8 + (-0 + 1.9375)) is 0.
 */
#ifndef GPUREDUCE_MPI_H
#define GPUREDUCE_MPI_H

#include <mpi.h>

#include <gpureduce.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Reduce an array whose parts are spread over the ranks of comm, in rank
 * order, to one value that every rank receives.
 *
 * The global array is the concatenation of every rank's part in the order
 * of the ranks of comm: rank r's n_local elements are the global elements
 * offset_r .. offset_r + n_local - 1, offset_r the sum of the n_local of
 * ranks 0 .. r-1; n_global is the sum over all ranks.  Counts are in
 * elements, not bytes.  Any partition is valid: empty ranks, one rank
 * holding everything, parts that start or end anywhere, inside a tile of
 * the reduction order too.
 *
 * Determinism.  output receives exactly the bytes that gpureduce_reduce()
 * gives for the whole array of n_global elements on one handle of either
 * backend, for every (type, op, flags) that gpureduce_reduce() takes; the
 * bits do not depend on the number of ranks, the partition, which ranks
 * use a host handle and which a CUDA handle (ranks may mix them, and
 * several ranks may share one GPU), the MPI implementation or its
 * algorithms.  ARGMIN and ARGMAX give the global index (a tie goes to the
 * lowest global index, a NaN's to the first NaN's).  How: each rank
 * reduces its part with gpureduce_partial_reduce() at its global offset
 * (the order is defined on global element indices: doc/ORDER.md, "Partial
 * results"), the ranks exchange the partials as bytes, and every rank
 * combines all of them with gpureduce_partial_combine().  MPI moves bytes
 * only (MPI_BYTE): no MPI reduction operation ever touches the data.
 *
 * @param input   this rank's n_local elements, in the handle's memory
 *                space: device memory of the handle's device (or managed
 *                memory) on a CUDA handle, host memory on the host handle;
 *                aligned to the element size.  May be NULL when n_local is
 *                0.  Read only.
 * @param output  gpureduce_result_size(type, op, flags) bytes, in the same
 *                memory space as input, aligned to that size; receives the
 *                result on every rank.  Untouched on error.  It may overlap
 *                input (the input is read before output is written).
 * @param n_local count of this rank's elements, 0 included.
 * @param type, op, flags  as for gpureduce_reduce() (GPUREDUCE_ACCUMULATE_F64,
 *                GPUREDUCE_WITH_VALUE); every rank must pass the same.
 * @param comm    an intra-communicator; every rank of it must make the
 *                call (the same sequence of calls on every rank, as for any
 *                MPI collective).  The library never sends on comm itself:
 *                the first call on comm duplicates it (MPI_Comm_dup, under
 *                comm's error handler), sets MPI_ERRORS_RETURN on the
 *                duplicate and keeps it, with grow-only host buffers, in an
 *                attribute of comm, freed when comm is freed (or at
 *                MPI_Finalize).  Its traffic never mixes with the caller's.
 * @param handle  this rank's handle, host or CUDA (from gpureduce_create());
 *                ranks need not agree on it.
 *
 * Collective and synchronizing.  The first collective of every call, on
 * the duplicate, is an MPI_Allgather of fixed slots: each rank's 48-byte
 * descriptor (its n_local, type, op, flags and the outcome of its local
 * checks) and, once a call on comm got as far as the partials, the
 * rank's partial at the offset that call's partition gives it.  In the
 * steady state, where every rank passes the same n_local, type, op and
 * flags as in the previous call on comm, that is the only collective (as
 * many as a local reduction plus MPI_Allreduce).  When the partition or
 * the kind changed, a second one, MPI_Allgatherv, carries the partials
 * made at the new offsets (each at most GPUREDUCE_PARTIAL_MAX_BYTES, 8
 * bytes more, usually a few hundred bytes plus the elements of the tiles
 * cut by the part's ends).  The call returns when this rank has the
 * result.  On a CUDA handle the partial reduction
 * enqueues its kernels on the handle's stream (ordered after work the
 * caller enqueued there, such as what writes input), copies the partial
 * to host memory and waits for the stream (cudaStreamSynchronize); the
 * result is then copied to output on that stream and waited for again.
 * So the call synchronizes the handle's stream, must not be captured in a
 * CUDA graph, and needs no CUDA-aware MPI (device data goes through host
 * memory).  On the host handle everything is synchronous.  The first call
 * on a communicator, or a larger exchange than before, grows the host
 * buffers; otherwise the call allocates nothing.
 *
 * Threads: the call may run in several threads at once only on different
 * communicators and handles, and only with MPI_THREAD_MULTIPLE; otherwise
 * as MPI's thread level allows.  Byte order: the ranks must share one
 * (the partials are host bytes); a rank of another byte order is detected
 * and refused.
 *
 * Errors.  Each rank first checks its own arguments without communicating;
 * the descriptors then carry every rank's outcome to every rank, so a bad
 * argument on one rank never leaves the others waiting, and every rank
 * returns the same status: that of the lowest rank that failed, with
 * gpureduce_last_message() (when handle is not NULL) naming it, such as
 * "rank 3: output is NULL".  Ranks that disagree on (type, op, flags) (and
 * no rank failed its checks) all return GPUREDUCE_ERROR_INVALID_ARGUMENT,
 * the message naming the lowest rank that differs from rank 0.  A failure
 * of a rank's partial reduction (an input in the wrong memory space, a
 * CUDA error) travels with the partials and is likewise every rank's
 * status.  Three failures are this rank's alone, after the exchange has
 * completed on every rank (no rank waits for it): the combine's
 * GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (an output in the wrong memory space,
 * which only the copy to it can check) and GPUREDUCE_ERROR_CUDA (that
 * copy failed), and GPUREDUCE_ERROR_OUT_OF_MEMORY (no host memory for
 * the communicator's state at the first call, a few dozen bytes a rank,
 * or for growing the buffer of the partials): that rank returns at once,
 * and the others wait in the collective it left, as for a rank that
 * died.  An MPI call that fails gives GPUREDUCE_ERROR_TRANSPORT on the ranks
 * where MPI reports it; with MPI's failure the others may wait (MPI's
 * own fault tolerance decides).
 *
 * @return GPUREDUCE_SUCCESS (on every rank);
 *         GPUREDUCE_ERROR_INVALID_HANDLE (a rank's handle is NULL);
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (on some rank, in this order of
 *         checks: unknown flags (after an unknown type or op, which is
 *         UNSUPPORTED), NULL output, NULL input with n_local > 0, input
 *         not aligned to its element size, output not aligned to its
 *         result size; or ranks that disagree on type, op or flags; the
 *         parts' n_local summing past 2^64; partials of more than INT_MAX
 *         bytes in all (MPI's counts); and, on this rank only, comm is
 *         MPI_COMM_NULL or an inter-communicator, or MPI is not
 *         initialized or already finalized: nothing was communicated, so
 *         these must hold on every rank alike);
 *         GPUREDUCE_ERROR_UNSUPPORTED (an unknown type or op, or flags
 *         that gpureduce_reduce() does not take with them);
 *         GPUREDUCE_ERROR_EMPTY_INPUT (n_global == 0 for ARGMIN, ARGMAX or
 *         MEAN_VAR: every rank's n_local is 0; on every rank);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (a rank's input is not in its
 *         handle's memory space: every rank; this rank's output: this rank
 *         only);
 *         GPUREDUCE_ERROR_CUDA (a rank's partial reduction failed: every
 *         rank; the copy to this rank's output: this rank only);
 *         GPUREDUCE_ERROR_OUT_OF_MEMORY (this rank could not allocate its
 *         host buffers; this rank only, see above);
 *         GPUREDUCE_ERROR_TRANSPORT (an MPI call failed; gpureduce_last_message()
 *         gives the call and MPI_Error_string's text, e.g.
 *         "MPI_Allgatherv: MPI_ERR_TRUNCATE: message truncated").
 *         On every error output is untouched, and the handle can still be
 *         used; after GPUREDUCE_ERROR_TRANSPORT the communicator may not be.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_mpi_reduce(const void *input, void *output, size_t n_local, gpureduce_type_t type,
                     gpureduce_op_t op, unsigned flags, MPI_Comm comm,
                     gpureduce_handle_t handle);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_MPI_H */
