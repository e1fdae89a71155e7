/*
 * order/partial.h - the order's arithmetic of partial results
 * (doc/ORDER.md, "Partial results"): how a part of an array splits into
 * the tile tree's subtrees, and the tile tree's counter (order/tree.h) on
 * accumulators of any size.  The partial's bytes and the API's checks are
 * api/partial.c's.  Plain C.  Not installed.
 *
 * A part [o, o + m) of an array of N elements, with tiles of te elements,
 * has three pieces:
 *   head   [o, min(o + m, A te)), A = ceil(o / te): the end of a tile that
 *          began before the part (empty when o is a tile boundary);
 *   whole  the tiles [A, B') that lie inside the part, B' = max(A, B), B =
 *          floor((o + m) / te), or the tile count when o + m == N (the last
 *          tile is whole at the array's end);
 *   tail   [B' te, o + m): the start of a tile that ends after the part.
 * The whole tiles split into canonical nodes: from p = A, the largest
 * aligned block [p, p + 2^j) (p a multiple of 2^j) that fits, again and
 * again.  Each node is a subtree of the tile tree, so the reduction of its
 * elements as an array of their own (tiles counted from its first) is
 * the value the whole array's tree has there.
 */
#ifndef GR_ORDER_PARTIAL_H
#define GR_ORDER_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "order/order.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pieces of a part (above). */
struct gr_cut {
  uint64_t te;           /* elements of a tile */
  uint64_t tiles;        /* tiles of the whole array */
  uint64_t head0, head1; /* [head0, head1) */
  uint64_t whole0, whole1;
  uint64_t tail0, tail1;
  unsigned nodes;
};

/* The pieces of [o, o + m) of n elements of es bytes; 0 when the part does
 * not lie in the array or the array's bytes exceed 2^63. */
int gr_cut_part(uint64_t m, uint64_t o, uint64_t n, size_t es, struct gr_cut *c);

/* The level j of the canonical node at tile p of whole tiles [p, end):
 * the largest aligned block [p, p + 2^j) inside them. */
unsigned gr_node_level(uint64_t p, uint64_t end);

/* An accumulator of any (type, op, flags), as bytes. */
struct gr_acc {
  unsigned char bytes[GR_ROOT_BYTES];
};

/* The tile tree over tile indices as order/tree.h's counter, on
 * accumulators combined by combine(a, b): a = a op b. */
struct gr_counter {
  void (*combine)(void *a, const void *b);
  struct gr_acc stack[64];
};

/* The value of the aligned block of 2^level tiles from tile `index` (a
 * multiple of 2^level) joins the counter; the blocks come in tile order
 * and cover the tiles before them. */
void gr_counter_push(struct gr_counter *c, uint64_t index, unsigned level, struct gr_acc value);

/* The tree's root over `tiles` tiles, all pushed, into *root; *root is
 * left as it is (the identity) when tiles is 0. */
void gr_counter_fold(const struct gr_counter *c, uint64_t tiles, struct gr_acc *root);

#ifdef __cplusplus
}
#endif

#endif /* GR_ORDER_PARTIAL_H */
