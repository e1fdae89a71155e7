/*
 * api/args.c - the one prologue of the API's calls and the argument checks
 * it is made of (api/args.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "api/args.h"
#include "core/backend.h"

/* (type, op, flags), step 2 of gr_prologue(). */
static gpureduce_status_t check_kind(struct gpureduce_handle *h, const struct gr_call *c,
                                     size_t *result_size) {
  const gpureduce_type_t type = c->type;
  const gpureduce_op_t op = c->op;
  const unsigned flags = c->flags;
  if (c->dot && flags & GPUREDUCE_WITH_VALUE &&
      !(flags & ~(GPUREDUCE_ACCUMULATE_F64 | GPUREDUCE_WITH_VALUE)))
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_WITH_VALUE applies to argmin and argmax, not to the dot product");
  if (c->dot && (unsigned)type < GPUREDUCE_TYPE_COUNT && flags == GPUREDUCE_ACCUMULATE_F64 &&
      type != GPUREDUCE_F32)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_ACCUMULATE_F64 applies to the dot product of f32 only, not %s",
                   gpureduce_type_name(type));
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "type %d is not a gpureduce_type_t",
                   (int)type);
  if ((unsigned)op >= GPUREDUCE_OP_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "op %d is not a gpureduce_op_t", (int)op);
  if (flags & ~(GPUREDUCE_ACCUMULATE_F64 | GPUREDUCE_WITH_VALUE | GPUREDUCE_SOFTMAX_STATS))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "flags 0x%x has unknown bits", flags);
  const size_t rs = gpureduce_result_size(type, op, flags);
  const int is_arg = op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX;
  if (rs == 0 && (flags & GPUREDUCE_SOFTMAX_STATS))
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_SOFTMAX_STATS applies to logsumexp of f16, bf16, f32 and f64, "
                   "with no other flag, not %s %s%s",
                   gpureduce_type_name(type), c->dot ? "dot" : gpureduce_op_name(op),
                   (flags & ~GPUREDUCE_SOFTMAX_STATS) ? " with other flags" : "");
  if (rs == 0 && (flags & GPUREDUCE_WITH_VALUE) && !is_arg)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_WITH_VALUE applies to argmin and argmax only, not %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  if (rs == 0 && op == GPUREDUCE_LOGSUMEXP && type > GPUREDUCE_F64)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "logsumexp takes f16, bf16, f32 and f64, not %s", gpureduce_type_name(type));
  if (rs == 0)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_ACCUMULATE_F64 applies to f32 sum, prod, sum_abs, "
                   "sum_squares, nrm2 and mean_var only, not %s %s%s",
                   gpureduce_type_name(type), gpureduce_op_name(op),
                   (flags & GPUREDUCE_WITH_VALUE) ? " with GPUREDUCE_WITH_VALUE" : "");
  *result_size = rs;
  return GPUREDUCE_SUCCESS;
}

/* Step 4 of gr_prologue(). */
static gpureduce_status_t check_buffers(struct gpureduce_handle *h, const struct gr_call *c) {
  const uint64_t n = c->n;
  const gpureduce_op_t op = c->op;
  if (!c->output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  for (unsigned k = 0; k < c->inputs; ++k)
    if (n > 0 && !c->in[k].p)
      return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "%s is NULL with n = %llu",
                     c->in[k].name, (unsigned long long)n);
  gpureduce_status_t s;
  for (unsigned k = 0; k < c->inputs; ++k)
    if ((s = gr_check_input(h, c->in[k].p, n, c->type, c->in[k].name)) != GPUREDUCE_SUCCESS)
      return s;
  if ((uintptr_t)c->output % c->result_size)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output %p is not aligned to its %zu-byte result", c->output, c->result_size);
  if (n == 0 && (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX))
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT, "%s of zero elements has no index",
                   gpureduce_op_name(op));
  if (n == 0 && op == GPUREDUCE_MEAN_VAR)
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT,
                   "mean_var of zero elements has no mean (n must be at least 1)");
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gr_check_input(struct gpureduce_handle *h, const void *input, uint64_t n,
                                  gpureduce_type_t type, const char *name) {
  if (n > 0 && !input)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "%s is NULL with n = %llu", name,
                   (unsigned long long)n);
  if (n > 0 && (uintptr_t)input % gpureduce_type_size(type))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "%s %p is not aligned to its %u-byte elements", name, input,
                   (unsigned)gpureduce_type_size(type));
  return GPUREDUCE_SUCCESS;
}

/* *out = count * stride in int64_t; 0 when it does not fit. */
static int mul_i64(uint64_t count, int64_t stride, int64_t *out) {
  if (count == 0 || stride == 0) {
    *out = 0;
    return 1;
  }
  if (count > (uint64_t)INT64_MAX) return 0;
  const int64_t c = (int64_t)count;
  if (stride > 0 ? stride > INT64_MAX / c : stride < INT64_MIN / c) return 0;
  *out = c * stride;
  return 1;
}

/* *out = a + b in int64_t; 0 when it does not fit. */
static int add_i64(int64_t a, int64_t b, int64_t *out) {
  if (b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b) return 0;
  *out = a + b;
  return 1;
}

