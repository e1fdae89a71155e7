/*
 * gpureduce.h - parallel reductions over arrays in CUDA device memory or in
 * host memory, with one reduction order and documented answers.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * This is the only header a program includes.  It uses no CUDA type, so a
 * consumer compiles it without CUDA's include path: streams are passed as
 * `void *` (a cudaStream_t cast to void *).
 *
 * ---------------------------------------------------------------------------
 * Quick example (sum of three floats on the host backend):
 *
 *     float x[3] = {1.5f, -2.0f, 4.0f}, sum;
 *     gpureduce_handle_t h;
 *     gpureduce_create(&h, GPUREDUCE_DEVICE_HOST);
 *     gpureduce_reduce(x, &sum, 3, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h);
 *     // sum == 3.5f
 *     gpureduce_destroy(h);
 *
 * On a CUDA handle (gpureduce_create(&h, 0)) the same call takes device
 * pointers, enqueues one kernel on the handle's stream and returns at once.
 *
 * ---------------------------------------------------------------------------
 * Operations, accumulator and result types
 *
 *   input        SUM, PROD, SUM_ABS, SUM_SQUARES     MIN, MAX      ARGMIN, ARGMAX
 *   -----------  ----------------------------------  ------------  --------------
 *   F16, BF16    accumulate f32, result float        input type    uint64_t index
 *   F32          accumulate f32, result float        float         uint64_t index
 *     with GPUREDUCE_ACCUMULATE_F64: accumulate f64, result double
 *   F64          accumulate f64, result double       double        uint64_t index
 *   I8, I32, I64 accumulate int64, result int64_t    input type    uint64_t index
 *   U8, U32, U64 accumulate uint64, result uint64_t  input type    uint64_t index
 *
 * F16 is IEEE binary16 and BF16 is bfloat16, both passed as 16-bit patterns
 * (uint16_t); MIN and MAX of them return the 16-bit pattern of the element.
 * Integer SUM, PROD, SUM_ABS and SUM_SQUARES wrap modulo 2^64 (computed in
 * unsigned 64-bit arithmetic, the signed result is its two's complement
 * reading); |INT64_MIN| is 2^63 before the wrap.  SUM_SQUARES squares each
 * element in the accumulator type and rounds the square before adding it
 * (no fused multiply-add), so both backends give the same bits.
 *
 * Semantics, the same on every backend:
 *   - Empty input (n == 0): SUM, SUM_ABS, SUM_SQUARES give +0 (integers 0),
 *     PROD gives 1, MIN gives +inf (integers: the type's largest value),
 *     MAX gives -inf (integers: the type's lowest value); the result is
 *     written.  ARGMIN and ARGMAX return GPUREDUCE_ERROR_EMPTY_INPUT and
 *     write nothing.
 *   - NaN: any NaN among the elements makes SUM, PROD, SUM_ABS,
 *     SUM_SQUARES, MIN and MAX NaN (never the identity); ARGMIN and ARGMAX
 *     give the index of the first NaN, as NumPy does.  A NaN result is
 *     written as the canonical quiet NaN of the result type (sign clear,
 *     all fraction bits set: 0x7fffffff for float, 0x7fffffffffffffff for
 *     double, 0x7fff for F16 and BF16), whatever the payloads of the input
 *     NaNs.
 *   - Signed zeros: MIN treats -0 as below +0 and MAX treats +0 as above
 *     -0, so min(-0, +0) = -0 and max(-0, +0) = +0 in any order.  ARGMIN
 *     and ARGMAX compare -0 and +0 as equal (a tie).  A SUM of elements
 *     that are all -0 is -0.
 *   - Ties: ARGMIN and ARGMAX return the lowest index among equal values.
 *   - Identities are exact: +-inf for float MIN and MAX (never +-FLT_MAX).
 *
 * Reduction order (the contract behind "same bits on every run"):
 *   Floating-point SUM, PROD, SUM_ABS and SUM_SQUARES are computed in one
 *   order that depends on the element index alone, never on the grid, the
 *   block size, the tuner, the pointer's alignment, the architecture or the
 *   backend.  Let V = 16 / sizeof(element) (the elements in one 16-byte
 *   chunk; 16 for I8, 8 for F16, 4 for F32, 2 for F64).  Chunk c holds the
 *   elements cV .. cV+V-1.  The chunks are cut into tiles of
 *   GPUREDUCE_ORDER_TILE_CHUNKS (2048) chunks.  In a tile, each of
 *   GPUREDUCE_ORDER_LANES (256) lanes l folds its chunks l, l+256, ...,
 *   l+1792 in that order, the elements of each chunk in index order, into an
 *   accumulator that starts at the identity (acc = acc op element).  The 256
 *   lane values then combine pairwise, lane l with lane l+s for
 *   s = 128, 64, ..., 1; the tile value is lane 0's.  Tile values combine in
 *   the complete binary tree over the tile index (tiles 2i and 2i+1 first,
 *   then pairs of those, ...), a missing right subtree leaving its left
 *   sibling unchanged.  Elements past n count as the identity, which is
 *   exact (the sum's identity is -0).  doc/ORDER.md has the full text;
 *   GPUREDUCE_ORDER_VERSION changes whenever the order does.
 *   MIN, MAX, ARGMIN, ARGMAX and all integer operations do not depend on
 *   the order: their answers are fixed by the rules above.
 *
 * Memory: a handle allocates its workspace once, at creation.  No call
 * allocates, synchronizes, prints or exits.
 *
 * Threads: a handle may be used by one thread at a time, and its calls on a
 * CUDA device must be ordered (one stream, or streams the caller orders):
 * the calls share the handle's workspace.  Different handles are
 * independent.
 */
