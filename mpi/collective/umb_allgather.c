/* umb_allgather: MPI_Allgather latency, every rank's buffers placed before
   each call (docs/method.md). Block r of the result is rank r's message. */
#include "collective/coll.h"
#include "error.h"
#include "pattern.h"

#include <mpi.h>

static const umb_cli cli = {
    .program = "umb_allgather",
    .summary = "MPI_Allgather latency with per-rank buffer placement",
    .iters = 1000, .skip = 200, .iters_large = 100, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 20,
    .collective = 1,
    .cpu_part = "copies each rank's own block inside MPI_Allgather",
};

static double op(umb_coll_bufs *bufs, size_t size, int root)
{
    double seconds;
    int count = UMB_MPI_COUNT(size);  /* outside the timed bracket */
    (void)root;
    UMB_MPI_TIMED(seconds, MPI_Allgather(bufs->send.ptr, count, MPI_BYTE, bufs->recv.ptr, count, MPI_BYTE,
                                         MPI_COMM_WORLD));
    return seconds;
}

static void fill(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root)
{
    (void)root;
    umb_buffer_fill(&bufs->send, 0, size, umb_pattern_seed(i, size, b->rank));
}

static int check(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root)
{
    (void)root;
    for (int r = 0; r < b->nranks; r++)
        if (!umb_bench_check(b, &bufs->recv, (size_t)r * size, size, i, r)) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    const umb_collective c = {
        .cli = &cli, .call = "MPI_Allgather", .rooted = 0,
        .send_blocks = 1, .recv_blocks = UMB_PER_RANK,
        .op = op, .fill = fill, .check = check,
    };
    return umb_collective_main(&c, argc, argv);
}
