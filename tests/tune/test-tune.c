/*
 * test-tune.c - the autotuner on a real device: it measures, the counts it
 * picks are used, persisted and loaded by the next handle, a bad or
 * foreign cache is ignored, GPUREDUCE_TUNE=off keeps it in memory, an
 * unwritable cache is reported and not fatal, and no block count changes
 * a result.  Needs a GPU (prints "1..0 # SKIP no CUDA device" without
 * one).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cuda_runtime_api.h>

#include "testutil.h"

#define MAX_N ((size_t)1 << 22) /* f32: 512 tiles, buckets 0 .. 9 */
#define BUCKETS 10

static char dir[256];
static char cache_file[512];
static float *host_x, *dev_x, *dev_out;

static gpureduce_handle_t make_handle(gpureduce_tune_cache_t want_state, const char *what) {
  gpureduce_handle_t h = NULL;
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h, 0), "%s: gpureduce_create(device 0)",
               what);
  gpureduce_tune_cache_t state = GPUREDUCE_TUNE_CACHE_UNREADABLE;
  const char *path = NULL;
  check_status(GPUREDUCE_SUCCESS, gpureduce_tune_cache_state(h, &state, &path),
               "%s: gpureduce_tune_cache_state", what);
  check_tune_cache(want_state, state, "%s: the new handle's tuning cache", what);
  check_true(path != NULL, "%s: the handle names its cache file", what);
  snprintf(cache_file, sizeof cache_file, "%s", path);
  return h;
}

/* gpureduce_get_blocks of the f32 `op` at n elements on h: 1 when the
 * count is tuned, 0 when it is the model's; the count in *blocks. */
static int tuned_at(gpureduce_handle_t h, gpureduce_op_t op, size_t n, unsigned *blocks,
                    const char *what) {
  int tuned = -1;
  unsigned b = 0;
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_blocks(h, GPUREDUCE_F32, op, 0, n, &b, &tuned),
               "%s: gpureduce_get_blocks of the f32 %s at n = %zu", what, tu_op_names[op], n);
  check_true(tuned == 0 || tuned == 1, "%s: gpureduce_get_blocks sets *tuned to 0 or 1 (%d)",
             what, tuned);
  if (blocks) *blocks = b;
  return tuned;
}

/* n with `tiles` f32 tiles (8192 elements each), the top of bucket b. */
static size_t bucket_n(int b) { return (size_t)8192 << b; }

/* Bits of the f32 sum of the first n elements: on the device (dev_x) or,
 * for the host handle, of the same values in host memory. */
static uint32_t sum_bits(gpureduce_handle_t h, size_t n, int on_host) {
  float r = 0.0f;
  if (on_host) {
    check_status(GPUREDUCE_SUCCESS, gpureduce_sum_f32(host_x, &r, n, h),
                 "f32 sum of %zu elements on the host handle", n);
  } else {
    check_status(GPUREDUCE_SUCCESS, gpureduce_sum_f32(dev_x, dev_out, n, h),
                 "f32 sum of %zu elements on the CUDA handle (%s)", n, gpureduce_last_message(h));
    CK(cudaMemcpy(&r, dev_out, 4, cudaMemcpyDeviceToHost));
  }
  return tu_f32_bits(r);
}

