/* The upper bound for a shared-memory MPI copy on this machine: one thread's
   memcpy bandwidth between two page-aligned buffers, in MB/s (10^6), for a
   cache-sized and a memory-sized block. Used by tests/gpu/run-all to
   explain umb_bw H H. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void measure(size_t bytes, int reps)
{
    char *a = aligned_alloc(4096, bytes), *b = aligned_alloc(4096, bytes);
    if (!a || !b) {
        fprintf(stderr, "memcpy_bw: cannot allocate 2 x %zu bytes\n", bytes);
        exit(1);
    }
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    memcpy(b, a, bytes);  /* warm-up */
    double best = 1e30, total = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        memcpy(r & 1 ? a : b, r & 1 ? b : a, bytes);
        double t = now() - t0;
        total += t;
        if (t < best) best = t;
    }
    printf("memcpy %9zu bytes: avg %9.0f MB/s, best %9.0f MB/s (%d copies)\n", bytes,
           (double)bytes * reps / total / 1e6, (double)bytes / best / 1e6, reps);
    if (a[bytes / 2] != 1 || b[bytes / 3] != 1) {
        fprintf(stderr, "memcpy_bw: copy check failed\n");
        exit(1);
    }
    free(a);
    free(b);
}

int main(void)
{
    measure((size_t)4 << 20, 500);
    measure((size_t)256 << 20, 10);
    return 0;
}
