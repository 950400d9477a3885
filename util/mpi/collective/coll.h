/* The collectives' shared harness: each rank's buffers of its own kind,
   placed before every timed call, then a barrier, then only the MPI call is
   timed; OMB's reduction of the times. A collective file defines its call,
   its buffer sizes, and what -c writes and checks. */
#ifndef UMB_COLL_H
#define UMB_COLL_H

#include "bench.h"

typedef struct {
    umb_buffer send, recv;
} umb_coll_bufs;

typedef struct {
    const umb_cli *cli;
    const char *call;          /* "MPI_Bcast", for the header */
    int rooted;                /* has a root: takes -k */
    /* Buffer sizes in messages: 0 (none), 1, or UMB_PER_RANK (one block per rank). */
    int send_blocks, recv_blocks;
    /* The call, timed by UMB_MPI_TIMED right around it: its seconds. */
    double (*op)(umb_coll_bufs *bufs, size_t size, int root);
    /* -c: write what this rank sends in iteration i, then check what it got. */
    void (*fill)(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root);
    int (*check)(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i, int root);
    /* Bytes the library delivers per call, for --path (NULL: not stated). */
    double (*payload)(int nranks, size_t size);
} umb_collective;

#define UMB_PER_RANK (-1)

/* For MPI_FLOAT sums (allreduce, reduce): each rank sends small integers
   that depend on rank, element and iteration, so every sum is exact in
   float whatever the order; the check compares the received sum exactly. */
void umb_coll_fill_floats(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i);
int umb_coll_check_sum(umb_bench *b, umb_coll_bufs *bufs, size_t size, long i);

/* The whole program: start, buffers, header, every size, finish. */
int umb_collective_main(const umb_collective *c, int argc, char **argv);

#endif