#ifndef GPUREDUCE_H
#define GPUREDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce_version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && __GNUC__ >= 4
#define GPUREDUCE_API __attribute__((visibility("default")))
#else
#define GPUREDUCE_API
#endif

/** Version of the reduction order described above and in doc/ORDER.md. */
#define GPUREDUCE_ORDER_VERSION 1
/** Lanes of a tile in the reduction order. */
#define GPUREDUCE_ORDER_LANES 256
/** 16-byte chunks in a tile of the reduction order (32 KiB of input). */
#define GPUREDUCE_ORDER_TILE_CHUNKS 2048

/**
 * Status of every call.  Values are fixed: they are part of the ABI.
 * After any error status nothing was written to the output, and the handle
 * can still be used unless the entry says otherwise.
 */
typedef enum gpureduce_status {
  /** The call did what it says. */
  GPUREDUCE_SUCCESS = 0,
  /** Caller misuse: a NULL pointer where one is required (input or output
   *  with n > 0, a NULL result pointer), a pointer not aligned to its
   *  element or result size, unknown flag bits, or a workspace smaller than
   *  the size the library asked for. */
  GPUREDUCE_ERROR_INVALID_ARGUMENT = 1,
  /** The handle is NULL. */
  GPUREDUCE_ERROR_INVALID_HANDLE = 2,
  /** Unknown operation, type or ladder rung, or a combination without a
   *  meaning (GPUREDUCE_ACCUMULATE_F64 on anything but an F32 sum-like
   *  operation, a ladder rung on the host backend). */
  GPUREDUCE_ERROR_UNSUPPORTED = 3,
  /** A pointer lives in the wrong memory space for the handle: host memory
   *  given to a CUDA handle, device memory given to the host handle, or
   *  memory of another device. */
  GPUREDUCE_ERROR_WRONG_MEMORY_SPACE = 4,
  /** ARGMIN or ARGMAX of zero elements: there is no index to return. */
  GPUREDUCE_ERROR_EMPTY_INPUT = 5,
  /** No usable CUDA device with that ordinal: none present, no driver, a
   *  driver older than the runtime, or an ordinal out of range.  The host
   *  backend (GPUREDUCE_DEVICE_HOST) still works. */
  GPUREDUCE_ERROR_NO_DEVICE = 6,
  /** Allocating the handle's workspace failed (device or host memory). */
  GPUREDUCE_ERROR_OUT_OF_MEMORY = 7,
  /** A CUDA runtime call failed; gpureduce_last_message() names it and
   *  gives CUDA's message.  A sticky CUDA error (a kernel fault) leaves the
   *  device, and so the handle, unusable: destroy it. */
  GPUREDUCE_ERROR_CUDA = 8,
  /** gpureduce_autotune() measured and applied its choices to the handle,
   *  but could not write the tuning cache file (the message names the path
   *  and the reason).  The handle is fine; the next process will not see
   *  the tuning. */
  GPUREDUCE_ERROR_TUNE_CACHE = 9
} gpureduce_status_t;

