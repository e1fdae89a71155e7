/* mpi-example.c - doc/ORDER.md's eight floats spread over the ranks and
 * summed with gpureduce_mpi_reduce(): 1.9375, the bits of one
 * gpureduce_reduce(), with any number of ranks.  Beside it, each rank's
 * own sum combined by MPI_Allreduce(MPI_SUM).  Run it with
 * mpirun -n 4 ./mpi-example.  Prints TAP on rank 0. */
#include <gpureduce_mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  const float x[] = {1e8f, 1, -1e8f, 1, .5f, .25f, .125f, .0625f};
  int rank, size, failed = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* rank r holds x[8r/size] .. x[8(r+1)/size - 1]; a part may be empty */
  const size_t begin = 8 * (size_t)rank / size;
  const size_t end = 8 * (size_t)(rank + 1) / size;

  gpureduce_handle_t h;
  if (gpureduce_create(&h, GPUREDUCE_DEVICE_HOST) != GPUREDUCE_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, 1);
  float sum = 0, local = 0, naive = 0;
  gpureduce_status_t s =
      gpureduce_mpi_reduce(x + begin, &sum, end - begin, GPUREDUCE_F32,
                           GPUREDUCE_SUM, 0, MPI_COMM_WORLD, h);
  if (s != GPUREDUCE_SUCCESS) {
    fprintf(stderr, "rank %d: %s\n", rank, gpureduce_last_message(h));
    failed = 1;
  }
  failed |= sum != 1.9375f;
  /* the usual way: a local sum, then MPI's sum of the local sums */
  if (gpureduce_reduce(x + begin, &local, end - begin, GPUREDUCE_F32,
                       GPUREDUCE_SUM, 0, h) != GPUREDUCE_SUCCESS)
    failed = 1;
  MPI_Allreduce(&local, &naive, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);

  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("1..1\n");
    printf("%s 1 - %d ranks: gpureduce_mpi_reduce gives %g "
           "(MPI_Allreduce of the local sums: %g)\n",
           failed ? "not ok" : "ok", size, sum, naive);
  }
  gpureduce_destroy(h);
  MPI_Finalize();
  return failed;
}
