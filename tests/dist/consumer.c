/*
 * consumer.c - a program that uses an installed gpureduce the way a user
 * does: #include <gpureduce.h> and pkg-config, no CUDA include path.
 * Built and run by tests/dist/pkg-config-consumer.sh; exits 0 when all is well.
 *
 * Copyright (c) 2026 the gpureduce authors.  MIT licence: see COPYING.
 */
#include <gpureduce.h>

#include <stdio.h>
#include <string.h>

int
main (void)
{
  const float x[3] = { 1.5f, -2.0f, 4.0f };
  float sum = 0.0f;
  gpureduce_handle_t h = NULL;
  gpureduce_status_t st;
  int bad = 0;

  st = gpureduce_create (&h, GPUREDUCE_DEVICE_HOST);
  if (st != GPUREDUCE_SUCCESS)
    {
      fprintf (stderr, "gpureduce_create (host): status %d\n", (int) st);
      return 1;
    }
  st = gpureduce_sum_f32 (x, &sum, 3, h);
  if (st != GPUREDUCE_SUCCESS || sum != 3.5f)
    {
      fprintf (stderr, "gpureduce_sum_f32 {1.5, -2, 4}: status %d, sum %g, wanted 3.5\n",
               (int) st, (double) sum);
      bad = 1;
    }
  st = gpureduce_destroy (h);
  if (st != GPUREDUCE_SUCCESS)
    {
      fprintf (stderr, "gpureduce_destroy: status %d\n", (int) st);
      bad = 1;
    }
  if (strcmp (gpureduce_version_string (), GPUREDUCE_VERSION_STRING) != 0)
    {
      fprintf (stderr, "library version %s, header version %s\n",
               gpureduce_version_string (), GPUREDUCE_VERSION_STRING);
      bad = 1;
    }
  return bad;
}
