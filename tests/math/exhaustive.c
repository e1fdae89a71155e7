/*
 * exhaustive.c - gr_expf and gr_logf (src/math/exp_log.h) against MPFR
 * on all 2^32 float bit patterns: `make check-exhaustive' (tens of
 * minutes on two cores).
 *
 * Usage: tests/math/exhaustive [THREADS]   (default: the online CPUs)
 *
 * Both functions are compared, bit for bit, with MPFR's correctly rounded
 * binary32 result (tests/math/mpfr-ref.h; a NaN as gpureduce.h's
 * canonical quiet NaN, 0x7fffffff), on every bit pattern:
 *   - exp, and log of what is not a positive normal float: mpfr_exp and
 *     mpfr_log at 24 bits, per input;
 *   - log of the 254 x 2^23 positive normal floats x = 2^e m: MPFR's
 *     log(m) at 160 bits, once per m, plus e ln2 (160 bits), rounded to
 *     24 bits when the sum's error (below 2^-150, 2^-126 relative)
 *     cannot change the rounding, which is always but where log(x) lies
 *     within 2^-120 of a float midpoint; there mpfr_log at 24 bits
 *     decides ("reference fallbacks" at the end; log(x) is never a
 *     midpoint).  MPFR's log at 24 bits costs about 1 us here, the sum a
 *     few times less.
 * Work is shared by the threads in items (a block of 2^20 patterns, or
 * 2^13 mantissas with all their exponents).  The program prints its
 * progress every 1/16 of the items, every mismatch (the input, MPFR's
 * bits and ours; up to 50), every input that the fast path left to the
 * double-double one (the hard cases of the rounding test), and at the
 * end the counts and the time.  Exit status 0 when nothing mismatched,
 * 1 otherwise.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "math/exp_log.h"
#include "mpfr-ref.h"

#define MAX_REPORTED 50
#define PREC 160

/* The work items, in this order: */
#define LOG_NORMAL_ITEMS 1024u /* log of 2^13 mantissas, all exponents */
#define EXP_ITEMS 4096u        /* exp of the patterns [k 2^20, (k + 1) 2^20) */
#define LOG_NEG_ITEMS 2048u    /* log of 0x80000000 + [k 2^20, (k + 1) 2^20) */
#define LOG_EDGE_ITEMS 16u     /* log of +0 and subnormals, +inf and NaNs */
#define ITEMS (EXP_ITEMS + LOG_NEG_ITEMS + LOG_EDGE_ITEMS + LOG_NORMAL_ITEMS)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned next_item, items_done;
static uint64_t mismatches[2], hard[2], checked[2], fallbacks;
static struct timespec start;
static mpfr_t eln2[256]; /* (E - 127) ln2 for the biased exponents E, PREC bits */

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec);
}

/* 1 when the fast path of gr_expf (which 0) or gr_logf (which 1) leaves
 * x to the double-double path. */
static int is_hard(int which, float x) {
  float f;
  if (which == 0) return x >= -104.0f && x <= 89.0f && !gr_math_expf_fast(x, &f);
  return x > 0.0f && x - x == 0.0f && !gr_math_logf_fast(x, &f);
}

struct counts {
  uint64_t bad[2], hard[2], n[2], fallbacks;
};

/* Ours against `wanted` for the input with bits u. */
static void compare(int w, uint32_t u, uint32_t wanted, struct counts *c) {
  static const char *const names[2] = {"gr_expf", "gr_logf"};
  float x = gr_math_float_from_bits(u);
  float y = w == 0 ? gr_expf(x) : gr_logf(x);
  uint32_t seen = gr_math_float_bits(y);
  int h = is_hard(w, x);
  c->n[w]++;
  c->hard[w] += (uint64_t)h;
  if (seen == wanted && !h) return;
  pthread_mutex_lock(&lock);
  if (seen != wanted && mismatches[w] + c->bad[w] < MAX_REPORTED)
    printf("MISMATCH %s(0x%08" PRIx32 " = %a): MPFR 0x%08" PRIx32 ", seen 0x%08" PRIx32 "%s\n",
           names[w], u, (double)x, wanted, seen, h ? " (double-double path)" : "");
  if (h)
    printf("hard %s(0x%08" PRIx32 " = %a) = 0x%08" PRIx32 "%s\n", names[w], u, (double)x, seen,
           seen == wanted ? "" : " WRONG");
  fflush(stdout);
  pthread_mutex_unlock(&lock);
  c->bad[w] += (uint64_t)(seen != wanted);
}

/* Per input, MPFR at 24 bits: function w on the patterns [lo, lo + n). */
static void direct(int w, uint32_t lo, uint32_t n, mpfr_t t24, struct counts *c) {
  for (uint32_t k = 0; k < n; k++) {
    uint32_t u = lo + k;
    compare(w, u, mr_binary32(w == 0 ? mpfr_exp : mpfr_log, gr_math_float_from_bits(u), t24), c);
  }
}

