/*
 * host/host.h - the host backend's reductions (host/order.c), which its
 * gr_backend table (gr_host_backend, host/host.c) runs, and the
 * accumulator functions of each (type, op, flags), which the combine of
 * partial results runs on the host whatever the handle's backend
 * (api/partial.c).  Not installed.
 */
#ifndef GR_HOST_HOST_H
#define GR_HOST_HOST_H

#include <stdint.h>

#include "core/handle.h"
#include "order/order.h"

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

/* Threads pay off from about a megabyte of input (32 tiles); below that
 * the start of a parallel region costs more than it saves. */
#define GR_HOST_PARALLEL_TILES 32
#define GR_HOST_PARALLEL_BYTES \
  ((uint64_t)GR_HOST_PARALLEL_TILES * GR_TILE_CHUNKS * GR_CHUNK_BYTES)

/* The reduction of one vector (host/order.c, GR_HOST_FN): fn(input,
 * input2, n, stride, output, workspace) writes the result of the n
 * elements at input, stride elements apart (and of the products with
 * input2's, for the dot products), to output; workspace: the host
 * handle's (groups in parallel) or NULL (one thread). */
typedef void (*gr_host_fn)(const void *input, const void *input2, uint64_t n, int64_t stride,
                           void *output, void *workspace);
/* The function of (type, op, flags), NULL for a combination without a
 * meaning; the dot product's of (type, flags). */
gr_host_fn gr_host_fn_for(gpureduce_type_t type, gpureduce_op_t op, unsigned flags);
gr_host_fn gr_host_dot_fn_for(gpureduce_type_t type, unsigned flags);

#endif /* GR_HOST_HOST_H */
