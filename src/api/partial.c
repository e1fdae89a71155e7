/*
 * api/partial.c - gpureduce_partial_bytes(), gpureduce_partial_reduce(),
 * gpureduce_partial_combine() and gpureduce_set_last_message(): one array
 * reduced in parts, with the bits of the whole (doc/ORDER.md, "Partial
 * results").
 *
 * A part splits into a head, whole tiles and a tail (order/partial.h):
 * the whole tiles' canonical nodes are reduced by the handle's backend as
 * arrays of their own, each node's root accumulator goes into the partial
 * (the CUDA kernel's or the host backend's: the same bits), and the head
 * and tail go in as raw elements.
 *
 * The combine walks the parts in offset order: a head (and a part inside
 * one tile) fills the tile pending from the previous part's tail; a tile
 * that is complete is reduced on the host, and its value and the nodes go
 * into the tile tree's counter (order/partial.h) at their levels; the
 * fold and the finish are the whole array's.
 *
 * The partial, host memory, a multiple of 8 bytes (struct layout below):
 *   header (96 bytes) | node roots (nodes x acc_bytes, padded to 8) |
 *   head elements | tail elements | zeros to a multiple of 8.
 * Its float fields hold NaNs as the canonical quiet NaN, so the bytes do
 * not depend on the backend (a NaN's payload does; nothing else of a NaN
 * reaches a result).  ARGMIN's and ARGMAX's node indices are global.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/args.h"
#include "core/backend.h"
#include "host/host.h"
#include "order/order.h"
#include "order/partial.h"

#define GR_PARTIAL_MAGIC 0x31505247u /* "GRP1" in memory order */
#define GR_PARTIAL_MAX_NODES 128u
#define GR_PARTIAL_KIND_REDUCE 0u /* room for the batched and dot partials */

struct gr_partial_header {
  uint32_t magic, layout, order_version, kind;
  uint32_t type, op, flags, acc_bytes;
  uint32_t nodes, reserved0;
  uint64_t batch; /* 1 */
  uint64_t n_global, offset, n_local;
  uint64_t head, tail; /* elements carried raw */
  uint64_t bytes;      /* the whole partial */
};
_Static_assert(sizeof(struct gr_partial_header) == 96, "the header is 96 bytes");
_Static_assert(GPUREDUCE_PARTIAL_MAX_BYTES >= 96 + GR_PARTIAL_MAX_NODES * GR_ROOT_BYTES +
                                                 2 * GR_TILE_CHUNKS * GR_CHUNK_BYTES,
               "GPUREDUCE_PARTIAL_MAX_BYTES holds the largest partial");

static uint64_t round8(uint64_t b) { return (b + 7) & ~(uint64_t)7; }

static uint64_t partial_size(const struct gr_cut *c, size_t acc_bytes, size_t es) {
  return sizeof(struct gr_partial_header) + round8((uint64_t)c->nodes * acc_bytes) +
         round8(((c->head1 - c->head0) + (c->tail1 - c->tail0)) * es);
}

/* The accumulator's floating-point fields: how many lead it, and their
 * width (0 for integer accumulators). */
static void float_fields(gpureduce_type_t type, gpureduce_op_t op, unsigned flags, int *count,
                         int *width) {
  const int is_float = type == GPUREDUCE_F16 || type == GPUREDUCE_BF16 ||
                       type == GPUREDUCE_F32 || type == GPUREDUCE_F64;
  const int wide = type == GPUREDUCE_F64 || (flags & GPUREDUCE_ACCUMULATE_F64) != 0;
  *width = wide || !is_float ? 8 : 4; /* integers: 64-bit values, or double */
  switch (op) {
    case GPUREDUCE_NRM2: *count = 3; return;
    case GPUREDUCE_MEAN_VAR: *count = 2; return;
    case GPUREDUCE_AMAX: *count = 0; return; /* magnitudes as unsigned integers */
    case GPUREDUCE_LOGSUMEXP: *count = 1; return; /* the maximum; the double sum at byte 8 */
    default: *count = is_float; return;
  }
}

/* The accumulator's bytes as every backend writes them: NaNs canonical,
 * and the padding of an ARGMIN, ARGMAX or LOGSUMEXP accumulator of a
 * 4-byte value (bytes 4 .. 7; the index or the double sum follows at
 * byte 8) zero. */