static int setup(void **state) {
  (void)state;
  tu_announce_seed();
  if (tu_make_tmpdir(dir, sizeof dir, "test-tune") != 0) return -1;
  setenv("GPUREDUCE_TUNE_CACHE", dir, 1);
  unsetenv("GPUREDUCE_TUNE");
  host_x = malloc(MAX_N * sizeof(float));
  if (!host_x) {
    print_error("cannot allocate %zu floats of host memory\n", MAX_N);
    return -1;
  }
  tu_rng r;
  tu_rng_init(&r, "tune data");
  tc_fill(&r, GPUREDUCE_F32, G_MODERATE, host_x, MAX_N); /* in [-2, 2): never all zeros */
  if (cudaMalloc((void **)&dev_x, MAX_N * sizeof(float)) != cudaSuccess ||
      cudaMalloc((void **)&dev_out, 16) != cudaSuccess ||
      cudaMemcpy(dev_x, host_x, MAX_N * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
    print_error("cannot put %zu floats in device memory\n", MAX_N);
    return -1;
  }
  return 0;
}

static int teardown(void **state) {
  (void)state;
  free(host_x);
  cudaFree(dev_x);
  cudaFree(dev_out);
  return tu_remove_tmpdir(dir);
}

static unsigned tuned_blocks[BUCKETS];

static void autotune_measures_applies_and_saves(void **state) {
  (void)state;
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_ABSENT, "a fresh cache directory");
  gpureduce_tune_row_t rows[32];
  size_t count = 0;
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, MAX_N, rows, 32, &count),
               "gpureduce_autotune of the f32 sum up to 2^22 elements (%s)",
               gpureduce_last_message(h));
  check_bits(BUCKETS, count, "gpureduce_autotune up to 2^22 f32 elements: one row per bucket");
  for (int b = 0; b < BUCKETS; ++b) {
    print_message("# bucket %d n=%zu: default %u blocks %.2f us, tuned %u blocks %.2f us "
                  "(noise %.2f)\n",
                  b, rows[b].n, rows[b].default_blocks, rows[b].default_us,
                  rows[b].tuned_blocks, rows[b].tuned_us, rows[b].noise_us);
    check_bits(bucket_n(b), rows[b].n, "bucket %d: the row times the bucket's largest n", b);
    check_true(rows[b].tuned_blocks >= 1 && rows[b].default_blocks >= 1,
               "bucket %d: both block counts are at least 1 (default %u, tuned %u)", b,
               rows[b].default_blocks, rows[b].tuned_blocks);
    check_true(rows[b].default_us > 0.0 && rows[b].tuned_us > 0.0,
               "bucket %d: both times are positive (default %.2f us, tuned %.2f us)", b,
               rows[b].default_us, rows[b].tuned_us);
    /* a count other than the model's must have won by more than the noise */
    if (rows[b].tuned_blocks != rows[b].default_blocks)
      check_true(rows[b].tuned_us < rows[b].default_us - rows[b].noise_us,
                 "bucket %d: the tuned count %u beat the model's %u by more than the noise "
                 "(%.2f us against %.2f us, noise %.2f us)",
                 b, rows[b].tuned_blocks, rows[b].default_blocks, rows[b].tuned_us,
                 rows[b].default_us, rows[b].noise_us);
    char what[64];
    snprintf(what, sizeof what, "bucket %d after autotune", b);
    unsigned blocks = 0;
    check_bits(1, tuned_at(h, GPUREDUCE_SUM, bucket_n(b), &blocks, what),
               "%s: gpureduce_get_blocks reports a tuned count", what);
    check_bits(rows[b].tuned_blocks, blocks, "%s: the handle launches the tuned count", what);
    tuned_blocks[b] = blocks;
  }
  struct stat st;
  check_true(stat(cache_file, &st) == 0, "gpureduce_autotune wrote the cache file %s",
             cache_file);
  gpureduce_destroy(h);
}

static void the_next_handle_loads_the_tuning(void **state) {
  (void)state;
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_LOADED, "after autotune");
  gpureduce_handle_t host = NULL;
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&host, GPUREDUCE_DEVICE_HOST),
               "gpureduce_create of a host handle");
  for (int b = 0; b < BUCKETS; ++b) {
    char what[64];
    snprintf(what, sizeof what, "bucket %d on the next handle", b);
    unsigned blocks = 0;
    const size_t n = bucket_n(b) - 1;
    check_bits(1, tuned_at(h, GPUREDUCE_SUM, n, &blocks, what),
               "%s: the count is tuned (from the cache)", what);
    check_bits(tuned_blocks[b], blocks, "%s: the handle loaded the tuned count", what);
    check_bits(sum_bits(host, n, 1), sum_bits(h, n, 0),
               "%s: the f32 sum of %zu elements with the tuned count has the host backend's bits",
               what, n);
  }
  check_bits(0, tuned_at(h, GPUREDUCE_MAX, MAX_N, NULL, "the next handle"),
             "the f32 max was not tuned: the model's count");
  gpureduce_destroy(host);
  gpureduce_destroy(h);
}

/* Rewrite the cache file with its first `from` replaced by `to`. */
static void edit_cache(const char *from, const char *to) {
  FILE *f = fopen(cache_file, "rb");
  check_true(f != NULL, "the cache file %s opens for reading", cache_file);
  char text[65536];
  const size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  char *at = strstr(text, from);
  check_true(at != NULL, "the cache file holds \"%s\"", from);
  f = fopen(cache_file, "wb");
  check_true(f != NULL, "the cache file %s opens for writing", cache_file);
  fwrite(text, 1, (size_t)(at - text), f);
  fputs(to, f);
  fputs(at + strlen(from), f);
  check_true(fclose(f) == 0, "the edited cache file %s is written", cache_file);
}

