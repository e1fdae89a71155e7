/*
 * cuda/table.c - the CUDA backend's gr_backend table (core/backend.h):
 * the functions of cuda/cuda.h, which device/device.cu, the dispatch files,
 * ladder/ladder.cu and tuning/measure.cu define.
 */
#include "config.h"

#include "core/backend.h"
#include "cuda/cuda.h"

/* gpureduce_reduce(): the block count of the handle's tuning table. */
static gpureduce_status_t cuda_reduce(struct gpureduce_handle *h, const void *input, void *output,
                                      uint64_t n, gpureduce_type_t type, gpureduce_op_t op,
                                      unsigned flags) {
  return gr_cuda_reduce(h, input, output, n, type, op, flags, 0);
}

const struct gr_backend gr_cuda_backend = {
    .create = gr_cuda_create,
    .destroy = gr_cuda_destroy,
    .check_pointer = gr_cuda_check_pointer,
    .owns_pointer = gr_cuda_owns_pointer,
    .reduce = cuda_reduce,
    .reduce_batched = gr_cuda_reduce_batched,
    .reduce_segments = gr_cuda_reduce_segments,
    .dot = gr_cuda_dot,
    .take_async_error = gr_cuda_take_async_error,
    .reduce_nodes = gr_cuda_reduce_nodes,
    .write = gr_cuda_write,
    .ladder = gr_cuda_ladder,
    .tune_measure = gr_cuda_tune_measure,
};
