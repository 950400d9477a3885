/* The plainest MPI loops, the reference for the harness's own cost
   (docs/method.md, "What the harness costs"): the same messages, buffers and
   iteration counts as umb_latency, umb_bw, umb_bibw and umb_bcast with H
   buffers, nothing else in the loop; also the end-to-end reference of
   those programs' figures (tests/mpi/overhead.sh). Ping-pong and bandwidth
   are timed once around all timed iterations; a broadcast is timed per call, as in OMB, so that
   the barrier between calls stays outside. handshake is umb_latency's
   handshake loop, bare.

   latency-laps and bw-laps: the same loops plus what umbench keeps per
   iteration for its percentiles (util/mpi/laps.h), one read of the x86
   time-stamp counter and one store, where umbench makes them (after the
   send; after a window's sends): what that feature alone costs.

   usage: mpi_bare latency|latency-laps|handshake|bw|bw-laps|bibw|bcast [MAX_BYTES [ITERS WARMUP]]
   (ITERS and WARMUP: one count for every size, as umbench's -i and -x)
   prints "size value iterations" per line: one-way latency in us, MB/s, or
   the broadcast's mean over ranks of each rank's mean in us. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE = 4096, WINDOW = 64, LARGE = 8192 };

static unsigned char *buffer(size_t bytes, int byte)
{
    size_t n = (bytes + PAGE - 1) / PAGE * PAGE;
    unsigned char *p = aligned_alloc(PAGE, n);
    if (!p) MPI_Abort(MPI_COMM_WORLD, 1);
    memset(p, byte, n);
    return p;
}

static uint64_t *stamps;  /* the laps' readings: one per iteration */

/* The laps variants' mark (a constant 0 in the plain loops: no code). */
#define LAP(on, i) do { if (on) stamps[i] = ticks(); } while (0)

static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}

