/* Observers of the sweep (docs/architecture.md, "The observers"):
   placement, the counters, the path, the precision and the findings watch
   each size through the same hooks, which the sweep calls in order; none
   calls back into the sweep. A new observer is a folder under observers/
   and one line in bench.c's list. Every hook may be NULL. */
#ifndef UMB_OBSERVER_H
#define UMB_OBSERVER_H

#include "bench_state.h"
#include "counters.h"
#include "findings.h"
#include "mpi_check.h"

/* Where in the header the sweep asks for lines: after the placement lines
   of the common part, or at the end (after Loop and Units). */
typedef enum { UMB_HDR_PLACEMENT, UMB_HDR_END } umb_header_part;

/* One size, as the observers see it. */
typedef struct {
    size_t size;
    long iters, skip;
    const umb_metric *metric;
    double payload;          /* bytes handed to the library per timed iteration (NAN unknown) */
    int *keep;               /* per timed iteration: 0 leaves it out of the row (every rank agrees) */
    int *split;              /* NULL, or per timed iteration 1/0: the row also gets each group's stats */
    const double *times;     /* per timed iteration: this rank's seconds, as the loop measured them */
    int attempt;             /* 0, then 1, 2... when the size runs again */
    long again;              /* set by an observer's end (every rank alike): run the size again with this many timed iterations */
    umb_counts phases[UMB_NPHASES];  /* what was counted, per phase (counters.h), when counting is on */
    umb_stats stats;         /* rank 0: the row, over the kept iterations */
    umb_stats group[2];      /* rank 0, with split: split 1, split 0 */
    umb_row_facts facts;     /* what the findings read; each observer fills its part */
} umb_row;

typedef struct {
    const char *name;
    /* First of all, before any library reads it: the environment; may
       start the program again (execv) with argv, once. */
    void (*environment)(umb_bench *b, char **argv);
    /* Before MPI_Init and any CUDA context (CUPTI); no MPI. */
    void (*prepare)(umb_bench *b);
    /* Collective, before the header is written (rank 0 knows b->ranks). */
    void (*start)(umb_bench *b);
    /* Rank 0: header lines for this part. */
    void (*header)(umb_bench *b, umb_header *h, umb_header_part part);
    /* Rank 0: the titles of its columns; returns how many. */
    int (*titles)(umb_bench *b, const umb_metric *m, umb_col *cols);
    /* Before a size's first attempt, on every rank alike, no MPI: may set
       its timed iterations (row->iters). */
    void (*plan)(umb_bench *b, umb_row *row);
    /* Before the size's first iteration (warm-up included). */
    void (*begin)(umb_bench *b, umb_row *row);
    /* Right after the loop, on this rank alone: stop counting. */
    void (*stop)(umb_bench *b, umb_row *row);
    /* Collective, after the ranks agreed on validity: gather; may clear
       keep[] and set split, and set again (only the last attempt makes the row). */
    void (*end)(umb_bench *b, umb_row *row);
    /* Rank 0, once the row's statistics are known: its columns; returns how many. */
    int (*columns)(umb_bench *b, umb_row *row, umb_col *cols);
    /* Collective, after the last size. */
    void (*report)(umb_bench *b);
} umb_observer;

extern const umb_observer umb_place_observer;     /* observers/place/ */
extern const umb_observer umb_counters_observer;  /* observers/counters/ */
extern const umb_observer umb_path_observer;      /* observers/path/ */
extern const umb_observer umb_precision_observer; /* observers/precision/ */
extern const umb_observer umb_findings_observer;  /* observers/findings/ */

#endif
