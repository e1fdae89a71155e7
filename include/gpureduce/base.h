/*
 * gpureduce/base.h - statuses, operations, types, handles and names.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Part of <gpureduce.h>; include that, never this file.
 */
#ifndef GPUREDUCE_H_INSIDE
#error "include <gpureduce.h>, not <gpureduce/base.h>"
#endif
#ifndef GPUREDUCE_BASE_H
#define GPUREDUCE_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define GPUREDUCE_API __attribute__((visibility("default")))
/* On every call that returns a status except gpureduce_destroy(), whose
 * status a cleanup path can rarely act on (and GCC does not let a cast to
 * void silence the warning). */
#define GPUREDUCE_NODISCARD __attribute__((warn_unused_result))
#else
#define GPUREDUCE_API
#define GPUREDUCE_NODISCARD
#endif

/*
 * ---------------------------------------------------------------------------
 * Statuses
 *
 * Every call that can fail returns a gpureduce_status_t.  The values are
 * fixed (they are part of the ABI) and new ones are only ever appended.
 * After any error status nothing was written to the output, and the handle
 * can still be used unless the entry says otherwise.  (INVALID_OFFSETS is
 * the one status that reports on earlier calls rather than on the call
 * that returns it.)  gpureduce_last_message() gives the detail of the
 * failure of the handle's last call.
 *
 * GPUREDUCE_STATUS_LIST(X) is the one list of them: X(NAME, VALUE, TEXT),
 * where TEXT is what gpureduce_status_string() returns.  It generates the
 * enum below, gpureduce_status_string() and gpureduce_status_name().
 *
 * SUCCESS           the call did what it says.
 * INVALID_ARGUMENT  caller misuse, the value reserved for it: a NULL
 *                   pointer where one is required (input or output with
 *                   n > 0, a NULL result pointer), a pointer not aligned to
 *                   its element or result size, unknown flag bits, a device
 *                   ordinal below -1 (gpureduce_create()), a block count
 *                   above the device's limit, a workspace smaller than
 *                   the size the library asked for, or for
 *                   gpureduce_reduce_batched() strides whose offsets
 *                   overflow, elements or results beyond the ends of the
 *                   address space, or an output overlapping the input's
 *                   span, or for gpureduce_reduce_segments() a NULL
 *                   input or offsets, offsets not aligned to 8 bytes, a
 *                   segment count whose offsets or results overflow
 *                   size_t, results or offsets beyond the end of the
 *                   address space, or an output overlapping the offsets.
 *                   Nothing was done; correct the call.
 * INVALID_HANDLE    the handle is NULL.
 * UNSUPPORTED       unknown operation, type or ladder rung, or a
 *                   combination without a meaning (GPUREDUCE_ACCUMULATE_F64
 *                   on anything but an F32 SUM, PROD, SUM_ABS, SUM_SQUARES,
 *                   NRM2 or MEAN_VAR, GPUREDUCE_WITH_VALUE on anything but
 *                   ARGMIN and ARGMAX, a ladder rung or a block count on
 *                   the host backend, LOGSUMEXP of an integer type,
 *                   GPUREDUCE_SOFTMAX_STATS on anything but LOGSUMEXP).
 * WRONG_MEMORY_SPACE  a pointer lives in the wrong memory space for the
 *                   handle: host memory given to a CUDA handle, device
 *                   memory given to the host handle, or memory of another
 *                   device.
 * EMPTY_INPUT       ARGMIN, ARGMAX or MEAN_VAR of zero elements (n == 0 in
 *                   gpureduce_reduce() or gpureduce_reduce_batched()):
 *                   there is no index, and no mean, to return.  Nothing
 *                   was written.  (An empty segment of
 *                   gpureduce_reduce_segments() is no error: it gets
 *                   GPUREDUCE_NO_INDEX or {NaN, NaN}.)
 * NO_DEVICE         no usable CUDA device with that ordinal: none present,
 *                   no driver, a driver older than the runtime, or an
 *                   ordinal out of range.  The host backend
 *                   (GPUREDUCE_DEVICE_HOST) still works.
 * OUT_OF_MEMORY     allocating the handle's workspace (device or host
 *                   memory), or gpureduce_autotune()'s buffer, failed.
 * CUDA              a CUDA runtime call failed; gpureduce_last_message()
 *                   names it and gives CUDA's message.  A sticky CUDA error
 *                   (a kernel fault) leaves the device, and so the handle,
 *                   unusable: destroy it.
 * TUNE_CACHE        gpureduce_autotune() measured and applied its choices
 *                   to the handle, but could not write the tuning cache
 *                   file (the message names the path and the reason).  The
 *                   handle is fine; the next process will not see the
 *                   tuning.
 * INVALID_OFFSETS   returned by gpureduce_get_async_error() only: a
 *                   gpureduce_reduce_segments() call on the handle since
 *                   the last gpureduce_get_async_error() (or since its
 *                   creation) had a segment whose offsets decrease or
 *                   leave [offsets[0], offsets[segments]].  That call
 *                   returned SUCCESS, read nothing outside its input's
 *                   range and wrote nothing outside its output; the
 *                   invalid segments' results hold the empty-segment
 *                   value, and on a CUDA handle the results of that
 *                   call's valid segments are unspecified.
 *                   gpureduce_last_message() names the lowest invalid
 *                   segment.  Returning it clears it; the handle is fine.
 *                   Correct the offsets and redo the call.
 * MPI               libgpureduce_mpi only: an MPI call failed (the
 *                   communicator broke, a rank died, memory ran out in
 *                   MPI).  gpureduce_last_message() gives the MPI call
 *                   and MPI's error string.  The output is untouched; the
 *                   handle is fine, the communicator may not be.
 */
