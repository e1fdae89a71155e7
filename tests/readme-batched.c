/* batched.c - row sums, row argmaxes and column sums of a 3 x 4 matrix
 * on gpureduce's host backend (no GPU needed).  Prints TAP; exits
 * non-zero if a result is wrong. */
#include <gpureduce.h>
#include <stdint.h>
#include <stdio.h>

static int check(int number, int ok, const char *what) {
  printf("%s %d - %s\n", ok ? "ok" : "not ok", number, what);
  return !ok;
}

int main(void) {
  /* 3 rows of 4 floats, row-major, leading dimension 5: the fifth
   * column is padding that no reduction reads */
  const float m[3][5] = {{1, 2, 3, 4, 0},
                         {-1, 7, 7, .5f, 0},
                         {2.5f, -8, 1, 1, 0}};
  float sums[3] = {0}, col_sums[4] = {0};
  uint64_t argmax[3] = {0}; /* each index counts within its row */
  gpureduce_handle_t h;
  int failed = 0;

  printf("1..4\n");
  gpureduce_status_t s = gpureduce_create(&h, GPUREDUCE_DEVICE_HOST);
  failed += check(1, s == GPUREDUCE_SUCCESS, "host handle created");
  if (s != GPUREDUCE_SUCCESS) {
    printf("Bail out! %s\n", gpureduce_status_string(s));
    return 1;
  }

  /* rows: batch = 3 vectors of n = 4, batch_stride = 5 (the leading
   * dimension), element_stride = 1; strides count elements */
  s = gpureduce_reduce_batched(m, sums, 3, 4, 5, 1, GPUREDUCE_F32,
                               GPUREDUCE_SUM, 0, h);
  failed += check(2, s == GPUREDUCE_SUCCESS && sums[0] == 10 &&
                         sums[1] == 13.5f && sums[2] == -3.5f,
                  "row sums are 10, 13.5 and -3.5");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  /* 7 twice in row 1: ARGMAX returns the lowest index of a tie, 1 */
  s = gpureduce_reduce_batched(m, argmax, 3, 4, 5, 1, GPUREDUCE_F32,
                               GPUREDUCE_ARGMAX, 0, h);
  failed += check(3, s == GPUREDUCE_SUCCESS && argmax[0] == 3 &&
                         argmax[1] == 1 && argmax[2] == 0,
                  "row argmaxes are 3, 1 and 0");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  /* columns: batch = 4 vectors of n = 3, batch_stride = 1,
   * element_stride = 5 */
  s = gpureduce_reduce_batched(m, col_sums, 4, 3, 1, 5, GPUREDUCE_F32,
                               GPUREDUCE_SUM, 0, h);
  failed += check(4, s == GPUREDUCE_SUCCESS && col_sums[0] == 2.5f &&
                         col_sums[1] == 1 && col_sums[2] == 11 &&
                         col_sums[3] == 5.5f,
                  "column sums are 2.5, 1, 11 and 5.5");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  gpureduce_destroy(h);
  return failed != 0;
}
