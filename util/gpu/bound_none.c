/* bound.h for a host-only build: nothing to measure. */
#include "bound.h"

#include <stdio.h>

int umb_bound_measure_host(int gpu, umb_measured_bound *b)
{
    b->gpu = gpu;
    snprintf(b->why, sizeof b->why, "host-only build");
    return -1;
}

int umb_bound_measure_peer(int from, int to, umb_measured_bound *b)
{
    b->peer_from = from, b->peer_to = to;
    snprintf(b->why, sizeof b->why, "host-only build");
    return -1;
}