/** Reduction operations. */
typedef enum gpureduce_op {
  GPUREDUCE_SUM = 0,         /**< sum of the elements */
  GPUREDUCE_PROD = 1,        /**< product of the elements */
  GPUREDUCE_MIN = 2,         /**< smallest element */
  GPUREDUCE_MAX = 3,         /**< largest element */
  GPUREDUCE_ARGMIN = 4,      /**< index of the smallest element */
  GPUREDUCE_ARGMAX = 5,      /**< index of the largest element */
  GPUREDUCE_SUM_ABS = 6,     /**< sum of |x| */
  GPUREDUCE_SUM_SQUARES = 7  /**< sum of x*x */
} gpureduce_op_t;

/** Number of operations (one past the last). */
#define GPUREDUCE_OP_COUNT 8

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

/** Flag for gpureduce_reduce(): accumulate an F32 SUM, PROD, SUM_ABS or
 *  SUM_SQUARES in double and return a double. */
#define GPUREDUCE_ACCUMULATE_F64 0x1u

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
 * and waits for that on the legacy default stream (the only time the
 * library synchronizes outside gpureduce_autotune()); it uses the legacy
 * default stream until gpureduce_set_stream(), and loads the tuning cache.
 * The host handle allocates its workspace in host memory.  On failure no
 * handle exists, so the status is the whole answer.
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (handle is NULL, or device is
 *         negative but not GPUREDUCE_DEVICE_HOST);
 *         GPUREDUCE_ERROR_NO_DEVICE (no such CUDA device);
 *         GPUREDUCE_ERROR_OUT_OF_MEMORY (workspace allocation failed);
 *         GPUREDUCE_ERROR_CUDA (another CUDA failure).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_create(gpureduce_handle_t *handle,
                                                  int device);

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
GPUREDUCE_API gpureduce_status_t gpureduce_set_stream(gpureduce_handle_t handle,
                                                      void *stream);

/**
 * The device the handle was created for: a CUDA ordinal, or
 * GPUREDUCE_DEVICE_HOST.  Returns GPUREDUCE_ERROR_INVALID_HANDLE or
 * GPUREDUCE_ERROR_INVALID_ARGUMENT (device is NULL) on misuse.
 */
GPUREDUCE_API gpureduce_status_t gpureduce_get_device(gpureduce_handle_t handle,
                                                      int *device);

/**
 * Reduce n elements to one value.
 *
 * @param input   the first element.  On a CUDA handle, device memory of the
 *                handle's device (or managed memory); on the host handle,
 *                host memory.  Any address aligned to the element size
 *                works and gives the same bits as a 16-byte-aligned copy.
 *                May be NULL when n == 0.
 * @param output  where the result goes, in the same memory space as input;
 *                gpureduce_result_size() bytes of the type in the table
 *                above, aligned to that size.  Must not overlap input.
 * @param n       count of elements (not bytes); any value, 0 included.
 * @param type    element type.
 * @param op      operation.
 * @param flags   0, or GPUREDUCE_ACCUMULATE_F64 for an F32 SUM, PROD,
 *                SUM_ABS or SUM_SQUARES.
 * @param handle  from gpureduce_create().
 *
 * On a CUDA handle the work is one kernel enqueued on the handle's stream;
 * the call returns without synchronizing, and may be captured in a CUDA
 * graph.  On the host handle the call is synchronous.  The result is the
 * same bits on every run and on both backends (see "Reduction order").
 *
 * @return GPUREDUCE_SUCCESS;
 *         GPUREDUCE_ERROR_INVALID_HANDLE; GPUREDUCE_ERROR_INVALID_ARGUMENT
 *         (NULL output, NULL input with n > 0, input not aligned to its
 *         element size, output not aligned to its result size, unknown
 *         flags);
 *         GPUREDUCE_ERROR_UNSUPPORTED (unknown op or type, or flags not
 *         valid for them); GPUREDUCE_ERROR_WRONG_MEMORY_SPACE;
 *         GPUREDUCE_ERROR_EMPTY_INPUT (ARGMIN/ARGMAX with n == 0);
 *         GPUREDUCE_ERROR_CUDA (the launch failed).
 *         On every error the output is untouched.
 */
