/*
 * order/partial.c - the order's arithmetic of partial results
 * (order/partial.h).
 */
#include "order/partial.h"
#include "order/tree.h"

unsigned gr_node_level(uint64_t p, uint64_t end) {
  unsigned j = 0;
  while (j < 63 && (p & ((uint64_t)1 << j)) == 0 && p + ((uint64_t)2 << j) <= end) ++j;
  return j;
}

int gr_cut_part(uint64_t m, uint64_t o, uint64_t n, size_t es, struct gr_cut *c) {
  if (o > n || m > n - o || n > UINT64_MAX / 2 / es) return 0;
  const uint64_t te = (uint64_t)GR_TILE_CHUNKS * (GR_CHUNK_BYTES / es), e = o + m;
  c->te = te;
  c->tiles = gr_tile_count(n, es);
  const uint64_t a = o / te + (o % te != 0);
  const uint64_t b = e == n ? c->tiles : e / te;
  const uint64_t w1 = b > a ? b : a;
  c->head0 = o;
  c->head1 = a * te < e ? a * te : e;
  c->whole0 = a;
  c->whole1 = w1;
  c->tail0 = w1 * te < e ? w1 * te : e;
  c->tail1 = e;
  if (c->head1 < c->head0) c->head1 = c->head0;
  c->nodes = 0;
  for (uint64_t p = a; p < w1; p += (uint64_t)1 << gr_node_level(p, w1)) ++c->nodes;
  return 1;
}

/* left op right, as tree.h's COMBINE. */
static struct gr_acc combined(const struct gr_counter *c, struct gr_acc left,
                              struct gr_acc right) {
  c->combine(left.bytes, right.bytes);
  return left;
}
#define GR_COUNTER_COMBINE(a, b) combined(c, (a), (b))

/* A block of level j enters the counter at index >> j on the levels from
 * j up: the counter holds nothing below level j then, since the blocks
 * before it cover a multiple of 2^j tiles. */
void gr_counter_push(struct gr_counter *c, uint64_t index, unsigned level, struct gr_acc value) {
  GR_TREE_PUSH(c->stack + level, index >> level, value, GR_COUNTER_COMBINE);
}

void gr_counter_fold(const struct gr_counter *c, uint64_t tiles, struct gr_acc *root) {
  GR_TREE_FOLD(c->stack, tiles, *root, GR_COUNTER_COMBINE);
}