#define GPUREDUCE_STATUS_LIST(X)                                                      \
  X(GPUREDUCE_SUCCESS, 0, "success")                                                  \
  X(GPUREDUCE_ERROR_INVALID_ARGUMENT, 1,                                              \
    "invalid argument: a NULL or misaligned pointer, unknown flags, a device "        \
    "ordinal below -1, a block count above the device's limit, or a workspace that "  \
    "is too small")                                                                   \
  X(GPUREDUCE_ERROR_INVALID_HANDLE, 2,                                                \
    "invalid handle (NULL; create one with gpureduce_create)")                        \
  X(GPUREDUCE_ERROR_UNSUPPORTED, 3,                                                   \
    "unsupported operation, type, flag or ladder rung, or a call the host backend "   \
    "does not have")                                                                  \
  X(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, 4,                                            \
    "pointer in the wrong memory space for this handle (host or device memory, or "   \
    "another device's)")                                                              \
  X(GPUREDUCE_ERROR_EMPTY_INPUT, 5,                                                   \
    "argmin/argmax/mean_var of zero elements has no answer")                          \
  X(GPUREDUCE_ERROR_NO_DEVICE, 6,                                                     \
    "no usable CUDA device (none, no driver, or ordinal out of range); "              \
    "GPUREDUCE_DEVICE_HOST still works")                                              \
  X(GPUREDUCE_ERROR_OUT_OF_MEMORY, 7,                                                 \
    "out of memory while allocating the workspace or the tuning buffer")              \
  X(GPUREDUCE_ERROR_CUDA, 8, "a CUDA runtime call failed")                            \
  X(GPUREDUCE_ERROR_TUNE_CACHE, 9,                                                    \
    "tuning applied to the handle, but the tuning cache file could not be written") \
  X(GPUREDUCE_ERROR_INVALID_OFFSETS, 10,                                              \
    "a segmented reduction since the last check had offsets that decrease or leave "  \
    "[offsets[0], offsets[segments]]; its results are not to be trusted")          \
  X(GPUREDUCE_ERROR_TRANSPORT, 11,                                                    \
    "the transport of partial results failed (an MPI call in libgpureduce_mpi); "     \
    "gpureduce_last_message() gives the transport's error string")

/** Status of every call; see GPUREDUCE_STATUS_LIST above for each value. */
typedef enum gpureduce_status {
#define GPUREDUCE_STATUS_ENUMERATOR_(name, value, text) name = value,
  GPUREDUCE_STATUS_LIST(GPUREDUCE_STATUS_ENUMERATOR_)
#undef GPUREDUCE_STATUS_ENUMERATOR_
  /** Number of statuses (one past the last); not a status. */
  GPUREDUCE_STATUS_COUNT
} gpureduce_status_t;

/*
 * ---------------------------------------------------------------------------
 * Operations, types, flags
 */

