/*
 * test-cuda.c - the reduction battery (tests/lib/battery.h) on CUDA device
 * 0, and what only a CUDA handle has: bit-for-bit agreement with the host
 * backend on large inputs, more than 8192 tiles, the ladder, memory
 * spaces, streams, managed memory, launches queued without
 * synchronization, and block counts that must not change results.
 *
 * Without a usable CUDA device it prints "1..0 # SKIP no CUDA device".
 * About 10 s on an H200 (most of it host references).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "battery.h"

/* ---- state of the CUDA-only tests ----------------------------------------------- */

static gpureduce_handle_t HH;   /* a host handle, for comparisons */
static unsigned char *d_out;    /* 64 bytes of device memory: a result and its canary */
#define OUT_BYTES 64
#define OUT_FILL 0xC3

static int cuda_setup(void **state) {
  if (battery_setup(state)) return -1;
  if (gpureduce_create(&HH, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS) return -1;
  if (cudaMalloc((void **)&d_out, OUT_BYTES) != cudaSuccess) return -1;
  return 0;
}

static int cuda_teardown(void **state) {
  cudaFree(d_out);
  gpureduce_destroy(HH);
  return battery_teardown(state);
}

static void *dmalloc(size_t bytes) {
  void *p = NULL;
  CK(cudaMalloc(&p, bytes ? bytes : 1));
  return p;
}

/* Reduce device data with the battery's CUDA handle; checks the status and
 * the canary after the result. */
static bt_result dev_res(const void *d_in, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                         unsigned flags, const char *what) {
  unsigned char ob[OUT_BYTES];
  memset(ob, OUT_FILL, sizeof ob);
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  const gpureduce_status_t s = gpureduce_reduce(d_in, d_out, n, type, op, flags, battery_handle());
  check_status(GPUREDUCE_SUCCESS, s, "%s: status of the CUDA reduction (%s)", what,
               gpureduce_last_message(battery_handle()));
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  const size_t rs = tu_result_size(type, op, flags);
  check_bytes(ob + rs, OUT_FILL, sizeof ob - rs, "%s: the canary after the CUDA result", what);
  return bt_result_at(ob, 0, rs);
}

static bt_result host_res(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                          unsigned flags, const char *what) {
  _Alignas(16) unsigned char out[16] = {0};
  const gpureduce_status_t s = gpureduce_reduce(x, out, n, type, op, flags, HH);
  check_status(GPUREDUCE_SUCCESS, s, "%s: status of the host reduction", what);
  return bt_result_at(out, 0, tu_result_size(type, op, flags));
}

/* The same for results of one word (8 bytes at most). */
static uint64_t dev_result(const void *d_in, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                           unsigned flags, const char *what) {
  return dev_res(d_in, n, type, op, flags, what).w[0];
}
static uint64_t host_result(const void *x, size_t n, gpureduce_type_t type, gpureduce_op_t op,
                            unsigned flags, const char *what) {
  return host_res(x, n, type, op, flags, what).w[0];
}

static const char *op_label(gpureduce_op_t op, unsigned flags) {
  static char buf[48];
  snprintf(buf, sizeof buf, "%s%s%s", tu_op_names[op],
           flags & GPUREDUCE_ACCUMULATE_F64 ? " accumulate-f64" : "",
           flags & GPUREDUCE_SOFTMAX_STATS ? " softmax-stats" : "");
  return buf;
}

/* ---- CUDA and host agree bit for bit --------------------------------------------- */

/* 1, 1000, 2^20 + 3 and, for the floating types, 2^24 - 611. */
#define MATCH_LARGEST (((size_t)1 << 24) - 611)
static size_t match_sizes(gpureduce_type_t type, tu_rng *r, size_t *s) {
  (void)r;
  const size_t sizes[] = {1, 1000, ((size_t)1 << 20) + 3, MATCH_LARGEST};
  const size_t k = TU_TYPE(type)->is_float ? 4 : 3;
  memcpy(s, sizes, k * sizeof *s);
  return k;
}

static void cuda_matches_host(void **state) {
  (void)state;
  static const struct tc_data data[] = {
      {G_WIDE, TC_ALL_OPS & ~TC_OP(GPUREDUCE_PROD), "random data"},
      {G_FACTORS, TC_OP(GPUREDUCE_PROD), "random data"},
  };
  const struct tc_plan plan = {
      .stream = "cuda matches host", .sizes = match_sizes, .data = data, .ndata = COUNT(data)};
  void *d = dmalloc(MATCH_LARGEST * 8); /* the largest case: 2^24 - 611 f64 */
  struct tc_walk w;
  struct tc_case c;
  tc_begin(&w, &plan);
  while (tu_next_case(&w, &c)) {
    const tu_type *t = TU_TYPE(c.type);
    if (c.fresh) CK(cudaMemcpy(d, c.x, c.n * t->size, cudaMemcpyHostToDevice));
    char what[160];
    snprintf(what, sizeof what, "%s %s n=%zu, %s", t->name, op_label(c.op, c.flags), c.n,
             c.data->what);
    const bt_result dv = dev_res(d, c.n, c.type, c.op, c.flags, what);
    const bt_result hv = host_res(c.x, c.n, c.type, c.op, c.flags, what);
    check_result(hv, dv, tu_result_size(c.type, c.op, c.flags),
                 "%s: the CUDA result has the host backend's bits", what);
    if (c.n <= ((size_t)1 << 20) + 3) bt_check_reference(c.x, c.n, c.type, c.op, c.flags, dv, what);
  }
  cudaFree(d);
}

/* More than 8192 tiles: the plans of both backends group tiles (LOGSUMEXP:
 * the lane trees of a range's tiles taken together, LaneTree::kPerTileGroup). */
static void cuda_many_tiles(void **state) {
  (void)state;
  const size_t te = tu_tile_elems(GPUREDUCE_F32), n = 8193 * te + 5;
  float *x = tu_alloc(n * sizeof *x);
  float *d = dmalloc(n * sizeof *d);
  tu_rng r;
  tu_rng_init(&r, "cuda many tiles");
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, n);
  CK(cudaMemcpy(d, x, n * sizeof *x, cudaMemcpyHostToDevice));
  const struct {
    gpureduce_op_t op;
    unsigned flags;
  } cases[] = {{GPUREDUCE_SUM, 0},        {GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
               {GPUREDUCE_SUM_ABS, 0},    {GPUREDUCE_SUM_SQUARES, 0},
               {GPUREDUCE_MIN, 0},        {GPUREDUCE_MAX, 0},
               {GPUREDUCE_ARGMIN, 0},     {GPUREDUCE_ARGMAX, 0},
               {GPUREDUCE_NRM2, 0},       {GPUREDUCE_MEAN_VAR, 0},
               {GPUREDUCE_MEAN_VAR, GPUREDUCE_ACCUMULATE_F64},
               {GPUREDUCE_LOGSUMEXP, 0},  {GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS}};
  for (size_t k = 0; k < COUNT(cases); ++k) {
    char what[128];
    snprintf(what, sizeof what, "f32 %s n=%zu (8194 tiles)", op_label(cases[k].op, cases[k].flags),
             n);
    const bt_result dv = dev_res(d, n, GPUREDUCE_F32, cases[k].op, cases[k].flags, what);
    check_result(host_res(x, n, GPUREDUCE_F32, cases[k].op, cases[k].flags, what), dv,
                 tu_result_size(GPUREDUCE_F32, cases[k].op, cases[k].flags),
                 "%s: the CUDA result has the host backend's bits", what);
    if ((cases[k].op == GPUREDUCE_SUM && !cases[k].flags) ||
        cases[k].op == GPUREDUCE_MEAN_VAR) /* the others: test-host's job */
      bt_check_reference(x, n, GPUREDUCE_F32, cases[k].op, cases[k].flags, dv, what);
  }
  /* a NaN in the last tile, another in tile 8000 */
  const size_t p = 8000 * te + 17, q = n - 3;
  const float nan = tu_f32_of(0xffc01234u);
  CK(cudaMemcpy(d + q, &nan, sizeof nan, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d + p, &nan, sizeof nan, cudaMemcpyHostToDevice));
  check_bits(p, dev_result(d, n, GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0, "NaNs in tiles 8000 and 8193"),
             "f32 argmin over 8194 tiles with NaNs at %zu and %zu: the first NaN", p, q);
  check_bits(p, dev_result(d, n, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, "NaNs in tiles 8000 and 8193"),
             "f32 argmax over 8194 tiles with NaNs at %zu and %zu: the first NaN", p, q);
  check_bits(0x7fffffffu, dev_result(d, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "NaNs, sum"),
             "f32 sum over 8194 tiles with two NaNs: the canonical NaN");
  check_bits(0x7fffffffu, dev_result(d, n, GPUREDUCE_F32, GPUREDUCE_MIN, 0, "NaNs, min"),
             "f32 min over 8194 tiles with two NaNs: the canonical NaN");
  free(x);
  cudaFree(d);
}

/* ---- NRM2 of 8-bit integers: exact sums of squares ------------------------------- */

/* Every square of an 8-bit integer is an integer of at most 2^16, so the
 * sums of squares below 2^53 are exact in any order and the NRM2 of these
 * inputs is the correctly rounded square root of the exact integer sum,
 * computed here in 64-bit integers: an independent reference.  Random
 * bytes (the extremes -128 and 255 included) and all-extreme input, over
 * every chunk and tile boundary near the sizes, at 0, 1, 3, 4, 8 and 15 bytes
 * past alignment. */
static void cuda_byte_nrm2_exact(void **state) {
  (void)state;
  const gpureduce_type_t types[] = {GPUREDUCE_I8, GPUREDUCE_U8};
  const size_t te = tu_tile_elems(GPUREDUCE_I8), nmax = 70 * te + 5;
  const size_t sizes[] = {1, 15, 16, 17, 4095, 4096, 4097, te - 1, te, te + 1, 3 * te + 5, nmax};
  const unsigned offsets[] = {0, 1, 3, 4, 8, 15};
  unsigned char *x = tu_alloc(nmax + 16);
  unsigned char *d = dmalloc(nmax + 16);
  tu_rng r;
  tu_rng_init(&r, "cuda byte nrm2");
  for (size_t t = 0; t < COUNT(types); ++t)
    for (int extreme = 0; extreme < 2; ++extreme) {
      const int is_signed = types[t] == GPUREDUCE_I8;
      const unsigned char top = is_signed ? 0x80 : 0xff; /* -128 or 255 */
      for (size_t i = 0; i < nmax + 16; ++i)
        x[i] = extreme ? top : (tu_below(&r, 8) == 0 ? top : (unsigned char)tu_next(&r));
      CK(cudaMemcpy(d, x, nmax + 16, cudaMemcpyHostToDevice));
      for (size_t k = 0; k < COUNT(sizes); ++k)
        for (size_t o = 0; o < COUNT(offsets); ++o) {
          const size_t n = sizes[k];
          const unsigned char *xs = x + offsets[o];
          uint64_t sum = 0;
          for (size_t i = 0; i < n; ++i) {
            const int64_t v = is_signed ? (int64_t)(signed char)xs[i] : (int64_t)xs[i];
            sum += (uint64_t)(v * v);
          }
          const double want = sqrt((double)sum);
          uint64_t want_bits;
          memcpy(&want_bits, &want, sizeof want_bits);
          char what[128];
          snprintf(what, sizeof what, "%s nrm2, %s, n=%zu, %u past alignment",
                   TU_TYPE(types[t])->name, extreme ? "every element the extreme" : "random",
                   n, offsets[o]);
          check_bits(want_bits,
                     dev_result(d + offsets[o], n, types[t], GPUREDUCE_NRM2, 0, what),
                     "%s: the rounded square root of the exact sum of squares %llu", what,
                     (unsigned long long)sum);
        }
    }
  free(x);
  cudaFree(d);
}

/* ---- the ladder ---------------------------------------------------------------------- */

#define LADDER_MAX (((size_t)1 << 24) + 1)

/* The n of the ladder tests; the last three are random. */
static size_t ladder_sizes(size_t *s) {
  static const size_t fixed[] = {0,   1,   2,   31,  32,   33,
                                 255, 256, 257, 511, 512,  513,
                                 1025, ((size_t)1 << 24) - 611, ((size_t)1 << 24) + 1};
  size_t k = 0;
  for (size_t i = 0; i < COUNT(fixed); ++i) s[k++] = fixed[i];
  tu_rng r;
  tu_rng_init(&r, "ladder sizes");
  for (int i = 0; i < 3; ++i) s[k++] = 1 + (size_t)tu_below(&r, (uint64_t)1 << 23);
  return k;
}

/* Run one rung into d_out (checking the canary); returns the float. */
static float run_rung(int rung, const float *d_in, size_t n, void **ws, size_t *ws_cap,
                      const char *what) {
  size_t need = 0;
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)rung, n, &need),
               "%s: workspace size", what);
  if (need > *ws_cap) {
    cudaFree(*ws);
    *ws = dmalloc(need);
    *ws_cap = need;
  }
  unsigned char ob[OUT_BYTES];
  memset(ob, OUT_FILL, sizeof ob);
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  unsigned launches = 0;
  const gpureduce_status_t s = gpureduce_ladder_sum_f32(
      (gpureduce_ladder_rung_t)rung, d_in, (float *)d_out, n, need ? *ws : NULL, need ? *ws_cap : 0,
      &launches, battery_handle());
  check_status(GPUREDUCE_SUCCESS, s, "%s: status (%s)", what,
               gpureduce_last_message(battery_handle()));
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  check_bytes(ob + 4, OUT_FILL, sizeof ob - 4, "%s: the canary after the output float", what);
  check_true(launches >= 1, "%s: at least one launch (%u)", what, launches);
  if (rung == GPUREDUCE_LADDER_TWO_PHASE)
    check_bits(2, launches, "%s: the two-phase rung launches twice", what);
  if (rung == GPUREDUCE_LADDER_WARP_SHUFFLE)
    check_bits(1, launches, "%s: the warp-shuffle rung launches once", what);
  float f;
  memcpy(&f, ob, 4);
  return f;
}

