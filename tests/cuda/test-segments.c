/*
 * test-segments.c - the segmented battery (tests/lib/segments.c) on CUDA
 * device 0, where every result is also compared bit for bit with the host
 * backend's, and what only a CUDA handle has:
 *   - the kernel's regimes at the sizes that reach them: one long segment
 *     spread over many warps, several of 2^20 .. 2^24, totals at which
 *     the merge-path's tile groups hold 2 and 4 tiles, 2^20 tiny segments
 *     with one huge one, Zipf and uniform lengths, 2^18 segments of 32
 *     chunks and 32 chunks and one element, 2^14 at the packed limit of
 *     128 chunks, runs of segments whose chunks add to 128 (a round's
 *     positions) and to 129, between runs of segments of a chunk or less;
 *   - host memory refused;
 *   - a call captured in a CUDA graph as one kernel node, replayed with
 *     valid offsets, then invalid ones (the async error), then valid ones;
 *   - exact-size allocations (input ending at offsets[segments], offsets
 *     and output of exactly their size) with valid and invalid offsets,
 *     so that compute-sanitizer's memcheck sees any access beyond them.
 *     GPUREDUCE_TEST_SEGMENTS=exact-bounds runs only this test (a case of
 *     tests/dist/gpu-sanitizers.sh).
 *
 * Without a usable CUDA device it prints "1..0 # SKIP no CUDA device".
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "graph.h"
#include "segments.h"

/* ---- the regimes ------------------------------------------------------------ */

/* Data for large calls: a block of random values of an odd length,
 * repeated (cheap to make, still no two neighbouring tiles alike). */
struct repeat {
  gpureduce_type_t type;
  enum tc_gen gen;
  const char *label;
};

#define REPEAT_BLOCK (((size_t)1 << 20) + 17)

static void repeat_fill(void *ctx, void *dst, size_t n) {
  const struct repeat *rp = ctx;
  const unsigned es = TU_TYPE(rp->type)->size;
  tu_rng r;
  tu_rng_init(&r, rp->label);
  const size_t first = n < REPEAT_BLOCK ? n : REPEAT_BLOCK;
  tc_fill(&r, rp->type, rp->gen, dst, first);
  unsigned char *p = dst;
  for (size_t have = first; have < n;) {
    const size_t c = have < n - have ? have : n - have;
    memcpy(p + have * es, p, c * es);
    have += c;
  }
}

static void check_repeat(const struct sg_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
                         unsigned flags, const char *label) {
  struct repeat rp = {type,
                      op == GPUREDUCE_PROD       ? G_FACTORS
                      : tu_is_sum_like(op)       ? G_WIDE
                                                 : G_INNER,
                      label};
  const struct sg_data data = {NULL, &rp, "a block of random values, repeated", repeat_fill};
  sg_check(sh, type, op, flags, &data, bt_poison(type, op));
}

/* The tile-group exponent g the kernel's merge-path picks
 * (src/cuda/kernel/segments.cuh): each of min(2 SMs, 512) x 8 warps owns
 * W = (elements + segments V) / warps of the line, and a group is the
 * largest 2^g tiles within W / 4, one tile at least.  Only for choosing
 * sizes and for messages: nothing asserts the regime. */
static size_t warps_of_grid(void) {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const size_t blocks = 2 * (size_t)sms < 512 ? 2 * (size_t)sms : 512;
  return blocks * 8;
}

static unsigned predicted_g(gpureduce_type_t type, size_t elements, size_t segments) {
  const size_t w = (elements + segments * tu_chunk_elems(type)) / warps_of_grid();
  unsigned g = 0;
  while ((tu_tile_elems(type) << (g + 1)) <= w / 4) ++g;
  return g;
}

static size_t lengths[(size_t)1 << 20 | 64];

