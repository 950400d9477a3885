/* The header's common part for the MPI benchmarks (bench_header.c).
   bench.c's umb_bench_header puts the observers' lines between its
   pieces. */
#ifndef UMB_BENCH_HEADER_H
#define UMB_BENCH_HEADER_H

#include "bench_state.h"

/* Collective: every rank's facts to rank 0, which writes the lines up to
   the placement hints. */
void umb_header_facts(umb_bench *b, umb_header *h);
/* Rank 0: iterations, validation, timeout and the CUDA-awareness warning. */
void umb_header_limits(umb_bench *b, umb_header *h);
/* Rank 0 prints the header and lets it go. */
void umb_bench_header_print(umb_bench *b, umb_header *h);

#endif
