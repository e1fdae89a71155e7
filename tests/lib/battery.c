/*
 * battery.c - the harness of the reduction tests both backends must pass
 * (battery.h): the host backend, the battery's buffers, a reduction with
 * poison and a canary around it, the checks against the references, and
 * what the batched and segmented batteries share.  The tests themselves
 * are in battery-*.c, one file a topic.
 *
 * References, all computed on the host:
 *   - random data: the independent reference of reference.h (plain loops
 *     for integers and MIN/MAX/ARG*, doc/ORDER.md bit for bit and an
 *     error bound for floating sums and products);
 *   - special values: answers written out by hand from gpureduce.h.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battery-internal.h"

/* ---- the backends and the battery's buffers ------------------------------- */

/* The host backend (battery.h); the CUDA one is in device.c. */
static void *host_alloc(size_t bytes) {
  void *p = NULL;
  const size_t rounded = ((bytes ? bytes : 1) + 255) & ~(size_t)255;
  return posix_memalign(&p, 256, rounded) == 0 ? p : NULL;
}

static void host_release(void *p) { free(p); }

static void host_copy(void *dst, const void *src, size_t bytes) { memcpy(dst, src, bytes); }

const struct tu_backend bt_host_backend = {
    .name = "host",
    .device = GPUREDUCE_DEVICE_HOST,
    .alloc = host_alloc,
    .release = host_release,
    .put = host_copy,
    .get = host_copy,
};

static const struct tu_backend *B;
static gpureduce_handle_t H;
static gpureduce_handle_t HOST; /* the host handle to compare with, when B is CUDA */
static unsigned char *in_mem;   /* backend memory for inputs */
static size_t in_cap;
static unsigned char *out_mem;  /* backend memory for one result + canary */
static unsigned char *stage;    /* host image of the input buffer */
static size_t stage_cap;

#define PAD 256          /* poison bytes before the aligned start and after the data */

void battery_use(const struct tu_backend *backend) { B = backend; }

const struct tu_backend *battery_backend(void) { return B; }

gpureduce_handle_t battery_handle(void) { return H; }

gpureduce_handle_t battery_host_handle(void) { return HOST; }

