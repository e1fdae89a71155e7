/*
 * batched.c - the tests of gpureduce_reduce_batched() both backends must
 * pass (batched.h).
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include "batched.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

/* ---- the backend and its buffers ------------------------------------------ */

static const struct tu_backend *B;
static gpureduce_handle_t HH; /* battery_host_handle(): NULL on the host backend */

/* backend memory: the input buffer, the batched results, the vectors'
 * contiguous copies and their 1-D results */
static struct bt_room in_mem, out_mem, copy_mem, one_mem;
/* host memory: the input buffer's image, the copies, the results */
static struct bt_room image = {.host = 1}, copies = {.host = 1}, got = {.host = 1},
                   want = {.host = 1}, host_got = {.host = 1};

#define PAD 256      /* poison bytes before the lowest element and after the highest */
#define CANARY 64    /* bytes after the batch's results */
#define OUT_FILL 0xC3

void batched_use(const struct tu_backend *backend) {
  B = backend;
  battery_use(backend);
}

int batched_setup(void **state) {
  if (battery_setup(state)) return -1;
  HH = battery_host_handle();
  return 0;
}

int batched_teardown(void **state) {
  struct bt_room *rooms[] = {&in_mem, &out_mem, &copy_mem, &one_mem, &image,
                          &copies, &got,     &want,     &host_got};
  for (size_t k = 0; k < COUNT(rooms); ++k) bt_room_free(rooms[k]);
  HH = NULL; /* battery_teardown destroys it */
  return battery_teardown(state);
}

/* ---- layouts and data ------------------------------------------------------- */

static const char *const layout_names[BB_LAYOUTS] = {
    "dense rows",    "padded rows",          "misaligned rows (ld = n + 1)",
    "columns",       "zero batch_stride",    "zero element_stride",
    "rows, negative batch_stride", "reversed rows (element_stride -1)",
    "both strides negative",       "columns, both strides negative",
    "a matrix's columns (element_stride batch)", "columns of 16-byte aligned rows"};

struct bb_shape bb_layout(enum bb_layout layout, gpureduce_type_t type, size_t batch, size_t n,
                          size_t offset) {
  const int64_t v = tu_chunk_elems(type), nn = (int64_t)n, ld = (int64_t)batch + 3;
  struct bb_shape s = {batch, n, nn, 1, offset, layout_names[layout]};
  switch (layout) {
    case BB_DENSE: break;
    case BB_PADDED: s.batch_stride = (nn + v - 1) / v * v + v; break;
    case BB_MISALIGNED: s.batch_stride = nn + 1; break;
    case BB_COLUMNS:
      s.batch_stride = 1;
      s.element_stride = ld;
      break;
    case BB_ZERO_BATCH: s.batch_stride = 0; break;
    case BB_ZERO_ELEMENT:
      s.batch_stride = 1;
      s.element_stride = 0;
      break;
    case BB_NEGATIVE_BATCH: s.batch_stride = -(nn + 2); break;
    case BB_NEGATIVE_ELEMENT: s.element_stride = -1; break;
    case BB_BOTH_NEGATIVE:
      s.batch_stride = -(nn + 1);
      s.element_stride = -1;
      break;
    case BB_NEGATIVE_COLUMNS:
      s.batch_stride = -1;
      s.element_stride = -ld;
      break;
    case BB_MATRIX_COLUMNS:
      s.batch_stride = 1;
      s.element_stride = (int64_t)batch;
      break;
    case BB_ALIGNED_COLUMNS:
      s.batch_stride = 1;
      s.element_stride = ((int64_t)batch + v - 1) / v * v + v;
      break;
    default: break;
  }
  return s;
}

uint64_t bb_random_value(void *ctx, size_t b, size_t i) {
  (void)b;
  (void)i;
  struct bb_random *r = ctx;
  uint64_t v = 0;
  tc_fill(&r->rng, r->type, r->gen, &v, 1);
  return v;
}


/* ---- one batched call, checked ------------------------------------------- */

/* The last bb_check's results (host copy), for hand-written answers. */
static bt_result result_of(size_t b, size_t rs) { return bt_result_at(got.p, b, rs); }