static void cuda_regimes(void **state) {
  (void)state;
  static const struct sg_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},        {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
      {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
      {GPUREDUCE_F16, GPUREDUCE_SUM, 0},        {GPUREDUCE_BF16, GPUREDUCE_ARGMIN, 0},
      {GPUREDUCE_I8, GPUREDUCE_MAX, 0},         {GPUREDUCE_F64, GPUREDUCE_SUM_SQUARES, 0},
      {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},     {GPUREDUCE_I64, GPUREDUCE_SUM, 0},
      {GPUREDUCE_U32, GPUREDUCE_MIN, 0},        {GPUREDUCE_BF16, GPUREDUCE_SUM_ABS, 0},
  };
  const size_t nk = sg_quick() ? 2 : COUNT(kinds);
  const size_t big = sg_quick() ? (size_t)1 << 18 : (size_t)1 << 22;
  for (size_t k = 0; k < nk; ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const gpureduce_op_t op = kinds[k].op;
    const unsigned flags = kinds[k].flags;
    const size_t te = tu_tile_elems(type);
    tu_rng r;
    tu_rng_init(&r, "regimes");
    /* one long segment among 100 small ones: spread over many warps */
    size_t n = 0;
    for (int i = 0; i < 50; ++i) lengths[n++] = (size_t)tu_below(&r, 41);
    lengths[n++] = big + 3;
    for (int i = 0; i < 50; ++i) lengths[n++] = (size_t)tu_below(&r, 41);
    struct sg_shape sh = sg_from_lengths(lengths, n, 1, 0, "one of 2^22 + 3 among 100 small");
    check_repeat(&sh, type, op, flags, "regimes one long");
    if (sg_quick()) continue;
    /* a few of 2^20 .. 2^24 */
    const size_t few[] = {((size_t)1 << 20) + 1, ((size_t)1 << 21) - 1, 7,
                          ((size_t)1 << 24) + 5, 0, (size_t)1 << 22, 3 * te + 1};
    sh = sg_from_lengths(few, COUNT(few), 0, 0, "a few of 2^20 .. 2^24");
    check_repeat(&sh, type, op, flags, "regimes few long");
    /* 2^20 segments of 1 .. 64 and one of 2^25 (the skewed shape,
     * smaller) */
    if (k < 4 || op == GPUREDUCE_ARGMAX) {
      const size_t tiny = (size_t)1 << 20;
      for (size_t s = 0; s < tiny; ++s) lengths[s] = 1 + (size_t)tu_below(&r, 64);
      lengths[tiny / 2] = (size_t)1 << 25;
      sh = sg_from_lengths(lengths, tiny, 0, 0, "2^20 of 1 .. 64 and one of 2^25");
      check_repeat(&sh, type, op, flags, "regimes tiny and huge");
    }
    /* Zipf (exponent 1.5) over 1 .. 2^20; uniform 0 .. 500 and 0 .. 10000 */
    sg_zipf_lengths(&r, lengths, 20000, (size_t)1 << 20);
    sh = sg_from_lengths(lengths, 20000, 3, 0, "20000 of Zipf lengths 1 .. 2^20");
    check_repeat(&sh, type, op, flags, "regimes zipf");
    sg_uniform_lengths(&r, lengths, 10000, 250);
    sh = sg_from_lengths(lengths, 10000, 0, 0, "10000 of uniform lengths 0 .. 500");
    check_repeat(&sh, type, op, flags, "regimes uniform 250");
    sg_uniform_lengths(&r, lengths, 2000, 5000);
    sh = sg_from_lengths(lengths, 2000, 0, 0, "2000 of uniform lengths 0 .. 10000");
    check_repeat(&sh, type, op, flags, "regimes uniform 5000");
    /* 2^18 segments at the packed limit: 32 V and 32 V + 1 alternating */
    const size_t v = tu_chunk_elems(type);
    for (size_t s = 0; s < ((size_t)1 << 18); ++s) lengths[s] = 32 * v + (s & 1);
    sh = sg_from_lengths(lengths, (size_t)1 << 18, 0, 0, "2^18 of 32 V and 32 V + 1");
    check_repeat(&sh, type, op, flags, "regimes 32 chunks");
    /* the rounds' limit of 128 chunks: 128 V and 128 V + 1 alternating */
    for (size_t s = 0; s < ((size_t)1 << 14); ++s) lengths[s] = 128 * v + (s & 1);
    sh = sg_from_lengths(lengths, (size_t)1 << 14, 0, 0, "2^14 of 128 V and 128 V + 1");
    check_repeat(&sh, type, op, flags, "regimes packed limit");
    /* runs of segments whose chunk positions add to 128, a round's (filled
     * exactly where a round starts with the run), and to 129 (an empty
     * segment takes a position), with runs of segments of a chunk or less
     * between them; the warps' shares cut the pattern anywhere */
    {
      static const unsigned pattern[] = {64, 32, 16, 8, 4, 2, 1, 1, /* 128 positions */
                                         0,  1,  1,  1,  1, 1, 1, 1, /* 8 of one chunk or less */
                                         65, 63, 0, /* 129 */
                                         127, 1, 128, 3, 125};
      size_t m = 0;
      for (size_t i = 0; m < ((size_t)1 << 16); ++i) {
        const unsigned c = pattern[i % COUNT(pattern)];
        /* a whole number of chunks, or one element short of it */
        lengths[m++] = c == 0 ? 0 : c * v - (i / COUNT(pattern) & 1) * (v > 1 && c > 1);
      }
      sh = sg_from_lengths(lengths, m, 1, 0,
                           "runs of 128 and 129 chunk positions and of tiny ones, from 1");
      check_repeat(&sh, type, op, flags, "regimes round fill");
    }
  }
  if (sg_quick()) return;
  /* Totals at which a warp's share is 1.5 x 2^g tiles (g = 1, 2): segments
   * of 2^g tiles, 2^g tiles + 1, 2^(g+1) tiles - 1, 2^g tiles - 1 among
   * small ones, and one long one holding the rest. */
  static const struct sg_kind group_kinds[] = {{GPUREDUCE_F32, GPUREDUCE_SUM, 0},
                                               {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
                                               {GPUREDUCE_F16, GPUREDUCE_ARGMAX, 0},
                                               {GPUREDUCE_F32, GPUREDUCE_SUM, 0}};
  const unsigned group_g[] = {1, 1, 1, 2};
  for (size_t k = 0; k < COUNT(group_kinds); ++k) {
    const gpureduce_type_t type = group_kinds[k].type;
    const size_t te = tu_tile_elems(type), gt = ((size_t)1 << group_g[k]) * te;
    const size_t total = warps_of_grid() * gt * 6; /* W = 6 groups: W / 4 holds one */
    size_t n = 0, sum = 0;
    const size_t parts[] = {gt, 5, gt + 1, 2 * gt - 1, 0, gt - 1, 17, 3 * gt};
    for (size_t i = 0; i < COUNT(parts); ++i) sum += lengths[n++] = parts[i];
    lengths[n++] = total - sum;
    sum = total;
    for (int i = 0; i < 20; ++i) lengths[n++] = 1 + i;
    char name[160];
    snprintf(name, sizeof name,
             "2^%u-tile groups: %zu elements, segments of 2^g tiles +-1 and one of the rest "
             "(predicted g %u)",
             group_g[k], total, predicted_g(type, total, n));
    print_message("# %s %s: %s\n", TU_TYPE(type)->name, tu_op_names[group_kinds[k].op], name);
    const struct sg_shape sh = sg_from_lengths(lengths, n, 2, 0, name);
    check_repeat(&sh, type, group_kinds[k].op, group_kinds[k].flags, "regimes groups");
  }
}

/* ---- memory spaces ------------------------------------------------------------ */

static void cuda_segments_memory_spaces(void **state) {
  (void)state;
  gpureduce_handle_t h = battery_handle();
  enum { N = 1024, S = 4 };
  float *host = tu_alloc(N * sizeof *host), *dev = NULL;
  uint64_t off[S + 1] = {0, 16, 16, 40, 64}, *d_off = NULL;
  unsigned char *d_out = NULL, ob[64];
  for (int i = 0; i < N; ++i) host[i] = (float)(i % 13);
  CK(cudaMalloc((void **)&dev, N * sizeof *dev));
  CK(cudaMalloc((void **)&d_out, sizeof ob));
  CK(cudaMalloc((void **)&d_off, sizeof off));
  CK(cudaMemcpy(dev, host, N * sizeof *dev, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_off, off, sizeof off, cudaMemcpyHostToDevice));
  memset(ob, 0xC3, sizeof ob);
  CK(cudaMemcpy(d_out, ob, sizeof ob, cudaMemcpyHostToDevice));
  const struct {
    const char *what;
    const void *in;
    void *out;
    const uint64_t *off;
  } cases[] = {{"host input to a CUDA handle", host, d_out, d_off},
               {"host output from a CUDA handle", dev, ob, d_off},
               {"host offsets to a CUDA handle", dev, d_out, off}};
  for (size_t k = 0; k < COUNT(cases); ++k) {
    check_status(GPUREDUCE_ERROR_WRONG_MEMORY_SPACE,
                 gpureduce_reduce_segments(cases[k].in, cases[k].out, cases[k].off, S,
                                           GPUREDUCE_F32, GPUREDUCE_SUM, 0, h),
                 "%s", cases[k].what);
    check_true(*gpureduce_last_message(h) != '\0', "%s: the message says why", cases[k].what);
    check_bytes(ob, 0xC3, sizeof ob, "%s: the host buffer is untouched", cases[k].what);
    unsigned char back[64];
    CK(cudaMemcpy(back, d_out, sizeof back, cudaMemcpyDeviceToHost));
    check_bytes(back, 0xC3, sizeof back, "%s: the device output is untouched", cases[k].what);
  }
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_segments(dev, d_out, d_off, S, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                         h),
               "device input, output and offsets after the errors");
  check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(h), "no async error after them");
  float sums[S];
  CK(cudaMemcpy(sums, d_out, sizeof sums, cudaMemcpyDeviceToHost));
  for (int s = 0; s < S; ++s) {
    float sum = 0; /* small integers: exact in any order; +0 when empty */
    for (uint64_t i = off[s]; i < off[s + 1]; ++i) sum += host[i];
    check_bits(tu_f32_bits(sum), tu_f32_bits(sums[s]), "segment %d's sum after the errors", s);
  }
  cudaFree(dev);
  cudaFree(d_out);
  cudaFree(d_off);
  free(host);
}

