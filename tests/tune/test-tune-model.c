/*
 * test-tune-model.c - the tuning model's block count (src/tune/model.c):
 * min(groups of tiles, waves x SMs x resident blocks), with 8 waves where
 * one wave would give each block 64 tiles or more, 4 for 32 to 63 and one
 * below, at most the kernel's max_waves, and a tuned count in its size
 * bucket taking the model's place.
 * The expected counts are worked out here from that rule, for every tile
 * count around each threshold and at the sizes doc/TUNING.md
 * measured.  The count changes no bit (test-cuda and test-tune check the
 * results); what is checked is the speed model that gpureduce(3) and
 * <gpureduce/tune.h> state.  model.c and plan.c are internal (hidden in
 * the shared library), so this program compiles them itself.  Host only:
 * runs everywhere.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <stdint.h>
#include <string.h>

#include "core/handle.h"
#include "order/order.h"
#include "tune/tune.h"
#include "testutil.h"

/* f32 elements: a tile is 8192 of them. */
#define F32_TILE ((uint64_t)GR_TILE_CHUNKS * GR_CHUNK_BYTES / 4)

static struct gr_tune tune;
static struct gpureduce_handle handle;

/* A CUDA handle of `sms` multiprocessors whose f32 sum kernel has
 * `resident` blocks an SM, nothing tuned. */
static struct gpureduce_handle *fake_handle(int sms, unsigned resident) {
  memset(&tune, 0, sizeof tune);
  memset(&handle, 0, sizeof handle);
  tune.resident[GPUREDUCE_F32][GPUREDUCE_SUM][0] = resident;
  handle.sm_count = sms;
  handle.tune = &tune;
  return &handle;
}

/* The rule, from the groups of tiles and the fill (SMs x resident). */
static unsigned expected(uint64_t tiles, uint64_t groups, uint64_t fill) {
  const uint64_t waves = tiles >= 64 * fill ? 8 : tiles >= 32 * fill ? 4 : 1;
  const uint64_t g = groups < waves * fill ? groups : waves * fill;
  return g ? (unsigned)g : 1u;
}

static unsigned model_at(struct gpureduce_handle *h, uint64_t tiles, struct gr_plan *p) {
  gr_plan_make(tiles * F32_TILE, 4, 1, p);
  return gr_tune_model_grid(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, p);
}

/* Every tile count within 600 of the thresholds of 132 SMs at 3, 4 and 5
 * resident blocks, and of one SM at one block. */
static void the_waves_follow_the_tiles_a_block(void **state) {
  (void)state;
  static const struct {
    int sms;
    unsigned resident;
  } shapes[] = {{132, 3}, {132, 4}, {132, 5}, {1, 1}};
  int bad = 0;
  long cases = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    struct gpureduce_handle *h = fake_handle(shapes[s].sms, shapes[s].resident);
    const uint64_t fill = (uint64_t)shapes[s].sms * shapes[s].resident;
    const uint64_t at[] = {0, fill, 32 * fill, 64 * fill};
    for (size_t a = 0; a < sizeof at / sizeof at[0]; ++a)
      for (uint64_t tiles = at[a] > 600 ? at[a] - 600 : 0; tiles <= at[a] + 600; ++tiles, ++cases) {
        struct gr_plan p;
        const unsigned got = model_at(h, tiles, &p);
        const unsigned want = expected(p.tiles, p.groups, fill);
        if (got != want && bad++ < 5)
          print_message("# %d SMs x %u: %llu tiles, %llu groups: %u blocks, expected %u\n",
                        shapes[s].sms, shapes[s].resident, (unsigned long long)tiles,
                        (unsigned long long)p.groups, got, want);
      }
  }
  check_true(bad == 0, "%d of %ld block counts differ from the model's rule", bad, cases);
}

