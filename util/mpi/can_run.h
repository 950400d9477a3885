/* Can this run here? The checks that end a job cleanly after MPI_Init,
   each collective: every rank calls them, and the lowest rank with a
   reason prints it (umb_agree). umb_bench_init calls them in order. */
#ifndef UMB_CAN_RUN_H
#define UMB_CAN_RUN_H

#include "bench_state.h"

/* A bad command line (err from umb_options_parse, bad its return), the
   rank count (ranks as umb_bench_init takes it), and the collectives'
   per-rank options: exit 1 with the reason. */
void umb_check_usage(const umb_bench *b, int bad, const char *err, int ranks);
/* --counters in a build without CUPTI ends the job; CUPTI that did not
   start leaves the getrusage counters, with a note. */
void umb_check_counters(const umb_bench *b);
/* Whether D buffers may go to this MPI (exit 77 when not); sets b->aware. */
void umb_check_cuda_aware(umb_bench *b);

#endif