/* ---- a CUDA graph --------------------------------------------------------------- */

/* Captured in a CUDA graph (global mode: an allocation or a
 * synchronization during the capture would end it): one kernel node;
 * replays give the host backend's bits, and a replay on invalid offsets
 * written into the same buffer gives the async error and leaves the next
 * replay on valid ones correct. */
static void cuda_segments_graph(void **state) {
  (void)state;
  enum { S = 1001 };
  size_t len[S];
  tu_rng r;
  tu_rng_init(&r, "segments graph");
  for (size_t s = 0; s < S; ++s) len[s] = (size_t)tu_below(&r, 300);
  len[500] = ((size_t)1 << 21) + 3; /* many warps and their tickets */
  len[7] = 0;
  len[300] = 5; /* so that segment 300 below decreases */
  uint64_t off[S + 1], bad[S + 1];
  off[0] = 0;
  for (size_t s = 0; s < S; ++s) off[s + 1] = off[s] + len[s];
  const size_t n = (size_t)off[S];
  memcpy(bad, off, sizeof off);
  bad[300] = bad[302]; /* segment 299 grows, segment 300 decreases... */
  bad[301] = bad[299]; /* ...and 301 too: 299 is valid, 300 the lowest invalid */
  float *x = tu_alloc(n * sizeof *x), *want = tu_alloc(S * sizeof *want);
  float *back = tu_alloc(S * sizeof *back);
  tc_fill(&r, GPUREDUCE_F32, G_WIDE, x, n);
  float *d_x = NULL, *d_out = NULL;
  uint64_t *d_off = NULL;
  gpureduce_handle_t h = NULL, hh = NULL;
  cudaStream_t st;
  CK(cudaMalloc((void **)&d_x, n * sizeof *x));
  CK(cudaMalloc((void **)&d_out, S * sizeof *d_out));
  CK(cudaMalloc((void **)&d_off, sizeof off));
  CK(cudaMemcpy(d_x, x, n * sizeof *x, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_off, off, sizeof off, cudaMemcpyHostToDevice));
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&h, 0), "create a CUDA handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_create(&hh, GPUREDUCE_DEVICE_HOST),
               "create a host handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_set_stream(h, st), "set the handle's stream");
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_segments(x, want, off, S, GPUREDUCE_F32, GPUREDUCE_SUM, 0, hh),
               "the host backend's segment sums");
  CK(cudaDeviceSynchronize());

  struct tu_graph g;
  tu_graph_begin(&g, st);
  const gpureduce_status_t s = gpureduce_reduce_segments(d_x, d_out, d_off, S, GPUREDUCE_F32,
                                                         GPUREDUCE_SUM, 0, h);
  tu_graph_end(&g);
  check_status(GPUREDUCE_SUCCESS, s, "gpureduce_reduce_segments during capture (%s)",
               gpureduce_last_message(h));
  tu_graph_instantiate(&g, "the segmented call", 1, "one node, the segmented call's kernel", 1);
  /* valid, valid, invalid, valid */
  for (int replay = 0; replay < 4; ++replay) {
    const int invalid = replay == 2;
    CK(cudaMemcpy(d_off, invalid ? bad : off, sizeof off, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xff, S * sizeof *d_out));
    CK(cudaDeviceSynchronize());
    tu_graph_launch(&g);
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(back, d_out, S * sizeof *back, cudaMemcpyDeviceToHost));
    if (invalid) {
      for (size_t k = 0; k < S; ++k)
        if (sg_invalid(bad, S, k))
          check_bits(0, tu_f32_bits(back[k]),
                     "replay %d on invalid offsets: invalid segment %zu sums to +0", replay, k);
      check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(h),
                   "replay %d on invalid offsets: the async error", replay);
      check_true(strstr(gpureduce_last_message(h), "300") != NULL,
                 "replay %d: the message \"%s\" names segment 300", replay,
                 gpureduce_last_message(h));
      continue;
    }
    check_status(GPUREDUCE_SUCCESS, gpureduce_get_async_error(h),
                 "replay %d on valid offsets: no async error", replay);
    for (size_t k = 0; k < S; ++k)
      check_bits(tu_f32_bits(want[k]), tu_f32_bits(back[k]),
                 "replay %d: segment %zu's sum has the host backend's bits", replay, k);
  }
  tu_graph_destroy(&g);
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(h), "destroy the CUDA handle");
  check_status(GPUREDUCE_SUCCESS, gpureduce_destroy(hh), "destroy the host handle");
  CK(cudaStreamDestroy(st));
  cudaFree(d_x);
  cudaFree(d_out);
  cudaFree(d_off);
  free(x);
  free(want);
  free(back);
}

