/*
 * gpureduce/partial.h - one array reduced in parts: each part, reduced
 * with its global offset and the global length, gives a partial result;
 * the partials of all the parts combine into exactly the bits that
 * gpureduce_reduce() gives for the whole array, whatever the partition.
 * No transport here: MPI (libgpureduce_mpi, <gpureduce_mpi.h>), NCCL or
 * the caller's own carry the partials as bytes.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Part of <gpureduce.h>; include that, never this file.
 *
 * Why a partition changes no bit (doc/ORDER.md, "Partial results"): the
 * order is defined on global element indices, as a complete binary tree
 * over tiles of 2048 chunks of 16 bytes.  A part's whole tiles are a run
 * of that tree's leaves, which splits into at most 2 * 64 aligned
 * subtrees (its canonical nodes); the partial holds their accumulators,
 * not finished results.  A tile cut by a part's start or end is carried
 * as raw elements (at most one tile's worth at each end) and reduced when
 * the partials are combined, once its pieces are together.  The combine
 * joins the nodes in the tree, left to right, exactly where the one-array
 * reduction joins them, and finishes the root as it does.
 */
#ifndef GPUREDUCE_H_INSIDE
#error "include <gpureduce.h>, not <gpureduce/partial.h>"
#endif
#ifndef GPUREDUCE_PARTIAL_H
#define GPUREDUCE_PARTIAL_H

