/*
 * test-math.c - src/math/exp_log.h gives the same bits on the GPU as on
 * the host: gr_expf, gr_logf, gr_exp, gr_log, gr_expf_term and gr_expf_diff
 * (in their domains) computed by a kernel
 * (tests/cuda/math-kernels.cu, nvcc -fmad=false) and by this C file (the
 * host compiler, -ffp-contract=off), compared bit for bit.
 *
 * Inputs: the floats every FLOAT_STRIDE-th bit pattern (all 2^32 with
 * GPUREDUCE_TEST_MATH=all, in chunks of 2^24; the host's side runs on
 * OpenMP's threads where configure found OpenMP: about 9 CPU-minutes),
 * and doubles: random bit patterns, the range of finite exp results,
 * subnormal results, and numbers near 1.  Prints TAP itself ("1..0 #
 * SKIP no CUDA device" without a GPU); a failure names the first input
 * that differs, with both results' bits.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <cuda_runtime_api.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math-kernels.h"
#include "math/exp_log.h"

#define FLOAT_STRIDE 257u
#define CHUNK ((size_t)1 << 24)
#define DOUBLES ((size_t)1 << 22)

/* splitmix64: the doubles' inputs, the same on every run. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double unit(uint64_t *s) { return (double)(next_u64(s) >> 11) * 0x1p-53; }

typedef int (*device_pair)(const float *, float *, float *, size_t);
typedef float (*host_fn)(float);

/* gr_expf_term of -|x|: its domain, d <= 0, from every float; and
 * gr_expf_diff of -|x| and 0.7, whose difference is rarely a float. */
static float term_of_magnitude(float x) { return gr_expf_term(-fabsf(x)); }
static float diff_of_magnitude(float x) { return gr_expf_diff(-fabsf(x), 0.7f); }

/* The floats with bit patterns first, first + stride, ...: `device`
 * computes fa and fb of each (named na and nb) on the GPU into a and b;
 * 0 when their bits equal the host's, else 1 after a TAP comment that
 * names the first input that differs. */
static int floats(uint64_t first, uint64_t stride, uint64_t *count, float *x, float *a,
                  float *b, device_pair device, host_fn fa, const char *na, host_fn fb,
                  const char *nb) {
  uint64_t u = first;
  while (u <= 0xffffffffu) {
    size_t n = 0;
    for (; n < CHUNK && u <= 0xffffffffu; n++, u += stride)
      x[n] = gr_math_float_from_bits((uint32_t)u);
    int s = device(x, a, b, n);
    if (s != 0) {
      printf("# CUDA: %s\n", gr_test_math_error_string(s));
      return 1;
    }
    size_t first_bad = n;
#ifdef _OPENMP
#pragma omp parallel for reduction(min : first_bad)
#endif
    for (size_t i = 0; i < n; i++)
      if (gr_math_float_bits(fa(x[i])) != gr_math_float_bits(a[i]) ||
          gr_math_float_bits(fb(x[i])) != gr_math_float_bits(b[i]))
        first_bad = i < first_bad ? i : first_bad;
    if (first_bad < n) {
      size_t i = first_bad;
      uint32_t ha = gr_math_float_bits(fa(x[i])), hb = gr_math_float_bits(fb(x[i]));
      int a_differs = ha != gr_math_float_bits(a[i]);
      printf("# %s(0x%08" PRIx32 " = %a): host 0x%08" PRIx32 ", device 0x%08" PRIx32 "\n",
             a_differs ? na : nb, gr_math_float_bits(x[i]), (double)x[i], a_differs ? ha : hb,
             a_differs ? gr_math_float_bits(a[i]) : gr_math_float_bits(b[i]));
      return 1;
    }
    *count += n;
  }
  return 0;
}

static int doubles(double *x, double *e, double *l) {
  uint64_t s = 46;
  for (size_t i = 0; i < DOUBLES; i++) {
    switch (i % 4) {
    case 0: x[i] = gr_math_from_bits(next_u64(&s)); break; /* every bit pattern */
    case 1: x[i] = -708.39 + 1418.17 * unit(&s); break; /* finite, normal exp */
    case 2: x[i] = -745.2 + 36.9 * unit(&s); break;     /* subnormal exp */
    default: x[i] = 1.0 + (unit(&s) - 0.5) * 0x1p-6; break; /* log near 1 */
    }
  }
  int st = gr_test_math_doubles_on_device(x, e, l, DOUBLES);
  if (st != 0) {
    printf("# CUDA: %s\n", gr_test_math_error_string(st));
    return 1;
  }
  for (size_t i = 0; i < DOUBLES; i++) {
    uint64_t he = gr_math_bits(gr_exp(x[i])), hl = gr_math_bits(gr_log(x[i]));
    if (he != gr_math_bits(e[i]) || hl != gr_math_bits(l[i])) {
      int exp_differs = he != gr_math_bits(e[i]);
      printf("# %s(0x%016" PRIx64 " = %a): host 0x%016" PRIx64 ", device 0x%016" PRIx64 "\n",
             exp_differs ? "gr_exp" : "gr_log", gr_math_bits(x[i]), x[i], exp_differs ? he : hl,
             exp_differs ? gr_math_bits(e[i]) : gr_math_bits(l[i]));
      return 1;
    }
  }
  return 0;
}

int main(void) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("1..0 # SKIP no CUDA device\n");
    return 0;
  }
  const char *mode = getenv("GPUREDUCE_TEST_MATH");
  int all = mode != NULL && strcmp(mode, "all") == 0;
  float *x = malloc(CHUNK * sizeof *x), *e = malloc(CHUNK * sizeof *e),
        *l = malloc(CHUNK * sizeof *l);
  double *xd = malloc(DOUBLES * sizeof *xd), *ed = malloc(DOUBLES * sizeof *ed),
         *ld = malloc(DOUBLES * sizeof *ld);
  if (!x || !e || !l || !xd || !ed || !ld) {
    printf("Bail out! no memory\n");
    return 1;
  }
  printf("1..3\n");
  uint64_t count = 0;
  int bad = floats(0, all ? 1 : FLOAT_STRIDE, &count, x, e, l, gr_test_math_floats_on_device,
                   gr_expf, "gr_expf", gr_logf, "gr_logf");
  printf("%s 1 - gr_expf and gr_logf: the same bits on the device as on the host (%" PRIu64
         " floats%s)\n",
         bad ? "not ok" : "ok", count, all ? ", all of them" : "; GPUREDUCE_TEST_MATH=all for all");
  int bad2 = doubles(xd, ed, ld);
  printf("%s 2 - gr_exp and gr_log: the same bits on the device as on the host (%zu doubles)\n",
         bad2 ? "not ok" : "ok", (size_t)DOUBLES);
  count = 0;
  int bad3 = floats(0, all ? 1 : FLOAT_STRIDE, &count, x, e, l, gr_test_math_terms_on_device,
                    diff_of_magnitude, "gr_expf_diff of -|x| and 0.7", term_of_magnitude,
                    "gr_expf_term of -|x|");
  printf("%s 3 - gr_expf_term and gr_expf_diff: the same bits on the device as on the host (%" PRIu64
         " floats' negative magnitudes%s)\n",
         bad3 ? "not ok" : "ok", count, all ? ", all of them" : "; GPUREDUCE_TEST_MATH=all for all");
  free(x);
  free(e);
  free(l);
  free(xd);
  free(ed);
  free(ld);
  return 0;
}
