/*
 * partial-internal.h - what partial.c gives the files of the partial-result
 * tests (partial-*.c): the buffers they share, the fills of a buffer
 * before a call, and checks of bytes and of calls that must fail.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef GPUREDUCE_TESTS_PARTIAL_INTERNAL_H
#define GPUREDUCE_TESTS_PARTIAL_INTERNAL_H

#include "partial.h"

#define CANARY 64     /* bytes after each partial and after the result */
#define PFILL 0xA5    /* a partial's buffer before the call */
#define OUT_FILL 0xC3 /* the result's buffer before the call */
/* Bytes of a partial's buffer in the error tests: the largest partial and
 * a canary, all checked untouched. */
#define ROOM (GPUREDUCE_PARTIAL_MAX_BYTES + CANARY)

/* Backend memory: the parts' buffers, one part again, the result; host
 * memory: the partials, two for the concatenations, the test data
 * (partial_teardown frees them). */
extern struct bt_room pt_in_mem, pt_again_mem, pt_out_mem;
extern struct bt_room pt_made, pt_cat, pt_mixed, pt_data;

/* n random elements for op into x, drawn from r, and what they are.
 * variant 0: wide values (sums), factors (products), a few values with
 * many ties and +-0 (min, max, arg); 1: infinities among wide values
 * (floats), a -0 among the factors (float products), the type's extremes
 * with many ties (integers); 2: variant 0 with two NaNs of different
 * payloads (floats), or extremes with many ties (integers). */
const char *pt_fill(tu_rng *r, gpureduce_type_t type, gpureduce_op_t op, int variant, void *x,
                    size_t n);

/* gpureduce_partial_bytes() of a part, checked against what partial.h
 * says of every partial. */
size_t pt_checked_bytes(uint64_t n_local, uint64_t offset, uint64_t n_global,
                        gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                        const char *what);

/* check_same_bytes(want, seen, len, "what", ...): the same len bytes at
 * want and seen; else the first that differs. */
void pt_same_bytes_at(const char *file, int line, const void *want, const void *seen, size_t len,
                      const char *fmt, ...) TU_PRINTF(6, 7);
#define check_same_bytes(w, s, len, ...) \
  pt_same_bytes_at(__FILE__, __LINE__, (w), (s), (len), __VA_ARGS__)

/* expect_failure(h, wanted, seen, buf, fill, len, "what", ...): a call that
 * must fail did: status `wanted`, the len bytes at buf still `fill`, and
 * (for a handle) a message saying why. */
void pt_failed_at(const char *file, int line, gpureduce_handle_t h, gpureduce_status_t wanted,
                  gpureduce_status_t seen, const void *buf, unsigned char fill, size_t len,
                  const char *fmt, ...) TU_PRINTF(9, 10);
#define expect_failure(h, w, s, buf, fill, len, ...) \
  pt_failed_at(__FILE__, __LINE__, (h), (w), (s), (buf), (fill), (len), __VA_ARGS__)

#endif /* GPUREDUCE_TESTS_PARTIAL_INTERNAL_H */
