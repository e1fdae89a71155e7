/* cuda-example.c - a sum of a million floats in CUDA device memory,
 * and the same sum on the host backend, bit for bit.  Prints TAP
 * ("1..0 # SKIP no CUDA device" without a GPU); exits non-zero if a
 * result is wrong. */
#include <cuda_runtime.h>
#include <gpureduce.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(int number, int ok, const char *what) {
  printf("%s %d - %s\n", ok ? "ok" : "not ok", number, what);
  return !ok;
}

int main(void) {
  const size_t n = 1000003;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("1..0 # SKIP no CUDA device\n");
    return 0;
  }
  float *x = malloc(n * sizeof *x), *d_x = NULL, *d_sum = NULL;
  float sum = 0, host_sum = 0;
  double exact = 0; /* the reference: a sum in double precision */
  cudaStream_t stream;
  gpureduce_handle_t h, host;
  int failed = 0;

  printf("1..4\n");
  if (x == NULL || cudaMalloc((void **)&d_x, n * sizeof *x) ||
      cudaMalloc((void **)&d_sum, sizeof sum) ||
      cudaStreamCreate(&stream)) {
    printf("Bail out! no memory or no stream\n");
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    x[i] = 1.0f / (float)(i + 1);
    exact += x[i];
  }
  gpureduce_status_t s = gpureduce_create(&h, 0); /* CUDA device 0 */
  failed += check(1, s == GPUREDUCE_SUCCESS, "device 0's handle");
  if (s != GPUREDUCE_SUCCESS) {
    printf("Bail out! %s\n", gpureduce_status_string(s));
    return 1;
  }

  /* the handle's work goes on `stream` (a cudaStream_t, passed as
   * void *): the kernel runs after the copy; the call returns at once */
  s = gpureduce_set_stream(h, stream);
  if (s == GPUREDUCE_SUCCESS &&
      cudaMemcpyAsync(d_x, x, n * sizeof *x, cudaMemcpyHostToDevice,
                      stream) == cudaSuccess)
    s = gpureduce_reduce(d_x, d_sum, n, GPUREDUCE_F32, GPUREDUCE_SUM,
                         0, h);
  failed += check(2, s == GPUREDUCE_SUCCESS, "sum enqueued");
  if (s != GPUREDUCE_SUCCESS)
    printf("# %s\n", gpureduce_last_message(h));

  /* the sum is in d_sum once the stream gets there */
  cudaError_t e = cudaMemcpyAsync(&sum, d_sum, sizeof sum,
                                  cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess)
    e = cudaStreamSynchronize(stream);
  const double error = sum > exact ? sum - exact : exact - sum;
  failed += check(3, e == cudaSuccess && error < 1e-5 * exact,
                  "sum within 1e-5 of the double-precision sum");

  /* the host backend gives the same bits */
  s = gpureduce_create(&host, GPUREDUCE_DEVICE_HOST);
  if (s == GPUREDUCE_SUCCESS) {
    s = gpureduce_reduce(x, &host_sum, n, GPUREDUCE_F32, GPUREDUCE_SUM,
                         0, host);
    gpureduce_destroy(host);
  }
  failed += check(4, s == GPUREDUCE_SUCCESS &&
                         memcmp(&sum, &host_sum, sizeof sum) == 0,
                  "the host backend's sum has the same bits");
  printf("# %.9g on the device, %.9g on the host\n", sum, host_sum);

  gpureduce_destroy(h);
  cudaStreamDestroy(stream);
  cudaFree(d_x);
  cudaFree(d_sum);
  free(x);
  return failed != 0;
}
