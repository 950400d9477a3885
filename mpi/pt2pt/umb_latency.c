/* umb_latency: ping-pong latency between 2 ranks, with managed buffers
   placed before every round trip (docs/method.md). */
#include "p2p/p2p.h"

static const umb_cli cli = {
    .program = "umb_latency",
    .summary = "ping-pong latency between 2 ranks",
    .nbuffers = 2,
    .iters = 10000, .skip = 100, .iters_large = 1000, .skip_large = 10, .large_size = 8192,
    .max_size = (size_t)1 << 22,
};

static const umb_metric latency = {"Avg Latency(us)", "Latency(us)", "latency_us", 0};

int main(int argc, char **argv)
{
    const umb_p2p p = {
        .cli = &cli,
        .motion = UMB_P2P_PING_PONG,
        .metric = &latency,
        .phase = "latency",
        .loop_handshake = "handshake: per iteration, both ranks place and pre-post, rank 1 signals ready, then one timed round trip",
        .loop_classic = "classic OMB: back-to-back round trips",
        .units = "latency in microseconds, one-way = round trip / 2",
    };
    return umb_p2p_main(&p, argc, argv);
}