/* The H200's f32 sum (132 SMs, 4 blocks), by hand. */
static void the_model_at_measured_sizes(void **state) {
  (void)state;
  struct gpureduce_handle *h = fake_handle(132, 4);
  struct gr_plan p;
  check_bits(100, model_at(h, 100, &p), "100 tiles: one block a group");
  check_bits(1, model_at(h, 0, &p), "no tiles: one block");
  check_bits(528, model_at(h, 8192, &p), "2^26 f32 (8192 tiles): one wave");
  check_bits(528, model_at(h, 16895, &p), "16895 tiles (31.99 a block): one wave");
  check_bits(2112, model_at(h, 16896, &p), "16896 tiles (32 a block): 4 waves");
  check_bits(2112, model_at(h, 32768, &p), "2^28 f32 (32768 tiles, 62 a block): 4 waves");
  check_bits(4224, model_at(h, 33792, &p), "33792 tiles (64 a block): 8 waves");
  check_bits(4224, model_at(h, 131072, &p), "2^30 f32 (131072 tiles): 8 waves");
  check_bits(4224, model_at(h, (uint64_t)1 << 30, &p), "2^43 f32: 8 waves, within the roots");
  /* what the kernel launches: gr_plan_fit takes one group a block */
  model_at(h, 131072, &p);
  gr_plan_fit(&p, 4224);
  check_true(p.grid == 4096 && p.groups == 4096 && p.group_log2 == 5,
             "2^30 f32 on 4224 blocks: 4096 groups of 32 tiles on 4096 blocks (got %u, %llu, g %u)",
             p.grid, (unsigned long long)p.groups, p.group_log2);
}

/* A kernel's max_waves (the policy table's, cuda/tuning/policy.cuh) caps the
 * waves; 0 leaves them to the tiles. */
static void the_policy_caps_the_waves(void **state) {
  (void)state;
  struct gpureduce_handle *h = fake_handle(132, 4);
  struct gr_plan p;
  tune.max_waves[GPUREDUCE_F32][GPUREDUCE_SUM][0] = 1;
  check_bits(528, model_at(h, 131072, &p), "2^30 f32, at most one wave: 132 x 4");
  check_bits(528, model_at(h, 32768, &p), "2^28 f32, at most one wave: 132 x 4");
  check_bits(100, model_at(h, 100, &p), "100 tiles, at most one wave: one block a group");
  tune.max_waves[GPUREDUCE_F32][GPUREDUCE_SUM][0] = 4;
  check_bits(2112, model_at(h, 131072, &p), "2^30 f32, at most 4 waves");
  check_bits(2112, model_at(h, 32768, &p), "2^28 f32, 4 waves of at most 4");
  check_bits(528, model_at(h, 8192, &p), "2^26 f32, one wave of at most 4");
  tune.max_waves[GPUREDUCE_F32][GPUREDUCE_SUM][0] = 8;
  check_bits(4224, model_at(h, 131072, &p), "2^30 f32, 8 waves of at most 8");
  tune.max_waves[GPUREDUCE_F32][GPUREDUCE_SUM][1] = 1; /* GPUREDUCE_ACCUMULATE_F64 */
  tune.resident[GPUREDUCE_F32][GPUREDUCE_SUM][1] = 2;
  gr_plan_make(131072 * F32_TILE, 4, 1, &p);
  check_bits(264, gr_tune_model_grid(h, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64, &p),
             "the ACCUMULATE_F64 kernel's own cap: one wave of 132 x 2");
  check_bits(4224, gr_tune_model_grid(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, &p),
             "while the plain kernel keeps 8");
}

/* A count set for a size bucket replaces the model there only. */
static void a_tuned_count_replaces_the_model_in_its_bucket(void **state) {
  (void)state;
  struct gpureduce_handle *h = fake_handle(132, 4);
  tune.resident[GPUREDUCE_F32][GPUREDUCE_SUM][1] = 2; /* GPUREDUCE_ACCUMULATE_F64 */
  struct gr_plan p, q;
  gr_plan_make(131072 * F32_TILE, 4, 1, &p);
  gr_plan_make(8192 * F32_TILE, 4, 1, &q);
  tune.blocks[GPUREDUCE_F32][GPUREDUCE_SUM][0][gr_bucket(p.tiles)] = 396;
  check_bits(396, gr_tune_grid(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, &p), "the tuned count");
  check_bits(528, gr_tune_grid(h, GPUREDUCE_F32, GPUREDUCE_SUM, 0, &q),
             "another bucket keeps the model's count");
  check_bits(2112, gr_tune_grid(h, GPUREDUCE_F32, GPUREDUCE_SUM, GPUREDUCE_ACCUMULATE_F64, &p),
             "the ACCUMULATE_F64 kernel keeps its model's count: 8 waves of 132 x 2");
}

int main(void) {
  cmocka_set_message_output(CM_OUTPUT_TAP);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_waves_follow_the_tiles_a_block),
      cmocka_unit_test(the_model_at_measured_sizes),
      cmocka_unit_test(the_policy_caps_the_waves),
      cmocka_unit_test(a_tuned_count_replaces_the_model_in_its_bucket),
  };
  return cmocka_run_group_tests_name("tune-model", tests, NULL, NULL);
}
