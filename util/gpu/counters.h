/* --counters: unified-memory counters (CUPTI) and the process's page faults
   (getrusage), attributed to what the program was doing when they happened:
   a timed iteration, warm-up, placement, or fill and check (docs/method.md).
   No MPI here; the harness sums over ranks. */
#ifndef UMB_COUNTERS_H
#define UMB_COUNTERS_H

#include "output.h"

#include <stddef.h>
#include <stdint.h>

/* --counters: CUPTI and getrusage (full, -U), or getrusage and the
   placement check alone (light: no CUPTI, no cost to migrations). */
enum { UMB_COUNTERS_OFF, UMB_COUNTERS_FULL, UMB_COUNTERS_LIGHT };

typedef enum {
    UMB_CTR_GPU_FAULTS,     /* GPU page-fault groups */
    UMB_CTR_CPU_FAULTS,     /* CPU page faults on managed memory (records) */
    UMB_CTR_HTOD,           /* bytes migrated host to device */
    UMB_CTR_DTOH,           /* bytes migrated device to host */
    UMB_CTR_THRASHING,      /* thrashing events */
    UMB_CTR_THROTTLING,     /* throttling events */
    UMB_CTR_REMOTE_MAPS,    /* remote maps */
    UMB_CTR_MINFLT,         /* getrusage minor faults */
    UMB_CTR_MAJFLT,         /* getrusage major faults */
    UMB_NCTRS,
    /* CUDA copies the process made, any library in it included (--path):
       bytes by kind, and how many copies. */
    UMB_CPY_HTOD = UMB_NCTRS,
    UMB_CPY_DTOH,
    UMB_CPY_DTOD,
    UMB_CPY_PTOP,
    UMB_CPY_HTOH,
    UMB_CPY_COUNT,
    UMB_NALL
} umb_counter;

/* Where a moment of the run belongs. */
typedef enum { UMB_PH_IDLE, UMB_PH_WARMUP, UMB_PH_MEASURED, UMB_PH_PLACE, UMB_PH_CHECK, UMB_NPHASES } umb_phase;

typedef struct {
    double v[UMB_NALL];
} umb_counts;

/* Short table title ("GPU flt") and CSV/JSON key ("gpu_fault_groups"). */
const char *umb_counter_title(umb_counter c);
const char *umb_counter_key(umb_counter c);
/* Whether the CUPTI counters are on (else only getrusage). */
int umb_counters_cupti(void);
/* Records CUPTI reported dropped so far (counts are low when not 0). */
uint64_t umb_counters_dropped(void);

/* Starts counting: getrusage, and CUPTI's unified-memory counters when
   asked. Returns 1 with CUPTI, 0 with getrusage only (and CUPTI's reason
   in note). */
int umb_counters_start(int cupti, char *note, size_t n);
/* The same, and CUPTI's records of CUDA copies when copies is set (the
   UMB_CPY_* counts); getrusage only when rusage is set (--path alone reads
   no faults, so it marks phases without a system call). Returns 1 when
   CUPTI records what was asked. */
int umb_counters_start_with(int um, int copies, int rusage, char *note, size_t n);
/* Whether CUDA copies are recorded. */
int umb_counters_copies(void);
int umb_counters_on(void);

/* The harness's marks, all cheap no-ops while counting is off. A message
   size starts (its first `skip` iterations are warm-up); an iteration
   starts; placement or fill/check is entered and left. */
void umb_counters_size_begin(long skip);
void umb_counters_iteration(long i);
umb_phase umb_counters_enter(umb_phase p);
void umb_counters_leave(umb_phase previous);
/* The size ends: every record and fault since size_begin, per phase. */
void umb_counters_size_end(umb_counts per_phase[UMB_NPHASES]);

/* A row's counter columns for the single-node drivers: bytes each way,
   GPU and CPU faults, thrashing, remote maps of the measured operation,
   then the bytes placement moved each way, each scaled by `per` (1 /
   repetitions); titles and keys get the prefix and suffix given ("R1 ",
   "/rep"; "run1_", "_per_rep"). NaN while CUPTI is off. Returns 8. */
int umb_counter_cols(umb_col *cols, const char *tprefix, const char *tsuffix, const char *kprefix,
                     const char *ksuffix, const umb_counts *moved, const umb_counts *placed, double per);

/* The header's Counters line (and the note when CUPTI is off): `per`
   says what a column counts ("per timed repetition"). */
void umb_counters_header(umb_header *h, const char *per, const char *note);

/* The last line of a single-node driver, with CUPTI on: how many records
   CUPTI dropped ({"type":"counters","dropped_records":N} in JSON). */
void umb_counters_footer(umb_format f, FILE *out);

/* Single-node drivers: the header's warning when one demand-paged pass
   may move more than CUPTI reports (docs/method.md), for bytes > 64 MiB. */
void umb_counters_burst_warning(umb_header *h, size_t bytes);

/* The pieces, for tests: a timeline of phase changes and where a record
   stamped t falls in it (IDLE before the first change). */
typedef struct {
    uint64_t *t;
    unsigned char *phase;
    size_t n, cap;
} umb_timeline;
void umb_timeline_mark(umb_timeline *tl, uint64_t t, umb_phase p);
umb_phase umb_timeline_at(const umb_timeline *tl, uint64_t t);
void umb_timeline_free(umb_timeline *tl);

#endif