gpureduce_status_t gr_input_span(struct gpureduce_handle *h, const char *name,
                                 const void *input, uint64_t batch, uint64_t n,
                                 int64_t batch_stride, int64_t element_stride, unsigned size,
                                 int64_t *lo, int64_t *hi) {
  int64_t last_vector, last_element, lo_e, hi_e;
  if (!mul_i64(batch - 1, batch_stride, &last_vector) ||
      !mul_i64(n - 1, element_stride, &last_element) ||
      !add_i64(last_vector < 0 ? last_vector : 0, last_element < 0 ? last_element : 0, &lo_e) ||
      !add_i64(last_vector > 0 ? last_vector : 0, last_element > 0 ? last_element : 0, &hi_e))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the element offsets b*batch_stride + i*element_stride of %s overflow "
                   "int64_t (batch %" PRIu64 ", n %" PRIu64 ", batch_stride %" PRId64
                   ", element_stride %" PRId64 ")",
                   name, batch, n, batch_stride, element_stride);
  int64_t lo_b, hi_b;
  if (!mul_i64(size, lo_e, &lo_b) || !mul_i64(size, hi_e, &hi_b))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the byte offsets of elements %" PRId64 " .. %" PRId64
                   " (of %u bytes) from %s overflow int64_t",
                   lo_e, hi_e, size, name);
  hi_b += (int64_t)size - 1; /* a multiple of size up to INT64_MAX leaves room for it */
  const uint64_t at = (uint64_t)(uintptr_t)input;
  if (at < (uint64_t)0 - (uint64_t)lo_b || (uint64_t)hi_b > (uint64_t)UINTPTR_MAX - at)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the elements from %s %p %+" PRId64 " to %+" PRId64
                   " bytes wrap around the address space",
                   name, input, lo_b, hi_b);
  *lo = lo_b;
  *hi = hi_b;
  return GPUREDUCE_SUCCESS;
}

/* Do the bytes [a, a + a_bytes) and [b + b_lo, b + b_hi] meet?  (a_bytes
 * >= 1, b_lo <= 0 <= b_hi, both ranges inside the address space.) */
static int overlaps(const void *a, uint64_t a_bytes, const void *b, int64_t b_lo, int64_t b_hi) {
  const uint64_t a0 = (uint64_t)(uintptr_t)a, a1 = a0 + (a_bytes - 1);
  const uint64_t b0 = (uint64_t)(uintptr_t)b - ((uint64_t)0 - (uint64_t)b_lo);
  const uint64_t b1 = (uint64_t)(uintptr_t)b + (uint64_t)b_hi;
  return a0 <= b1 && b0 <= a1;
}

gpureduce_status_t gr_check_overlap(struct gpureduce_handle *h, const void *output,
                                    uint64_t bytes, const char *name, const void *in,
                                    int64_t lo, int64_t hi) {
  if (!overlaps(output, bytes, in, lo, hi)) return GPUREDUCE_SUCCESS;
  return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                 "the output's %" PRIu64 " bytes from %p overlap %s, %p %+" PRId64 " to %+" PRId64
                 " bytes (its lowest to its highest element); the output must lie outside it",
                 bytes, output, name, in, lo, hi);
}

gpureduce_status_t gr_output_span(struct gpureduce_handle *h, const void *output,
                                  uint64_t count, size_t result_size, uint64_t *bytes) {
  if (count > SIZE_MAX / result_size)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "%" PRIu64 " results of %zu bytes overflow size_t", count, result_size);
  const uint64_t at = (uint64_t)(uintptr_t)output, total = count * result_size;
  if (total - 1 > (uint64_t)UINTPTR_MAX - at)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the output's %" PRIu64 " bytes from %p wrap around the address space",
                   total, output);
  *bytes = total;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gr_check_space(struct gpureduce_handle *h, const void *p, const char *what) {
  return h->backend->check_pointer(h, p, what);
}

gpureduce_status_t gr_begin(struct gpureduce_handle *h) {
  if (!h) return GPUREDUCE_ERROR_INVALID_HANDLE;
  h->message[0] = '\0';
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gr_prologue(struct gpureduce_handle *h, struct gr_call *c) {
  gpureduce_status_t s;
  if ((s = gr_begin(h)) != GPUREDUCE_SUCCESS) return s;
  if ((s = check_kind(h, c, &c->result_size)) != GPUREDUCE_SUCCESS) return s;
  if (c->batch == 0 || c->inputs == 0) return GPUREDUCE_SUCCESS;
  if ((s = check_buffers(h, c)) != GPUREDUCE_SUCCESS) return s;
  const unsigned size = (unsigned)gpureduce_type_size(c->type);
  int64_t lo[2] = {0, 0}, hi[2] = {0, 0}; /* the inputs' spans, in bytes (n > 0) */
  for (unsigned k = 0; k < c->inputs && c->n > 0; ++k)
    if ((s = gr_input_span(h, c->in[k].name, c->in[k].p, c->batch, c->n, c->in[k].batch_stride,
                           c->in[k].element_stride, size, &lo[k], &hi[k])) != GPUREDUCE_SUCCESS)
      return s;
  uint64_t out_bytes = 0;
  if ((s = gr_output_span(h, c->output, c->batch, c->result_size, &out_bytes)) !=
      GPUREDUCE_SUCCESS)
    return s;
  for (unsigned k = 0; k < c->inputs && c->n > 0; ++k)
    if ((s = gr_check_overlap(h, c->output, out_bytes, c->in[k].name, c->in[k].p, lo[k],
                              hi[k])) != GPUREDUCE_SUCCESS)
      return s;
  char what[64]; /* (the name alone where the lowest element is the first) */
  for (unsigned k = 0; k < c->inputs && c->n > 0; ++k) {
    if (lo[k]) snprintf(what, sizeof what, "%s (its lowest element)", c->in[k].name);
    if ((s = gr_check_space(h, (const char *)c->in[k].p + lo[k],
                            lo[k] ? what : c->in[k].name)) != GPUREDUCE_SUCCESS)
      return s;
  }
  return gr_check_space(h, c->output, "output");
}