void bb_check(const struct bb_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
              unsigned flags, const struct bb_data *data, uint64_t poison) {
  const unsigned es = TU_TYPE(type)->size;
  const size_t rs = tu_result_size(type, op, flags), batch = sh->batch, n = sh->n;
  const int64_t bs = sh->batch_stride, st = sh->element_stride;
  char what[400];
  snprintf(what, sizeof what,
           "%s, batch %zu x n %zu, %s (batch_stride %" PRId64 ", element_stride %" PRId64
           "), lowest element %zu past an aligned address, %s",
           bt_kind_name(type, op, flags), batch, n, sh->layout, bs, st, sh->offset, data->what);

  /* The span from the lowest to the highest element, in elements from
   * vector 0's element 0. */
  int64_t lo = 0, hi = 0;
  if (batch && n) {
    const int64_t lv = (int64_t)(batch - 1) * bs, le = (int64_t)(n - 1) * st;
    lo = (lv < 0 ? lv : 0) + (le < 0 ? le : 0);
    hi = (lv > 0 ? lv : 0) + (le > 0 ? le : 0);
  }
  const size_t span = batch && n ? (size_t)(hi - lo + 1) : 0;
  const size_t lead = PAD + sh->offset * es, total = lead + span * es + PAD;
  const size_t first = lead / es + (size_t)-lo; /* element 0 of vector 0, in elements */
#define AT(b, i) (first + (size_t)((int64_t)(b) * bs + (int64_t)(i) * st))

  /* The image: poison, the vectors' elements in (b, i) order (where
   * strides alias, the last one written is what every vector sees), and
   * the vectors as they are in memory, copied one after the other. */
  unsigned char *img = bt_room_for(&image, total);
  for (size_t k = 0; k < total / es; ++k) tu_store(img, k, es, poison);
  for (size_t b = 0; b < batch; ++b)
    for (size_t i = 0; i < n; ++i) tu_store(img, AT(b, i), es, data->value(data->ctx, b, i));
  unsigned char *vec = bt_room_for(&copies, batch * n * es);
  for (size_t b = 0; b < batch; ++b)
    for (size_t i = 0; i < n; ++i) tu_store(vec, b * n + i, es, tu_load(img, AT(b, i), es));

  /* The batched call. */
  unsigned char *d_in = bt_room_for(&in_mem, total);
  B->put(d_in, img, total);
  const size_t out_bytes = batch * rs + CANARY;
  unsigned char *d_out = bt_room_for(&out_mem, out_bytes), *res = bt_room_for(&got, out_bytes);
  memset(res, OUT_FILL, out_bytes);
  B->put(d_out, res, out_bytes);
  const gpureduce_status_t s = gpureduce_reduce_batched(
      d_in + first * es, d_out, batch, n, bs, st, type, op, flags, battery_handle());
  B->get(res, d_out, out_bytes);
  check_bytes(res + batch * rs, OUT_FILL, CANARY, "%s: the canary after the results survives",
              what);
  if (n == 0 && bt_empty_is_error(op)) {
    check_status(GPUREDUCE_ERROR_EMPTY_INPUT, s, "%s: status", what);
    check_bytes(res, OUT_FILL, batch * rs, "%s: the output is untouched", what);
    return;
  }
  check_status(GPUREDUCE_SUCCESS, s, "%s: status (%s)", what,
               gpureduce_last_message(battery_handle()));

  /* gpureduce_reduce() on each vector's contiguous copy, same handle. */
  unsigned char *d_vec = bt_room_for(&copy_mem, batch * n * es);
  unsigned char *d_one = bt_room_for(&one_mem, batch * rs), *one = bt_room_for(&want, batch * rs);
  if (batch > 0 && n > 0) B->put(d_vec, vec, batch * n * es);
  for (size_t b = 0; b < batch; ++b) {
    const gpureduce_status_t s1 = gpureduce_reduce(d_vec + b * n * es, d_one + b * rs, n, type,
                                                   op, flags, battery_handle());
    if (s1 != GPUREDUCE_SUCCESS)
      check_status(GPUREDUCE_SUCCESS, s1, "%s: gpureduce_reduce() of vector %zu's copy", what, b);
  }
  B->get(one, d_one, batch * rs);
  for (size_t b = 0; b < batch; ++b)
    check_result(bt_result_at(one, b, rs), result_of(b, rs), rs,
                 "%s: result %zu has the bits of gpureduce_reduce() on a copy of vector %zu",
                 what, b, b);

  /* The host backend's batched results on the image. */
  if (HH) {
    unsigned char *hr = bt_room_for(&host_got, batch * rs);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce_batched(img + first * es, hr, batch, n, bs, st, type, op,
                                          flags, HH),
                 "%s: status of the host backend's batched call", what);
    for (size_t b = 0; b < batch; ++b)
      check_result(bt_result_at(hr, b, rs), result_of(b, rs), rs,
                   "%s: result %zu has the bits of the host backend's", what, b);
  }

  /* The reference: every vector of small batches, a sample of large ones. */
  const size_t sample[] = {0, 1, batch / 2, batch - 2, batch - 1};
  const size_t checks = batch <= 3 ? batch : COUNT(sample);
  for (size_t k = 0; k < checks; ++k) {
    const size_t b = batch <= 3 ? k : sample[k];
    if (b >= batch) continue;
    char row[480];
    snprintf(row, sizeof row, "%s: result %zu against the reference", what, b);
    bt_check_reference(vec + b * n * es, n, type, op, flags, result_of(b, rs), row);
  }
#undef AT
}

/* ---- the kinds and their data ------------------------------------------------ */

/* Every (type, op, flags) with a result, in order: *k is the state (start
 * at 0); 0 when there is none left. */
static int next_kind(int *k, gpureduce_type_t *type, gpureduce_op_t *op, unsigned *flags) {
  for (; *k < GPUREDUCE_TYPE_COUNT * GPUREDUCE_OP_COUNT * TU_FLAG_VALUES; ++*k) {
    *type = (gpureduce_type_t)(*k / (GPUREDUCE_OP_COUNT * TU_FLAG_VALUES));
    *op = (gpureduce_op_t)(*k / TU_FLAG_VALUES % GPUREDUCE_OP_COUNT);
    *flags = tu_flag_values[*k % TU_FLAG_VALUES];
    if (tu_result_size(*type, *op, *flags)) {
      ++*k;
      return 1;
    }
  }
  return 0;
}