/** Reduction operations. */
typedef enum gpureduce_op {
  GPUREDUCE_SUM = 0,         /**< sum of the elements */
  GPUREDUCE_PROD = 1,        /**< product of the elements */
  GPUREDUCE_MIN = 2,         /**< smallest element */
  GPUREDUCE_MAX = 3,         /**< largest element */
  GPUREDUCE_ARGMIN = 4,      /**< index of the smallest element */
  GPUREDUCE_ARGMAX = 5,      /**< index of the largest element */
  GPUREDUCE_SUM_ABS = 6,     /**< sum of |x| */
  GPUREDUCE_SUM_SQUARES = 7, /**< sum of x*x */
  GPUREDUCE_NRM2 = 8,        /**< Euclidean norm sqrt(sum x*x), scaled so that it
                                  never overflows or underflows (Blue's algorithm) */
  GPUREDUCE_MEAN_VAR = 9,    /**< {mean, population variance}, by Chan, Golub and
                                  LeVeque's pairwise update */
  GPUREDUCE_LOGSUMEXP = 10,  /**< log(sum exp(x)), around the running maximum
                                  (floating types only) */
  GPUREDUCE_AMAX = 11        /**< largest |x|, exact: the L-infinity norm */
} gpureduce_op_t;

/** Number of operations (one past the last). */
#define GPUREDUCE_OP_COUNT 12

/** Element types. */
typedef enum gpureduce_type {
  GPUREDUCE_F16 = 0,  /**< IEEE binary16, as uint16_t bit patterns */
  GPUREDUCE_BF16 = 1, /**< bfloat16, as uint16_t bit patterns */
  GPUREDUCE_F32 = 2,  /**< float */
  GPUREDUCE_F64 = 3,  /**< double */
  GPUREDUCE_I8 = 4,   /**< int8_t */
  GPUREDUCE_U8 = 5,   /**< uint8_t */
  GPUREDUCE_I32 = 6,  /**< int32_t */
  GPUREDUCE_U32 = 7,  /**< uint32_t */
  GPUREDUCE_I64 = 8,  /**< int64_t */
  GPUREDUCE_U64 = 9   /**< uint64_t */
} gpureduce_type_t;

/** Number of element types (one past the last). */
#define GPUREDUCE_TYPE_COUNT 10

/** Flag for gpureduce_reduce(): accumulate an F32 SUM, PROD, SUM_ABS,
 *  SUM_SQUARES or NRM2 in double and return a double, or an F32 MEAN_VAR
 *  and return two doubles; for gpureduce_dot() and gpureduce_dot_batched():
 *  multiply and accumulate F32 elements in double and return a double. */
#define GPUREDUCE_ACCUMULATE_F64 0x1u

/**
 * Flag for ARGMIN and ARGMAX of any type: return the winning element's
 * value with its index, in one 16-byte result (gpureduce_result_size()
 * says 16; the output is aligned to 16 bytes, like every output to its
 * result size):
 *
 *     bytes 0 .. 7    the index, a uint64_t, exactly as without the flag;
 *     bytes 8 ..      the element at that index, in the element's own type
 *                     (uint16_t patterns for F16 and BF16, float, double,
 *                     int8_t, ..., uint64_t), written as MIN or MAX writes
 *                     that one element: a NaN as the canonical quiet NaN
 *                     of <gpureduce.h>, a zero with its own sign;
 *     the rest        zero, up to byte 16.
 *
 * For an F32 input the result reads as
 * struct { uint64_t index; float value; uint32_t zero; }.  The value is
 * x[index], so it can differ from MIN or MAX only in the sign of a zero
 * (ARGMIN of {+0, -0} is index 0 with value +0, where MIN gives -0).  An
 * empty (or invalid) segment of gpureduce_reduce_segments() gets
 * GPUREDUCE_NO_INDEX and the empty-input value of MIN (for ARGMIN) or MAX
 * (for ARGMAX): +inf or the type's largest value, -inf or its lowest.
 * Any other op, or GPUREDUCE_ACCUMULATE_F64 with it, is
 * GPUREDUCE_ERROR_UNSUPPORTED.  Both backends give the same bytes; on
 * CUDA it is the same single launch as the call without the flag, with
 * the same block counts (gpureduce_set_blocks() and gpureduce_autotune()
 * with the flag set the plain operation's).
 */
#define GPUREDUCE_WITH_VALUE 0x2u

