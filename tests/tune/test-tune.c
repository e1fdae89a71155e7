/*
 * test-tune.c - the autotuner on a real device: it measures, the counts it
 * picks are used, persisted and loaded by the next handle, a bad or
 * foreign cache is ignored, GPUREDUCE_TUNE=off keeps it in memory, and no
 * block count changes a result.  Needs a GPU (skips without one).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gpureduce.h"

#define MAX_N ((size_t)1 << 22) /* f32: 512 tiles, buckets 0 .. 9 */
#define BUCKETS 10

static char dir[128];
static char cache_file[512];
static float *host_x, *dev_x, *dev_out;

static int have_cuda(void) {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

/* xorshift values in [-1, 1): never all zeros */
static void fill(float *x, size_t n) {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x[i] = (float)((double)(s >> 11) / 4503599627370496.0 - 1.0);
  }
}

static gpureduce_handle_t make_handle(gpureduce_tune_cache_t want_state, const char *what) {
  gpureduce_handle_t h = NULL;
  assert_int_equal(gpureduce_create(&h, 0), GPUREDUCE_SUCCESS);
  gpureduce_tune_cache_t state;
  const char *path = NULL;
  assert_int_equal(gpureduce_tune_cache_state(h, &state, &path), GPUREDUCE_SUCCESS);
  if (state != want_state) print_error("%s: cache state %d, wanted %d\n", what, state, want_state);
  assert_int_equal(state, want_state);
  assert_non_null(path);
  snprintf(cache_file, sizeof cache_file, "%s", path);
  return h;
}

/* n with `tiles` f32 tiles (8192 elements each), the top of bucket b. */
static size_t bucket_n(int b) { return (size_t)8192 << b; }

/* Bits of the f32 sum of the first n elements: on the device (dev_x) or,
 * for the host handle, of the same values in host memory. */
static uint32_t sum_bits(gpureduce_handle_t h, size_t n, int on_host) {
  float r = 0.0f;
  if (on_host) {
    assert_int_equal(gpureduce_sum_f32(host_x, &r, n, h), GPUREDUCE_SUCCESS);
  } else {
    assert_int_equal(gpureduce_sum_f32(dev_x, dev_out, n, h), GPUREDUCE_SUCCESS);
    assert_int_equal(cudaMemcpy(&r, dev_out, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  }
  uint32_t bits;
  memcpy(&bits, &r, 4);
  return bits;
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/gpureduce-test-tune-XXXXXX");
  if (!mkdtemp(dir)) return -1;
  setenv("GPUREDUCE_TUNE_CACHE", dir, 1);
  unsetenv("GPUREDUCE_TUNE");
  host_x = malloc(MAX_N * sizeof(float));
  if (!host_x) return -1;
  fill(host_x, MAX_N);
  if (cudaMalloc((void **)&dev_x, MAX_N * sizeof(float)) != cudaSuccess) return -1;
  if (cudaMalloc((void **)&dev_out, 16) != cudaSuccess) return -1;
  return cudaMemcpy(dev_x, host_x, MAX_N * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess
             ? 0
             : -1;
}

static int teardown(void **state) {
  (void)state;
  free(host_x);
  cudaFree(dev_x);
  cudaFree(dev_out);
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

static unsigned tuned_blocks[BUCKETS];

static void autotune_measures_applies_and_saves(void **state) {
  (void)state;
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_ABSENT, "a fresh cache directory");
  gpureduce_tune_row_t rows[32];
  size_t count = 0;
  assert_int_equal(
      gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, MAX_N, rows, 32, &count),
      GPUREDUCE_SUCCESS);
  assert_int_equal(count, BUCKETS);
  for (int b = 0; b < BUCKETS; ++b) {
    print_message("# bucket %d n=%zu: default %u blocks %.2f us, tuned %u blocks %.2f us "
                  "(noise %.2f)\n",
                  b, rows[b].n, rows[b].default_blocks, rows[b].default_us,
                  rows[b].tuned_blocks, rows[b].tuned_us, rows[b].noise_us);
    assert_int_equal(rows[b].n, bucket_n(b));
    assert_true(rows[b].tuned_blocks >= 1 && rows[b].default_blocks >= 1);
    assert_true(rows[b].default_us > 0.0 && rows[b].tuned_us > 0.0);
    /* a count other than the model's must have won by more than the noise */
    if (rows[b].tuned_blocks != rows[b].default_blocks)
      assert_true(rows[b].tuned_us < rows[b].default_us - rows[b].noise_us);
    unsigned blocks = 0;
    int tuned = 0;
    assert_int_equal(gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, bucket_n(b),
                                          &blocks, &tuned),
                     GPUREDUCE_SUCCESS);
    assert_int_equal(tuned, 1);
    assert_int_equal(blocks, rows[b].tuned_blocks);
    tuned_blocks[b] = blocks;
  }
  struct stat st;
  assert_int_equal(stat(cache_file, &st), 0);
  gpureduce_destroy(h);
}

static void the_next_handle_loads_the_tuning(void **state) {
  (void)state;
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_LOADED, "after autotune");
  gpureduce_handle_t host = NULL;
  assert_int_equal(gpureduce_create(&host, GPUREDUCE_DEVICE_HOST), GPUREDUCE_SUCCESS);
  for (int b = 0; b < BUCKETS; ++b) {
    unsigned blocks = 0;
    int tuned = 0;
    assert_int_equal(gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, bucket_n(b) - 1,
                                          &blocks, &tuned),
                     GPUREDUCE_SUCCESS);
    assert_int_equal(tuned, 1);
    assert_int_equal(blocks, tuned_blocks[b]);
    /* the tuned launch gives the host backend's bits */
    const size_t n = bucket_n(b) - 1;
    assert_int_equal(sum_bits(h, n, 0), sum_bits(host, n, 1));
  }
  /* other operations were not tuned */
  int tuned = 1;
  unsigned blocks = 0;
  assert_int_equal(
      gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_MAX, 0, MAX_N, &blocks, &tuned),
      GPUREDUCE_SUCCESS);
  assert_int_equal(tuned, 0);
  gpureduce_destroy(host);
  gpureduce_destroy(h);
}

