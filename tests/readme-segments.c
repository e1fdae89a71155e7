/* segments.c - the row sums and row argmaxes of a CSR sparse matrix on
 * gpureduce's host backend (no GPU needed).  Prints TAP; exits non-zero
 * if a result is wrong. */
#include <gpureduce.h>
#include <stdint.h>
#include <stdio.h>

static int check(int number, int ok, const char *what) {
  printf("%s %d - %s\n", ok ? "ok" : "not ok", number, what);
  return !ok;
}

int main(void) {
  /* a 4 x 4 CSR matrix: row r's nonzeros are values[row_ptr[r]] ..
   * values[row_ptr[r+1] - 1] (their columns would be in a col_idx
   * array, which a row reduction does not need); row 1 is empty */
  const float values[] = {1, 2, 3, -4, 5.5f, .25f};
  const uint64_t row_ptr[] = {0, 2, 2, 5, 6}; /* 4 rows + 1 */
  float sums[4] = {0};
  uint64_t argmax[4] = {0}; /* each index counts within its row */
  gpureduce_handle_t h;
  int failed = 0;

  printf("1..4\n");
  gpureduce_status_t s = gpureduce_create(&h, GPUREDUCE_DEVICE_HOST);
  failed += check(1, s == GPUREDUCE_SUCCESS, "host handle created");
  if (s != GPUREDUCE_SUCCESS) {
    printf("Bail out! %s\n", gpureduce_status_string(s));
    return 1;
  }

  /* 4 segments; the empty row sums to +0 */
  s = gpureduce_reduce_segments(values, sums, row_ptr, 4, GPUREDUCE_F32,
                                GPUREDUCE_SUM, 0, h);
  failed += check(2, s == GPUREDUCE_SUCCESS && sums[0] == 3 &&
                         sums[1] == 0 && sums[2] == 4.5f &&
                         sums[3] == .25f,
                  "row sums are 3, 0, 4.5 and 0.25");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  /* the empty row has no index: GPUREDUCE_NO_INDEX */
  s = gpureduce_reduce_segments(values, argmax, row_ptr, 4,
                                GPUREDUCE_F32, GPUREDUCE_ARGMAX, 0, h);
  failed += check(3, s == GPUREDUCE_SUCCESS && argmax[0] == 1 &&
                         argmax[1] == GPUREDUCE_NO_INDEX &&
                         argmax[2] == 2 && argmax[3] == 0,
                  "row argmaxes are 1, none, 2 and 0");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  /* offsets that decrease would have been reported here (on a CUDA
   * handle this call waits for the stream) */
  s = gpureduce_get_async_error(h);
  failed += check(4, s == GPUREDUCE_SUCCESS, "the offsets were valid");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  gpureduce_destroy(h);
  return failed != 0;
}
