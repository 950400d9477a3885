/* The end-to-end reference of umbench's figures (tests/mpi/overhead.sh,
   issue 70): the plainest MPI loops on 2 ranks, each iteration timed on
   its own; the median iteration's figure printed, as umbench's P50
   column, and the best iteration's, as its min latency or max bandwidth:
   both move little when other processes preempt some iterations, where a
   whole run's mean does.

   usage: mpi_reference latency|bw|bibw|bcast SIZE ITERS
   latency: one-way, half the median round trip, in us; bw: MB/s of the
   median window of 64 sends and its ack, one way; bibw: both ranks send
   a window of 64 to each other, MB/s of both ways' bytes; bcast: the
   median call of either rank, in us (a barrier before each).
   Prints "SIZE MEDIAN BEST". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WINDOW = 64 };

/* Page-aligned and written, as umbench's H buffers: no zero page behind a message. */
static char *buffer(int size, int byte)
{
    size_t n = ((size_t)size + 4095) / 4096 * 4096;
    char *p = aligned_alloc(4096, n);
    if (p) memset(p, byte, n);
    return p;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One iteration of `kind`; its seconds. */
static double once(const char *kind, int rank, char *s, char *r, int size)
{
    int peer = 1 - rank;
    MPI_Request req[2 * WINDOW];
    char ack[4] = {0};
    double t0 = MPI_Wtime();
    if (!strcmp(kind, "latency")) {
        if (rank == 0) MPI_Send(s, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(r, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (rank == 1) MPI_Send(s, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
    } else if (!strcmp(kind, "bw")) {
        for (int j = 0; j < WINDOW; j++)
            if (rank == 0) MPI_Isend(s, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
            else MPI_Irecv(r, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
        MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
        if (rank == 0) MPI_Recv(ack, 4, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else MPI_Send(ack, 4, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
    } else if (!strcmp(kind, "bibw")) {
        for (int j = 0; j < WINDOW; j++) MPI_Irecv(r, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
        for (int j = 0; j < WINDOW; j++) MPI_Isend(s, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[WINDOW + j]);
        MPI_Waitall(2 * WINDOW, req, MPI_STATUSES_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Bcast(r, size, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return MPI_Wtime() - t0;
}

/* One iteration's seconds as the figure umbench prints for it. */
static double figure(const char *kind, int size, double t)
{
    return !strcmp(kind, "latency") ? t * 1e6 / 2
         : !strcmp(kind, "bw")      ? (double)size * WINDOW / t / 1e6
         : !strcmp(kind, "bibw")    ? 2.0 * size * WINDOW / t / 1e6
                                    : t * 1e6;
}

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const char *kind = argc == 4 ? argv[1] : "";
    int size = argc == 4 ? atoi(argv[2]) : 0, iters = argc == 4 ? atoi(argv[3]) : 0;
    int known = !strcmp(kind, "latency") || !strcmp(kind, "bw") || !strcmp(kind, "bibw") || !strcmp(kind, "bcast");
    if (!known || size < 1 || iters < 1 || nranks != 2) {
        if (rank == 0) fprintf(stderr, "mpi_reference: usage: mpi_reference latency|bw|bibw|bcast SIZE ITERS, on 2 ranks\n");
        MPI_Finalize();
        return 1;
    }
    char *s = buffer(size, 'a'), *r = buffer(size, 'b');
    double *t = malloc(sizeof *t * (size_t)iters), *all = malloc(sizeof *all * 2 * (size_t)iters);
    if (!s || !r || !t || !all) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < iters / 10 + 1; i++) once(kind, rank, s, r, size);  /* warm-up */
    for (int i = 0; i < iters; i++) t[i] = once(kind, rank, s, r, size);
    MPI_Gather(t, iters, MPI_DOUBLE, all, iters, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double *pool = strcmp(kind, "bcast") ? t : all;  /* bcast: both ranks' calls */
        long n = strcmp(kind, "bcast") ? iters : 2L * iters;
        qsort(pool, (size_t)n, sizeof *pool, cmp);
        printf("%d %.3f %.3f\n", size, figure(kind, size, pool[n / 2]), figure(kind, size, pool[0]));
    }
    free(s), free(r), free(t), free(all);
    MPI_Finalize();
    return 0;
}
