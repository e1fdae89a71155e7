/*
 * tune/tune.h - block counts: the size buckets, the model, the tuned
 * table of a CUDA handle and the tuning cache file.  Plain C, no CUDA: the
 * CUDA side (cuda/device/device.cu, cuda/tuning/measure.cu) fills in what only the
 * device can tell (its key, the kernels' resident blocks) and measures;
 * everything here is data and files.  Not installed.
 */
#ifndef GR_TUNE_TUNE_H
#define GR_TUNE_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpureduce_handle;
struct gr_plan;

/* Size buckets: bucket b holds tile counts in (2^(b-1), 2^b]. */
#define GR_BUCKETS 48
#define GR_TUNE_MAX_FILE_BYTES (256u * 1024u)
#define GR_TUNE_MAX_LINE 255

/* What a tuning cache file must match to be used. */
struct gr_tune_key {
  char name[256]; /* cudaDeviceProp.name */
  char uuid[33];  /* 32 hex digits */
  int cc_major, cc_minor;
  int sms;
  int driver;     /* cudaDriverGetVersion */
};

/* Tuned block counts: 0 means "use the model". */
typedef unsigned gr_tune_blocks[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT][2][GR_BUCKETS];

/* A CUDA handle's tuning table (h->tune). */
struct gr_tune {
  struct gr_tune_key key;
  unsigned resident[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT][2]; /* blocks per SM */
  /* the most waves the model launches (the policy table's max_waves;
   * 0: no limit) */
  unsigned max_waves[GPUREDUCE_TYPE_COUNT][GPUREDUCE_OP_COUNT][2];
  /* blocks per SM of the 1-D dot product's kernel of each type, without
   * and with GPUREDUCE_ACCUMULATE_F64 (0: no such kernel) */
  unsigned dot_resident[GPUREDUCE_TYPE_COUNT][2];
  unsigned max_grid_dim;
  gr_tune_blocks blocks;
  gpureduce_tune_cache_t state;
  char path[4096]; /* the cache file; empty if no directory is known */
};

/* ---- model.c: buckets and the block count of a launch --------------------- */

/* Bucket of a tile count. */
unsigned gr_bucket(uint64_t tiles);
/* Index of flags in the tables' f64 dimension. */
int gr_tune_f64_index(unsigned flags);
/* The model: min(groups, waves x SMs x resident blocks of the kernel), at
 * least 1, where waves is 8 when one wave would give each block 64 of the
 * plan's tiles or more, 4 for 32 to 63, otherwise 1, and at most the
 * kernel's max_waves (model.c). */
unsigned gr_tune_model_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                            gpureduce_op_t op, unsigned flags, const struct gr_plan *plan);
/* Block count for a launch of (type, op, flags) over a plan's groups: the
 * tuned count of its bucket, else the model's. */
unsigned gr_tune_grid(const struct gpureduce_handle *h, gpureduce_type_t type,
                      gpureduce_op_t op, unsigned flags, const struct gr_plan *plan);

/* ---- cache.c: the cache file ---------------------------------------------- */

/* Parse a cache file's text.  On GPUREDUCE_TUNE_CACHE_LOADED the entries
 * are stored in *out; on any other result *out is untouched.  The fuzz
 * target calls it directly. */
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
/* With t->key filled in: find the cache file and load it into t->blocks,
 * setting t->path and t->state (DISABLED under GPUREDUCE_TUNE=off). */
void gr_tune_load(struct gr_tune *t);

#ifdef __cplusplus
}
#endif

#endif /* GR_TUNE_TUNE_H */