/*
 * Exact inputs: every partial sum of any order is an integer of magnitude
 * at most 2^24, so every rung (and the production path) must give the
 * exact sum.
 *   ones:    x[i] = 1, except x[0] = 0 when n = 2^24 + 1 (then the sum is
 *            2^24; 2^24 + 1 itself is not a float);
 *   ternary: random -1, 0, +1 with at most 2^24 nonzero elements.
 */
static void cuda_ladder_exact(void **state) {
  (void)state;
  size_t sizes[32];
  const size_t ns = ladder_sizes(sizes);
  float *x = tu_alloc(LADDER_MAX * sizeof *x);
  float *d = dmalloc(LADDER_MAX * sizeof *d);
  void *ws = NULL;
  size_t ws_cap = 0;
  tu_rng r;
  tu_rng_init(&r, "ladder ternary");
  for (int pattern = 0; pattern < 2; ++pattern) {
    size_t nonzero = 0;
    for (size_t i = 0; i < LADDER_MAX; ++i) {
      x[i] = pattern ? (float)((int)tu_below(&r, 3) - 1) : 1.0f;
      nonzero += x[i] != 0;
    }
    if (pattern)
      check_true(nonzero <= ((size_t)1 << 24), "the ternary input has at most 2^24 nonzeros");
    for (size_t si = 0; si < ns; ++si) {
      const size_t n = sizes[si];
      const float saved = x[0];
      if (!pattern && n > ((size_t)1 << 24)) x[0] = 0;
      CK(cudaMemcpy(d, x, (n ? n : 1) * sizeof *x, cudaMemcpyHostToDevice));
      double exact = 0;
      for (size_t i = 0; i < n; ++i) exact += x[i];
      const char *pname = pattern ? "random -1/0/+1" : "ones";
      for (int rung = GPUREDUCE_LADDER_FIRST; rung <= GPUREDUCE_LADDER_LAST; ++rung) {
        char what[128];
        snprintf(what, sizeof what, "ladder rung %d (%s) n=%zu, %s", rung,
                 gpureduce_ladder_name((gpureduce_ladder_rung_t)rung), n, pname);
        const float got = run_rung(rung, d, n, &ws, &ws_cap, what);
        check_bits(tu_f32_bits((float)exact) & (n ? ~0u : 0x7fffffffu),
                   tu_f32_bits(got) & (n ? ~0u : 0x7fffffffu),
                   "%s: the exact sum %.0f (n = 0: a zero of either sign)", what, exact);
      }
      /* the production path, same inputs */
      char what[96];
      snprintf(what, sizeof what, "gpureduce_sum_f32 n=%zu, %s", n, pname);
      unsigned char ob[OUT_BYTES];
      memset(ob, OUT_FILL, sizeof ob);
      CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
      check_status(GPUREDUCE_SUCCESS, gpureduce_sum_f32(d, (float *)d_out, n, battery_handle()),
                   "%s: status", what);
      CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
      check_bytes(ob + 4, OUT_FILL, sizeof ob - 4, "%s: the canary after the output", what);
      /* the library's sum of nothing is +0, and a sum of zeros and
       * cancelling ones is exact */
      check_bits(tu_f32_bits((float)exact), tu_load(ob, 0, 4), "%s: the exact sum %.0f", what,
                 exact);
      x[0] = saved;
    }
  }
  free(x);
  cudaFree(d);
  cudaFree(ws);
}