/* The generator of random data for op, leaving room for its poison:
 * wide values for the sums, factors of a finite product, values inside
 * the type's range for MIN, MAX, ARGMIN and ARGMAX. */
static enum tc_gen gen_for(gpureduce_op_t op) {
  if (op == GPUREDUCE_PROD) return G_FACTORS;
  return tu_is_sum_like(op) ? G_WIDE : G_INNER;
}

static const char *gen_name(enum tc_gen g) {
  return g == G_FACTORS ? "factors of a finite product"
         : g == G_WIDE  ? "wide random values"
                        : "random values inside the type's range";
}

void bb_check_random(const struct bb_shape *sh, gpureduce_type_t type, gpureduce_op_t op,
                         unsigned flags, const char *label) {
  struct bb_random r = {.type = type, .gen = gen_for(op)};
  char stream[160];
  snprintf(stream, sizeof stream, "%s %s %zu %zu %" PRId64 " %" PRId64 " %zu", label,
           bt_kind_name(type, op, flags), sh->batch, sh->n, sh->batch_stride, sh->element_stride,
           sh->offset);
  tu_rng_init(&r.rng, stream);
  const struct bb_data data = {bb_random_value, &r, gen_name(r.gen)};
  bb_check(sh, type, op, flags, &data, bt_poison(type, op));
}

/* ---- tests: shapes ------------------------------------------------------------ */

/* Every length of lengths[] in every layouts[k] with batches[k] vectors. */
static void check_lengths(gpureduce_type_t type, gpureduce_op_t op, unsigned flags,
                          const size_t *lengths, size_t count, const enum bb_layout *layouts,
                          const size_t *batches, size_t layout_count, const char *label) {
  for (size_t li = 0; li < count; ++li)
    for (size_t k = 0; k < layout_count; ++k) {
      const struct bb_shape sh = bb_layout(layouts[k], type, batches[k], lengths[li], 0);
      bb_check_random(&sh, type, op, flags, label);
    }
}

void bb_row_lengths(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (next_kind(&k, &type, &op, &flags)) {
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    /* around every chunk, warp, lane and tile boundary */
    const size_t shorts[] = {1, 2, v - 1, v, v + 1, 31, 32, 33, 255, 256, 257};
    const size_t batches[] = {1, 2, 3, 133};
    const enum bb_layout layouts[] = {BB_DENSE, BB_PADDED, BB_MISALIGNED, BB_DENSE};
    check_lengths(type, op, flags, shorts, COUNT(shorts), layouts, batches, COUNT(layouts),
                  "batched rows");
    /* 32, 64 and 128 chunks and one element more, 256 chunks and one
     * element less: where the CUDA backend's vectors of one lane round
     * change how many lanes a thread holds (J = 1, 2, 4, 8), as rows and
     * as columns, whose threads of a vector sit in a warp or in shared
     * memory; and 15 and 16, 31 and 63 chunks, where some operations'
     * rows take more lanes a thread than one round needs (16-bit MIN and
     * MAX J = 4 from 16 chunks, LOGSUMEXP J = 8 from 32, the arg ops J = 8
     * from 64) */
    const size_t lanes[] = {15 * v,     16 * v,      31 * v,  32 * v,
                            32 * v + 1, 63 * v,      64 * v,  64 * v + 1,
                            128 * v,    128 * v + 1, 256 * v, 256 * v - 1};
    const size_t lane_batches[] = {5, 133, 37};
    const enum bb_layout lane_layouts[] = {BB_DENSE, BB_MISALIGNED, BB_COLUMNS};
    check_lengths(type, op, flags, lanes, COUNT(lanes), lane_layouts, lane_batches,
                  COUNT(lane_layouts), "lanes a thread");
    const size_t longs[] = {te - 1, te, te + 1, 3 * te + 5};
    for (size_t li = 0; li < COUNT(longs); ++li) {
      const struct bb_shape sh =
          bb_layout(li % 2 ? BB_MISALIGNED : BB_DENSE, type, li < 3 ? 3 : 2, longs[li], 0);
      bb_check_random(&sh, type, op, flags, "batched rows");
    }
  }
}

void bb_many_tiles(void **state) {
  (void)state;
  static const struct bb_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},        {GPUREDUCE_F32, GPUREDUCE_SUM, 1},
      {GPUREDUCE_F16, GPUREDUCE_SUM, 0},        {GPUREDUCE_BF16, GPUREDUCE_SUM_SQUARES, 0},
      {GPUREDUCE_F64, GPUREDUCE_SUM_ABS, 0},    {GPUREDUCE_F32, GPUREDUCE_PROD, 0},
      {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},     {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
      {GPUREDUCE_I8, GPUREDUCE_MIN, 0},         {GPUREDUCE_I64, GPUREDUCE_SUM_SQUARES, 0},
  };
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const size_t te = tu_tile_elems(kinds[k].type);
    /* 17 tiles (2^17 + 7 floats), and 9 tiles less one element */
    struct bb_shape sh = bb_layout(BB_MISALIGNED, kinds[k].type, 2, 16 * te + 7, 0);
    bb_check_random(&sh, kinds[k].type, kinds[k].op, kinds[k].flags, "many tiles");
    sh = bb_layout(BB_COLUMNS, kinds[k].type, 3, 9 * te - 1, 0);
    bb_check_random(&sh, kinds[k].type, kinds[k].op, kinds[k].flags, "many tiles");
  }
}

