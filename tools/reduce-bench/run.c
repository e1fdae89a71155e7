/*
 * run.c - one run of reduce-bench (see run.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cub.h"
#include "bench_cuda.h"
#include "checks.h"
#include "options.h"
#include "run.h"

#define RANDOM_SEED 0x2545f4914f6cdd1dull

/* ---- the run ------------------------------------------------------------------ */

/* CUDA or host, by --backend and what the machine has. */
static int choose_cuda(const struct options *o) {
  char why[200] = "";
  if (o->backend == BACKEND_HOST) return 0;
  const int count = bench_cuda_device_count(why, sizeof why);
  if (count == 0 && o->tune) fatal(EXIT_NO_DEVICE, "--tune: no CUDA device (%s)", why);
  if (count == 0 && o->device_given)
    fatal(EXIT_NO_DEVICE, "--device %d: no CUDA device (%s)", o->device, why);
  if (count == 0 && o->backend == BACKEND_AUTO) {
    fprintf(stderr, PROGRAM ": no CUDA device (%s); running the host backend\n", why);
    return 0;
  }
  if (count == 0) fatal(EXIT_NO_DEVICE, "--backend cuda: no CUDA device (%s)", why);
  if (o->device >= count)
    fatal(EXIT_NO_DEVICE, "--device %d: this machine has %d CUDA device(s)", o->device, count);
  return 1;
}

void open_run(struct run *run, const struct options *o) {
  memset(run, 0, sizeof *run);
  run->opt = o;
  run->cuda = choose_cuda(o);
  if (run->cuda) {
    bench_cuda_open(o->device, &run->dev);
    run->ck.events = bench_timer_create();
  }
  const gpureduce_status_t s =
      gpureduce_create(&run->h, run->cuda ? o->device : GPUREDUCE_DEVICE_HOST);
  if (s != GPUREDUCE_SUCCESS) library_failed(NULL, s, "gpureduce_create");
}

void close_run(struct run *run) {
  if (run->cuda) bench_cuda_sync("the last calls");
  const gpureduce_status_t s = gpureduce_destroy(run->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(NULL, s, "gpureduce_destroy");
  if (run->ck.events) bench_timer_destroy(run->ck.events);
}

/* ---- the report's lines -------------------------------------------------------- */

void add_note(struct run *run, const char *fmt, ...) {
  if (run->nnotes == MAX_NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->notes[run->nnotes++], sizeof run->notes[0], fmt, ap);
  va_end(ap);
}

void add_head(struct run *run, const char *fmt, ...) {
  if (run->nhead == (int)(sizeof run->head / sizeof run->head[0])) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->head[run->nhead++], sizeof run->head[0], fmt, ap);
  va_end(ap);
}

void add_summary(struct run *run, const char *fmt, ...) {
  if (run->nsummary == 2) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(run->summary[run->nsummary++], sizeof run->summary[0], fmt, ap);
  va_end(ap);
}

void report_wrong(struct run *run, const char *who, size_t n, const struct verdict *v) {
  ++run->wrong;
  fprintf(stderr, PROGRAM ": WRONG: %s, n = %zu: %s\n", who, n, v->detail);
}

/* ---- the calls the modes share ------------------------------------------------ */

_Noreturn void library_failed(gpureduce_handle_t h, gpureduce_status_t s, const char *what) {
  fatal(s == GPUREDUCE_ERROR_NO_DEVICE ? EXIT_NO_DEVICE : EXIT_WRONG, "%s failed: %s%s%s", what,
        gpureduce_status_string(s), h && *gpureduce_last_message(h) ? ": " : "",
        h ? gpureduce_last_message(h) : "");
}

void run_reduce(void *arg) {
  const struct reduce_call *c = arg;
  gpureduce_status_t s;
  if (c->type == GPUREDUCE_F32 && c->op == GPUREDUCE_SUM && !c->flags)
    s = gpureduce_sum_f32(c->in, c->out, c->n, c->h);
  else
    s = gpureduce_reduce(c->in, c->out, c->n, c->type, c->op, c->flags, c->h);
  if (s != GPUREDUCE_SUCCESS) library_failed(c->h, s, "gpureduce_reduce");
}

void run_cub(void *arg) {
  const struct cub_call *c = arg;
  bench_cub_run(c->cub, c->in, c->n);
}

void library_result(const struct reduce_call *c, int cuda, void *bits) {
  const size_t bytes = gpureduce_result_size(c->type, c->op, c->flags);
  poison_buffer(cuda, c->out, RESULT_MAX);
  run_reduce((void *)c);
  if (cuda)
    bench_cuda_copy_to_host(bits, c->out, bytes);
  else
    memcpy(bits, c->out, bytes);
}

struct reduce_call plain_call(const struct reduce_call *c) {
  struct reduce_call p = *c;
  p.flags &= ~GPUREDUCE_WITH_VALUE;
  return p;
}

