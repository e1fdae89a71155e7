/*
 * host/host.h - what the host backend offers besides its gr_backend table
 * (gr_host_backend, core/backend.h): the accumulator functions of each
 * (type, op, flags), which the combine of partial results runs on the
 * host whatever the handle's backend (api/partial.c).  Not installed.
 */
#ifndef GR_HOST_HOST_H
#define GR_HOST_HOST_H

#include <stdint.h>

#include "core/handle.h"

/*
 * The accumulator of one (type, op, flags), for the partial results
 * (api/partial.c): the same functions the host reductions are made of.
 *   acc_bytes  bytes of the accumulator (at most GR_ROOT_BYTES); its
 *              layout is the CUDA kernel's Acc (cuda/thread/ops.cuh), field for
 *              field;
 *   reduce     the root of the n elements at input (host memory, any n,
 *              tiles counted from input) into acc, before the finish;
 *              n == 0 gives the identity; workspace: the host handle's
 *              (groups in parallel) or NULL (one thread); ARGMIN's and
 *              ARGMAX's index counts from input;
 *   combine    a = a op b (a the left operand);
 *   finish     the result of a root of n elements, as the host backend's
 *              reduce writes it.
 */
struct gr_host_acc_ops {
  size_t acc_bytes;
  void (*reduce)(const void *input, uint64_t n, void *acc, void *workspace);
  void (*combine)(void *a, const void *b);
  void (*finish)(const void *acc, uint64_t n, void *output);
};
/* The interface of (type, op, flags), or NULL for a combination without
 * a meaning (or the dot products). */
const struct gr_host_acc_ops *gr_host_acc_ops_for(gpureduce_type_t type, gpureduce_op_t op,
                                                  unsigned flags);

#endif /* GR_HOST_HOST_H */
