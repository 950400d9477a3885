/* umb_get_latency: MPI_Get latency: one get from rank 1's window and its synchronisation (-s); rank 1's window
   lies on its buffer, of its kind, placed before every iteration
   (docs/method.md, "One-sided programs"). */
#include "rma/rma.h"

static const umb_cli cli = {
    .program = "umb_get_latency",
    .summary = "latency of MPI_Get from a window on rank 1, with its synchronisation (-s: flush by default)",
    .nbuffers = 2,
    .iters = 10000, .skip = 100, .iters_large = 1000, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 22,
};

int main(int argc, char **argv)
{
    const umb_rma r = {.cli = &cli, .op = UMB_RMA_GET, .bandwidth = 0};
    return umb_rma_main(&r, argc, argv);
}