/* Long columns (more than 256 chunks), where the CUDA backend's columns
 * kernel loads 16-byte pieces of the matrix shared by V neighbouring
 * columns (aligned rows, at least V columns) or by all C < V columns (a
 * matrix of C = 2, 4 or 8 contiguous columns), and gathers its own
 * column's elements otherwise (odd C, misaligned rows or pointer): the
 * column counts around V, the pieces' edges and a block's 32, 64 or 128
 * columns, tiles whose lanes hold 2, 4 or 8 chunks, and one or several
 * tile groups. */
void bb_column_pieces(void **state) {
  (void)state;
  static const struct bb_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},        {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},
      {GPUREDUCE_F32, GPUREDUCE_MIN, 0},
      {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
      {GPUREDUCE_BF16, GPUREDUCE_SUM, 0},       {GPUREDUCE_F16, GPUREDUCE_MAX, 0},
      {GPUREDUCE_F64, GPUREDUCE_SUM, 0},        {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
      {GPUREDUCE_I8, GPUREDUCE_ARGMIN, 0},      {GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, 0},
      {GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0},   {GPUREDUCE_I32, GPUREDUCE_AMAX, 0},
  };
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    const size_t batches[] = {2, 3, 4, 8, v + 1, 2 * v, 33, 70, 130};
    const size_t lengths[] = {256 * v + 1, 1000 * v + 3, te - 1, 2 * te + 5};
    for (size_t bi = 0; bi < COUNT(batches); ++bi)
      for (size_t li = 0; li < COUNT(lengths); ++li) {
        const size_t batch = batches[bi], n = lengths[li];
        if (batch * n > ((size_t)1 << 20)) continue;
        const struct bb_shape shapes[] = {
            bb_layout(BB_MATRIX_COLUMNS, type, batch, n, 0),
            bb_layout(BB_ALIGNED_COLUMNS, type, batch, n, 0),
            bb_layout(BB_MATRIX_COLUMNS, type, batch, n, 1)};
        for (size_t si = 0; si < COUNT(shapes); ++si)
          bb_check_random(&shapes[si], type, kinds[k].op, kinds[k].flags, "column pieces");
      }
  }
}

/* Short columns of a matrix with many columns, where the CUDA backend
 * gives each thread V neighbouring columns and reads 16-byte pieces of
 * their rows (batched_short_columns_kernel: rows on 16-byte boundaries,
 * 2- to 8-byte types, enough columns to fill the GPU, which V 2^17
 * columns are up to 256 multiprocessors, and the lengths where
 * dispatch/batched.cu's short_columns_faster chooses it: one chunk; 16-bit
 * types but for the arg ops; 32 chunks and more for wider types).  One
 * chunk (no lane tree), lanes of whole and partial chunks, lane trees of
 * 2, 4, 17 and 33 chunks (the last two with empty lanes), and a last
 * group of 3 columns.  The host backend, which has no such regime, checks the same
 * lengths over 2V + 3 columns. */
void bb_short_columns(void **state) {
  (void)state;
  static const struct bb_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},       {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},
      {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
      {GPUREDUCE_BF16, GPUREDUCE_SUM, 0},      {GPUREDUCE_BF16, GPUREDUCE_ARGMAX, 0},
      {GPUREDUCE_F16, GPUREDUCE_MAX, 0},       {GPUREDUCE_F64, GPUREDUCE_MEAN_VAR, 0},
      {GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, 0},
      {GPUREDUCE_F32, GPUREDUCE_LOGSUMEXP, GPUREDUCE_SOFTMAX_STATS},
      {GPUREDUCE_I32, GPUREDUCE_AMAX, 0},      {GPUREDUCE_I64, GPUREDUCE_MIN, 0},
  };
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const gpureduce_type_t type = kinds[k].type;
    const gpureduce_op_t op = kinds[k].op;
    /* on the host backend, where no kernel depends on the column count,
     * the same lengths over 2V + 3 columns */
    const size_t v = tu_chunk_elems(type), whole = HH ? v << 17 : 2 * v, batch = whole + 3;
    const int arg = op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX;
    const size_t narrow[] = {v + 1, 3 * v + 1, 16 * v + 3}, wide[] = {32 * v + 1};
    struct bb_shape sh = bb_layout(BB_ALIGNED_COLUMNS, type, batch, 2, 0);
    bb_check_random(&sh, type, op, kinds[k].flags, "short columns");
    if (op == GPUREDUCE_SUM && kinds[k].flags == 0) { /* a whole matrix of one chunk */
      sh = bb_layout(BB_MATRIX_COLUMNS, type, whole, v, 0);
      bb_check_random(&sh, type, op, kinds[k].flags, "short columns");
    }
    if (TU_TYPE(type)->size == 2 && !arg)
      for (size_t i = 0; i < COUNT(narrow); ++i) {
        sh = bb_layout(BB_ALIGNED_COLUMNS, type, batch, narrow[i], 0);
        bb_check_random(&sh, type, op, kinds[k].flags, "short columns");
      }
    if (kinds[k].flags == 0 && (type == GPUREDUCE_F32 || type == GPUREDUCE_F64))
      for (size_t i = 0; i < COUNT(wide); ++i) {
        sh = bb_layout(BB_ALIGNED_COLUMNS, type, batch, wide[i], 0);
        bb_check_random(&sh, type, op, kinds[k].flags, "short columns");
      }
  }
}

