/*
 * testutil.c - see testutil.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

/* ---- random numbers ------------------------------------------------------- */

#define TU_DEFAULT_SEED UINT64_C(20260417)

uint64_t tu_seed(void) {
  static int have = 0;
  static uint64_t seed;
  if (!have) {
    const char *s = getenv("GPUREDUCE_TEST_SEED");
    seed = TU_DEFAULT_SEED;
    if (s && *s) {
      char *end = NULL;
      unsigned long long v = strtoull(s, &end, 0);
      if (end && *end == '\0') seed = (uint64_t)v;
    }
    have = 1;
  }
  return seed;
}

void tu_announce_seed(void) {
  static int done = 0;
  if (!done) {
    print_message("# seed %" PRIu64 " (set GPUREDUCE_TEST_SEED to change it)\n", tu_seed());
    done = 1;
  }
}

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

void tu_rng_init(tu_rng *r, const char *label) {
  uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a of the label */
  for (const char *p = label; *p; ++p) h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
  uint64_t x = tu_seed() ^ h;
  for (int i = 0; i < 4; ++i) r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t tu_next(tu_rng *r) {
  uint64_t *s = r->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t tu_below(tu_rng *r, uint64_t bound) {
  /* Lemire's multiply-shift is not needed: rejection keeps it exact. */
  const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t x;
  do x = tu_next(r);
  while (x >= limit);
  return x % bound;
}

double tu_unit(tu_rng *r) { return (double)(tu_next(r) >> 11) * 0x1p-53; }

/* ---- element patterns that fail the test ------------------------------- */

uint64_t tu_pattern(gpureduce_type_t type, double v) {
  uint64_t bits = 0;
  if (tu_pattern_of(type, v, &bits) != 0)
    fail_msg("tu_pattern: %.17g is not a %s value (it would round or overflow, or %s is not "
             "a floating type)",
             v, TU_TYPE(type)->name, TU_TYPE(type)->name);
  return bits;
}

/* ---- checks ---------------------------------------------------------------- */

const char *tu_status_name(gpureduce_status_t s) {
  static const char *const names[] = {
      "GPUREDUCE_SUCCESS",          "GPUREDUCE_ERROR_INVALID_ARGUMENT",
      "GPUREDUCE_ERROR_INVALID_HANDLE", "GPUREDUCE_ERROR_UNSUPPORTED",
      "GPUREDUCE_ERROR_WRONG_MEMORY_SPACE", "GPUREDUCE_ERROR_EMPTY_INPUT",
      "GPUREDUCE_ERROR_NO_DEVICE",  "GPUREDUCE_ERROR_OUT_OF_MEMORY",
      "GPUREDUCE_ERROR_CUDA",       "GPUREDUCE_ERROR_TUNE_CACHE"};
  return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "(not a status)";
}

static void what_failed(const char *file, int line, const char *fmt, va_list ap) {
  char what[512];
  vsnprintf(what, sizeof what, fmt, ap);
  print_error("%s:%d: check failed: %s\n", file, line, what);
}

void tu_check_bits(const char *file, int line, uint64_t wanted, uint64_t seen,
                   const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted 0x%016" PRIx64 " (%" PRIu64 ", as int64 %" PRId64 ")\n", wanted,
              wanted, (int64_t)wanted);
  print_error("    seen   0x%016" PRIx64 " (%" PRIu64 ", as int64 %" PRId64 ")\n", seen, seen,
              (int64_t)seen);
  _fail(file, line);
}

void tu_check_status(const char *file, int line, gpureduce_status_t wanted,
                     gpureduce_status_t seen, const char *fmt, ...) {
  if (wanted == seen) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted %s (%d)\n    seen   %s (%d)\n", tu_status_name(wanted), (int)wanted,
              tu_status_name(seen), (int)seen);
  _fail(file, line);
}

void tu_check_true(const char *file, int line, int cond, const char *fmt, ...) {
  if (cond) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  _fail(file, line);
}

void tu_check_string(const char *file, int line, const char *wanted, const char *seen,
                     const char *fmt, ...) {
  if ((!wanted && !seen) || (wanted && seen && strcmp(wanted, seen) == 0)) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    wanted \"%s\"\n    seen   \"%s\"\n", wanted ? wanted : "(NULL)",
              seen ? seen : "(NULL)");
  _fail(file, line);
}

void tu_check_near(const char *file, int line, long double ref, double seen, double bound,
                   const char *fmt, ...) {
  const long double err = fabsl((long double)seen - ref);
  if (seen == seen && err <= (long double)bound) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    reference %.21Lg\n    seen      %.17g (bits 0x%016" PRIx64 ")\n"
              "    error     %.6Lg > bound %.6g\n",
              ref, seen, tu_f64_bits(seen), err, bound);
  _fail(file, line);
}

void tu_check_bytes(const char *file, int line, const void *buf, unsigned char byte,
                    size_t len, const char *fmt, ...) {
  const unsigned char *p = buf;
  size_t i = 0;
  while (i < len && p[i] == byte) ++i;
  if (i == len) return;
  va_list ap;
  va_start(ap, fmt);
  what_failed(file, line, fmt, ap);
  va_end(ap);
  print_error("    byte %zu of %zu is 0x%02x, wanted 0x%02x\n", i, len, p[i], byte);
  _fail(file, line);
}

/* ---- small things ---------------------------------------------------------- */

void *tu_alloc(size_t bytes) {
  void *p = NULL;
  size_t rounded = (bytes + 255) & ~(size_t)255;
  if (rounded == 0) rounded = 256;
  if (posix_memalign(&p, 256, rounded) != 0 || !p)
    fail_msg("cannot allocate %zu bytes of host memory", bytes);
  return p;
}

int tu_have_cuda(void) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count > 0;
}
