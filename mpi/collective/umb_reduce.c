/* umb_reduce: MPI_Reduce (MPI_FLOAT, MPI_SUM) latency to a root, every
   rank's buffers placed before each call (docs/method.md). */
#include "collective/coll.h"
#include "error.h"

#include <mpi.h>

static const umb_cli cli = {
    .program = "umb_reduce",
    .summary = "MPI_Reduce latency (MPI_FLOAT sum to a root) with per-rank buffer placement",
    .iters = 1000, .skip = 200, .iters_large = 100, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 20,
    .min_size = 4,
    .collective = 1,
    .cpu_part = "adds the buffers inside MPI_Reduce",
};

static double op(umb_coll_bufs *bufs, size_t size, int root)
{
    double seconds;
    int count = UMB_MPI_COUNT(size / sizeof(float));  /* outside the timed bracket */
    UMB_MPI_TIMED(seconds, MPI_Reduce(bufs->send.ptr, bufs->recv.ptr, count, MPI_FLOAT, MPI_SUM, root,
                                      MPI_COMM_WORLD));
    return seconds;
}

static void fill(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root)
{
    (void)root;
    umb_coll_fill_floats(b, bufs, size, i);
}

static int check(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root)
{
    return b->rank != root || umb_coll_check_sum(b, bufs, size, i);
}

int main(int argc, char **argv)
{
    const umb_collective c = {
        .cli = &cli, .call = "MPI_Reduce", .rooted = 1,
        .send_blocks = 1, .recv_blocks = 1,
        .op = op, .fill = fill, .check = check,
    };
    return umb_collective_main(&c, argc, argv);
}
