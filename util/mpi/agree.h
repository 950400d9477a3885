/* What every rank must agree on (agree.c): one end for all, and a buffer
   on every rank. Programs see it through bench.h. */
#ifndef UMB_AGREE_H
#define UMB_AGREE_H

#include "bench_state.h"
#include "buffer.h"

/* Collective: when any rank passes a non-zero code, the lowest such rank
   prints its message (one line) and exits with the highest code (a skip,
   77, half a second after the others), every other rank with 0. */
void umb_agree(int code, const char *message);
/* The same for one pair of several in a launch (pairs.c): the job goes on.
   Returns the highest code (0: none); why gets the lowest rank's message
   on every rank. */
int umb_agree_pair(int code, const char *message, char *why, size_t n);

/* Collective: allocates this rank's buffer of its kind, or ends the job
   cleanly with the reason. */
void umb_bench_alloc(umb_bench *b, umb_buffer *buf, size_t bytes);
/* The same with another kind (a collective rank's buffers as the root). */
void umb_bench_alloc_kind(umb_bench *b, umb_buffer *buf, umb_kind kind, size_t bytes);

#endif