/*
 * Random values in [-1, 1): each rung against a double sum.  The rungs add
 * in trees of 256 (or 512) per pass, at most 3 passes, or, for the
 * grid-stride rungs, sequentially over ceil(n / (blocks * 256)) elements
 * per thread then in trees; with at least 256 blocks (an H200 launches
 * 8 per multiprocessor, 132 multiprocessors) that is at most n / 65536
 * sequential additions.  So we allow
 *   |sum - exact| <= (2 ceil(log2 n) + ceil(n / 65536) + 16) 2^-24 sum|x|
 * plus the double reference's own n 2^-53 sum|x|.
 * The production path must have the host backend's bits.
 */
static void cuda_ladder_random(void **state) {
  (void)state;
  size_t sizes[32];
  const size_t ns = ladder_sizes(sizes);
  float *x = tu_alloc(LADDER_MAX * sizeof *x);
  float *d = dmalloc(LADDER_MAX * sizeof *d);
  void *ws = NULL;
  size_t ws_cap = 0;
  tu_rng r;
  tu_rng_init(&r, "ladder random");
  for (size_t i = 0; i < LADDER_MAX; ++i) x[i] = (float)(2 * tu_unit(&r) - 1);
  CK(cudaMemcpy(d, x, LADDER_MAX * sizeof *x, cudaMemcpyHostToDevice));
  for (size_t si = 0; si < ns; ++si) {
    const size_t n = sizes[si];
    if (n == 0) continue;
    double s = 0, a = 0;
    for (size_t i = 0; i < n; ++i) {
      s += x[i];
      a += fabs(x[i]);
    }
    const double bound =
        ((2.0 * tu_ceil_log2(n) + (double)((n + 65535) / 65536) + 16) * 0x1p-24 +
         (double)n * 0x1p-53) * a;
    for (int rung = GPUREDUCE_LADDER_FIRST; rung <= GPUREDUCE_LADDER_LAST; ++rung) {
      char what[128];
      snprintf(what, sizeof what, "ladder rung %d (%s) n=%zu, random values in [-1, 1)", rung,
               gpureduce_ladder_name((gpureduce_ladder_rung_t)rung), n);
      const float got = run_rung(rung, d, n, &ws, &ws_cap, what);
      check_near((long double)s, (double)got, bound, "%s: near the double sum", what);
    }
    char what[96];
    snprintf(what, sizeof what, "gpureduce_sum_f32 n=%zu, random values", n);
    unsigned char ob[OUT_BYTES];
    check_status(GPUREDUCE_SUCCESS, gpureduce_sum_f32(d, (float *)d_out, n, battery_handle()),
                 "%s: status", what);
    CK(cudaMemcpy(ob, d_out, 4, cudaMemcpyDeviceToHost));
    float hv = 0;
    check_status(GPUREDUCE_SUCCESS, gpureduce_sum_f32(x, &hv, n, HH), "%s: host status", what);
    check_bits(tu_f32_bits(hv), tu_load(ob, 0, 4), "%s: the host backend's bits", what);
  }
  free(x);
  cudaFree(d);
  cudaFree(ws);
}

