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
#include "report.h"
#include "run.h"

/* ---- the run ------------------------------------------------------------------ */

/* CUDA or host, by --backend and what the machine has. */
static int choose_cuda(const struct options *o, int tune) {
  char why[200] = "";
  if (o->backend == BACKEND_HOST) return 0;
  const int count = bench_cuda_device_count(why, sizeof why);
  if (count == 0 && tune) fatal(EXIT_NO_DEVICE, "--tune: no CUDA device (%s)", why);
  if (count == 0 && o->device_given)
    fatal(EXIT_NO_DEVICE, "--device %d: no CUDA device (%s)", o->device, why);
  if (count == 0 && o->backend == BACKEND_AUTO) {
    message("no CUDA device (%s); running the host backend", why);
    return 0;
  }
  if (count == 0) fatal(EXIT_NO_DEVICE, "--backend cuda: no CUDA device (%s)", why);
  if (o->device >= count)
    fatal(EXIT_NO_DEVICE, "--device %d: this machine has %d CUDA device(s)", o->device, count);
  return 1;
}

void open_run(struct run *run, const struct options *o, int tune) {
  memset(run, 0, sizeof *run);
  run->opt = o;
  run->cuda = choose_cuda(o, tune);
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

/* A line into lines[*count] (room for max), unless it is there already; one
 * too long for RUN_LINE is cut, its newline kept. */
static void add_line(char (*lines)[RUN_LINE], int *count, int max, const char *fmt, va_list ap) {
  char line[RUN_LINE];
  if (vsnprintf(line, sizeof line, fmt, ap) >= (int)sizeof line) line[sizeof line - 2] = '\n';
  for (int i = 0; i < *count; ++i)
    if (strcmp(lines[i], line) == 0) return;
  if (*count < max) memcpy(lines[(*count)++], line, sizeof line);
}

void add_head(struct run *run, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(run->head, &run->nhead, MAX_LINES, fmt, ap);
  va_end(ap);
}

void add_note(struct run *run, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(run->notes, &run->nnotes, MAX_LINES, fmt, ap);
  va_end(ap);
}

void add_summary(struct run *run, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_line(run->summary, &run->nsummary, 2, fmt, ap);
  va_end(ap);
}

void summarize_check(struct run *run) {
  if (!run->opt->check)
    add_summary(run, "check: not done (--no-check)");
  else
    add_summary(run, "check: %s",
                run->wrong ? "WRONG or failed results (details on stderr)" : "all right");
}

void report_wrong(struct run *run, const char *who, size_t n, const struct verdict *v) {
  ++run->wrong;
  message("WRONG: %s, n = %zu: %s", who, n, v->detail);
}

void report_failed(struct run *run, const char *who, const char *what, gpureduce_status_t s) {
  const char *msg = gpureduce_last_message(run->h);
  const char *name = gpureduce_status_name(s);
  ++run->wrong;
  message("%s failed (%s): %s (%s)%s%s", who, what, name ? name : "unknown status",
          gpureduce_status_string(s), *msg ? ": " : "", msg);
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
  in.base = backend_alloc(cuda, (n + offset) * es, what);
  in.x = (char *)in.base + offset * es;
  return in;
}

void input_free(struct input *in) {
  backend_free(in->cuda, in->base);
  in->base = in->x = NULL;
}

void fill_ones(struct input *in, gpureduce_type_t t) {
  if (in->cuda)
    bench_fill_ones(in->x, in->n, t);
  else
    bench_fill_ones_host(in->x, in->n, t);
}

void fill_random(struct input *in, gpureduce_type_t t, uint64_t seed) {
  if (in->cuda)
    bench_fill_random(in->x, in->n, t, seed);
  else
    bench_fill_random_host(in->x, in->n, t, seed);
}

void *backend_alloc(int cuda, size_t bytes, const char *what) {
  return cuda ? bench_cuda_alloc(bytes, what) : xmalloc_aligned(bytes);
}

void backend_free(int cuda, void *p) {
  if (cuda)
    bench_cuda_free(p);
  else
    free(p);
}

void poison_buffer(int cuda, void *p, size_t bytes) {
  if (cuda)
    bench_cuda_poison(p, bytes);
  else
    memset(p, 0xff, bytes);
}

void append_text(char *buf, size_t size, const char *fmt, ...) {
  const size_t len = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, size - len, fmt, ap);
  va_end(ap);
}

void note_value_check(struct run *run, const char *of, int cub) {
  if (!is_with_value(run->opt) || !run->opt->check) return;
  add_note(run, "with the value: the index of the plain arg op on %s and the element there, as "
                "MIN/MAX write it%s",
           of, cub ? "; cub's ArgMin/ArgMax return the value too: like for like" : "");
}

void note_probe(struct run *run) {
  if (run->cuda)
    add_note(run, "probe: read-only, fastest grid of SMs x {1,2,4,8,16} blocks of %d; gr/probe, "
                  "gr/cub > 1: gpureduce faster",
             BENCH_BLOCK);
  else
    add_note(run, "host backend: no CUB and no probe");
}

void note_no_cub(struct run *run) {
  if (!run->cuda) return;
  char what[64];
  if (bench_cub_built())
    add_note(run, "cub: no CUB call computes %s", call_text(run->opt->type, op_text(run->opt),
                                                            run->opt->flags, what, sizeof what));
  else
    add_note(run, "cub: not built (configure found no CUB)");
}

int sizes_that_fit(const struct run *run, size_t element_bytes, size_t offset,
                   const size_t *sizes, int count) {
  const double room = FREE_ROOM * (double)run->dev.free_bytes;
  int kept = count;
  if (!run->cuda) return count;
  while (kept > 1 && (double)(sizes[kept - 1] + offset) * element_bytes > room) --kept;
  return kept;
}

void describe_blocks(struct run *run, size_t n) {
  const struct options *o = run->opt;
  unsigned blocks = 0;
  int tuned = 0;
  if (!run->cuda || gpureduce_get_blocks(run->h, o->type, o->op, o->flags, n, &blocks, &tuned) !=
                        GPUREDUCE_SUCCESS)
    return;
  add_head(run, "gpureduce: %u blocks of %d threads at this n (%s)", blocks,
           GPUREDUCE_ORDER_LANES, tuned ? "tuned, from the tuning cache" : "the model's default");
}
