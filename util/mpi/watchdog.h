/* --timeout: a thread that ends the job when the benchmark stops making progress. */
#ifndef UMB_WATCHDOG_H
#define UMB_WATCHDOG_H

#include <stdatomic.h>
#include <stddef.h>

/* Starts the watchdog (seconds <= 0: does nothing) before MPI_Init, so
   that a start-up or an ending that hangs (a launcher killed under the
   ranks) ends too; its message says "before MPI_Init" until
   umb_watchdog_where. */
void umb_watchdog_start(double seconds);
/* The shortest --timeout the watchdog honours: it looks every 0.1 s, and a
   start (MPI_Init, a CUDA context) marks no progress for longer than a
   shorter limit would allow; options_parse.c refuses a shorter one (0 is off). */
#define UMB_WATCHDOG_MIN_S 1.0
/* The line it prints when it ends the job (no newline), for `limit`
   seconds: the rank and host once known, else "before MPI_Init". */
void umb_watchdog_line(char *buf, size_t n, double limit);
/* The rank and host the abort message names, once known. */
void umb_watchdog_where(int rank, const char *host);
/* Marks progress: called once per iteration (warm-up included), as it
   starts or, in the back-to-back loops, once its messages are under way;
   a few stores, plus the --counters and placement-log marks. */
void umb_progress(size_t size, long iteration);
/* The back-to-back loops' mark, inside their timed region: umb_progress
   where the phase changes (the first iteration, then the first timed one:
   --counters splits warm-up from measured there), else only the one store
   that tells the watchdog which iteration runs (issue 43). */
extern atomic_long umb_progress_at;
static inline void umb_progress_loop(size_t size, long iteration, long skip)
{
    if (iteration == 0 || iteration == skip) umb_progress(size, iteration);
    else atomic_store_explicit(&umb_progress_at, iteration, memory_order_relaxed);
}
/* A message size starts: named in the abort message even before a rank
   marks its first iteration (a back-to-back loop marks once its first
   messages are under way). */
void umb_progress_size(size_t size);
/* Names the phase in the abort message ("setup", "latency"). */
void umb_progress_phase(const char *phase);

#endif