static void canonical_nans(unsigned char *acc, int count, int width);
static void canonical_acc(unsigned char *acc, gpureduce_op_t op, int count, int width) {
  canonical_nans(acc, count, width);
  if (op == GPUREDUCE_LOGSUMEXP) canonical_nans(acc + 8, 1, 8);
  if ((op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX || op == GPUREDUCE_LOGSUMEXP) &&
      width == 4)
    memset(acc + 4, 0, 4);
}

static void canonical_nans(unsigned char *acc, int count, int width) {
  for (int k = 0; k < count; ++k) {
    unsigned char *f = acc + k * width;
    if (width == 4) {
      float v;
      memcpy(&v, f, 4);
      if (v != v) memcpy(f, &(uint32_t){0x7fffffffu}, 4);
    } else {
      double v;
      memcpy(&v, f, 8);
      if (v != v) memcpy(f, &(uint64_t){0x7fffffffffffffffull}, 8);
    }
  }
}

/* ARGMIN's and ARGMAX's accumulator holds its index at byte 8 (cuda/thread/ops.cuh
 * node_root, host/order.c pair_*), counted from the array reduced;
 * make it global.  The identity's UINT64_MAX stays. */
static void shift_index(unsigned char *acc, gpureduce_op_t op, uint64_t base) {
  if (op != GPUREDUCE_ARGMIN && op != GPUREDUCE_ARGMAX) return;
  uint64_t i;
  memcpy(&i, acc + 8, 8);
  if (i != UINT64_MAX) i += base;
  memcpy(acc + 8, &i, 8);
}

static int needs_elements(gpureduce_op_t op) {
  return op == GPUREDUCE_ARGMIN || op == GPUREDUCE_ARGMAX || op == GPUREDUCE_MEAN_VAR;
}

size_t gpureduce_partial_bytes(uint64_t n_local, uint64_t offset, uint64_t n_global,
                               gpureduce_type_t type, gpureduce_op_t op, unsigned flags) {
  if (gpureduce_result_size(type, op, flags) == 0) return 0;
  const struct gr_host_acc_ops *ops = gr_host_acc_ops_for(type, op, flags);
  struct gr_cut c;
  if (!ops || !gr_cut_part(n_local, offset, n_global, gpureduce_type_size(type), &c)) return 0;
  return (size_t)partial_size(&c, ops->acc_bytes, gpureduce_type_size(type));
}

gpureduce_status_t gpureduce_set_last_message(gpureduce_handle_t handle, gpureduce_status_t status,
                                              const char *message) {
  if (!handle) return GPUREDUCE_ERROR_INVALID_HANDLE;
  char copy[GR_MESSAGE_BYTES]; /* message may be the handle's own */
  snprintf(copy, sizeof copy, "%s", message ? message : "");
  memcpy(handle->message, copy, sizeof copy);
  return status;
}

