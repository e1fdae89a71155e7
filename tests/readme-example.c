/* example.c - a sum and an argmin on gpureduce's host backend (no
 * GPU needed).  Prints TAP; exits non-zero if a result is wrong. */
#include <gpureduce.h>
#include <stdint.h>
#include <stdio.h>

static int check(int number, int ok, const char *what) {
  printf("%s %d - %s\n", ok ? "ok" : "not ok", number, what);
  return !ok;
}

int main(void) {
  /* doc/ORDER.md's example: 1.9375 on every run and backend */
  const float x[] = {1e8f, 1, -1e8f, 1, .5f, .25f, .125f, .0625f};
  /* -1 twice: ARGMIN returns the lowest index of a tie, 1 */
  const float y[] = {2.5f, -1, 4, -1};
  float sum = 0;
  uint64_t index = 0; /* ARGMIN and ARGMAX write a uint64_t */
  gpureduce_handle_t h;
  int failed = 0;

  printf("1..3\n");
  gpureduce_status_t s = gpureduce_create(&h, GPUREDUCE_DEVICE_HOST);
  failed += check(1, s == GPUREDUCE_SUCCESS, "host handle created");
  if (s != GPUREDUCE_SUCCESS) {
    printf("Bail out! %s\n", gpureduce_status_string(s));
    return 1;
  }

  s = gpureduce_sum_f32(x, &sum, 8, h);
  failed += check(2, s == GPUREDUCE_SUCCESS && sum == 1.9375f,
                  "sum is 1.9375");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  s = gpureduce_reduce(y, &index, 4, GPUREDUCE_F32, GPUREDUCE_ARGMIN,
                       0, h);
  failed += check(3, s == GPUREDUCE_SUCCESS && index == 1,
                  "argmin is 1");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  gpureduce_destroy(h);
  return failed != 0;
}