#ifdef __cplusplus
extern "C" {
#endif

/** Layout version of a partial (its header says it; gpureduce_partial_combine()
 *  rejects any other). */
#define GPUREDUCE_PARTIAL_LAYOUT 1

/** Bytes of the largest partial of any part, type and operation: a
 *  96-byte header, 128 nodes of at most 32 bytes, and two cut tiles' raw
 *  elements (less than 32 KiB each).  gpureduce_partial_bytes() gives the
 *  exact size of one part's partial, usually far less. */
#define GPUREDUCE_PARTIAL_MAX_BYTES ((size_t)(96 + 128 * 32 + 2 * 32768))

/**
 * Bytes of the partial of the part [offset, offset + n_local) of an array
 * of n_global elements, reduced with (type, op, flags): always a multiple
 * of 8 and at most GPUREDUCE_PARTIAL_MAX_BYTES.  Counts and offsets are
 * in elements.  A pure function: every process can compute the size of
 * every other process's partial from the partition alone (which is how a
 * transport sizes its receive buffers).
 *
 * The array must fit in an address space: n_global times the element
 * size below 2^63 bytes (for F64, n_global < 2^60).
 *
 * @return the size in bytes, or 0 when (type, op, flags) is not a valid
 *         combination for gpureduce_reduce(), offset + n_local exceeds
 *         n_global (or overflows), or n_global is past that bound.
 */
GPUREDUCE_API size_t gpureduce_partial_bytes(uint64_t n_local, uint64_t offset, uint64_t n_global,
                                             gpureduce_type_t type, gpureduce_op_t op,
                                             unsigned flags);

/**
 * Reduce one part of an array to its partial result.
 *
 * @param input     the part's n_local elements, element offset..offset +
 *                  n_local - 1 of the global array, in the handle's
 *                  memory space (device memory for a CUDA handle),
 *                  aligned to the element size; may be NULL when n_local
 *                  is 0.
 * @param partial   host memory, 8-byte aligned, of at least
 *                  gpureduce_partial_bytes(n_local, offset, n_global,
 *                  type, op, flags) bytes; receives the partial, exactly
 *                  that many bytes.  Untouched on error (after
 *                  GPUREDUCE_ERROR_CUDA its contents are unspecified).
 * @param n_local   elements of this part (0 is a valid, empty part).
 * @param offset    global index of the part's first element.
 * @param n_global  elements of the whole array (the sum of all parts).
 * @param type, op, flags  as for gpureduce_reduce(); every combination it
 *                  takes (GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_WITH_VALUE)
 *                  is taken here.
 * @param handle    host or CUDA handle.  Parts of one array may be reduced
 *                  on different backends and devices: the partials are
 *                  the same bytes.
 *
 * Deterministic: the partial depends only on the part's elements, offset,
 * n_global and (type, op, flags), never on the backend, the device, the
 * tuner or the alignment of input.
 *
 * On a CUDA handle the call enqueues its kernels on the handle's stream
 * (one launch for each canonical node, at most 128, usually 1 or 2; none
 * for a part that holds no whole tile), copies the node values and the
 * cut tiles' elements to host memory and waits for that stream
 * (cudaStreamSynchronize): it synchronizes, and must not be captured in a
 * CUDA graph.  It allocates nothing.
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_HANDLE (handle is NULL);
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (NULL or misaligned partial,
 *         NULL input with n_local > 0, misaligned input, unknown flags,
 *         offset + n_local beyond n_global, n_global past the bound of
 *         gpureduce_partial_bytes(), input bytes that wrap around the
 *         address space, a partial that overlaps the input);
 *         GPUREDUCE_ERROR_UNSUPPORTED (a type, op and flags that
 *         gpureduce_reduce() does not take);
 *         GPUREDUCE_ERROR_EMPTY_INPUT (n_global == 0 for ARGMIN, ARGMAX and
 *         MEAN_VAR, which have no answer for an empty array);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (input not in the handle's
 *         memory space);
 *         GPUREDUCE_ERROR_CUDA (a launch, copy or synchronization failed).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_partial_reduce(const void *input, void *partial, size_t n_local, uint64_t offset,
                         uint64_t n_global, gpureduce_type_t type, gpureduce_op_t op,
                         unsigned flags, gpureduce_handle_t handle);

/**
 * Combine the partials of all the parts of one array into its result.
 *
 * @param partials  host memory, 8-byte aligned: the partials of every
 *                  part, concatenated in any order (each takes exactly its
 *                  gpureduce_partial_bytes(), a multiple of 8, so the next
 *                  starts 8-byte aligned).  Read only.
 * @param bytes     total bytes of the concatenation.
 * @param output    the result, gpureduce_result_size(type, op, flags)
 *                  bytes in the handle's memory space, aligned to the
 *                  result size; untouched on error.
 * @param handle    host or CUDA handle; it need not be the one that made
 *                  the partials.
 *
 * The partials must come from gpureduce_partial_reduce() with the same
 * (type, op, flags, n_global) and their parts must tile [0, n_global)
 * exactly, each element in one part (empty parts may come or not).  Then
 * output receives the bits that gpureduce_reduce() gives for the whole
 * array on either backend; ARGMIN and ARGMAX give the global index, a tie
 * going to the lowest.  The combine runs on the host (a few operations
 * per node, and one tile's reduction for each tile cut between parts); on
 * a CUDA handle the result is then copied to output on the handle's
 * stream, and the call waits for it (cudaStreamSynchronize).  It
 * allocates nothing when the partials come in offset order (a transport's
 * rank order); more than 64 partials in another order take one malloc for
 * their list (GPUREDUCE_ERROR_OUT_OF_MEMORY if it fails).
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_HANDLE (handle is NULL);
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (NULL or misaligned partials or
 *         output; bytes that do not hold whole partials; a partial with a
 *         wrong magic number, layout or order version; partials that
 *         disagree on type, op, flags or n_global; parts that overlap or
 *         leave a gap; gpureduce_last_message() says which);
 *         GPUREDUCE_ERROR_EMPTY_INPUT (n_global == 0 for ARGMIN, ARGMAX
 *         and MEAN_VAR);
 *         GPUREDUCE_ERROR_WRONG_MEMORY_SPACE (output not in the handle's
 *         memory space);
 *         GPUREDUCE_ERROR_OUT_OF_MEMORY (see above);
 *         GPUREDUCE_ERROR_CUDA (the copy to output failed).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_partial_combine(const void *partials, size_t bytes, void *output,
                          gpureduce_handle_t handle);

/**
 * For libraries layered on gpureduce (libgpureduce_mpi, a transport of the
 * caller's own): record message (copied, truncated to 255 bytes) as the
 * detail that gpureduce_last_message(handle) returns for a failure they
 * detected themselves, such as an MPI error.  NULL message clears it.
 *
 * @return status, unchanged, so that a caller can write
 *         `return gpureduce_set_last_message(h, GPUREDUCE_ERROR_TRANSPORT,
 *         text);`
 *         or GPUREDUCE_ERROR_INVALID_HANDLE when handle is NULL.
 */
GPUREDUCE_API gpureduce_status_t gpureduce_set_last_message(gpureduce_handle_t handle,
                                                            gpureduce_status_t status,
                                                            const char *message);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_PARTIAL_H */
