/* The two-sided point-to-point family: a program states its motion (what
   each rank sends and receives per iteration) and its texts; p2p.c owns the
   buffers, the handshake and back-to-back loops, placement, validation and
   the observers' sweep (docs/method.md, docs/decisions.md). */
#ifndef UMB_P2P_H
#define UMB_P2P_H

#include "bench.h"
#include "figures.h"  /* umb_p2p_motion */

typedef struct {
    const umb_cli *cli;
    umb_p2p_motion motion;
    /* 1: any even number of ranks, rank r < N sending to r + N, the senders'
       rates summed (osu_mbw_mr); 0: exactly two ranks. */
    int pairs;
    const umb_metric *metric;
    const char *phase;         /* named in --timeout messages */
    const char *window_per;    /* the Window buffers line's "per ..."; NULL: no window lines */
    const char *loop_handshake, *loop_classic, *units;
    int nextra;
    umb_col extra[2];
} umb_p2p;

/* The whole program: init, buffers, the sweep, the end. */
int umb_p2p_main(const umb_p2p *p, int argc, char **argv);

#endif