int battery_setup(void **state) {
  (void)state;
  tu_announce_seed();
  gpureduce_status_t s = gpureduce_create(&H, B->device);
  if (s != GPUREDUCE_SUCCESS) {
    print_error("gpureduce_create(%d) for the %s backend: %s (%s)\n", B->device, B->name,
                tu_status_label(s), gpureduce_status_string(s));
    return -1;
  }
  out_mem = B->alloc(OUT_BYTES);
  if (!out_mem) {
    print_error("cannot allocate %d bytes of %s memory\n", OUT_BYTES, B->name);
    return -1;
  }
  if (B->device != GPUREDUCE_DEVICE_HOST &&
      gpureduce_create(&HOST, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS) {
    print_error("cannot create a host handle to compare with\n");
    return -1;
  }
  return 0;
}

int battery_teardown(void **state) {
  (void)state;
  B->release(in_mem);
  B->release(out_mem);
  free(stage);
  in_mem = out_mem = stage = NULL;
  in_cap = stage_cap = 0;
  gpureduce_destroy(HOST);
  HOST = NULL;
  const gpureduce_status_t s = gpureduce_destroy(H);
  H = NULL;
  if (s != GPUREDUCE_SUCCESS) {
    print_error("gpureduce_destroy: %s\n", tu_status_label(s));
    return -1;
  }
  return 0;
}

static void ensure_buffers(size_t bytes) {
  if (stage_cap < bytes) {
    free(stage);
    stage_cap = bytes + bytes / 2;
    stage = tu_alloc(stage_cap);
  }
  if (in_cap < bytes) {
    B->release(in_mem);
    in_cap = bytes + bytes / 2;
    in_mem = B->alloc(in_cap);
    if (!in_mem) {
      in_cap = 0;
      fail_msg("cannot allocate %zu bytes of %s memory", bytes, B->name);
    }
  }
}

unsigned char *bt_input_room(size_t bytes) {
  ensure_buffers(bytes);
  return in_mem;
}

unsigned char *bt_output_room(void) { return out_mem; }

const unsigned char *bt_staged_input(gpureduce_type_t type, size_t offset) {
  return in_mem + PAD + offset * TU_TYPE(type)->size;
}

static size_t result_bytes(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  const size_t rs = tu_result_size(type, op, flags);
  return rs ? rs : 8;
}

const char *bt_op_name(gpureduce_op_t op) {
  return (unsigned)op < GPUREDUCE_OP_COUNT ? tu_op_names[op] : "(bad op)";
}

const char *bt_type_name(gpureduce_type_t type) {
  return (unsigned)type < GPUREDUCE_TYPE_COUNT ? TU_TYPE(type)->name : "(bad type)";
}

gpureduce_status_t battery_reduce(const void *x, size_t n, gpureduce_type_t type,
                                  gpureduce_op_t op, unsigned flags, size_t offset,
                                  uint64_t poison, bt_result *out) {
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = result_bytes(type, op, flags);
  const size_t lead = PAD + offset * es, body = n * es, total = lead + body + PAD;
  ensure_buffers(total);
  for (size_t i = 0; i < lead / es; ++i) tu_store(stage, i, es, poison);
  if (body) memcpy(stage + lead, x, body);
  for (size_t i = (lead + body) / es; i < total / es; ++i) tu_store(stage, i, es, poison);
  B->put(in_mem, stage, total);

  unsigned char ob[OUT_BYTES];
  memset(ob, OUT_FILL, sizeof ob);
  B->put(out_mem, ob, sizeof ob);
  const gpureduce_status_t s =
      gpureduce_reduce(x ? in_mem + lead : NULL, out_mem, n, type, op, flags, H);
  B->get(ob, out_mem, sizeof ob);
  check_bytes(ob + rs, OUT_FILL, sizeof ob - rs,
              "%s %s flags %u n=%zu offset %zu: the canary after the %zu-byte result survives",
              bt_type_name(type), bt_op_name(op), flags, n, offset, rs);
  if (s != GPUREDUCE_SUCCESS)
    check_bytes(ob, OUT_FILL, rs, "%s %s flags %u n=%zu: the output is untouched after %s",
                bt_type_name(type), bt_op_name(op), flags, n, tu_status_label(s));
  *out = bt_result_at(ob, 0, rs);
  return s;
}

bt_result bt_result_at(const void *buf, size_t index, size_t rs) {
  const unsigned char *p = (const unsigned char *)buf + index * rs;
  bt_result r = {{0, 0}};
  r.w[0] = tu_load(p, 0, (unsigned)(rs < 8 ? rs : 8));
  if (rs > 8) r.w[1] = tu_load(p + 8, 0, 8);
  return r;
}

bt_result bt_word(uint64_t w0) {
  bt_result r = {{w0, 0}};
  return r;
}

void bt_check_result_at(const char *file, int line, bt_result wanted, bt_result seen, size_t rs,
                        const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (rs <= 8) {
    tu_check_bits(file, line, wanted.w[0], seen.w[0], "%s", what);
    return;
  }
  tu_check_bits(file, line, wanted.w[0], seen.w[0], "%s (bytes 0 to 7)", what);
  tu_check_bits(file, line, wanted.w[1], seen.w[1], "%s (bytes 8 to 15)", what);
}

/* ---- references ------------------------------------------------------------ */

struct ref_answer bt_want_for(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                              unsigned flags) {
  struct ref_answer w;
  const int r = ref_answer(x, n, type, op, flags, &w);
  if (r == -2) fail_msg("the reference cannot allocate %zu accumulators", n);
  if (r != 0)
    fail_msg("the reference has no answer for %s %s flags %u n=%zu", bt_type_name(type),
             bt_op_name(op), flags, n);
  return w;
}

void bt_check_want_at(const char *file, int line, const struct ref_answer *w, bt_result got,
                      const char *what) {
  if (w->has_bound2) { /* MEAN_VAR */
    tu_check_near(file, line, w->exact, ref_mean_var_value(w->result_bytes, got.w, 0), w->bound,
                  "%s: the mean is within the stated error bound of the exact mean", what);
    tu_check_near(file, line, w->exact2, ref_mean_var_value(w->result_bytes, got.w, 1),
                  w->bound2, "%s: the variance is within the stated error bound of the exact one",
                  what);
  } else if (w->has_bound) {
    tu_check_near(file, line, w->exact, ref_result_value(w->result_bytes, got.w[0]), w->bound,
                  "%s: within the stated error bound of the exact value", what);
  }
  const struct bt_result want = {{w->bits, w->bits2}};
  bt_check_result_at(file, line, want, got, w->result_bytes, "%s: %s", what,
                     w->has_bound ? "bits equal the doc/ORDER.md reference"
                                  : "equals the reference");
}

void bt_check_reference(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                        unsigned flags, bt_result got, const char *what) {
  const struct ref_answer w = bt_want_for(x, n, type, op, flags);
  check_want(&w, got, what);
}

void bt_check_one(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                  unsigned flags, const char *label) {
  char what[256];
  snprintf(what, sizeof what, "%s n=%zu (%s)", bt_kind_name(type, op, flags), n, label);
  const struct ref_answer w = bt_want_for(x, n, type, op, flags);
  bt_result got;
  const gpureduce_status_t s = battery_reduce(x, n, type, op, flags, 0, 0, &got);
  check_status(GPUREDUCE_SUCCESS, s, "%s: status", what);
  check_want(&w, got, what);
}

void bt_check_cases(const struct tc_plan *plan) {
  struct tc_walk w;
  struct tc_case c;
  tc_begin(&w, plan);
  while (tu_next_case(&w, &c)) bt_check_one(c.x, c.n, c.type, c.op, c.flags, c.data->what);
}

/* (battery.h; rp for short in battery-internal.h) */
uint64_t bt_result_pattern(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v) {
  const size_t rs = tu_result_size(type, op, flags);
  if (v != v) return tu_canonical_nan((unsigned)rs);
  if (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || op == GPUREDUCE_AMAX)
    return tu_pattern(type, v);
  return rs == 4 ? tu_pattern(GPUREDUCE_F32, v) : tu_f64_bits(v);
}

bt_result bt_result_of(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, double v,
                       double v2) {
  const size_t rs = tu_result_size(type, op, flags);
  /* MEAN_VAR's {mean, variance}, LOGSUMEXP's {max, sum} */
  if (op != GPUREDUCE_MEAN_VAR && !(flags & GPUREDUCE_SOFTMAX_STATS))
    return bt_word(bt_result_pattern(type, op, flags, v));
  bt_result r = {{0, 0}};
  if (rs == 8) { /* two floats */
    r.w[0] = (v != v ? 0x7fffffffu : tu_pattern(GPUREDUCE_F32, v)) |
             (uint64_t)(v2 != v2 ? 0x7fffffffu : tu_pattern(GPUREDUCE_F32, v2)) << 32;
  } else {
    r.w[0] = v != v ? tu_canonical_nan(8) : tu_f64_bits(v);
    r.w[1] = v2 != v2 ? tu_canonical_nan(8) : tu_f64_bits(v2);
  }
  return r;
}

int bt_empty_is_error(gpureduce_op_t op) { return bt_is_arg(op) || op == GPUREDUCE_MEAN_VAR; }

bt_result bt_empty_result(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if (bt_is_arg(op)) return bt_word(GPUREDUCE_NO_INDEX);
  if (op == GPUREDUCE_MEAN_VAR) return bt_result_of(type, op, flags, NAN, NAN);
  if (op == GPUREDUCE_MIN) return bt_word(tu_type_max(type));    /* +inf or the largest */
  if (op == GPUREDUCE_MAX) return bt_word(tu_type_lowest(type)); /* -inf or the lowest */
  if (op == GPUREDUCE_AMAX) return bt_word(0);                    /* +0, integers 0 */
  if (op == GPUREDUCE_LOGSUMEXP) return bt_result_of(type, op, flags, -INFINITY, 0.0);
  if (op == GPUREDUCE_NRM2) return bt_result_of(type, op, flags, 0.0, 0); /* +0 */
  if (!TU_TYPE(type)->is_float) return bt_word(op == GPUREDUCE_PROD ? 1 : 0);
  return bt_result_of(type, op, flags, op == GPUREDUCE_PROD ? 1.0 : 0.0, 0); /* +0, 1 */
}

void bt_expect_at(const char *file, int line, const void *x, size_t n, gpureduce_type_t type,
                  gpureduce_op_t op, unsigned flags, bt_result wanted, const char *fmt, ...) {
  char why[256], what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(what, sizeof what, "%s n=%zu, %s", bt_kind_name(type, op, flags), n, why);
  bt_result got;
  const gpureduce_status_t s = battery_reduce(x, n, type, op, flags, 0, 0, &got);
  tu_check_status(file, line, GPUREDUCE_SUCCESS, s, "%s: status", what);
  bt_check_result_at(file, line, wanted, got, tu_result_size(type, op, flags), "%s", what);
}
const gpureduce_op_t bt_minmax_ops[4] = {GPUREDUCE_MIN, GPUREDUCE_MAX, GPUREDUCE_ARGMIN,
                                         GPUREDUCE_ARGMAX};

struct bt_extremes bt_fill_between(gpureduce_type_t type, tu_rng *r, void *x, size_t n) {
  const tu_type *t = TU_TYPE(type);
  for (size_t i = 0; i < n; ++i)
    tu_store(x, i, t->size,
             t->is_float ? tu_pattern(type, 1.0 + (double)tu_below(r, 128) / 128)
                         : 10 + tu_below(r, 90));
  const struct bt_extremes e = {t->is_float ? tu_pattern(type, 0.5) : 3,
                                t->is_float ? tu_pattern(type, 4.0) : 120};
  return e;
}

/* ---- what the batched and segmented batteries share ------------------------ */

void *bt_room_for(struct bt_room *r, size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (r->cap >= bytes) return r->p;
  if (r->host) free(r->p);
  else B->release(r->p);
  r->cap = bytes + bytes / 4;
  r->p = r->host ? tu_alloc(r->cap) : B->alloc(r->cap);
  if (!r->p) {
    r->cap = 0;
    fail_msg("cannot allocate %zu bytes of %s memory", bytes, B->name);
  }
  return r->p;
}

void bt_room_free(struct bt_room *r) {
  if (r->host) free(r->p);
  else B->release(r->p);
  r->p = NULL;
  r->cap = 0;
}

const char *bt_kind_name(gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  static char buf[64];
  snprintf(buf, sizeof buf, "%s %s%s%s%s", TU_TYPE(type)->name, tu_op_names[op],
           flags & GPUREDUCE_ACCUMULATE_F64 ? " accumulate-f64" : "",
           flags & GPUREDUCE_WITH_VALUE ? " with-value" : "",
           flags & GPUREDUCE_SOFTMAX_STATS ? " softmax-stats" : "");
  return buf;
}

int bt_is_arg(gpureduce_op_t op) { return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX; }

static size_t special_p(size_t k, size_t n) { return (3 * k + 1) % (n / 2 - 1); }
static size_t special_q(size_t k, size_t n) { return n / 2 + k % (n - n / 2 - 1); }

int bt_special_pattern(gpureduce_type_t type, size_t k, size_t n) {
  const int m = (int)(k % 8);
  if (n < 5) return 0;
  return TU_TYPE(type)->is_float || m == 7 ? m : 0;
}

uint64_t bt_special_element(gpureduce_type_t type, size_t k, size_t n, size_t i, tu_rng *rng) {
  const int fl = TU_TYPE(type)->is_float;
  const int pat = bt_special_pattern(type, k, n);
  const size_t p = pat ? special_p(k, n) : 0, q = pat ? special_q(k, n) : 0;
  const uint64_t nan = tu_nan(type, (int)(k & 1), 1, k + 1);
  switch (pat) {
    case 1:
      if (i == p) return nan;
      break;
    case 2:
      if (i == p || i == q) return nan;
      break;
    case 3: return tu_pattern(type, -0.0);
    case 4: return tu_pattern(type, i % 2 ? 0.0 : -0.0);
    case 5:
      if (i == p) return tu_pos_inf(type);
      break;
    case 6:
      if (i == p) return tu_neg_inf(type);
      if (i == q) return tu_pos_inf(type);
      break;
    case 7:
      if (i == p || i == q) return fl ? tu_pattern(type, 0.5) : 3;
      if (i == p + 1 || i == q + 1) return fl ? tu_pattern(type, 4.0) : 120;
      break;
    default: break;
  }
  return fl ? tu_pattern(type, 1.0 + (double)tu_below(rng, 64) / 64) : 10 + tu_below(rng, 90);
}

int bt_special_answer(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, size_t k,
                      size_t n, bt_result *result, const char **why) {
  const int fl = TU_TYPE(type)->is_float;
  const int pat = bt_special_pattern(type, k, n);
  if (!pat) return 0;
  const size_t p = special_p(k, n), q = special_q(k, n);
  const int is_arg = bt_is_arg(op);
  if (tu_is_moment(op)) { /* gpureduce.h: NaN in, NaN out; +-inf give +inf, or NaN with others */
    if (pat == 1 || pat == 2) *why = "a NaN: NaN (MEAN_VAR: both values)";
    else if (pat == 3 || pat == 4) *why = "signed zeros only: norm +0, mean and variance +0";
    else if (pat == 5 || pat == 6) *why = "an infinity: norm +inf, mean and variance NaN";
    else return 0;
    const double zero_or_inf = pat >= 5 ? INFINITY : 0.0;
    *result = op == GPUREDUCE_NRM2 ? bt_result_of(type, op, flags, pat <= 2 ? NAN : zero_or_inf, 0)
              : pat == 3 || pat == 4 ? bt_result_of(type, op, flags, 0.0, 0.0)
                                     : bt_result_of(type, op, flags, NAN, NAN);
    return 1;
  }
  if (op == GPUREDUCE_LOGSUMEXP) { /* gpureduce.h: NaN; +inf; stats {max, count} */
    const int stats = (flags & GPUREDUCE_SOFTMAX_STATS) != 0;
    if (pat == 1 || pat == 2) *why = "a NaN: NaN ({NaN, NaN})";
    else if (pat == 5 || pat == 6) *why = "one +inf: +inf ({+inf, 1})";
    else if ((pat == 3 || pat == 4) && stats) *why = "signed zeros only: {-0 or +0, n}";
    else return 0;
    *result = pat <= 2   ? bt_result_of(type, op, flags, NAN, NAN)
              : pat >= 5 ? bt_result_of(type, op, flags, INFINITY, 1.0)
                         : bt_result_of(type, op, flags, pat == 3 ? -0.0 : 0.0, (double)n);
    return 1;
  }
  uint64_t w = 0, *wanted = &w;
  if (op == GPUREDUCE_AMAX) { /* gpureduce.h: NaN, +0, +inf, the largest magnitude */
    *why = "amax: NaN, +0 of signed zeros, +inf of an infinity, the largest magnitude of ties";
    *wanted = pat <= 2   ? bt_result_pattern(type, op, flags, NAN)
              : pat <= 4 ? 0
              : pat <= 6 ? tu_pos_inf(type)
              : fl       ? tu_pattern(type, 4.0)
                         : 120;
    *result = bt_word(w);
    return 1;
  }
  if (pat == 1 || pat == 2) {
    *why = "a NaN: NaN, or the first NaN's index";
    *wanted = is_arg ? p : bt_result_pattern(type, op, flags, NAN);
  } else if (pat == 3 && op != GPUREDUCE_PROD) {
    *why = "all -0: sum -0, |x| and squares +0, min and max -0, a tie at index 0";
    *wanted = is_arg ? 0
              : bt_result_pattern(type, op, flags,
                                  op == GPUREDUCE_SUM_ABS || op == GPUREDUCE_SUM_SQUARES ? 0.0
                                                                                        : -0.0);
  } else if (pat == 4 && op != GPUREDUCE_PROD) {
    *why = "-0 and +0: sums +0, min -0, max +0, a tie at index 0";
    *wanted = is_arg ? 0 : bt_result_pattern(type, op, flags, op == GPUREDUCE_MIN ? -0.0 : 0.0);
  } else if (pat == 5 && op != GPUREDUCE_PROD && op != GPUREDUCE_MIN &&
             op != GPUREDUCE_ARGMIN) {
    *why = "+inf at p: the sums +inf, max +inf at p";
    *wanted = op == GPUREDUCE_ARGMAX ? p : bt_result_pattern(type, op, flags, INFINITY);
  } else if (pat == 6 && op != GPUREDUCE_SUM_ABS && op != GPUREDUCE_SUM_SQUARES &&
             op != GPUREDUCE_PROD) {
    *why = "-inf at p and +inf at q: sum NaN, min -inf at p, max +inf at q";
    *wanted = op == GPUREDUCE_ARGMIN   ? p
              : op == GPUREDUCE_ARGMAX ? q
              : op == GPUREDUCE_MIN    ? bt_result_pattern(type, op, flags, -INFINITY)
              : op == GPUREDUCE_MAX    ? bt_result_pattern(type, op, flags, INFINITY)
                                       : bt_result_pattern(type, op, flags, NAN);
  } else if (pat == 7 && (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || is_arg)) {
    *why = "ties: the lowest index of the smallest or the largest value";
    *wanted = op == GPUREDUCE_ARGMIN   ? p
              : op == GPUREDUCE_ARGMAX ? p + 1
              : fl ? bt_result_pattern(type, op, flags, op == GPUREDUCE_MIN ? 0.5 : 4.0)
                   : (op == GPUREDUCE_MIN ? 3 : 120);
  } else {
    return 0;
  }
  *result = bt_word(w);
  return 1;
}
