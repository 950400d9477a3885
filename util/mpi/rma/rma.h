/* The one-sided family (MPI_Put, MPI_Get into a window over the placed
   buffer of rank 1): a program states its operation and whether it times
   one operation or a window of them; rma.c owns the windows, the loops,
   placement, validation and the observers' sweep (docs/method.md,
   "One-sided programs"). */
#ifndef UMB_RMA_H
#define UMB_RMA_H

#include "bench.h"

typedef enum { UMB_RMA_PUT, UMB_RMA_GET } umb_rma_op;

typedef struct {
    const umb_cli *cli;
    umb_rma_op op;
    int bandwidth;  /* 1: a window of -W operations per synchronisation, MB/s; 0: one, latency in us */
} umb_rma;

/* The whole program: init, buffers, the window, the sweep, the end. */
int umb_rma_main(const umb_rma *r, int argc, char **argv);

#endif
