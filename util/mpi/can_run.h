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
/* 1 and why (without the program's name) where --counters asks for CUPTI
   and this build has none: the run's refusal and --check-options' alike. */
int umb_counters_unbuilt(const umb_options *o, char *why, size_t n);
/* The library's CUDA-awareness, once per launch: sets b->aware. */
void umb_mpi_awareness(umb_bench *b);
/* Whether this rank can run the pair that b->opt holds: UMB_EXIT_SKIP with
   the reason in msg (a GPU buffer where this rank has none, D where the
   library is not CUDA-aware), or 0. Not collective: pairs.c agrees on it. */
int umb_pair_skip(const umb_bench *b, char *msg, size_t n);

#endif