GPUREDUCE_API gpureduce_status_t gpureduce_reduce(const void *input, void *output,
                                                  size_t n, gpureduce_type_t type,
                                                  gpureduce_op_t op, unsigned flags,
                                                  gpureduce_handle_t handle);

/**
 * Sum of n floats: gpureduce_reduce(input, output, n, GPUREDUCE_F32,
 * GPUREDUCE_SUM, 0, handle), with the same memory spaces, order and
 * statuses.  Example: {1, 2, 3.5} gives 6.5.
 */
GPUREDUCE_API gpureduce_status_t gpureduce_sum_f32(const float *input, float *output,
                                                   size_t n,
                                                   gpureduce_handle_t handle);

/**
 * Bytes of the result of (type, op, flags): 2 for F16/BF16 MIN and MAX,
 * 8 for ARGMIN/ARGMAX, and so on by the table above; 0 when the
 * combination is unsupported.
 */
GPUREDUCE_API size_t gpureduce_result_size(gpureduce_type_t type, gpureduce_op_t op,
                                           unsigned flags);

/** Bytes of one element of type (0 for an unknown type). */
GPUREDUCE_API size_t gpureduce_type_size(gpureduce_type_t type);

/** Lower-case name of an operation ("sum", "argmin", ...) or NULL. */
GPUREDUCE_API const char *gpureduce_op_name(gpureduce_op_t op);

/** Lower-case name of a type ("f32", "bf16", "u8", ...) or NULL. */
GPUREDUCE_API const char *gpureduce_type_name(gpureduce_type_t type);

/**
 * A static, human-readable English description of a status, never NULL
 * (unknown values give "unknown status").
 */
