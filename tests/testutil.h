/*
 * testutil.h - the cmocka layer of gpureduce's tests: a seeded PRNG,
 * checks that read as sentences (check_bits(wanted, seen, "what this
 * checks", ...)), and helpers that fail the current test when they cannot
 * do their job.  The element helpers (elements.h) come with it; the
 * independent reference of gpureduce.h and doc/ORDER.md is reference.h.
 *
 * Every test program is one cmocka group in TAP mode; a check that fails
 * prints what it checked and both values (hex and decimal) with
 * print_error and fails the current test.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTUTIL_H
#define GPUREDUCE_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gpureduce.h"

#include "elements.h"

#if defined(__GNUC__)
#define TU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TU_PRINTF(f, a)
#endif

/* In a test that includes <cuda_runtime_api.h> before this header: fail
 * the current test, with the CUDA error's text, when a CUDA runtime call
 * does not return cudaSuccess. */
#ifdef CUDART_VERSION
#define CK(call)                                                                 \
  do {                                                                           \
    const cudaError_t e_ = (call);                                               \
    if (e_ != cudaSuccess) fail_msg("%s: %s", #call, cudaGetErrorString(e_));    \
  } while (0)
#endif

/* ---- random numbers ------------------------------------------------------- */

/* xoshiro256** seeded through splitmix64. */
typedef struct tu_rng {
  uint64_t s[4];
} tu_rng;

/* The run's seed: $GPUREDUCE_TEST_SEED (decimal or 0x hex), else a fixed
 * default, so every run is reproducible. */
uint64_t tu_seed(void);
/* Print "# seed N" (a TAP comment) once; call it from a group setup, after
 * cmocka printed the plan. */
void tu_announce_seed(void);
/* A generator for one purpose: the run's seed mixed with a label, so tests
 * draw independent streams whatever order they run in. */
void tu_rng_init(tu_rng *r, const char *label);
uint64_t tu_next(tu_rng *r);
/* Uniform in [0, bound) (bound > 0). */
uint64_t tu_below(tu_rng *r, uint64_t bound);
/* Uniform in [0, 1). */
double tu_unit(tu_rng *r);

/* ---- element patterns that fail the test ------------------------------- */

/* Pattern of v in a floating type (elements.h's tu_pattern_of); v must be
 * representable exactly (the test fails otherwise).  NaN gives the type's
 * canonical quiet NaN. */
uint64_t tu_pattern(gpureduce_type_t type, double v);

/* ---- checks ---------------------------------------------------------------- */

/* Names for messages. */
const char *tu_status_name(gpureduce_status_t s);

void tu_check_bits(const char *file, int line, uint64_t wanted, uint64_t seen,
                   const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_status(const char *file, int line, gpureduce_status_t wanted,
                     gpureduce_status_t seen, const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_true(const char *file, int line, int cond, const char *fmt, ...)
    TU_PRINTF(4, 5);
void tu_check_string(const char *file, int line, const char *wanted, const char *seen,
                     const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_near(const char *file, int line, long double ref, double seen, double bound,
                   const char *fmt, ...) TU_PRINTF(6, 7);
void tu_check_bytes(const char *file, int line, const void *buf, unsigned char byte,
                    size_t len, const char *fmt, ...) TU_PRINTF(6, 7);

/* check_bits(wanted, seen, "what", ...): the same bit pattern (also for
 * integers and indices). */
#define check_bits(w, s, ...) tu_check_bits(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_status(wanted, seen, "what", ...) */
#define check_status(w, s, ...) tu_check_status(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_true(condition, "what", ...) */
#define check_true(c, ...) tu_check_true(__FILE__, __LINE__, !!(c), __VA_ARGS__)
/* check_string(wanted, seen, "what", ...): equal strings (NULL only
 * equals NULL). */
#define check_string(w, s, ...) tu_check_string(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_near(reference, seen, bound, "what", ...): |seen - reference| <=
 * bound and seen is not NaN. */
#define check_near(r, s, b, ...) tu_check_near(__FILE__, __LINE__, (r), (s), (b), __VA_ARGS__)
/* check_bytes(buf, byte, len, "what", ...): every byte equals `byte`
 * (canaries, untouched outputs). */
#define check_bytes(p, c, l, ...) tu_check_bytes(__FILE__, __LINE__, (p), (c), (l), __VA_ARGS__)

/* ---- small things ---------------------------------------------------------- */

/* malloc that fails the test on failure; aligned to 256 bytes. */
void *tu_alloc(size_t bytes);
/* Is there a usable CUDA device?  (cudaGetDeviceCount: error or 0 = no.) */
int tu_have_cuda(void);

#endif /* GPUREDUCE_TESTUTIL_H */