/**
 * Flag for LOGSUMEXP of F16, BF16, F32 or F64: return the softmax
 * statistics {max, sum} instead of log(sum exp(x)), two values of the
 * result type (gpureduce_result_size() says 8 for two floats, 16 for two
 * doubles; the output is aligned to that size):
 *
 *     max   the largest element, m (as an element widened to the result
 *           type, exact);
 *     sum   sum_i exp(x_i - m), the accumulator's double sum rounded once
 *           to the result type;
 *
 * so that softmax_i = exp(x_i - max) / sum, and log(sum exp(x)) =
 * max + log(sum): the plain result is max + log(s) of the double s before
 * its rounding to the result type, so max + log(sum) from a float pair
 * differs from it by that rounding, |log(sum / s)| <= 2^-24, and the
 * rounding of its own operations.  No elements give {-inf, 0}; all -inf
 * {-inf, n}; any NaN {NaN, NaN} (canonical); +inf and no NaN {+inf, the
 * count of +inf elements}.  Any other op, or GPUREDUCE_ACCUMULATE_F64 or
 * GPUREDUCE_WITH_VALUE with it, is GPUREDUCE_ERROR_UNSUPPORTED.  Both
 * backends give the same bytes; on CUDA it is the same single launch as
 * the plain LOGSUMEXP.
 */
#define GPUREDUCE_SOFTMAX_STATS 0x4u

/** The ARGMIN or ARGMAX result of an empty (or invalid) segment of
 *  gpureduce_reduce_segments(): "no index".  Never a valid index, since a
 *  segment holds fewer than UINT64_MAX elements. */
#define GPUREDUCE_NO_INDEX UINT64_MAX

/*
 * ---------------------------------------------------------------------------
 * Handles
 */

/** Device argument of gpureduce_create() that selects the host backend. */
#define GPUREDUCE_DEVICE_HOST (-1)

/** Opaque handle: a backend (one CUDA device or the host), a stream and a
 *  workspace. */
typedef struct gpureduce_handle *gpureduce_handle_t;

/**
 * Create a handle.
 *
 * @param handle  host pointer; receives the new handle on success and is
 *                left untouched on error.
 * @param device  a CUDA device ordinal (>= 0), or GPUREDUCE_DEVICE_HOST for
 *                the host backend, which needs no GPU.
 *
 * A CUDA handle allocates its workspace on the device here, once, clears it
 * and waits for that on the legacy default stream (besides
 * gpureduce_autotune() and gpureduce_get_async_error(), the only calls
 * that synchronize); it uses the legacy default stream until
 * gpureduce_set_stream(), and loads the tuning cache.  The host handle
 * allocates its workspace in host memory.  Either starts with no
 * asynchronous error (gpureduce_get_async_error()).  On failure no handle
 * exists, so the status is the whole answer.
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (handle is NULL, or device is
 *         below -1);
 *         GPUREDUCE_ERROR_NO_DEVICE (no such CUDA device);
 *         GPUREDUCE_ERROR_OUT_OF_MEMORY (workspace allocation failed);
 *         GPUREDUCE_ERROR_CUDA (another CUDA failure, such as a library
 *         built for other GPU architectures than this device's).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_create(gpureduce_handle_t *handle, int device);

/**
 * Destroy a handle and free its workspace.  Destroying NULL is a no-op that
 * returns GPUREDUCE_SUCCESS.  Work already enqueued that uses the handle
 * must have completed (synchronize its stream first).
 *
 * @return GPUREDUCE_SUCCESS, or GPUREDUCE_ERROR_CUDA if freeing device
 *         memory failed (the handle is freed anyway).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_destroy(gpureduce_handle_t handle);

/**
 * Set the stream that later calls on a CUDA handle enqueue their work on.
 *
 * @param stream  a cudaStream_t of the handle's device, cast to void *;
 *                NULL is the legacy default stream.  Ignored (but stored)
 *                by the host backend.
 * @return GPUREDUCE_SUCCESS or GPUREDUCE_ERROR_INVALID_HANDLE.
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_set_stream(gpureduce_handle_t handle, void *stream);

/**
 * The device the handle was created for: a CUDA ordinal, or
 * GPUREDUCE_DEVICE_HOST.
 * @param device  host pointer; receives the ordinal.
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE or
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (device is NULL).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_get_device(gpureduce_handle_t handle, int *device);

/**
 * Synchronize the handle's stream, then return and clear the handle's
 * sticky asynchronous error: whether a gpureduce_reduce_segments() call on
 * the handle since the last gpureduce_get_async_error() (or since the
 * handle's creation) had an invalid segment, one whose offsets decrease or
 * leave [offsets[0], offsets[segments]].  Those calls returned
 * GPUREDUCE_SUCCESS, because the offsets may be device data that the call
 * does not wait for; this is where their error surfaces.  Like
 * cudaGetLastError(), reading the error clears it, so a second call
 * returns GPUREDUCE_SUCCESS.
 *
 * On a CUDA handle this call synchronizes: it waits until all work
 * enqueued on the handle's current stream has finished
 * (cudaStreamSynchronize()), so it must not be called while that stream
 * is being captured in a CUDA graph: call it after launching the graph
 * and its work.  Segmented reductions the handle enqueued on an earlier
 * stream must be ordered before that stream by the caller.  On the host
 * handle, whose calls are synchronous, it waits for nothing.
 *
 * @return GPUREDUCE_SUCCESS (no invalid segment since the last check);
 *         GPUREDUCE_ERROR_INVALID_OFFSETS (at least one;
 *         gpureduce_last_message() names the lowest invalid segment index
 *         over all those calls; the error is now cleared);
 *         GPUREDUCE_ERROR_INVALID_HANDLE (handle is NULL);
 *         GPUREDUCE_ERROR_CUDA (synchronizing failed, for example because
 *         earlier work on the stream faulted; the message gives CUDA's, and
 *         a sticky CUDA error leaves the handle unusable).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_get_async_error(gpureduce_handle_t handle);

/**
 * Detail of the handle's last call if it failed: which argument or which
 * CUDA call, and what to do next.  Every call that takes the handle clears
 * it first, so it is empty after a call that succeeded.  The string belongs
 * to the handle and is valid until its next call.  Returns the status
 * string of GPUREDUCE_ERROR_INVALID_HANDLE for NULL.
 */