void value_result_from_plain(int cuda, gpureduce_type_t t, gpureduce_op_t op, const void *first,
                             size_t n, size_t stride, unsigned char *result) {
  uint64_t index = GPUREDUCE_NO_INDEX;
  unsigned char element[8];
  if (n) {
    memcpy(&index, result, sizeof index);
    if (index >= n)
      fatal(EXIT_WRONG, "WRONG: %s %s of %zu elements without the value gave index %llu",
            gpureduce_type_name(t), gpureduce_op_name(op), n, (unsigned long long)index);
    const unsigned char *at = (const unsigned char *)first + index * stride;
    if (cuda)
      bench_cuda_copy_to_host(element, at, gpureduce_type_size(t));
    else
      memcpy(element, at, gpureduce_type_size(t));
  }
  value_result_of(t, op, index, n ? element : NULL, result);
}

/* ---- buffers ------------------------------------------------------------------ */

struct input input_alloc(int cuda, gpureduce_type_t t, size_t n, size_t offset,
                         const char *what) {
  const size_t es = gpureduce_type_size(t);
  struct input in = {NULL, NULL, n, cuda};
  in.base = cuda ? bench_cuda_alloc((n + offset) * es, what) : xmalloc_aligned((n + offset) * es);
  in.x = (char *)in.base + offset * es;
  return in;
}

void input_free(struct input *in) {
  if (in->cuda)
    bench_cuda_free(in->base);
  else
    free(in->base);
  in->base = in->x = NULL;
}

void fill_ones(struct input *in, gpureduce_type_t t) {
  if (in->cuda)
    bench_fill_ones(in->x, in->n, t);
  else
    bench_fill_ones_host(in->x, in->n, t);
}

void fill_random(struct input *in, gpureduce_type_t t) {
  if (in->cuda)
    bench_fill_random(in->x, in->n, t, RANDOM_SEED);
  else
    bench_fill_random_host(in->x, in->n, t, RANDOM_SEED);
}

void *output_alloc(int cuda) {
  return cuda ? bench_cuda_alloc(RESULT_MAX, "output") : xmalloc_aligned(RESULT_MAX);
}

void output_free(int cuda, void *p) {
  if (cuda)
    bench_cuda_free(p);
  else
    free(p);
}

/* ---- the checks of the batched and segmented modes ------------------------- */

size_t pick_checked(size_t count, size_t *rows) {
  size_t c = 0;
  if (count <= CHECK_ALL_MAX) {
    for (size_t b = 0; b < count; ++b) rows[c++] = b;
    return c;
  }
  for (size_t k = 0; k < SAMPLE_EDGE; ++k) rows[c++] = k;
  for (uint64_t k = 0; k < SAMPLE_SPREAD; ++k)
    rows[c++] = SAMPLE_EDGE + (size_t)(k * (uint64_t)(count - 2 * SAMPLE_EDGE) / SAMPLE_SPREAD);
  for (size_t k = 0; k < SAMPLE_EDGE; ++k) rows[c++] = count - SAMPLE_EDGE + k;
  return c;
}

void poison_buffer(int cuda, void *p, size_t bytes) {
  if (cuda)
    bench_cuda_poison(p, bytes);
  else
    memset(p, 0xff, bytes);
}

void copy_picked(int cuda, void *dst, const void *src, size_t rs, const size_t *rows,
                 size_t count) {
  for (size_t k = 0; k < count;) {
    size_t len = 1;
    while (k + len < count && rows[k + len] == rows[k] + len) ++len;
    const unsigned char *from = (const unsigned char *)src + rows[k] * rs;
    unsigned char *to = (unsigned char *)dst + k * rs;
    if (cuda)
      bench_cuda_copy_to_host(to, from, len * rs);
    else
      memcpy(to, from, len * rs);
    k += len;
  }
}

void note_value_check(struct run *run, const char *of, int cub) {
  if (!is_with_value(run->opt)) return;
  add_note(run, "with the value: the index of the plain arg op on %s and the element there, as "
                "MIN/MAX write it%s",
           of, cub ? "; cub's ArgMin/ArgMax return the value too: like for like" : "");
}

/* ---- --blocks ---------------------------------------------------------------- */

void apply_blocks(struct run *run, size_t n) {
  const struct options *o = run->opt;
  if (!run->cuda || !o->blocks) return;
  const gpureduce_status_t s = gpureduce_set_blocks(run->h, o->type, o->op, o->flags, n, o->blocks);
  if (s != GPUREDUCE_SUCCESS) library_failed(run->h, s, "gpureduce_set_blocks");
}

void describe_blocks(struct run *run, size_t n) {
  const struct options *o = run->opt;
  unsigned blocks = 0;
  int tuned = 0;
  if (!run->cuda || gpureduce_get_blocks(run->h, o->type, o->op, o->flags, n, &blocks, &tuned) !=
                        GPUREDUCE_SUCCESS)
    return;
  add_head(run, "gpureduce: %u blocks of %d threads at this n (%s)", blocks,
           GPUREDUCE_ORDER_LANES,
           o->blocks ? "--blocks" : tuned ? "tuned, from the tuning cache" : "the model's default");
}

void append_check(char *buf, size_t size, const char *fmt, ...) {
  const size_t len = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, size - len, fmt, ap);
  va_end(ap);
}