gpureduce_status_t gpureduce_partial_reduce(const void *input, void *partial, size_t n_local,
                                            uint64_t offset, uint64_t n_global,
                                            gpureduce_type_t type, gpureduce_op_t op,
                                            unsigned flags, gpureduce_handle_t handle) {
  gpureduce_handle_t h = handle;
  struct gr_call call = {.type = type, .op = op, .flags = flags, .batch = 1};
  gpureduce_status_t s = gr_prologue(h, &call);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!partial) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "partial is NULL");
  if ((uintptr_t)partial % 8)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "partial (%p) is not aligned to 8 bytes", partial);
  if ((s = gr_check_input(h, input, n_local, type, "input")) != GPUREDUCE_SUCCESS) return s;
  const size_t es = gpureduce_type_size(type);
  struct gr_cut c;
  if (!gr_cut_part(n_local, offset, n_global, es, &c))
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "the part [%llu, %llu + %llu) does not lie in an array of n_global = %llu "
                   "elements that fits in the address space",
                   (unsigned long long)offset, (unsigned long long)offset,
                   (unsigned long long)n_local, (unsigned long long)n_global);
  if (n_global == 0 && needs_elements(op))
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT, "%s of an empty array (n_global == 0)",
                   gpureduce_op_name(op));
  const struct gr_host_acc_ops *ops = gr_host_acc_ops_for(type, op, flags);
  if (!ops)
    return gr_fail(h, GPUREDUCE_ERROR_UNSUPPORTED, "no partial result for %s %s",
                   gpureduce_type_name(type), gpureduce_op_name(op));
  const uint64_t bytes = partial_size(&c, ops->acc_bytes, es);
  if (n_local > 0) {
    int64_t lo, hi;
    if ((s = gr_input_span(h, "input", input, 1, n_local, 0, 1, (unsigned)es, &lo, &hi)) !=
            GPUREDUCE_SUCCESS ||
        (s = gr_check_overlap(h, partial, bytes, "input", input, lo, hi)) != GPUREDUCE_SUCCESS ||
        (s = gr_check_space(h, input, "input")) != GPUREDUCE_SUCCESS)
      return s;
  }

  /* The nodes: element ranges of the part's input, and their roots. */
  uint64_t ranges[GR_PARTIAL_MAX_NODES][2];
  unsigned char roots[GR_PARTIAL_MAX_NODES * GR_ROOT_BYTES];
  unsigned k = 0;
  for (uint64_t p = c.whole0; p < c.whole1; ++k) {
    const uint64_t q = p + ((uint64_t)1 << gr_node_level(p, c.whole1));
    const uint64_t a = p * c.te, b = q * c.te < offset + n_local ? q * c.te : offset + n_local;
    ranges[k][0] = a - offset;
    ranges[k][1] = b - a;
    p = q;
  }
  /* The raw elements of the cut tiles go after the header and the nodes. */
  unsigned char *out = (unsigned char *)partial;
  const uint64_t nodes_bytes = round8((uint64_t)k * ops->acc_bytes);
  unsigned char *raw = out + sizeof(struct gr_partial_header) + nodes_bytes;
  const uint64_t head = c.head1 - c.head0, tail = c.tail1 - c.tail0;
  const unsigned char *in = (const unsigned char *)input;
  if (k > 0 || head || tail) {
    /* The nodes' reductions and the cut tiles' copies, then one wait (on
     * CUDA the one step that can fail). */
    const struct gr_span spans[2] = {
        {raw, head ? in + (c.head0 - offset) * es : NULL, head * es},
        {raw + head * es, tail ? in + (c.tail0 - offset) * es : NULL, tail * es}};
    s = h->backend->reduce_nodes(h, input, (const uint64_t(*)[2])ranges, k, type, op, flags,
                                 roots, spans, 2);
    if (s != GPUREDUCE_SUCCESS) return s;
  }
  memset(raw + (head + tail) * es, 0, (size_t)(out + bytes - (raw + (head + tail) * es)));
  unsigned char *node = out + sizeof(struct gr_partial_header);
  memset(node, 0, nodes_bytes);
  int fcount, fwidth;
  float_fields(type, op, flags, &fcount, &fwidth);
  for (unsigned j = 0; j < k; ++j, node += ops->acc_bytes) {
    memcpy(node, roots + (size_t)j * GR_ROOT_BYTES, ops->acc_bytes);
    canonical_acc(node, op, fcount, fwidth);
    shift_index(node, op, offset + ranges[j][0]);
  }
  struct gr_partial_header hd;
  memset(&hd, 0, sizeof hd);
  hd.magic = GR_PARTIAL_MAGIC;
  hd.layout = GPUREDUCE_PARTIAL_LAYOUT;
  hd.order_version = GPUREDUCE_ORDER_VERSION;
  hd.kind = GR_PARTIAL_KIND_REDUCE;
  hd.type = (uint32_t)type;
  hd.op = (uint32_t)op;
  hd.flags = flags;
  hd.acc_bytes = (uint32_t)ops->acc_bytes;
  hd.nodes = k;
  hd.batch = 1;
  hd.n_global = n_global;
  hd.offset = offset;
  hd.n_local = n_local;
  hd.head = head;
  hd.tail = tail;
  hd.bytes = bytes;
  memcpy(out, &hd, sizeof hd);
  return GPUREDUCE_SUCCESS;
}

/* ---- the combine ----------------------------------------------------------- */

struct part_ref {
  const struct gr_partial_header *h;
  const unsigned char *nodes, *raw;
};

static int by_offset(const void *a, const void *b) {
  const struct part_ref *x = (const struct part_ref *)a, *y = (const struct part_ref *)b;
  if (x->h->offset != y->h->offset) return x->h->offset < y->h->offset ? -1 : 1;
  /* an empty part before a non-empty one at the same offset */
  return (x->h->n_local > y->h->n_local) - (x->h->n_local < y->h->n_local);
}

static gpureduce_status_t bad(gpureduce_handle_t h, const char *fmt, unsigned long long a,
                              unsigned long long b) {
  return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, fmt, a, b);
}

