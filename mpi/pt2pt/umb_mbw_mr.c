/* umb_mbw_mr: multi-pair bandwidth and message rate, OMB's osu_mbw_mr
   method: with 2N ranks, rank r < N sends windows to rank r + N
   (docs/method.md). */
#include "p2p/p2p.h"

static const umb_cli cli = {
    .program = "umb_mbw_mr",
    .summary = "multi-pair bandwidth and message rate (ranks r < N send to r + N)",
    .nbuffers = 2,
    .iters = 100, .skip = 10, .iters_large = 20, .skip_large = 2, .large_size = 8192,
    .max_size = (size_t)1 << 22,
    .window = 64,
};

static const umb_metric bandwidth = {"MB/s", "Bandwidth (MB/s)", "bandwidth_mbs", 1};

int main(int argc, char **argv)
{
    const umb_p2p p = {
        .cli = &cli,
        .motion = UMB_P2P_WINDOW,
        .pairs = 1,
        .metric = &bandwidth,
        .phase = "multi-pair bandwidth",
        .window_per = "per rank",
        .nextra = 1,
        .extra = {{.title = "Messages/s", .key = "messages_per_s", .decimals = 2}},
        .loop_handshake = "handshake: per window, every rank places, receivers pre-post, a barrier, then one timed window and ack per pair",
        .loop_classic = "classic OMB: windows back to back",
        .units = "MB/s = 10^6 bytes/s and messages/s, summed over the senders",
    };
    return umb_p2p_main(&p, argc, argv);
}
