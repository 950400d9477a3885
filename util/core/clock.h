/* The one monotonic clock for host-side timing outside MPI (placement,
   the watchdog, the single-node drivers' host clock). */
#ifndef UMB_CLOCK_H
#define UMB_CLOCK_H

/* Monotonic seconds (CLOCK_MONOTONIC). */
double umb_now(void);

#endif