static void cuda_ladder_errors(void **state) {
  (void)state;
  const size_t n = 100000;
  float *d = dmalloc(n * sizeof *d);
  float *hx = tu_alloc(n * sizeof *hx);
  for (size_t i = 0; i < n; ++i) hx[i] = 1;
  CK(cudaMemcpy(d, hx, n * sizeof *d, cudaMemcpyHostToDevice));
  gpureduce_handle_t h = battery_handle();
  unsigned char ob[OUT_BYTES];
  for (int rung = GPUREDUCE_LADDER_FIRST; rung <= GPUREDUCE_LADDER_LAST; ++rung) {
    size_t need = 0;
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)rung, n, &need),
                 "rung %d: workspace size for n = %zu", rung, n);
    void *ws = dmalloc(need + 64);
    float host_out = 7.0f;
    struct {
      const char *what;
      const float *in;
      float *out;
      void *ws;
      size_t ws_bytes;
      gpureduce_status_t wanted;
    } cases[] = {
        {"a workspace one byte too small", d, (float *)d_out, ws, need ? need - 1 : 0,
         need ? GPUREDUCE_ERROR_INVALID_ARGUMENT : GPUREDUCE_SUCCESS},
        {"a NULL workspace", d, (float *)d_out, NULL, need,
         need ? GPUREDUCE_ERROR_INVALID_ARGUMENT : GPUREDUCE_SUCCESS},
        {"a NULL input with n > 0", NULL, (float *)d_out, ws, need,
         GPUREDUCE_ERROR_INVALID_ARGUMENT},
        {"a host input", hx, (float *)d_out, ws, need, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE},
        {"a host output", d, &host_out, ws, need, GPUREDUCE_ERROR_WRONG_MEMORY_SPACE},
        {"a host workspace", d, (float *)d_out, hx, need,
         need ? GPUREDUCE_ERROR_WRONG_MEMORY_SPACE : GPUREDUCE_SUCCESS},
    };
    for (size_t k = 0; k < COUNT(cases); ++k) {
      if (cases[k].wanted == GPUREDUCE_SUCCESS) continue; /* rung needs no workspace */
      memset(ob, OUT_FILL, sizeof ob);
      CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
      const gpureduce_status_t s =
          gpureduce_ladder_sum_f32((gpureduce_ladder_rung_t)rung, cases[k].in, cases[k].out, n,
                                   cases[k].ws, cases[k].ws_bytes, NULL, h);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
      check_status(cases[k].wanted, s, "ladder rung %d with %s", rung, cases[k].what);
      check_bytes(ob, OUT_FILL, sizeof ob, "ladder rung %d with %s: the device output is untouched",
                  rung, cases[k].what);
      check_bits(tu_f32_bits(7.0f), tu_f32_bits(host_out),
                 "ladder rung %d with %s: the host output is untouched", rung, cases[k].what);
      check_true(*gpureduce_last_message(h) != '\0', "ladder rung %d with %s: a message", rung,
                 cases[k].what);
    }
    /* n = 0 with a NULL input is allowed */
    size_t need0 = 0;
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_ladder_workspace_size((gpureduce_ladder_rung_t)rung, 0, &need0),
                 "ladder rung %d: workspace size for n = 0", rung);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_ladder_sum_f32((gpureduce_ladder_rung_t)rung, NULL, (float *)d_out, 0,
                                          need0 ? ws : NULL, need0 ? need + 64 : 0, NULL, h),
                 "ladder rung %d with n = 0 and a NULL input", rung);
    CK(cudaMemcpy(ob, d_out, 4, cudaMemcpyDeviceToHost));
    check_true(tu_load(ob, 0, 4) == 0 || tu_load(ob, 0, 4) == 0x80000000u,
               "ladder rung %d with n = 0 sums to zero", rung);
    cudaFree(ws);
  }
  memset(ob, OUT_FILL, sizeof ob);
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  const int bad[] = {0, 7};
  for (size_t k = 0; k < COUNT(bad); ++k)
    check_status(GPUREDUCE_ERROR_UNSUPPORTED,
                 gpureduce_ladder_sum_f32((gpureduce_ladder_rung_t)bad[k], d, (float *)d_out, n,
                                          NULL, 0, NULL, h),
                 "ladder rung %d (unknown)", bad[k]);
  CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
  check_bytes(ob, OUT_FILL, sizeof ob, "unknown rungs write nothing");
  free(hx);
  cudaFree(d);
}