/* ---- exact bounds (memcheck) ---------------------------------------------------- */

/*
 * Each case on allocations of exactly its size: the input ends at
 * input + offsets[segments] (or at input + offsets[0] when that is
 * beyond), the offsets are segments + 1 values, the output segments
 * results.  Valid offsets: every result has the host backend's bits;
 * invalid ones: the invalid segments' results are empty, the async
 * error names the lowest, and a valid call follows.  Under memcheck any
 * read or write past an end is an error.
 */
static void exact_call(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                       const uint64_t *off, size_t S, const char *name) {
  gpureduce_handle_t h = battery_handle();
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = tu_result_size(type, op, flags);
  const size_t lo = (size_t)off[0], hi = (size_t)off[S], elems = (lo > hi ? lo : hi) + !(lo | hi);
  size_t lowest = S;
  for (size_t s = S; s-- > 0;)
    if (sg_invalid(off, S, s)) lowest = s;
  char what[300];
  snprintf(what, sizeof what, "%s, %zu segments on exact allocations, %s",
           TU_TYPE(type)->name, S, name);
  unsigned char *x = tu_alloc(elems * es), *res = tu_alloc(S * rs), *hres = tu_alloc(S * rs);
  tu_rng r;
  tu_rng_init(&r, what);
  tc_fill(&r, type, op == GPUREDUCE_PROD ? G_FACTORS : G_WIDE, x, elems);
  void *d_x = NULL, *d_out = NULL;
  uint64_t *d_off = NULL;
  CK(cudaMalloc(&d_x, elems * es));
  CK(cudaMalloc(&d_out, S * rs));
  CK(cudaMalloc((void **)&d_off, (S + 1) * sizeof *off));
  CK(cudaMemcpy(d_x, x, elems * es, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_off, off, (S + 1) * sizeof *off, cudaMemcpyHostToDevice));
  CK(cudaMemset(d_out, 0xC3, S * rs));
  const gpureduce_status_t st = gpureduce_reduce_segments(d_x, d_out, d_off, S, type, op, flags, h);
  check_status(GPUREDUCE_SUCCESS, st, "%s: status (%s)", what, st ? gpureduce_last_message(h) : "");
  CK(cudaMemcpy(res, d_out, S * rs, cudaMemcpyDeviceToHost));
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_segments(x, hres, off, S, type, op, flags, sg_host_handle()),
               "%s: the host backend's call", what);
  const gpureduce_status_t ae = gpureduce_get_async_error(h);
  if (lowest == S) {
    check_status(GPUREDUCE_SUCCESS, ae, "%s: no async error", what);
    for (size_t s = 0; s < S; ++s)
      check_result(bt_result_at(hres, s, rs), bt_result_at(res, s, rs), rs,
                   "%s: result %zu has the host backend's bits", what, s);
  } else {
    check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, ae, "%s: the async error", what);
    check_status(GPUREDUCE_ERROR_INVALID_OFFSETS, gpureduce_get_async_error(sg_host_handle()),
                 "%s: the host backend's async error too", what);
    for (size_t s = 0; s < S; ++s)
      if (sg_invalid(off, S, s))
        check_result(bt_empty_result(type, op, flags), bt_result_at(res, s, rs), rs,
                     "%s: invalid segment %zu has the empty result", what, s);
  }
  cudaFree(d_x);
  cudaFree(d_out);
  cudaFree(d_off);
  free(x);
  free(res);
  free(hres);
}

