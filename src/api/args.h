/*
 * api/args.h - the one prologue of the API's calls, and the argument
 * checks it is made of, so that every entry point gives the same statuses
 * and messages for the same mistakes, in the same order.  Not installed.
 */
#ifndef GR_API_ARGS_H
#define GR_API_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "core/handle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One input of a call: vector b's element i at p + b*batch_stride +
 * i*element_stride elements; `name` names it in the messages ("input",
 * "x", "y"). */
struct gr_array {
  const char *name;
  const void *p;
  int64_t batch_stride, element_stride;
};

/* What a call reduces: `batch` vectors of n elements of each of its
 * `inputs` arrays (0, 1 or 2), and `batch` results at output. */
struct gr_call {
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  int dot;         /* the dot product's (type, flags), op SUM */
  uint64_t batch, n;
  unsigned inputs; /* 0: the caller checks its own buffers */
  struct gr_array in[2];
  void *output;
  size_t result_size; /* set by gr_prologue() */
};

/* The first step of every call that takes a handle: INVALID_HANDLE when
 * h is NULL; else h's message is cleared and GPUREDUCE_SUCCESS. */
gpureduce_status_t gr_begin(struct gpureduce_handle *h);

/*
 * The prologue of every call that reduces, in this order:
 *   1. the handle: INVALID_HANDLE when NULL; else its message is cleared;
 *   2. (type, op, flags): an unknown type or op (UNSUPPORTED), unknown
 *      flag bits (INVALID_ARGUMENT), GPUREDUCE_WITH_VALUE on an op other
 *      than ARGMIN and ARGMAX, GPUREDUCE_ACCUMULATE_F64 where it has no
 *      meaning (UNSUPPORTED); with c->dot the dot product's wording;
 *      c->result_size receives gpureduce_result_size();
 *   3. batch == 0: nothing to read or write, GPUREDUCE_SUCCESS (the
 *      caller returns it);
 * then, when c->inputs > 0:
 *   4. a NULL output; each input NULL with n > 0; each input not aligned
 *      to its element size (n > 0); the output not aligned to its result
 *      (INVALID_ARGUMENT); ARGMIN, ARGMAX or MEAN_VAR with n == 0
 *      (EMPTY_INPUT);
 *   5. each input's span (n > 0): an element offset b*batch_stride +
 *      i*element_stride or its byte offset that overflows int64_t, or
 *      elements beyond either end of the address space; then the
 *      output's batch*result_size bytes: overflowing size_t or wrapping
 *      around the address space (INVALID_ARGUMENT);
 *   6. the output meeting an input's span, from its lowest to its
 *      highest element, gaps between vectors included (INVALID_ARGUMENT);
 *   7. the memory spaces: each input's lowest element (n > 0), then the
 *      output (the backend's check_pointer, WRONG_MEMORY_SPACE).
 * After GPUREDUCE_SUCCESS with c->batch > 0 the backend may run the call:
 * every address it forms fits in int64_t and lies inside the arrays.
 */
gpureduce_status_t gr_prologue(struct gpureduce_handle *h, struct gr_call *c);

/* One input of n elements of type, named `name`: NULL with n > 0, then
 * not aligned to its element size (n > 0) (INVALID_ARGUMENT). */
gpureduce_status_t gr_check_input(struct gpureduce_handle *h, const void *input, uint64_t n,
                                  gpureduce_type_t type, const char *name);

/* The span of input `name` for n > 0 (step 5 above): the byte offsets
 * from input of the lowest element's first byte (*lo, <= 0) and of the
 * highest element's last byte (*hi, >= 0), over every vector b < batch
 * and element i < n at b*batch_stride + i*element_stride elements. */
gpureduce_status_t gr_input_span(struct gpureduce_handle *h, const char *name,
                                 const void *input, uint64_t batch, uint64_t n,
                                 int64_t batch_stride, int64_t element_stride, unsigned size,
                                 int64_t *lo, int64_t *hi);

/* The `count` results of result_size bytes from output (step 5):
 * INVALID_ARGUMENT when count * result_size overflows size_t or the bytes
 * wrap around the address space; else *bytes receives count * result_size
 * (count >= 1). */
gpureduce_status_t gr_output_span(struct gpureduce_handle *h, const void *output,
                                  uint64_t count, size_t result_size, uint64_t *bytes);

/* `bytes` bytes of output from output (bytes >= 1) overlapping the span
 * [in + lo, in + hi] of input `name`: INVALID_ARGUMENT with a message
 * that says the output must lie outside it. */
gpureduce_status_t gr_check_overlap(struct gpureduce_handle *h, const void *output,
                                    uint64_t bytes, const char *name, const void *in,
                                    int64_t lo, int64_t hi);

/* p in the memory space of h's backend (step 7); `what` names it. */
gpureduce_status_t gr_check_space(struct gpureduce_handle *h, const void *p, const char *what);

#ifdef __cplusplus
}
#endif

#endif /* GR_API_ARGS_H */
