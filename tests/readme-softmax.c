/* softmax.c - each row's softmax statistics {max, sum} of a 3 x 4 matrix
 * in one batched call on gpureduce's host backend (no GPU needed), then
 * the softmax itself.  Prints TAP; exits non-zero if a result is wrong. */
#include <gpureduce.h>
#include <math.h>
#include <stdio.h>

static int check(int number, int ok, const char *what) {
  printf("%s %d - %s\n", ok ? "ok" : "not ok", number, what);
  return !ok;
}

int main(void) {
  /* 3 rows of 4 floats; exp(1000) overflows a float, exp(x - max) not */
  const float x[3][4] = {{1, 2, 3, 4},
                         {0, 0, 0, 0},
                         {1000, 1000, -INFINITY, 999}};
  _Alignas(8) float stats[3][2]; /* {max, sum} a row, 8-byte aligned */
  float lse[3], p[3][4];
  gpureduce_handle_t h;
  int failed = 0;

  printf("1..5\n");
  gpureduce_status_t s = gpureduce_create(&h, GPUREDUCE_DEVICE_HOST);
  failed += check(1, s == GPUREDUCE_SUCCESS, "host handle created");
  if (s != GPUREDUCE_SUCCESS) {
    printf("Bail out! %s\n", gpureduce_status_string(s));
    return 1;
  }

  /* rows: batch = 3 vectors of n = 4, batch_stride = 4, element_stride
   * = 1; sum = sum of exp(x - max) over the row, in one pass */
  s = gpureduce_reduce_batched(x, stats, 3, 4, 4, 1, GPUREDUCE_F32,
                               GPUREDUCE_LOGSUMEXP,
                               GPUREDUCE_SOFTMAX_STATS, h);
  failed += check(2, s == GPUREDUCE_SUCCESS && stats[0][0] == 4 &&
                         fabsf(stats[0][1] - 1.5530017f) < 1e-6f &&
                         stats[1][0] == 0 && stats[1][1] == 4 &&
                         stats[2][0] == 1000 &&
                         fabsf(stats[2][1] - 2.3678794f) < 1e-6f,
                  "the rows' {max, sum} are {4, 1.5530017}, {0, 4} and "
                  "{1000, 2.3678794}");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  /* the softmax: exp(x - max) / sum, each row summing to 1 */
  int rows_ok = 1;
  for (int i = 0; i < 3; ++i) {
    float total = 0;
    for (int j = 0; j < 4; ++j) {
      p[i][j] = expf(x[i][j] - stats[i][0]) / stats[i][1];
      total += p[i][j];
    }
    rows_ok &= fabsf(total - 1) < 1e-6f;
  }
  failed += check(3, rows_ok, "each row of the softmax sums to 1");
  failed += check(4, p[1][0] == 0.25f && p[2][2] == 0 && p[2][0] == p[2][1],
                  "equal elements share the mass; -inf gets 0");

  /* the plain LOGSUMEXP is max + log(sum) */
  s = gpureduce_reduce_batched(x, lse, 3, 4, 4, 1, GPUREDUCE_F32,
                               GPUREDUCE_LOGSUMEXP, 0, h);
  int lse_ok = s == GPUREDUCE_SUCCESS;
  for (int i = 0; i < 3; ++i)
    lse_ok &= fabsf(lse[i] - (stats[i][0] + logf(stats[i][1]))) <=
              1e-6f * fabsf(lse[i]);
  failed += check(5, lse_ok, "log-sum-exp is max + log(sum)");

  gpureduce_destroy(h);
  return failed != 0;
}