/* ---- memory spaces, streams, handles ---------------------------------------------- */

static void cuda_wrong_memory_space(void **state) {
  (void)state;
  const size_t n = 1000;
  float *hx = tu_alloc(n * sizeof *hx), *pinned = NULL;
  for (size_t i = 0; i < n; ++i) hx[i] = (float)(i + 1);
  float *d = dmalloc(n * sizeof *d);
  CK(cudaMallocHost((void **)&pinned, n * sizeof *pinned));
  memcpy(pinned, hx, n * sizeof *hx);
  CK(cudaMemcpy(d, hx, n * sizeof *d, cudaMemcpyHostToDevice));
  gpureduce_handle_t h = battery_handle();
  unsigned char ob[OUT_BYTES], hout[OUT_BYTES];
  int dev = -7;
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_device(h, &dev), "gpureduce_get_device");
  check_bits(0, (uint64_t)dev, "the CUDA handle's device is 0");

  struct {
    const char *what;
    gpureduce_handle_t h;
    const void *in;
    int out_on_device;
  } cases[] = {
      {"host (malloc) input to the CUDA handle", h, hx, 1},
      {"pinned host (cudaMallocHost) input to the CUDA handle", h, pinned, 1},
      {"host output from the CUDA handle", h, d, 0},
      {"device input to the host handle", HH, d, 0},
      {"device output from the host handle", HH, hx, 1},
  };
  for (size_t k = 0; k < COUNT(cases); ++k)
    for (int oi = 0; oi < 2; ++oi) {
      const gpureduce_op_t op = oi ? GPUREDUCE_ARGMAX : GPUREDUCE_SUM;
      memset(ob, OUT_FILL, sizeof ob);
      memset(hout, OUT_FILL, sizeof hout);
      CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
      const gpureduce_status_t s = gpureduce_reduce(
          cases[k].in, cases[k].out_on_device ? (void *)d_out : (void *)hout, n, GPUREDUCE_F32,
          op, 0, cases[k].h);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(ob, d_out, sizeof ob, cudaMemcpyDeviceToHost));
      check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE, s, "%s (%s)", cases[k].what,
                   tu_op_names[op]);
      check_bytes(ob, OUT_FILL, sizeof ob, "%s: the device output is untouched", cases[k].what);
      check_bytes(hout, OUT_FILL, sizeof hout, "%s: the host output is untouched", cases[k].what);
      check_true(*gpureduce_last_message(cases[k].h) != '\0', "%s: a message says why",
                 cases[k].what);
    }
  /* both handles still work */
  check_bits(tu_f32_bits(500500.0f), dev_result(d, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "after"),
             "after the errors the CUDA handle sums 1..1000 to 500500");
  check_bits(tu_f32_bits(500500.0f), host_result(hx, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "after"),
             "after the errors the host handle sums 1..1000 to 500500");
  cudaFreeHost(pinned);
  cudaFree(d);
  free(hx);
}

