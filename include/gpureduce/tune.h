/*
 * gpureduce/tune.h - block counts: the model, the autotuner and its cache (CUDA only).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 *
 * Part of <gpureduce.h>; include that, never this file.
 */
#ifndef GPUREDUCE_H_INSIDE
#error "include <gpureduce.h>, not <gpureduce/tune.h>"
#endif
#ifndef GPUREDUCE_TUNE_H
#define GPUREDUCE_TUNE_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Tuning: the number of blocks a CUDA launch uses.
 *
 * The block count never changes a result (the reduction order of
 * <gpureduce.h> does not depend on it); it only changes the speed.  A CUDA handle starts from a model:
 * min(groups of tiles, waves x multiprocessors x resident blocks of the
 * kernel from cudaOccupancyMaxActiveBlocksPerMultiprocessor), where waves is
 * 8 when one wave of blocks would give each block 64 tiles or more, 4 for
 * 32 to 63 and 1 below (a tile is 32 KiB: on an H200's 132 multiprocessors
 * with 4 resident blocks, 4 waves from 528 MiB of input, 8 from 1056 MiB;
 * measured in doc/TUNING.md), and at most the kernel's own limit:
 * one wave for GPUREDUCE_MEAN_VAR of f32 and f64, which more waves slow
 * down.  gpureduce_autotune()
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
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_autotune(gpureduce_handle_t handle, gpureduce_type_t type,
    gpureduce_op_t op, unsigned flags, size_t max_n, gpureduce_tune_row_t *rows,
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
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_get_blocks(gpureduce_handle_t handle, gpureduce_type_t type,
    gpureduce_op_t op, unsigned flags, size_t n, unsigned *blocks, int *tuned);

/**
 * Set the block count for the size bucket of n (0 restores the model).
 * Results are unchanged by construction; only speed changes.  The setting
 * lives in the handle; gpureduce_autotune() writes the cache.
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (blocks above the device's grid
 *         limit), GPUREDUCE_ERROR_UNSUPPORTED (host handle or bad
 *         combination).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_set_blocks(gpureduce_handle_t handle, gpureduce_type_t type,
    gpureduce_op_t op, unsigned flags, size_t n, unsigned blocks);

/**
 * What the handle found in the tuning cache at creation, and the file's
 * path (NULL for the host handle; the string belongs to the handle).
 * @return GPUREDUCE_SUCCESS, GPUREDUCE_ERROR_INVALID_HANDLE,
 *         GPUREDUCE_ERROR_INVALID_ARGUMENT (state NULL).
 */
GPUREDUCE_API GPUREDUCE_NODISCARD gpureduce_status_t
gpureduce_tune_cache_state(gpureduce_handle_t handle,
    gpureduce_tune_cache_t *state, const char **path);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_TUNE_H */
