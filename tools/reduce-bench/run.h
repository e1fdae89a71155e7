/*
 * run.h - one run of reduce-bench: the backend (CUDA or host), the
 * library's handle and the clock, the lines the report prints around its
 * table, and what the modes share: the library's call, the CUB call, the
 * input and output buffers.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#ifndef REDUCE_BENCH_RUN_H
#define REDUCE_BENCH_RUN_H

#include <stddef.h>

#include "gpureduce.h"

#include "bench.h"
#include "bench_cuda.h"
#include "timing.h"

struct options;
struct verdict;

#define MAX_LINES 12
#define RUN_LINE 400 /* bytes of one head, note or summary line */

struct run {
  const struct options *opt;
  int cuda;
  struct bench_device_info dev; /* cuda only */
  gpureduce_handle_t h;
  struct clock_src ck;
  double limit_gbs; /* 0: not measured */
  unsigned limit_grid;
  char head[MAX_LINES][RUN_LINE]; /* lines under the device line */
  char notes[MAX_LINES][RUN_LINE];
  char summary[2][RUN_LINE]; /* largest step, check verdict */
  int nhead, nnotes, nsummary;
  int wrong;
};

/* Choose the backend (by --backend and the machine), open the device and
 * create the handle; exits 3 without the CUDA device asked for.  tune: a
 * CUDA device is needed. */
void open_run(struct run *run, const struct options *o, int tune);
void close_run(struct run *run);

/* Lines of the report: a line of the header, a note under the table (one
 * that is there already is not added again), a line of the summary;
 * beyond their room, dropped. */
void add_head(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
void add_note(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
void add_summary(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* The summary's check line: all right, WRONG, or not done. */
void summarize_check(struct run *run);

/* A wrong result: counted, and its detail on stderr. */
void report_wrong(struct run *run, const char *who, size_t n, const struct verdict *v);
/* A failed first call of a shape: counted, its status and the library's
 * message on stderr (the run goes on). */
void report_failed(struct run *run, const char *who, const char *what, gpureduce_status_t s);

/* A failed library call: its status and message on stderr, exit 3 for
 * GPUREDUCE_ERROR_NO_DEVICE, else 1. */
_Noreturn void library_failed(gpureduce_handle_t h, gpureduce_status_t s, const char *what);

struct reduce_call {
  const void *in;
  void *out;
  size_t n;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  gpureduce_handle_t h;
};

/* The library's production path: gpureduce_sum_f32 for the f32 sum,
 * gpureduce_reduce otherwise (a call_fn). */
void run_reduce(void *arg);
/* Run the library once into a poisoned output and copy the result (room
 * for RESULT_MAX bytes at bits). */
void library_result(const struct reduce_call *c, int cuda, void *bits);

/* --with-value's checks: result (RESULT_MAX bytes, host memory) holds at
 * byte 0 the plain arg op's index into the vector of n elements whose
 * first is at first (backend memory, elements stride bytes apart; n == 0:
 * an empty segment, result not read).  The element there is copied back,
 * and result becomes what GPUREDUCE_WITH_VALUE must give (checks.h's
 * value_result_of).  An index outside the vector is fatal (exit 1). */
void value_result_from_plain(int cuda, gpureduce_type_t t, gpureduce_op_t op, const void *first,
                             size_t n, size_t stride, unsigned char *result);

struct cub_call {
  struct bench_cub *cub;
  const void *in;
  size_t n;
};

/* One CUB reduction (a call_fn). */
void run_cub(void *arg);

/* An input of n elements, offset elements into its allocation. */
struct input {
  void *base;
  void *x; /* base + offset elements */
  size_t n;
  int cuda;
};

struct input input_alloc(int cuda, gpureduce_type_t t, size_t n, size_t offset, const char *what);
void input_free(struct input *in);
/* Every element 1, or random values from a seed (bench_cuda.h). */
void fill_ones(struct input *in, gpureduce_type_t t);
void fill_random(struct input *in, gpureduce_type_t t, uint64_t seed);
#define RANDOM_SEED 0x2545f4914f6cdd1dull
/* Bytes of the backend's memory; NULL is a no-op for backend_free. */
void *backend_alloc(int cuda, size_t bytes, const char *what);
void backend_free(int cuda, void *p);
/* Fill bytes at p (backend memory) with 0xff: a NaN for every float type. */
void poison_buffer(int cuda, void *p, size_t bytes);

/* Append printf-style text to the string in buf (size bytes in all), cut
 * to fit. */
void append_text(char *buf, size_t size, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* With --with-value, a note on its check: "with the value: the index of
 * the plain arg op on <of>, ...", and with cub that CUB's ArgMin and
 * ArgMax return the value too (a like-for-like comparison). */
void note_value_check(struct run *run, const char *of, int cub);

/* The notes on the probe (CUDA; the host backend: no CUB and no probe)
 * and, where a mode has no CUB call, why. */
void note_probe(struct run *run);
void note_no_cub(struct run *run);

/* The CUDA sweeps: how many of sizes[0 .. count-1] (ascending, elements)
 * fit, with offset elements before them, in FREE_ROOM of the device's free
 * memory at element_bytes each: at least 1; on the host backend all. */
#define FREE_ROOM 0.8
int sizes_that_fit(const struct run *run, size_t element_bytes, size_t offset,
                   const size_t *sizes, int count);

/* A header line: the blocks gpureduce launches at n and where they come
 * from (the model or the tuning cache). */
void describe_blocks(struct run *run, size_t n);

#endif /* REDUCE_BENCH_RUN_H */
