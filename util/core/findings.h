/* Findings: rules over a program's own rows and the facts of its run
   (docs/decisions.md, "Why on every row"), each naming the rows it rests on and,
   where one is known, what to try. Pure logic: no MPI, no CUDA, so CI
   tests every rule on recorded rows (tests/unit/test_findings.c). */
#ifndef UMB_FINDINGS_H
#define UMB_FINDINGS_H

#include <stddef.h>

/* The path a row's bytes took, from the CUDA copies the library made. */
typedef enum {
    UMB_PATH_UNKNOWN,  /* not captured (no --path, or no CUPTI) */
    UMB_PATH_NONE,     /* no CUDA copies: the CPU moved the bytes (host memory, or managed pages it faulted in) */
    UMB_PATH_STAGED,   /* through host memory: device-to-host and host-to-device copies */
    UMB_PATH_DIRECT,   /* GPU to GPU: device-to-device or peer copies */
    UMB_PATH_MIXED,    /* both kinds, neither dominant */
    UMB_PATH_MIGRATED, /* no CUDA copies; the driver migrated managed pages (--counters saw them) */
} umb_path_class;

/* Bytes of CUDA copies per timed iteration, summed over ranks, and the
   managed bytes the driver migrated (NAN without --counters). */
typedef struct {
    double htod, dtoh, dtod, ptop, htoh, copies;  /* copies: how many */
    double migrated;
} umb_copy_bytes;

/* The class of a row's copies; payload is the bytes the benchmark hands
   the library per iteration (NAN when unknown). */
umb_path_class umb_path_classify(const umb_copy_bytes *c, double payload);
const char *umb_path_name(umb_path_class p);  /* "staged", "direct", ... */

/* What the rules read of one row; NAN where not measured. */
typedef struct {
    size_t size;
    double typical, best;      /* the metric's p50, and its best iteration (min latency, max bandwidth) */
    double typical_lo, typical_hi;  /* the p50's 95% interval (order statistics over the iterations) */
    double quartile_lo, quartile_hi;  /* the metric's p25 and p75: the middle half of the iterations */
    long iters;                /* iterations the row holds */
    umb_path_class path;
    umb_copy_bytes copy;
    double payload;            /* bytes per iteration handed to the library */
    double share;              /* bandwidth rows: fraction of the path's bound */
    double bound_gbs;          /* that bound, GB/s */
    double placed_pct, replaced, place_p50_us;  /* placement check; replaced: per timed iteration, all ranks */
} umb_row_facts;

/* One rank, as the header saw it. */
typedef struct {
    char host[64], gpu_bus[32], cpus[96], cpu_numa[32], pcie[64];  /* pcie: the GPU's link, as the header shows it */
    int gpu, gpu_numa, all_cpus;  /* all_cpus: may run on every online CPU (not bound) */
    int managed, device;          /* its buffer is managed (MH/MD), device (D) */
    int managed_on_gpu;           /* its buffer is MD: managed, placed on the GPU */
} umb_rank_facts;

typedef struct {
    int nranks;
    const umb_rank_facts *ranks;
    int lower_is_better;          /* latency (else bandwidth: time per message = size / rate) */
    int bandwidth;                /* rows carry a share of the bound */
    int ucx;                      /* UCX is the library's transport (names its settings in the advice) */
    int path_asked;               /* --path was given (an unknown path is then the machine's, not the user's) */
    double thrash_nap_us;         /* uvm_perf_thrashing_nap in us, NAN unknown */
    int thrash_enabled;           /* -1 unknown */
} umb_run_facts;

/* How sure a finding is (docs/output.md, "Findings"): a fact of the run
   (bytes counted, placements, GPUs, binding) holds as it is; a rule on one
   run's timings either repeats (its evidence stands clear of what moves
   between runs) or was seen once, which rounds confirm or not. */
typedef enum { UMB_FACT, UMB_REPEATS, UMB_SEEN_ONCE } umb_confidence;
const char *umb_confidence_name(umb_confidence c);  /* "fact", "repeats", "seen once" */

typedef struct {
    char id[24];       /* "inversion", "staged-managed", ... (docs/output.md) */
    char rows[96];     /* the sizes it rests on, "1-2048", or "ranks 0,1" */
    char what[640];
    char advice[320];  /* empty when nothing is known to try */
    umb_confidence confidence;
} umb_finding;

/* A row whose facts are all unknown (NAN, UMB_PATH_UNKNOWN), for observers to fill. */
void umb_row_facts_unknown(umb_row_facts *f);

/* The findings over rows[0..n) (sizes ascending), at most max; returns how many. */
int umb_findings(const umb_run_facts *run, const umb_row_facts *rows, int n, umb_finding *out, int max);

/* A size range as the table shows sizes: "8-4194304" or "64". */
void umb_size_range(size_t lo, size_t hi, char *buf, size_t n);

#endif
