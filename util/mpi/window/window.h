/* A window of messages in flight (the bandwidth programs): its buffers,
   placed, filled, posted and checked together. */
#ifndef UMB_WINDOW_H
#define UMB_WINDOW_H

#include "bench.h"

#include <mpi.h>

enum { UMB_TAG_DATA = 100, UMB_TAG_ACK = 101, UMB_TAG_READY = 102 };

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
/* -c: every byte of every message of iteration i, message j of the window
   against the pattern of message i * window + j from `sender`; 1 when all
   match (tests/unit/test_window_check.c corrupts each in turn). */
int umb_window_check(umb_bench *b, umb_window *w, size_t size, long i, int sender);
/* The same for a window of `per` operations whose first `slots` lie one
   after another in one buffer (the one-sided programs' window). */
int umb_window_check_slots(umb_bench *b, umb_buffer *buf, int slots, int per, size_t size, long i, int sender);

/* The sender's side of one window: post every send, wait for all, then
   receive the receiver's 4-byte ack (OMB's osu_bw). */
void umb_window_send_acked(umb_window *w, size_t size, int peer, MPI_Request *reqs);
/* Its second half, the sends posted (umb_window_isend with UMB_TAG_DATA). */
void umb_window_wait_acked(umb_window *w, int peer, MPI_Request *reqs);
/* The receiver's side, its receives already posted: wait for all, ack. */
void umb_window_wait_and_ack(umb_window *w, int peer, MPI_Request *reqs);

/* The header's Window and Window buffers lines: `window` operations (a
   `what`: "message", "operation") per iteration into `nbuf` buffers `per`
   (e.g. "per rank"); the one-sided programs' too, with their slots. */
void umb_window_header(umb_header *h, int window, int nbuf, const char *per, const char *what);

#endif
