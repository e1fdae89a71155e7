/*
 * battery-internal.h - what battery.c gives the files of the battery's
 * tests (battery-*.c): the backend's buffers, the checks against the
 * reference and against answers written out by hand, and the data they
 * share.  Not for the other batteries: battery.h is their interface.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_BATTERY_INTERNAL_H
#define GPUREDUCE_BATTERY_INTERNAL_H

#include "battery.h"
#include "reference.h"

/* ---- the backend's buffers ------------------------------------------------- */

#define OUT_BYTES 64  /* result (at most 16 bytes) and canary */
#define OUT_FILL 0xC3 /* what the output buffer holds before a call */

/* At least `bytes` bytes of the backend's memory for inputs (failing the
 * test when they cannot be had); battery_reduce() stages its input there. */
unsigned char *bt_input_room(size_t bytes);
/* OUT_BYTES bytes of the backend's memory for one result and its canary. */
unsigned char *bt_output_room(void);
/* Where the last battery_reduce() of `type` at `offset` put its input's
 * first element in the backend's memory. */
const unsigned char *bt_staged_input(gpureduce_type_t type, size_t offset);

/* ---- names for messages ------------------------------------------------------ */

/* "f32", "sum"; "(bad type)", "(bad op)" for a value that is none. */
const char *bt_type_name(gpureduce_type_t type);
const char *bt_op_name(gpureduce_op_t op);

/* ---- checks against the reference ---------------------------------------------- */

/* The reference's answer (reference.h); fails the test when there is none
 * or its scratch memory cannot be allocated. */
struct ref_answer bt_want_for(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                              unsigned flags);
/* check_want(&answer, got, "what"): got has the answer's bits, and is
 * within its error bound where it states one. */
void bt_check_want_at(const char *file, int line, const struct ref_answer *w, bt_result got,
                      const char *what);
#define check_want(w, got, what) bt_check_want_at(__FILE__, __LINE__, (w), (got), (what))
/* Reduce and compare with the reference; label describes the data. */
void bt_check_one(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                  unsigned flags, const char *label);
/* Reduce every case of a walk (cases.h) and compare with the reference. */
void bt_check_cases(const struct tc_plan *plan);

/* ---- checks against answers written out by hand ---------------------------- */

#define rp bt_result_pattern
/* Reduce and compare with a hand-written answer. */
void bt_expect_at(const char *file, int line, const void *x, size_t n, gpureduce_type_t type,
                  gpureduce_op_t op, unsigned flags, bt_result wanted, const char *fmt, ...)
    TU_PRINTF(9, 10);
/* expect(x, n, type, op, flags, wanted bits, "why", ...): a result of one
 * word; expect_result the same with a bt_result. */
#define expect(x, n, type, op, flags, wanted, ...) \
  bt_expect_at(__FILE__, __LINE__, (x), (n), (type), (op), (flags), bt_word(wanted), __VA_ARGS__)
#define expect_result(...) bt_expect_at(__FILE__, __LINE__, __VA_ARGS__)

/* ---- data -------------------------------------------------------------------- */

/* MIN, MAX, ARGMIN and ARGMAX. */
extern const gpureduce_op_t bt_minmax_ops[4];

/* The extremes of bt_ties and bt_misaligned_ends: a small and a large
 * value of the type, and n random values strictly between them at x. */
struct bt_extremes {
  uint64_t low, high;
};
struct bt_extremes bt_fill_between(gpureduce_type_t type, tu_rng *r, void *x, size_t n);

#endif /* GPUREDUCE_BATTERY_INTERNAL_H */
