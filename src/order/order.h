/*
 * order/order.h - the reduction order's constants and the launch plan.
 *
 * doc/ORDER.md is the order; this header gives its numbers to every layer
 * (plain C, usable from C++ and CUDA device code: macros and one struct).
 * The plan groups tiles into aligned power-of-two groups, each a subtree
 * of the tile tree (order/tree.h), so any grouping gives the same bits.
 * Not installed.
 */
#ifndef GR_ORDER_ORDER_H
#define GR_ORDER_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "gpureduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lanes of a tile (rule 3); also the CUDA block size of the production
 * kernel. */
#define GR_LANES GPUREDUCE_ORDER_LANES
/* 16-byte chunks each lane folds per tile. */
#define GR_CHUNKS_PER_LANE (GPUREDUCE_ORDER_TILE_CHUNKS / GPUREDUCE_ORDER_LANES)
/* 16-byte chunks in a tile (rule 2). */
#define GR_TILE_CHUNKS GPUREDUCE_ORDER_TILE_CHUNKS
/* Bytes of a chunk (rule 1). */
#define GR_CHUNK_BYTES 16

/*
 * Tiles are grouped into groups of 2^group_log2 consecutive tiles, aligned
 * to their size: each is a subtree of the tile tree, so a block can reduce
 * it alone and write one root.  The roots are combined by the same tree.
 * How tiles are grouped and how many blocks share the groups changes
 * nothing in the result; it only sets the work per block and the size of
 * the last step.
 */
#define GR_MAX_ROOTS 8192u /* roots a workspace holds */
#define GR_ROOT_BYTES 32u  /* room for the largest accumulator: 24 bytes, NRM2's three
                            * doubles and MEAN_VAR's {double, double, uint64_t} */

struct gr_plan {
  uint64_t tiles;      /* tiles covering n elements */
  uint64_t groups;     /* groups of 2^group_log2 tiles (roots written) */
  unsigned group_log2; /* log2 of tiles per group */
  unsigned grid;       /* blocks launched (>= 1) */
};

/* Tiles for n elements of elem_size bytes. */
uint64_t gr_tile_count(uint64_t n, size_t elem_size);

/* Fill plan for n elements and at most max_grid blocks (>= 1): the
 * smallest group size that leaves at most GR_MAX_ROOTS groups. */
void gr_plan_make(uint64_t n, size_t elem_size, unsigned max_grid, struct gr_plan *plan);

/* One group a block, when it fills the grid: if a larger group size
 * (2^g tiles, g > plan->group_log2) leaves between 9/10 of grid and grid
 * groups, take it and set plan->grid to the groups; else set plan->grid
 * to min(groups, grid) and keep the groups.  Larger groups change no bit
 * (they are subtrees of the same tile tree) but leave the last block
 * fewer roots to read: on the H200 the f32 sum took 63.1 instead of
 * 67.7 us at 2^26 (512 groups of 16 tiles instead of 8192 of one, on 512
 * blocks instead of 528), 2 to 7% less from 2^25 to 2^28
 * (doc/TUNING.md, "The block-count model and the wave limits"). */
void gr_plan_fit(struct gr_plan *plan, unsigned grid);

#ifdef __cplusplus
}
#endif

#endif /* GR_ORDER_ORDER_H */
