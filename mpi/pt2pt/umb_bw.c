/* umb_bw: unidirectional bandwidth, rank 0 to rank 1, OMB's method: a
   window of non-blocking sends, MPI_Waitall, then a short ack
   (docs/method.md). */
#include "p2p/p2p.h"

static const umb_cli cli = {
    .program = "umb_bw",
    .summary = "unidirectional bandwidth from rank 0 to rank 1 (a window of non-blocking sends, then an ack)",
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
        .motion = UMB_P2P_WINDOW,
        .metric = &bandwidth,
        .phase = "bandwidth",
        .window_per = "per rank",
        .loop_handshake = "handshake: per window, both ranks place, rank 1 pre-posts and signals ready, then one timed window and ack",
        .loop_classic = "classic OMB: windows back to back",
        .units = "MB/s = 10^6 bytes/s: size x window / time from first send to ack",
    };
    return umb_p2p_main(&p, argc, argv);
}