static void cuda_managed_memory(void **state) {
  (void)state;
  int managed = 0;
  CK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, 0));
  check_true(managed, "device 0 supports managed memory");
  const size_t n = 3 * tu_tile_elems(GPUREDUCE_F32) + 9;
  float *m = NULL;
  uint64_t *mo = NULL;
  CK(cudaMallocManaged((void **)&m, n * sizeof *m, cudaMemAttachGlobal));
  CK(cudaMallocManaged((void **)&mo, 2 * sizeof *mo, cudaMemAttachGlobal));
  for (size_t i = 0; i < n; ++i) m[i] = (float)(i % 1000);
  m[12345] = 5000;
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(m, mo, n, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, battery_handle()),
               "argmax of managed memory on the CUDA handle");
  CK(cudaDeviceSynchronize());
  check_bits(12345, mo[0], "argmax of managed memory");
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(m, mo, n, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64,
                                battery_handle()),
               "sum of managed memory on the CUDA handle");
  CK(cudaDeviceSynchronize());
  double want = 0;
  for (size_t i = 0; i < n; ++i) want += m[i]; /* integers below 2^53: exact */
  check_bits(tu_f64_bits(want), mo[0], "sum (accumulate-f64) of managed memory is exact");
  cudaFree(m);
  cudaFree(mo);
}

