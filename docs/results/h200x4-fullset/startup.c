/* Where a launch's start-up goes: MPI_Init, then the CUDA context (cudaFree(0)), per rank. */
#include <mpi.h>
#include <stdio.h>
#include <sys/time.h>
#include <cuda_runtime.h>
static double now(void) { struct timeval t; gettimeofday(&t, NULL); return t.tv_sec + t.tv_usec * 1e-6; }
int main(int argc, char **argv)
{
    double t0 = now();
    MPI_Init(&argc, &argv);
    double t1 = now();
    int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (argc > 1) { cudaSetDevice(0); cudaFree(0); }
    double t2 = now();
    MPI_Barrier(MPI_COMM_WORLD);
    double t3 = now();
    MPI_Finalize();
    double t4 = now();
    printf("rank %d start %.6f init %.3f ctx %.3f barrier %.3f finalize %.3f\n", r, t0, t1 - t0, t2 - t1, t3 - t2, t4 - t3);
    return 0;
}
