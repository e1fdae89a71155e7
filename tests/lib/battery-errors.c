/*
 * battery-errors.c - the battery's calls that must fail on its backend
 * (battery.h): each gives its status, leaves the output untouched and
 * says why, and the handle works after them.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <string.h>

#include "battery-internal.h"

/* ---- tests: errors on this backend ----------------------------------------------- */

void bt_errors_leave_output(void **state) {
  (void)state;
  const struct tu_backend *const B = battery_backend();
  const gpureduce_handle_t H = battery_handle();
  unsigned char *const in_mem = bt_input_room(4096), *const out_mem = bt_output_room();
  unsigned char ob[OUT_BYTES];
  /* a valid input in backend memory: 100 floats 1..100 */
  float v[100];
  for (int i = 0; i < 100; ++i) v[i] = (float)(i + 1);
  B->put(in_mem, v, sizeof v);
  struct {
    const char *what;
    const void *in;
    size_t n;
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
    gpureduce_status_t wanted;
  } cases[] = {
      {"NULL input with n = 100", NULL, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"unknown op 12", in_mem, 100, GPUREDUCE_F32, (gpureduce_op_t)12, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown type 10", in_mem, 100, (gpureduce_type_t)10, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown flag 0x8", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 8,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"accumulate-f64 on f32 amax", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_AMAX,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"with-value on i8 amax", in_mem, 100, GPUREDUCE_I8, GPUREDUCE_AMAX, GPUREDUCE_WITH_VALUE,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"logsumexp of i32", in_mem, 100, GPUREDUCE_I32, GPUREDUCE_LOGSUMEXP, 0,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"softmax-stats on logsumexp of u8", in_mem, 100, GPUREDUCE_U8, GPUREDUCE_LOGSUMEXP,
       GPUREDUCE_SOFTMAX_STATS, GPUREDUCE_ERROR_UNSUPPORTED},
      {"accumulate-f64 on f32 logsumexp", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"softmax-stats with accumulate-f64 on f32 logsumexp", in_mem, 100, GPUREDUCE_F32,
       GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS | GPUREDUCE_ACCUMULATE_F64,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"softmax-stats on f32 sum", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM,
       GPUREDUCE_SOFTMAX_STATS, GPUREDUCE_ERROR_UNSUPPORTED},
      {"accumulate-f64 on f32 min", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MIN,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"argmax of n = 0", in_mem, 0, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"mean_var of n = 0", in_mem, 0, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"mean_var of n = 0 with a NULL input", NULL, 0, GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"NULL input with n = 100 for nrm2", NULL, 100, GPUREDUCE_F32, GPUREDUCE_NRM2, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"accumulate-f64 on f64 nrm2", in_mem, 100, GPUREDUCE_F64, GPUREDUCE_NRM2,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"accumulate-f64 on f16 mean_var", in_mem, 100, GPUREDUCE_F16, GPUREDUCE_MEAN_VAR,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"accumulate-f64 on i32 nrm2", in_mem, 100, GPUREDUCE_I32, GPUREDUCE_NRM2,
       GPUREDUCE_ACCUMULATE_F64, GPUREDUCE_ERROR_UNSUPPORTED},
      {"unknown flag 0x8 on mean_var", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 8,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"GPUREDUCE_WITH_VALUE on mean_var", in_mem, 100, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR,
       GPUREDUCE_WITH_VALUE, GPUREDUCE_ERROR_UNSUPPORTED},
      {"f32 nrm2 input at an odd address", in_mem + 1, 10, GPUREDUCE_F32, GPUREDUCE_NRM2, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"f32 input at an odd address", in_mem + 1, 10, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"f64 input 4 bytes past an aligned address", in_mem + 4, 10, GPUREDUCE_F64,
       GPUREDUCE_SUM, 0, GPUREDUCE_ERROR_INVALID_ARGUMENT},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    memset(ob, OUT_FILL, sizeof ob);
    B->put(out_mem, ob, sizeof ob);
    const gpureduce_status_t s = gpureduce_reduce(cases[k].in, out_mem, cases[k].n, cases[k].type,
                                                  cases[k].op, cases[k].flags, H);
    B->get(ob, out_mem, sizeof ob);
    check_status(cases[k].wanted, s, "%s on the %s backend", cases[k].what, B->name);
    check_bytes(ob, OUT_FILL, sizeof ob, "%s on the %s backend: the output is untouched",
                cases[k].what, B->name);
    const char *m = gpureduce_last_message(H);
    check_true(m && *m, "%s on the %s backend: gpureduce_last_message says why", cases[k].what,
               B->name);
  }
  /* misaligned output */
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  gpureduce_status_t s =
      gpureduce_reduce(in_mem, out_mem + 4, 100, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
               "argmin's 8-byte result at a 4-byte aligned address");
  check_bytes(ob, OUT_FILL, sizeof ob, "misaligned output: the output buffer is untouched");
  /* a 16-byte mean_var result at an 8-byte aligned address */
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  s = gpureduce_reduce(in_mem, out_mem + 8, 100, GPUREDUCE_F32, GPUREDUCE_MEAN_VAR,
                       GPUREDUCE_ACCUMULATE_F64, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
               "f32 mean_var accumulated in double: its 16-byte result at an 8-byte aligned "
               "address");
  check_bytes(ob, OUT_FILL, sizeof ob, "misaligned mean_var output: the buffer is untouched");
  /* the handle still works */
  B->put(in_mem, v, sizeof v);
  s = gpureduce_reduce(in_mem, out_mem, 100, GPUREDUCE_F32, GPUREDUCE_SUM, 0, H);
  B->get(ob, out_mem, sizeof ob);
  check_status(GPUREDUCE_SUCCESS, s, "after the errors, the sum of 1..100 succeeds");
  check_bits(tu_f32_bits(5050.0f), tu_load(ob, 0, 4), "after the errors, the sum of 1..100 is 5050");
}
