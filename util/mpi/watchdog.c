#include "watchdog.h"

#include "clock.h"
#include "counters.h"
#include "error.h"
#include "placement.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_ulong ticks;
static atomic_size_t current_size;
atomic_long umb_progress_at;  /* the iteration, as marked */
static const char *_Atomic current_phase = "setup";
static double limit;
static int my_rank = -1;  /* until umb_watchdog_where */
static char my_host[256];

/* Only the main thread writes: relaxed loads and stores, no locked
   instruction in the timed loops. */
static void tick(size_t size, long iteration)
{
    atomic_store_explicit(&current_size, size, memory_order_relaxed);
    atomic_store_explicit(&umb_progress_at, iteration, memory_order_relaxed);
    atomic_store_explicit(&ticks, atomic_load_explicit(&ticks, memory_order_relaxed) + 1, memory_order_relaxed);
}

/* An iteration starts: also the counters' and the placement log's marks. */
void umb_progress(size_t size, long iteration)
{
    tick(size, iteration);
    umb_counters_iteration(iteration);
    umb_placement_iteration(iteration);
}

void umb_progress_size(size_t size) { tick(size, 0); }

void umb_progress_phase(const char *phase)
{
    atomic_store(&current_phase, phase);
    tick(atomic_load(&current_size), atomic_load(&umb_progress_at));
}

static void *watch(void *arg)
{
    (void)arg;
    /* Progress: a tick (umb_progress and the size and phase marks), or
       another iteration (umb_progress_loop stores only that). */
    unsigned long seen = atomic_load(&ticks);
    long seen_at = atomic_load(&umb_progress_at);
    double since = umb_now();
    for (;;) {
        usleep(100000);
        unsigned long t = atomic_load(&ticks);
        long at = atomic_load(&umb_progress_at);
        if (t != seen || at != seen_at) {
            seen = t;
            seen_at = at;
            since = umb_now();
        } else if (umb_now() - since > limit) {
            char line[512];
            umb_watchdog_line(line, sizeof line, limit);
            fprintf(stderr, "%s\n", line);
            fflush(stderr);
            /* Not MPI_Abort: this thread may not call MPI. The launcher sees the
               rank die and ends the others (their own watchdogs fire too). */
            _exit(124);
        }
    }
    return NULL;
}

void umb_watchdog_line(char *buf, size_t n, double limit)
{
    char who[300];
    if (my_rank >= 0) snprintf(who, sizeof who, "rank %d on %s", my_rank, my_host);
    else snprintf(who, sizeof who, "a rank before MPI_Init (no rank number yet)");
    /* %g: a limit of 1.5 s is said as such, never rounded to another figure */
    snprintf(buf, n, "%s: %s: no progress for %g s (--timeout) in %s, size %zu, iteration %ld; ending the job",
             umb_program(), who, limit, atomic_load(&current_phase), atomic_load(&current_size),
             atomic_load(&umb_progress_at));
}

void umb_watchdog_where(int rank, const char *host)
{
    my_rank = rank;
    snprintf(my_host, sizeof my_host, "%s", host);
}

void umb_watchdog_start(double seconds)
{
    pthread_t t;
    if (seconds <= 0) return;
    limit = seconds;
    if (pthread_create(&t, NULL, watch, NULL) != 0)
        umb_fatal("pthread_create", __FILE__, __LINE__, "cannot start the --timeout watchdog");
    pthread_detach(t);
}
