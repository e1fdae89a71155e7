/*
 * api/args.c - the argument checks shared by the reduction entry points
 * (api/args.h): api/reduce.c and api/batched.c.
 */
#include "config.h"

#include "api/args.h"

gpureduce_status_t gr_check_kind(struct gpureduce_handle *h, gpureduce_type_t type,
                                 gpureduce_op_t op, unsigned flags, size_t *result_size) {
  if ((unsigned)type >= GPUREDUCE_TYPE_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "type %d is not a gpureduce_type_t",
                   (int)type);
  if ((unsigned)op >= GPUREDUCE_OP_COUNT)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "op %d is not a gpureduce_op_t", (int)op);
  if (flags & ~GPUREDUCE_ACCUMULATE_F64)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "flags 0x%x has unknown bits", flags);
  const size_t rs = gpureduce_result_size(type, op, flags);
  if (rs == 0)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED,
                   "GPUREDUCE_ACCUMULATE_F64 applies to f32 sum, prod, sum_abs, "
                   "sum_squares, nrm2 and mean_var only, not %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  *result_size = rs;
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gr_check_buffers(struct gpureduce_handle *h, const void *input,
                                    const void *output, uint64_t n, gpureduce_type_t type,
                                    gpureduce_op_t op, size_t result_size) {
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");
  if (n > 0 && !input)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "input is NULL with n = %llu",
                   (unsigned long long)n);
  if (n > 0 && (uintptr_t)input % gpureduce_type_size(type))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "input %p is not aligned to its %u-byte elements", input,
                   (unsigned)gpureduce_type_size(type));
  if ((uintptr_t)output % result_size)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output %p is not aligned to its %zu-byte result", output, result_size);
  if (n == 0 && (op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX))
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT, "%s of zero elements has no index",
                   gpureduce_op_name(op));
  if (n == 0 && op == GPUREDUCE_MEAN_VAR)
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT,
                   "mean_var of zero elements has no mean (n must be at least 1)");
  return GPUREDUCE_SUCCESS;
}
