/* A window of messages in flight (the bandwidth programs): its buffers,
   placed, filled, posted and checked together. */
#ifndef UMB_WINDOW_H
#define UMB_WINDOW_H

#include "bench.h"

#include <mpi.h>

typedef struct {
    umb_buffer *buf;
    int nbuf;      /* umb_window_buffers(): the window, or 1 shared slot */
    int window;
} umb_window;

/* Collective: this rank's buffers of its kind, each of `bytes`. */
void umb_window_alloc(umb_bench *b, umb_window *w, size_t bytes);
void umb_window_free(umb_window *w);
/* Message j of a window of iteration i carries the pattern of i * window + j. */
void umb_window_fill(umb_window *w, size_t size, long i, int sender);
void umb_window_place(umb_window *w, size_t size, umb_place_with how);
void umb_window_irecv(umb_window *w, size_t size, int peer, int tag, MPI_Request *reqs);
void umb_window_isend(umb_window *w, size_t size, int peer, int tag, MPI_Request *reqs);
/* Checks every byte of every message of iteration i; 1 when all match. */
int umb_window_check(umb_bench *b, umb_window *w, size_t size, long i, int sender);

#endif