/* log of the positive normal floats with the mantissas [m0, m0 + n). */
static void log_normals(uint32_t m0, uint32_t n, mpfr_t t24, struct counts *c) {
  mpfr_t m, lm, t, d, a;
  mpfr_inits2(PREC, m, lm, t, d, a, (mpfr_ptr)0);
  mpfr_t ya, yb;
  mpfr_init2(ya, 24);
  mpfr_init2(yb, 24);
  for (uint32_t k = 0; k < n; k++) {
    uint32_t mant = m0 + k;
    mpfr_set_ui_2exp(m, 0x800000u | mant, -23, MPFR_RNDN); /* 1.m, exact */
    mpfr_log(lm, m, MPFR_RNDN);
    for (uint32_t e = 1; e <= 254; e++) {
      uint32_t u = e << 23 | mant;
      mpfr_add(t, eln2[e], lm, MPFR_RNDN); /* within 2^-150 of log(x) */
      mpfr_mul_2si(d, t, -120, MPFR_RNDN);
      mpfr_sub(a, t, d, MPFR_RNDN);
      mpfr_set(ya, a, MPFR_RNDN);
      mpfr_add(a, t, d, MPFR_RNDN);
      mpfr_set(yb, a, MPFR_RNDN);
      uint32_t wanted;
      if (mpfr_equal_p(ya, yb)) {
        float y = mpfr_get_flt(ya, MPFR_RNDN);
        wanted = gr_math_float_bits(y);
      } else {
        wanted = mr_binary32(mpfr_log, gr_math_float_from_bits(u), t24);
        c->fallbacks++;
      }
      compare(1, u, wanted, c);
    }
  }
  mpfr_clears(m, lm, t, d, a, (mpfr_ptr)0);
  mpfr_clear(ya);
  mpfr_clear(yb);
}

static void *worker(void *arg) {
  struct mr_saved saved = mr_binary32_begin();
  mpfr_t t24;
  mpfr_init2(t24, 24);
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    unsigned i = next_item++;
    pthread_mutex_unlock(&lock);
    if (i >= ITEMS) break;
    struct counts c = {{0, 0}, {0, 0}, {0, 0}, 0};
    if (i < LOG_NORMAL_ITEMS) {
      log_normals(i << 13, 1u << 13, t24, &c);
    } else if ((i -= LOG_NORMAL_ITEMS) < EXP_ITEMS) {
      direct(0, i << 20, 1u << 20, t24, &c);
    } else if ((i -= EXP_ITEMS) < LOG_NEG_ITEMS) {
      direct(1, 0x80000000u | i << 20, 1u << 20, t24, &c);
    } else {
      /* +0 and the subnormals, then +inf and the NaNs: 2^23 each */
      i -= LOG_NEG_ITEMS;
      direct(1, (i < 8 ? 0u : 0x7f800000u) + (i % 8) * (1u << 20), 1u << 20, t24, &c);
    }
    pthread_mutex_lock(&lock);
    for (int w = 0; w < 2; w++) {
      mismatches[w] += c.bad[w];
      hard[w] += c.hard[w];
      checked[w] += c.n[w];
    }
    fallbacks += c.fallbacks;
    items_done++;
    if (items_done % (ITEMS / 16) == 0) {
      printf("progress: %2u/16 of the work, %.0f s, mismatches exp %" PRIu64 " log %" PRIu64 "\n",
             items_done / (ITEMS / 16), seconds(), mismatches[0], mismatches[1]);
      fflush(stdout);
    }
    pthread_mutex_unlock(&lock);
  }
  mpfr_clear(t24);
  mr_binary32_end(saved);
  mpfr_free_cache();
  return NULL;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1 || n > 256) {
    fprintf(stderr, "usage: %s [THREADS]  (1 to 256)\n", argv[0]);
    return 2;
  }
  pthread_t t[256];
  mpfr_t ln2;
  mpfr_init2(ln2, PREC + 10);
  mpfr_const_log2(ln2, MPFR_RNDN);
  for (int e = 0; e < 256; e++) {
    mpfr_init2(eln2[e], PREC);
    mpfr_mul_si(eln2[e], ln2, e - 127, MPFR_RNDN);
  }
  mpfr_clear(ln2);
  clock_gettime(CLOCK_MONOTONIC, &start);
  printf("gr_expf and gr_logf against MPFR %s on all 2^32 floats, %ld threads\n",
         mpfr_get_version(), n);
  fflush(stdout);
  for (long i = 0; i < n; i++)
    if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
      fprintf(stderr, "exhaustive: cannot start thread %ld\n", i);
      return 2;
    }
  for (long i = 0; i < n; i++) pthread_join(t[i], NULL);
  printf("gr_expf: %" PRIu64 " mismatches in %" PRIu64 " inputs (%" PRIu64
         " took the double-double path)\n",
         mismatches[0], checked[0], hard[0]);
  printf("gr_logf: %" PRIu64 " mismatches in %" PRIu64 " inputs (%" PRIu64
         " took the double-double path; %" PRIu64 " reference fallbacks)\n",
         mismatches[1], checked[1], hard[1], fallbacks);
  printf("%.0f s\n", seconds());
  for (int e = 0; e < 256; e++) mpfr_clear(eln2[e]);
  mpfr_free_cache();
  return mismatches[0] + mismatches[1] != 0 || checked[0] + checked[1] != 2 * 4294967296.0;
}
