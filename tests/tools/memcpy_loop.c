/* The plain reference for umb_copy's pinned figures: cudaMemcpyAsync x N
   between two events, pinned host memory, no stream hold, nothing else.
   usage: memcpy_loop [BYTES [COPIES [REPS]]] (default 256 MiB, 8, 10);
   prints the median GB/s (10^9) of each direction. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "memcpy_loop: %s: %s\n", #x, cudaGetErrorString(e_)); exit(e_ == cudaErrorNoDevice || e_ == cudaErrorInsufficientDriver ? 77 : 1); } } while (0)

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)256 << 20;
    int copies = argc > 2 ? atoi(argv[2]) : 8, reps = argc > 3 ? atoi(argv[3]) : 10;
    if (!bytes || copies < 1 || reps < 1 || reps > 1000) { fprintf(stderr, "memcpy_loop: bad arguments\n"); return 1; }
    void *h, *d;
    cudaStream_t s;
    cudaEvent_t e0, e1;
    double gbs[1000];
    CK(cudaMallocHost(&h, bytes));
    CK(cudaMalloc(&d, bytes));
    CK(cudaStreamCreate(&s));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int dir = 0; dir < 2; dir++) {
        for (int r = -1; r < reps; r++) {  /* r = -1: warm-up */
            float ms;
            CK(cudaEventRecord(e0, s));
            for (int i = 0; i < copies; i++)
                CK(cudaMemcpyAsync(dir ? h : d, dir ? d : h, bytes, dir ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice, s));
            CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0) gbs[r] = (double)bytes * copies / (ms / 1e3) / 1e9;
        }
        qsort(gbs, (size_t)reps, sizeof gbs[0], cmp);
        printf("memcpy_loop %s %zu bytes x %d copies: median %.2f GB/s, min %.2f, max %.2f (%d repetitions)\n",
               dir ? "dtoh" : "htod", bytes, copies, gbs[(reps - 1) / 2], gbs[0], gbs[reps - 1], reps);
    }
    CK(cudaFreeHost(h));
    CK(cudaFree(d));
    return 0;
}
