/*
 * internal.h - declarations shared by the library's C and CUDA files.
 * Not installed.  Plain C, usable from C++ (the .cu files).
 */
#ifndef GPUREDUCE_INTERNAL_H
#define GPUREDUCE_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the reduction order (doc/ORDER.md) --------------------------------- */

/* Lanes of a tile; also the CUDA block size of the production kernel. */
#define GR_LANES GPUREDUCE_ORDER_LANES
/* 16-byte chunks each lane folds per tile. */
#define GR_CHUNKS_PER_LANE (GPUREDUCE_ORDER_TILE_CHUNKS / GPUREDUCE_ORDER_LANES)
/* 16-byte chunks in a tile. */
#define GR_TILE_CHUNKS GPUREDUCE_ORDER_TILE_CHUNKS
/* Bytes of a chunk. */
#define GR_CHUNK_BYTES 16

/* ---- the launch plan ------------------------------------------------------ */

/*
 * Tiles are grouped into "chunks of tiles" of 2^chunk_log2 consecutive
 * tiles, aligned to their size: each is a subtree of the tile tree, so a
 * block can reduce it alone and write one root.  The roots are combined by
 * the same tree.  How tiles are grouped and how many blocks share the
 * groups changes nothing in the result; it only sets the work per block
 * and the size of the last step.
 */
#define GR_MAX_ROOTS 8192u /* roots the workspace holds */
#define GR_ROOT_BYTES 16u  /* the largest accumulator: {double, uint64_t} */

struct gr_plan {
  uint64_t tiles;      /* tiles covering n elements */
  uint64_t groups;     /* groups of 2^group_log2 tiles (roots written) */
  unsigned group_log2; /* log2 of tiles per group */
  unsigned grid;       /* blocks launched (>= 1) */
};

/* Tiles for n elements of elem_size bytes. */
uint64_t gr_tile_count(uint64_t n, size_t elem_size);

/* Fill plan for n elements and at most max_grid blocks (>= 1). */
void gr_plan_make(uint64_t n, size_t elem_size, unsigned max_grid,
                  struct gr_plan *plan);

/* ---- tuning (tune.c) --------------------------------------------------------- */

/* Size buckets: bucket b holds tile counts in (2^(b-1), 2^b]. */
#define GR_BUCKETS 48
#define GR_TUNE_MAX_FILE_BYTES (256u * 1024u)
#define GR_TUNE_MAX_LINE 255

/* What a tuning cache file must match to be used. */
struct gr_tune_key {
  char name[256];   /* cudaDeviceProp.name */
  char uuid[33];    /* 32 hex digits */
  int cc_major, cc_minor;
  int sms;
  int driver;       /* cudaDriverGetVersion */
};

/* Tuned block counts: 0 means "use the model". */
typedef unsigned gr_tune_blocks[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT][2][GR_BUCKETS];

struct gr_tune {
  struct gr_tune_key key;
  unsigned resident[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT][2]; /* blocks per SM */
  unsigned max_grid_dim;
  gr_tune_blocks blocks;
  gpureduce_tune_cache_t state;
  char path[4096];  /* the cache file; empty if no directory is known */
};

/* Bucket of a tile count. */
unsigned gr_bucket(uint64_t tiles);
/* Parse a cache file's text.  On GPUREDUCE_TUNE_CACHE_LOADED the entries
 * are stored in *out; on any other result *out is untouched.  Pure C, no
 * CUDA: the fuzz target calls it directly. */
gpureduce_tune_cache_t gr_tune_parse(const char *text, size_t len,
                                     const struct gr_tune_key *key, gr_tune_blocks *out);
/* Format a cache file into buf (capacity cap); returns its length, or 0 if
 * it does not fit. */
size_t gr_tune_format(const struct gr_tune_key *key, const gr_tune_blocks *blocks,
                      char *buf, size_t cap);
/* 1 when GPUREDUCE_TUNE=off. */
int gr_tune_disabled(void);
/* The cache file of a device: $GPUREDUCE_TUNE_CACHE, $XDG_CACHE_HOME/gpureduce
 * or ~/.cache/gpureduce, then tune-<uuid>.txt.  0 if no directory is known. */
int gr_tune_cache_path(const char *uuid, char *path, size_t cap);
/* Read and parse a cache file (ABSENT if it does not exist). */
gpureduce_tune_cache_t gr_tune_file_read(const char *path, const struct gr_tune_key *key,
                                         gr_tune_blocks *blocks);
