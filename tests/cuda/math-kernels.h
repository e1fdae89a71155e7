/*
 * math-kernels.h - tests/cuda/math-kernels.cu's entry points: gr_expf and
 * gr_logf (or gr_exp and gr_log, or gr_expf_term) of x[0..n) on CUDA
 * device 0, into e and l (host memory); 0 (cudaSuccess) or the CUDA
 * error.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_MATH_KERNELS_H
#define GPUREDUCE_TESTS_MATH_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif
int gr_test_math_floats_on_device(const float *x, float *e, float *l, size_t n);
int gr_test_math_doubles_on_device(const double *x, double *e, double *l, size_t n);
/* gr_expf_diff(-|x|, 0.7) of x[0..n) into t, and gr_expf_term(-|x|)
 * into l: the two float exps of LOGSUMEXP in their domains */
int gr_test_math_terms_on_device(const float *x, float *t, float *l, size_t n);
const char *gr_test_math_error_string(int status);
#ifdef __cplusplus
}
#endif

#endif