static void a_foreign_or_corrupt_cache_is_ignored(void **state) {
  (void)state;
  edit_cache("device-name ", "device-name Another ");
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_FOREIGN, "a cache for another device");
  check_bits(0, tuned_at(h, GPUREDUCE_SUM, MAX_N, NULL, "a foreign cache"),
             "a cache for another device is not used: the model's count");
  gpureduce_destroy(h);
  edit_cache("device-name Another ", "device-name ");
  edit_cache("end ", "end 9");
  h = make_handle(GPUREDUCE_TUNE_CACHE_CORRUPT, "a cache with a wrong entry count");
  check_bits(0, tuned_at(h, GPUREDUCE_SUM, MAX_N, NULL, "a corrupt cache"),
             "a corrupt cache is not used: the model's count");
  gpureduce_destroy(h);
}

static void tune_off_ignores_and_keeps_the_cache(void **state) {
  (void)state;
  struct stat before, after;
  check_true(stat(cache_file, &before) == 0, "the cache file %s exists", cache_file);
  setenv("GPUREDUCE_TUNE", "off", 1);
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_DISABLED, "GPUREDUCE_TUNE=off");
  size_t count = 0;
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, (size_t)1 << 16, NULL, 0,
                                  &count),
               "gpureduce_autotune up to 2^16 with GPUREDUCE_TUNE=off (%s)",
               gpureduce_last_message(h));
  check_bits(4, count, "gpureduce_autotune up to 2^16 f32 elements: buckets 0 .. 3");
  check_bits(1, tuned_at(h, GPUREDUCE_SUM, 8192, NULL, "GPUREDUCE_TUNE=off"),
             "GPUREDUCE_TUNE=off: the tuning is applied to the handle");
  check_true(stat(cache_file, &after) == 0, "the cache file %s still exists", cache_file);
  check_true(before.st_mtime == after.st_mtime && before.st_size == after.st_size &&
                 before.st_ino == after.st_ino,
             "GPUREDUCE_TUNE=off: the cache file is not rewritten (the same inode, size and "
             "modification time)");
  unsetenv("GPUREDUCE_TUNE");
  gpureduce_destroy(h);
}

static void an_unwritable_cache_is_reported_not_fatal(void **state) {
  (void)state;
  setenv("GPUREDUCE_TUNE_CACHE", "/proc/gpureduce-cannot-write-here", 1);
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_ABSENT, "a cache under /proc");
  size_t count = 0;
  check_status(GPUREDUCE_ERROR_TUNE_CACHE,
               gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, (size_t)1 << 14, NULL, 0,
                                  &count),
               "gpureduce_autotune with a cache directory under /proc");
  check_true(strlen(gpureduce_last_message(h)) > 0,
             "an unwritable cache: gpureduce_last_message says why");
  check_bits(1, tuned_at(h, GPUREDUCE_SUM, 8192, NULL, "an unwritable cache"),
             "an unwritable cache: the tuning is still applied to the handle");
  gpureduce_destroy(h);
  setenv("GPUREDUCE_TUNE_CACHE", dir, 1);
}

static void tuning_rejects_the_host_and_bad_arguments(void **state) {
  (void)state;
  gpureduce_handle_t h = NULL, host = NULL;
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h, 0), "gpureduce_create(device 0)");
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&host, GPUREDUCE_DEVICE_HOST),
               "gpureduce_create of a host handle");
  check_status(GPUREDUCE_ERROR_UNSUPPORTED,
               gpureduce_autotune(host, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 0, NULL),
               "gpureduce_autotune on a host handle");
  check_status(GPUREDUCE_ERROR_UNSUPPORTED,
               gpureduce_autotune(h, GPUREDUCE_F64, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64, 0,
                                  NULL, 0, NULL),
               "gpureduce_autotune of f64 sum with GPUREDUCE_ACCUMULATE_F64");
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 3, NULL),
               "gpureduce_autotune with room for 3 rows but a NULL rows pointer");
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_set_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 100, 0xffffffffu),
               "gpureduce_set_blocks of 2^32 - 1 blocks, above the device's limit");
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT,
               gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 100, NULL, NULL),
               "gpureduce_get_blocks with a NULL blocks pointer");
  check_status(GPUREDUCE_ERROR_INVALID_HANDLE,
               gpureduce_autotune(NULL, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 0, NULL),
               "gpureduce_autotune with a NULL handle");
  gpureduce_destroy(host);
  gpureduce_destroy(h);
}

int main(void) {
  if (!tu_cuda_need_devices(1)) return 0;
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(autotune_measures_applies_and_saves),
      cmocka_unit_test(the_next_handle_loads_the_tuning),
      cmocka_unit_test(a_foreign_or_corrupt_cache_is_ignored),
      cmocka_unit_test(tune_off_ignores_and_keeps_the_cache),
      cmocka_unit_test(an_unwritable_cache_is_reported_not_fatal),
      cmocka_unit_test(tuning_rejects_the_host_and_bad_arguments),
  };
  return cmocka_run_group_tests_name("test-tune", tests, setup, teardown);
}