/* Write a cache file atomically, creating its directory; 0 on failure
 * with the reason in why. */
int gr_tune_file_write(const char *path, const struct gr_tune_key *key,
                       const gr_tune_blocks *blocks, char *why, size_t why_cap);

/* ---- the handle ------------------------------------------------------------ */

#define GR_MESSAGE_BYTES 256

struct gpureduce_handle {
  int device;                /* CUDA ordinal or GPUREDUCE_DEVICE_HOST */
  void *stream;              /* cudaStream_t */
  void *workspace;           /* device memory (CUDA) or host memory */
  size_t workspace_bytes;
  int sm_count;              /* CUDA: multiprocessors */
  struct gr_tune *tune;      /* CUDA: kernel facts and tuned block counts */
  char message[GR_MESSAGE_BYTES]; /* detail of the last failure */
};

/* Set the handle's message (printf-style) and return status. */
gpureduce_status_t gr_fail(struct gpureduce_handle *h, gpureduce_status_t status,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- the CUDA backend (cuda_backend.cu) ---------------------------------- */

/* Parameters of the production kernel, one struct for every instantiation. */
struct gr_kernel_params {
  const void *input;
  void *output;
  uint64_t n;
  void *roots;        /* GR_MAX_ROOTS * GR_ROOT_BYTES of workspace */
  unsigned *ticket;   /* zero between launches; the last block resets it */
  uint64_t tiles;
  uint64_t groups;
  unsigned group_log2;
  unsigned misalign;  /* input address modulo 16, in bytes */
};

/* Bytes of device workspace a CUDA handle allocates. */
#define GR_WORKSPACE_BYTES (GR_MAX_ROOTS * GR_ROOT_BYTES + 256u)
/* Offsets in the workspace. */
#define GR_WS_ROOTS 0u
#define GR_WS_TICKET (GR_MAX_ROOTS * GR_ROOT_BYTES)
#define GR_WS_LADDER_TICKET (GR_WS_TICKET + 64u)

gpureduce_status_t gr_cuda_create(struct gpureduce_handle *h, int device);
gpureduce_status_t gr_cuda_destroy(struct gpureduce_handle *h);
/* GPUREDUCE_SUCCESS when p is device (or managed) memory of h's device. */
gpureduce_status_t gr_cuda_check_pointer(struct gpureduce_handle *h,
                                         const void *p, const char *what);
/* 1 when p is device memory of any CUDA device (not managed); 0 otherwise,
 * also when there is no CUDA driver at all. */
int gr_cuda_is_device_pointer(const void *p);
gpureduce_status_t gr_cuda_reduce(struct gpureduce_handle *h, const void *input,
                                  void *output, uint64_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags);
/* The same with a given block count (grid 0: the handle's choice). */
gpureduce_status_t gr_cuda_launch(struct gpureduce_handle *h, const void *input,
                                  void *output, uint64_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags, unsigned grid);
/* The production kernel for (type, op, flags), or NULL. */
const void *gr_kernel_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);

/* tune.c: fill h->tune (kernel facts, cache) at creation of a CUDA handle;
 * the device is current. */
gpureduce_status_t gr_tune_init(struct gpureduce_handle *h);
/* Block count for a launch of (type, op, flags) over a plan's groups. */
unsigned gr_tune_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                      gpureduce_op_t op, unsigned flags, const struct gr_plan *plan);
gpureduce_status_t gr_cuda_ladder(struct gpureduce_handle *h,
                                  gpureduce_ladder_rung_t rung, const float *input,
                                  float *output, uint64_t n, void *workspace,
                                  size_t workspace_bytes, unsigned *launches);
size_t gr_ladder_workspace_bytes(gpureduce_ladder_rung_t rung, uint64_t n);

/* The kernel of (type, op, f64 accumulation), as the address cudaLaunchKernel
 * takes; NULL if not instantiated.  kernels_float.cu and kernels_int.cu. */
const void *gr_kernel_float(gpureduce_type_t type, gpureduce_op_t op, int f64);
const void *gr_kernel_int(gpureduce_type_t type, gpureduce_op_t op);

/* ---- the host backend (host_backend.c) ----------------------------------- */

gpureduce_status_t gr_host_create(struct gpureduce_handle *h);
void gr_host_destroy(struct gpureduce_handle *h);
gpureduce_status_t gr_host_reduce(struct gpureduce_handle *h, const void *input,
                                  void *output, uint64_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* GPUREDUCE_INTERNAL_H */