GPUREDUCE_API const char *gpureduce_status_string(gpureduce_status_t status);

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
 * The ladder: the classic CUDA reduction kernels, kept as teaching rungs.
 * Each reduces n floats all the way to one float on a CUDA handle.  They add
 * in their own orders (not the library's), so their bits can differ from
 * gpureduce_sum_f32() on inputs whose sum is not exact.
 */
typedef enum gpureduce_ladder_rung {
  /** v1: interleaved addressing, divergent branch `tid % (2*s) == 0`. */
  GPUREDUCE_LADDER_INTERLEAVED_DIVERGENT = 1,
  /** v2: interleaved addressing, strided shared index (no divergence, bank
   *  conflicts instead). */
  GPUREDUCE_LADDER_INTERLEAVED_STRIDED = 2,
  /** v3: sequential addressing, `tid < s`, stride halving. */
  GPUREDUCE_LADDER_SEQUENTIAL = 3,
  /** v4: sequential addressing, first add during the load (half the
   *  blocks). */
  GPUREDUCE_LADDER_FIRST_ADD = 4,
  /** v5: two phases: grid-stride accumulation and a block tree, then a
   *  second launch over the per-block partials. */
  GPUREDUCE_LADDER_TWO_PHASE = 5,
  /** v6: grid-stride accumulation, warp shuffles, per-warp partials in
   *  shared memory, one launch whose last block combines the partials. */
  GPUREDUCE_LADDER_WARP_SHUFFLE = 6
} gpureduce_ladder_rung_t;

/** First and last ladder rungs. */
#define GPUREDUCE_LADDER_FIRST 1
#define GPUREDUCE_LADDER_LAST 6

/** Short name of a rung ("interleaved-divergent", ...) or NULL. */
GPUREDUCE_API const char *gpureduce_ladder_name(gpureduce_ladder_rung_t rung);

/**
 * Bytes of device workspace gpureduce_ladder_sum_f32() needs for n floats.
 * @param bytes  host pointer; receives the size (0 is possible).
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_UNSUPPORTED (unknown rung) or
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (bytes is NULL).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_ladder_workspace_size(
    gpureduce_ladder_rung_t rung, size_t n, size_t *bytes);

/**
 * Sum n floats with one ladder rung, all the way to one float.
 *
 * @param input      device pointer to n floats, 4-byte aligned.
 * @param output     device pointer to one float.
 * @param workspace  device memory of at least
 *                   gpureduce_ladder_workspace_size() bytes, 16-byte
 *                   aligned; NULL if that size is 0.  Its contents need no
 *                   initialization and are garbage afterwards.
 * @param launches   host pointer that receives the number of kernel
 *                   launches the rung enqueued; may be NULL.
 * Enqueued on the handle's stream; returns without synchronizing.
 *
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (NULL pointers with n > 0, a
 *         workspace too small), GPUREDUCE_ERROR_UNSUPPORTED (unknown rung,
 *         or the host handle), GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
 *         GPUREDUCE_ERROR_CUDA.
 */
GPUREDUCE_API gpureduce_status_t gpureduce_ladder_sum_f32(
    gpureduce_ladder_rung_t rung, const float *input, float *output, size_t n,
    void *workspace, size_t workspace_bytes, unsigned *launches,
    gpureduce_handle_t handle);

/*
 * ---------------------------------------------------------------------------
 * Tuning: the number of blocks a CUDA launch uses.
 *
 * The block count never changes a result (the order above does not depend
 * on it); it only changes the speed.  A CUDA handle starts from a model:
 * min(groups of tiles, multiprocessors x resident blocks of the kernel from
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor).  gpureduce_autotune()
 * measures better counts per size bucket and saves them in a text cache;
 * every handle made later for the same device loads the cache at creation.
 *
 * Size buckets: bucket b holds the n whose tile count (n / (2048 * V),
 * rounded up) lies in (2^(b-1), 2^b]; bucket 0 is one tile.
 *
 * The cache lives in $GPUREDUCE_TUNE_CACHE (a directory), else
 * $XDG_CACHE_HOME/gpureduce (when XDG_CACHE_HOME is an absolute path, as the
 * XDG specification asks), else $HOME/.cache/gpureduce, as one file per
 * device (tune-<device UUID>.txt).  It is keyed by device name, UUID,
 * compute capability, multiprocessor count, driver version, library
 * version, reduction-order version and file-format version; a file for
 * anything else, or stale, truncated, oversized or
 * malformed, is ignored (see gpureduce_tune_cache_state()).  Setting
 * GPUREDUCE_TUNE=off ignores the cache and makes gpureduce_autotune() keep
 * its results in the handle only.  Files are replaced atomically (a
 * temporary file, then rename), so concurrent processes never read a torn
 * file; the last writer wins.
 */

/** What a CUDA handle found in the tuning cache at creation. */
typedef enum gpureduce_tune_cache {
  GPUREDUCE_TUNE_CACHE_ABSENT = 0,     /**< no cache file (or a host handle) */
  GPUREDUCE_TUNE_CACHE_LOADED = 1,     /**< loaded and in use */
  GPUREDUCE_TUNE_CACHE_DISABLED = 2,   /**< GPUREDUCE_TUNE=off */
  GPUREDUCE_TUNE_CACHE_FOREIGN = 3,    /**< for another device, driver or
                                            library version: ignored */
  GPUREDUCE_TUNE_CACHE_CORRUPT = 4,    /**< malformed, truncated or too
                                            large: ignored */
  GPUREDUCE_TUNE_CACHE_UNREADABLE = 5  /**< exists but cannot be read */
} gpureduce_tune_cache_t;

/** Result of one size bucket of gpureduce_autotune(). */
typedef struct gpureduce_tune_row {
  size_t n;                /**< elements timed for the bucket (its largest n) */
  unsigned default_blocks; /**< the model's block count */
  double default_us;       /**< median time per call with it, microseconds */
  unsigned tuned_blocks;   /**< the chosen block count */
  double tuned_us;         /**< median time per call with it, microseconds */
  double noise_us;         /**< spread of the default's repeats */
} gpureduce_tune_row_t;

/**
 * Measure the fastest block count for (type, op, flags) in every size
 * bucket up to max_n elements (0: as large as fits in a quarter of the free
 * device memory, at most 2^32 bytes), apply it to the handle and write it
 * to the tuning cache (unless GPUREDUCE_TUNE=off).  Candidates are checked
 * against the kernel's limits (cudaFuncGetAttributes) before any launch;
 * each is timed with CUDA events (median of repeats), the best few are
 * timed again, and a candidate replaces the model only when it is faster
 * by more than the measured noise.  Measured on an H200: 0.1 to 0.6 s
 * for 18 buckets.
 *
 * This call allocates and frees a device buffer, synchronizes the device
 * and launches many kernels on the handle's stream: call it at start-up,
 * not on a hot path.
 *
 * @param rows       host array for one row per bucket, or NULL.
 * @param max_rows   its capacity in rows.
 * @param row_count  host pointer; receives the number of buckets tuned
 *                   (may exceed max_rows; only max_rows are written); may
 *                   be NULL.
 * @return GPUREDUCE_SUCCESS; GPUREDUCE_ERROR_INVALID_HANDLE;
 *         GPUREDUCE_ERROR_UNSUPPORTED (the host handle, or an unsupported
 *         combination); GPUREDUCE_ERROR_INVALID_ARGUMENT (rows NULL with
 *         max_rows > 0); GPUREDUCE_ERROR_OUT_OF_MEMORY (no room for the
 *         buffer); GPUREDUCE_ERROR_CUDA; GPUREDUCE_ERROR_TUNE_CACHE (tuned,
 *         but the cache was not written).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_autotune(gpureduce_handle_t handle,
                                                    gpureduce_type_t type,
                                                    gpureduce_op_t op, unsigned flags,
                                                    size_t max_n,
                                                    gpureduce_tune_row_t *rows,
                                                    size_t max_rows, size_t *row_count);

/**
 * The block count a CUDA handle launches for (type, op, flags) at n
 * elements, and whether it comes from tuning.
 * @param blocks  host pointer; receives the count.
 * @param tuned   host pointer; receives 1 if tuned (cache, autotune or
 *                gpureduce_set_blocks), 0 if the model's; may be NULL.
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (blocks NULL),
 *         GPUREDUCE_ERROR_UNSUPPORTED (host handle or bad combination).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_get_blocks(gpureduce_handle_t handle,
                                                      gpureduce_type_t type,
                                                      gpureduce_op_t op, unsigned flags,
                                                      size_t n, unsigned *blocks,
                                                      int *tuned);

/**
 * Set the block count for the size bucket of n (0 restores the model).
 * Results are unchanged by construction; only speed changes.  The setting
 * lives in the handle; gpureduce_autotune() writes the cache.
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (blocks above the device's grid
 *         limit), GPUREDUCE_ERROR_UNSUPPORTED (host handle or bad
 *         combination).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_set_blocks(gpureduce_handle_t handle,
                                                      gpureduce_type_t type,
                                                      gpureduce_op_t op, unsigned flags,
                                                      size_t n, unsigned blocks);

/**
 * What the handle found in the tuning cache at creation, and the file's
 * path (NULL for the host handle; the string belongs to the handle).
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (state NULL).
 */
GPUREDUCE_API gpureduce_status_t gpureduce_tune_cache_state(gpureduce_handle_t handle,
                                                            gpureduce_tune_cache_t *state,
                                                            const char **path);

/** Run-time version: GPUREDUCE_VERSION_STRING of the library actually
 *  loaded (compare with the header's GPUREDUCE_VERSION_STRING). */
GPUREDUCE_API const char *gpureduce_version_string(void);

/** Run-time version as GPUREDUCE_VERSION_NUMBER: major * 10000 +
 *  minor * 100 + patch. */
GPUREDUCE_API unsigned gpureduce_version_number(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_H */