static void cuda_set_stream(void **state) {
  (void)state;
  gpureduce_handle_t h = battery_handle();
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  const size_t n = ((size_t)1 << 20) + 3;
  float *x = tu_alloc(n * sizeof *x);
  tu_rng r;
  tu_rng_init(&r, "set stream");
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, n);
  x[777777] = 1e30f; /* the largest */
  float *d = dmalloc(n * sizeof *d);
  uint64_t *o = dmalloc(4 * sizeof *o);
  CK(cudaMemcpy(d, x, n * sizeof *x, cudaMemcpyHostToDevice));
  CK(cudaMemset(o, 0xC3, 4 * sizeof *o));
  /* a non-blocking stream does not wait for the legacy stream's copies */
  CK(cudaDeviceSynchronize());
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h, (void *)st), "gpureduce_set_stream");
  /* three calls queued on the stream; they share the workspace in order */
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(d, o, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
               "sum on a created stream");
  check_status(GPUREDUCE_SUCCESS, gpureduce_reduce(d, o + 1, n, GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, h),
               "argmax on a created stream");
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce(d, o + 2, n, GPUREDUCE_F32, GPUREDUCE_SUM_ABS, GPUREDUCE_ACCUMULATE_F64, h),
               "sum_abs on a created stream");
  CK(cudaStreamSynchronize(st));
  uint64_t got[4];
  CK(cudaMemcpy(got, o, sizeof got, cudaMemcpyDeviceToHost));
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h, NULL), "back to the legacy stream");
  check_bits(host_result(x, n, GPUREDUCE_F32, GPUREDUCE_SUM, 0, "stream sum"), got[0] & 0xffffffffu,
             "sum on a created stream, after cudaStreamSynchronize: the host backend's bits");
  check_bits(777777, got[1], "argmax on a created stream");
  check_bits(host_result(x, n, GPUREDUCE_F32, GPUREDUCE_SUM_ABS, GPUREDUCE_ACCUMULATE_F64, "stream"),
             got[2], "sum_abs (double) on a created stream: the host backend's bits");
  check_bits(UINT64_C(0xc3c3c3c3c3c3c3c3), got[3], "nothing written past the three results");
  CK(cudaStreamDestroy(st));
  cudaFree(d);
  cudaFree(o);
  free(x);
}

/* Many launches queued without synchronizing, on two handles and two
 * streams at once: each handle's workspace serves its own calls in order. */
static void cuda_queued_launches(void **state) {
  (void)state;
  enum { CALLS = 24 };
  gpureduce_handle_t h2 = NULL;
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h2, 0), "a second CUDA handle");
  cudaStream_t s1, s2;
  CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  gpureduce_handle_t hs[2] = {battery_handle(), h2};
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(hs[0], (void *)s1), "stream of handle 1");
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(hs[1], (void *)s2), "stream of handle 2");
  const size_t n = 9 * tu_tile_elems(GPUREDUCE_F32) * 40 + 77; /* 360 tiles: many blocks */
  float *x = tu_alloc(n * sizeof *x);
  tu_rng r;
  tu_rng_init(&r, "queued launches");
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, n);
  float *d = dmalloc(n * sizeof *d);
  uint64_t *o = dmalloc(2 * CALLS * sizeof *o);
  /* the sums fill 4 of their 8 bytes: set the rest, which is copied back
   * and masked (compute-sanitizer initcheck reads every copied byte) */
  CK(cudaMemset(o, 0xff, 2 * CALLS * sizeof *o));
  CK(cudaMemcpy(d, x, n * sizeof *x, cudaMemcpyHostToDevice));
  CK(cudaDeviceSynchronize()); /* the streams below do not wait for the legacy stream */
  size_t len[CALLS];
  for (int c = 0; c < CALLS; ++c) {
    len[c] = n - (size_t)c * 9973;
    for (int k = 0; k < 2; ++k)
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce(d, o + 2 * c + k, len[c], GPUREDUCE_F32,
                                    c % 2 ? GPUREDUCE_ARGMIN : GPUREDUCE_SUM, 0, hs[k]),
                   "queued call %d on handle %d", c, k + 1);
  }
  CK(cudaStreamSynchronize(s1));
  CK(cudaStreamSynchronize(s2));
  uint64_t got[2 * CALLS];
  CK(cudaMemcpy(got, o, sizeof got, cudaMemcpyDeviceToHost));
  for (int c = 0; c < CALLS; ++c) {
    const gpureduce_op_t op = c % 2 ? GPUREDUCE_ARGMIN : GPUREDUCE_SUM;
    const uint64_t want = host_result(x, len[c], GPUREDUCE_F32, op, 0, "queued");
    const uint64_t mask = op == GPUREDUCE_SUM ? 0xffffffffu : UINT64_MAX;
    for (int k = 0; k < 2; ++k)
      check_bits(want, got[2 * c + k] & mask,
                 "queued call %d (%s of %zu) on handle %d: the host backend's answer", c,
                 tu_op_names[op], len[c], k + 1);
  }
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(hs[0], NULL),
               "back to the default stream");
  CK(cudaStreamDestroy(s1));
  CK(cudaStreamDestroy(s2));
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h2), "destroy the second handle");
  cudaFree(d);
  cudaFree(o);
  free(x);
}

