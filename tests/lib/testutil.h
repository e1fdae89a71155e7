/*
 * testutil.h - the cmocka layer of gpureduce's tests: checks that read as
 * sentences (check_bits(wanted, seen, "what this checks", ...)), and
 * helpers that fail the current test when they cannot do their job.  The
 * element helpers (elements.h) and the seeded PRNG (rng.h) come with it;
 * the independent reference of gpureduce.h and doc/ORDER.md is
 * reference.h, the test data and the case iterator cases.h.
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

#include "cases.h"
#include "elements.h"
#include "rng.h"

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

/* Print "# seed N" (a TAP comment) once; call it from a group setup, after
 * cmocka printed the plan.  The generators themselves are in rng.h. */
void tu_announce_seed(void);
/* A group setup that only announces the seed. */
int tu_seed_setup(void **state);

/* ---- element patterns that fail the test ------------------------------- */

/* Pattern of v in a floating type (elements.h's tu_pattern_of); v must be
 * representable exactly (the test fails otherwise).  NaN gives the type's
 * canonical quiet NaN. */
uint64_t tu_pattern(gpureduce_type_t type, double v);

/* ---- checks ---------------------------------------------------------------- */

/* A status's enumerator name for messages: gpureduce_status_name(s), or
 * "(not a status)" for a value that is none. */
static inline const char *tu_status_label(gpureduce_status_t s) {
  const char *name = gpureduce_status_name(s);
  return name ? name : "(not a status)";
}

void tu_check_bits(const char *file, int line, uint64_t wanted, uint64_t seen,
                   const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_status(const char *file, int line, gpureduce_status_t wanted,
                     gpureduce_status_t seen, const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_tune_cache(const char *file, int line, gpureduce_tune_cache_t wanted,
                         gpureduce_tune_cache_t seen, const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_true(const char *file, int line, int cond, const char *fmt, ...)
    TU_PRINTF(4, 5);
void tu_check_string(const char *file, int line, const char *wanted, const char *seen,
                     const char *fmt, ...) TU_PRINTF(5, 6);
void tu_check_near(const char *file, int line, long double ref, double seen, double bound,
                   const char *fmt, ...) TU_PRINTF(6, 7);
void tu_check_bytes(const char *file, int line, const void *buf, unsigned char byte,
                    size_t len, const char *fmt, ...) TU_PRINTF(6, 7);

void tu_check_failed(const char *file, int line, gpureduce_handle_t h,
                     gpureduce_status_t wanted, gpureduce_status_t seen, const void *buf,
                     unsigned char fill, size_t len, const char *word, const char *what);

/* check_bits(wanted, seen, "what", ...): the same bit pattern (also for
 * integers and indices). */
#define check_bits(w, s, ...) tu_check_bits(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_status(wanted, seen, "what", ...) */
#define check_status(w, s, ...) tu_check_status(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_tune_cache(wanted, seen, "what", ...): a gpureduce_tune_cache_t */
#define check_tune_cache(w, s, ...) \
  tu_check_tune_cache(__FILE__, __LINE__, (w), (s), __VA_ARGS__)
/* check_failed(h, wanted, seen, buf, fill, len, word, what): a call on h
 * that must fail did: status `wanted`, the len bytes at buf still all
 * `fill` (the output untouched), and a non-empty handle message that
 * mentions `word`. */
#define check_failed(h, w, s, buf, fill, len, word, what) \
  tu_check_failed(__FILE__, __LINE__, (h), (w), (s), (buf), (fill), (len), (word), (what))
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

/* ---- the group ------------------------------------------------------------- */

/* Leave the cases whose functions are out[0..n_out) out of the group
 * tests[0..count), keeping the order of the rest, and print a TAP comment
 * that names them and says why ("# WHY: left out: NAME, NAME"); return
 * the count left, for _cmocka_run_group_tests(name, tests, count, setup,
 * teardown).  For the cases a mode of the program does not run (such as
 * the long ones under GPUREDUCE_TEST_QUICK): they are then not in the
 * plan at all, where cmocka 1.1.5's skip() would print "not ok", a
 * failure. */
size_t tu_leave_out(struct CMUnitTest *tests, size_t count, const CMUnitTestFunction *out,
                    size_t n_out, const char *why);

/* ---- small things ---------------------------------------------------------- */

/* tc_next (cases.h), failing the test when the data's memory cannot be
 * allocated: 1 while there is a case, then 0. */
int tu_next_case(struct tc_walk *w, struct tc_case *c);

/* For group setups: make a new directory ${TMPDIR:-/tmp}/gpureduce-NAME-
 * XXXXXX into dir (cap bytes); 0 on success, else -1 after print_error
 * says why. */
int tu_make_tmpdir(char *dir, size_t cap, const char *name);
/* For group teardowns: remove dir and all in it; 0 on success. */
int tu_remove_tmpdir(const char *dir);
/* Case-insensitive: does `text` mention `word`? */
int tu_mentions(const char *text, const char *word);

/* The argument tests' fixture (tests/api): a host handle, 4096 bytes of
 * input holding the floats 1, 2, 3, ... and out_bytes of output, both
 * 256-byte aligned; 0 on success.  tu_args_close frees them and destroys
 * the handle (0 on success). */
int tu_args_open(gpureduce_handle_t *h, unsigned char **in, unsigned char **out,
                 size_t out_bytes);
int tu_args_close(gpureduce_handle_t h, unsigned char *in, unsigned char *out);
/* malloc that fails the test on failure; aligned to 256 bytes. */
void *tu_alloc(size_t bytes);
/* Is there a usable CUDA device?  (cudaGetDeviceCount: error or 0 = no;
 * tests/lib/device.c, so that host-only tests need no CUDA runtime.) */
int tu_have_cuda(void);
/* The start of a test program that needs `devices` CUDA devices: without
 * them, print the TAP plan that skips the program ("1..0 # SKIP" and the
 * reason: a skip under automake's TAP driver) and return 0; else return
 * 1.  A case that needs more than the rest of its program is a program
 * of its own, so that it can skip this way (cmocka 1.1.5's skip() prints
 * "not ok", a failure). */
int tu_cuda_need_devices(int devices);
/* The start of a test program that needs `need` bytes (a whole number of
 * GiB) of free memory on CUDA device 0: without a device, or with less
 * free, print the TAP plan that skips the program, with the reason, and
 * return 0; else make device 0 current and return its free bytes. */
size_t tu_cuda_start(size_t need);

#endif /* GPUREDUCE_TESTUTIL_H */