/* The partial at p (bytes left: left): its header checked against the
 * first one's (first, NULL for the first itself). */
static gpureduce_status_t read_partial(gpureduce_handle_t h, const unsigned char *p, size_t left,
                                       size_t index, const struct gr_partial_header *first,
                                       struct part_ref *ref) {
  const struct gr_partial_header *hd = (const struct gr_partial_header *)p;
  if (left < sizeof *hd)
    return bad(h, "partial %llu: only %llu bytes left, less than a header", index, left);
  if (hd->magic != GR_PARTIAL_MAGIC || hd->kind != GR_PARTIAL_KIND_REDUCE || hd->batch != 1)
    return bad(h, "partial %llu is not a gpureduce partial result (magic 0x%llx)", index,
               hd->magic);
  if (hd->layout != GPUREDUCE_PARTIAL_LAYOUT || hd->order_version != GPUREDUCE_ORDER_VERSION)
    return bad(h, "partial %llu has layout %llu; this library reads layout 1, order version 1",
               index, hd->layout);
  if (first && (hd->type != first->type || hd->op != first->op || hd->flags != first->flags ||
                hd->n_global != first->n_global))
    return bad(h, "partial %llu has another type, op, flags or n_global than partial 0 "
                  "(n_global %llu)", index, (unsigned long long)hd->n_global);
  const gpureduce_type_t type = (gpureduce_type_t)hd->type;
  const gpureduce_op_t op = (gpureduce_op_t)hd->op;
  const size_t want = gpureduce_partial_bytes(hd->n_local, hd->offset, hd->n_global, type, op,
                                              hd->flags);
  /* (want != 0: a valid kind, whose accumulator size must be the header's) */
  if (want && hd->acc_bytes != gr_host_acc_ops_for(type, op, hd->flags)->acc_bytes)
    return bad(h, "partial %llu says %llu bytes an accumulator, not its kind's", index,
               hd->acc_bytes);
  struct gr_cut c;
  if (want == 0 || hd->bytes != want || want > left ||
      !gr_cut_part(hd->n_local, hd->offset, hd->n_global, gpureduce_type_size(type), &c) ||
      hd->nodes != c.nodes || hd->head != c.head1 - c.head0 || hd->tail != c.tail1 - c.tail0)
    return bad(h, "partial %llu is damaged or cut short (%llu bytes left)", index, left);
  ref->h = hd;
  ref->nodes = p + sizeof *hd;
  ref->raw = ref->nodes + round8((uint64_t)hd->nodes * hd->acc_bytes);
  return GPUREDUCE_SUCCESS;
}