/* gpureduce.h: the block count "never changes a result". */
static void cuda_block_counts(void **state) {
  (void)state;
  gpureduce_handle_t h = battery_handle();
  const size_t sizes[] = {1000, ((size_t)1 << 20) + 3, 5 * ((size_t)1 << 20) + 1};
  const struct {
    gpureduce_type_t type;
    gpureduce_op_t op;
    unsigned flags;
  } cases[] = {{GPUREDUCE_F32, GPUREDUCE_SUM, 0},
               {GPUREDUCE_F32, GPUREDUCE_ARGMIN, 0},
               {GPUREDUCE_F16, GPUREDUCE_SUM_SQUARES, 0},
               {GPUREDUCE_F64, GPUREDUCE_SUM, 0},
               {GPUREDUCE_I8, GPUREDUCE_SUM, 0},
               /* shares plain argmax's block counts; its index is checked here, its value in test-with-value */
               {GPUREDUCE_BF16, GPUREDUCE_ARGMAX, GPUREDUCE_WITH_VALUE},
               {GPUREDUCE_F32, GPUREDUCE_NRM2, 0},
               {GPUREDUCE_F32, GPUREDUCE_MEAN_VAR, 0}}; /* results of one word */
  const unsigned blocks[] = {1, 2, 3, 7, 64, 1000, 4096};
  tu_rng r;
  tu_rng_init(&r, "block counts");
  for (size_t ci = 0; ci < COUNT(cases); ++ci) {
    const tu_type *t = TU_TYPE(cases[ci].type);
    void *x = tu_alloc(sizes[2] * t->size);
    void *d = dmalloc(sizes[2] * t->size);
    tc_fill(&r, cases[ci].type, G_WIDE, x, sizes[2]);
    CK(cudaMemcpy(d, x, sizes[2] * t->size, cudaMemcpyHostToDevice));
    for (size_t si = 0; si < COUNT(sizes); ++si) {
      const size_t n = sizes[si];
      char what[128];
      snprintf(what, sizeof what, "%s %s n=%zu", t->name, tu_op_names[cases[ci].op], n);
      const uint64_t base = dev_result(d, n, cases[ci].type, cases[ci].op, cases[ci].flags, what);
      check_bits(host_result(x, n, cases[ci].type, cases[ci].op, cases[ci].flags, what), base,
                 "%s with the default block count: the host backend's bits", what);
      for (size_t bi = 0; bi < COUNT(blocks); ++bi) {
        check_status(GPUREDUCE_SUCCESS,
                     gpureduce_set_blocks(h, cases[ci].type, cases[ci].op, cases[ci].flags, n,
                                          blocks[bi]),
                     "%s: gpureduce_set_blocks(%u)", what, blocks[bi]);
        unsigned b = 0;
        int tuned = 0;
        check_status(GPUREDUCE_SUCCESS,
                     gpureduce_get_blocks(h, cases[ci].type, cases[ci].op, cases[ci].flags, n, &b,
                                          &tuned),
                     "%s: gpureduce_get_blocks after setting %u", what, blocks[bi]);
        check_true(tuned == 1, "%s: gpureduce_get_blocks reports the set count as tuned", what);
        check_bits(base, dev_result(d, n, cases[ci].type, cases[ci].op, cases[ci].flags, what),
                   "%s with %u blocks: the same bits as with the default count", what, blocks[bi]);
      }
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_set_blocks(h, cases[ci].type, cases[ci].op, cases[ci].flags, n, 0),
                   "%s: back to the model's block count", what);
    }
    free(x);
    cudaFree(d);
  }
}

int main(void) {
  if (!tu_cuda_need_devices(1)) return 0;
  /* no tuning cache: the same launches on every machine (block counts are
   * tested explicitly by cuda_block_counts) */
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  battery_use(&bt_cuda_backend);
  const struct CMUnitTest tests[] = {
      BATTERY_TESTS,
      cmocka_unit_test(cuda_matches_host),
      cmocka_unit_test(cuda_many_tiles),
      cmocka_unit_test(cuda_byte_nrm2_exact),
      cmocka_unit_test(cuda_ladder_exact),
      cmocka_unit_test(cuda_ladder_random),
      cmocka_unit_test(cuda_ladder_errors),
      cmocka_unit_test(cuda_wrong_memory_space),
      cmocka_unit_test(cuda_managed_memory),
      cmocka_unit_test(cuda_set_stream),
      cmocka_unit_test(cuda_queued_launches),
      cmocka_unit_test(cuda_block_counts),
  };
  return cmocka_run_group_tests_name("test-cuda", tests, cuda_setup, cuda_teardown);
}