GPUREDUCE_API const char *gpureduce_last_message(gpureduce_handle_t handle);

/*
 * ---------------------------------------------------------------------------
 * Names and sizes (pure functions: no handle, no state, never fail)
 */

/**
 * A static, human-readable English description of a status, never NULL
 * (unknown values give "unknown status").  Example:
 * gpureduce_status_string(GPUREDUCE_ERROR_EMPTY_INPUT) is
 * "argmin/argmax/mean_var of zero elements has no answer".
 */
GPUREDUCE_API const char *gpureduce_status_string(gpureduce_status_t status);

/**
 * The enumerator's name of a status, such as "GPUREDUCE_ERROR_CUDA" for
 * GPUREDUCE_ERROR_CUDA, or NULL for a value that is not a status.
 */
GPUREDUCE_API const char *gpureduce_status_name(gpureduce_status_t status);

/**
 * Bytes of the result of (type, op, flags): 2 for F16/BF16 MIN and MAX,
 * 8 for ARGMIN/ARGMAX, 16 for ARGMIN/ARGMAX with GPUREDUCE_WITH_VALUE, 4
 * for an F32 NRM2, 8 for an F32 MEAN_VAR and 16 for an F64 one, and so on
 * by the table in <gpureduce.h>; 0 when the combination is unsupported.
 */
GPUREDUCE_API size_t gpureduce_result_size(gpureduce_type_t type, gpureduce_op_t op,
                                           unsigned flags);

/** Bytes of one element of type (0 for an unknown type). */
GPUREDUCE_API size_t gpureduce_type_size(gpureduce_type_t type);

/** Lower-case name of an operation ("sum", "argmin", ...) or NULL. */
GPUREDUCE_API const char *gpureduce_op_name(gpureduce_op_t op);

/** Lower-case name of a type ("f32", "bf16", "u8", ...) or NULL. */
GPUREDUCE_API const char *gpureduce_type_name(gpureduce_type_t type);

/** Run-time version: GPUREDUCE_VERSION_STRING of the library actually
 *  loaded (compare with the header's GPUREDUCE_VERSION_STRING). */
GPUREDUCE_API const char *gpureduce_version_string(void);

/** Run-time version as GPUREDUCE_VERSION_NUMBER: major * 10000 +
 *  minor * 100 + patch. */
GPUREDUCE_API unsigned gpureduce_version_number(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_BASE_H */