void bb_large_batch(void **state) {
  (void)state;
  static const struct bb_kind kinds[] = {
      {GPUREDUCE_F32, GPUREDUCE_SUM, 0},  {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0},
      {GPUREDUCE_F16, GPUREDUCE_SUM, 0},  {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
      {GPUREDUCE_I32, GPUREDUCE_MIN, 0},  {GPUREDUCE_F64, GPUREDUCE_SUM_SQUARES, 0},
      {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
      {GPUREDUCE_BF16, GPUREDUCE_ARGMIN, 0},
  };
  static const enum bb_layout layouts[COUNT(kinds)] = {
      BB_DENSE, BB_MISALIGNED, BB_COLUMNS, BB_DENSE, BB_COLUMNS, BB_PADDED, BB_BOTH_NEGATIVE,
      BB_NEGATIVE_BATCH};
  for (size_t k = 0; k < COUNT(kinds); ++k) {
    const struct bb_shape sh = bb_layout(layouts[k], kinds[k].type, 100000, 4, 0);
    bb_check_random(&sh, kinds[k].type, kinds[k].op, kinds[k].flags, "large batch");
  }
}

/* The kinds of the layout tests: every type's sum and argmax, and one of
 * each other operation. */
static const struct bb_kind layout_kinds[] = {
    {GPUREDUCE_F16, GPUREDUCE_SUM, 0},  {GPUREDUCE_BF16, GPUREDUCE_SUM, 0},
    {GPUREDUCE_F32, GPUREDUCE_SUM, 0},  {GPUREDUCE_F64, GPUREDUCE_SUM, 0},
    {GPUREDUCE_I8, GPUREDUCE_SUM, 0},   {GPUREDUCE_U8, GPUREDUCE_SUM, 0},
    {GPUREDUCE_I32, GPUREDUCE_SUM, 0},  {GPUREDUCE_U32, GPUREDUCE_SUM, 0},
    {GPUREDUCE_I64, GPUREDUCE_SUM, 0},  {GPUREDUCE_U64, GPUREDUCE_SUM, 0},
    {GPUREDUCE_F16, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_BF16, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_F64, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_I8, GPUREDUCE_ARGMAX, 0},  {GPUREDUCE_U8, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_I32, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_U32, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_I64, GPUREDUCE_ARGMAX, 0}, {GPUREDUCE_U64, GPUREDUCE_ARGMAX, 0},
    {GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64},
    {GPUREDUCE_F32, GPUREDUCE_SUM_SQUARES, 0}, {GPUREDUCE_F16, GPUREDUCE_PROD, 0},
    {GPUREDUCE_BF16, GPUREDUCE_MIN, 0},        {GPUREDUCE_I64, GPUREDUCE_MIN, 0},
    {GPUREDUCE_F64, GPUREDUCE_ARGMIN, 0},      {GPUREDUCE_U8, GPUREDUCE_SUM_ABS, 0},
    {GPUREDUCE_I8, GPUREDUCE_MAX, 0},
};

void bb_layouts(void **state) {
  (void)state;
  for (size_t k = 0; k < COUNT(layout_kinds); ++k) {
    const gpureduce_type_t type = layout_kinds[k].type;
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    const size_t shapes[][2] = {{1, 3}, {3, v + 1}, {133, 33}, {4, 257}, {3, te + 3}};
    for (int l = 0; l < BB_LAYOUTS; ++l)
      for (size_t si = 0; si < COUNT(shapes); ++si) {
        /* (te + 3 copies of one factor near 1 underflow a float product,
         * where the reference's error bound does not hold) */
        if (l == BB_ZERO_ELEMENT && layout_kinds[k].op == GPUREDUCE_PROD && shapes[si][1] > 257)
          continue;
        const struct bb_shape sh =
            bb_layout((enum bb_layout)l, type, shapes[si][0], shapes[si][1], (size_t)l % v);
        bb_check_random(&sh, type, layout_kinds[k].op, layout_kinds[k].flags, "layouts");
      }
  }
}

void bb_pointer_offsets(void **state) {
  (void)state;
  for (size_t k = 0; k < COUNT(layout_kinds); ++k) {
    const gpureduce_type_t type = layout_kinds[k].type;
    const size_t v = tu_chunk_elems(type), te = tu_tile_elems(type);
    /* 1 .. 15 bytes past a 16-byte boundary, in whole elements */
    for (size_t off = 1; off < v; ++off) {
      const struct bb_shape shapes[] = {bb_layout(BB_DENSE, type, 3, te / 2 + 5, off),
                                        bb_layout(BB_MISALIGNED, type, 5, 100, off),
                                        bb_layout(BB_COLUMNS, type, 7, 9, off)};
      for (size_t si = 0; si < COUNT(shapes); ++si)
        bb_check_random(&shapes[si], type, layout_kinds[k].op, layout_kinds[k].flags, "offsets");
    }
  }
}

/* ---- tests: special values per vector ------------------------------------ */

/*
 * Vector b of n >= 5 elements follows pattern b % 8 over values in [1, 2)
 * (floats) or in 10 .. 99 (integers):
 *   0  those values alone;
 *   1  a NaN at position p;
 *   2  NaNs at p and q (p < q);
 *   3  -0 everywhere;
 *   4  -0 and +0 alternating, -0 first;
 *   5  +inf at p;
 *   6  -inf at p and +inf at q;
 *   7  ties: the smallest value (0.5, or 3) at p and q, the largest (4, or
 *      120) at p + 1 and q + 1;
 * with p = (3b + 1) % (n/2 - 1) and q = n/2 + b % (n - n/2 - 1), so that
 * p + 1 < q and q + 1 < n.  Integers
 * take patterns 0 and 7 only (0 for the others).
 */
struct special {
  gpureduce_type_t type;
  size_t n;
  tu_rng rng;
};

static uint64_t special_value(void *ctx, size_t b, size_t i) {
  struct special *s = ctx;
  return bt_special_element(s->type, b, s->n, i, &s->rng);
}

/* NaNs, signed zeros, infinities and two finite values (integers: three
 * values) picked by a hash of (b, i), so that NaNs, ties and signed zeros
 * meet inside one 16-byte chunk: for vectors of 2, 4 and 8 elements,
 * which the CUDA backend takes V/n to a chunk from one tree over its
 * positions (MIN, MAX, ARGMIN, ARGMAX). */
static uint64_t mixed_value(void *ctx, size_t b, size_t i) {
  const struct special *s = ctx;
  const unsigned h =
      (unsigned)(((b * 0x9e3779b97f4a7c15ull) ^ (i * 0xbf58476d1ce4e5b9ull)) >> 40) % 8;
  if (!TU_TYPE(s->type)->is_float) return h < 3 ? 3 : h < 6 ? 120 : 10;
  switch (h) {
    case 0: return tu_nan(s->type, (int)(b & 1), 1, b + i + 1);
    case 1: return tu_pattern(s->type, -0.0);
    case 2: return tu_pattern(s->type, 0.0);
    case 3: return tu_neg_inf(s->type);
    case 4: return tu_pos_inf(s->type);
    case 5:
    case 6: return tu_pattern(s->type, 1.0);
    default: return tu_pattern(s->type, 0.5);
  }
}

/* The answers of gpureduce.h for the patterns, by hand. */
static void check_special(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, size_t batch,
                          size_t n, const char *layout) {
  const size_t rs = tu_result_size(type, op, flags);
  for (size_t b = 0; b < batch; ++b) {
    bt_result wanted;
    const char *why;
    if (!bt_special_answer(type, op, flags, b, n, &wanted, &why))
      continue; /* the reference and the 1-D call checked it */
    check_result(wanted, result_of(b, rs), rs, "%s, batch %zu x n %zu, %s: vector %zu holds %s",
               bt_kind_name(type, op, flags), batch, n, layout, b, why);
  }
}

void bb_special_values(void **state) {
  (void)state;
  for (int t = 0; t < GPUREDUCE_TYPE_COUNT; ++t) {
    const gpureduce_type_t type = (gpureduce_type_t)t;
    const size_t te = tu_tile_elems(type);
    const struct bb_shape shapes[] = {bb_layout(BB_DENSE, type, 24, 5, 0),
                                      bb_layout(BB_MISALIGNED, type, 16, 33, 1),
                                      bb_layout(BB_COLUMNS, type, 9, 300, 0),
                                      bb_layout(BB_PADDED, type, 8, te + 2, 0),
                                      bb_layout(BB_MATRIX_COLUMNS, type, 8, te + 2, 0)};
    for (int op = 0; op < GPUREDUCE_OP_COUNT; ++op)
      for (size_t fi = 0; fi < TU_FLAG_VALUES; ++fi) {
        const unsigned flags = tu_flag_values[fi];
        if (!tu_result_size(type, (gpureduce_op_t)op, flags)) continue;
        for (size_t si = 0; si < COUNT(shapes); ++si) {
          /* (products of more than 33 values in [1, 2) overflow a float) */
          if (op == GPUREDUCE_PROD && shapes[si].n > 33) continue;
          struct special sp = {.type = type, .n = shapes[si].n};
          tu_rng_init(&sp.rng, "batched special values");
          const struct bb_data data = {special_value, &sp,
                                       "NaNs, signed zeros, infinities and ties per vector"};
          bb_check(&shapes[si], type, (gpureduce_op_t)op, flags, &data,
                   bt_poison(type, (gpureduce_op_t)op));
          check_special(type, (gpureduce_op_t)op, flags, shapes[si].batch, shapes[si].n,
                        shapes[si].layout);
        }
        if (op == GPUREDUCE_MIN || op == GPUREDUCE_MAX || op == GPUREDUCE_ARGMIN ||
            op == GPUREDUCE_ARGMAX || op == GPUREDUCE_AMAX)
          for (size_t n = 2; n <= 8; n *= 2) {
            struct special sp = {.type = type, .n = n};
            const struct bb_shape sh = bb_layout(BB_DENSE, type, 64, n, 0);
            const struct bb_data data = {mixed_value, &sp,
                                         "NaNs, signed zeros, infinities and ties mixed"};
            bb_check(&sh, type, (gpureduce_op_t)op, flags, &data,
                     bt_poison(type, (gpureduce_op_t)op));
          }
      }
  }
}

/* ---- tests: empty vectors, empty batches ------------------------------------ */

/* The documented result of (type, op, flags) over no elements. */

void bb_empty_vectors(void **state) {
  (void)state;
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (next_kind(&k, &type, &op, &flags)) {
    const size_t rs = tu_result_size(type, op, flags);
    const enum bb_layout layouts[] = {BB_DENSE, BB_COLUMNS, BB_ZERO_BATCH, BB_BOTH_NEGATIVE};
    const size_t batches[] = {1, 3, 133};
    for (size_t li = 0; li < COUNT(layouts); ++li)
      for (size_t bi = 0; bi < COUNT(batches); ++bi) {
        const struct bb_shape sh = bb_layout(layouts[li], type, batches[bi], 0, 0);
        struct bb_random r = {.type = type, .gen = G_WIDE};
        const struct bb_data data = {bb_random_value, &r, "no elements"};
        bb_check(&sh, type, op, flags, &data, bt_poison(type, op));
        if (bt_empty_is_error(op)) continue; /* bb_check saw EMPTY_INPUT, nothing written */
        for (size_t b = 0; b < sh.batch; ++b)
          check_result(bt_empty_result(type, op, flags), result_of(b, rs), rs,
                       "%s, batch %zu of n = 0, %s: result %zu is the documented empty result",
                       bt_kind_name(type, op, flags), sh.batch, sh.layout, b);
      }
    /* a NULL input: nothing is read */
    unsigned char *d_out = bt_room_for(&out_mem, 3 * rs + CANARY);
    unsigned char *res = bt_room_for(&got, 3 * rs + CANARY);
    memset(res, OUT_FILL, 3 * rs + CANARY);
    B->put(d_out, res, 3 * rs + CANARY);
    const gpureduce_status_t s = gpureduce_reduce_batched(NULL, d_out, 3, 0, 7, -5, type, op,
                                                          flags, battery_handle());
    B->get(res, d_out, 3 * rs + CANARY);
    check_status(bt_empty_is_error(op) ? GPUREDUCE_ERROR_EMPTY_INPUT : GPUREDUCE_SUCCESS, s,
                 "%s, batch 3 of n = 0 with a NULL input", bt_kind_name(type, op, flags));
    if (bt_empty_is_error(op))
      check_bytes(res, OUT_FILL, 3 * rs, "%s, n = 0 with a NULL input: nothing written",
                  bt_kind_name(type, op, flags));
    else
      for (size_t b = 0; b < 3; ++b)
        check_result(bt_empty_result(type, op, flags), result_of(b, rs), rs,
                     "%s, batch 3 of n = 0 with a NULL input: result %zu",
                     bt_kind_name(type, op, flags), b);
    check_bytes(res + 3 * rs, OUT_FILL, CANARY, "%s, n = 0 with a NULL input: the canary",
                bt_kind_name(type, op, flags));
  }
}

void bb_empty_batch(void **state) {
  (void)state;
  unsigned char *d_in = bt_room_for(&in_mem, 4096), *d_out = bt_room_for(&out_mem, 256);
  unsigned char *res = bt_room_for(&got, 256);
  int k = 0;
  gpureduce_type_t type;
  gpureduce_op_t op;
  unsigned flags;
  while (next_kind(&k, &type, &op, &flags)) {
    const size_t ns[] = {0, 5};
    for (size_t ni = 0; ni < COUNT(ns); ++ni) {
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce_batched(NULL, NULL, 0, ns[ni], 1, 1, type, op, flags,
                                            battery_handle()),
                   "%s, batch 0 of n = %zu, NULL input and output: nothing to do",
                   bt_kind_name(type, op, flags), ns[ni]);
      memset(res, OUT_FILL, 256);
      B->put(d_out, res, 256);
      check_status(GPUREDUCE_SUCCESS,
                   gpureduce_reduce_batched(d_in, d_out, 0, ns[ni], INT64_MAX, INT64_MIN, type,
                                            op, flags, battery_handle()),
                   "%s, batch 0 of n = %zu, strides that would overflow: nothing to do",
                   bt_kind_name(type, op, flags), ns[ni]);
      B->get(res, d_out, 256);
      check_bytes(res, OUT_FILL, 256, "%s, batch 0 of n = %zu: nothing written",
                  bt_kind_name(type, op, flags), ns[ni]);
    }
  }
}

/* ---- tests: errors on this backend's memory ---------------------------------- */

void bb_errors_leave_output(void **state) {
  (void)state;
  enum { N = 64, OUT = 256 };
  unsigned char *d_in = bt_room_for(&in_mem, 4 * N * 4 + 64), *d_out = bt_room_for(&out_mem, OUT);
  unsigned char *res = bt_room_for(&got, OUT);
  float v[4 * N];
  for (int i = 0; i < 4 * N; ++i) v[i] = (float)(i % 17) - 3.5f;
  B->put(d_in, v, sizeof v);
  const struct {
    const char *what;
    const void *in;
    size_t out_offset, batch, n;
    int64_t bs, st;
    gpureduce_type_t type;
    gpureduce_op_t op;
    gpureduce_status_t wanted;
  } cases[] = {
      {"NULL input with n = 4", NULL, 0, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"f32 input at an odd address", d_in + 1, 0, 3, 4, 4, 1, GPUREDUCE_F32, GPUREDUCE_SUM,
       GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"argmax of result 8 bytes at a 4-byte aligned output", d_in, 4, 3, 4, 4, 1,
       GPUREDUCE_F32, GPUREDUCE_ARGMAX, GPUREDUCE_ERROR_INVALID_ARGUMENT},
      {"argmin of n = 0", d_in, 0, 3, 0, 4, 1, GPUREDUCE_F32, GPUREDUCE_ARGMIN,
       GPUREDUCE_ERROR_EMPTY_INPUT},
      {"unknown op 12", d_in, 0, 3, 4, 4, 1, GPUREDUCE_F32, (gpureduce_op_t)12,
       GPUREDUCE_ERROR_UNSUPPORTED},
      {"element offsets that overflow int64_t", d_in, 0, 3, 4, INT64_MAX, 1, GPUREDUCE_F32,
       GPUREDUCE_SUM, GPUREDUCE_ERROR_INVALID_ARGUMENT},
  };
  for (size_t k = 0; k < COUNT(cases); ++k) {
    memset(res, OUT_FILL, OUT);
    B->put(d_out, res, OUT);
    const gpureduce_status_t s = gpureduce_reduce_batched(
        cases[k].in, d_out + cases[k].out_offset, cases[k].batch, cases[k].n, cases[k].bs,
        cases[k].st, cases[k].type, cases[k].op, 0, battery_handle());
    B->get(res, d_out, OUT);
    check_status(cases[k].wanted, s, "%s on the %s backend", cases[k].what, B->name);
    check_bytes(res, OUT_FILL, OUT, "%s on the %s backend: the output is untouched",
                cases[k].what, B->name);
    const char *m = gpureduce_last_message(battery_handle());
    check_true(m && *m, "%s on the %s backend: gpureduce_last_message says why", cases[k].what,
               B->name);
  }
  /* an output inside the input's span: rows of 4 floats 8 apart, the
   * output in the gap after row 0 (conservative: refused) and on row 1 */
  const size_t at[] = {4 * 4, 8 * 4, 3 * 4};
  for (size_t k = 0; k < COUNT(at); ++k) {
    B->put(d_in, v, sizeof v);
    const gpureduce_status_t s = gpureduce_reduce_batched(
        d_in, d_in + at[k], 3, 4, 8, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, battery_handle());
    check_status(GPUREDUCE_ERROR_INVALID_ARGUMENT, s,
                 "an output %zu bytes into the input's span on the %s backend", at[k], B->name);
    float back[4 * N];
    B->get(back, d_in, sizeof back);
    check_true(memcmp(back, v, sizeof v) == 0,
               "an output %zu bytes into the input's span: the input is untouched", at[k]);
  }
  /* outputs next to the span, just after it and just before it, are fine */
  const struct {
    size_t in, out;
  } next_to[] = {{0, 80}, {12, 0}};
  for (size_t k = 0; k < COUNT(next_to); ++k) {
    B->put(d_in, v, sizeof v);
    check_status(GPUREDUCE_SUCCESS,
                 gpureduce_reduce_batched(d_in + next_to[k].in, d_in + next_to[k].out, 3, 4, 8,
                                          1, GPUREDUCE_F32, GPUREDUCE_SUM, 0, battery_handle()),
                 "3 rows of 4 floats (80 bytes of span) at byte %zu, the results at byte %zu: "
                 "next to the span, not in it",
                 next_to[k].in, next_to[k].out);
  }
  /* the handle still works: the sums of 3 rows of 4 */
  B->put(d_in, v, sizeof v);
  memset(res, OUT_FILL, OUT);
  B->put(d_out, res, OUT);
  check_status(GPUREDUCE_SUCCESS,
               gpureduce_reduce_batched(d_in, d_out, 3, 4, 8, 1, GPUREDUCE_F32, GPUREDUCE_SUM, 0,
                                        battery_handle()),
               "after the errors, 3 rows of 4 floats");
  B->get(res, d_out, OUT);
  for (int b = 0; b < 3; ++b) {
    float sum = 0;
    for (int i = 0; i < 4; ++i) sum += v[8 * b + i];
    check_bits(tu_f32_bits(sum), tu_load(res, (size_t)b, 4),
               "after the errors, row %d of 4 small floats sums exactly", b);
  }
}
