/* --timeout: a thread that ends the job when the benchmark stops making progress. */
#ifndef UMB_WATCHDOG_H
#define UMB_WATCHDOG_H

#include <stddef.h>

/* Starts the watchdog (seconds <= 0: does nothing). */
void umb_watchdog_start(double seconds, int rank, const char *host);
/* Marks progress: called as each iteration starts (warm-up included);
   a few stores, plus the --counters and placement-log marks. */
void umb_progress(size_t size, long iteration);
/* Names the phase in the abort message ("setup", "latency"). */
void umb_progress_phase(const char *phase);

#endif