static inline __attribute__((always_inline)) double
latency_loop(int rank, unsigned char *s, unsigned char *r, size_t size, long iters, long skip, int laps)
{
    int peer = 1 - rank;
    double t0 = 0;
    for (long i = 0; i < skip + iters; i++) {
        if (i == skip) t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(s, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            LAP(laps, i);
            MPI_Recv(r, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) * 1e6 / (2.0 * (double)iters);
}

/* OMB's osu_bw: a window of sends from one buffer, then a 4-byte ack. */
static inline __attribute__((always_inline)) double
bandwidth_loop(int rank, unsigned char *s, unsigned char *r, size_t size, long iters, long skip, int laps)
{
    int peer = 1 - rank;
    unsigned char *buf = rank == 0 ? s : r;
    MPI_Request req[WINDOW];
    char ack[4] = {0};
    double t0 = 0;
    for (long i = 0; i < skip + iters; i++) {
        if (i == skip) t0 = MPI_Wtime();
        if (rank == 0) {
            for (int j = 0; j < WINDOW; j++) MPI_Isend(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
            LAP(laps, i);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Recv(ack, 4, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int j = 0; j < WINDOW; j++) MPI_Irecv(buf, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
            MPI_Waitall(WINDOW, req, MPI_STATUSES_IGNORE);
            MPI_Send(ack, 4, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
        }
    }
    return (double)size * WINDOW * (double)iters / (MPI_Wtime() - t0) / 1e6;
}

/* OMB's osu_bibw: both ranks post a window of receives and a window of
   sends to each other; the figure counts both directions' bytes. */
static double bibw(int rank, int nranks, unsigned char *s, unsigned char *r, size_t size, long iters, long skip)
{
    (void)nranks;
    int peer = 1 - rank;
    MPI_Request req[2 * WINDOW];
    double t0 = 0;
    for (long i = 0; i < skip + iters; i++) {
        if (i == skip) t0 = MPI_Wtime();
        for (int j = 0; j < WINDOW; j++) MPI_Irecv(r, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
        for (int j = 0; j < WINDOW; j++) MPI_Isend(s, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[WINDOW + j]);
        MPI_Waitall(2 * WINDOW, req, MPI_STATUSES_IGNORE);
    }
    return 2.0 * (double)size * WINDOW * (double)iters / (MPI_Wtime() - t0) / 1e6;
}

#define LOOP_KIND(name, loop, laps)                                                                                \
    static double name(int rank, int nranks, unsigned char *s, unsigned char *r, size_t size, long iters, long skip) \
    {                                                                                                              \
        (void)nranks;                                                                                              \
        return loop(rank, s, r, size, iters, skip, laps);                                                          \
    }
LOOP_KIND(latency, latency_loop, 0)
LOOP_KIND(latency_laps, latency_loop, 1)
LOOP_KIND(bandwidth, bandwidth_loop, 0)
LOOP_KIND(bandwidth_laps, bandwidth_loop, 1)

static double bcast(int rank, int nranks, unsigned char *s, unsigned char *buf, size_t size, long iters, long skip)
{
    (void)rank, (void)s;
    double sum = 0, all;
    for (long i = 0; i < skip + iters; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Bcast(buf, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (i >= skip) sum += MPI_Wtime() - t0;
    }
    double mean = sum * 1e6 / (double)iters;
    MPI_Reduce(&mean, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    return all / nranks;
}

/* umb_latency's handshake loop, bare: per iteration both ranks pre-post
   the receive, rank 1 sends a 0-byte ready message, then rank 0 times one
   round trip alone. */
static double handshake(int rank, int nranks, unsigned char *s, unsigned char *r, size_t size, long iters, long skip)
{
    (void)nranks;
    int peer = 1 - rank;
    double sum = 0;
    for (long i = 0; i < skip + iters; i++) {
        MPI_Request req;
        MPI_Irecv(r, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req);
        if (rank == 0) {
            MPI_Recv(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double t0 = MPI_Wtime();
            MPI_Send(s, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (i >= skip) sum += MPI_Wtime() - t0;
        } else {
            MPI_Send(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            MPI_Send(s, (int)size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
    return sum * 1e6 / (2.0 * (double)iters);
}

/* The umbench programs' defaults (their umb_cli tables). */
typedef struct {
    const char *name;
    double (*loop)(int rank, int nranks, unsigned char *s, unsigned char *r, size_t size, long iters, long skip);
    int pairs;  /* 2 ranks only */
    long iters, skip, iters_large, skip_large;
    size_t max;
} loop_kind;

static const loop_kind kinds[] = {
    {"latency", latency, 1, 10000, 100, 1000, 10, (size_t)1 << 22},
    {"latency-laps", latency_laps, 1, 10000, 100, 1000, 10, (size_t)1 << 22},
    {"handshake", handshake, 1, 10000, 100, 1000, 10, (size_t)1 << 22},
    {"bw", bandwidth, 1, 100, 10, 20, 2, (size_t)1 << 22},
    {"bw-laps", bandwidth_laps, 1, 100, 10, 20, 2, (size_t)1 << 22},
    {"bibw", bibw, 1, 100, 10, 20, 2, (size_t)1 << 22},
    {"bcast", bcast, 0, 1000, 200, 100, 10, (size_t)1 << 20},
};

/* A whole decimal count, or -1. */
static long count(const char *text)
{
    char *end;
    long v = strtol(text, &end, 10);
    return end != text && !*end && v >= 0 ? v : -1;
}

int main(int argc, char **argv)
{
    int rank, nranks;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const loop_kind *k = NULL;
    for (size_t j = 0; argc > 1 && j < sizeof kinds / sizeof kinds[0]; j++)
        if (!strcmp(argv[1], kinds[j].name)) k = &kinds[j];
    size_t max = k && argc > 2 ? (size_t)count(argv[2]) : k ? k->max : 0;
    long fixed_iters = argc > 4 ? count(argv[3]) : 0, fixed_skip = argc > 4 ? count(argv[4]) : 0;
    int bad_counts = argc == 4 || argc > 5 || (argc > 4 && (fixed_iters < 1 || fixed_skip < 0));
    if (!k || max == 0 || max == (size_t)-1 || (k->pairs && nranks != 2) || bad_counts) {
        if (rank == 0) {
            char got[256] = "";
            for (int a = 1; a < argc; a++)
                snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", a > 1 ? " " : "", argv[a]);
            fprintf(stderr, "mpi_bare: usage: mpi_bare latency|latency-laps|handshake|bw|bw-laps|bibw|bcast [MAX_BYTES [ITERS WARMUP]] "
                    "(all but bcast: 2 ranks), "
                    "got '%s' on %d ranks\n", got, nranks);
        }
        MPI_Finalize();
        return 1;
    }
    unsigned char *s = buffer(max, 'a'), *r = buffer(max, 'b');
    if (strstr(k->name, "-laps")) {  /* only there: the plain loops' memory stays as it was */
        long most = fixed_iters ? fixed_iters + fixed_skip : k->iters + k->skip;
        if (!fixed_iters && k->iters_large + k->skip_large > most) most = k->iters_large + k->skip_large;
        stamps = malloc(sizeof *stamps * (size_t)most);
        if (!stamps) MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) printf("# mpi_bare %s, %d ranks\n", k->name, nranks);
    for (size_t size = 1; size <= max; size *= 2) {
        long iters = fixed_iters ? fixed_iters : size > LARGE ? k->iters_large : k->iters;
        long skip = fixed_iters ? fixed_skip : size > LARGE ? k->skip_large : k->skip;
        MPI_Barrier(MPI_COMM_WORLD);
        double v = k->loop(rank, nranks, s, r, size, iters, skip);
        if (rank == 0) printf("%zu %.3f %ld\n", size, v, iters);
        fflush(stdout);
    }
    free(stamps);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
