/* umb_bcast: MPI_Bcast latency, every rank's buffer placed before each call
   (docs/method.md). */
#include "collective/coll.h"
#include "error.h"
#include "pattern.h"

#include <mpi.h>

static const umb_cli cli = {
    .program = "umb_bcast",
    .summary = "MPI_Bcast latency with per-rank buffer placement",
    .iters = 1000, .skip = 200, .iters_large = 100, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 20,
    .collective = 1,
};

static double op(umb_coll_bufs *bufs, size_t size, int root)
{
    double seconds;
    int count = UMB_MPI_COUNT(size);  /* outside the timed bracket */
    UMB_MPI_TIMED(seconds, MPI_Bcast(bufs->recv.ptr, count, MPI_BYTE, root, MPI_COMM_WORLD));
    return seconds;
}

static void fill(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root)
{
    if (b->rank == root) umb_buffer_fill(&bufs->recv, 0, size, umb_pattern_seed(i, size, root));
}

static int check(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root)
{
    return b->rank == root || umb_bench_check(b, &bufs->recv, 0, size, i, root);
}

/* The root's message reaches every other rank. */
static double payload(int nranks, size_t size) { return (double)size * (nranks - 1); }

int main(int argc, char **argv)
{
    const umb_collective c = {
        .cli = &cli, .call = "MPI_Bcast", .rooted = 1,
        .send_blocks = 0, .recv_blocks = 1,
        .op = op, .fill = fill, .check = check,
        .payload = payload,
    };
    return umb_collective_main(&c, argc, argv);
}
