/* --timeout: a thread that ends the job when the benchmark stops making progress. */
#ifndef UMB_WATCHDOG_H
#define UMB_WATCHDOG_H

#include <stddef.h>

/* Starts the watchdog (seconds <= 0: does nothing) before MPI_Init, so
   that a start-up or an ending that hangs (a launcher killed under the
   ranks) ends too; its message names rank -1 until umb_watchdog_where. */
void umb_watchdog_start(double seconds);
/* The rank and host the abort message names, once known. */
void umb_watchdog_where(int rank, const char *host);
/* Marks progress: called once per iteration (warm-up included), as it
   starts or, in the back-to-back loops, once its messages are under way;
   a few stores, plus the --counters and placement-log marks. */
void umb_progress(size_t size, long iteration);
/* A message size starts: named in the abort message even before a rank
   marks its first iteration (a back-to-back loop marks once its first
   messages are under way). */
void umb_progress_size(size_t size);
/* Names the phase in the abort message ("setup", "latency"). */
void umb_progress_phase(const char *phase);

#endif