gpureduce_status_t gpureduce_partial_combine(const void *partials, size_t bytes, void *output,
                                             gpureduce_handle_t handle) {
  gpureduce_handle_t h = handle;
  gpureduce_status_t s = gr_begin(h);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (!partials) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "partials is NULL");
  if ((uintptr_t)partials % 8)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "partials (%p) is not aligned to 8 bytes", partials);
  if (bytes == 0)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "no partials (bytes is 0)");
  if (!output) return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT, "output is NULL");

  /* Count and check the partials, then list them in offset order. */
  const unsigned char *base = (const unsigned char *)partials;
  struct part_ref first;
  s = read_partial(h, base, bytes, 0, NULL, &first);
  if (s != GPUREDUCE_SUCCESS) return s;
  size_t count = 0;
  int sorted = 1;
  uint64_t last_end = 0;
  for (size_t at = 0; at < bytes; ++count) {
    struct part_ref r;
    if ((s = read_partial(h, base + at, bytes - at, count, first.h, &r)) != GPUREDUCE_SUCCESS)
      return s;
    at += r.h->bytes;
    if (r.h->n_local) {
      if (r.h->offset < last_end) sorted = 0;
      last_end = r.h->offset + r.h->n_local;
    }
  }
  const gpureduce_type_t type = (gpureduce_type_t)first.h->type;
  const gpureduce_op_t op = (gpureduce_op_t)first.h->op;
  const unsigned flags = first.h->flags;
  const uint64_t n = first.h->n_global;
  const size_t es = gpureduce_type_size(type), rs = gpureduce_result_size(type, op, flags);
  if ((uintptr_t)output % rs)
    return gr_fail(h, GPUREDUCE_ERROR_INVALID_ARGUMENT,
                   "output (%p) is not aligned to its %zu bytes", output, rs);
  if (n == 0 && needs_elements(op))
    return gr_fail(h, GPUREDUCE_ERROR_EMPTY_INPUT, "%s of an empty array (n_global == 0)",
                   gpureduce_op_name(op));
  if ((s = gr_check_space(h, output, "output")) != GPUREDUCE_SUCCESS) return s;
  /* In offset order already (a transport's rank order): walked in place.
   * Else listed and sorted (allocated beyond 64 partials). */
  struct part_ref small[64], *refs = NULL;
  if (!sorted) {
    refs = count <= 64 ? small : (struct part_ref *)malloc(count * sizeof *refs);
    if (!refs)
      return gr_fail(h, GPUREDUCE_ERROR_OUT_OF_MEMORY, "cannot list %zu partials", count);
    for (size_t at = 0, k = 0; k < count; ++k) {
      (void)read_partial(h, base + at, bytes - at, k, first.h, &refs[k]);
      at += refs[k].h->bytes;
    }
    qsort(refs, count, sizeof *refs, by_offset);
  }

  const struct gr_host_acc_ops *ops = gr_host_acc_ops_for(type, op, flags);
  struct gr_counter ctr;
  ctr.combine = ops->combine;
  struct gr_acc v;
  unsigned char pending[GR_TILE_CHUNKS * GR_CHUNK_BYTES];
  uint64_t covered = 0, pend_tile = 0, pend_fill = 0; /* elements of the pending tile held */
  int fcount, fwidth;
  float_fields(type, op, flags, &fcount, &fwidth);
  size_t at = 0;
  for (size_t k = 0; k < count && s == GPUREDUCE_SUCCESS; ++k) {
    struct part_ref here;
    if (!refs) {
      (void)read_partial(h, base + at, bytes - at, k, first.h, &here);
      at += here.h->bytes;
    }
    const struct part_ref *ref = refs ? &refs[k] : &here;
    const struct gr_partial_header *hd = ref->h;
    if (hd->n_local == 0) continue;
    if (hd->offset != covered) {
      s = bad(h, hd->offset < covered ? "two parts hold element %llu (a part starts at %llu)"
                                      : "no part holds element %llu (the next starts at %llu)",
              (unsigned long long)(hd->offset < covered ? hd->offset : covered),
              (unsigned long long)hd->offset);
      break;
    }
    covered += hd->n_local;
    struct gr_cut c;
    gr_cut_part(hd->n_local, hd->offset, n, es, &c);
    const unsigned char *raw = ref->raw;
    /* the head continues the pending tile (or starts it, at a tile's start) */
    if (c.head1 > c.head0) {
      if (pend_fill == 0) pend_tile = c.head0 / c.te;
      memcpy(pending + pend_fill * es, raw, (c.head1 - c.head0) * es);
      pend_fill += c.head1 - c.head0;
      raw += (c.head1 - c.head0) * es;
      const uint64_t start = pend_tile * c.te, full = n - start < c.te ? n - start : c.te;
      if (pend_fill == full) {
        ops->reduce(pending, full, v.bytes, NULL);
        canonical_acc(v.bytes, op, fcount, fwidth);
        shift_index(v.bytes, op, start);
        gr_counter_push(&ctr, pend_tile, 0, v);
        pend_fill = 0;
      }
    }
    const unsigned char *node = ref->nodes;
    for (uint64_t p = c.whole0; p < c.whole1; node += hd->acc_bytes) {
      const unsigned j = gr_node_level(p, c.whole1);
      memcpy(v.bytes, node, hd->acc_bytes);
      gr_counter_push(&ctr, p, j, v);
      p += (uint64_t)1 << j;
    }
    if (c.tail1 > c.tail0) {
      pend_tile = c.tail0 / c.te;
      memcpy(pending, raw, (c.tail1 - c.tail0) * es);
      pend_fill = c.tail1 - c.tail0;
    }
  }
  if (refs && refs != small) free(refs);
  if (s != GPUREDUCE_SUCCESS) return s;
  if (covered != n)
    return bad(h, "the parts end at element %llu of n_global = %llu", covered,
               (unsigned long long)n);

  struct gr_acc root;
  unsigned char result[16];
  ops->reduce(NULL, 0, root.bytes, NULL); /* the identity, for n == 0 */
  gr_counter_fold(&ctr, gr_tile_count(n, es), &root);
  ops->finish(root.bytes, n, result);
  return h->backend->write(h, output, result, rs);
}
