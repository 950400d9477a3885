/* umb_put_bw: MPI_Put bandwidth: a window of puts into rank 1's window and their synchronisation (-s); rank 1's window
   lies on its buffer, of its kind, placed before every iteration
   (docs/method.md, "One-sided programs"). */
#include "rma/rma.h"

static const umb_cli cli = {
    .program = "umb_put_bw",
    .summary = "bandwidth of a window of MPI_Put into a window on rank 1, with its synchronisation (-s: flush by default)",
    .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .window = 64,
};

int main(int argc, char **argv)
{
    const umb_rma r = {.cli = &cli, .op = UMB_RMA_PUT, .bandwidth = 1};
    return umb_rma_main(&r, argc, argv);
}
