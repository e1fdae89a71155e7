/*
 * run.h - one run of reduce-bench: the backend (CUDA or host), the
 * library's handle and the clock, the lines the report prints around its
 * table, and what the modes share: the library's call, the CUB call, the
 * input and output buffers, --blocks.
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

#define MAX_NOTES 12

struct run {
  const struct options *opt;
  int cuda;
  struct bench_device_info dev; /* cuda only */
  gpureduce_handle_t h;
  struct clock_src ck;
  const char *mode; /* "ladder", "single" or "sweep" */
  double limit_gbs; /* 0: not measured */
  unsigned limit_grid;
  char head[6][200]; /* lines under the device line */
  int nhead;
  char notes[MAX_NOTES][200];
  int nnotes;
  char summary[2][200]; /* largest step, check verdict */
  int nsummary;
  int wrong;
};

/* Choose the backend (by --backend and the machine), open the device and
 * create the handle; exits 3 without the CUDA device asked for. */
void open_run(struct run *run, const struct options *o);
void close_run(struct run *run);

/* Lines of the report: a note under the table, a line of the header, a
 * line of the summary (beyond their room, dropped). */
void add_note(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
void add_head(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);
void add_summary(struct run *run, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* A wrong result: counted, and its detail on stderr. */
void report_wrong(struct run *run, const char *who, size_t n, const struct verdict *v);

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
/* c without GPUREDUCE_WITH_VALUE: the plain arg op that --with-value is
 * timed and checked against. */
struct reduce_call plain_call(const struct reduce_call *c);

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
/* Every element 1, or random values from a fixed seed (bench_cuda.h). */
void fill_ones(struct input *in, gpureduce_type_t t);
void fill_random(struct input *in, gpureduce_type_t t);
/* RESULT_MAX (16) bytes of output (any result fits) in the backend's
 * memory space. */
void *output_alloc(int cuda);
void output_free(int cuda, void *p);

/* ---- the checks of the batched and segmented modes ---- */

#define CHECK_ALL_MAX 65536 /* every result is checked up to this count */
#define SAMPLE_EDGE 1024    /* beyond it: the first and the last 1024 */
#define SAMPLE_SPREAD 2048  /* and 2048 spread evenly between */
#define SAMPLE_MAX (CHECK_ALL_MAX > 2 * SAMPLE_EDGE + SAMPLE_SPREAD ? CHECK_ALL_MAX \
                                                                    : 2 * SAMPLE_EDGE + SAMPLE_SPREAD)

/*
 * The results checked of a batch of `count` (vectors or segments): all of
 * them when count <= CHECK_ALL_MAX; beyond, the first SAMPLE_EDGE, the
 * last SAMPLE_EDGE and SAMPLE_SPREAD spread evenly between (number
 * SAMPLE_EDGE + floor(k (count - 2 SAMPLE_EDGE) / SAMPLE_SPREAD)),
 * ascending, into rows (room for SAMPLE_MAX).  The same rule is in --help
 * and reduce-bench(1).  Returns how many.
 */
size_t pick_checked(size_t count, size_t *rows);
/* Fill bytes at p (backend memory) with 0xff: a NaN for every float type. */
void poison_buffer(int cuda, void *p, size_t bytes);
/* The results number rows[0 .. count-1] from src (backend memory, rs bytes
 * each) to dst (host, packed), one copy per run of consecutive numbers. */
void copy_picked(int cuda, void *dst, const void *src, size_t rs, const size_t *rows,
                 size_t count);

/* Append printf-style text to the string in buf (size bytes in all), cut
 * to fit: a point's check column, the sweep's result bits. */
void append_check(char *buf, size_t size, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* With --with-value, a note on its check: "with the value: the index of
 * the plain arg op on <of>, ...", and with cub that CUB's ArgMin and
 * ArgMax return the value too (a like-for-like comparison). */
void note_value_check(struct run *run, const char *of, int cub);

/* --blocks: the block count for n's size bucket (nothing else changes). */
void apply_blocks(struct run *run, size_t n);
/* A header line: the blocks gpureduce launches at n and where they come from. */
void describe_blocks(struct run *run, size_t n);

#endif /* REDUCE_BENCH_RUN_H */