/* Rewrite the cache file with one line edited. */
static void edit_cache(const char *from, const char *to) {
  FILE *f = fopen(cache_file, "rb");
  assert_non_null(f);
  char text[65536];
  const size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  char *at = strstr(text, from);
  assert_non_null(at);
  f = fopen(cache_file, "wb");
  assert_non_null(f);
  fwrite(text, 1, (size_t)(at - text), f);
  fputs(to, f);
  fputs(at + strlen(from), f);
  fclose(f);
}

static void a_foreign_or_corrupt_cache_is_ignored(void **state) {
  (void)state;
  edit_cache("device-name ", "device-name Another ");
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_FOREIGN, "a cache for another device");
  unsigned blocks = 0;
  int tuned = 1;
  assert_int_equal(
      gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, MAX_N, &blocks, &tuned),
      GPUREDUCE_SUCCESS);
  assert_int_equal(tuned, 0);
  gpureduce_destroy(h);
  edit_cache("device-name Another ", "device-name ");
  edit_cache("end ", "end 9");
  h = make_handle(GPUREDUCE_TUNE_CACHE_CORRUPT, "a cache with a wrong entry count");
  assert_int_equal(
      gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, MAX_N, &blocks, &tuned),
      GPUREDUCE_SUCCESS);
  assert_int_equal(tuned, 0);
  gpureduce_destroy(h);
}

static void tune_off_ignores_and_keeps_the_cache(void **state) {
  (void)state;
  struct stat before, after;
  assert_int_equal(stat(cache_file, &before), 0);
  setenv("GPUREDUCE_TUNE", "off", 1);
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_DISABLED, "GPUREDUCE_TUNE=off");
  size_t count = 0;
  assert_int_equal(gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, (size_t)1 << 16, NULL,
                                      0, &count),
                   GPUREDUCE_SUCCESS);
  assert_int_equal(count, 4);
  unsigned blocks = 0;
  int tuned = 0;
  assert_int_equal(gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 8192, &blocks, &tuned),
                   GPUREDUCE_SUCCESS);
  assert_int_equal(tuned, 1); /* applied to the handle */
  assert_int_equal(stat(cache_file, &after), 0);
  assert_true(before.st_mtime == after.st_mtime && before.st_size == after.st_size &&
              before.st_ino == after.st_ino);
  unsetenv("GPUREDUCE_TUNE");
  gpureduce_destroy(h);
}

static void an_unwritable_cache_is_reported_not_fatal(void **state) {
  (void)state;
  setenv("GPUREDUCE_TUNE_CACHE", "/proc/gpureduce-cannot-write-here", 1);
  gpureduce_handle_t h = make_handle(GPUREDUCE_TUNE_CACHE_ABSENT, "a cache under /proc");
  size_t count = 0;
  assert_int_equal(gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, (size_t)1 << 14, NULL,
                                      0, &count),
                   GPUREDUCE_ERROR_TUNE_CACHE);
  assert_true(strlen(gpureduce_last_message(h)) > 0);
  unsigned blocks = 0;
  int tuned = 0;
  assert_int_equal(gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 8192, &blocks, &tuned),
                   GPUREDUCE_SUCCESS);
  assert_int_equal(tuned, 1);
  gpureduce_destroy(h);
  setenv("GPUREDUCE_TUNE_CACHE", dir, 1);
}

static void tuning_rejects_the_host_and_bad_arguments(void **state) {
  (void)state;
  gpureduce_handle_t h = NULL, host = NULL;
  assert_int_equal(gpureduce_create(&h, 0), GPUREDUCE_SUCCESS);
  assert_int_equal(gpureduce_create(&host, GPUREDUCE_DEVICE_HOST), GPUREDUCE_SUCCESS);
  assert_int_equal(gpureduce_autotune(host, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 0, NULL),
                   GPUREDUCE_ERROR_UNSUPPORTED);
  assert_int_equal(gpureduce_autotune(h, GPUREDUCE_F64, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64, 0,
                                      NULL, 0, NULL),
                   GPUREDUCE_ERROR_UNSUPPORTED);
  assert_int_equal(gpureduce_autotune(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 3, NULL),
                   GPUREDUCE_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gpureduce_set_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 100, 0xffffffffu),
                   GPUREDUCE_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gpureduce_get_blocks(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 100, NULL, NULL),
                   GPUREDUCE_ERROR_INVALID_ARGUMENT);
  assert_int_equal(gpureduce_autotune(NULL, GPUREDUCE_F32, GPUREDUCE_SUM, 0, 0, NULL, 0, NULL),
                   GPUREDUCE_ERROR_INVALID_HANDLE);
  gpureduce_destroy(host);
  gpureduce_destroy(h);
}

int main(void) {
  if (!have_cuda()) {
    printf("1..0 # SKIP no CUDA device\n");
    return 0;
  }
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
