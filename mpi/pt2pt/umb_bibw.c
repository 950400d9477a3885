/* umb_bibw: bidirectional bandwidth between rank 0 and rank 1, OMB's
   method: both ranks post a window of receives and a window of sends,
   then MPI_Waitall (docs/method.md). */
#include "p2p/p2p.h"

static const umb_cli cli = {
    .program = "umb_bibw",
    .summary = "bidirectional bandwidth between rank 0 and rank 1 (windows of non-blocking sends both ways)",
    .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .window = 64,
};

static const umb_metric bandwidth = {"Bandwidth (MB/s)", "Bandwidth (MB/s)", "bandwidth_mbs", 1};

int main(int argc, char **argv)
{
    const umb_p2p p = {
        .cli = &cli,
        .motion = UMB_P2P_EXCHANGE,
        .metric = &bandwidth,
        .phase = "bidirectional bandwidth",
        .window_per = "per direction per rank",
        .loop_handshake = "handshake: per iteration, both ranks place and pre-post, exchange ready, then one timed pair of windows",
        .loop_classic = "classic OMB: pairs of windows back to back",
        .units = "MB/s = 10^6 bytes/s: 2 x size x window / time of both windows on rank 0",
    };
    return umb_p2p_main(&p, argc, argv);
}