static void cuda_exact_bounds(void **state) {
  (void)state;
  static const struct sg_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},       {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
      {GPUREDUCE_F64, GPUREDUCE_ARGMAX, 0},    {GPUREDUCE_F16, GPUREDUCE_MIN, 0},
      {GPUREDUCE_I64, GPUREDUCE_SUM_SQUARES, 0}, {GPUREDUCE_BF16, GPUREDUCE_ARGMIN, 0},
      {GPUREDUCE_I8, GPUREDUCE_MAX, 0},        {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
  };
  const uint64_t M = UINT64_MAX, W = (uint64_t)1 << 62, L = (uint64_t)1 << 20;
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const uint64_t te = tu_tile_elems(type), v = tu_chunk_elems(type);
    const struct {
      const char *name;
      const uint64_t *off;
      size_t segments;
    } cases[] = {
        /* valid: every regime, the last segment ending mid-chunk */
        {"one element", (const uint64_t[]){0, 1}, 1},
        {"V + 1 elements in one segment", (const uint64_t[]){0, v + 1}, 1},
        {"short, packed, warp and long segments ending mid-chunk",
         (const uint64_t[]){0, 3, 3 + 32 * v + 1, 3 + 32 * v + 1, 5 + 34 * v + 2 * te,
                            6 + 34 * v + 2 * te, L + 7 + 34 * v + 2 * te,
                            L + 12 + 34 * v + 2 * te},
         7},
        {"offsets[0] > 0, a long segment last",
         (const uint64_t[]){5, 9, 9, 9 + 3 * te + 1, 2 * L + 1}, 4},
        /* invalid */
        {"decreasing offsets", (const uint64_t[]){0, 10, 5, 20}, 3},
        {"an offset far beyond the end", (const uint64_t[]){0, 8, 1000000, 16, 24}, 4},
        {"offsets[0] above offsets[segments]", (const uint64_t[]){50, 10, 20, 30}, 3},
        {"UINT64_MAX", (const uint64_t[]){0, M, 10}, 2},
        {"an offset whose byte offset wraps", (const uint64_t[]){0, 7, W, W + 5, 16}, 4},
        {"long valid segments around a decreasing one",
         (const uint64_t[]){0, L + 3, L + 3 + 5 * te, L + 1 + 5 * te, 2 * L + 5 * te}, 4},
        {"the last offsets decreasing", (const uint64_t[]){0, 3 * te, 3 * te + 9, 3 * te + 4},
         3},
        {"after the invalid ones: valid again",
         (const uint64_t[]){0, 3, 3 + 32 * v + 1, 3 + 32 * v + 1, 5 + 34 * v + 2 * te,
                            6 + 34 * v + 2 * te, L + 7 + 34 * v + 2 * te,
                            L + 12 + 34 * v + 2 * te},
         7},
    };
    for (size_t c = 0; c < COUNT(cases); ++c)
      exact_call(type, kinds[k].op, kinds[k].flags, cases[c].off, cases[c].segments,
                 cases[c].name);
  }
}

int main(void) {
  if (!tu_cuda_start(0)) return 0;
  setenv("GPUREDUCE_TUNE", "off", 1);
  cmocka_set_message_output(CM_OUTPUT_TAP);
  segments_use(&bt_cuda_backend);
  const char *only = getenv("GPUREDUCE_TEST_SEGMENTS");
  if (only && strcmp(only, "exact-bounds") == 0) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(cuda_exact_bounds)};
    return cmocka_run_group_tests_name("test-segments (CUDA, exact bounds)", tests,
                                       segments_setup, segments_teardown);
  }
  const struct CMUnitTest tests[] = {
      SEGMENTS_TESTS,
      cmocka_unit_test(cuda_regimes),
      cmocka_unit_test(cuda_segments_memory_spaces),
      cmocka_unit_test(cuda_segments_graph),
      cmocka_unit_test(cuda_exact_bounds),
  };
  return cmocka_run_group_tests_name("test-segments (CUDA)", tests, segments_setup,
                                     segments_teardown);
}
